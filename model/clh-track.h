/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a back-projection and a CamShift step are, shared by the OpenCL
 * engine and the golden reference: OpenCV's calcBackProject() and
 * CamShift() (modules/imgproc/src/histogram.cpp, modules/video/src/
 * camshift.cpp) as plain C types. No OpenCL, no GStreamer. */
#pragma once

#include "clh-frame.h"

G_BEGIN_DECLS

/* Bins of a back-projection model: 180 x 180 hue x saturation, or 40^3
 * joint RGB, at most. */
#define CLH_BACKPROJECT_MAX_BINS 65536

/* Tracks one CamShift submission may carry. */
#define CLH_MAX_TRACKS 256

/**
 * ClhBackprojectSpec:
 * @count: %CLH_COUNT_HUE (one axis, hue over [0, 180)),
 *   %CLH_COUNT_HUE_SATURATION (hue x saturation over [0, 180) x [0, 256),
 *   H-major), %CLH_COUNT_RGB (R x G x B, each over [0, 256), R-major) or
 *   %CLH_COUNT_LUMA (one axis over [0, 256): OpenCV's RGB->GRAY for RGB
 *   formats, the Y plane as stored for YUV ones)
 * @n_components: components listed in @components
 * @components: R, G, B[, A] or Y, U, V, as in #ClhHistogramSpec
 * @color: how a colour is read, as in #ClhHistogramSpec
 * @bins: bins per axis
 * @model: (array): `bins^axes` values, the model histogram as OpenCV holds
 *   it (32-bit floats), flattened as clhistogram flattens its histograms
 * @scale: calcBackProject()'s scale; OpenCV multiplies in single precision
 * @min_saturation: pixels of lower HSV saturation back-project to 0
 * @min_value: pixels of lower HSV value back-project to 0
 * @max_value: pixels of higher HSV value back-project to 0
 *
 * One back-projection: each pixel's value is the model's entry for its
 * bin times @scale, rounded half to even and saturated to 0..255 (OpenCV's
 * `saturate_cast<uchar>`), or 0 outside the mask (`prob &= mask` in
 * OpenCV's CamShift sample, with `mask = cv2.inRange (hsv, (0,
 * min_saturation, min_value), (180, 255, max_value))`). A value v falls in
 * bin `cvFloor (v * (bins / (double) axis_size))` along an axis, OpenCV's
 * calcHistLookupTables_8u(), which for some hue bin counts differs from
 * the integer `v * bins / 180`.
 */
typedef struct {
  ClhCount count;
  guint n_components;
  guint components[CLH_MAX_COMPONENTS];
  ClhColor color;
  guint bins;
  const gfloat *model;
  gfloat scale;
  guint min_saturation;
  guint min_value;
  guint max_value;
} ClhBackprojectSpec;

guint clh_backproject_spec_n_axes (const ClhBackprojectSpec *spec);
guint clh_backproject_spec_n_bins (const ClhBackprojectSpec *spec);

/**
 * ClhCamShiftCriteria:
 * @max_iterations: mean-shift iterations at most, 1 or more
 *   (`TermCriteria::MAX_ITER`)
 * @epsilon: pixels; the iterations stop once the window moves less
 *   (`TermCriteria::EPS`; OpenCV compares the squared shift with
 *   `cvRound (epsilon * epsilon)`)
 */
typedef struct {
  guint max_iterations;
  gdouble epsilon;
} ClhCamShiftCriteria;

/**
 * ClhMoments:
 * @m00: sum of the values
 * @m10: sum of x * value
 * @m01: sum of y * value
 * @m20: sum of x^2 * value
 * @m11: sum of x * y * value
 * @m02: sum of y^2 * value
 *
 * The raw spatial moments of a window of an 8-bit image, x and y counted
 * from the window's corner, as OpenCV's moments() takes them. They are
 * integers, exact here; OpenCV sums them in doubles, exactly too, while
 * they stay below 2^53 (a 16384 x 16384 window of 255 reaches 2^59 for
 * @m20: windows that large may differ in the last bits).
 */
typedef struct {
  guint64 m00;
  guint64 m10;
  guint64 m01;
  guint64 m20;
  guint64 m11;
  guint64 m02;
} ClhMoments;

/**
 * ClhRotatedBox:
 * @center_x: pixels
 * @center_y: pixels
 * @width: pixels, across the box's main axis
 * @height: pixels, along it
 * @angle: degrees, [0, 180), as OpenCV's `RotatedRect`
 *
 * The box CamShift fits; all zero when the window holds no probability.
 */
typedef struct {
  gdouble center_x;
  gdouble center_y;
  gdouble width;
  gdouble height;
  gdouble angle;
} ClhRotatedBox;

/**
 * ClhCamShiftMass:
 * @window: the window cv::CamShift() takes its moments in to fit the box:
 *   the mean shift's last window widened by 10 pixels each side and cut at
 *   the frame's edges (pixels)
 * @m00: the probability image summed over @window, the m00 of those
 *   moments (each pixel 0..255): what `cv2.moments (prob[y:y + h, x:x +
 *   w])["m00"]` gives for that window
 *
 * How much of the target a CamShift step found: the mass behind the box.
 * OpenCV's CamShift() returns an empty box when it is 0.
 */
typedef struct {
  ClhRect window;
  guint64 m00;
} ClhCamShiftMass;

G_END_DECLS
