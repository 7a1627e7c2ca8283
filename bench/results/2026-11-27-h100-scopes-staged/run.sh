# SPDX-License-Identifier: LGPL-2.1-or-later
# The issue-30 device call: GPU tests of the scopes, marks, overlay and
# statistics, then bench/scope-bench.sh against a static FFmpeg 5.1.9.
set -u
source .device/env.sh
# fontconfig for the carried fonts (env.sh does not set one up)
printf '<?xml version="1.0"?>\n<fontconfig><dir>/tmp/gstrt/usr/share/fonts</dir><cachedir>/tmp/gstrt/fontconfig-cache</cachedir><alias><family>Sans</family><prefer><family>DejaVu Sans</family></prefer></alias></fontconfig>\n' > /tmp/gstrt/fonts.conf
export FONTCONFIG_FILE=/tmp/gstrt/fonts.conf
rm -rf build && mv build-dev build
export CLHISTOGRAM_CACHE_DIR=/tmp/cc GST_REGISTRY=/tmp/registry.bin
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram GST_DEBUG='*:1'
export LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
grep -m1 'model name' /proc/cpuinfo
gst-inspect-1.0 clhistogram 2>&1 | grep -E '^  [a-z]+:' 
summary () { awk '/^ok /{o++} /^not ok/{n++; print} /Checks|:[EF]:/{print} END{if (o+n) print o+0" ok, "n+0" not ok"}' | head -8; }
{
for t in test-engine-scope test-engine-marks; do
  echo "$t thorough: $(CLH_TEST_THOROUGH=1 timeout 120 build/tests/$t 2>&1 | summary)"; done
for t in test-clscope test-clexposuremarks test-histogramoverlay test-clhistogram-exposure test-clhistogram-stats test-engine; do
  echo "$t: $(timeout 60 build/tests/$t 2>&1 | summary)"; done
} 2>&1 | tee $OUT/tests.txt
xz -dc build/extra/vtest-2160p-i420.yuv.xz > /tmp/f2160.yuv
build/extra/ffmpeg -v error -f rawvideo -pix_fmt yuv420p -s 3840x2160 -i /tmp/f2160.yuv -vf scale=1920:1080 -f rawvideo -y /tmp/f1080.yuv
ls -la /tmp/f*.yuv
export FFMPEG=$PWD/build/extra/ffmpeg THREADS=16 RUNS=5
LOOPS=25 bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 $OUT/scope 2>&1 | tail -4
LOOPS=50 bench/scope-bench.sh /tmp/f1080.yuv 1920x1080 $OUT/scope 2>&1 | tail -4
SCOPES=waveform LOOPS=25 bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 $OUT/scope 2>&1 | tail -2
THREADS=1 LOOPS=10 bench/scope-bench.sh /tmp/f2160.yuv 3840x2160 $OUT/scope-1thread 2>&1 | tail -2
