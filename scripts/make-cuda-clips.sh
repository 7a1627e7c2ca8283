#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Encodes the clips scripts/device-cuda-check.sh decodes with NVDEC, from
# the samples scripts/fetch-samples.sh fetches (Megamind.avi, vtest.avi),
# with Debian's ffmpeg (libx264, libx265, libvpx-vp9):
#   scripts/make-cuda-clips.sh [OUTDIR]     (default scratch/cuda)
# h264-1080p.mp4: H.264 High, 1920x1080, 300 frames, and h264-2160p.mp4:
# 3840x2160, 150 frames (the streams bench); h264-odd.mp4: 638x358, a size
# no macroblock divides; h265-8bit.mp4: HEVC Main, 854x480;
# h265-10bit.mp4: HEVC Main 10, 854x480; vp9-10bit.webm: VP9 profile 2,
# 640x360 (P010 out of NVDEC). x264 with threads is not bit-reproducible: the checks compare
# two decodes of the same file, never against stored sums.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/scratch/cuda}
data=$root/data
mkdir -p "$out"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
ff -i "$data/Megamind.avi" -an -vf "setpts=PTS-STARTPTS,fps=30,scale=1920:1080:flags=bicubic,setsar=1,format=yuv420p" \
  -frames:v 300 -c:v libx264 -profile:v high -preset medium -b:v 6M -maxrate 8M -bufsize 12M \
  -g 60 -keyint_min 60 -sc_threshold 0 -movflags +faststart "$out/h264-1080p.mp4"
ff -i "$data/Megamind.avi" -an -vf "setpts=PTS-STARTPTS,fps=30,scale=3840:2160:flags=bicubic,setsar=1,format=yuv420p" \
  -frames:v 150 -c:v libx264 -profile:v high -level 5.1 -preset veryfast -b:v 10M -maxrate 14M -bufsize 20M \
  -g 60 -keyint_min 60 -sc_threshold 0 -movflags +faststart "$out/h264-2160p.mp4"
ff -i "$data/Megamind.avi" -an -vf "setpts=PTS-STARTPTS,scale=854:480:flags=bicubic,setsar=1,format=yuv420p" \
  -frames:v 60 -c:v libx265 -profile:v main -preset medium -b:v 3M \
  -x265-params "log-level=error:keyint=60:min-keyint=60" -tag:v hvc1 -movflags +faststart \
  "$out/h265-8bit.mp4"
ff -i "$data/vtest.avi" -an -vf "scale=638:358:flags=bicubic,setsar=1,format=yuv420p" \
  -frames:v 60 -c:v libx264 -profile:v high -preset medium -crf 20 -g 60 -movflags +faststart \
  "$out/h264-odd.mp4"
ff -i "$data/Megamind.avi" -an -vf "setpts=PTS-STARTPTS,scale=854:480:flags=bicubic,setsar=1,format=yuv420p10le" \
  -frames:v 60 -c:v libx265 -profile:v main10 -preset medium -b:v 4M \
  -x265-params "log-level=error:keyint=60:min-keyint=60" -tag:v hvc1 -movflags +faststart \
  "$out/h265-10bit.mp4"
ff -i "$data/Megamind.avi" -an -vf "setpts=PTS-STARTPTS,scale=640:360:flags=bicubic,setsar=1,format=yuv420p10le" \
  -frames:v 60 -c:v libvpx-vp9 -profile:v 2 -b:v 2M -g 60 -deadline good -cpu-used 4 -row-mt 1 \
  "$out/vp9-10bit.webm"
ls -l "$out"
