#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Renders the scope pictures of docs/images/ with clscope and
# clscopeoverlay from a build tree: frame 250 of vtest.avi
# (scripts/fetch-samples.sh fetches it) in each scope (the vectorscope
# zoomed too), the four together, the waveform and vectorscope over the
# frame, and SMPTE 75% colour bars, whose vectorscope dots must sit in
# the middle of the 75% targets; and FFmpeg's waveform and vectorscope of
# the frame. Needs ffmpeg.
#
#   scripts/scope-images.sh [BUILD_DIR]    (default: build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
video=$root/data/vtest.avi
out=$root/docs/images
export GST_PLUGIN_PATH="$build/gst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -s "$video" ] || { echo "scope-images: no $video (scripts/fetch-samples.sh)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "scope-images: needs ffmpeg" >&2; exit 1; }

# Frame 250 of vtest.avi as raw I420, decoded by FFmpeg: GStreamer's
# decoder here gives the frame's moving people ghosts that differ from
# run to run.
ffmpeg -v error -y -i "$video" -vf "select=eq(n\\,250)" -frames:v 1 \
  -pix_fmt yuv420p -f rawvideo "$tmp/frame.yuv"
source="filesrc location=$tmp/frame.yuv ! rawvideoparse format=i420 \
  width=768 height=576 framerate=25/1 colorimetry=bt601"

# NAME CLSCOPE-PROPERTIES WIDTH HEIGHT: the frame's scopes.
frame () {
  gst-launch-1.0 -q $source ! clscope $2 ! \
    video/x-raw,width=$3,height=$4 ! pngenc ! filesink location="$out/$1.png"
}

frame scope-waveform "scopes=waveform" 768 256
frame scope-waveform-log "scopes=waveform scale=log" 768 256
frame scope-parade "scopes=parade" 768 256
frame scope-vectorscope "scopes=vectorscope scale=log" 384 384
frame scope-vectorscope-zoom "scopes=vectorscope scale=log vectorscope-zoom=3" \
  384 384
frame scope-histogram "scopes=histogram graticule=codes" 512 256
frame scope-all "scopes=waveform+parade+vectorscope+histogram" 2048 256

# The same frame with the waveform and vectorscope drawn over it.
gst-launch-1.0 -q $source ! clscopeoverlay size=45 alpha=0.85 ! \
  videoconvert ! jpegenc quality=90 ! filesink location="$out/scope-overlay.jpg"

# The frame itself, for the reader to compare with.
gst-launch-1.0 -q $source ! videoconvert ! jpegenc quality=85 ! \
  filesink location="$out/scope-frame.jpg"

# FFmpeg's waveform and vectorscope of the same frame, to compare with.
ffmpeg -v error -y -i "$video" -vf "select=eq(n\\,250),format=yuv420p,\
waveform=graticule=green:flags=numbers+dots:scale=ire" -frames:v 1 \
  "$out/scope-ffmpeg-waveform.png"
ffmpeg -v error -y -i "$video" -vf "select=eq(n\\,250),format=yuv420p,\
vectorscope=graticule=green:flags=name" -frames:v 1 \
  "$out/scope-ffmpeg-vectorscope.png"

gst-launch-1.0 -q videotestsrc pattern=smpte75 num-buffers=1 ! \
  video/x-raw,format=I420,width=640,height=480 ! \
  clscope scopes=waveform+vectorscope scale=log ! \
  video/x-raw,width=768,height=256 ! pngenc ! \
  filesink location="$out/scope-bars.png"
echo "scope-images: $out/scope-*.png"
