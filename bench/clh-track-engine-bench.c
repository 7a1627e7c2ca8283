/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-track-engine-bench: where a clcamshift frame's time goes, through
 * the tracking engine alone, on raw BGR frames (as clh-track-bench reads
 * them) and the same 4x4 grid of windows:
 *
 *   load:     clh_tracker_set_frame() (the frame's upload from ordinary
 *             memory and the hue bin image), waited for;
 *   camshift: clh_tracker_camshift() of every track on the loaded frame
 *             (one launch, moments read back), from the same windows;
 *   project:  clh_tracker_backproject() of one model into host memory
 *             (clbackproject's frame: upload, kernel, image read back).
 *
 * Medians over the frames, in us. Not a test: it asserts nothing.
 *
 *   build/bench/clh-track-engine-bench FRAMES_FILE WIDTH HEIGHT [N_FRAMES]
 */
#include <stdio.h>
#include <stdlib.h>

#include "clh-bench-stats.h"
#include "clh-tracker.h"

#define GRID 4

static ClhFrame
bgr_frame (const guint8 *data, guint width, guint height)
{
  ClhFrame f = { 0 };
  guint c;

  f.width = width;
  f.height = height;
  f.sample = CLH_SAMPLE_8;
  f.depth = 8;
  f.n_planes = 1;
  f.planes[0].data = data;
  f.planes[0].stride = (width * 3 + 3) & ~3u;
  f.n_components = 3;
  /* R, G, B of BGR bytes. */
  for (c = 0; c < 3; c++)
    f.components[c] = (ClhComponent) { 0, 2 - c, 3, 0, 0, 0 };
  return f;
}

static ClhRect
grid_window (guint i, guint width, guint height)
{
  const guint cw = width / GRID, ch = height / GRID;
  const guint w = MAX (width / 8, 1), h = MAX (height / 8, 1);

  return (ClhRect) { (gint) ((i % GRID) * cw + (cw - w) / 2),
    (gint) ((i / GRID) * ch + (ch - h) / 2), (gint) w, (gint) h };
}

static gdouble
median (GArray *a)
{
  return clh_bench_percentile (a, 50);
}

int
main (int argc, char **argv)
{
  const guint n_tracks_list[] = { 1, 16 };
  g_autoptr (GError) err = NULL;
  g_autofree guint8 *data = NULL;
  gsize size;
  guint width, height, n_frames, frames, t, i, k;
  ClhContext *ctx;
  ClhTracker *tracker;

  if (argc < 4 || !g_file_get_contents (argv[1], (gchar **) &data, &size,
          &err)) {
    g_printerr ("usage: %s FRAMES_FILE WIDTH HEIGHT [N_FRAMES]%s%s\n",
        argv[0], err ? ": " : "", err ? err->message : "");
    return 2;
  }
  width = atoi (argv[2]);
  height = atoi (argv[3]);
  n_frames = argc > 4 ? (guint) atoi (argv[4]) : 200;
  frames = size / ((gsize) ((width * 3 + 3) & ~3u) * height);
  if (width < 8 || height < 8 || frames == 0) {
    g_printerr ("no %ux%u BGR frame in %s\n", width, height, argv[1]);
    return 2;
  }
  ctx = clh_context_new (g_getenv ("CLH_DEVICE"), &err);
  tracker = ctx ? clh_tracker_new (ctx, &err) : NULL;
  if (!tracker) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  printf ("%s, %ux%u BGR, %u frames of %u in the file\n",
      clh_context_get_device_name (ctx), width, height, n_frames, frames);
  printf ("tracks  load us  camshift us  project us\n");

  for (t = 0; t < G_N_ELEMENTS (n_tracks_list); t++) {
    const guint n = n_tracks_list[t];
    const ClhCamShiftCriteria criteria = { 10, 1.0 };
    ClhBackprojectSpec spec = { CLH_COUNT_HUE, 3, {0, 1, 2}, CLH_COLOR_RGB,
      16, NULL, 1.0f, 60, 32, 255
    };
    GArray *load = g_array_new (FALSE, FALSE, sizeof (gdouble));
    GArray *shift = g_array_new (FALSE, FALSE, sizeof (gdouble));
    GArray *project = g_array_new (FALSE, FALSE, sizeof (gdouble));
    ClhRect start[16], windows[16];
    ClhRotatedBox boxes[16];
    guint32 counts[16 * 16], probe[16];
    gfloat models[16 * 16];
    guint8 *prob = g_malloc ((gsize) width * height);
    ClhFrame first = bgr_frame (data, width, height);
    ClhRect one = { 0, 0, 1, 1 };

    for (i = 0; i < n; i++)
      start[i] = grid_window (i, width, height);
    if (!clh_tracker_set_frame (tracker, &first, NULL, &spec, &err)
        || !clh_tracker_window_histograms (tracker, start, n, counts, &err))
      g_error ("%s", err->message);
    for (i = 0; i < n; i++)
      clh_camshift_model_normalize (counts + 16 * i, 16, models + 16 * i);
    spec.model = models;

    for (k = 0; k < n_frames + 10; k++) {
      ClhFrame f = bgr_frame (data + (gsize) (k % frames) * first.planes[0]
          .stride * height, width, height);
      gdouble t0, t1, t2, t3;

      memcpy (windows, start, sizeof (ClhRect) * n);
      t0 = clh_bench_now_us ();
      /* A one-pixel histogram waits for the load without adding work. */
      if (!clh_tracker_set_frame (tracker, &f, NULL, &spec, &err)
          || !clh_tracker_window_histograms (tracker, &one, 1, probe, &err))
        g_error ("%s", err->message);
      t1 = clh_bench_now_us ();
      if (!clh_tracker_camshift (tracker, models, windows, n, &criteria,
              boxes, NULL, &err))
        g_error ("%s", err->message);
      t2 = clh_bench_now_us ();
      if (!clh_tracker_backproject (tracker, &f, NULL, &spec, prob, width,
              &err))
        g_error ("%s", err->message);
      t3 = clh_bench_now_us ();
      if (k < 10)
        continue;
      t1 -= t0;
      t3 -= t2;
      t2 -= t0 + t1;
      g_array_append_val (load, t1);
      g_array_append_val (shift, t2);
      g_array_append_val (project, t3);
    }
    printf ("%6u  %7.1f  %11.1f  %10.1f\n", n, median (load),
        median (shift), median (project));
    g_array_unref (load);
    g_array_unref (shift);
    g_array_unref (project);
    g_free (prob);
  }
  clh_tracker_free (tracker);
  clh_context_unref (ctx);
  return 0;
}
