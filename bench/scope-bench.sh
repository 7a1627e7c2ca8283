#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Waveform + vectorscope frames per second: clscope's engine
# (bench/clh-scope-bench: upload, counts, picture, readback, one frame at a
# time) against FFmpeg's `waveform` and `vectorscope` filters on the same
# raw I420 frames and host, in one run. FFmpeg's time is its filters' own:
# the run with the two filters less a run that only reads the frames
# (`-vf null`), so reading the file is not counted against it.
#   bench/scope-bench.sh FRAMES.yuv WxH OUT_DIR
# FRAMES.yuv: raw I420 frames of WxH (ffmpeg -pix_fmt yuv420p -f rawvideo).
# Environment: BUILD (default build/), FFMPEG (default ffmpeg; a static one
# for hosts without it: bench/ffmpeg-scopes.sh), THREADS (FFmpeg's
# -filter_threads, default nproc), LOOPS (passes over the file per run,
# default 25), RUNS (default 5), DEVICE (clh-scope-bench --device),
# SCOPE_ARGS (more clh-scope-bench options: --pinned times frames in the
# device's host blocks, as from clscope's pool; its files are named
# -pinned), SCOPES (waveform,vectorscope, the default, or waveform: the
# waveform alone on both sides). Files: OUT_DIR/ffmpeg-TAG.txt,
# clscope-TAG.txt, ratio-TAG.txt, TAG as 3840x2160-waveform-vectorscope.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
frames_file=${1:?usage: scope-bench.sh FRAMES.yuv WxH OUT_DIR}
size=${2:?usage: scope-bench.sh FRAMES.yuv WxH OUT_DIR}
out=${3:?usage: scope-bench.sh FRAMES.yuv WxH OUT_DIR}
build=${BUILD:-$root/build}
ffmpeg=${FFMPEG:-ffmpeg}
threads=${THREADS:-$(nproc)}
loops=${LOOPS:-25}
runs=${RUNS:-5}
mkdir -p "$out" || exit 1
width=${size%x*}
height=${size#*x}
frame_bytes=$(( width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2) ))
n_file=$(( $(stat -c %s "$frames_file") / frame_bytes ))
n_frames=$(( n_file * loops ))
scopes=${SCOPES:-waveform,vectorscope}
tag=$size-${scopes//,/-}
case " ${SCOPE_ARGS:-} " in *" --pinned "*) tag=$tag-pinned ;; esac

echo "host: $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "frames: $n_file of $size I420 in $frames_file, $loops passes a run"

# FFmpeg's real time (s) of one run with the filter graph $1, outputs $2.
ffmpeg_rtime () {
  "$ffmpeg" -hide_banner -nostdin -benchmark -filter_threads "$threads" \
    -stream_loop $(( loops - 1 )) -f rawvideo -pix_fmt yuv420p -s "$size" \
    -i "$frames_file" -filter_complex "$1" $2 2>&1 \
    | sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' | tail -1
}

: > "$out/ffmpeg-$tag.txt"
for run in $(seq 1 "$runs"); do
  read_only=$(ffmpeg_rtime "null" "-f null -")
  if [ "$scopes" = waveform ]; then
    filtered=$(ffmpeg_rtime "waveform" "-f null -")
  else
    filtered=$(ffmpeg_rtime "split[a][b];[a]waveform[w];[b]vectorscope[v]" \
      "-map [w] -f null - -map [v] -f null -")
  fi
  awk -v r="$run" -v a="$read_only" -v b="$filtered" -v n="$n_frames" 'BEGIN {
    printf "ffmpeg run %d: read %.3f s, read+scopes %.3f s: %.1f frames/s\n",
      r, a, b, n / (b - a) }' | tee -a "$out/ffmpeg-$tag.txt"
done
ffmpeg_fps=$(awk '{ print $NF == "frames/s" ? $(NF-1) : $NF }' \
  "$out/ffmpeg-$tag.txt" | sort -g | awk '{ v[NR] = $1 }
  END { print v[int((NR + 1) / 2)] }')
echo "ffmpeg median: $ffmpeg_fps frames/s" | tee -a "$out/ffmpeg-$tag.txt"

"$build/bench/clh-scope-bench" ${DEVICE:+--device "$DEVICE"} \
  --scopes "$scopes" --input "$frames_file" \
  --frames "$n_frames" --repeats "$runs" ${SCOPE_ARGS:-} "$size" \
  2>&1 | tee "$out/clscope-$tag.txt"
clh_fps=$(sed -n 's/^json: //p' "$out/clscope-$tag.txt" | python3 -c '
import json, sys
print(json.loads(sys.stdin.readline())["fps"])' 2>/dev/null)
clh_path=$(sed -n 's/^json: //p' "$out/clscope-$tag.txt" | python3 -c '
import json, sys
print(json.loads(sys.stdin.readline()).get("path", "malloc"))' 2>/dev/null)
awk -v c="${clh_fps:-0}" -v f="$ffmpeg_fps" -v p="${clh_path:-?}" 'BEGIN {
  printf "ratio: clscope (%s frames) %.1f frames/s / ffmpeg " \
    "%.1f frames/s = %.1fx\n", p, c, f, (f > 0 ? c / f : 0) }' \
  | tee "$out/ratio-$tag.txt"
