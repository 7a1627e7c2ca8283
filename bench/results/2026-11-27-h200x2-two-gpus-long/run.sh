# SPDX-License-Identifier: LGPL-2.1-or-later
# The streams matrix on one GPU with long runs, then one GPU against two,
# 64 streams, two rounds.
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
B=build-dev
export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
row() { grep -E "^ +[0-9]+ (GRAY8|RGBA) +o" | awk '!seen[$0]++'; }
echo "=== matrix, device 0:0"
timeout 420 $B/bench/clh-streams-bench --streams 1,4,16,64 --formats GRAY8,RGBA --in-flight 1,4 --pool on --messages off --frames 1000 --min-total 128000 --runs 3 --device 0:0 --json $OUT/matrix.json 2>&1 | tee $OUT/matrix.txt | sed -n '/all rows/,$p'
for round in 1 2; do
 for fmt in GRAY8 RGBA; do
  n=4000; [ $fmt = RGBA ] && n=2000
  for dev in 0:0 auto; do
   echo "=== two: round $round $fmt $dev"
   timeout 100 $B/bench/clh-streams-bench --in-flight 4 --pool on --messages off --runs 2 --streams 64 --formats $fmt --device $dev --frames $n 2>&1 | row | tee -a $OUT/two.txt
  done
 done
done
