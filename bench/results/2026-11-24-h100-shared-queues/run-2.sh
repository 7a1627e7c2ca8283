source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B="--streams 1,16,64 --formats GRAY8 --in-flight 1,4 --pool on --messages off --frames 600 --min-total 6000 --runs 3"
for round in 1 2; do
echo "--- shared+lock $round"
CLH_EXPERIMENT_SUBMIT_LOCK=1 CLH_EXPERIMENT_SHARED_QUEUES=1 timeout 120 build/bench/clh-streams-bench $B --json $OUT/sharedlock-$round.json 2>&1 | grep -E "^ +[0-9]+ GRAY8  on" | sort -u
echo "--- lock $round"
CLH_EXPERIMENT_SUBMIT_LOCK=1 timeout 120 build/bench/clh-streams-bench $B --json $OUT/lock-$round.json 2>&1 | grep -E "^ +[0-9]+ GRAY8  on" | sort -u
done
echo "--- shared"
CLH_EXPERIMENT_SHARED_QUEUES=1 timeout 120 build/bench/clh-streams-bench $B --json $OUT/shared.json 2>&1 | grep -E "^ +[0-9]+ GRAY8  on" | sort -u
