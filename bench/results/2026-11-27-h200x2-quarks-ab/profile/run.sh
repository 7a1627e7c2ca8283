# SPDX-License-Identifier: LGPL-2.1-or-later
# Build the profiler first: gcc -O2 -shared -fPIC -o libsprof.so sprof.c -ldl
# Sampled profiles of 64 GRAY8 streams: the bench with messages off and on,
# the probe with 64 file inputs, quiet and printing JSON.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
B=build-prof  # 6f2217f built with -Dmetrics=disabled, symbols kept
export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
SP=$PWD/bench/results/2026-11-27-h200x2-quarks-ab/profile/libsprof.so
N=1500
gst-launch-1.0 -q videotestsrc num-buffers=$N pattern=snow ! video/x-raw,format=GRAY8,width=600,height=480,framerate=30/1 ! avimux ! filesink location=/tmp/g.avi 2>/dev/null
inputs=""; for i in $(seq 0 63); do inputs="$inputs c$i=/tmp/g.avi"; done
for m in off on; do
  echo "=== bench messages $m"
  timeout 120 env SPROF_OUT=$OUT/bench-$m.txt LD_PRELOAD=$SP $B/bench/clh-streams-bench --streams 64 --formats GRAY8 --in-flight 4 --pool on --messages $m --frames 1500 --runs 1 --device 0:0 2>&1 | grep -E "^ +64 GRAY8 +on" | awk '!seen[$0]++'
done
echo "=== probe quiet"; timeout 120 env SPROF_OUT=$OUT/probe-quiet.txt LD_PRELOAD=$SP $B/tools/clhistogram-probe --quiet --as-decoded --no-counts --device 0:0 --expect-frames $N $inputs; echo rc $?
echo "=== probe JSON"; timeout 120 env SPROF_OUT=$OUT/probe-json.txt LD_PRELOAD=$SP $B/tools/clhistogram-probe --as-decoded --no-counts --device 0:0 --expect-frames $N $inputs > /dev/null; echo rc $?
for f in bench-off bench-on probe-quiet probe-json; do echo "##### $f"; sed -n '/== by thread/,/== self by/p' $OUT/$f.txt | head -45; done
