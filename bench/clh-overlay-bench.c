/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The host CPU histogramoverlay takes a frame: I420 frames (1280x720 by
 * default) carrying a full-frame luma histogram and 5 x 5 zones' with
 * statistics, as clhistogram zones=5x5 attaches them, pushed through the
 * element in a GstHarness; process CPU time per frame for each set of
 * properties, first with alpha=0 (nothing drawn: the harness's own
 * cost). Run with GST_PLUGIN_PATH=build/gst.
 *
 *   clh-overlay-bench [WIDTH HEIGHT [FRAMES]]
 */
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ZONES 5

static gdouble
process_cpu_seconds (void)
{
  struct timespec t;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* A luma histogram of the rectangle with a smooth shape and its share
 * of clipped samples, in thousandths, high and low. */
static void
add_histogram (GstBuffer *buffer, const gchar *type, gint id, guint x,
    guint y, guint width, guint height, guint high, guint low)
{
  static const gchar *const names[] = { "Y" };
  const GstHistogramRegion region = { type, id, x, y, width, height };
  const guint n_bins = 256;
  GstHistogramStatistics statistics = { 0 };
  GstHistogramInfo info;
  GstHistogramMeta *meta;
  guint32 counts[256];
  guint b;

  for (b = 0; b < 256; b++)
    counts[b] = 1000 + (b * 7919) % 5000;
  gst_histogram_info_init (&info);
  gst_histogram_info_set_format (&info, GST_HISTOGRAM_MODE_LUMA, 1, names, 1,
      &n_bins);
  meta = gst_buffer_add_histogram_meta (buffer, &info, &region, counts, 256);
  statistics.flags = GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY;
  statistics.samples = (guint64) width * height;
  statistics.clipped_high = statistics.samples * high / 1000;
  statistics.clipped_low = statistics.samples * low / 1000;
  gst_histogram_meta_set_statistics (meta, 0, &statistics);
}

static GstBuffer *
frame_new (gint width, gint height)
{
  GstVideoInfo info;
  GstBuffer *buffer;
  gint z;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, width, height);
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (buffer, 0, 100, GST_VIDEO_INFO_SIZE (&info));
  add_histogram (buffer, "frame", 0, 0, 0, width, height, 20, 5);
  /* A third of the zones clip (1.7 %, 3.3 %), a quarter are crushed. */
  for (z = 0; z < ZONES * ZONES; z++) {
    gint i = z % ZONES, j = z / ZONES;

    add_histogram (buffer, "zone", z, i * width / ZONES, j * height / ZONES,
        (i + 1) * width / ZONES - i * width / ZONES,
        (j + 1) * height / ZONES - j * height / ZONES, (z % 3) * 50 / 3,
        z % 4 == 0 ? 25 : 0);
  }
  return buffer;
}

static void
run (gint width, gint height, gint frames, const gchar *properties)
{
  gchar *description = g_strdup_printf ("histogramoverlay %s", properties);
  gchar *caps = g_strdup_printf ("video/x-raw,format=I420,width=%d,"
      "height=%d,framerate=30/1", width, height);
  GstHarness *h = gst_harness_new_parse (description);
  GstBuffer *model = frame_new (width, height);
  GstBuffer **in = g_new (GstBuffer *, frames);
  gdouble start, end;
  gint i;

  gst_harness_set_src_caps_str (h, caps);
  /* Warm: fontconfig, the labels' cache. */
  gst_buffer_unref (gst_harness_push_and_pull (h,
          gst_buffer_copy_deep (model)));
  for (i = 0; i < frames; i++) {
    in[i] = gst_buffer_copy_deep (model);
    GST_BUFFER_PTS (in[i]) = i * GST_SECOND / 30;
  }
  start = process_cpu_seconds ();
  for (i = 0; i < frames; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h, in[i]));
  end = process_cpu_seconds ();
  printf ("%dx%d %-68s %6.3f ms/frame\n", width, height, properties,
      (end - start) * 1000.0 / frames);
  g_free (in);
  gst_buffer_unref (model);
  gst_harness_teardown (h);
  g_free (caps);
  g_free (description);
}

int
main (int argc, char **argv)
{
  static const gchar *const sets[] = {
    "alpha=0",
    "zones=false graticule=none legal-marks=false legend=false "
        "clipping-text=false",
    "zones=false",
    "",
    "zone-labels=true",
  };
  gint width = argc > 2 ? atoi (argv[1]) : 1280;
  gint height = argc > 2 ? atoi (argv[2]) : 720;
  gint frames = argc > 3 ? atoi (argv[3]) : 300;
  guint s;

  gst_init (&argc, &argv);
  if (width < 16 || height < 16 || frames < 1) {
    fprintf (stderr, "usage: %s [WIDTH HEIGHT [FRAMES]]\n", argv[0]);
    return 2;
  }
  for (s = 0; s < G_N_ELEMENTS (sets); s++)
    run (width, height, frames, sets[s]);
  return 0;
}
