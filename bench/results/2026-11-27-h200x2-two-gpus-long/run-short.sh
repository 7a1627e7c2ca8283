# SPDX-License-Identifier: LGPL-2.1-or-later
# two GPUs: where does the time go? one process vs two processes
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
B=build-dev
export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; clinfo -l
echo "=== two_devices test"
CLH_TEST_TWO_DEVICES=1 GST_CHECKS=test_two_devices,test_auto_spreads timeout 120 $B/tests/test-clhistogram 2>&1 | grep -E "Checks|:[EF]:" 
SB="$B/bench/clh-streams-bench --in-flight 4 --pool on --messages off --frames 300 --min-total 12800 --runs 3"
row() { grep -E "^ +[0-9]+ (GRAY8|RGBA) +on" | awk '!seen[$0]++'; }
for round in 1 2; do
 for fmt in GRAY8 RGBA; do
  echo "=== r$round $fmt one GPU 64"; timeout 100 $SB --streams 64 --formats $fmt --device 0:0 2>&1 | row
  echo "=== r$round $fmt two GPUs auto 64"; timeout 100 $SB --streams 64 --formats $fmt --device auto 2>&1 | row
  echo "=== r$round $fmt two processes 32+32"
  timeout 100 $SB --streams 32 --formats $fmt --device 0:0 > $OUT/p0-$fmt-$round.txt 2>&1 &
  timeout 100 $SB --streams 32 --formats $fmt --device 0:1 > $OUT/p1-$fmt-$round.txt 2>&1 &
  wait
  row < $OUT/p0-$fmt-$round.txt; row < $OUT/p1-$fmt-$round.txt
 done
done
for fmt in GRAY8 RGBA; do
 echo "=== threads $fmt 64 one GPU"; timeout 100 $SB --streams 64 --formats $fmt --device 0:0 --cpu-by-thread 2>&1 | grep -vE "^ +[0-9]+ (GRAY8|RGBA) +off" | tail -25
 echo "=== threads $fmt 64 auto"; timeout 100 $SB --streams 64 --formats $fmt --device auto --cpu-by-thread 2>&1 | grep -vE "^ +[0-9]+ (GRAY8|RGBA) +off" | tail -25
done
echo "=== RGBA 16 one GPU threads"; timeout 100 $SB --streams 16 --formats RGBA --device 0:0 --cpu-by-thread 2>&1 | tail -20
