# SPDX-License-Identifier: LGPL-2.1-or-later
# The device call behind docs/performance.md "Two GPUs" (nvidia-h100-x2,
# 0866252): 64 streams on one GPU (device=0:0) and spread over both
# (device=auto), alternating, two rounds; then --verify over both. Run from
# the repository root with .device and build carried. (The JSON of the
# 0:0 rows did not come back: its name has a colon; two.txt has them.)
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; clinfo -l
for round in 1 2; do
  for dev in 0:0 auto; do
    echo "=== round $round device $dev"
    timeout 120 build/bench/clh-streams-bench --streams 64 --formats GRAY8,RGBA --in-flight 4 --pool on --messages off --frames 200 --min-total 12800 --runs 3 --device $dev --json $OUT/two-$dev-$round.json 2>&1 | grep -E "^ +64 " | awk '!seen[$0]++' | tee -a $OUT/two.txt
  done
done
timeout 60 build/bench/clh-streams-bench --streams 64 --formats GRAY8 --in-flight 4 --pool on --frames 100 --runs 1 --device auto --verify 2>&1 | grep -iE "differ|devices|^ +64" | head -4
