# SPDX-License-Identifier: LGPL-2.1-or-later
# The probe with 64 file inputs against clh-streams-bench's 64 streams,
# one GPU, same call.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
B=build-dev
export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
N=3000
t0=$(date +%s%N)
gst-launch-1.0 -q videotestsrc num-buffers=$N pattern=snow ! video/x-raw,format=GRAY8,width=600,height=480,framerate=30/1 ! avimux ! filesink location=/tmp/g.avi
echo "clip: $(stat -c %s /tmp/g.avi) bytes, $(( ($(date +%s%N) - t0) / 1000000 )) ms to write"
cat /tmp/g.avi > /dev/null
inputs=""; for i in $(seq 0 63); do inputs="$inputs c$i=/tmp/g.avi"; done
P=$B/tools/clhistogram-probe
run_probe() { # label, command...
  local label=$1; shift
  echo "$label: $(timeout 200 python3 bench/results/2026-11-27-h200x2-probe-64-inputs/timed.py "$@"), $(wc -l < /tmp/p.out) lines; $(tail -c 300 /tmp/p.err | tr '\n' ' ')"
}
row() { grep -E "^ +64 GRAY8 +o" | awk '!seen[$0]++'; }
for round in 1 2; do
  echo "=== round $round"
  timeout 200 $B/bench/clh-streams-bench --streams 64 --formats GRAY8 --in-flight 0 --pool off,on --messages off,on --frames $N --runs 2 --device 0:0 2>&1 | row
  run_probe "probe startup (--max-frames 1)" $P --quiet --as-decoded --no-counts --device 0:0 --max-frames 1 $inputs
  run_probe "probe quiet" $P --quiet --as-decoded --no-counts --device 0:0 --expect-frames $N $inputs
  run_probe "probe JSON" $P --as-decoded --no-counts --device 0:0 --expect-frames $N $inputs
done
