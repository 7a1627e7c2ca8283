#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One GPU-machine call: clcamshift (bench/clh-track-bench, against the same
# pipeline with identity) and OpenCV's CPU CamShift loop
# (bench/camshift_opencv.py, all CPUs and one thread) on the same real
# frames and windows, at 600x480 and 1920x1080, with 1 and 16 tracks.
#   source .device/env.sh; bench/track-bench.sh VIDEO OUT_DIR
# VIDEO is decoded with gst-launch-1.0 (on the GPU machine: plugins-base and
# good only, e.g. a VP8 WebM) and scaled to raw BGR frames: FRAMES_480
# (default 300) frames at 600x480, FRAMES_1080 (default 120) at 1920x1080;
# the benches loop over them. Each size's figures go to OUT_DIR as
# track-WxH.{txt,json} and opencv-WxH.{txt,json}.
# Environment: BUILD (default build/), PYTHON (default python3), TRACKS
# (default 1,16), RUNS (default 5), C_FRAMES_480 / C_FRAMES_1080 (frames per
# timed block of clh-track-bench, default 1000 / 300), PY_FRAMES_480 /
# PY_FRAMES_1080 (of camshift_opencv.py, default 200 / 60), C_ARGS and
# PY_ARGS (more options for each).
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
video=${1:?usage: track-bench.sh VIDEO OUT_DIR}
out=${2:?usage: track-bench.sh VIDEO OUT_DIR}
build=${BUILD:-$root/build}
python=${PYTHON:-python3}
tracks=${TRACKS:-1,16}
runs=${RUNS:-5}
export GST_PLUGIN_PATH="$build/gst"
export LD_LIBRARY_PATH="$build/gst-libs/gst/clhistogram${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CLHISTOGRAM_CACHE_DIR=${CLHISTOGRAM_CACHE_DIR-/tmp/clh-program-cache}
mkdir -p "$out" || exit 1
failed=0

if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fi
echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
elements=clcamshift,identity
if ! gst-inspect-1.0 clcamshift >/dev/null 2>&1; then
  echo "!!! no clcamshift element in $GST_PLUGIN_PATH: timing identity and OpenCV only"
  elements=identity
  failed=1
fi

for size in 600x480 1920x1080; do
  w=${size%x*} h=${size#*x}
  if [ "$size" = 600x480 ]; then
    n=${FRAMES_480:-300} cf=${C_FRAMES_480:-1000} pf=${PY_FRAMES_480:-200}
  else
    n=${FRAMES_1080:-120} cf=${C_FRAMES_1080:-300} pf=${PY_FRAMES_1080:-60}
  fi
  raw=/tmp/track-bench.$size.BGR
  echo "=== decoding $video to $n frames of $size BGR"
  limit=()
  [ "$n" -gt 0 ] && limit=(! identity eos-after="$n")
  gst-launch-1.0 -q filesrc location="$video" ! decodebin ! videoconvert ! \
    videoscale ! "video/x-raw,format=BGR,width=$w,height=$h" "${limit[@]}" ! \
    filesink location="$raw" || { echo "!!! cannot decode $video"; exit 1; }
  echo "$(( $(stat -c %s "$raw") / (((w * 3 + 3) / 4 * 4) * h) )) frames in $raw"

  echo "=== clh-track-bench $size (elements $elements, tracks $tracks)"
  "$build/bench/clh-track-bench" --frames-file "$raw" --width "$w" \
    --height "$h" --tracks "$tracks" --elements "$elements" --runs "$runs" \
    --frames "$cf" ${C_ARGS:-} --json "$out/track-$size.json" 2>&1 \
    | tee "$out/track-$size.txt"
  status=${PIPESTATUS[0]}
  echo "clh-track-bench exit status $status (1: a case failed, 2: bad options or no element)"
  [ "$status" -eq 0 ] || failed=1

  echo "=== OpenCV CamShift loop $size (tracks $tracks)"
  PYTHONUNBUFFERED=1 "$python" "$root/bench/camshift_opencv.py" \
    --frames-file "$raw" --width "$w" --height "$h" --tracks "$tracks" \
    --runs "$runs" --frames "$pf" ${PY_ARGS:-} \
    --json "$out/opencv-$size.json" 2>&1 | tee "$out/opencv-$size.txt"
  status=${PIPESTATUS[0]}
  echo "camshift_opencv.py exit status $status"
  [ "$status" -eq 0 ] || failed=1
  rm -f "$raw"
done
exit $failed
