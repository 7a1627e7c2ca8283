# SPDX-License-Identifier: LGPL-2.1-or-later
# Quarks A/B: the build before (build-dev) and after (build-new), alternating:
# 64 GRAY8 streams with messages off and on, and the probe with 64 file inputs.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
BASE_LD=$LD_LIBRARY_PATH
N=1500
gst-launch-1.0 -q videotestsrc num-buffers=$N pattern=snow ! video/x-raw,format=GRAY8,width=600,height=480,framerate=30/1 ! avimux ! filesink location=/tmp/g.avi 2>/dev/null
inputs=""; for i in $(seq 0 63); do inputs="$inputs c$i=/tmp/g.avi"; done
row() { grep -E "^ +64 GRAY8 +on" | awk '!seen[$0]++'; }
for round in 1 2; do
 for B in build-dev build-new; do
  export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$BASE_LD
  echo "=== round $round $B"
  timeout 100 $B/bench/clh-streams-bench --streams 64 --formats GRAY8 --in-flight 4 --pool on --messages off,on --frames 2000 --runs 2 --device 0:0 2>&1 | row
  for q in --quiet ""; do
    echo "probe ${q:-json}: $(timeout 100 python3 bench/results/2026-11-27-h200x2-probe-64-inputs/timed.py $B/tools/clhistogram-probe $q --as-decoded --no-counts --device 0:0 --expect-frames $N $inputs), $(tail -c 200 /tmp/p.err | tr '\n' ' ')"
  done
 done
done
