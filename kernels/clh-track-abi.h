/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The contract between the tracking engine (engine/clh-tracker.c) and
 * kernels/track.cl: each kernel's parameters as one struct of 32-bit
 * fields passed by value, as in clh-kernel-abi.h.
 */
#ifndef CLH_TRACK_ABI_H
#define CLH_TRACK_ABI_H

#include "clh-kernel-abi.h"

/* An axis table's entry for a value outside the axis's range. */
#define CLH_ABI_BIN_OUT 0xffffu

/* The bin image's value for a pixel outside the mask or the ranges. */
#define CLH_ABI_BIN_NONE 255u

/* Work-items of a tracking work-group (one per track). */
#define CLH_ABI_TRACK_GROUP 256

/* backproject: one work-item per pixel of the frame, width x height; for
 * each of up to four 8-bit components its plane's base, pitch, byte offset,
 * pixel stride and subsampling (w_sub | h_sub << 4), as ClhParamsColour
 * places them; color and count as CLH_ABI_COLOR_* and CLH_ABI_COUNT_*;
 * plain_luma: luma is component 0 as stored (YUV formats); with mask set,
 * pixels whose HSV saturation is under min_saturation or whose value is
 * outside [min_value, max_value] get outside, as do values outside an
 * axis's range; the others the output table's entry for their bin. */
typedef struct {
  CLH_U32 width;
  CLH_U32 height;
  CLH_U32 bases[4];
  CLH_U32 pitches[4];
  CLH_U32 offsets[4];
  CLH_U32 pixel_strides[4];
  CLH_U32 subs[4];
  CLH_U32 color;
  CLH_U32 count;
  CLH_U32 plain_luma;
  CLH_U32 bins;
  CLH_U32 mask;
  CLH_U32 min_saturation;
  CLH_U32 min_value;
  CLH_U32 max_value;
  CLH_U32 dst_pitch;
  CLH_U32 outside;
} ClhParamsBackproject;

/* window_histograms and camshift: a bin image of width x height bytes,
 * pitch bytes a row, one work-group of CLH_ABI_TRACK_GROUP work-items per
 * track; bins: bins of the image's values (the others, CLH_ABI_BIN_NONE
 * included, are counted nowhere); the mean-shift iterations at most and
 * cvRound (epsilon^2), as cv::meanShift takes them. */
typedef struct {
  CLH_U32 width;
  CLH_U32 height;
  CLH_U32 pitch;
  CLH_U32 bins;
  CLH_U32 max_iterations;
  CLH_U32 eps2;
} ClhParamsTrack;

#endif
