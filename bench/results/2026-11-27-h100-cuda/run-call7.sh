#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A device call of 2026-11-27 (docs/performance.md, "Frames in CUDA memory"):
# run from the checkout with .device, build-dev and scratch/cuda carried.
source .device/env.sh
B=$PWD/build-dev
export GST_PLUGIN_PATH=$B/gst/clhistogram LD_LIBRARY_PATH=$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH CLHISTOGRAM_CACHE_DIR=/tmp/cc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
h264="h264parse ! nvh264dec"
c=$B/tests/clhistogram-cuda-check
for args in "equal scratch/cuda/h264-odd.mp4" "trackers scratch/cuda/h264-odd.mp4" "fallback scratch/cuda/h264-odd.mp4" "streams scratch/cuda/h264-odd.mp4" "cycles scratch/cuda/h264-odd.mp4"; do
  set -- $args
  n=""; [ $1 = cycles ] && n=100; [ $1 = streams ] && n=8
  timeout 120 $c $1 $2 "$h264" $n 2>&1 | grep -v XDG | grep -E "cycles in|streams:|tee:|PASS|FAIL|differs|messages" | cut -c1-220
done
timeout 60 $c equal scratch/cuda/h265-10bit.mp4 "h265parse ! nvh265dec" P010_10LE 2>&1 | grep -E "PASS|FAIL|differs"
$B/bench/clh-cuda-bench --format NV12 --iterations 300 --fresh | grep "^cuda-bench"
