#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The last 200 s of 2026-12-08's device time: 16x1080p streams of NVDEC,
# one run a way, under each GStreamer, and clh-cuda-bench (device time a
# frame, in place and resident) under 1.26; carried as run-call.sh says.
set -u
out=${OUT:-/tmp/clh-out}
root=$PWD
rm -rf /tmp/gstrt /tmp/gstrt-trixie
for v in 1.22 1.26; do
  env=$root/.device/env.sh build=$root/build-dev
  [ $v = 1.26 ] && env=$root/.device-trixie/env.sh build=$root/build-trixie
  (
    # shellcheck disable=SC1090
    source "$env"
    export GST_PLUGIN_PATH=$build/gst CLHISTOGRAM_CACHE_DIR=/tmp/cc-$v
    timeout 70 python3 bench/cuda-streams.py "$root/scratch/cuda/h264-1080p.mp4" \
      300 --streams 16 --repeats 1 --decoder "h264parse ! nvh264dec"
  ) > "$out/streams-1080p-$v.log" 2>&1
  echo "== $v"; grep -E "^(in-place|host|decode-only|cuda-streams)" "$out/streams-1080p-$v.log"
done
(
  source "$root/.device-trixie/env.sh"
  for f in NV12 P010_10LE; do
    timeout 25 trixie-run "$root/build-trixie/bench/clh-cuda-bench" --format $f \
      --width 3840 --height 2160 --iterations 200
  done
) > "$out/cuda-bench-1.26.log" 2>&1
grep -E "^cuda-bench|kernel time" "$out/cuda-bench-1.26.log"
