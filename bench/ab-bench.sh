#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Before and after a change, in one call on one machine: the engine's
# stream rows (clh-bench) and the element's pipeline rows
# (clh-pipeline-bench, 600x480), each build in turn, ROUNDS times, so that
# drift of the machine shows as drift and not as a difference.
#   source .device/env.sh; bench/ab-bench.sh BEFORE_BUILD AFTER_BUILD OUT_DIR
# A build folder needs bench/clh-bench, bench/clh-pipeline-bench and the
# plugin in gst/clhistogram (and its meta library beside it, as meson lays
# them out). ROUNDS defaults to 2.
set -u
before=$1 after=$2 out=$3
rounds=${ROUNDS:-2}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    build=$before
    [ "$side" = after ] && build=$after
    tag="$side-$round"
    echo "=== $tag: clh-bench"
    "$build/bench/clh-bench" --passes 3 --json "$out/bench-$tag.json" \
      > "$out/bench-$tag.txt" 2>&1 || echo "clh-bench failed: $?"
    sed -n '/^== stream/,/^$/p' "$out/bench-$tag.txt"
    echo "=== $tag: clh-pipeline-bench"
    GST_PLUGIN_PATH="$build/gst/clhistogram" \
      GST_REGISTRY="/tmp/ab-registry-$side.bin" \
      "$build/bench/clh-pipeline-bench" --size 600x480 --runs 3 \
      --json "$out/pipeline-$tag.json" > "$out/pipeline-$tag.txt" 2>&1 \
      || echo "clh-pipeline-bench failed: $?"
    tail -n 20 "$out/pipeline-$tag.txt"
  done
done
