source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
echo "=== CUB anchor"
nvcc -O3 -arch=sm_90 -o /tmp/cub_hist .device/anchors/cub_hist.cu && /tmp/cub_hist > $OUT/cub.txt 2>&1; grep -iE "e2e|end|pinned|bandwidth" $OUT/cub.txt | head -12
echo "=== tests (GPU, new build)"
timeout 200 build/tests/test-engine > $OUT/test-engine.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' $OUT/test-engine.txt)"; grep -E "^not ok|ERROR" $OUT/test-engine.txt | head -3
build/tests/test-engine -p /engine/batch --verbose 2>&1 | grep -E "^ok|^not ok|batched"
timeout 60 build/tests/clfault-scenarios batch; echo "batch scenario rc $?"
timeout 150 build/tests/test-engine-regions > $OUT/test-engine-regions.txt 2>&1; echo "regions rc $? ok $(grep -c '^ok' $OUT/test-engine-regions.txt)"
GST_DEBUG='*:1' GST_CHECKS=test_matrix,test_pool_path,test_host_memory,test_padded_strides,test_context_shared,test_in_flight_eos,test_in_flight_flush,test_in_flight_error,test_in_flight_caps_change,test_in_flight_latency_and_changes,test_in_flight_pipeline,test_request_response_appsrc timeout 120 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-threads 2>&1 | grep -E "Checks|:[EF]:"
timeout 60 build/tests/clhistogram-soak frames 100000 2>&1 | tail -1
B="--streams 1,16,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on --messages off --frames 600 --min-total 6000 --runs 3 --cpu-by-thread"
for round in 1 2; do
for b in build-before build; do
  echo "=== streams $b round $round"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 150 build/bench/clh-streams-bench $B --json $OUT/streams-$b-$round.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | grep -B1 "by thread" | grep -v "^--"
done
done
for b in build-before build; do
  echo "=== 256 streams $b"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 100 build/bench/clh-streams-bench --streams 256 --formats GRAY8 --in-flight 1 --pool on --messages off --frames 100 --runs 2 --cpu-by-thread --json $OUT/streams256-$b.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | head -4
done
echo "=== paced (new build)"
timeout 60 build/bench/clh-streams-bench --streams 1 --formats GRAY8,RGBA --in-flight 1 --pool on --messages off --frames 2000 --runs 3 --paced 2>&1 | grep -E "^ +1 .* on " | sort -u
