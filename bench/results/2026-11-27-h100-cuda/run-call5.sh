#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A device call of 2026-11-27 (docs/performance.md, "Frames in CUDA memory"):
# run from the checkout with .device, build-dev and scratch/cuda carried.
source .device/env.sh
B=$PWD/build-dev
export GST_PLUGIN_PATH=$B/gst/clhistogram LD_LIBRARY_PATH=$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH CLHISTOGRAM_CACHE_DIR=/tmp/cc
git log --oneline -1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
h264="h264parse ! nvh264dec"
for c in "equal scratch/cuda/h264-odd.mp4" "streams scratch/cuda/h264-odd.mp4" "streams scratch/cuda/h264-1080p.mp4"; do
  set -- $c
  timeout 120 $B/tests/clhistogram-cuda-check $1 $2 "$h264" ${3:-} 2>&1 | grep -v XDG | grep -E "streams|PASS|FAIL|differs|messages" | cut -c1-250
done
timeout 200 python3 bench/cuda-streams.py scratch/cuda/h264-1080p.mp4 300 --streams 16 --repeats 3 --decoder "$h264"
$B/bench/clh-cuda-bench --format NV12 --iterations 300 | grep "^cuda-bench"
