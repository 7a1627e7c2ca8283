#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The operator's monitor of the README and docs/monitoring.md, the
# one-line clexposuremonitor at two input sizes:
#   - vtest.avi (768x576) with 5x5 zones, clipping alerts at 2% and
#     centre-weighted metering, frame 397 saved as operator-monitor.png,
#     and the exposure messages of the run (as `gst-launch-1.0 -m` prints
#     them) as operator-monitor-alerts.txt;
#   - Megamind.avi cropped to 16:9 and scaled to 1280x720, as a 720p camera
#     gives it, frame 120 as operator-monitor-720p.png.
#   scripts/operator-picture.sh [OUT_DIR]
set -eu -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/images}
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/gst}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# monitor NAME FRAME SOURCE... : frame FRAME of the monitor's picture,
# as NAME.png; the run's messages in $tmp/NAME.txt.
monitor() {
  local name=$1 frame=$2
  shift 2
  gst-launch-1.0 -m "$@" ! videoconvert ! video/x-raw,format=RGB \
    ! identity eos-after=$((frame + 1)) ! pngenc \
    ! multifilesink location="$tmp/$name-%05d.png" max-files=1 \
    > "$tmp/$name.txt"
  cp "$(ls "$tmp/$name"-*.png | tail -1)" "$out/$name.png"
  echo "wrote $out/$name.png"
}

monitor operator-monitor 397 \
  filesrc location="$root/data/vtest.avi" ! decodebin \
  ! clexposuremonitor zones=5x5 count::metering=centre-weighted \
    count::alert-clipped=2 count::alert-hold=500000000
grep -o 'exposure, .*' "$tmp/operator-monitor.txt" \
  > "$out/operator-monitor-alerts.txt"
echo "wrote $out/operator-monitor-alerts.txt"

monitor operator-monitor-720p 120 \
  filesrc location="$root/data/Megamind.avi" ! decodebin \
  ! videocrop top=61 bottom=62 ! videoscale \
  ! video/x-raw,width=1280,height=720,pixel-aspect-ratio=1/1 \
  ! clexposuremonitor
