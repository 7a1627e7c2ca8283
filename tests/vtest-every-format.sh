#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Real frames in every format: the first frames of vtest.avi converted to each
# format clhistogram reads, counted in every mode that applies with 1, 7 and
# the most bins, each frame checked against the golden reference by
# clhistogram-probe --check.
#   vtest-every-format.sh CLHISTOGRAM_PROBE VIDEO [FRAMES]
set -u
tool=$1 video=$2 frames=${3:-10}
failed=0 runs=0
for format in GRAY8 GRAY16_LE GRAY16_BE RGB BGR RGBA BGRA ARGB ABGR RGBx BGRx \
    xRGB xBGR I420 YV12 Y41B Y42B Y444 YUV9 YVU9 NV12 NV21 NV16 NV61 NV24 \
    YUY2 UYVY YVYU VYUY I420_10LE I420_10BE I420_12LE I422_10LE I422_12LE \
    Y444_10LE Y444_10BE Y444_12LE Y444_16LE P010_10LE P012_LE P016_LE; do
  case $format in
    GRAY*) modes="luma channels" ;;
    *RGB*|*BGR*) modes="luma channels max hue hue-saturation rgb" ;;
    *_1[026]*|P01*) modes="luma channels" ;;
    *) modes="luma channels hue hue-saturation" ;;
  esac
  case $format in
    GRAY16*|*_16LE|P016*) most=65536 ;;
    *_1[02]*|P01*) most=4096 ;;
    *) most=256 ;;
  esac
  for mode in $modes; do
    case $mode in
      hue*) top=180 ;;
      rgb) top=40 ;;
      *) top=$most ;;
    esac
    for bins in 1 7 $top; do
      runs=$((runs + 1))
      "$tool" --check --quiet --max-frames "$frames" --expect-frames "$frames" \
          --format "$format" --width 600 --height 480 --mode "$mode" \
          --bins "$bins" "$video" || failed=$((failed + 1))
    done
  done
done
echo "$runs format x mode x bins runs of $frames real frames: $failed failed"
[ "$failed" -eq 0 ]
