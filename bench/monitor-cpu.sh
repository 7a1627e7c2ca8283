#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The host CPU a live exposure monitor adds per frame: 1280x720 I420 frames
# of VIDEO through clhistogram (5x5 zones, clipping and crushing alerts,
# no counts in messages) and histogramoverlay (zone grid, graticule,
# percentages), against the same frames into fakesink, in one run. CPU is
# user + system time of the whole process (PoCL's worker threads count:
# on a host without a GPU they are the device). Prints each run and the
# median added milliseconds per frame.
#   bench/monitor-cpu.sh data/vtest.avi OUT_DIR
# Environment: BUILD (default build/), FRAMES (default 600), RUNS (default 5),
# MONITOR (the elements between source and sink, to measure another chain).
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
video=${1:?usage: monitor-cpu.sh VIDEO OUT_DIR}
out=${2:?usage: monitor-cpu.sh VIDEO OUT_DIR}
build=${BUILD:-$root/build}
frames=${FRAMES:-600}
runs=${RUNS:-5}
monitor=${MONITOR:-"clhistogram zones=5x5 alert-clipped=2 alert-crushed=2 \
message-counts=false ! histogramoverlay"}
export GST_PLUGIN_PATH="$build/gst"
export CLHISTOGRAM_CACHE_DIR=${CLHISTOGRAM_CACHE_DIR-/tmp/clh-program-cache}
mkdir -p "$out" || exit 1
raw=$(mktemp --suffix=.I420 /tmp/monitor-cpu.XXXXXXXX)
trap 'rm -f "$raw"' EXIT

echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
gst-launch-1.0 -q filesrc location="$video" ! decodebin ! videoconvert \
  ! videoscale ! video/x-raw,format=I420,width=1280,height=720 \
  ! identity eos-after=65 ! filesink location="$raw" || exit 1

source_chain="multifilesrc location=$raw loop=true \
! rawvideoparse format=i420 width=1280 height=720 framerate=30/1 \
! identity eos-after=$((frames + 1))"

# Prints the CPU seconds (user + system) of one run of the chain $1.
cpu_of () {
  /usr/bin/time -f '%U %S' -o "$out/time.txt" \
    gst-launch-1.0 -q $source_chain ! $1 ! fakesink >/dev/null || return 1
  awk '{ printf "%.3f\n", $1 + $2 }' "$out/time.txt"
}

: > "$out/monitor-cpu.txt"
for run in $(seq 1 "$runs"); do
  base=$(cpu_of identity) || exit 1
  with=$(cpu_of "$monitor") || exit 1
  awk -v b="$base" -v w="$with" -v n="$frames" -v r="$run" 'BEGIN {
    printf "run %d: base %.3f s, monitor %.3f s, added %.3f ms/frame\n",
      r, b, w, (w - b) * 1000 / n }' | tee -a "$out/monitor-cpu.txt"
done
sort -t' ' -k10 -g "$out/monitor-cpu.txt" | awk -v runs="$runs" '
  { v[NR] = $10 } END { printf "median added: %s ms/frame (%d runs)\n",
    v[int((NR + 1) / 2)], runs }' | tee -a "$out/monitor-cpu.txt"
rm -f "$out/time.txt"
