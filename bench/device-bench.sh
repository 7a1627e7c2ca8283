#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One GPU-machine call: the engine benchmark (transfer paths, variants, the
# K x L sweep and the padding study), the pipeline benchmark, many streams
# and start-up, the driver's floor and the anchors, side by side.
#   source .device/env.sh; bench/device-bench.sh VIDEO ANCHORS_DIR OUT_DIR
# VIDEO is decoded to raw 600x480 GRAY8, RGBA and NV12 frames for the "real"
# rows; ANCHORS_DIR holds shared/anchors (cub_hist.cu, opencv_anchor.py).
# BENCH_ARGS adds options to clh-bench (e.g. --passes 2); BENCH_STUDIES=""
# leaves out its sweep and padding study (about two minutes).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
video=$1 anchors=$2 out=$3
mkdir -p "$out"
for f in GRAY8 RGBA NV12; do
  gst-launch-1.0 -q filesrc location="$video" ! decodebin ! videoconvert ! \
    videoscale ! "video/x-raw,format=$f,width=600,height=480" ! \
    filesink location="/tmp/vtest.$f" || exit 1
done
real="--real-gray8 /tmp/vtest.GRAY8 --real-rgba /tmp/vtest.RGBA --real-nv12 /tmp/vtest.NV12"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== CUB anchor"
nvcc -O3 -arch=sm_90 -o /tmp/cub_hist "$anchors/cub_hist.cu" && /tmp/cub_hist | tee "$out/cub.txt"
echo "=== clh-bench"
"$root/build/bench/clh-bench" $real ${BENCH_STUDIES---sweep --padding} ${BENCH_ARGS:-} \
  --json "$out/bench.json" | tee "$out/bench.txt"
echo "=== clh-pipeline-bench"
GST_PLUGIN_PATH="$root/build" "$root/build/bench/clh-pipeline-bench" $real \
  --json "$out/pipeline.json" | tee "$out/pipeline.txt"
echo "=== clh-streams-bench (concurrent streams, start-up)"
# A 64-stream run is 64 x 600 frames (about a second of GRAY8, a few of
# pageable RGBA); single streams get 3000 frames. Throughput rows left after
# --budget seconds are skipped, so that the call stays within its limit;
# start-up then takes 30 fresh processes (5 each of program cache cold, warm
# and off, with the driver's own cache on and off).
GST_PLUGIN_PATH="$root/build" "$root/build/bench/clh-streams-bench" \
  --streams 1,4,16,64 --formats GRAY8,RGBA --in-flight 1,4,8 --pool on,off \
  --messages off,on --messages-streams 1 --frames 600 --min-total 3000 \
  --runs 3 --budget 210 --startup --json "$out/streams.json" 2>&1 \
  | tee "$out/streams.txt"
echo "clh-streams-bench exit status ${PIPESTATUS[0]} (2: a check failed)"
echo "=== cl-floor (the driver's cost of a frame's commands, no histogram)"
"$root/build/bench/cl-floor" | tee "$out/cl-floor.txt"
echo "=== CUB anchor, again after"
/tmp/cub_hist | tee "$out/cub-after.txt"
echo "=== OpenCV anchor"
python3 "$anchors/opencv_anchor.py" 2>&1 | tee "$out/opencv.txt"
