source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
echo "=== CUB anchor"
nvcc -O3 -arch=sm_90 -o /tmp/cub_hist .device/anchors/cub_hist.cu && /tmp/cub_hist > $OUT/cub.txt 2>&1; grep -iE "e2e|end|pinned|bandwidth" $OUT/cub.txt | head -12
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
echo "=== engine tests (GPU)"
timeout 200 build/tests/test-engine > $OUT/test-engine.txt 2>&1; echo "rc $?"; grep -c "^ok" $OUT/test-engine.txt; grep -E "^not ok|ERROR" $OUT/test-engine.txt | head
timeout 150 build/tests/test-engine-regions > $OUT/test-engine-regions.txt 2>&1; echo "rc $?"; grep -c "^ok" $OUT/test-engine-regions.txt; grep -E "^not ok|ERROR" $OUT/test-engine-regions.txt | head
build/tests/test-host-copy 2>&1 | grep -cE "^ok"
GST_DEBUG='*:1' GST_CHECKS=test_matrix,test_pool_path,test_host_memory,test_in_flight_eos,test_in_flight_pipeline,test_padded_strides,test_context_shared timeout 120 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
echo "=== pageable A/B"
for b in build-before build; do
  echo "--- $b"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 100 build/bench/clh-streams-bench --streams 1 --formats RGBA,GRAY8 --in-flight 1,4 --pool off --messages off,on --frames 3000 --runs 3 --json $OUT/pageable-$b.json 2>&1 | grep -E "^ +1 "
done
echo "=== pool, 1 and 64 streams (new build)"
timeout 150 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on --messages off --frames 600 --min-total 3000 --runs 3 --json $OUT/pool.json 2>&1 | grep -E "^ +[0-9]+ "
