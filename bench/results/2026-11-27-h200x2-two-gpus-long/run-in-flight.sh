# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
B=build-dev
export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
row() { grep -E "^ +[0-9]+ (GRAY8|RGBA) +on" | awk '!seen[$0]++'; }
for round in 1 2; do
for k in 4 8 16; do
 for dev in 0:0 auto; do
  echo "=== r$round GRAY8 k=$k $dev"
  timeout 100 $B/bench/clh-streams-bench --in-flight $k --pool on --messages off --runs 2 --streams 64 --formats GRAY8 --device $dev --frames 4000 2>&1 | row
 done
done
for dev in 0:0 auto; do
  echo "=== r$round RGBA k=4 $dev"
  timeout 100 $B/bench/clh-streams-bench --in-flight 4 --pool on --messages off --runs 2 --streams 64 --formats RGBA --device $dev --frames 2000 2>&1 | row
done
done
