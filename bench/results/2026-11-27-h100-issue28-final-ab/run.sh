# SPDX-License-Identifier: LGPL-2.1-or-later
# The device call behind docs/performance.md "Before and after the
# restructuring": the GPU tests of 8f8f3d8 (thorough element tests, soak,
# --verify with messages, paced latency), then bench/ab-bench.sh with the
# build of 4a3bada (build-before: bench/ and the plugin only) and 8f8f3d8
# alternating, three rounds. Run from the repository root with .device,
# build and build-before carried.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
{
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram CLH_TEST_THOROUGH=1 GST_DEBUG='*:1'
export LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
for t in test-clhistogram test-clhistogram-threads test-clhistogram-upstream test-clhistogram-regions test-clhistogram-stats; do
  echo "$t: $(timeout 200 build/tests/$t 2>&1 | grep -E 'Checks|:[EF]:' | head -3)"; done
timeout 120 build/tests/clhistogram-soak frames 100000 2>&1 | tail -1
timeout 100 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on,off --messages off,on --frames 100 --runs 1 --verify > /tmp/verify.txt 2>&1; echo "verify rc $? differing lines $(grep -ciE 'differ|mismatch' /tmp/verify.txt)"
echo "=== paced (latency without queueing)"
timeout 60 build/bench/clh-streams-bench --streams 1 --formats GRAY8,RGBA --in-flight 1,4 --pool on --frames 2000 --runs 3 --paced 2>&1 | grep -E "^ +1 " | awk '!seen[$0]++'
} 2>&1 | tee $OUT/tests-log.txt
ROUNDS=3 bench/ab-bench.sh $PWD/build-before $PWD/build /tmp/ab > $OUT/ab-log.txt 2>&1
cp /tmp/ab/summary.txt $OUT/summary.txt; cat $OUT/summary.txt
tar czf $OUT/ab.tgz -C /tmp ab
