source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== tests (GPU, build 895a995)"
timeout 200 build/tests/test-engine-track --verbose > /tmp/tt.txt 2>&1; echo "engine-track rc $? ok $(grep -c '^ok' /tmp/tt.txt)"; grep -E "^not ok|ERROR|beside" /tmp/tt.txt | head -5
timeout 200 build/tests/test-engine > /tmp/te.txt 2>&1; echo "engine rc $? ok $(grep -c '^ok' /tmp/te.txt)"; grep -E "^not ok|ERROR" /tmp/te.txt | head -3
GST_DEBUG='*:1' CK_RUN_CASE=general timeout 200 build/tests/test-cltrackers 2>&1 | grep -E "Checks|:[EF]:" | head -5
GST_DEBUG='*:1' GST_CHECKS=test_context_shared,test_in_flight_pipeline,test_request_response_appsrc,test_pool_path,test_matrix timeout 120 build/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:"
raw=/tmp/t480.BGR
gst-launch-1.0 -q filesrc location=.device/vtest.webm ! decodebin ! videoconvert ! videoscale ! "video/x-raw,format=BGR,width=600,height=480" ! identity eos-after=300 ! filesink location=$raw; ls -la $raw
for round in 1 2; do
for b in build-before build; do
  echo "=== clh-track-bench 600x480 $b round $round"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 120 build/bench/clh-track-bench --frames-file $raw --width 600 --height 480 --tracks 1,16 --elements clcamshift,identity --runs 3 --frames 1000 --json $OUT/track-$b-$round.json 2>&1 | tail -6
done
done
