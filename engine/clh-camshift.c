/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The host's O(1) part of a CamShift step and the model's normalization,
 * in OpenCV's own floating-point order (cv::CamShift() in
 * modules/video/src/camshift.cpp, completeMomentState() in
 * modules/imgproc/src/moments.cpp, cv::normalize() in
 * modules/core/src/norm.cpp), so that the windows equal cv2.CamShift's. */
#include "clh-tracker.h"

#include <float.h>
#include <math.h>

/**
 * clh_camshift_model_normalize:
 * @counts: (array length=bins): a window's hue histogram
 * @bins: bins of @counts
 * @model: (out caller-allocates) (array length=bins): @counts scaled to
 *   0..255
 *
 * `cv2.normalize (hist, hist, 0, 255, cv2.NORM_MINMAX)` on a float32
 * histogram, as OpenCV's CamShift sample makes its model: the scale
 * 255 / (max - min) rounded to a float, the shift `-(float) (min * scale)`,
 * each bin `count * scale + shift` in single precision with one rounding,
 * as OpenCV's vectorized convertTo() computes it where the CPU has FMA. A
 * histogram of one value throughout scales by 0.
 */
void
clh_camshift_model_normalize (const guint32 *counts, guint bins,
    gfloat *model)
{
  gdouble smin = G_MAXDOUBLE, smax = -G_MAXDOUBLE, scale;
  gfloat a, b;
  guint i;

  for (i = 0; i < bins; i++) {
    smin = MIN (smin, (gdouble) (gfloat) counts[i]);
    smax = MAX (smax, (gdouble) (gfloat) counts[i]);
  }
  scale = 255.0 * (smax - smin > DBL_EPSILON ? 1.0 / (smax - smin) : 0.0);
  a = (gfloat) scale;
  b = 0.0f - (gfloat) (smin * (gdouble) a);
  for (i = 0; i < bins; i++)
    model[i] = fmaf ((gfloat) counts[i], a, b);
}

/* cvRound: to nearest, ties to even (the default rounding mode). */
static gint
cv_round (gdouble v)
{
  return (gint) lrint (v);
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
 * clh_camshift_finish:
 * @m: the raw moments of @window of the probability image
 * @window: (inout): CamShift's grown window; out, the next frame's search
 *   window
 * @width: the frame's width, pixels
 * @height: the frame's height, rows
 * @box: (out): the rotated box
 *
 * The end of cv::CamShift() after its moments: the centre, the
 * orientation and axes from the central moments, the next window.
 *
 * Returns: %FALSE, with @box all zero and @window left alone, when the
 *   window holds no probability (m00 = 0), as OpenCV returns an empty
 *   RotatedRect
 */
gboolean
clh_camshift_finish (const ClhMoments *m, ClhRect *window, guint width,
    guint height, ClhRotatedBox *box)
{
  const gdouble m00 = (gdouble) m->m00, m10 = (gdouble) m->m10,
      m01 = (gdouble) m->m01;
  const gint w = (gint) width, h = (gint) height;
  gdouble inv_m00, cx, cy, mu20, mu11, mu02, a, b, c, square, theta, cs, sn;
  gdouble rotate_a, rotate_c, length, breadth, tmp;
  gint xc, yc, t0, t1;
  gfloat angle;

  *box = (ClhRotatedBox) { 0 };
  if (fabs (m00) < DBL_EPSILON)
    return FALSE;

  /* Central moments as completeMomentState() has them. */
  inv_m00 = 1.0 / m00;
  cx = m10 * inv_m00;
  cy = m01 * inv_m00;
  mu20 = (gdouble) m->m20 - m10 * cx;
  mu11 = (gdouble) m->m11 - m10 * cy;
  mu02 = (gdouble) m->m02 - m01 * cy;

  xc = cv_round (m10 * inv_m00 + window->x);
  yc = cv_round (m01 * inv_m00 + window->y);
  a = mu20 * inv_m00;
  b = mu11 * inv_m00;
  c = mu02 * inv_m00;
  square = sqrt (4 * b * b + (a - c) * (a - c));
  theta = atan2 (2 * b, a - c + square);
  cs = cos (theta);
  sn = sin (theta);
  rotate_a = cs * cs * mu20 + 2 * cs * sn * mu11 + sn * sn * mu02;
  rotate_c = sn * sn * mu20 - 2 * cs * sn * mu11 + cs * cs * mu02;
  rotate_a = MAX (0.0, rotate_a);
  rotate_c = MAX (0.0, rotate_c);
  length = sqrt (rotate_a * inv_m00) * 4;
  breadth = sqrt (rotate_c * inv_m00) * 4;
  if (length < breadth) {
    tmp = length;
    length = breadth;
    breadth = tmp;
    tmp = cs;
    cs = sn;
    sn = tmp;
    theta = G_PI * 0.5 - theta;
  }

  t0 = cv_round (fabs (length * cs));
  t1 = cv_round (fabs (breadth * sn));
  t0 = MAX (t0, t1) + 2;
  window->width = MIN (t0, (w - xc) * 2);
  t0 = cv_round (fabs (length * sn));
  t1 = cv_round (fabs (breadth * cs));
  t0 = MAX (t0, t1) + 2;
  window->height = MIN (t0, (h - yc) * 2);
  window->x = MAX (0, xc - window->width / 2);
  window->y = MAX (0, yc - window->height / 2);
  window->width = MIN (w - window->x, window->width);
  window->height = MIN (h - window->y, window->height);

  /* RotatedRect holds floats. */
  angle = (gfloat) ((G_PI * 0.5 + theta) * 180.0 / G_PI);
  while (angle < 0)
    angle += 360;
  while (angle >= 360)
    angle -= 360;
  if (angle >= 180)
    angle -= 180;
  box->height = as_float (length);
  box->width = as_float (breadth);
  box->angle = angle;
  box->center_x = as_float (window->x + window->width * 0.5f);
  box->center_y = as_float (window->y + window->height * 0.5f);
  return TRUE;
}
