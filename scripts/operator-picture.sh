#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The operator's monitor of the README and docs/monitoring.md: vtest.avi through clhistogram (5x5 zones,
# clipping alerts, centre-weighted metering), then zebra stripes and the
# histogram overlay on the picture, the waveform and vectorscope below it
# (compositor), frame FRAME (default 397) saved as a PNG, and the exposure
# messages of the run (as `gst-launch-1.0 -m` prints them) as text.
#   scripts/operator-picture.sh [VIDEO] [OUT_DIR] [FRAME]
set -eu -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
video=${1:-$root/data/vtest.avi}
out=${2:-$root/docs/images}
frame=${3:-397}
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/gst}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gst-launch-1.0 -m filesrc location="$video" ! decodebin ! videoconvert \
  ! video/x-raw,format=I420 \
  ! clhistogram zones=5x5 message-counts=false metering=centre-weighted \
      alert-clipped=2 alert-hold=500000000 ! tee name=t \
  t. ! queue ! clexposuremarks marks=zebra ! histogramoverlay zone-clipped=2 \
  ! comp.sink_0 \
  t. ! queue ! clscope scopes=waveform+vectorscope \
  ! video/x-raw,width=768,height=256 ! comp.sink_1 \
  compositor name=comp sink_1::ypos=576 ! videoconvert \
  ! video/x-raw,format=RGB ! identity eos-after=$((frame + 1)) ! pngenc \
  ! multifilesink location="$tmp/frame-%05d.png" max-files=1 \
  > "$tmp/messages.txt"
cp "$(ls "$tmp"/frame-*.png | tail -1)" "$out/operator-monitor.png"
grep -o 'exposure, .*' "$tmp/messages.txt" > "$out/operator-monitor-alerts.txt"
echo "wrote $out/operator-monitor.png and $out/operator-monitor-alerts.txt"
