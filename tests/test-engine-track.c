/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracking engine against the golden reference, bit for bit: the
 * back-projection of every colour format in every mode, odd sizes, padded
 * strides, random, one-colour and gradient frames, models with ties,
 * negative and huge values; the CamShift models, windows and boxes, one
 * track and many, windows leaving the frame or losing the target; and the
 * same through the device's submission thread, while a histogram engine
 * of the context streams beside it. */
#include <math.h>
#include <string.h>

#include "clh-context-private.h"
#include "clh-engine-tuning.h"
#include "clh-reference.h"
#include "clh-reference-track.h"
#include "clh-test-frame.h"
#include "clh-tracker.h"

static ClhTracker *tracker;
static ClhContext *context;

typedef struct {
  const gchar *mode;
  ClhCount count;
  guint bins;
} Binning;

static const Binning binnings[] = {
  {"hue", CLH_COUNT_HUE, 16}, {"hue", CLH_COUNT_HUE, 26},
  {"hue", CLH_COUNT_HUE, 180}, {"hue-saturation", CLH_COUNT_HUE_SATURATION,
      30}, {"rgb", CLH_COUNT_RGB, 7}, {"luma", CLH_COUNT_LUMA, 256},
  {"luma", CLH_COUNT_LUMA, 13},
};

/* A model with values that round at .5, negative, over 255, huge, NaN. */
static gfloat *
random_model (guint n, GRand *rand)
{
  static const gfloat special[] = { 0.5f, 1.5f, 2.5f, -3.0f, 300.0f,
    254.5f, 3e9f, NAN
  };
  gfloat *model = g_new (gfloat, n);
  guint i;

  for (i = 0; i < n; i++)
    model[i] = i < G_N_ELEMENTS (special) ? special[i] :
        (gfloat) g_rand_double_range (rand, -20.0, 280.0);
  return model;
}

static void
spec_for (ClhTestFrame *tf, const Binning *b, ClhBackprojectSpec *spec)
{
  ClhHistogramSpec hspec;

  g_assert_true (clh_reference_spec (tf->klass, &tf->frame, "hue", 16,
          &hspec));
  memset (spec, 0, sizeof (*spec));
  spec->count = b->count;
  spec->n_components = hspec.n_components;
  memcpy (spec->components, hspec.components, sizeof (spec->components));
  spec->color = hspec.color;
  spec->bins = b->bins;
  spec->scale = 1.0f;
  spec->max_value = 255;
}

static void
assert_backproject_equal (const ClhFrame *frame,
    const ClhBackprojectSpec *spec, const gchar *what)
{
  const gsize stride = frame->width + 3;
  guint8 *got = g_malloc (stride * frame->height);
  guint8 *want = g_malloc (stride * frame->height);
  GError *err = NULL;
  guint y;

  g_assert_true (clh_tracker_backproject (tracker, frame, NULL, spec, got,
          stride, &err));
  g_assert_no_error (err);
  clh_reference_backproject (frame, spec, want, stride);
  for (y = 0; y < frame->height; y++)
    if (memcmp (got + y * stride, want + y * stride, frame->width) != 0) {
      guint x;

      for (x = 0; got[y * stride + x] == want[y * stride + x]; x++);
      g_error ("%s: pixel (%u, %u) is %u, the reference says %u", what, x,
          y, got[y * stride + x], want[y * stride + x]);
    }
  g_free (got);
  g_free (want);
}

/* Every binning, with and without the mask and a scale, on random,
 * one-colour and gradient frames of an odd size with padded rows. */
static void
test_backproject_format (gconstpointer data)
{
  const gchar *format = data;
  GRand *rand = g_rand_new_with_seed (g_str_hash (format));
  ClhTestContent content;
  guint i;

  for (content = 0; content < CLH_TEST_N_CONTENTS; content++) {
    ClhTestFrame *tf = clh_test_frame_new (format, 37, 23, 5, content,
        g_rand_int (rand));

    for (i = 0; i < G_N_ELEMENTS (binnings); i++) {
      ClhBackprojectSpec spec;
      gfloat *model;
      gchar *what;

      spec_for (tf, &binnings[i], &spec);
      model = random_model (clh_backproject_spec_n_bins (&spec), rand);
      spec.model = model;
      what = g_strdup_printf ("%s %s %s %u bins", format,
          clh_test_content_name (content), binnings[i].mode,
          binnings[i].bins);
      assert_backproject_equal (&tf->frame, &spec, what);
      spec.scale = 0.75f;
      spec.min_saturation = 60;
      spec.min_value = 32;
      spec.max_value = 200;
      assert_backproject_equal (&tf->frame, &spec, what);
      g_free (what);
      g_free (model);
    }
    clh_test_frame_free (tf);
  }
  g_rand_free (rand);
}

/* The CamShift sample's hue spec on @tf. */
static ClhBackprojectSpec
camshift_spec (ClhTestFrame *tf)
{
  const Binning hue16 = { "hue", CLH_COUNT_HUE, 16 };
  ClhBackprojectSpec spec;

  spec_for (tf, &hue16, &spec);
  spec.min_saturation = 60;
  spec.min_value = 32;
  spec.max_value = 255;
  return spec;
}

/* Whether @x is a float's value (OpenCV's RotatedRect holds floats). */
static gboolean
is_float (gdouble x)
{
  volatile gfloat f = (gfloat) x;

  return (gdouble) f == x;
}

/* Models, then steps of several tracks, against the reference's step on
 * the reference's probability image of each track's model. */
static void
run_tracks (ClhTestFrame *tf, ClhRect *start, guint n, guint steps,
    const gchar *what)
{
  ClhBackprojectSpec spec = camshift_spec (tf);
  const ClhCamShiftCriteria criteria = { 10, 1.0 };
  const ClhFrame *frame = &tf->frame;
  gfloat *models = g_new (gfloat, n * 16), want_model[16];
  guint32 *counts = g_new (guint32, n * 16);
  ClhRect *windows = g_memdup2 (start, n * sizeof (ClhRect));
  ClhRect *want = g_memdup2 (start, n * sizeof (ClhRect));
  ClhRotatedBox *boxes = g_new0 (ClhRotatedBox, n), want_box;
  ClhCamShiftMass *masses = g_new0 (ClhCamShiftMass, n), want_mass;
  guint8 *prob = g_malloc ((gsize) frame->width * frame->height);
  GError *err = NULL;
  guint i, s;

  g_assert_true (clh_tracker_set_frame (tracker, frame, NULL, &spec, &err));
  g_assert_no_error (err);
  g_assert_true (clh_tracker_window_histograms (tracker, windows, n, counts,
          &err));
  for (i = 0; i < n; i++) {
    clh_camshift_model_normalize (counts + 16 * i, 16, models + 16 * i);
    clh_reference_camshift_model (frame, &spec, &start[i], want_model);
    if (memcmp (models + 16 * i, want_model, sizeof (want_model)) != 0)
      g_error ("%s: the model of window %u differs from the reference's "
          "(bin 0: %.9g against %.9g, counted %u)", what, i, models[16 * i],
          want_model[0], counts[16 * i]);
  }
  for (s = 0; s < steps; s++) {
    g_assert_true (clh_tracker_camshift (tracker, models, windows, n,
            &criteria, boxes, masses, &err));
    g_assert_no_error (err);
    for (i = 0; i < n; i++) {
      spec.model = models + 16 * i;
      clh_reference_backproject (frame, &spec, prob, frame->width);
      clh_reference_camshift (prob, frame->width, frame->width,
          frame->height, &want[i], &criteria, &want_box, &want_mass);
      if (memcmp (&masses[i].window, &want_mass.window, sizeof (ClhRect))
          != 0 || masses[i].m00 != want_mass.m00)
        g_error ("%s: track %u step %u: mass %" G_GUINT64_FORMAT " in "
            "%d,%d %dx%d; the reference says %" G_GUINT64_FORMAT " in %d,%d "
            "%dx%d", what, i, s, masses[i].m00, masses[i].window.x,
            masses[i].window.y, masses[i].window.width,
            masses[i].window.height, want_mass.m00, want_mass.window.x,
            want_mass.window.y, want_mass.window.width,
            want_mass.window.height);
      if (!is_float (boxes[i].center_x) || !is_float (boxes[i].center_y)
          || !is_float (boxes[i].width) || !is_float (boxes[i].height)
          || !is_float (boxes[i].angle))
        g_error ("%s: track %u step %u: box %.17g,%.17g %.17gx%.17g %.17g "
            "holds a value no float has", what, i, s, boxes[i].center_x,
            boxes[i].center_y, boxes[i].width, boxes[i].height,
            boxes[i].angle);
      if (memcmp (&windows[i], &want[i], sizeof (ClhRect)) != 0
          || memcmp (&boxes[i], &want_box, sizeof (want_box)) != 0)
        g_error ("%s: track %u step %u: window %d,%d %dx%d box %g,%g "
            "%gx%g %g; the reference says %d,%d %dx%d box %g,%g %gx%g %g",
            what, i, s, windows[i].x, windows[i].y, windows[i].width,
            windows[i].height, boxes[i].center_x, boxes[i].center_y,
            boxes[i].width, boxes[i].height, boxes[i].angle, want[i].x,
            want[i].y, want[i].width, want[i].height, want_box.center_x,
            want_box.center_y, want_box.width, want_box.height,
            want_box.angle);
    }
  }
  g_free (prob);
  g_free (masses);
  g_free (boxes);
  g_free (want);
  g_free (windows);
  g_free (counts);
  g_free (models);
}

/* Tracks on a random RGB frame: inside, over every edge, wholly outside,
 * one pixel, the whole frame. */
static void
test_camshift_windows (void)
{
  ClhTestFrame *tf = clh_test_frame_new ("RGB", 161, 97, 3, CLH_TEST_RANDOM,
      7);
  ClhRect windows[] = {
    {40, 30, 25, 20}, {-10, -5, 30, 30}, {150, 90, 40, 40},
    {200, 200, 10, 10}, {80, 40, 1, 1}, {0, 0, 161, 97},
  };

  run_tracks (tf, windows, G_N_ELEMENTS (windows), 4, "random RGB");
  clh_test_frame_free (tf);
}

/* A frame with no saturated pixel has no probability anywhere: every
 * track loses its target, and the box is empty. */
static void
test_camshift_lost (void)
{
  ClhTestFrame *tf = clh_test_frame_new ("RGBA", 64, 48, 0, CLH_TEST_ZERO,
      1);
  ClhRect windows[] = { {10, 10, 20, 20}, {-30, 0, 10, 10} };

  run_tracks (tf, windows, G_N_ELEMENTS (windows), 2, "black RGBA");
  clh_test_frame_free (tf);
}

/* A gradient in every YUV layout: subsampled chroma read in place. */
static void
test_camshift_yuv (void)
{
  const gchar *formats[] = { "I420", "NV12", "YUY2", "Y444" };
  ClhRect windows[] = { {5, 5, 30, 30}, {60, 20, 50, 40} };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    ClhTestFrame *tf = clh_test_frame_new (formats[i], 121, 75, 6,
        CLH_TEST_GRADIENT, i);

    run_tracks (tf, windows, G_N_ELEMENTS (windows), 3, formats[i]);
    clh_test_frame_free (tf);
  }
}

/* Windows wider than a track's work-group (256 work-items), so that a
 * work-item's next pixel is on the same row: random and gradient frames
 * 1500 pixels wide. */
static void
test_camshift_wide (void)
{
  ClhRect windows[] = { {0, 0, 1500, 40}, {100, 5, 1300, 30},
    {-200, 10, 1800, 20}
  };
  guint i;

  for (i = 0; i < 2; i++) {
    ClhTestFrame *tf = clh_test_frame_new ("RGB", 1500, 40, 5,
        i ? CLH_TEST_GRADIENT : CLH_TEST_RANDOM, 11 + i);

    run_tracks (tf, windows, G_N_ELEMENTS (windows), 3, i ? "wide gradient"
        : "wide random");
    clh_test_frame_free (tf);
  }
}

static void
test_invalid (void)
{
  ClhTestFrame *tf = clh_test_frame_new ("RGB", 16, 16, 0, CLH_TEST_RANDOM,
      3);
  ClhBackprojectSpec spec = camshift_spec (tf);
  ClhRect empty = { 0, 0, 0, 5 };
  const ClhCamShiftCriteria criteria = { 10, 1.0 };
  ClhRotatedBox box;
  gfloat model[16] = { 0 };
  guint8 out[256];
  GError *err = NULL;

  spec.model = NULL;
  g_assert_false (clh_tracker_backproject (tracker, &tf->frame, NULL, &spec,
          out, 16, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  spec.bins = 181;
  g_assert_false (clh_tracker_set_frame (tracker, &tf->frame, NULL, &spec,
          &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  spec.bins = 16;
  g_assert_true (clh_tracker_set_frame (tracker, &tf->frame, NULL, &spec,
          &err));
  g_assert_false (clh_tracker_camshift (tracker, model, &empty, 1, &criteria,
          &box, NULL, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  clh_test_frame_free (tf);
}

/* A histogram engine of the tracker's context streaming GRAY8 frames
 * through the submission thread (copied, so batched also on a CPU device)
 * until told to stop, each frame checked against the reference. */
typedef struct {
  ClhEngine *engine;
  gint stop;
  gint frames;
} Beside;

static gpointer
stream_beside (gpointer data)
{
  Beside *b = data;
  ClhTestFrame *tf = clh_test_frame_new ("GRAY8", 97, 61, 5, CLH_TEST_RANDOM,
      3);
  ClhHistogramSpec spec;
  guint32 got_counts[256], want_counts[256];
  ClhHistogram got = { got_counts }, want = { want_counts };
  GError *err = NULL;

  g_assert_true (clh_reference_spec (tf->klass, &tf->frame, "luma", 256,
          &spec));
  clh_reference_histogram (&tf->frame, &spec, &want);
  while (!g_atomic_int_get (&b->stop)) {
    g_assert_true (clh_engine_submit (b->engine, &tf->frame, &spec, NULL,
            &err));
    g_assert_true (clh_engine_collect (b->engine, &got, &err));
    g_assert_no_error (err);
    g_assert_cmpmem (got_counts, sizeof (got_counts), want_counts,
        sizeof (want_counts));
    g_atomic_int_inc (&b->frames);
  }
  clh_test_frame_free (tf);
  return NULL;
}

/* The tracker's back-projections, window histograms and CamShift steps
 * enqueued by the device's submission thread, in the counting queue its
 * histogram engines share, while one of them streams: the same results,
 * bit for bit. A frame set and freed at once, then another set (which
 * waits for the first's commands before reusing the memory they copy
 * from), tracks as the second alone would. */
static void
test_beside_engines (void)
{
  ClhContext *ctx = context;
  ClhSubmitter *s = clh_context_get_submitter (ctx);
  Beside b = { clh_engine_new_for_context (ctx, NULL), 0, 0 };
  ClhSubmitterStats before, after;
  ClhBackprojectSpec spec;
  ClhTestFrame *first;
  GThread *thread;

  g_assert_nonnull (b.engine);
  clh_engine_set_counting (b.engine, CLH_COUNTING_DEVICE);
  clh_engine_set_submission (b.engine, CLH_SUBMISSION_THREAD);
  clh_engine_set_transfer (b.engine, CLH_TRANSFER_COPY);
  clh_tracker_set_submission (tracker, CLH_SUBMISSION_THREAD);
  clh_submitter_get_stats (s, &before);
  thread = g_thread_new ("beside", stream_beside, &b);
  while (g_atomic_int_get (&b.frames) == 0)
    g_usleep (100);

  first = clh_test_frame_new ("RGB", 161, 97, 3, CLH_TEST_GRADIENT, 9);
  spec = camshift_spec (first);
  g_assert_true (clh_tracker_set_frame (tracker, &first->frame, NULL, &spec,
          NULL));
  clh_test_frame_free (first);
  test_camshift_windows ();
  test_backproject_format ("RGB");
  test_backproject_format ("NV12");
  test_camshift_yuv ();
  test_camshift_lost ();

  g_atomic_int_set (&b.stop, TRUE);
  g_thread_join (thread);
  clh_submitter_get_stats (s, &after);
  g_test_message ("%d engine frames beside the tracker; %" G_GUINT64_FORMAT
      " jobs on the thread", b.frames, after.n_jobs - before.n_jobs);
  /* The engine's frames (a job each) and the tracker's operations. */
  g_assert_cmpuint (after.n_jobs - before.n_jobs, >, (guint) b.frames);
  clh_tracker_set_submission (tracker, CLH_SUBMISSION_AUTO);
  clh_engine_free (b.engine);
}

int
main (int argc, char **argv)
{
  static const gchar *formats[] = { "RGB", "BGRx", "RGBA", "ARGB", "I420",
    "YV12", "NV12", "NV21", "YUY2", "UYVY", "Y41B", "Y42B", "Y444",
  };
  GError *err = NULL;
  guint i;
  int ret;

  g_test_init (&argc, &argv, NULL);
  context = clh_context_new (g_getenv ("CLH_TEST_DEVICE"), &err);
  g_assert_no_error (err);
  tracker = clh_tracker_new (context, &err);
  g_assert_no_error (err);
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *path = g_strdup_printf ("/track/backproject/%s", formats[i]);

    g_test_add_data_func (path, formats[i], test_backproject_format);
    g_free (path);
  }
  g_test_add_func ("/track/camshift/windows", test_camshift_windows);
  g_test_add_func ("/track/camshift/lost", test_camshift_lost);
  g_test_add_func ("/track/camshift/yuv", test_camshift_yuv);
  g_test_add_func ("/track/camshift/wide", test_camshift_wide);
  g_test_add_func ("/track/invalid", test_invalid);
  g_test_add_func ("/track/beside-engines", test_beside_engines);
  ret = g_test_run ();
  clh_tracker_free (tracker);
  clh_context_unref (context);
  return ret;
}
