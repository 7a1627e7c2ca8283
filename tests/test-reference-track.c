/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trackers' reference on cases worked out by hand: OpenCV's bin lookup
 * where it differs from integer division, its saturate_cast of a float,
 * the mask, the model's min-max normalisation, raw and central moments,
 * meanShift()'s half-to-even steps, clamping, clipping and empty-window
 * rule, and CamShift()'s box, widened window and lost target.
 * tests/test_track_opencv.py holds the same code against OpenCV itself. */
#include <math.h>
#include <string.h>

#include "clh-reference.h"
#include "clh-reference-track.h"
#include "clh-test-frame.h"

#define W 20
#define H 20

static const ClhCamShiftCriteria sample_criteria = { 10, 1.0 };

/* A W x H probability image, all zero but for @n pixels of @value. */
static guint8 *
prob_new (const gint (*points)[2], guint n, guint8 value)
{
  guint8 *prob = g_malloc0 (W * H);
  guint i;

  for (i = 0; i < n; i++)
    prob[points[i][1] * W + points[i][0]] = value;
  return prob;
}

static void
assert_rect (const ClhRect *r, gint x, gint y, gint w, gint h)
{
  g_assert_cmpint (r->x, ==, x);
  g_assert_cmpint (r->y, ==, y);
  g_assert_cmpint (r->width, ==, w);
  g_assert_cmpint (r->height, ==, h);
}

/* OpenCV's bins are cvFloor (v * (bins / 180.0)): at 26 bins hue 90 gives
 * 12.999..., bin 12, where 90 * 26 / 180 = 13. */
static void
test_axis_bin (void)
{
  g_assert_cmpint (clh_reference_axis_bin (90, 26, 180), ==, 12);
  g_assert_cmpint (90 * 26 / 180, ==, 13);
  g_assert_cmpint (clh_reference_axis_bin (91, 26, 180), ==, 13);
  g_assert_cmpint (clh_reference_axis_bin (45, 52, 180), ==, 12);
  g_assert_cmpint (clh_reference_axis_bin (90, 30, 180), ==, 15);
  g_assert_cmpint (clh_reference_axis_bin (0, 16, 180), ==, 0);
  g_assert_cmpint (clh_reference_axis_bin (179, 16, 180), ==, 15);
  g_assert_cmpint (clh_reference_axis_bin (179, 180, 180), ==, 179);
  g_assert_cmpint (clh_reference_axis_bin (180, 16, 180), ==, -1);
  g_assert_cmpint (clh_reference_axis_bin (255, 16, 256), ==, 15);
  g_assert_cmpint (clh_reference_axis_bin (255, 1, 256), ==, 0);
}

/* cvRound of a float, half to even, then 0..255; NaN and 2^31 or more
 * are SSE's integer indefinite, INT_MIN, so 0. */
static void
test_saturate (void)
{
  g_assert_cmpuint (clh_reference_saturate_u8 (0.5f), ==, 0);
  g_assert_cmpuint (clh_reference_saturate_u8 (1.5f), ==, 2);
  g_assert_cmpuint (clh_reference_saturate_u8 (2.5f), ==, 2);
  g_assert_cmpuint (clh_reference_saturate_u8 (254.5f), ==, 254);
  g_assert_cmpuint (clh_reference_saturate_u8 (255.5f), ==, 255);
  g_assert_cmpuint (clh_reference_saturate_u8 (1e9f), ==, 255);
  g_assert_cmpuint (clh_reference_saturate_u8 (-0.5f), ==, 0);
  g_assert_cmpuint (clh_reference_saturate_u8 (-7.0f), ==, 0);
  g_assert_cmpuint (clh_reference_saturate_u8 (2147483648.0f), ==, 0);
  g_assert_cmpuint (clh_reference_saturate_u8 (INFINITY), ==, 0);
  g_assert_cmpuint (clh_reference_saturate_u8 (NAN), ==, 0);
}

/* A 3 x 1 RGB frame of @pixels. */
static ClhTestFrame *
rgb_row (const guint8 pixels[3][3])
{
  ClhTestFrame *t = clh_test_frame_new ("RGB", 3, 1, 0, CLH_TEST_ZERO, 0);

  memcpy ((guint8 *) t->frame.planes[0].data, pixels, 9);
  return t;
}

static void
hue_spec (ClhBackprojectSpec *spec, guint bins, const gfloat *model)
{
  memset (spec, 0, sizeof (*spec));
  spec->count = CLH_COUNT_HUE;
  spec->n_components = 3;
  spec->components[0] = 0;
  spec->components[1] = 1;
  spec->components[2] = 2;
  spec->color = CLH_COLOR_RGB;
  spec->bins = bins;
  spec->model = model;
  spec->scale = 1.0f;
  spec->max_value = 255;
}

/* Cyan (0, 255, 255) has OpenCV hue 90, bin 12 of 26; green (0, 255, 0)
 * hue 60, bin 8; so has a dark cyan (0, 20, 20) (value 20), unless
 * min_value leaves it out; max_value 254 leaves out the bright ones. The
 * products 201 and 74.5 round half to even. */
static void
test_backproject (void)
{
  const guint8 pixels[3][3] = { {0, 255, 255}, {0, 255, 0}, {0, 20, 20} };
  gfloat model[26] = { 0 };
  ClhBackprojectSpec spec;
  ClhTestFrame *t = rgb_row (pixels);
  guint8 h, s, v, out[3];

  clh_reference_hsv (0, 255, 255, &h, &s, &v);
  g_assert_cmpuint (h, ==, 90);
  model[12] = 100.5f;
  model[13] = 200.0f;
  model[8] = 37.25f;
  hue_spec (&spec, 26, model);
  spec.scale = 2.0f;
  clh_reference_backproject (&t->frame, &spec, out, 3);
  g_assert_cmpuint (out[0], ==, 201);
  g_assert_cmpuint (out[1], ==, 74);
  g_assert_cmpuint (out[2], ==, 201);

  spec.scale = 1.0f;
  spec.min_value = 21;
  clh_reference_backproject (&t->frame, &spec, out, 3);
  g_assert_cmpuint (out[0], ==, 100);
  g_assert_cmpuint (out[1], ==, 37);
  g_assert_cmpuint (out[2], ==, 0);
  spec.min_value = 20;
  spec.max_value = 254;
  clh_reference_backproject (&t->frame, &spec, out, 3);
  g_assert_cmpuint (out[0], ==, 0);
  g_assert_cmpuint (out[1], ==, 0);
  g_assert_cmpuint (out[2], ==, 100);
  clh_test_frame_free (t);
}

/* Counts 2, 1, 0: scale 255 / 2, shift 0. Counts 1, 2 (no empty bin):
 * scale 255, shift -255. All in one bin, or none: a flat histogram, all
 * 0. */
static void
test_model (void)
{
  const guint8 pixels[3][3] = { {0, 255, 255}, {0, 255, 255}, {0, 255, 0} };
  const guint8 flat[3][3] = { {9, 9, 9}, {9, 9, 9}, {9, 9, 9} };
  const ClhRect whole = { 0, 0, 3, 1 }, outside = { -5, 0, 6, 4 };
  ClhBackprojectSpec spec;
  ClhTestFrame *t = rgb_row (pixels);
  gfloat model[180];
  guint i;

  hue_spec (&spec, 26, NULL);
  clh_reference_camshift_model (&t->frame, &spec, &whole, model);
  for (i = 0; i < 26; i++)
    g_assert_cmpfloat (model[i], ==, i == 12 ? 255.0f : i == 8 ? 127.5f :
        0.0f);

  /* Two bins of 90 each: hue 60 in bin 0, hue 90 in bin 1. */
  hue_spec (&spec, 2, NULL);
  clh_reference_camshift_model (&t->frame, &spec, &whole, model);
  g_assert_cmpfloat (model[0], ==, 0.0f);
  g_assert_cmpfloat (model[1], ==, 255.0f);
  spec.bins = 1;
  clh_reference_camshift_model (&t->frame, &spec, &whole, model);
  g_assert_cmpfloat (model[0], ==, 0.0f);

  /* The window clipped to the frame's first pixel, cyan. */
  hue_spec (&spec, 26, NULL);
  clh_reference_camshift_model (&t->frame, &spec, &outside, model);
  g_assert_cmpfloat (model[12], ==, 255.0f);
  g_assert_cmpfloat (model[8], ==, 0.0f);
  clh_test_frame_free (t);

  t = rgb_row (flat);
  spec.min_saturation = 1;
  clh_reference_camshift_model (&t->frame, &spec, &whole, model);
  for (i = 0; i < 26; i++)
    g_assert_cmpfloat (model[i], ==, 0.0f);
  clh_test_frame_free (t);
}

/* Red, green, blue, blue (hues 0, 60, 120, 120) in 3 bins of 60: counts
 * 1, 1, 2, none empty: scale 255 / (2 - 1), shift -255. */
static void
test_model_shift (void)
{
  const guint8 pixels[4][3] = {
    {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {0, 0, 255}
  };
  const ClhRect whole = { 0, 0, 4, 1 };
  ClhTestFrame *t = clh_test_frame_new ("RGB", 4, 1, 0, CLH_TEST_ZERO, 0);
  ClhBackprojectSpec spec;
  gfloat model[3];

  memcpy ((guint8 *) t->frame.planes[0].data, pixels, 12);
  hue_spec (&spec, 3, NULL);
  clh_reference_camshift_model (&t->frame, &spec, &whole, model);
  g_assert_cmpfloat (model[0], ==, 0.0f);
  g_assert_cmpfloat (model[1], ==, 0.0f);
  g_assert_cmpfloat (model[2], ==, 255.0f);
  clh_test_frame_free (t);
}

/* Values 1 2 3 / 4 5 6 at x 0..2, y 0..1 of a window at (2, 3). */
static void
test_moments (void)
{
  guint8 *prob = g_malloc0 (W * H);
  const ClhRect window = { 2, 3, 3, 2 };
  gdouble mu20, mu11, mu02;
  ClhMoments m;
  guint i;

  for (i = 0; i < 6; i++)
    prob[(3 + i / 3) * W + 2 + i % 3] = i + 1;
  clh_reference_moments (prob, W, &window, &m);
  g_assert_cmpuint (m.m00, ==, 21);
  g_assert_cmpuint (m.m10, ==, 2 + 2 * 3 + 5 + 2 * 6);
  g_assert_cmpuint (m.m01, ==, 4 + 5 + 6);
  g_assert_cmpuint (m.m20, ==, 2 + 4 * 3 + 5 + 4 * 6);
  g_assert_cmpuint (m.m11, ==, 5 + 2 * 6);
  g_assert_cmpuint (m.m02, ==, 15);
  /* mu20 = m20 - m10 * (m10 / m00), in OpenCV's order. */
  clh_reference_central_moments (&m, &mu20, &mu11, &mu02);
  g_assert_cmpfloat (mu20, ==, 43.0 - 25.0 * (25.0 * (1.0 / 21.0)));
  g_assert_cmpfloat (mu11, ==, 17.0 - 25.0 * (15.0 * (1.0 / 21.0)));
  g_assert_cmpfloat (mu02, ==, 15.0 - 15.0 * (15.0 * (1.0 / 21.0)));
  g_free (prob);
}

/* One pixel at (12, 7), the window 5 x 5 at (8, 3): it sits at (4, 4) of
 * the window, a step of cvRound (4 - 2.5) = 2 each way; then at (2, 2),
 * cvRound (-0.5) = 0 (half to even): converged after 1 iteration. */
static void
test_single_pixel (void)
{
  const gint point[][2] = { {12, 7} };
  const ClhCamShiftCriteria eps0 = { 10, 0.0 }, once = { 1, 1.0 };
  guint8 *prob = prob_new (point, 1, 255);
  ClhRotatedBox box;
  ClhCamShiftMass mass;
  ClhRect w = { 8, 3, 5, 5 };

  g_assert_cmpuint (clh_reference_mean_shift (prob, W, W, H, &w,
          &sample_criteria), ==, 1);
  assert_rect (&w, 10, 5, 5, 5);

  /* epsilon 0: cvRound (0) = 0, no move is under it: every iteration. */
  w = (ClhRect) { 8, 3, 5, 5 };
  g_assert_cmpuint (clh_reference_mean_shift (prob, W, W, H, &w, &eps0),
      ==, 10);
  assert_rect (&w, 10, 5, 5, 5);
  /* One iteration at most: (4, 3) in the window, steps 2 and
   * cvRound (0.5) = 0, stopped on the count, not on epsilon. */
  w = (ClhRect) { 8, 4, 5, 5 };
  g_assert_cmpuint (clh_reference_mean_shift (prob, W, W, H, &w, &once),
      ==, 1);
  assert_rect (&w, 10, 4, 5, 5);

  /* CamShift: widened to the whole image, the centroid (12, 7), no
   * spread: length and width 0, theta 0, angle 90, the next window 2 x 2
   * around the centroid. */
  w = (ClhRect) { 8, 3, 5, 5 };
  g_assert_true (clh_reference_camshift (prob, W, W, H, &w,
          &sample_criteria, &box, &mass));
  assert_rect (&w, 11, 6, 2, 2);
  /* The mass: the pixel, in the mean shift's (10, 5, 5, 5) widened to the
   * whole image. */
  assert_rect (&mass.window, 0, 0, W, H);
  g_assert_cmpuint (mass.m00, ==, 255);
  g_assert_cmpfloat (box.center_x, ==, 12.0);
  g_assert_cmpfloat (box.center_y, ==, 7.0);
  g_assert_cmpfloat (box.width, ==, 0.0);
  g_assert_cmpfloat (box.height, ==, 0.0);
  g_assert_cmpfloat (box.angle, ==, 90.0);
  g_free (prob);
}

/* The mean shift keeps the window inside the image: a pixel near the
 * right edge pulls an 8-wide window to x = 12 at most. */
static void
test_clamp (void)
{
  const gint point[][2] = { {18, 10} };
  guint8 *prob = prob_new (point, 1, 80);
  ClhRect w = { 11, 8, 8, 5 };

  /* (7, 2) in the window: a step of cvRound (7 - 4) = 3 clamped to 1,
   * and cvRound (2 - 2.5) = 0; then of 2, clamped to 0: stopped. */
  g_assert_cmpuint (clh_reference_mean_shift (prob, W, W, H, &w,
          &sample_criteria), ==, 1);
  assert_rect (&w, 12, 8, 8, 5);
  g_free (prob);
}

/* A window reaching out of the image is clipped first: (-3, -2, 8, 6)
 * searches (0, 0, 5, 4) and steps by half of 5 and 4, not of 8 and 6. */
static void
test_window_outside (void)
{
  const gint point[][2] = { {4, 3} };
  guint8 *prob = prob_new (point, 1, 200);
  ClhRect w = { -3, -2, 8, 6 };

  /* (4, 3): cvRound (4 - 2.5) = 2, cvRound (3 - 2) = 1; then (2, 2):
   * cvRound (-0.5) = 0 and 0. */
  g_assert_cmpuint (clh_reference_mean_shift (prob, W, W, H, &w,
          &sample_criteria), ==, 1);
  assert_rect (&w, 2, 1, 5, 4);

  /* Wider than the image: the whole image. */
  w = (ClhRect) { -10, -10, 100, 100 };
  clh_reference_mean_shift (prob, W, W, H, &w, &sample_criteria);
  assert_rect (&w, 0, 0, W, H);
  g_free (prob);
}

/* A window wholly outside the image becomes the 1 x 1 window at its
 * centre, (W / 2, H / 2); with nothing there the search stops at once,
 * and CamShift widens it by 10 each side within the image. */
static void
test_empty_rect_rule (void)
{
  const gint centre[][2] = { {W / 2, H / 2} };
  guint8 *prob = prob_new (centre, 1, 9);
  ClhRotatedBox box;
  ClhRect w = { 30, 30, 5, 5 };

  /* Something at the centre: m10 = 0, a step of 0. */
  g_assert_cmpuint (clh_reference_mean_shift (prob, W, W, H, &w,
          &sample_criteria), ==, 0);
  assert_rect (&w, W / 2, H / 2, 1, 1);
  memset (prob, 0, W * H);
  w = (ClhRect) { -9, 2, 4, 4 };
  g_assert_cmpuint (clh_reference_mean_shift (prob, W, W, H, &w,
          &sample_criteria), ==, 0);
  assert_rect (&w, W / 2, H / 2, 1, 1);

  w = (ClhRect) { 2, 40, 4, 4 };
  g_assert_false (clh_reference_camshift (prob, W, W, H, &w,
          &sample_criteria, &box, NULL));
  assert_rect (&w, 0, 0, W, H);
  g_free (prob);
}

/* Nothing to track: meanShift() stops at once, CamShift() returns the
 * zero box (OpenCV's RotatedRect ()) and the widened window. */
static void
test_empty_prob (void)
{
  guint8 *prob = g_malloc0 (W * H);
  const ClhRotatedBox zero = { 0 };
  ClhRotatedBox box;
  ClhCamShiftMass mass;
  ClhRect w = { 3, 12, 4, 5 };

  g_assert_false (clh_reference_camshift (prob, W, W, H, &w,
          &sample_criteria, &box, &mass));
  assert_rect (&w, 0, 2, W, 18);
  g_assert_cmpmem (&box, sizeof (box), &zero, sizeof (zero));
  assert_rect (&mass.window, 0, 2, W, 18);
  g_assert_cmpuint (mass.m00, ==, 0);
  g_free (prob);
}

/* Ten pixels on the diagonal (i, i): theta pi / 4, angle 135 (y grows
 * downwards), length 4 sqrt (2 * (10^2 - 1) / 12), width 0. */
static void
test_diagonal (void)
{
  gint points[10][2];
  ClhRotatedBox box;
  ClhCamShiftMass mass;
  ClhRect w = { 5, 5, 10, 10 };
  guint8 *prob;
  guint i;

  for (i = 0; i < 10; i++)
    points[i][0] = points[i][1] = 5 + i;
  prob = prob_new ((const gint (*)[2]) points, 10, 255);
  g_assert_true (clh_reference_camshift (prob, W, W, H, &w,
          &sample_criteria, &box, &mass));
  /* The mean shift stays (cvRound (4.5 - 5) = 0); widened by 10 each
   * side, the whole image holds the ten pixels. */
  assert_rect (&mass.window, 0, 0, W, H);
  g_assert_cmpuint (mass.m00, ==, 2550);
  g_assert_cmpfloat_with_epsilon (box.angle, 135.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (box.height, 4 * sqrt (16.5), 1e-5);
  g_assert_cmpfloat_with_epsilon (box.width, 0.0, 1e-3);
  /* Centroid (9.5, 9.5) rounds to (10, 10) (half to even); the window
   * 4 sqrt (16.5) cos (pi / 4) = 11.49 -> 11, + 2 = 13 each way. */
  assert_rect (&w, 4, 4, 13, 13);
  g_assert_cmpfloat (box.center_x, ==, 10.5);
  g_free (prob);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/track/axis-bin", test_axis_bin);
  g_test_add_func ("/track/saturate", test_saturate);
  g_test_add_func ("/track/backproject", test_backproject);
  g_test_add_func ("/track/model", test_model);
  g_test_add_func ("/track/model-shift", test_model_shift);
  g_test_add_func ("/track/moments", test_moments);
  g_test_add_func ("/track/single-pixel", test_single_pixel);
  g_test_add_func ("/track/clamp", test_clamp);
  g_test_add_func ("/track/window-outside", test_window_outside);
  g_test_add_func ("/track/empty-rect-rule", test_empty_rect_rule);
  g_test_add_func ("/track/empty-prob", test_empty_prob);
  g_test_add_func ("/track/diagonal", test_diagonal);
  return g_test_run ();
}
