#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A device call of 2026-11-27 (docs/performance.md, "Frames in CUDA memory"):
# run from the checkout with .device, build-dev and scratch/cuda carried.
source .device/env.sh
B=$PWD/build-dev
export GST_PLUGIN_PATH=$B/gst/clhistogram LD_LIBRARY_PATH=$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH CLHISTOGRAM_CACHE_DIR=/tmp/cc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== cycles"
timeout 330 $B/tests/clhistogram-cuda-check cycles scratch/cuda/h264-odd.mp4 "h264parse ! nvh264dec" 1000 > $OUT/cycles.log 2>&1; echo "cycles rc=$?"
grep -v XDG $OUT/cycles.log | grep -E "cycle|PASS|FAIL" | tail -14
clip=scratch/cuda/h264-1080p.mp4
br() { echo "filesrc location=$clip ! qtdemux ! h264parse ! nvh264dec ! $1 fakesink sync=false"; }
many() { local s=""; for i in $(seq 1 16); do s="$s $(br "$1")"; done; echo "$s"; }
echo "=== profiles (16 streams)"
for way in cuda decode; do
  case $way in cuda) mid='"video/x-raw(memory:CUDAMemory)" ! clhistogram mode=luma !' ;; decode) mid='"video/x-raw(memory:CUDAMemory)" !' ;; esac
  start=$(date +%s.%N)
  eval timeout 90 env SPROF_OUT=$OUT/prof-$way.txt LD_PRELOAD=$B/sprof.so gst-launch-1.0 -q $(many "$mid") 2>&1 | grep -v XDG | tail -3
  echo "$way: $(echo "$(date +%s.%N) - $start" | python3 -c 'import sys; print(round(eval(sys.stdin.read()),2))') s"
done
echo "=== scaling"
for n in 1 4 32; do
  timeout 120 python3 bench/cuda-streams.py $clip 300 --streams $n --repeats 2 2>&1 | tail -1
done
