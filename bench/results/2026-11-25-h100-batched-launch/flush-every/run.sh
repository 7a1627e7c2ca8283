source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== CUB anchor"
nvcc -O3 -arch=sm_90 -o /tmp/cub_hist .device/anchors/cub_hist.cu && /tmp/cub_hist > $OUT/cub.txt 2>&1; grep -iE "end-to-end" $OUT/cub.txt | grep uniform
echo "=== tests (GPU, final build)"
timeout 200 build/tests/test-engine > /tmp/te.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' /tmp/te.txt)"; grep -E "^not ok|ERROR" /tmp/te.txt | head -3; grep batched /tmp/te.txt
timeout 60 build/tests/clfault-scenarios batch; echo "batch scenario rc $?"
timeout 150 build/tests/test-engine-regions > /tmp/ter.txt 2>&1; echo "regions rc $? ok $(grep -c '^ok' /tmp/ter.txt)"
GST_DEBUG='*:1' GST_CHECKS=test_matrix,test_pool_path,test_host_memory,test_padded_strides,test_context_shared,test_in_flight_eos,test_in_flight_flush,test_in_flight_error,test_in_flight_caps_change,test_in_flight_latency_and_changes,test_in_flight_pipeline,test_request_response_appsrc timeout 120 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-threads 2>&1 | grep -E "Checks|:[EF]:"
timeout 60 build/tests/clhistogram-soak frames 100000 2>&1 | tail -1
echo "=== verify: every histogram against a count of its frame at the sink"
timeout 200 build/bench/clh-streams-bench --streams 16,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on,off --messages off --frames 100 --runs 1 --verify --json $OUT/verify.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |FAIL|check" | sort -u | head -20; echo "verify rc ${PIPESTATUS[0]}"
for round in 1 2; do
for b in build build-b; do
  echo "=== flush every 8 (build) / 16 (build-b): $b round $round"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 100 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8,RGBA --in-flight 1 --pool on --messages off --frames 600 --min-total 6000 --runs 3 --cpu-by-thread --json $OUT/flush-$b-$round.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | grep -A1 " on " | grep -v "^--"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 60 build/bench/clh-streams-bench --streams 256 --formats GRAY8 --in-flight 1 --pool on --messages off --frames 100 --runs 2 --cpu-by-thread --json $OUT/flush256-$b-$round.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | grep -A1 " on " | grep -v "^--" | head -2
done
done
