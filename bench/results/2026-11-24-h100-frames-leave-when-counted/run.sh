# SPDX-License-Identifier: LGPL-2.1-or-later
# The device call behind docs/performance.md, "Why the defaults are what they are" (a frame leaves when counted) and its History (run from the repository root with .device/ carried).
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
echo "=== CUB anchor"
nvcc -O3 -arch=sm_90 -o /tmp/cub_hist .device/anchors/cub_hist.cu && /tmp/cub_hist | tee $OUT/cub.txt
echo "=== tests"
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
GST_DEBUG='*:1' GST_CHECKS=test_in_flight_eos,test_in_flight_flush,test_in_flight_error,test_in_flight_caps_change,test_in_flight_latency_and_changes,test_in_flight_pipeline build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' build/tests/test-clhistogram-upstream 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' build/tests/test-clhistogram-threads 2>&1 | grep -E "Checks|:[EF]:"
build/tests/clhistogram-soak frames 100000 2>&1 | tail -2
B="--streams 1,4,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on --messages off,on --messages-streams 1 --frames 600 --min-total 3000 --runs 3"
for round in 1; do
for b in build-before build; do
  echo "=== streams $b round $round"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 200 build/bench/clh-streams-bench $B --json $OUT/streams-$b-$round.json 2>&1 | grep -v "^device\|^[0-9]*x\|^fps\|^ratio\|^lat"
done
done
for b in build-before build; do
  echo "=== paced, pageable $b"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 100 build/bench/clh-streams-bench --streams 1 --formats GRAY8,RGBA --in-flight 1,4 --pool on --messages off,on --frames 2000 --runs 3 --paced 2>&1 | grep -E "^ +1 "
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 100 build/bench/clh-streams-bench --streams 1 --formats RGBA --in-flight 4 --pool off --messages off,on --frames 2000 --runs 3 2>&1 | grep -E "^ +1 "
done
