# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
B=build-dev
export GST_PLUGIN_PATH=$PWD/$B/gst/clhistogram LD_LIBRARY_PATH=$PWD/$B/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
SB="$B/bench/clh-streams-bench --in-flight 4 --pool on --messages off --runs 2 --streams 64"
row() { grep -E "^ +[0-9]+ (GRAY8|RGBA) +on" | awk '!seen[$0]++'; }
for fmt in RGBA GRAY8; do
 for dev in 0:0 auto; do
  echo "=== $fmt $dev"
  $SB --formats $fmt --device $dev --frames 3000 > /tmp/b.txt 2>&1 &
  P=$!
  sleep 6
  python3 bench/results/2026-11-27-h200x2-two-gpus-long/sample.py $P 3
  wait $P; row < /tmp/b.txt
 done
done
