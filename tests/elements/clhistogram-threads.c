/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram under concurrency, for ThreadSanitizer (scripts/sanitize.sh)
 * as much as for the plain suite: many pipelines in threads sharing one
 * device context, properties changed from other threads while frames
 * stream, and a source that pauses between frames so that the element's
 * pusher thread pushes counted frames while the next one comes in. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-test-timeout.h"
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
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (120),
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
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (120),
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
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (120),
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

/* Two configurations one g_object_setv() flips between: hue with 180 bins
 * and one fixed region, or rgb with 16 bins per axis and a 2x2 grid of
 * zones. A frame counted with half of a change has hue with 16 bins, rgb
 * with 180 (an error: 180^3 bins cannot be counted), or 1 or 6
 * histograms. */
#define FLIPS 10000
#define MIN_FRAMES_FLIPPED 200
#define FLIP_W 16
#define FLIP_H 8
static const gchar *flip_names[4] = { "mode", "bins", "regions", "zones" };

typedef struct {
  GstElement *element;
  gint started;
  gint frames_flipped;
  gint done;
} Flipper;

static void
flip_values (GValue *values, GstHistogramMode mode, guint bins,
    guint n_regions, const gchar *zones)
{
  guint i, k;

  g_value_init (&values[0], GST_TYPE_HISTOGRAM_MODE);
  g_value_set_enum (&values[0], mode);
  g_value_init (&values[1], G_TYPE_UINT);
  g_value_set_uint (&values[1], bins);
  gst_value_array_init (&values[2], n_regions);
  for (i = 0; i < n_regions; i++) {
    const gint rect[4] = { 0, 0, 4, 4 };
    GValue region = G_VALUE_INIT;

    gst_value_array_init (&region, 4);
    for (k = 0; k < 4; k++) {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, G_TYPE_INT);
      g_value_set_int (&v, rect[k]);
      gst_value_array_append_and_take_value (&region, &v);
    }
    gst_value_array_append_and_take_value (&values[2], &region);
  }
  g_value_init (&values[3], G_TYPE_STRING);
  g_value_set_string (&values[3], zones);
}

static void
flip_values_unset (GValue *values)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (flip_names); i++)
    g_value_unset (&values[i]);
}

/* Sets the four properties at least FLIPS times, each time in one
 * g_object_setv(), between the two configurations, ending on rgb's. */
static gpointer
flip_thread (gpointer data)
{
  Flipper *f = data;
  GValue hue[4] = { G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT };
  GValue rgb[4] = { G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT };
  guint i;

  flip_values (hue, GST_HISTOGRAM_MODE_HUE, 180, 1, "");
  flip_values (rgb, GST_HISTOGRAM_MODE_RGB, 16, 0, "2x2");
  while (!g_atomic_int_get (&f->started))
    g_thread_yield ();
  for (i = 0; i < FLIPS || i % 2 == 0
      || g_atomic_int_get (&f->frames_flipped) < MIN_FRAMES_FLIPPED; i++)
    g_object_setv (G_OBJECT (f->element), G_N_ELEMENTS (flip_names),
        flip_names, i % 2 ? hue : rgb);
  flip_values_unset (hue);
  flip_values_unset (rgb);
  g_atomic_int_set (&f->done, 1);
  return NULL;
}

/* Which configuration @out was counted with: 0 hue, 1 rgb; fails for a
 * mix of them. */
static guint
flip_configuration (GstBuffer *out, guint frame)
{
  GList *metas = gst_buffer_get_histogram_metas (out), *l;
  const guint n = g_list_length (metas);
  GstHistogramMeta *head;
  gboolean rgb;

  fail_unless (metas != NULL, "frame %u has no histogram", frame);
  head = metas->data;
  rgb = head->info.mode == GST_HISTOGRAM_MODE_RGB;
  fail_unless (rgb || head->info.mode == GST_HISTOGRAM_MODE_HUE);
  for (l = metas; l; l = l->next) {
    GstHistogramMeta *meta = l->data;

    fail_unless_equals_int (meta->info.mode, head->info.mode);
    fail_unless (meta->info.n_bins == (rgb ? 16 * 16 * 16 : 180),
        "frame %u: mode %s with %u bins: a half-applied change", frame,
        gst_histogram_mode_get_nick (meta->info.mode), meta->info.n_bins);
  }
  fail_unless (n == (rgb ? 5 : 2), "frame %u: mode %s with %u histograms: "
      "regions and zones half applied", frame,
      gst_histogram_mode_get_nick (head->info.mode), n);
  g_list_free (metas);
  return rgb;
}

/* A thread flips mode, bins, regions and zones together FLIPS times while
 * frames stream: every frame is counted with one configuration whole, none
 * fails, and no error reaches the bus. Before the element applied its
 * properties whole, a frame between two of set_property's calls failed
 * with "mode=rgb bins=180 ... cannot count" or had one histogram too few
 * or too many. */
GST_START_TEST (test_flip_together)
{
  GValue hue[4] = { G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT };
  GstHarness *h = gst_harness_new ("clhistogram");
  GstBus *bus = clh_check_harness_bus (h->element);
  Flipper f = { 0 };
  guint n[2] = { 0, 0 }, frame = 0, i;
  GThread *thread;
  GstMessage *msg;

  flip_values (hue, GST_HISTOGRAM_MODE_HUE, 180, 1, "");
  g_object_setv (G_OBJECT (h->element), G_N_ELEMENTS (flip_names),
      flip_names, hue);
  flip_values_unset (hue);
  g_object_set (h->element, "post-messages", FALSE, "statistics", FALSE,
      NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGB,width="
      G_STRINGIFY (FLIP_W) ",height=" G_STRINGIFY (FLIP_H)
      ",framerate=30/1");
  f.element = h->element;
  thread = g_thread_new ("flipper", flip_thread, &f);
  for (i = 0; !g_atomic_int_get (&f.done) || i < 4; frame++) {
    const gboolean after = g_atomic_int_get (&f.done);
    GstBuffer *in = gst_harness_create_buffer (h, FLIP_W * FLIP_H * 3);
    GstBuffer *out;
    guint rgb;

    gst_buffer_memset (in, 0, (guint8) frame, FLIP_W * FLIP_H * 3);
    GST_BUFFER_PTS (in) = frame * GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "no frame out");
    rgb = flip_configuration (out, frame);
    n[rgb]++;
    gst_buffer_unref (out);
    if (after) {
      fail_unless_equals_int (rgb, 1);
      i++;
    } else if (g_atomic_int_get (&f.started)) {
      g_atomic_int_inc (&f.frames_flipped);
    }
    g_atomic_int_set (&f.started, 1);
  }
  g_thread_join (thread);
  GST_INFO ("%u frames: %u hue, %u rgb", frame, n[0], n[1]);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg == NULL, "%" GST_PTR_FORMAT, msg);
  fail_unless (n[0] > 0 && n[1] > 0, "%u hue frames, %u rgb", n[0], n[1]);
  clh_check_harness_teardown (h, bus);
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
  tcase_add_test (tc, test_flip_together);
  return s;
}

CLH_CHECK_MAIN (clhistogram_threads);
