# SPDX-License-Identifier: LGPL-2.1-or-later
# The device call behind docs/performance.md "Before and after the
# restructuring": the GPU tests of the new build, then bench/ab-bench.sh
# with the build of 4a3bada (build-before: bench/ and the plugin only) and
# the new one (f879280: the engine's layers and the 1.0 meta, before the
# element's output thread) alternating. Run from the repository root with
# .device, build and build-before carried.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
git log -1 --format=%h 2>/dev/null
{
echo "=== GPU tests of the new build"
(
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram CLH_TEST_THOROUGH=1
export LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
timeout 200 build/tests/test-engine > /tmp/te.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' /tmp/te.txt)"; grep -E "^not ok" /tmp/te.txt | head -3
build/tests/test-engine -p /engine/batch --verbose 2>&1 | grep -E "^ok|^not ok|batched"
timeout 100 build/tests/test-engine-track > /tmp/tt.txt 2>&1; echo "engine-track rc $? ok $(grep -c '^ok' /tmp/tt.txt)"
timeout 150 build/tests/test-engine-regions > /tmp/ter.txt 2>&1; echo "regions rc $? ok $(grep -c '^ok' /tmp/ter.txt)"
timeout 60 build/tests/clfault-scenarios batch; echo "batch scenario rc $?"
GST_DEBUG='*:1' timeout 150 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-threads 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-upstream 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' CK_RUN_CASE=general timeout 100 build/tests/test-cltrackers 2>&1 | grep -E "Checks|:[EF]:" | head -5
timeout 60 build/tests/clhistogram-soak frames 100000 2>&1 | tail -1
timeout 60 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8,RGBA --in-flight 4 --pool on --frames 100 --runs 1 --verify 2>&1 | grep -iE "differ|fail|verif" | head -5
)
} 2>&1 | tee $OUT/tests-log.txt
echo "=== A/B"
ROUNDS=2 bench/ab-bench.sh $PWD/build-before $PWD/build /tmp/ab > $OUT/ab-log.txt 2>&1
cp /tmp/ab/summary.txt $OUT/summary.txt; cat $OUT/summary.txt
tar czf $OUT/ab.tgz -C /tmp ab
