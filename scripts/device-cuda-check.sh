#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The CUDA memory path on the GPU machine (NVIDIA GPU with NVDEC, no
# GStreamer development files), with the runtime that
# `../shared/device/bundle --nvcodec` packs into .device/ and the build
# folder carried:
#   source .device/env.sh; scripts/device-cuda-check.sh CLIPS [BUILD]
# CLIPS holds h264-1080p.mp4 (1920x1080, 300 frames), h264-2160p.mp4
# (3840x2160, 150 frames), h264-odd.mp4 (638x358), h265-8bit.mp4 (Main),
# h265-10bit.mp4 (Main 10) and vp9-10bit.webm (profile 2), as
# scripts/make-cuda-clips.sh makes them. Prints PASS or FAIL per check, the
# benchmarks' lines, and "N passed, N failed" last.
# Environment: CLH_RUN, a command the built programs run under (the
# Debian 13 runtime's trixie-run, scripts/device-runtime-trixie.sh);
# CYCLES (1000), STREAMS_1080P (16), STREAMS_2160P (8), REPEATS (3);
# CHECKS=0 runs the benchmarks only, BENCH=0 the checks only.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
clips=${1:?usage: device-cuda-check.sh CLIPS [BUILD]}
build=${2:-$root/build}
export GST_PLUGIN_PATH="$build/gst"
export LD_LIBRARY_PATH="$build/gst-libs/gst/clhistogram:${LD_LIBRARY_PATH:-}"
export CLHISTOGRAM_CACHE_DIR=/tmp/clh-program-cache
runner=${CLH_RUN:-}
check="$runner $build/tests/clhistogram-cuda-check"
passed=0
failed=0
run() {
  local name=$1; shift
  echo "=== $name"
  local start=$SECONDS rc=0
  "$@" || rc=$?
  if [ $rc -eq 0 ]; then
    echo "=== $name: PASS ($((SECONDS - start)) s)"; passed=$((passed + 1))
  elif [ $rc -eq 77 ]; then
    echo "=== $name: SKIP"
  else
    echo "=== $name: FAIL ($((SECONDS - start)) s)"; failed=$((failed + 1))
  fi
}
has() { gst-inspect-1.0 "$1" >/dev/null 2>&1; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
clinfo -l
for dec in nvh264dec nvh265dec nvvp9dec; do
  has $dec && echo "$dec: $(gst-inspect-1.0 $dec | grep -m1 -o 'profile: .*' \
    || true)" || echo "$dec: missing"
done

gst-inspect-1.0 --version | sed -n 2p
h264="h264parse ! nvh264dec"
h265="h265parse ! nvh265dec"
if [ "${CHECKS:-1}" != 0 ]; then
  run engine-import-refused $runner "$build/tests/test-engine" \
    -p /engine/external-memory-refused
  run equal-nv12-odd $check equal "$clips/h264-odd.mp4" "$h264"
  run equal-nv12-1080p $check equal "$clips/h264-1080p.mp4" "$h264"
  if has nvh265dec; then
    run equal-nv12-h265 $check equal "$clips/h265-8bit.mp4" "$h265" NV12
    run equal-p010-h265 $check equal "$clips/h265-10bit.mp4" "$h265" \
      P010_10LE
  fi
  if has nvvp9dec; then
    run equal-p010-vp9 $check equal "$clips/vp9-10bit.webm" \
      "vp9parse ! nvvp9dec" P010_10LE
  fi
  run trackers $check trackers "$clips/h264-odd.mp4" "$h264"
  run streams-odd $check streams "$clips/h264-odd.mp4" "$h264" 8
  run streams-1080p $check streams "$clips/h264-1080p.mp4" "$h264" 8
  run fallback-tee $check fallback "$clips/h264-odd.mp4" "$h264"
  run memory-copy $check copy "$clips/h264-odd.mp4" "$h264"
  run cycles $check cycles "$clips/h264-odd.mp4" "$h264" "${CYCLES:-1000}"
fi

if [ "${BENCH:-1}" != 0 ]; then
  echo "=== benchmarks"
  for format in NV12 P010_10LE; do
    for size in "1920 1080" "3840 2160"; do
      set -- $size
      for fresh in "" --fresh; do
        run "kernel-bench-$format-${1}x$2$fresh" $runner \
          "$build/bench/clh-cuda-bench" --format "$format" --width "$1" \
          --height "$2" --iterations 300 $fresh
      done
    done
  done
  run streams-bench-1080p python3 "$root/bench/cuda-streams.py" \
    "$clips/h264-1080p.mp4" 300 --streams "${STREAMS_1080P:-16}" \
    --repeats "${REPEATS:-3}" --decoder "$h264"
  run streams-bench-2160p python3 "$root/bench/cuda-streams.py" \
    "$clips/h264-2160p.mp4" 150 --streams "${STREAMS_2160P:-8}" \
    --repeats "${REPEATS:-3}" --decoder "$h264"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
