#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The long reliability runs, whose short versions are in the suite: a
# million frames through one element and a thousand state cycles (memory,
# files, threads), ten thousand rounds of caps changes and flushes with
# frames in flight, the fault sweep at every call of every OpenCL function,
# the fuzzer for FUZZ_SECONDS (default 1800), and clhistogram-probe with
# six inputs (a camera that restarts, cameras that talk garbage) and its
# /metrics scraped and trickled at for PROBE_SOAK_SECONDS (default 600).
# Run after a build (scripts/test.sh); prints the figures
# docs/reliability.md keeps.
#   scripts/reliability.sh [BUILD_DIR]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
export GST_PLUGIN_PATH="$build/gst"
export GST_PLUGIN_LOADING_WHITELIST="gstreamer:gst-plugins-base:gst-plugins-good:gst-libav:clhistogram"
export GST_REGISTRY="$build/tests/registry.bin"
export CLHISTOGRAM_CACHE_DIR="$build/tests/program-cache"
export GST_TRACERS=leaks GST_DEBUG='*:1'
failed=0
run() {
  echo "=== $*"
  start=$(date +%s)
  "$@" || failed=$((failed + 1))
  echo "    ($(($(date +%s) - start)) s)"
}

date -u; uname -m; nproc; clinfo -l 2>/dev/null | head -n 4
run "$build/tests/clhistogram-soak" frames 1000000
run "$build/tests/clhistogram-soak" cycles 1000
run "$build/tests/clhistogram-soak" changes 10000
run python3 "$root/tests/clfault-sweep.py" "$build/tests/clfault-scenarios" \
  "$build/tests/libclfault.so" --max-n 0
cases=$(ls "$root"/tests/fuzz-cases/*.bin 2>/dev/null)
# shellcheck disable=SC2086
echo "=== clhistogram-fuzz for ${FUZZ_SECONDS:-1800} s"
( cd "$build/tests" && ./clhistogram-fuzz --seed "$(date +%s)" \
  --seconds "${FUZZ_SECONDS:-1800}" $cases ) || failed=$((failed + 1))
run /usr/bin/python3 "$root/tests/probe-soak.py" \
  "$build/tools/clhistogram-probe" "$root/data/vtest.avi" \
  --seconds "${PROBE_SOAK_SECONDS:-600}"
echo "=== reliability.sh: $failed failed"
exit $failed
