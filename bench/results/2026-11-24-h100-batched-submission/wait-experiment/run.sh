source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build-b/gst/clhistogram
B="--streams 1,64 --formats GRAY8 --in-flight 1,4 --pool on --messages off --frames 600 --min-total 6000 --runs 3 --cpu-by-thread"
run () {
  echo "=== $1"
  env $2 timeout 120 build/bench/clh-streams-bench $B --json $OUT/$1.json 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread" | head -8
}
for round in 1 2; do
run default-$round ""
run poll20-$round "CLH_X_POLL_US=20"
run poll50-$round "CLH_X_POLL_US=50 CLH_X_POLL_MAX_US=400"
run wait-$round "CLH_X_WAIT=1"
done
