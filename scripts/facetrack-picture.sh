#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# docs/tracking.md's picture of examples/facetrack.py: frames 12, 49, 101
# and 230 of Megamind.avi with the guide's options (facedetect every 12 frames,
# clcamshift between), each track's box and id and facedetect's faces
# drawn, reduced to 256 colours (FFmpeg's palettegen and paletteuse) to
# stay small, into docs/images/facetrack.png.
#   scripts/facetrack-picture.sh [OUT_DIR]
# PYTHON names a Python with GStreamer's bindings and OpenCV (default
# python3).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/images}
export GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-$root/build/gst}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$root/scripts/fetch-samples.sh"
"${PYTHON:-python3}" "$root/examples/facetrack.py" "$root/data/Megamind.avi" \
  --every 12 --bins 45 --min-saturation 120 --min-value 60 --min-mass 0.25 \
  --output "$tmp/facetrack.png" --at 12,49,101,230 > "$tmp/tracks.txt"
ffmpeg -v error -y -i "$tmp/facetrack.png" \
  -vf "split[a][b];[a]palettegen[p];[b][p]paletteuse=dither=none" \
  "$out/facetrack.png"
echo "wrote $out/facetrack.png"
