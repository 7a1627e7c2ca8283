# SPDX-License-Identifier: LGPL-2.1-or-later
# One device call, two A/Bs against 4a3bada: 5e9d04c (the output thread
# waiting in the driver while the streaming thread submits) and the same
# with every frame through the submission thread (an experimental build,
# build-var, which ddddc5c made the rule for frames in flight).
set -u
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc
ROUNDS=2 bench/ab-bench.sh $PWD/build-before $PWD/build /tmp/ab1 > $OUT/ab1-log.txt 2>&1
ROUNDS=2 bench/ab-bench.sh $PWD/build-before $PWD/build-var /tmp/ab2 > $OUT/ab2-log.txt 2>&1
echo "=== before vs 5e9d04c"; head -22 /tmp/ab1/summary.txt
echo "=== before vs every frame through the submission thread"; head -22 /tmp/ab2/summary.txt
tar czf $OUT/ab.tgz -C /tmp ab1 ab2
