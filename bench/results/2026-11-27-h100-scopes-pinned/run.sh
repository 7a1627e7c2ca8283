# SPDX-License-Identifier: LGPL-2.1-or-later
# The scopefast device call: scope tests on the GPU (the DMA from host
# blocks), then waveform+vectorscope at 4K: malloc'd frames, frames in
# host blocks (--pinned) against FFmpeg with 16 threads, same host.
set -u
S=scratch/scopefast
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin GST_DEBUG='*:1'
export LD_LIBRARY_PATH=$PWD/$S:$LD_LIBRARY_PATH GST_PLUGIN_PATH=$PWD/$S/plugin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
summary () { awk '/^ok /{o++} /^not ok/{n++; print} /Checks|:[EF]:|Bail|ERROR/{print} END{if (o+n) print o+0" ok, "n+0" not ok"}' | head -8; }
echo "test-engine-scope: $(timeout 150 $S/tests/test-engine-scope 2>&1 | summary)"
echo "test-clscope: $(GST_CHECKS=test_pool_path,test_overlay_pool_path,test_pool_not_proposed,test_each_format,test_overlay_each_format,test_overlay_properties timeout 120 $S/tests/test-clscope 2>&1 | summary)"
xz -dc $S/vtest-2160p-i420.yuv.xz > /tmp/f2160.yuv
$S/bench/clh-scope-bench --input /tmp/f2160.yuv --frames 100 --repeats 5 3840x2160 2>&1 | tee $OUT/malloc-4k.txt
BUILD=$PWD/$S FFMPEG=$PWD/$S/ffmpeg THREADS=16 RUNS=5 LOOPS=25 SCOPE_ARGS=--pinned bash $S/scope-bench.sh /tmp/f2160.yuv 3840x2160 $OUT/scope 2>&1 | tail -5
$S/bench/clh-scope-bench --input /tmp/f2160.yuv --frames 100 --repeats 5 3840x2160 2>&1 | head -1
$S/bench/clh-scope-bench --input /tmp/f2160.yuv --frames 100 --repeats 5 --pinned 3840x2160 2>&1 | head -1
$S/bench/clh-scope-bench --input /tmp/f2160.yuv --frames 100 --repeats 5 --pinned --scopes waveform 3840x2160 2>&1 | head -1
