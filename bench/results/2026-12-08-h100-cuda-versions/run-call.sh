#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The device calls of 2026-12-08 (docs/performance.md, "In place against
# the host way"): what the call of 2026-12-07 left, in parts that each end
# within a call's 600 s:
#   run-call.sh checks 1.22|1.26   every CUDA check, 1,000 start-stop cycles
#   run-call.sh bench 1.22|1.26    clh-cuda-bench (device time a frame a
#                                  way), then 16x1080p and 8x2160p streams
#                                  of NVDEC, in place, host way, decode only
# from the checkout with .device, .device-trixie, build-dev, build-trixie
# and scratch/cuda carried, each made as
# bench/results/2026-12-07-h100-cuda-versions/run-call.sh says (build-dev
# and build-trixie from the commit the README of this folder names).
set -u
part=${1:?usage: run-call.sh checks|bench 1.22|1.26}
version=${2:?usage: run-call.sh checks|bench 1.22|1.26}
out=${OUT:-/tmp/clh-out}
mkdir -p "$out"
root=$PWD
case $version in
  1.22) env=$root/.device/env.sh build=$root/build-dev runner="" ;;
  1.26) env=$root/.device-trixie/env.sh build=$root/build-trixie runner=trixie-run ;;
  *) echo "run-call: no GStreamer $version here" >&2; exit 2 ;;
esac
case $part in
  checks) what="BENCH=0 CYCLES=${CYCLES:-1000}" ;;
  bench) what="CHECKS=0 REPEATS=${REPEATS:-3}" ;;
  *) echo "run-call: no part $part" >&2; exit 2 ;;
esac
log=$out/$part-$version.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# A warm machine may keep a runtime unpacked by an earlier call.
rm -rf /tmp/gstrt /tmp/gstrt-trixie
(
  # shellcheck disable=SC1090
  source "$env"
  export CLH_RUN=$runner CLHISTOGRAM_CACHE_DIR=/tmp/cc-$version
  gst-inspect-1.0 "$build/gst/libgstclhistogram.so" 2>&1 | grep -v XDG \
    | head -4
  env $what timeout 560 bash scripts/device-cuda-check.sh \
    "$root/scratch/cuda" "$build"
) > "$log" 2>&1
echo "$part $version: $(tail -1 "$log")"
grep -E "^=== .*: (PASS|FAIL|SKIP)|cycles in|^(in-place|host|decode-only|cuda-streams|cuda-bench)" "$log" | cut -c1-220
