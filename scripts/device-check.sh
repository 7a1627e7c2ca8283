#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the built tests and the main job on a machine without GStreamer
# development files (the GPU machine), with the runtime that
# ../shared/device/bundle packs into .device/ (given libjson-glib-1.0-0, which
# clhistogram-probe needs: ../shared/device/bundle libjson-glib-1.0-0) and the
# build folder carried:
#   source .device/env.sh; scripts/device-check.sh VIDEO
# VIDEO must be decodable with plugins-base/good (e.g. VP8 WebM).
# SWEEP_MAX_N caps the fault sweep's N per function (default 4).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
video=${1:?usage: device-check.sh VIDEO}
build="$root/build"
export GST_PLUGIN_PATH="$build/gst"
export LD_LIBRARY_PATH="$build/gst-libs/gst/clhistogram:${LD_LIBRARY_PATH:-}"
export CLHISTOGRAM_CACHE_DIR=/tmp/clh-program-cache
failed=0
run() {
  local name=$1; shift
  echo "=== $name"
  local start=$SECONDS
  if "$@"; then echo "=== $name: PASS ($((SECONDS - start)) s)"; else
    echo "=== $name: FAIL ($((SECONDS - start)) s)"; failed=$((failed + 1)); fi
}
errors() {
  GST_CHECKS=$1 env "${@:2}" "$build/tests/test-clhistogram-errors"
}

clinfo -l
gst-inspect-1.0 clhistogram | grep -A1 -E '^  [a-z-]+ +:'
run engine "$build/tests/test-engine"
run engine-regions "$build/tests/test-engine-regions"
run element-regions env GST_TRACERS=leaks "$build/tests/test-clhistogram-regions"
run element env GST_TRACERS=leaks "$build/tests/test-clhistogram"
run element-upstream env GST_TRACERS=leaks "$build/tests/test-clhistogram-upstream"
run element-threads env GST_TRACERS=leaks "$build/tests/test-clhistogram-threads"
run soak-frames "$build/tests/clhistogram-soak" frames 200000
run soak-cycles "$build/tests/clhistogram-soak" cycles 300
run soak-changes "$build/tests/clhistogram-soak" changes 1000
run fuzz bash -c "cd /tmp && '$build/tests/clhistogram-fuzz' --seconds 60 $root/tests/fuzz-cases/*.bin"
run fault-sweep env GST_TRACERS=leaks python3 "$root/tests/clfault-sweep.py" \
  "$build/tests/clfault-scenarios" "$build/tests/libclfault.so" \
  --max-n "${SWEEP_MAX_N:-4}" --jobs 8
mkdir -p /tmp/no-opencl-vendors
run error-no-opencl errors test_no_opencl OCL_ICD_VENDORS=/tmp/no-opencl-vendors
run error-build-failure errors test_build_failure CLFAULT_BREAK_BUILD=1 \
  CLHISTOGRAM_CACHE_DIR= LD_PRELOAD="$build/tests/libclfault.so"
run error-opencl-failure-while-streaming errors test_opencl_failure_while_streaming \
  CLFAULT_NDRANGE_OK=1 LD_PRELOAD="$build/tests/libclfault.so"
probe="$build/tools/clhistogram-probe"
for format in GRAY8 RGBA; do
  for mode in luma channels; do
    run "video-$format-$mode" "$probe" --check --quiet --expect-frames 795 \
      --format "$format" --width 600 --height 480 --mode "$mode" "$video"
  done
done
run video-decoded-hue "$probe" --check --quiet --mode hue --expect-frames 795 \
  "$video"
run video-every-format "$root/tests/vtest-every-format.sh" "$probe" "$video" 10
echo "=== main job, every frame's histogram as JSON Lines:"
"$probe" --check --format GRAY8 --width 600 --height 480 "$video" \
  > "${OUT:-/tmp}/main-job.jsonl" 2> "${OUT:-/tmp}/main-job-summary.txt"
head -c 600 "${OUT:-/tmp}/main-job.jsonl"; echo; cat "${OUT:-/tmp}/main-job-summary.txt"
echo "=== device-check: $failed failed"
exit $failed
