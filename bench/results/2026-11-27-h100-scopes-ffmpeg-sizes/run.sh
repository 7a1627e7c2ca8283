# SPDX-License-Identifier: LGPL-2.1-or-later
# The scopes' target with FFmpeg's own picture sizes: 3840x2160 I420
# waveform (3840x256, one column a pixel column) + vectorscope (256x256)
# into one 4096x256 picture (the panels split 2:1, so the waveform has
# 2730 columns there), against FFmpeg 5.1.9's waveform and
# vectorscope at their defaults (the same sizes), 16 filter threads; frames
# from clscope's pool (--pinned) and from malloc'd memory; then the
# engine's default 768x256 picture; 1920x1080; and the waveform alone
# at FFmpeg's exact size, 3840x256.
set -u
source .device/env.sh
rm -rf build && mv build-dev build
export CLHISTOGRAM_CACHE_DIR=/tmp/cc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
xz -dc build/extra/vtest-2160p-i420.yuv.xz > /tmp/f2160.yuv
build/extra/ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s 3840x2160 -i /tmp/f2160.yuv -vf scale=1920:1080 -f rawvideo -y /tmp/f1080.yuv
export FFMPEG=$PWD/build/extra/ffmpeg THREADS=16 RUNS=5
LOOPS=25 SCOPE_ARGS="--pinned --picture 4096x256" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/s4096p 2>&1 | grep -E "median|frames/s \(|ratio"
LOOPS=25 SCOPE_ARGS="--picture 4096x256" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/s4096m 2>&1 | grep -E "median|frames/s \(|ratio"
LOOPS=25 SCOPE_ARGS="--pinned" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/s768p 2>&1 | grep -E "median|frames/s \(|ratio"
LOOPS=50 SCOPE_ARGS="--pinned --picture 2176x256" bench/scope-bench.sh /tmp/f1080.yuv 1920x1080 /tmp/s1080p 2>&1 | grep -E "median|frames/s \(|ratio"
SCOPES=waveform LOOPS=25 SCOPE_ARGS="--pinned --picture 3840x256" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/w3840 2>&1 | grep -E "median|frames/s \(|ratio"
