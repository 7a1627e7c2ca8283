/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram under concurrency, for ThreadSanitizer (scripts/sanitize.sh)
 * as much as for the plain suite: many pipelines in threads sharing one
 * device context, properties changed from other threads while frames
 * stream, and a source that pauses between frames so that the element's
 * pusher thread pushes counted frames while the next one comes in. */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-check-util.h"

/* Every buffer carries a histogram whose channels account for every
 * sample they examined: sum (counts) + below + above = samples (luma and
 * channels modes, whatever the bins and range). */
static GstPadProbeReturn
check_histogram (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  GstHistogramMeta *meta =
      gst_buffer_get_histogram_meta (GST_PAD_PROBE_INFO_BUFFER (info));
  guint c, b, n_bins;

  fail_unless (meta != NULL, "a buffer without its histogram");
  for (c = 0; c < meta->info.n_channels; c++) {
    const guint32 *counts = gst_histogram_meta_get_counts (meta, c, &n_bins);
    guint64 sum = gst_histogram_meta_get_statistics (meta, c)->below
        + gst_histogram_meta_get_statistics (meta, c)->above;

    for (b = 0; b < n_bins; b++)
      sum += counts[b];
    fail_unless_equals_uint64 (sum,
        gst_histogram_meta_get_statistics (meta, c)->samples);
  }
  g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

/* Runs @launch (its sink named "sink") to EOS, checking every buffer;
 * returns how many reached the sink. */
static gint
run_checked (const gchar *launch)
{
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gint buffers = 0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_histogram,
      &buffers, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s",
      launch);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return g_atomic_int_get (&buffers);
}

static gpointer
run_pipeline_thread (gpointer data)
{
  const guint i = GPOINTER_TO_UINT (data);
  const gchar *const formats[] = { "GRAY8", "RGBA", "NV12", "I420" };
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=40 "
      "pattern=%u ! video/x-raw,format=%s,width=%u,height=%u ! "
      "clhistogram mode=channels max-frames-in-flight=%u ! "
      "fakesink name=sink", i % 20, formats[i % 4], 32 + 7 * i, 24 + 5 * i,
      1 + i % 4);
  gint buffers = run_checked (launch);

  g_free (launch);
  return GINT_TO_POINTER (buffers);
}

/* Eight pipelines at once, each with its own queue on the process's one
 * device context. */
GST_START_TEST (test_pipelines_in_threads)
{
  GThread *threads[8];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("pipeline", run_pipeline_thread,
        GUINT_TO_POINTER (i));
  for (i = 0; i < G_N_ELEMENTS (threads); i++)
    fail_unless_equals_int (GPOINTER_TO_INT (g_thread_join (threads[i])), 40);
}
GST_END_TEST;

typedef struct {
  GstElement *histogram;
  gint stop;
} Changer;

static gpointer
change_properties (gpointer data)
{
  Changer *ch = data;
  guint i = 0;

  while (!g_atomic_int_get (&ch->stop)) {
    gst_util_set_object_arg (G_OBJECT (ch->histogram), "mode",
        i % 2 ? "channels" : "luma");
    g_object_set (ch->histogram, "bins", 1 + (i * 37) % 256,
        "max-frames-in-flight", i % 5, "post-messages", i % 3 == 0,
        "range-min", (i * 11) % 64, "range-max", i % 4 ? -1 : 200, NULL);
    i++;
    g_usleep (200);
  }
  return NULL;
}

/* Properties set from another thread while frames stream, with frames in
 * flight changing depth: every buffer still gets a consistent histogram. */
GST_START_TEST (test_properties_while_streaming)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=300 "
      "pattern=ball ! video/x-raw,format=RGBA,width=64,height=48 ! "
      "clhistogram name=h ! fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  Changer ch = { gst_bin_get_by_name (GST_BIN (pipeline), "h"), 0 };
  GThread *changer;
  GstMessage *msg;
  gint buffers = 0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_histogram,
      &buffers, NULL);
  changer = g_thread_new ("changer", change_properties, &ch);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  g_atomic_int_set (&ch.stop, 1);
  g_thread_join (changer);
  fail_unless_equals_int (g_atomic_int_get (&buffers), 300);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (ch.histogram);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}
GST_END_TEST;

/* A source that sleeps between frames, about as long as a frame takes to
 * count: the pusher thread pushes counted frames while the streaming
 * thread brings the next, in either order. */
GST_START_TEST (test_pusher_races_streaming)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time "
      "caps=video/x-raw,format=GRAY8,width=32,height=24,framerate=30/1 ! "
      "clhistogram max-frames-in-flight=4 ! fakesink name=sink", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GstFlowReturn flow;
  gint buffers = 0;
  guint i;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_histogram,
      &buffers, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < 200; i++) {
    GstBuffer *buffer = gst_buffer_new_allocate (NULL, 32 * 24, NULL);

    gst_buffer_memset (buffer, 0, i, 32 * 24);
    GST_BUFFER_PTS (buffer) = i * GST_SECOND / 30;
    g_signal_emit_by_name (src, "push-buffer", buffer, &flow);
    gst_buffer_unref (buffer);
    fail_unless_equals_int (flow, GST_FLOW_OK);
    g_usleep (g_random_int_range (0, 1000));
  }
  g_signal_emit_by_name (src, "end-of-stream", &flow);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless_equals_int (g_atomic_int_get (&buffers), 200);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}
GST_END_TEST;

static Suite *
clhistogram_threads_suite (void)
{
  Suite *s = suite_create ("clhistogram-threads");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pipelines_in_threads);
  tcase_add_test (tc, test_properties_while_streaming);
  tcase_add_test (tc, test_pusher_races_streaming);
  return s;
}

CLH_CHECK_MAIN (clhistogram_threads);
