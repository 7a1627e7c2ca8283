source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== CUB anchor"
nvcc -O3 -arch=sm_90 -o /tmp/cub_hist .device/anchors/cub_hist.cu 2>/dev/null && /tmp/cub_hist > /tmp/cub.txt 2>&1; grep -iE "end-to-end" /tmp/cub.txt | grep uniform
echo "=== tests (GPU, build)"
timeout 200 build/tests/test-engine > /tmp/te.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' /tmp/te.txt)"; grep -E "^not ok|ERROR" /tmp/te.txt | head -3
timeout 60 build/tests/clfault-scenarios batch; echo "batch scenario rc $?"
GST_DEBUG='*:1' GST_CHECKS=test_context_shared,test_in_flight_pipeline,test_request_response_appsrc timeout 120 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-threads 2>&1 | grep -E "Checks|:[EF]:"
for round in 1 2; do
for b in build build-b; do
  echo "=== flush every 16 (build) / 32 (build-b): $b round $round"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 120 build/bench/clh-streams-bench --streams 1,16,64 --formats GRAY8,RGBA --in-flight 1 --pool on --messages off --frames 600 --min-total 6000 --runs 3 --cpu-by-thread --json $OUT/f-$b-$round.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | grep -A1 " on " | grep -v "^--" | head -24
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 60 build/bench/clh-streams-bench --streams 256 --formats GRAY8 --in-flight 1 --pool on --messages off --frames 100 --runs 2 --cpu-by-thread 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | grep -A1 " on " | grep -v "^--" | head -2
done
done
echo "=== one stream, 4 in flight (build)"
timeout 60 build/bench/clh-streams-bench --streams 1 --formats GRAY8,RGBA --in-flight 4 --pool on --messages off --frames 6000 --runs 3 2>&1 | grep -E "^ +1 .* on " | sort -u
echo "=== paced (build)"
timeout 60 build/bench/clh-streams-bench --streams 1 --formats GRAY8,RGBA --in-flight 1 --pool on --messages off --frames 2000 --runs 3 --paced 2>&1 | grep -E "^ +1 .* on " | sort -u
