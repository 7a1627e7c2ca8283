#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Renders the pictures of clexposuremarks in docs/images/: frame 397 (the
# middle one) of vtest.avi as its decoder gives it (I420, BT.601 limited
# range), scaled to 512x384 to keep the pictures small, through the
# element with each mark, then to RGB PNG.
#
# usage: scripts/marks-images.sh [BUILD_DIR]   (default: build)
# Needs the plugin built in BUILD_DIR, ffmpeg (to pick the frame, with the
# decoder GStreamer's avdec_mpeg4 wraps) and data/vtest.avi.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
video=${CLH_TEST_VIDEO:-$root/data/vtest.avi}
out=$root/docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

export GST_PLUGIN_PATH="$build/gst"
export CLHISTOGRAM_CACHE_DIR="$build/tests/program-cache"

width=512
height=384
ffmpeg -v error -i "$video" \
    -vf "select=eq(n\\,397),scale=$width:$height:flags=bicubic" -frames:v 1 \
    -pix_fmt yuv420p -f rawvideo "$tmp/frame.yuv"

# render NAME PROPERTIES...: the frame through clexposuremarks PROPERTIES
# into docs/images/marks-NAME.png.
render () {
  name=$1
  shift
  gst-launch-1.0 -q filesrc location="$tmp/frame.yuv" ! \
      rawvideoparse format=i420 width="$width" height="$height" \
          colorimetry=bt601 framerate=25/1 ! \
      clexposuremarks "$@" ! videoconvert ! video/x-raw,format=RGB ! \
      pngenc compression-level=9 ! filesink location="$out/marks-$name.png"
  echo "$out/marks-$name.png"
}

render zebra marks=zebra zebra-level=95
render zebra-low marks=zebra+zebra-low zebra-level=95 zebra-low-level=5
render false-colour marks=false-colour
render brng marks=brng
render zebra-false-colour marks=zebra+false-colour zebra-level=95
