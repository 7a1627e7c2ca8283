# SPDX-License-Identifier: LGPL-2.1-or-later
# One GPU against two, 64 streams, long runs, two rounds; and the host CPU rows.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
B=build-dev
export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
row() { grep -E "^ +[0-9]+ (GRAY8|RGBA) +o" | awk '!seen[$0]++'; }
for round in 1 2; do
 for fmt in GRAY8 RGBA; do
  n=4000; [ $fmt = RGBA ] && n=2000
  for dev in 0:0 auto; do
   echo "=== two: round $round $fmt $dev"
   timeout 100 $B/bench/clh-streams-bench --in-flight 4 --pool on --messages off --runs 2 --streams 64 --formats $fmt --device $dev --frames $n 2>&1 | row
  done
 done
done
echo "=== host CPU, 64 GRAY8, one GPU, 1 and 4 in flight"
timeout 150 $B/bench/clh-streams-bench --in-flight 1,4 --pool on --messages off --runs 3 --streams 64 --formats GRAY8 --device 0:0 --frames 2000 2>&1 | row
