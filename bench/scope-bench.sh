#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The scopes' target run: waveform + vectorscope frames/s of the scope
# engine (bench/clh-scope-bench) against FFmpeg's waveform and vectorscope
# filters on the same raw I420 frames (the first N of vtest.avi scaled to
# each size), FFmpeg with THREADS threads; then the waveform alone the same
# way. Prints each figure and the ratio; one JSON line each ("json: ").
#
#   bench/scope-bench.sh BUILD_DIR [THREADS] [FRAMES] [SIZE...]
#       (default: 16 threads, 100 frames, 1920x1080 3840x2160)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scope-bench.sh BUILD_DIR [THREADS] [FRAMES] [SIZE...]}
threads=${2:-16}
frames=${3:-100}
[ $# -gt 3 ] && shift 3 || set --
sizes=${*:-1920x1080 3840x2160}
video=$root/data/vtest.avi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Seconds FFmpeg takes for the frames through FILTER, less the same run
# without it (reading the file), best of three.
ffmpeg_seconds () {
  for k in 1 2 3; do
    t0=$(date +%s.%N)
    ffmpeg -v error -threads "$threads" -filter_threads "$threads" \
      -f rawvideo -s "$1" -pix_fmt yuv420p -i "$2" $3 -f null - </dev/null
    t1=$(date +%s.%N)
    ffmpeg -v error -threads "$threads" -f rawvideo -s "$1" \
      -pix_fmt yuv420p -i "$2" -f null - </dev/null
    t2=$(date +%s.%N)
    echo "$t0 $t1 $t2"
  done | awk '{ t = ($2 - $1) - ($3 - $2); if (NR == 1 || t < best) best = t }
    END { printf "%.6f\n", best }'
}

for size in $sizes; do
  w=${size%x*}
  h=${size#*x}
  ffmpeg -v error -y -i "$video" -frames:v "$frames" -vf "scale=$w:$h" \
    -pix_fmt yuv420p -f rawvideo "$tmp/frames.yuv"
  for scopes in waveform,vectorscope waveform; do
    if [ "$scopes" = waveform ]; then
      filter="-vf waveform"
    else
      filter="-filter_complex [0:v]split[a][b];[a]waveform[w];[b]vectorscope[v] -map [w] -map [v]"
    fi
    ours=$("$build/bench/clh-scope-bench" --scopes "$scopes" \
      --frames "$frames" --repeats 5 --input "$tmp/frames.yuv" "$size" \
      | sed -n 's/.* on .*: \([0-9.]*\) frames\/s.*/\1/p')
    secs=$(ffmpeg_seconds "$size" "$tmp/frames.yuv" "$filter")
    theirs=$(awk -v n="$frames" -v s="$secs" 'BEGIN { print n / s }')
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { print a / b }')
    printf '%s %s: clscope engine %.1f frames/s, FFmpeg (%s threads) %.1f frames/s: %.2fx\n' \
      "$size" "$scopes" "$ours" "$threads" "$theirs" "$ratio"
    printf 'json: {"size": "%s", "scopes": "%s", "engine_fps": %.2f, "ffmpeg_fps": %.2f, "ffmpeg_threads": %s, "ratio": %.3f}\n' \
      "$size" "$scopes" "$ours" "$theirs" "$threads" "$ratio"
  done
done
