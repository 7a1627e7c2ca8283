# SPDX-License-Identifier: LGPL-2.1-or-later
# The scopes' target after pictures are read back into clscope's pool
# (pinned host memory): 3840x2160 I420 waveform + vectorscope into
# FFmpeg's sizes together (4096x256) and the default 768x256, the waveform
# alone at FFmpeg's 3840x256, 1920x1080 into 2176x256; FFmpeg 5.1.9 with 16
# filter threads on the same frames in the same run; the scope tests first.
set -u
source .device/env.sh
rm -rf build && mv build-dev build
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram GST_DEBUG='*:1'
export LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
summary () { awk '/^ok /{o++} /^not ok/{n++; print} /Checks|:[EF]:/{print} END{if (o+n) print o+0" ok, "n+0" not ok"}' | head -8; }
echo "test-engine-scope: $(timeout 120 build/tests/test-engine-scope 2>&1 | summary)"
echo "test-clscope: $(GST_CHECKS=test_picture_pool,test_pool_path timeout 120 build/tests/test-clscope 2>&1 | summary)"
xz -dc build/extra/vtest-2160p-i420.yuv.xz > /tmp/f2160.yuv
build/extra/ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s 3840x2160 -i /tmp/f2160.yuv -vf scale=1920:1080 -f rawvideo -y /tmp/f1080.yuv
export FFMPEG=$PWD/build/extra/ffmpeg THREADS=16 RUNS=5
show () { grep -E "median|frames/s \(|ratio"; }
LOOPS=25 SCOPE_ARGS="--pinned --picture 4096x256" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/a | show
LOOPS=25 SCOPE_ARGS="--pinned" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/b | show
SCOPES=waveform LOOPS=25 SCOPE_ARGS="--pinned --picture 3840x256" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/c | show
LOOPS=50 SCOPE_ARGS="--pinned --picture 2176x256" bench/scope-bench.sh /tmp/f1080.yuv 1920x1080 /tmp/d | show
LOOPS=25 SCOPE_ARGS="--picture 4096x256" bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 /tmp/e | show
