#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One device call of 2026-12-07 (docs/performance.md, "Frames in CUDA
# memory"), from the checkout with .device (Debian 12's GStreamer 1.22,
# ../shared/device/bundle --nvcodec and the plugin's libraries),
# .device-trixie (Debian 13's 1.26, scripts/device-runtime-trixie.sh),
# build-dev (this checkout built here), build-trixie
# (scripts/build-trixie.sh) and scratch/cuda (scripts/make-cuda-clips.sh)
# carried: the CUDA checks under each GStreamer, then the streams bench of
# both ways under each, each part bounded so that the call ends in time.
# Made here, before the call:
#   ../shared/device/bundle --nvcodec libcairo2 libpango-1.0-0 \
#     libpangocairo-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libfontconfig1 \
#     libfreetype6 libfribidi0 libgraphite2-3 libthai0 libdatrie1 \
#     libpixman-1-0 libxcb-render0 libxcb-shm0 libbrotli1 libexpat1 \
#     libjson-glib-1.0-0 libbz2-1.0 liblzma5 libblkid1 libmount1 \
#     libselinux1 libpcre2-8-0 libffi8 zlib1g libxrender1
#   (the plugin's libraries: without them it does not load there)
#   scripts/device-runtime-trixie.sh; scripts/build-trixie.sh
#   scripts/make-cuda-clips.sh
#   mkdir build-dev; (cd build && cp --parents -P gst/libgstclhistogram.so \
#     gst-libs/gst/clhistogram/libgstclhistogram-1.0.so* (files only) \
#     tests/clhistogram-cuda-check tests/test-engine bench/clh-cuda-bench \
#     ../build-dev/); strip --strip-unneeded every file of build-dev
# Run: CYCLES=100 STREAM_BENCHES="h264-2160p.mp4:150:8" (the 2026-12-07
# call, 264 s).
set -u
out=${OUT:-/tmp/clh-out}
mkdir -p "$out"
root=$PWD
clips=$root/scratch/cuda
cycles=${CYCLES:-200}
h264="h264parse ! nvh264dec"

checks() {  # NAME ENV BUILD RUNNER
  (
    # shellcheck disable=SC1090
    source "$2"
    export CLH_RUN=$4 CLHISTOGRAM_CACHE_DIR=/tmp/cc-$1
    # The plugin loads, or gst-inspect says why not (a missing library).
    gst-inspect-1.0 "$3/gst/libgstclhistogram.so" 2>&1 | grep -v XDG \
      | head -4
    BENCH=0 CYCLES=$cycles timeout 200 bash scripts/device-cuda-check.sh \
      "$clips" "$3"
  ) > "$out/check-$1.log" 2>&1
  echo "checks $1: $(tail -1 "$out/check-$1.log")"
  head -12 "$out/check-$1.log" | grep -iE "plugin|error|cannot|version" \
    | grep -v XDG
}

streams() {  # NAME ENV BUILD CLIP FRAMES N
  (
    # shellcheck disable=SC1090
    source "$2"
    export GST_PLUGIN_PATH=$3/gst CLHISTOGRAM_CACHE_DIR=/tmp/cc-$1
    timeout 150 python3 bench/cuda-streams.py "$clips/$4" "$5" \
      --streams "$6" --repeats 2 --decoder "$h264"
  ) >> "$out/streams-$1.log" 2>&1
  grep -E "^(in-place|host|decode-only|cuda-streams)" "$out/streams-$1.log" \
    | tail -4
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# Runtimes unpacked by an earlier call on a warm machine may lack packages
# bundled since.
rm -rf /tmp/gstrt /tmp/gstrt-trixie
checks 1.22 "$root/.device/env.sh" "$root/build-dev" ""
checks 1.26 "$root/.device-trixie/env.sh" "$root/build-trixie" trixie-run
for v in 1.22 1.26; do
  env=$root/.device/env.sh build=$root/build-dev
  [ $v = 1.26 ] && env=$root/.device-trixie/env.sh build=$root/build-trixie
  echo "== streams, GStreamer $v"
  # CLIP:FRAMES:STREAMS
  for bench in ${STREAM_BENCHES:-h264-2160p.mp4:150:8 h264-1080p.mp4:300:16}; do
    IFS=: read -r clip frames n <<< "$bench"
    streams $v "$env" "$build" "$clip" "$frames" "$n"
  done
done
