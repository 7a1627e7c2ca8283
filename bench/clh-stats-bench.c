/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-stats-bench: what statistics and a message interval cost.
 *
 * 1. End to end per frame with statistics on against off, in one running
 *    pipeline per case (no start-up in the timed part):
 *
 *      appsrc ! clhistogram statistics=S ! fakesink sync=false
 *
 *    Blocks of --frames frames alternate off, on, off, on, ... (--runs
 *    each); a block is timed from its first push to its last frame at the
 *    sink, and the process's CPU time (all threads) is taken over the same
 *    span. Frames are wrapped without copying, 16 of them rotating; the
 *    `histogram` messages are dropped by a bus sync handler. Reports the
 *    median us/frame of each setting and their ratio.
 *
 * 2. A live monitor: the process's CPU time per frame of
 *
 *      videotestsrc is-live=true ! video/x-raw,format=I420,width=1280,
 *          height=720,framerate=30/1 [! clhistogram interval=500000000]
 *          ! fakesink
 *
 *    for --live-seconds each, with and without clhistogram, alternating
 *    (--live-runs each); the difference is what clhistogram adds.
 *
 * Not a test: it asserts nothing about time.
 *
 *   GST_PLUGIN_PATH=build/gst build/bench/clh-stats-bench */
#include <stdio.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "clh-bench-stats.h"

#define N_ROTATED 16

typedef struct {
  const gchar *name;
  GstVideoFormat format;
  guint width, height;
  const gchar *properties;
} Case;

static const Case cases[] = {
  {"600x480 GRAY8 luma, 256 bins", GST_VIDEO_FORMAT_GRAY8, 600, 480, ""},
  {"1920x1080 I420 luma, 256 bins", GST_VIDEO_FORMAT_I420, 1920, 1080, ""},
  {"600x480 GRAY8 luma, 16 bins", GST_VIDEO_FORMAT_GRAY8, 600, 480,
      "bins=16"},
  {"1920x1080 P010 luma, 64 bins", GST_VIDEO_FORMAT_P010_10LE, 1920, 1080,
      "bins=64"},
  {"600x480 RGBA channels, 256 bins, zones 5x5", GST_VIDEO_FORMAT_RGBA, 600,
      480, "mode=channels zones=5x5"},
};

typedef struct {
  GMutex lock;
  GCond cond;
  guint64 arrived;
  guint messages;
} Sink;

static void
on_handoff (GstElement *fakesink, GstBuffer *buffer, GstPad *pad, Sink *sink)
{
  g_mutex_lock (&sink->lock);
  sink->arrived++;
  g_cond_signal (&sink->cond);
  g_mutex_unlock (&sink->lock);
}

static GstBusSyncReply
drop_histograms (GstBus *bus, GstMessage *message, gpointer data)
{
  Sink *sink = data;
  const GstStructure *s = gst_message_get_structure (message);

  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ELEMENT && s
      && gst_structure_has_name (s, "histogram")) {
    g_atomic_int_inc (&sink->messages);
    return GST_BUS_DROP;
  }
  return GST_BUS_PASS;
}

/* N_ROTATED frames of noise over a gradient, so that every bin and the
 * statistics see work. */
static guint8 *
make_frames (const GstVideoInfo *info)
{
  const gsize size = GST_VIDEO_INFO_SIZE (info);
  guint8 *frames = g_malloc (size * N_ROTATED);
  GRand *rand = g_rand_new_with_seed (1);
  gsize i;

  for (i = 0; i < size * N_ROTATED; i++)
    frames[i] = (guint8) ((i % size) * 251 / size + (g_rand_int (rand) & 31));
  g_rand_free (rand);
  return frames;
}

/* Times one block of @n frames; FALSE if they did not all arrive. */
static gboolean
time_block (GstElement *src, Sink *sink, const GstVideoInfo *info,
    guint8 *frames, guint64 *pts, guint n, gdouble *wall_us, gdouble *cpu_us)
{
  const gsize size = GST_VIDEO_INFO_SIZE (info);
  const gdouble t0 = clh_bench_now_us (), c0 = clh_bench_cpu_us ();
  guint64 target;
  gboolean ok = TRUE;
  guint i;

  g_mutex_lock (&sink->lock);
  target = sink->arrived + n;
  g_mutex_unlock (&sink->lock);
  for (i = 0; i < n; i++) {
    GstBuffer *buffer = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
        frames + (*pts % N_ROTATED) * size, size, 0, size, NULL, NULL);

    GST_BUFFER_PTS (buffer) = *pts * (GST_SECOND / 30);
    GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
    (*pts)++;
    gst_app_src_push_buffer (GST_APP_SRC (src), buffer);
  }
  g_mutex_lock (&sink->lock);
  while (ok && sink->arrived < target)
    ok = g_cond_wait_until (&sink->cond, &sink->lock,
        g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND);
  g_mutex_unlock (&sink->lock);
  *wall_us = (clh_bench_now_us () - t0) / n;
  *cpu_us = (clh_bench_cpu_us () - c0) / n;
  return ok;
}

static gboolean
run_case (const Case *c, guint frames, guint runs, GString *json)
{
  GArray *wall[2], *cpu[2];
  Sink sink = { 0 };
  GstVideoInfo info;
  GstElement *pipeline, *src, *hist, *fakesink;
  GstCaps *caps;
  GstBus *bus;
  guint8 *data;
  guint64 pts = 0;
  gchar *desc;
  guint r, s;
  gboolean ok = TRUE;

  gst_video_info_set_format (&info, c->format, c->width, c->height);
  data = make_frames (&info);
  desc = g_strdup_printf ("appsrc name=src format=time ! clhistogram "
      "name=h %s ! fakesink name=sink sync=false signal-handoffs=true",
      c->properties);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  hist = gst_bin_get_by_name (GST_BIN (pipeline), "h");
  fakesink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  caps = gst_video_info_to_caps (&info);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  g_mutex_init (&sink.lock);
  g_cond_init (&sink.cond);
  g_signal_connect (fakesink, "handoff", G_CALLBACK (on_handoff), &sink);
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, drop_histograms, &sink, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  for (s = 0; s < 2; s++) {
    wall[s] = g_array_new (FALSE, FALSE, sizeof (gdouble));
    cpu[s] = g_array_new (FALSE, FALSE, sizeof (gdouble));
  }
  /* A warm-up block: the device, the program and the pool. */
  for (r = 0; ok && r <= runs; r++)
    for (s = 0; ok && s < 2; s++) {
      gdouble w, u;

      g_object_set (hist, "statistics", (gboolean) s, NULL);
      ok = time_block (src, &sink, &info, data, &pts, frames, &w, &u);
      if (r > 0) {
        g_array_append_val (wall[s], w);
        g_array_append_val (cpu[s], u);
      }
    }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_message_unref (gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
          GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  gst_element_set_state (pipeline, GST_STATE_NULL);

  if (ok) {
    const gdouble off = clh_bench_percentile (wall[0], 50),
        on = clh_bench_percentile (wall[1], 50),
        cpu_off = clh_bench_percentile (cpu[0], 50),
        cpu_on = clh_bench_percentile (cpu[1], 50);

    printf ("%-44s %9.1f %9.1f %7.3fx %9.1f %9.1f\n", c->name, off, on,
        on / off, cpu_off, cpu_on);
    g_string_append_printf (json, "%s{\"case\": ", json->len > 2 ? ", " : "");
    clh_bench_json_string (json, c->name);
    g_string_append_printf (json, ", \"frames\": %u, \"runs\": %u, "
        "\"us_per_frame_off\": %.2f, \"us_per_frame_on\": %.2f, "
        "\"ratio\": %.4f, \"cpu_us_off\": %.2f, \"cpu_us_on\": %.2f, "
        "\"messages\": %u}", frames, runs, off, on, on / off, cpu_off,
        cpu_on, sink.messages);
  } else {
    printf ("%-44s frames did not arrive\n", c->name);
  }
  for (s = 0; s < 2; s++) {
    g_array_unref (wall[s]);
    g_array_unref (cpu[s]);
  }
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (hist);
  gst_object_unref (fakesink);
  gst_object_unref (pipeline);
  g_mutex_clear (&sink.lock);
  g_cond_clear (&sink.cond);
  g_free (data);
  return ok;
}

/* CPU us per frame of a live pipeline run for @seconds. */
static gdouble
live_cpu (gboolean with_histogram, guint seconds)
{
  const guint n = seconds * 30;
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=%u ! "
      "video/x-raw,format=I420,width=1280,height=720,framerate=30/1 %s ! "
      "fakesink", n, with_histogram ? "! clhistogram interval=500000000" :
      "");
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  gdouble c0, c1;

  g_free (desc);
  c0 = clh_bench_cpu_us ();
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (gst_bus_timed_pop_filtered (bus, (seconds + 60)
          * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  c1 = clh_bench_cpu_us ();
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return (c1 - c0) / n;
}

int
main (int argc, char **argv)
{
  gint frames = 2000, runs = 5, live_seconds = 5, live_runs = 2;
  gchar *json_path = NULL;
  gboolean no_live = FALSE, only_live = FALSE;
  GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "Frames per block", "N"},
    {"runs", 0, 0, G_OPTION_ARG_INT, &runs, "Blocks of each setting", "R"},
    {"live-seconds", 0, 0, G_OPTION_ARG_INT, &live_seconds,
        "Seconds per live run", "S"},
    {"live-runs", 0, 0, G_OPTION_ARG_INT, &live_runs,
        "Live runs with and without clhistogram", "R"},
    {"no-live", 0, 0, G_OPTION_ARG_NONE, &no_live, "Skip the live monitor",
        NULL},
    {"only-live", 0, 0, G_OPTION_ARG_NONE, &only_live,
        "Only the live monitor", NULL},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "Write JSON here",
        "FILE"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- statistics' cost");
  GString *json = g_string_new ("{\"cases\": [");
  GError *err = NULL;
  guint i;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || frames < 1
      || runs < 1 || live_seconds < 1 || live_runs < 1) {
    g_printerr ("%s\n", err ? err->message : "counts must be positive");
    return 2;
  }
  g_option_context_free (ctx);

  if (!only_live) {
    printf ("%-44s %9s %9s %8s %9s %9s\n", "case (messages on)", "off us",
        "on us", "on/off", "cpu off", "cpu on");
    for (i = 0; i < G_N_ELEMENTS (cases); i++)
      run_case (&cases[i], frames, runs, json);
  }
  g_string_append (json, "]");
  if (!no_live) {
    GArray *plain = g_array_new (FALSE, FALSE, sizeof (gdouble));
    GArray *with = g_array_new (FALSE, FALSE, sizeof (gdouble));
    gdouble a, b;
    gint r;

    for (r = 0; r < live_runs; r++) {
      a = live_cpu (FALSE, live_seconds);
      b = live_cpu (TRUE, live_seconds);
      g_array_append_val (plain, a);
      g_array_append_val (with, b);
    }
    a = clh_bench_percentile (plain, 50);
    b = clh_bench_percentile (with, 50);
    printf ("live 1280x720 I420 30 fps, interval 500 ms: CPU %.0f us/frame "
        "without clhistogram, %.0f with: +%.0f us/frame\n", a, b, b - a);
    g_string_append_printf (json, ", \"live\": {\"cpu_us_without\": %.1f, "
        "\"cpu_us_with\": %.1f, \"added_us\": %.1f, \"seconds\": %d, "
        "\"runs\": %d}", a, b, b - a, live_seconds, live_runs);
    g_array_unref (plain);
    g_array_unref (with);
  }
  g_string_append (json, "}\n");
  if (json_path)
    g_file_set_contents (json_path, json->str, -1, NULL);
  g_string_free (json, TRUE);
  g_free (json_path);
  return 0;
}
