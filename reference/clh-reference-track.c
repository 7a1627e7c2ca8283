/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trackers' golden reference. Every rounding below is one OpenCV 4.6
 * makes on x86-64, in the precision it makes it in: the file is built with
 * -ffp-contract=off (reference/meson.build), as OpenCV's baseline (SSE2)
 * code is, so that no a * b + c here is fused unless OpenCV fuses it too
 * (the model's normalisation, see normalize_minmax()). */
#include "clh-reference-track.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "clh-reference.h"

/* Axis sizes of OpenCV's 8-bit HSV hue and of every other 8-bit value. */
#define HUE_SIZE 180
#define BYTE_SIZE 256

/* CamShift() widens the mean-shift window by this many pixels each side
 * before it fits the box (TOLERANCE in modules/video/src/camshift.cpp). */
#define CAMSHIFT_TOLERANCE 10

/* cvRound (double) of OpenCV's core/fast_math.hpp on x86-64: SSE2's
 * cvtsd2si, which rounds half to even and gives INT_MIN, the "integer
 * indefinite", for NaN and for whatever rounds outside int32. */
static gint
cv_round (gdouble v)
{
  if (!(v >= -2147483648.5 && v < 2147483647.5))
    return G_MININT32;
  return (gint) lrint (v);
}

/**
 * clh_reference_axis_bin:
 * @value: a sample, 0..255
 * @bins: bins along the axis, 1 or more
 * @axis_size: the axis' range `[0, axis_size)`: 180 for hue, 256 for
 *   saturation, R, G, B and luma
 *
 * The bin OpenCV's calcHist() and calcBackProject() give an 8-bit value on
 * a uniform axis (calcHistLookupTables_8u() in
 * modules/imgproc/src/histogram.cpp): `cvFloor (v * a + b)` in double with
 * `a = bins / (hi - lo)`, `b = -a * lo`, then clamped to the bins. For hue
 * it is not always the integer `v * bins / 180`: 90 * (26 / 180.0) is just
 * under 13, so hue 90 of 26 bins falls in bin 12.
 *
 * Returns: the bin, 0..@bins - 1, or -1 for a value outside the axis
 */
gint
clh_reference_axis_bin (guint value, guint bins, guint axis_size)
{
  const gdouble lo = 0.0, hi = axis_size;
  const gdouble a = bins / (hi - lo), b = -a * lo;
  gint idx;

  if (value >= axis_size)
    return -1;
  idx = (gint) floor (value * a + b);
  return CLAMP (idx, 0, (gint) bins - 1);
}

/**
 * clh_reference_saturate_u8:
 * @value: a back-projected value, model entry times scale
 *
 * OpenCV's `saturate_cast<uchar> (float)` on x86-64: cvRound (float) is
 * SSE's cvtss2si, half to even, then the int is saturated to 0..255. The
 * conversion gives INT_MIN for NaN and for values of 2^31 or more, so
 * those saturate to 0, not 255 (an ARM build of OpenCV would give 255 for
 * the large ones).
 *
 * Returns: the 8-bit value
 */
guint8
clh_reference_saturate_u8 (gfloat value)
{
  glong r;

  if (!(value >= -2147483648.0f && value < 2147483648.0f))
    return 0;
  r = lrintf (value);
  return (guint8) CLAMP (r, 0, 255);
}

/* R, G, B of pixel (x, y) as @spec reads colours, and the luma the luma
 * mode bins: OpenCV's RGB->GRAY of an RGB format, the Y sample as stored
 * of a YUV one. A spec of one component reads a grey pixel, R = G = B. */
static void
pixel_colour (const ClhFrame *frame, const ClhBackprojectSpec *spec,
    guint x, guint y, guint8 rgb[3], guint8 *luma)
{
  const guint *c = spec->components;

  if (spec->n_components < 3) {
    rgb[0] = rgb[1] = rgb[2] = *luma = clh_reference_sample (frame, c[0],
        x, y);
    return;
  }
  if (spec->color == CLH_COLOR_YUV_BT601) {
    const ClhComponent *u = &frame->components[c[1]];
    const ClhComponent *v = &frame->components[c[2]];

    *luma = clh_reference_sample (frame, c[0], x, y);
    clh_reference_yuv_to_rgb (*luma,
        clh_reference_sample (frame, c[1], x >> u->w_sub, y >> u->h_sub),
        clh_reference_sample (frame, c[2], x >> v->w_sub, y >> v->h_sub),
        &rgb[0], &rgb[1], &rgb[2]);
    return;
  }
  rgb[0] = clh_reference_sample (frame, c[0], x, y);
  rgb[1] = clh_reference_sample (frame, c[1], x, y);
  rgb[2] = clh_reference_sample (frame, c[2], x, y);
  *luma = clh_reference_luma (rgb[0], rgb[1], rgb[2]);
}

/* The model entry pixel (x, y) falls in, flattened H-major or R-major as
 * OpenCV's row-major histograms are, or -1 for a pixel outside the mask
 * (the CamShift sample's cv2.inRange () of HSV) or outside an axis. */
static gint
pixel_bin (const ClhFrame *frame, const ClhBackprojectSpec *spec, guint x,
    guint y)
{
  const guint bins = spec->bins;
  guint8 rgb[3], luma, h, s, v;
  gint i0, i1, i2;

  pixel_colour (frame, spec, x, y, rgb, &luma);
  clh_reference_hsv (rgb[0], rgb[1], rgb[2], &h, &s, &v);
  if (s < spec->min_saturation || v < spec->min_value
      || v > spec->max_value)
    return -1;

  switch (spec->count) {
    case CLH_COUNT_HUE:
      return clh_reference_axis_bin (h, bins, HUE_SIZE);
    case CLH_COUNT_HUE_SATURATION:
      i0 = clh_reference_axis_bin (h, bins, HUE_SIZE);
      i1 = clh_reference_axis_bin (s, bins, BYTE_SIZE);
      return i0 < 0 || i1 < 0 ? -1 : i0 * (gint) bins + i1;
    case CLH_COUNT_RGB:
      i0 = clh_reference_axis_bin (rgb[0], bins, BYTE_SIZE);
      i1 = clh_reference_axis_bin (rgb[1], bins, BYTE_SIZE);
      i2 = clh_reference_axis_bin (rgb[2], bins, BYTE_SIZE);
      return i0 < 0 || i1 < 0 || i2 < 0 ? -1 :
          (i0 * (gint) bins + i1) * (gint) bins + i2;
    default:
      return clh_reference_axis_bin (luma, bins, BYTE_SIZE);
  }
}

/**
 * clh_reference_backproject:
 * @frame: a valid 8-bit frame (clh_frame_is_valid())
 * @spec: the back-projection: %CLH_COUNT_HUE, _HUE_SATURATION, _RGB or
 *   _LUMA, its components R, G, B[, A], Y, U, V, or the one component of a
 *   grey frame (read as R = G = B)
 * @dest: (out caller-allocates): a GRAY8 image of @frame's size
 * @dest_stride: bytes from one row of @dest to the next
 *
 * OpenCV's calcBackProject() of the pixel values @spec bins, followed by
 * the CamShift sample's `prob &= mask`. The values: hue and saturation of
 * OpenCV's RGB->HSV, R, G, B, or luma (OpenCV's RGB->GRAY; for YUV the Y
 * sample as stored). YUV pixels are converted to RGB with BT.601 as
 * clhistogram's colour modes do (OpenCV's COLOR_YUV2RGB_I420), for every
 * mode's mask too. Each pixel becomes `saturate_cast<uchar> (model[bin] *
 * scale)`, a product of two floats (clh_reference_saturate_u8()); a pixel
 * outside the mask `min_saturation <= S && min_value <= V <= max_value`,
 * or outside an axis, becomes 0. Bins are OpenCV's
 * (clh_reference_axis_bin()).
 */
void
clh_reference_backproject (const ClhFrame *frame,
    const ClhBackprojectSpec *spec, guint8 *dest, gsize dest_stride)
{
  guint x, y;

  g_return_if_fail (frame->depth == 8 && spec->bins > 0);

  for (y = 0; y < frame->height; y++)
    for (x = 0; x < frame->width; x++) {
      const gint idx = pixel_bin (frame, spec, x, y);
      gfloat p;

      if (idx < 0) {
        dest[dest_stride * y + x] = 0;
        continue;
      }
      p = spec->model[idx] * spec->scale;
      dest[dest_stride * y + x] = clh_reference_saturate_u8 (p);
    }
}

/* cv2.normalize (hist, hist, 0, 255, cv2.NORM_MINMAX) of a float32
 * histogram, in place (normalize() in modules/core/src/norm.cpp, then
 * Mat::convertTo's 32f->32f cvt_32f() in convert_scale.simd.hpp).
 *
 * normalize() takes scale = 255 / (max - min) in double, or 0 for a flat
 * histogram, rounds it to float, and takes shift = (float) 0 - (float)
 * (min * scale). convertTo() computes hist * scale + shift in float: its
 * SIMD loop with v_fma(), a fused multiply-add wherever the CPU dispatch
 * picks the AVX2 build (any x86-64 CPU with AVX2: this one, and most since
 * 2013), and its scalar tail with `src * a + b`, which GCC contracts to an
 * FMA in that same AVX2 build. So every entry is fmaf () here. On a CPU
 * without AVX2, OpenCV's SSE2 build rounds the product first: the entries
 * may then differ in the last bit, only where min > 0 (shift != 0). */
static void
normalize_minmax (gfloat *hist, guint n)
{
  const gdouble dmin = 0.0, dmax = 255.0;
  gdouble smin = hist[0], smax = hist[0], scale;
  gfloat a, b;
  guint i;

  for (i = 1; i < n; i++) {
    smin = MIN (smin, (gdouble) hist[i]);
    smax = MAX (smax, (gdouble) hist[i]);
  }
  scale = (dmax - dmin) * (smax - smin > DBL_EPSILON ? 1.0 / (smax - smin) :
      0.0);
  a = (gfloat) scale;
  b = (gfloat) dmin - (gfloat) (smin * (gdouble) a);
  for (i = 0; i < n; i++)
    hist[i] = fmaf (hist[i], a, b);
}

/* Entries of @spec's model, worked out here: bins per axis to the power of
 * the axes binned (three for joint RGB, two for hue x saturation). */
static guint
model_entries (const ClhBackprojectSpec *spec)
{
  const guint axes = spec->count == CLH_COUNT_RGB ? 3 :
      spec->count == CLH_COUNT_HUE_SATURATION ? 2 : 1;
  guint n = spec->bins, a;

  for (a = 1; a < axes; a++)
    n *= spec->bins;
  return n;
}

/**
 * clh_reference_camshift_model:
 * @frame: a valid 8-bit frame (clh_frame_is_valid())
 * @spec: what is binned and the mask, as for clh_reference_backproject();
 *   its model and scale are not read
 * @window: the target, pixels of @frame; clipped to it with
 *   clh_reference_clip()
 * @model: (out caller-allocates) (array): clh_backproject_spec_n_bins()
 *   floats, flattened as #ClhBackprojectSpec's model
 *
 * The model OpenCV's CamShift sample (samples/python/camshift.py) makes of
 * a selection: `cv2.calcHist ([hsv_roi], [0], mask_roi, [bins], [0, 180])`
 * of the window's pixels inside the mask, counted in int, converted to
 * float32, then `cv2.normalize (hist, hist, 0, 255, cv2.NORM_MINMAX)` (see
 * normalize_minmax() for its arithmetic and where it depends on the CPU).
 * The sample's hue histogram is %CLH_COUNT_HUE; the other counts give
 * calcHist() of the same channels as clh_reference_backproject() reads.
 * An empty or flat histogram normalises to all 0.
 */
void
clh_reference_camshift_model (const ClhFrame *frame,
    const ClhBackprojectSpec *spec, const ClhRect *window, gfloat *model)
{
  const guint n = model_entries (spec);
  guint32 *counts;
  ClhRect r;
  guint x, y, i;

  g_return_if_fail (frame->depth == 8 && spec->bins > 0);

  clh_reference_clip (window, frame->width, frame->height, &r);
  counts = g_new0 (guint32, n);
  for (y = r.y; y < (guint) (r.y + r.height); y++)
    for (x = r.x; x < (guint) (r.x + r.width); x++) {
      const gint idx = pixel_bin (frame, spec, x, y);

      if (idx >= 0)
        counts[idx]++;
    }
  /* Counts above 2^24 round to even here as OpenCV's int->float does. */
  for (i = 0; i < n; i++)
    model[i] = (gfloat) counts[i];
  g_free (counts);
  normalize_minmax (model, n);
}

/**
 * clh_reference_moments:
 * @prob: an 8-bit image, row-major
 * @stride: bytes from one row of @prob to the next
 * @window: a rectangle inside @prob, pixels
 * @m: (out): the raw moments of @window, x and y counted from its corner
 *
 * The spatial moments OpenCV's moments() takes of `prob (window)` up to
 * the second order, as exact integers. OpenCV sums 32 x 32 tiles in int
 * and the tiles in double (modules/imgproc/src/moments.cpp), exact while
 * the sums stay under 2^53; Debian's build has no IPP, whose
 * ippiMoments64f would otherwise replace that sum.
 */
void
clh_reference_moments (const guint8 *prob, gsize stride,
    const ClhRect *window, ClhMoments *m)
{
  gint x, y;

  memset (m, 0, sizeof (*m));
  for (y = 0; y < window->height; y++) {
    const guint8 *row = prob + stride * (gsize) (window->y + y) + window->x;
    guint64 s0 = 0, s1 = 0, s2 = 0;

    /* Row sums first: y and y^2 multiply a row's sums once. */
    for (x = 0; x < window->width; x++) {
      s0 += row[x];
      s1 += (guint64) x * row[x];
      s2 += (guint64) x * x * row[x];
    }
    m->m00 += s0;
    m->m10 += s1;
    m->m01 += (guint64) y * s0;
    m->m20 += s2;
    m->m11 += (guint64) y * s1;
    m->m02 += (guint64) y * y * s0;
  }
}

/**
 * clh_reference_central_moments:
 * @m: raw moments
 * @mu20: (out): the central moment mu20, in double
 * @mu11: (out): mu11
 * @mu02: (out): mu02
 *
 * The central moments as OpenCV's moments() derives them from the raw
 * ones (completeMomentState() in modules/imgproc/src/moments.cpp), in
 * double and in its order: `cx = m10 * (1 / m00)`, `mu20 = m20 - m10 cx`,
 * `mu11 = m11 - m10 cy`, `mu02 = m02 - m01 cy`; with m00 = 0, cx = cy = 0.
 * Not the exact central moments: CamShift's box is fitted to these.
 */
void
clh_reference_central_moments (const ClhMoments *m, gdouble *mu20,
    gdouble *mu11, gdouble *mu02)
{
  const gdouble m00 = (gdouble) m->m00, m10 = (gdouble) m->m10,
      m01 = (gdouble) m->m01;
  gdouble cx = 0.0, cy = 0.0;

  if (fabs (m00) > DBL_EPSILON) {
    const gdouble inv_m00 = 1.0 / m00;

    cx = m10 * inv_m00;
    cy = m01 * inv_m00;
  }
  *mu20 = (gdouble) m->m20 - m10 * cx;
  *mu11 = (gdouble) m->m11 - m10 * cy;
  *mu02 = (gdouble) m->m02 - m01 * cy;
}

/* OpenCV's `Rect & Rect (0, 0, width, height)`: the intersection, or the
 * empty Rect () of all zeros when there is none. */
static void
intersect_frame (ClhRect *r, guint width, guint height)
{
  const gint64 x0 = MAX ((gint64) r->x, 0), y0 = MAX ((gint64) r->y, 0);
  const gint64 x1 = MIN ((gint64) r->x + r->width, (gint64) width);
  const gint64 y1 = MIN ((gint64) r->y + r->height, (gint64) height);

  if (r->width <= 0 || r->height <= 0 || x1 <= x0 || y1 <= y0) {
    memset (r, 0, sizeof (*r));
    return;
  }
  r->x = (gint) x0;
  r->y = (gint) y0;
  r->width = (gint) (x1 - x0);
  r->height = (gint) (y1 - y0);
}

/* OpenCV's `cvRound (eps * eps)` of TermCriteria::EPS, after std::max
 * (epsilon, 0.) (which keeps a NaN). */
static gdouble
squared_epsilon (gdouble epsilon)
{
  const gdouble eps = epsilon < 0.0 ? 0.0 : epsilon;

  return cv_round (eps * eps);
}

/**
 * clh_reference_mean_shift:
 * @prob: an 8-bit probability image, row-major
 * @stride: bytes from one row of @prob to the next
 * @width: @prob's width, pixels
 * @height: @prob's height, rows
 * @window: (inout): the search window, width and height > 0, which may
 *   reach outside @prob; on return the window the iterations end on
 * @criteria: when to stop
 *
 * OpenCV's cv::meanShift() (modules/video/src/camshift.cpp). Each
 * iteration clips the window to the image (a window wholly outside it
 * becomes the 1 x 1 window at the image's centre, `width / 2, height / 2`),
 * takes its moments and, unless m00 is 0, moves it by
 * `cvRound (m10 / m00 - w0 * 0.5)` and `cvRound (m01 / m00 - h0 * 0.5)`
 * clamped to keep it inside the image; w0 and h0 are the size of the
 * initial window clipped to the image, never updated, as in OpenCV. The
 * iterations stop after @criteria's max_iterations or once the squared
 * move (whole pixels, after the clamping) is under `cvRound (epsilon^2)`.
 * Doubles and cvRound() (half to even) throughout, as OpenCV's.
 *
 * Returns: the iterations run, the one that found m00 = 0 or stopped on
 *   epsilon not counted
 */
guint
clh_reference_mean_shift (const guint8 *prob, gsize stride, guint width,
    guint height, ClhRect *window, const ClhCamShiftCriteria *criteria)
{
  const gdouble eps = squared_epsilon (criteria->epsilon);
  const guint n_iter = MAX (criteria->max_iterations, 1);
  ClhRect cur = *window, first = *window;
  guint i;

  g_return_val_if_fail (window->width > 0 && window->height > 0, 0);

  intersect_frame (&first, width, height);
  for (i = 0; i < n_iter; i++) {
    ClhMoments m;
    gint dx, dy, nx, ny;

    intersect_frame (&cur, width, height);
    if (cur.width == 0) {
      cur.x = (gint) width / 2;
      cur.y = (gint) height / 2;
    }
    cur.width = MAX (cur.width, 1);
    cur.height = MAX (cur.height, 1);

    clh_reference_moments (prob, stride, &cur, &m);
    if (m.m00 == 0)
      break;

    dx = cv_round ((gdouble) m.m10 / (gdouble) m.m00 - first.width * 0.5);
    dy = cv_round ((gdouble) m.m01 / (gdouble) m.m00 - first.height * 0.5);
    nx = MIN (MAX (cur.x + dx, 0), (gint) width - cur.width);
    ny = MIN (MAX (cur.y + dy, 0), (gint) height - cur.height);
    dx = nx - cur.x;
    dy = ny - cur.y;
    cur.x = nx;
    cur.y = ny;
    if (dx * dx + dy * dy < eps)
      break;
  }
  *window = cur;
  return i;
}

/* CamShift()'s widening of the mean-shift window, kept inside the image. */
static void
widen (ClhRect *w, guint width, guint height)
{
  w->x = MAX (w->x - CAMSHIFT_TOLERANCE, 0);
  w->y = MAX (w->y - CAMSHIFT_TOLERANCE, 0);
  w->width += 2 * CAMSHIFT_TOLERANCE;
  if (w->x + w->width > (gint) width)
    w->width = (gint) width - w->x;
  w->height += 2 * CAMSHIFT_TOLERANCE;
  if (w->y + w->height > (gint) height)
    w->height = (gint) height - w->y;
}

/* std::max (0.0, v), which, unlike MAX (), gives 0 for a NaN. */
static gdouble
max_zero (gdouble v)
{
  return 0.0 < v ? v : 0.0;
}

/* The next window's extent along one axis: the box's extent rounded, 2
 * more, at most twice the distance from the centre to the far edge. */
static gint
next_extent (gdouble along, gdouble across, gint centre, gint size)
{
  const gint t0 = cv_round (fabs (along)), t1 = cv_round (fabs (across));

  return MIN (MAX (t0, t1) + 2, (size - centre) * 2);
}

/* @x rounded to float, as OpenCV's RotatedRect holds it. Through a
 * volatile float: GCC 12.2's SLP vectorizer at -O2 merges two adjacent
 * stores of (double) (float) values into one store of the unrounded
 * doubles. */
static gdouble
as_float (gdouble x)
{
  volatile gfloat f = (gfloat) x;

  return f;
}

/**
 * clh_reference_camshift:
 * @prob: an 8-bit probability image, row-major
 * @stride: bytes from one row of @prob to the next
 * @width: @prob's width, pixels
 * @height: @prob's height, rows
 * @window: (inout): the search window, width and height > 0; on return
 *   the window to search the next frame in
 * @criteria: the mean shift's stop rule
 * @box: (out): the box fitted to the probability around the target
 * @mass: (out) (optional): the widened window and its m00
 *
 * OpenCV's cv::CamShift() (modules/video/src/camshift.cpp):
 * clh_reference_mean_shift(), the window widened by 10 pixels each side
 * (within the image), its moments and OpenCV's central moments
 * (clh_reference_central_moments()), then in double: `a, b, c = mu20,
 * mu11, mu02 / m00`, `theta = atan2 (2 b, a - c + sqrt (4 b^2 + (a -
 * c)^2))`, the second moments along and across theta, length and width 4
 * times their root, swapped with theta -> pi / 2 - theta when the length
 * is the smaller; the next window is centred on the centroid (cvRound) and
 * as large as the rotated box plus 2, within the image. The box holds
 * OpenCV's float fields: width and length cast to float, the angle
 * `(pi / 2 + theta) * 180 / pi` cast to float and brought into [0, 180) in
 * float, the centre that of the next window in float.
 *
 * Returns: %FALSE, with @box all zero (OpenCV's `RotatedRect ()`) and
 *   @window the widened window, when that window's m00 is 0
 */
gboolean
clh_reference_camshift (const guint8 *prob, gsize stride, guint width,
    guint height, ClhRect *window, const ClhCamShiftCriteria *criteria,
    ClhRotatedBox *box, ClhCamShiftMass *mass)
{
  ClhMoments m;
  gdouble m00, inv_m00, mu20, mu11, mu02, a, b, c, square, theta, cs, sn;
  gdouble rotate_a, rotate_c, length, across, t;
  gint xc, yc;
  gfloat angle;

  memset (box, 0, sizeof (*box));
  g_return_val_if_fail (window->width > 0 && window->height > 0, FALSE);

  clh_reference_mean_shift (prob, stride, width, height, window, criteria);
  widen (window, width, height);
  clh_reference_moments (prob, stride, window, &m);
  if (mass) {
    mass->window = *window;
    mass->m00 = m.m00;
  }
  if (m.m00 == 0)
    return FALSE;

  clh_reference_central_moments (&m, &mu20, &mu11, &mu02);
  m00 = (gdouble) m.m00;
  inv_m00 = 1.0 / m00;
  xc = cv_round ((gdouble) m.m10 * inv_m00 + window->x);
  yc = cv_round ((gdouble) m.m01 * inv_m00 + window->y);
  a = mu20 * inv_m00;
  b = mu11 * inv_m00;
  c = mu02 * inv_m00;

  square = sqrt (4 * b * b + (a - c) * (a - c));
  theta = atan2 (2 * b, a - c + square);
  cs = cos (theta);
  sn = sin (theta);
  rotate_a = max_zero (cs * cs * mu20 + 2 * cs * sn * mu11 + sn * sn * mu02);
  rotate_c = max_zero (sn * sn * mu20 - 2 * cs * sn * mu11 + cs * cs * mu02);
  length = sqrt (rotate_a * inv_m00) * 4;
  across = sqrt (rotate_c * inv_m00) * 4;
  /* At theta 0 or pi / 2 the two may come out exchanged. */
  if (length < across) {
    t = length, length = across, across = t;
    t = cs, cs = sn, sn = t;
    theta = G_PI * 0.5 - theta;
  }

  window->width = next_extent (length * cs, across * sn, xc, (gint) width);
  window->height = next_extent (length * sn, across * cs, yc, (gint) height);
  window->x = MAX (0, xc - window->width / 2);
  window->y = MAX (0, yc - window->height / 2);
  window->width = MIN ((gint) width - window->x, window->width);
  window->height = MIN ((gint) height - window->y, window->height);

  angle = (gfloat) ((G_PI * 0.5 + theta) * 180.0 / G_PI);
  while (angle < 0)
    angle += 360;
  while (angle >= 360)
    angle -= 360;
  if (angle >= 180)
    angle -= 180;

  box->width = as_float (across);
  box->height = as_float (length);
  box->angle = angle;
  box->center_x = as_float (window->x + window->width * 0.5f);
  box->center_y = as_float (window->y + window->height * 0.5f);
  return TRUE;
}
