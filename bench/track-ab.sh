#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# clcamshift before and after a change, in one GPU-machine call: each
# build's clh-track-bench in turn, ROUNDS times, on the same frames, so that
# drift of the machine shows as drift and not as a difference. Then
# bench/track-ab-summary.py prints each row's median per build, the spread
# of one build's rounds (the noise) and after / before.
#   source .device/env.sh; bench/track-ab.sh BEFORE_BUILD AFTER_BUILD VIDEO OUT_DIR
# VIDEO is decoded once (plugins-base and good: a VP8 WebM) into raw BGR
# frames at 600x480 (FRAMES_480, default 300) and 1920x1080 (FRAMES_1080,
# default 120). ROUNDS (default 3), RUNS (blocks per bench, default 3),
# TRACKS (default 1,16); AFTER_ARGS: more clh-track-bench options for the
# after build only, e.g. "--set min-mass=0" for the same work where the
# after build would stop searching lost tracks.
set -u -o pipefail
before=${1:?usage: track-ab.sh BEFORE AFTER VIDEO OUT_DIR}
after=${2:?} video=${3:?} out=${4:?}
here=$(cd "$(dirname "$0")" && pwd)
rounds=${ROUNDS:-3} runs=${RUNS:-3} tracks=${TRACKS:-1,16}
ld=${LD_LIBRARY_PATH:-}
export CLHISTOGRAM_CACHE_DIR=${CLHISTOGRAM_CACHE_DIR-/tmp/clh-program-cache}
mkdir -p "$out" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
echo "host: $(nproc) CPUs"

for size in 600x480 1920x1080; do
  w=${size%x*} h=${size#*x}
  if [ "$size" = 600x480 ]; then n=${FRAMES_480:-300} cf=1000; else n=${FRAMES_1080:-120} cf=300; fi
  GST_PLUGIN_PATH="$before/gst" gst-launch-1.0 -q filesrc location="$video" \
    ! decodebin ! videoconvert ! videoscale ! "video/x-raw,format=BGR,width=$w,height=$h" \
    ! identity eos-after="$n" ! filesink location="/tmp/track-ab.$size.BGR" \
    || { echo "!!! cannot decode $video"; exit 1; }
done

for round in $(seq 1 "$rounds"); do
  for side in before after; do
    build=$before extra=""
    [ "$side" = after ] && { build=$after; extra=${AFTER_ARGS:-}; }
    export GST_PLUGIN_PATH="$build/gst"
    export GST_REGISTRY="/tmp/track-ab-registry-$side.bin"
    export LD_LIBRARY_PATH="$build/gst-libs/gst/clhistogram${ld:+:$ld}"
    for size in 600x480 1920x1080; do
      w=${size%x*} h=${size#*x}
      if [ "$size" = 600x480 ]; then cf=1000; else cf=300; fi
      echo "=== $side-$round $size"
      # shellcheck disable=SC2086
      "$build/bench/clh-track-bench" --frames-file "/tmp/track-ab.$size.BGR" \
        --width "$w" --height "$h" --tracks "$tracks" --elements clcamshift \
        --runs "$runs" --frames "$cf" $extra \
        > "$out/track-$size-$side-$round.txt" 2>&1 || echo "clh-track-bench failed: $?"
      grep -E "^clcamshift " "$out/track-$size-$side-$round.txt"
    done
  done
done
rm -f /tmp/track-ab.*.BGR
python3 "$here/track-ab-summary.py" "$out" | tee "$out/summary.txt"
