/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the fault sweep runs, one scenario per process, under clfault's
 * "the Nth call of F fails": streaming with one and with several frames in
 * flight, state cycles, in-flight changes mid-stream, the engine's
 * staging and banded upload paths, and clexposuremarks' frames. Whatever fails, the scenario must end in
 * a clean element error (an ERROR message with a text) or in histograms
 * equal to the golden reference, and release everything: the leaks tracer
 * (fatal here through G_DEBUG=fatal-warnings, set by the sweep) checks
 * GStreamer objects at gst_deinit(), clfault's report OpenCL objects.
 *
 *   clfault-scenarios SCENARIO      exit 0: clean; 1: a wrong outcome
 */
#include <string.h>

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-test-timeout.h"
#include "clh-context-private.h"
#include "clh-engine-tuning.h"
#include "clh-reference.h"
#include "clh-reference-frame.h"
#include "clh-test-frame.h"
#include "clh-test-hold.h"

static int failures;

#define CHECK(cond, ...) G_STMT_START {                         \
  if (!(cond)) {                                                \
    g_printerr ("clfault-scenarios: " __VA_ARGS__);             \
    g_printerr ("\n");                                          \
    failures++;                                                 \
  }                                                             \
} G_STMT_END

/* The pipeline's error, if any, as "domain: text"; checks it has a text. */
static gboolean
pop_error (GstElement *pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL;

  gst_object_unref (bus);
  if (!msg)
    return FALSE;
  gst_message_parse_error (msg, &err, &debug);
  CHECK (err->message && *err->message, "an error without a text");
  g_print ("clean error: %s: %s\n", g_quark_to_string (err->domain),
      err->message);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  return TRUE;
}

static GstBuffer *
frame_new (const GstVideoInfo *info, guint seed)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;
  guint i;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) (g_int_hash (&i) * 2654435761u + seed);
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = seed * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

/* The meta on @out against the reference of @in, counted in @mode with
 * the element's default bins. */
static void
check_meta (GstBuffer *out, const GstVideoInfo *info, GstBuffer *in,
    const gchar *mode)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint c, n_bins;

  CHECK (meta != NULL, "a frame without its histogram");
  if (!meta)
    return;
  g_assert (clh_reference_histogram_of_buffer (info, in, mode,
          meta->info.n_bins, 0, -1, &spec, &want));
  for (c = 0; c < meta->info.n_channels; c++) {
    const guint32 *got = gst_histogram_meta_get_counts (meta, c, &n_bins);

    CHECK (memcmp (got, want.counts + c * n_bins, n_bins * 4) == 0,
        "channel %u differs from the reference", c);
  }
  g_free (want.counts);
}

typedef struct {
  GstElement *pipeline;
  GstElement *src;
  GstElement *histogram;
  GstElement *sink;
  GstVideoInfo info;
  GQueue sent;
} Stream;

static gboolean
stream_start (Stream *s, GstVideoFormat format, guint width, guint height,
    const gchar *props, gboolean live)
{
  gchar *launch = g_strdup_printf ("appsrc name=src format=time is-live=%d "
      "caps=video/x-raw,format=%s,width=%u,height=%u,framerate=30/1 ! "
      "clhistogram name=h %s ! appsink name=sink sync=false", live,
      gst_video_format_to_string (format), width, height, props);

  s->pipeline = gst_parse_launch (launch, NULL);
  g_free (launch);
  s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
  s->histogram = gst_bin_get_by_name (GST_BIN (s->pipeline), "h");
  s->sink = gst_bin_get_by_name (GST_BIN (s->pipeline), "sink");
  gst_video_info_set_format (&s->info, format, width, height);
  g_queue_init (&s->sent);
  if (gst_element_set_state (s->pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE)
    return TRUE;
  CHECK (pop_error (s->pipeline), "a failed start without an error");
  return FALSE;
}

/* Pulls the oldest frame sent and checks it; FALSE after a clean error. */
static gboolean
stream_pull (Stream *s, const gchar *mode)
{
  GstSample *sample = NULL;
  GstBuffer *in;

  g_signal_emit_by_name (s->sink, "try-pull-sample", clh_test_timeout_ns (20),
      &sample);
  if (!sample) {
    CHECK (pop_error (s->pipeline), "a frame lost without an error");
    return FALSE;
  }
  in = g_queue_pop_head (&s->sent);
  CHECK (in != NULL, "a frame out that was never sent");
  if (in) {
    check_meta (gst_sample_get_buffer (sample), &s->info, in, mode);
    gst_buffer_unref (in);
  }
  gst_sample_unref (sample);
  return TRUE;
}

static gboolean
stream_push (Stream *s, guint seed)
{
  GstBuffer *in = frame_new (&s->info, seed);
  GstFlowReturn flow = GST_FLOW_ERROR;

  g_queue_push_tail (&s->sent, gst_buffer_ref (in));
  g_signal_emit_by_name (s->src, "push-buffer", in, &flow);
  gst_buffer_unref (in);
  if (flow == GST_FLOW_OK)
    return TRUE;
  /* appsrc refuses a buffer once an error stopped its task. */
  CHECK (pop_error (s->pipeline), "a frame refused without an error");
  return FALSE;
}

/* Sends @n frames and takes each back, as a request-response client does
 * (held frames go on after the idle delay). */
static gboolean
stream_frames (Stream *s, guint first, guint n, const gchar *mode)
{
  guint i;

  for (i = first; i < first + n; i++)
    if (!stream_push (s, i) || !stream_pull (s, mode))
      return FALSE;
  return TRUE;
}

static void
stream_stop (Stream *s)
{
  gst_element_set_state (s->pipeline, GST_STATE_NULL);
  pop_error (s->pipeline);
  g_queue_clear_full (&s->sent, (GDestroyNotify) gst_buffer_unref);
  gst_object_unref (s->src);
  gst_object_unref (s->histogram);
  gst_object_unref (s->sink);
  gst_object_unref (s->pipeline);
}

static void
scenario_stream (guint in_flight, gboolean live)
{
  gchar *props = g_strdup_printf ("mode=channels max-frames-in-flight=%u",
      in_flight);
  Stream s;

  if (stream_start (&s, GST_VIDEO_FORMAT_RGBA, 33, 17, props, live)
      && stream_frames (&s, 0, 4, "channels")) {
    /* Several pushed at once, then EOS pushes the held ones. */
    GstFlowReturn flow;

    if (stream_push (&s, 10) && stream_push (&s, 11)) {
      g_signal_emit_by_name (s.src, "end-of-stream", &flow);
      if (stream_pull (&s, "channels"))
        stream_pull (&s, "channels");
    }
  }
  stream_stop (&s);
  g_free (props);
}

/* max-frames-in-flight changed between frames, while some are held. */
static void
scenario_change (void)
{
  Stream s;

  if (stream_start (&s, GST_VIDEO_FORMAT_GRAY8, 64, 48,
          "max-frames-in-flight=1", FALSE)
      && stream_frames (&s, 0, 2, "luma")) {
    g_object_set (s.histogram, "max-frames-in-flight", 4, NULL);
    if (stream_frames (&s, 2, 3, "luma")) {
      g_object_set (s.histogram, "max-frames-in-flight", 2, NULL);
      stream_frames (&s, 5, 2, "luma");
    }
  }
  stream_stop (&s);
}

/* NULL -> PLAYING -> NULL twice on a source using the proposed pool. */
static void
scenario_cycle (void)
{
  guint i;

  for (i = 0; i < 2; i++) {
    GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
        "video/x-raw,format=I420,width=32,height=24 ! clhistogram ! "
        "fakesink", NULL);
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = NULL;

    if (gst_element_set_state (pipeline, GST_STATE_PLAYING)
        == GST_STATE_CHANGE_FAILURE) {
      CHECK (pop_error (pipeline), "a failed start without an error");
    } else {
      msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (30),
          GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
      CHECK (msg != NULL, "neither EOS nor an error in 30 s");
      if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        GError *err = NULL;

        gst_message_parse_error (msg, &err, NULL);
        CHECK (err->message && *err->message, "an error without a text");
        g_print ("clean error: %s\n", err->message);
        g_clear_error (&err);
      }
    }
    g_clear_pointer (&msg, gst_message_unref);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipeline);
  }
}

/* The engine alone: frames staged through engine host memory and copied
 * in bands, three in flight, a discard with frames pending. */
static void
scenario_engine (void)
{
  const ClhTransfer transfers[] = { CLH_TRANSFER_STAGE, CLH_TRANSFER_COPY };
  ClhTestFrame *frames[4];
  GError *err = NULL;
  ClhEngine *engine = clh_engine_new (NULL, &err);
  guint t, i;

  if (!engine) {
    CHECK (err && *err->message, "no engine and no error");
    g_print ("clean error: %s\n", err ? err->message : "");
    g_clear_error (&err);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    frames[i] = clh_test_frame_new ("NV12", 96, 80, 3, CLH_TEST_RANDOM, i);
  clh_engine_set_staging_limit (engine, 4096);
  for (t = 0; t < G_N_ELEMENTS (transfers); t++) {
    ClhHistogramSpec spec;
    guint32 counts[3 * 16], want_counts[3 * 16];
    ClhHistogram got = { counts }, want = { want_counts };
    guint submitted = 0, collected = 0;

    clh_engine_set_transfer (engine, transfers[t]);
    g_assert (clh_reference_spec (frames[0]->klass, &frames[0]->frame,
            "channels", 16, &spec));
    if (!clh_engine_set_max_in_flight (engine, 3, &err))
      goto failed;
    for (i = 0; i < G_N_ELEMENTS (frames); i++) {
      if (clh_engine_get_n_pending (engine) == 3) {
        if (!clh_engine_collect (engine, &got, &err))
          goto failed;
        clh_reference_histogram (&frames[collected++]->frame, &spec, &want);
        CHECK (memcmp (counts, want_counts, sizeof (counts)) == 0,
            "engine frame differs from the reference");
      }
      if (!clh_engine_submit (engine, &frames[i]->frame, &spec, NULL, &err))
        goto failed;
      submitted++;
    }
    /* Two collected, the rest dropped. */
    for (i = 0; i < 2 && collected < submitted; i++) {
      if (!clh_engine_collect (engine, &got, &err))
        goto failed;
      clh_reference_histogram (&frames[collected++]->frame, &spec, &want);
      CHECK (memcmp (counts, want_counts, sizeof (counts)) == 0,
          "engine frame differs from the reference");
    }
    clh_engine_discard (engine);
    continue;
  failed:
    CHECK (err && *err->message, "an engine failure without a message");
    g_print ("clean error: %s\n", err ? err->message : "");
    g_clear_error (&err);
    clh_engine_discard (engine);
    CHECK (clh_engine_get_n_pending (engine) == 0, "frames left pending");
  }
  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    clh_test_frame_free (frames[i]);
  clh_engine_free (engine);
}

/* One engine of scenario_batch: its frames, those in flight, and whether
 * it failed. */
typedef struct {
  ClhEngine *engine;
  ClhTestFrame *frame;
  ClhHistogramSpec spec;
  guint in_flight;
  gboolean failed;
} Batched;

/* Collects @b's oldest frame: right, or a clean error that stops it. */
static void
batched_collect (Batched *b)
{
  guint32 counts[CLH_MAX_CHANNELS * 16], want_counts[CLH_MAX_CHANNELS * 16];
  ClhHistogram got = { counts }, want = { want_counts };
  GError *err = NULL;

  b->in_flight--;
  if (!clh_engine_collect (b->engine, &got, &err)) {
    CHECK (err && *err->message, "a batched frame failed without a message");
    g_print ("clean error: %s\n", err ? err->message : "");
    g_clear_error (&err);
    b->failed = TRUE;
    return;
  }
  clh_reference_histogram (&b->frame->frame, &b->spec, &want);
  CHECK (memcmp (counts, want_counts, clh_histogram_spec_n_channels
          (&b->spec) * 16 * sizeof (guint32)) == 0,
      "a batched frame differs from the reference");
}

/* Four engines of one context, each its own format and mode, post their
 * frames to the device's submission thread together, which enqueues them
 * in batches; frames are copied to the device (also on a CPU device), so
 * the 8-bit ones (GRAY8, RGBA, NV12) are counted in batched launches
 * (clh-batch.c), and I420's hue on its own. A fault enqueueing one
 * frame of its own reaches the engine it belongs to alone (an element
 * would stop there), the others count every frame right; a fault in a
 * batched launch's commands reaches the engines whose frames shared them,
 * and no other. Only a failed flush of the shared queue may fail the
 * frames of several engines besides: every frame enqueued since the last
 * flush. */
static void
scenario_batch (void)
{
  static const gchar *const formats[][2] = {
    {"GRAY8", "luma"}, {"RGBA", "channels"}, {"I420", "hue"},
    {"NV12", "channels"},
  };
  /* Whose frames are batched: the 8-bit ones. */
  static const gboolean batched[] = { TRUE, TRUE, FALSE, TRUE };
  const gchar *fault = g_getenv ("CLFAULT_FAIL");
  Batched b[G_N_ELEMENTS (formats)] = { { NULL } };
  GError *err = NULL;
  ClhContext *ctx = clh_context_new (NULL, &err);
  guint i, round, n_failed = 0, n_alone = 0, n_batched = 0;

  G_STATIC_ASSERT (G_N_ELEMENTS (batched) == G_N_ELEMENTS (formats));
  if (!ctx) {
    CHECK (err && *err->message, "no context and no error");
    g_print ("clean error: %s\n", err ? err->message : "");
    g_clear_error (&err);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (b); i++) {
    b[i].frame = clh_test_frame_new (formats[i][0], 61, 37, 3,
        CLH_TEST_RANDOM, i);
    g_assert (clh_reference_spec (b[i].frame->klass, &b[i].frame->frame,
            formats[i][1], 16, &b[i].spec));
    b[i].engine = clh_engine_new_for_context (ctx, &err);
    if (b[i].engine) {
      clh_engine_set_counting (b[i].engine, CLH_COUNTING_DEVICE);
      clh_engine_set_submission (b[i].engine, CLH_SUBMISSION_THREAD);
      clh_engine_set_transfer (b[i].engine, CLH_TRANSFER_COPY);
    }
    if (!b[i].engine || !clh_engine_set_max_in_flight (b[i].engine, 2,
            &err)) {
      CHECK (err && *err->message, "an engine failed without a message");
      g_print ("clean error: %s\n", err ? err->message : "");
      g_clear_error (&err);
      b[i].failed = TRUE;
    }
  }
  /* Each round's frames are one batch: the thread is held while they are
   * posted. What waits for the thread (a frame's completion, a discard)
   * happens outside the hold. */
  for (round = 0; round < 4; round++) {
    ClhTestHold *hold;

    for (i = 0; i < G_N_ELEMENTS (b); i++)
      if (!b[i].failed && b[i].in_flight == 2)
        batched_collect (&b[i]);
    hold = clh_test_hold (clh_context_get_submitter (ctx));
    for (i = 0; i < G_N_ELEMENTS (b); i++) {
      if (b[i].failed)
        continue;
      if (!clh_engine_submit (b[i].engine, &b[i].frame->frame, &b[i].spec,
              NULL, &err)) {
        CHECK (err && *err->message, "a refused frame without a message");
        g_print ("clean error: %s\n", err ? err->message : "");
        g_clear_error (&err);
        b[i].failed = TRUE;
        continue;
      }
      b[i].in_flight++;
    }
    clh_test_hold_release (hold);
  }
  for (i = 0; i < G_N_ELEMENTS (b); i++)
    while (!b[i].failed && b[i].in_flight > 0)
      batched_collect (&b[i]);
  if (b[0].engine) {
    guint64 n_frames, n_launches;

    clh_engine_get_batch_stats (b[0].engine, &n_frames, &n_launches);
    g_print ("%" G_GUINT64_FORMAT " frames in %" G_GUINT64_FORMAT
        " batched launches\n", n_frames, n_launches);
    /* Without a fault, every 8-bit frame of the four rounds. */
    CHECK (fault || n_frames == 12, "%" G_GUINT64_FORMAT " frames batched, "
        "not 12", n_frames);
  }
  for (i = 0; i < G_N_ELEMENTS (b); i++) {
    n_failed += b[i].failed;
    n_alone += b[i].failed && !batched[i];
    n_batched += b[i].failed && batched[i];
    if (b[i].engine)
      clh_engine_discard (b[i].engine);
    clh_engine_free (b[i].engine);
    clh_test_frame_free (b[i].frame);
  }
  CHECK (n_alone + (n_batched > 0) <= 1
      || (fault && g_str_has_prefix (fault, "clFlush:")),
      "one fault (%s) reached %u engines", fault ? fault : "none", n_failed);
  clh_context_unref (ctx);
}

static gboolean
same_bytes (GstBuffer *a, GstBuffer *b)
{
  GstMapInfo map;
  gboolean same;

  if (!gst_buffer_map (b, &map, GST_MAP_READ))
    return FALSE;
  same = gst_buffer_get_size (a) == map.size
      && gst_buffer_memcmp (a, 0, map.data, map.size) == 0;
  gst_buffer_unmap (b, &map);
  return same;
}

/* clexposuremarks with zebra and BRNG on I420 frames, each pulled and
 * checked against the reference (the element's default zebra, 95% of
 * limited luma: 224, black stripes 8 pixels apart; yellow BRNG), then the
 * pipeline stopped and started again. */
static void
scenario_marks (void)
{
  ClhMarksSpec spec = { CLH_MARK_ZEBRA | CLH_MARK_BRNG, CLH_MARKS_YUV,
    {0, 1, 2}, 224, 0, 8, 0, { {16, 128, 128} }, { {235, 128, 128} }, 1,
  };
  guint cycle, i;

  spec.brng_colour = (ClhMarkColour) { {210, 16, 146} };
  for (cycle = 0; cycle < 2; cycle++) {
    GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time "
        "caps=video/x-raw,format=I420,width=45,height=31,framerate=30/1 ! "
        "clexposuremarks marks=zebra+brng ! appsink name=sink sync=false",
        NULL);
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
    GstVideoInfo info;

    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 45, 31);
    if (gst_element_set_state (pipeline, GST_STATE_PLAYING)
        == GST_STATE_CHANGE_FAILURE) {
      CHECK (pop_error (pipeline), "a failed start without an error");
      i = 3;
    } else {
      i = 0;
    }
    for (; i < 3; i++) {
      GstBuffer *in = frame_new (&info, i + 10 * cycle), *want;
      GstFlowReturn flow = GST_FLOW_ERROR;
      GstSample *sample = NULL;

      want = clh_reference_marks_of_buffer (&info, in, &spec);
      g_signal_emit_by_name (src, "push-buffer", in, &flow);
      gst_buffer_unref (in);
      if (flow == GST_FLOW_OK)
        g_signal_emit_by_name (sink, "try-pull-sample", clh_test_timeout_ns (20),
            &sample);
      if (!sample) {
        CHECK (pop_error (pipeline), "a frame lost without an error");
        gst_buffer_unref (want);
        break;
      }
      CHECK (same_bytes (gst_sample_get_buffer (sample), want),
          "a marked frame differs from the reference");
      gst_sample_unref (sample);
      gst_buffer_unref (want);
    }
    gst_element_set_state (pipeline, GST_STATE_NULL);
    pop_error (pipeline);
    gst_object_unref (src);
    gst_object_unref (sink);
    gst_object_unref (pipeline);
  }
}

int
main (int argc, char **argv)
{
  const gchar *name = argc > 1 ? argv[1] : "";

  gst_init (&argc, &argv);
  if (g_str_equal (name, "stream1"))
    scenario_stream (1, TRUE);
  else if (g_str_equal (name, "stream4"))
    scenario_stream (4, FALSE);
  else if (g_str_equal (name, "change"))
    scenario_change ();
  else if (g_str_equal (name, "cycle"))
    scenario_cycle ();
  else if (g_str_equal (name, "engine"))
    scenario_engine ();
  else if (g_str_equal (name, "batch"))
    scenario_batch ();
  else if (g_str_equal (name, "marks"))
    scenario_marks ();
  else
    g_error ("usage: clfault-scenarios "
        "stream1|stream4|change|cycle|engine|batch|marks");
  gst_deinit ();
  return failures ? 1 : 0;
}
