# SPDX-License-Identifier: LGPL-2.1-or-later
# The first output thread's device calls (7c230e3; docs/performance.md,
# "Before and after the restructuring", history): `run.sh tests`, the GPU tests of the new build; `run.sh
# ab`, bench/ab-bench.sh with the build of 4a3bada (build-before: bench/
# and the plugin only) and the new one alternating, three rounds. Run from
# the repository root with .device, build and build-before carried.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
if [ "${1:-}" = tests ]; then
{
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram CLH_TEST_THOROUGH=1
export LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_DEBUG='*:1'
timeout 200 build/tests/test-engine > /tmp/te.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' /tmp/te.txt)"; grep -E "^not ok" /tmp/te.txt | head -3
build/tests/test-engine -p /engine/batch --verbose 2>&1 | grep -E "^ok|^not ok|batched"
timeout 100 build/tests/test-engine-track > /tmp/tt.txt 2>&1; echo "engine-track rc $? ok $(grep -c '^ok' /tmp/tt.txt)"
timeout 150 build/tests/test-engine-regions > /tmp/ter.txt 2>&1; echo "regions rc $? ok $(grep -c '^ok' /tmp/ter.txt)"
timeout 60 build/tests/clfault-scenarios batch; echo "batch scenario rc $?"
for t in test-clhistogram test-clhistogram-threads test-clhistogram-upstream test-clhistogram-regions test-clhistogram-stats; do
  echo "$t: $(timeout 200 build/tests/$t 2>&1 | grep -E 'Checks|:[EF]:' | head -3)"; done
echo "cltrackers: $(CK_RUN_CASE=general timeout 100 build/tests/test-cltrackers 2>&1 | grep -E 'Checks|:[EF]:' | head -3)"
for s in "frames 100000" "cycles 200" "changes 500"; do timeout 120 build/tests/clhistogram-soak $s 2>&1 | tail -1; done
timeout 100 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on,off --frames 100 --runs 1 --verify > /tmp/verify.txt 2>&1; echo "verify rc $?"; grep -ciE "differ|mismatch" /tmp/verify.txt
timeout 60 build/bench/clh-streams-bench --streams 1 --formats GRAY8,RGBA --in-flight 1,4 --pool on --frames 2000 --runs 3 --paced 2>&1 | grep -E "^ +1 "
} 2>&1 | tee $OUT/tests-log.txt
else
ROUNDS=${ROUNDS:-3} bench/ab-bench.sh $PWD/build-before $PWD/build /tmp/ab > $OUT/ab-log.txt 2>&1
cp /tmp/ab/summary.txt $OUT/summary.txt; cat $OUT/summary.txt
tar czf $OUT/ab.tgz -C /tmp ab
fi
