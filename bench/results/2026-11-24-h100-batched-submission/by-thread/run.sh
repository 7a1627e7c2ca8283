source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
head -c 300 /proc/self/task/$$/schedstat; echo
for round in 1 2; do
echo "=== by thread, round $round"
timeout 200 build/bench/clh-streams-bench --streams 1,16,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on --messages off --frames 600 --min-total 6000 --runs 3 --cpu-by-thread --json $OUT/threads-$round.json 2>&1 | grep -E "^ +[0-9]+ [GR]|by thread" | head -40
done
