source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== tests (GPU, dc92e84)"
timeout 200 build/tests/test-engine > /tmp/te.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' /tmp/te.txt)"; grep -E "^not ok|ERROR" /tmp/te.txt | head -3
build/tests/test-engine -p /engine/batch --verbose 2>&1 | grep -E "^ok|^not ok|batched"
timeout 200 build/tests/test-engine-track > /tmp/tt.txt 2>&1; echo "engine-track rc $? ok $(grep -c '^ok' /tmp/tt.txt)"; grep -E "^not ok|ERROR" /tmp/tt.txt | head -3
timeout 60 build/tests/clfault-scenarios batch; echo "batch scenario rc $?"
timeout 150 build/tests/test-engine-regions > /tmp/ter.txt 2>&1; echo "regions rc $? ok $(grep -c '^ok' /tmp/ter.txt)"
GST_DEBUG='*:1' GST_CHECKS=test_matrix,test_pool_path,test_host_memory,test_padded_strides,test_context_shared,test_in_flight_eos,test_in_flight_flush,test_in_flight_error,test_in_flight_caps_change,test_in_flight_latency_and_changes,test_in_flight_pipeline timeout 120 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' timeout 60 build/tests/test-clhistogram-threads 2>&1 | grep -E "Checks|:[EF]:"
GST_DEBUG='*:1' CK_RUN_CASE=general timeout 200 build/tests/test-cltrackers 2>&1 | grep -E "Checks|:[EF]:" | head -5
timeout 60 build/tests/clhistogram-soak frames 100000 2>&1 | tail -1
echo "=== streams --verify and a short check"
timeout 120 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on,off --messages off --frames 100 --runs 1 --verify 2>&1 | grep -E "failures|differ|^ +[0-9]+ [GR].*%" | head -12
timeout 100 build/bench/clh-streams-bench --streams 1,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on --messages off --frames 600 --min-total 6000 --runs 3 --cpu-by-thread 2>&1 | grep -E "^ +[0-9]+ [GR].* on " | grep "%"
