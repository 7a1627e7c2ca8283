#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Before and after a change, in one call on one machine, each build in
# turn ROUNDS times, so that drift of the machine shows as drift and not as
# a difference:
#   - one stream and 64 streams through the element (clh-streams-bench:
#     GRAY8 and RGBA from the element's pool, the default 4 frames in
#     flight; one stream with messages off and on, for their CPU ratio);
#   - regions, zones and ROI metas beside the whole frame (clh-regions-bench);
#   - the engine's stream rows (clh-bench --quick).
# Then bench/ab-summary.py prints each row's median per build, the spread
# of the runs of one build (the noise) and after / before.
#   source .device/env.sh; bench/ab-bench.sh BEFORE_BUILD AFTER_BUILD OUT_DIR
# A build folder needs bench/, the plugin under gst/ (GStreamer scans its
# subfolders: gst/clhistogram/ in builds before the elements moved into
# families) and its meta library beside it, as meson lays them out. ROUNDS
# defaults to 2,
# FRAMES (per stream and run of the one-stream rows) to 2000.
set -u
before=$1 after=$2 out=$3
rounds=${ROUNDS:-2}
frames=${FRAMES:-2000}
here=$(cd "$(dirname "$0")" && pwd)
ld=${LD_LIBRARY_PATH:-}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    build=$before
    [ "$side" = after ] && build=$after
    tag="$side-$round"
    export GST_PLUGIN_PATH="$build/gst"
    export GST_REGISTRY="/tmp/ab-registry-$side.bin"
    export LD_LIBRARY_PATH="$build/gst-libs/gst/clhistogram${ld:+:$ld}"
    echo "=== $tag: one stream (messages off, on)"
    "$build/bench/clh-streams-bench" --streams 1 --formats GRAY8,RGBA \
      --in-flight 4 --pool on --messages off,on --frames "$frames" --runs 3 \
      --json "$out/one-$tag.json" > "$out/one-$tag.txt" 2>&1 \
      || echo "clh-streams-bench failed: $?"
    grep -E "^ +1 " "$out/one-$tag.txt"
    echo "=== $tag: 64 streams"
    "$build/bench/clh-streams-bench" --streams 64 --formats GRAY8,RGBA \
      --in-flight 4 --pool on --messages off --frames 200 --min-total 12800 \
      --runs 3 --json "$out/many-$tag.json" > "$out/many-$tag.txt" 2>&1 \
      || echo "clh-streams-bench failed: $?"
    grep -E "^ +64 " "$out/many-$tag.txt"
    echo "=== $tag: regions"
    "$build/bench/clh-regions-bench" --json "$out/regions-$tag.json" \
      > "$out/regions-$tag.txt" 2>&1 || echo "clh-regions-bench failed: $?"
    echo "=== $tag: engine (clh-bench --quick, stream rows)"
    "$build/bench/clh-bench" --quick --passes 3 --json "$out/bench-$tag.json" \
      > "$out/bench-$tag.txt" 2>&1 || echo "clh-bench failed: $?"
    sed -n '/^== stream/,/^$/p' "$out/bench-$tag.txt"
  done
done
python3 "$here/ab-summary.py" "$out" | tee "$out/summary.txt"
