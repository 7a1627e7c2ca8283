#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A CPU-only host (PoCL): clhistogram on GRAY8 600x480 in a pipeline
# (bench/clh-pipeline-bench, messages on and off) against OpenCV's calcHist
# on the same kinds of frames (bench/calchist_cpu.py: uniform, one value,
# and the same 64 real frames of VIDEO), in one run; with BEFORE=DIR also a
# second build's plugin (DIR/gst) in the same run.
#   bench/cpu-bench.sh data/vtest.avi OUT_DIR
# Environment: BUILD (default build/), PYTHON (default /usr/bin/python3,
# Debian's, which has cv2), FRAMES (per run, default 2000), RUNS (default 5).
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
video=${1:?usage: cpu-bench.sh VIDEO OUT_DIR}
out=${2:?usage: cpu-bench.sh VIDEO OUT_DIR}
build=${BUILD:-$root/build}
python=${PYTHON:-/usr/bin/python3}
frames=${FRAMES:-2000}
runs=${RUNS:-5}
export CLHISTOGRAM_CACHE_DIR=${CLHISTOGRAM_CACHE_DIR-/tmp/clh-program-cache}
mkdir -p "$out" || exit 1
raw=$(mktemp --suffix=.GRAY8 /tmp/cpu-bench.XXXXXXXX)
trap 'rm -f "$raw"' EXIT

echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
# The first 64 frames are all either side rotates over.
gst-launch-1.0 -q filesrc location="$video" ! decodebin ! videoconvert \
  ! videoscale ! video/x-raw,format=GRAY8,width=600,height=480 \
  ! identity eos-after=65 ! filesink location="$raw" || exit 1

pipeline_bench () {
  GST_PLUGIN_PATH="$1/gst" "$build/bench/clh-pipeline-bench" \
    -f GRAY8 -s 600x480 -n "$frames" -r "$runs" -m both \
    --real-gray8="$raw" --json="$out/pipeline-$2.json" \
    2>&1 | tee "$out/pipeline-$2.txt"
}

failed=0
pipeline_bench "$build" build || failed=1
if [ -n "${BEFORE:-}" ]; then
  pipeline_bench "$BEFORE" before || failed=1
fi
"$python" "$root/bench/calchist_cpu.py" --frames-file "$raw" \
  --frames "$frames" --runs "$runs" --json "$out/calchist.json" \
  2>&1 | tee "$out/calchist.txt" || failed=1
exit $failed
