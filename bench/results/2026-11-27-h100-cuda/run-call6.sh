#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A device call of 2026-11-27 (docs/performance.md, "Frames in CUDA memory"):
# run from the checkout with .device and build-dev carried.
source .device/env.sh
B=$PWD/build-dev
export CLHISTOGRAM_CACHE_DIR=/tmp/cc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
for size in "1920 1080" "3840 2160"; do
  set -- $size
  for fmt in NV12 P010_10LE; do
    for fresh in "" "--fresh"; do
      $B/bench/clh-cuda-bench --format $fmt --width $1 --height $2 --iterations 300 $fresh | grep "^cuda-bench"
    done
  done
done
done
