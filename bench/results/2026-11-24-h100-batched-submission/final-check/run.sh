source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log --oneline -1 2>/dev/null
timeout 200 build/tests/test-engine > $OUT/test-engine.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' $OUT/test-engine.txt)"; grep -E "^not ok|ERROR" $OUT/test-engine.txt | head -3
for t in /engine/batch /engine/shared-submission /engine/submission-auto; do build/tests/test-engine -p $t --verbose 2>&1 | grep -E "^ok|^not ok|^# clEnq"; done
timeout 60 build/tests/clfault-scenarios batch; echo "batch scenario rc $?"
timeout 150 build/tests/test-engine-regions > $OUT/test-engine-regions.txt 2>&1; echo "regions rc $? ok $(grep -c '^ok' $OUT/test-engine-regions.txt)"
GST_DEBUG='*:1' GST_CHECKS=test_matrix,test_pool_path,test_host_memory,test_padded_strides,test_context_shared,test_in_flight_eos,test_in_flight_flush,test_in_flight_error,test_in_flight_caps_change,test_in_flight_latency_and_changes,test_in_flight_pipeline timeout 120 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-upstream 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-threads 2>&1 | grep -E "Checks|:[EF]:"
timeout 60 build/tests/clhistogram-soak frames 100000 2>&1 | tail -1
timeout 120 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8 --in-flight 1,4 --pool on --messages off --frames 600 --min-total 6000 --runs 3 --cpu-by-thread --json $OUT/streams.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | head -8
