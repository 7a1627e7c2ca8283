/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-streams-bench: many clhistogram streams in one process, and how long
 * a fresh process takes to histogram its first frame.
 *
 * Throughput: S streams at once, each its own pipeline
 *
 *   appsrc format=time is-live=false ! video/x-raw,WxH 600x480 !
 *       clhistogram mode=M bins=256 max-frames-in-flight=K post-messages=P !
 *       fakesink sync=false
 *
 * (M: luma for GRAY8, channels for RGBA), fed from memory by one thread per
 * stream, and the same S pipelines without clhistogram (the baseline). All
 * the elements share one OpenCL context, as every clhistogram of a process
 * does. Frames come either from the element's own pool (pool=on: asked for
 * with an ALLOCATION query from appsrc's src pad, as a decoder upstream of
 * it would; 8 or more buffers filled with distinct random frames once,
 * then acquired again and again, their content kept, as a decoder writes
 * into its pool; a stream that gets no such pool wraps its frames instead,
 * and its row says why), or wrap 8 distinct random frames of the stream's
 * own (pool=off: ordinary, pageable memory, never copied by the bench).
 * Every buffer carries a GstVideoMeta.
 *
 * A run times N frames per stream (more for few streams with --min-total)
 * from the moment the feeders start pushing to the last stream's EOS on its
 * bus; negotiation, and appsrc's own set-up of the pool the element
 * proposes to it too, happen before. A keeper clhistogram in READY
 * holds the shared context through all rows, as a long-lived application
 * would. After a warm-up run, R runs; the medians are reported: aggregate
 * frames/s
 * (all streams), per-stream frames/s (median and slowest stream), the
 * process's CPU time per frame (user + sys, all threads: with a CPU OpenCL
 * device this includes the device's work) and the aggregate over the best
 * single-stream aggregate of the same format (the target: 64 GRAY8
 * streams >= 80%). Pipelines stay in READY between runs.
 *
 * Every buffer reaching a fakesink is checked: in order, none missing, and
 * (with clhistogram) carrying a GstHistogramMeta of 256 bins per channel
 * whose every channel sums to 600 x 480; histogram messages are counted,
 * one per frame with post-messages=true. Any miss makes the program exit
 * with status 2 after its report; an ERROR message stops it at once
 * (status 1). Pool rows also say whether the pool was proposed, whether it
 * added the GstVideoMeta itself, and how many buffers reached the sink as
 * copies rather than the pool's own.
 *
 * Start-up (--startup): the time from gst_element_set_state (PLAYING) on a
 * freshly built appsrc ! clhistogram ! fakesink to the first buffer at the
 * fakesink, each in a fresh process (the bench runs itself with
 * --startup-child, GStreamer initialised and the plugin loaded before the
 * clock starts), with the program cache cold (a new empty
 * CLHISTOGRAM_CACHE_DIR), warm (the same directory again) and off
 * (CLHISTOGRAM_CACHE_DIR=""); on PoCL and NVIDIA's driver also with the
 * driver's own kernel cache off, which hides compilation otherwise (PoCL:
 * POCL_KERNEL_CACHE=0 and a new, empty POCL_CACHE_DIR; NVIDIA:
 * CUDA_CACHE_DISABLE=1 and a new CUDA_CACHE_PATH).
 *
 * Not a test: it asserts nothing about time. Prints a table, writes JSON
 * (--json, rewritten after every row so that a run cut short keeps what it
 * measured).
 *
 *   GST_PLUGIN_PATH=build build/bench/clh-streams-bench --quick --startup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/base/gstbasesrc.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-bench-stats.h"
#include "clh-streams-bench.h"
#include "clh-thread-cpu.h"
#include "clh-engine.h"

#define BINS 256
/* Distinct frames per stream. */
#define N_FRAMES 8
/* appsrc queues at most this many frames before a push blocks. */
#define QUEUED_FRAMES 4
#define FRAME_DURATION (GST_SECOND / 30)
#define NEGOTIATION_TIMEOUT_US (30 * G_USEC_PER_SEC)
/* How long appsrc may take to set up the pool it got from the element. */
#define SETTLE_TIMEOUT_US (G_USEC_PER_SEC / 5)
#define EOS_TIMEOUT_US (300 * G_USEC_PER_SEC)
/* Failures printed in full; the rest are only counted. */
#define MAX_REPORTED 20
/* GST_CL_HOST_MEMORY_TYPE in gst/base/gstclbasehostmemory.h: the
 * element's pinned host memory, which it reads without a host copy. */
#define CL_HOST_MEMORY_TYPE "ClHostMemory"
#define TARGET_RATIO 0.8

/* One line of the table: S streams of one configuration. */
typedef struct {
  guint streams;
  GstVideoFormat format;
  gboolean histogram;           /* FALSE: the baseline, appsrc ! fakesink */
  gboolean pool;
  guint in_flight;              /* max-frames-in-flight; 0 automatic */
  gboolean messages;
} Row;

typedef struct {
  gboolean skipped;             /* over --budget */
  gdouble agg_fps, stream_fps_median, stream_fps_min, cpu_us_per_frame;
  /* Latency, us: from a frame entering clhistogram to its reaching the
   * fakesink, median and 99th percentile over every frame of a run. */
  gdouble latency_median, latency_p99;
  GArray *agg_runs;             /* aggregate frames/s of each timed run */
  gdouble ratio;                /* to the single-stream best; < 0 unknown */
  gchar *pool_note;             /* why pool=on fell short; NULL if it did not */
  gboolean meta_from_pool;      /* the pool added the GstVideoMeta itself */
  guint pool_copies;            /* buffers that reached the sink as copies */
  guint failures;
  guint frames, runs;
  guint devices;                /* distinct device contexts the row used */
  gchar *cpu_threads;           /* --cpu-by-thread: the last run's */
} Result;

/* N_FRAMES random frames for each stream of a format, with the default
 * strides and offsets, as the element derives them from the caps. */
typedef struct {
  GstVideoFormat format;
  GstVideoInfo info;
  gsize slot;                   /* bytes from one frame to the next */
  guint n_streams;
  guint8 *data;
} Frames;

typedef struct _Streams Streams;

typedef struct {
  Streams *all;
  guint index;
  GstElement *pipeline, *src, *first;   /* first: what appsrc feeds */
  GstBufferPool *pool;          /* pool=on: the element's, active */
  const guint8 *frames;         /* this stream's N_FRAMES frames */
  GThread *feeder;
  /* This run; written by the stream's threads, read after its EOS. */
  guint received;
  guint next;                   /* the frame expected next */
  guint copies;
  gint messages;
  gdouble eos_us;
  /* When each frame entered clhistogram, us; and each frame's latency. */
  gdouble *entered;
  GArray *latency;
} Stream;

/* The S pipelines of a row, and what their threads share in a run. */
struct _Streams {
  const Row *row;
  const Frames *frames;
  GstCaps *caps;
  guint n_frames;
  Stream *s;
  GMutex lock;
  GCond cond;
  gboolean go;                  /* the feeders' start gate */
  guint n_eos;
  gboolean error;
};

typedef struct {
  gboolean quick, startup, no_throughput, startup_child;
  gint frames, min_total, runs, startup_runs;
  gdouble budget;
  gchar *streams, *formats, *in_flight, *pool, *messages, *messages_streams;
  gchar *json;
} Options;

static gint failures, reported;
/* --paced: each feeder sends a frame only once the one before reached the
 * sink, as a request-response application does. */
static gboolean paced;
/* Also report the last run's CPU time per frame by thread name. */
static gboolean cpu_by_thread;
/* --verify: every histogram is compared with a count of its frame made at
 * the sink. */
static gboolean verify;
static gchar *device_name, *platform, *driver;
/* --device: every element's device property; NULL: the default, auto. */
static gchar *device_spec;

/* ---- failing ---- */

void
die (const gchar *what)
{
  g_printerr ("%s\n", what);
  exit (1);
}

void
print_error_message (GstMessage *msg, const gchar *where)
{
  GError *err = NULL;
  gchar *debug = NULL;

  gst_message_parse_error (msg, &err, &debug);
  g_printerr ("ERROR from %s%s: %s\n%s\n", where, GST_OBJECT_NAME (msg->src),
      err->message, debug ? debug : "");
  g_clear_error (&err);
  g_free (debug);
}

/* Counts a failed check and prints the first MAX_REPORTED. */
static void
fail (const Stream *s, const gchar *format, ...) G_GNUC_PRINTF (2, 3);

static void
fail (const Stream *s, const gchar *format, ...)
{
  va_list args;
  gchar *what;

  g_atomic_int_inc (&failures);
  if (g_atomic_int_add (&reported, 1) >= MAX_REPORTED)
    return;
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("FAIL: stream %u of %u: %s\n", s->index, s->all->row->streams,
      what);
  g_free (what);
}

/* ---- frames ---- */

static const gchar *
mode_for (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_RGBA ? "channels" : "luma";
}

static guint
channels_for (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_RGBA ? 4 : 1;
}

GstCaps *
caps_for (GstVideoFormat format)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, WIDTH, "height", G_TYPE_INT, HEIGHT,
      "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
}

/* xorshift64: random enough that no bin dominates, and fast enough to fill
 * hundreds of MiB between rows. */
static void
fill_random (guint8 *data, gsize size, guint64 seed)
{
  guint64 x = seed * 0x9E3779B97F4A7C15ull + 1, *words = (guint64 *) data;
  gsize i;

  for (i = 0; i < size / 8; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    words[i] = x;
  }
}

static void
frames_init (Frames *f, GstVideoFormat format, guint n_streams)
{
  f->format = format;
  f->n_streams = n_streams;
  gst_video_info_set_format (&f->info, format, WIDTH, HEIGHT);
  /* Slots start on cache lines and hold whole 64-bit words. */
  f->slot = (GST_VIDEO_INFO_SIZE (&f->info) + 63) & ~(gsize) 63;
  f->data = g_malloc (f->slot * N_FRAMES * n_streams);
  fill_random (f->data, f->slot * N_FRAMES * n_streams, format);
}

static void
frames_clear (Frames *f)
{
  g_clear_pointer (&f->data, g_free);
}

static void
add_video_meta (GstBuffer *buf, const GstVideoInfo *info)
{
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
}

void
stamp (GstBuffer *buf, guint index)
{
  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
}

/* A buffer that wraps one of the stream's frames without copying it; its
 * only reference goes to appsrc, so the element can add its meta in
 * place. */
static GstBuffer *
wrap_frame (const Stream *s, guint index)
{
  const GstVideoInfo *info = &s->all->frames->info;
  const gsize size = GST_VIDEO_INFO_SIZE (info);
  GstBuffer *buf;

  buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
      (gpointer) (s->frames + (index % N_FRAMES) * s->all->frames->slot),
      size, 0, size, NULL, NULL);
  stamp (buf, index);
  add_video_meta (buf, info);
  return buf;
}

/* ---- checks at the sink ---- */

static gboolean
counts_sum_to (GstHistogramMeta *meta, guint channel, guint64 want)
{
  guint n_bins, i;
  const guint32 *counts = gst_histogram_meta_get_counts (meta, channel,
      &n_bins);
  guint64 sum = 0;

  for (i = 0; i < n_bins; i++)
    sum += counts[i];
  return sum == want;
}

/* Whether @meta's every channel equals a count of @buf's own samples,
 * made here (component c of the format is channel c: GRAY8's Y, RGBA's R,
 * G, B, A). Slow: a verifying run's frames/s mean nothing. */
static gboolean
counts_match_frame (Stream *s, GstBuffer *buf, GstHistogramMeta *meta)
{
  GstVideoFrame frame;
  guint32 want[BINS];
  gboolean same = TRUE;
  guint c, x, y;

  if (!gst_video_frame_map (&frame, (GstVideoInfo *) & s->all->frames->info,
          buf, GST_MAP_READ))
    return FALSE;
  for (c = 0; c < meta->info.n_channels && same; c++) {
    const guint8 *data = GST_VIDEO_FRAME_COMP_DATA (&frame, c);
    const gint stride = GST_VIDEO_FRAME_COMP_STRIDE (&frame, c);
    const gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c);
    const guint32 *got;
    guint n_bins;

    memset (want, 0, sizeof (want));
    for (y = 0; y < HEIGHT; y++)
      for (x = 0; x < WIDTH; x++)
        want[data[y * stride + x * pstride]]++;
    got = gst_histogram_meta_get_counts (meta, c, &n_bins);
    same = n_bins == BINS && memcmp (got, want, sizeof (want)) == 0;
  }
  gst_video_frame_unmap (&frame);
  return same;
}

static void
check_meta (Stream *s, GstBuffer *buf, guint index)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (buf);
  const guint n_channels = channels_for (s->all->row->format);
  guint c;

  if (!meta) {
    fail (s, "frame %u has no GstHistogramMeta", index);
    return;
  }
  if (meta->info.n_channels != n_channels || meta->info.n_bins != BINS) {
    fail (s, "frame %u: %u channels of %u bins, not %u of %u", index,
        meta->info.n_channels, meta->info.n_bins, n_channels, BINS);
    return;
  }
  for (c = 0; c < n_channels; c++)
    if (!counts_sum_to (meta, c, (guint64) WIDTH * HEIGHT))
      fail (s, "frame %u: channel %s does not sum to %u", index,
          gst_histogram_meta_get_channel_name (meta, c), WIDTH * HEIGHT);
  if (verify && !counts_match_frame (s, buf, meta))
    fail (s, "frame %u: its histogram differs from a count of its pixels",
        index);
}

/* Every buffer at the fakesink, in its streaming thread: the next frame,
 * counted, and the pool's own buffer rather than a copy of it. */
static GstPadProbeReturn
on_sink_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Stream *s = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  const guint index = GST_BUFFER_PTS (buf) / FRAME_DURATION;

  /* One failure per gap or swap, not one per frame after it. */
  if (index != s->next)
    fail (s, "frame %u came after frame %d", index, (gint) s->next - 1);
  s->next = index + 1;
  g_mutex_lock (&s->all->lock);
  s->received++;
  g_cond_broadcast (&s->all->cond);
  g_mutex_unlock (&s->all->lock);
  if (s->all->row->histogram) {
    check_meta (s, buf, index);
    if (index < s->all->n_frames)
      g_array_append_val (s->latency, (gdouble) {
          clh_bench_now_us () - s->entered[index]});
  }
  if (s->pool && buf->pool != s->pool)
    s->copies++;
  return GST_PAD_PROBE_OK;
}

/* ---- pipelines ---- */

static void
wake_main (Streams *all, gboolean eos, gboolean error)
{
  g_mutex_lock (&all->lock);
  all->n_eos += eos;
  all->error |= error;
  g_cond_broadcast (&all->cond);
  g_mutex_unlock (&all->lock);
}

/* Nothing waits on these buses: messages are handled as they are posted.
 * Histogram messages are counted and dropped, so that one per frame does
 * not pile up; an error also releases a feeder blocked on a full appsrc. */
static GstBusSyncReply
on_bus_sync (GstBus *bus, GstMessage *msg, gpointer user_data)
{
  Stream *s = user_data;
  gchar *where;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:
      if (gst_message_has_name (msg, "histogram"))
        g_atomic_int_inc (&s->messages);
      break;
    case GST_MESSAGE_EOS:
      s->eos_us = clh_bench_now_us ();
      wake_main (s->all, TRUE, FALSE);
      break;
    case GST_MESSAGE_ERROR:
      where = g_strdup_printf ("stream %u: ", s->index);
      print_error_message (msg, where);
      g_free (where);
      gst_app_src_end_of_stream (GST_APP_SRC (s->src));
      wake_main (s->all, FALSE, TRUE);
      break;
    default:
      break;
  }
  gst_message_unref (msg);
  return GST_BUS_DROP;
}

static gchar *
describe (const Row *row)
{
  if (!row->histogram)
    return g_strdup ("appsrc name=src ! fakesink name=sink sync=false");
  return g_strdup_printf ("appsrc name=src ! clhistogram name=h mode=%s "
      "bins=%u max-frames-in-flight=%u post-messages=%s device=\"%s\" ! "
      "fakesink name=sink sync=false", mode_for (row->format), BINS,
      row->in_flight, row->messages ? "true" : "false",
      device_spec ? device_spec : "auto");
}

static GstElement *
get_element (GstElement *pipeline, const gchar *name)
{
  return gst_bin_get_by_name (GST_BIN (pipeline), name);
}

/* A frame entering clhistogram, in the streaming thread. */
static GstPadProbeReturn
on_element_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Stream *s = user_data;
  const guint index = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info))
      / FRAME_DURATION;

  if (index < s->all->n_frames)
    s->entered[index] = clh_bench_now_us ();
  return GST_PAD_PROBE_OK;
}

static void
watch_sink (Stream *s)
{
  GstElement *sink = get_element (s->pipeline, "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_sink_buffer, s, NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  if (s->all->row->histogram) {
    pad = gst_element_get_static_pad (s->first, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_element_buffer, s,
        NULL);
    gst_object_unref (pad);
  }
}

static void
stream_init (Stream *s, Streams *all, guint index)
{
  gchar *desc = describe (all->row);
  GError *err = NULL;
  GstBus *bus;

  s->all = all;
  s->index = index;
  s->frames = all->frames->data + (gsize) index * N_FRAMES * all->frames->slot;
  s->pipeline = gst_parse_launch_full (desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &err);
  if (!s->pipeline) {
    g_printerr ("cannot build '%s': %s\n", desc, err->message);
    exit (1);
  }
  g_free (desc);

  s->src = get_element (s->pipeline, "src");
  s->first = get_element (s->pipeline, all->row->histogram ? "h" : "sink");
  s->entered = g_new0 (gdouble, all->n_frames);
  s->latency = g_array_new (FALSE, FALSE, sizeof (gdouble));
  /* Pushes block on QUEUED_FRAMES queued frames rather than queue them
   * all; no signals, which nobody listens to. */
  g_object_set (s->src, "caps", all->caps, "format", GST_FORMAT_TIME,
      "is-live", FALSE, "block", TRUE, "emit-signals", FALSE,
      "max-bytes", (guint64) QUEUED_FRAMES
      * GST_VIDEO_INFO_SIZE (&all->frames->info), NULL);
  watch_sink (s);
  bus = gst_element_get_bus (s->pipeline);
  gst_bus_set_sync_handler (bus, on_bus_sync, s, NULL);
  gst_object_unref (bus);
}

/* The pool goes first: its memory is the element's. */
static void
stream_clear (Stream *s)
{
  if (s->pool) {
    gst_buffer_pool_set_active (s->pool, FALSE);
    gst_clear_object (&s->pool);
  }
  gst_element_set_state (s->pipeline, GST_STATE_NULL);
  gst_object_unref (s->src);
  gst_object_unref (s->first);
  gst_object_unref (s->pipeline);
  g_free (s->entered);
  g_array_unref (s->latency);
}

static void
set_state (Stream *s, GstState state)
{
  if (gst_element_set_state (s->pipeline, state) == GST_STATE_CHANGE_FAILURE) {
    /* The bus handler printed the error, if there was one. */
    g_printerr ("stream %u refused state %s\n", s->index,
        gst_element_state_get_name (state));
    exit (1);
  }
}

static void
set_states (Streams *all, GstState state)
{
  guint i;

  for (i = 0; i < all->row->streams; i++)
    set_state (&all->s[i], state);
}

static gboolean
is_negotiated (Stream *s)
{
  GstPad *pad = gst_element_get_static_pad (s->first, "sink");
  const gboolean has = gst_pad_has_current_caps (pad);

  gst_object_unref (pad);
  return has;
}

/* appsrc negotiates as soon as it starts, before any frame: waiting for it
 * keeps negotiation out of the timed part and lets the ALLOCATION query
 * find the element ready to answer. */
static void
wait_negotiated (Streams *all)
{
  const gint64 deadline = g_get_monotonic_time () + NEGOTIATION_TIMEOUT_US;
  guint i;

  for (i = 0; i < all->row->streams; i++) {
    while (!is_negotiated (&all->s[i]) && !all->error) {
      if (g_get_monotonic_time () > deadline) {
        g_printerr ("stream %u: no caps after %d s\n", i,
            (gint) (NEGOTIATION_TIMEOUT_US / G_USEC_PER_SEC));
        exit (1);
      }
      g_usleep (1000);
    }
  }
  if (all->error)
    exit (1);
}

static gboolean
src_has_pool (Stream *s)
{
  GstBufferPool *pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (s->src));

  if (!pool)
    return FALSE;
  gst_object_unref (pool);
  return TRUE;
}

/* Once negotiated, appsrc (GstBaseSrc) asks the element for a pool too and
 * activates the one proposed, allocating its buffers of pinned memory
 * (which appsrc never uses): waits for that, so that it happens before the
 * clock starts. The first time the element is not negotiated yet when
 * asked, and appsrc only gets its pool after the first frame: the warm-up
 * run pays for it. */
static void
wait_src_pools (Streams *all)
{
  const gint64 deadline = g_get_monotonic_time () + SETTLE_TIMEOUT_US;
  guint i;

  if (!all->row->histogram)
    return;
  for (i = 0; i < all->row->streams; i++)
    while (!src_has_pool (&all->s[i]) && g_get_monotonic_time () < deadline)
      g_usleep (1000);
}

/* ---- the element's pool ---- */

/* Asks the element for a pool as the element upstream of it would; the
 * element answers only once negotiated (GstBaseTransform), so an
 * unanswered query is asked again for a while. NULL, with @note set, if it
 * proposes none. */
static GstBufferPool *
query_pool (Stream *s, gchar **note)
{
  const gint64 deadline = g_get_monotonic_time () + NEGOTIATION_TIMEOUT_US;
  GstPad *pad = gst_element_get_static_pad (s->src, "src");
  GstBufferPool *pool = NULL;
  gboolean answered;

  do {
    GstQuery *query = gst_query_new_allocation (s->all->caps, TRUE);

    answered = gst_pad_peer_query (pad, query);
    if (answered && gst_query_get_n_allocation_pools (query) > 0)
      gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
    gst_query_unref (query);
    if (!answered)
      g_usleep (1000);
  } while (!answered && g_get_monotonic_time () < deadline);
  gst_object_unref (pad);

  if (!pool)
    *note = g_strdup (answered ? "no pool proposed" : "query unanswered");
  return pool;
}

/* At least @n buffers allocated up front, no maximum: a full pool never
 * blocks a feeder (the element holds up to max-frames-in-flight of them,
 * appsrc QUEUED_FRAMES more). */
static gboolean
pool_configure (GstBufferPool *pool, GstCaps *caps, guint n)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint size;

  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_buffer_pool_config_set_params (config, caps, size, n, 0);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* The pool changed the config to what it can do: take it if it keeps
     * our numbers. */
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, n, 0)
        || !gst_buffer_pool_set_config (pool, config))
      return FALSE;
  }
  return gst_buffer_pool_set_active (pool, TRUE);
}

/* Copies frame @index of the stream into @buf, whose layout its
 * GstVideoMeta gives (the pool may pad rows). */
static gboolean
fill_buffer (Stream *s, GstBuffer *buf, guint index)
{
  const GstVideoInfo *info = &s->all->frames->info;
  GstBuffer *src = wrap_frame (s, index);
  GstVideoFrame from, to;
  gboolean ok = FALSE;

  if (gst_video_frame_map (&from, (GstVideoInfo *) info, src, GST_MAP_READ)) {
    if (gst_video_frame_map (&to, (GstVideoInfo *) info, buf, GST_MAP_WRITE)) {
      ok = gst_video_frame_copy (&to, &from);
      gst_video_frame_unmap (&to);
    }
    gst_video_frame_unmap (&from);
  }
  gst_buffer_unref (src);
  return ok;
}

static gboolean
is_cl_host_memory (GstBuffer *buf)
{
  return gst_buffer_n_memory (buf) == 1
      && gst_memory_is_type (gst_buffer_peek_memory (buf, 0),
      CL_HOST_MEMORY_TYPE);
}

/* Writes the stream's frames into @n pool buffers and gives them back: from
 * then on, acquiring cycles through them with their content, as frames a
 * decoder wrote into its pool. NULL, or why the pool is not what the
 * element should give. */
static gchar *
pool_prefill (Stream *s, guint n, gboolean *meta_from_pool)
{
  GstBuffer **bufs = g_new0 (GstBuffer *, n);
  gchar *note = NULL;
  guint i;

  for (i = 0; i < n && !note; i++) {
    if (gst_buffer_pool_acquire_buffer (s->pool, &bufs[i], NULL)
        != GST_FLOW_OK) {
      note = g_strdup ("acquire failed");
      break;
    }
    *meta_from_pool = gst_buffer_get_video_meta (bufs[i]) != NULL;
    if (!is_cl_host_memory (bufs[i]))
      note = g_strdup ("pool memory is not " CL_HOST_MEMORY_TYPE);
    else if (!fill_buffer (s, bufs[i], i))
      note = g_strdup ("cannot write a pool buffer");
  }
  for (i = 0; i < n; i++)
    if (bufs[i])
      gst_buffer_unref (bufs[i]);
  g_free (bufs);
  return note;
}

/* Buffers the stream can have out at once, with a margin; for automatic
 * frames in flight, the most the element may choose. */
static guint
pool_buffers (const Row *row)
{
  const guint in_flight = row->in_flight ? row->in_flight : 16;

  return MAX (N_FRAMES, in_flight + QUEUED_FRAMES + 4);
}

/* The stream's pool, active and filled; on any trouble the stream wraps
 * its frames instead and the row says why. */
static void
stream_setup_pool (Stream *s, Result *r)
{
  gchar *note = NULL;

  s->pool = query_pool (s, &note);
  if (s->pool && !pool_configure (s->pool, s->all->caps,
          pool_buffers (s->all->row)))
    note = g_strdup ("pool refused its config");
  if (s->pool && !note)
    note = pool_prefill (s, pool_buffers (s->all->row), &r->meta_from_pool);
  if (!note)
    return;
  g_printerr ("warning: stream %u: %s; its frames are wrapped instead\n",
      s->index, note);
  if (s->pool) {
    gst_buffer_pool_set_active (s->pool, FALSE);
    gst_clear_object (&s->pool);
  }
  if (!r->pool_note)
    r->pool_note = note;
  else
    g_free (note);
}

/* A pool buffer, as written before, with a GstVideoMeta (the pool adds
 * one when configured to, as the element's is). */
static GstBuffer *
pool_frame (Stream *s, guint index)
{
  GstBuffer *buf = NULL;

  if (gst_buffer_pool_acquire_buffer (s->pool, &buf, NULL) != GST_FLOW_OK)
    return NULL;
  if (!gst_buffer_get_video_meta (buf))
    add_video_meta (buf, &s->all->frames->info);
  stamp (buf, index);
  return buf;
}

/* ---- a run ---- */

static gpointer
feed (gpointer user_data)
{
  Stream *s = user_data;
  Streams *all = s->all;
  guint i;

  g_mutex_lock (&all->lock);
  while (!all->go)
    g_cond_wait (&all->cond, &all->lock);
  g_mutex_unlock (&all->lock);

  for (i = 0; i < all->n_frames; i++) {
    GstBuffer *buf = s->pool ? pool_frame (s, i) : wrap_frame (s, i);

    /* On an error, the bus handler reports it. */
    if (!buf || gst_app_src_push_buffer (GST_APP_SRC (s->src), buf)
        != GST_FLOW_OK)
      break;
    g_mutex_lock (&all->lock);
    while (paced && s->received <= i && !all->error)
      g_cond_wait (&all->cond, &all->lock);
    g_mutex_unlock (&all->lock);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (s->src));
  return NULL;
}

static void
start_feeders (Streams *all)
{
  guint i;

  all->go = FALSE;
  all->n_eos = 0;
  for (i = 0; i < all->row->streams; i++) {
    Stream *s = &all->s[i];

    s->received = s->next = s->copies = 0;
    g_array_set_size (s->latency, 0);
    g_atomic_int_set (&s->messages, 0);
    s->feeder = g_thread_new ("feeder", feed, s);
  }
}

/* Opens the gate and waits for every stream's EOS; dies on an error or a
 * stall. */
static void
release_and_wait (Streams *all)
{
  const gint64 deadline = g_get_monotonic_time () + EOS_TIMEOUT_US;
  guint i;

  g_mutex_lock (&all->lock);
  all->go = TRUE;
  g_cond_broadcast (&all->cond);
  while (all->n_eos < all->row->streams && !all->error)
    if (!g_cond_wait_until (&all->cond, &all->lock, deadline))
      break;
  g_mutex_unlock (&all->lock);
  if (all->error)
    exit (1);
  if (all->n_eos == all->row->streams)
    return;
  g_printerr ("only %u of %u streams reached EOS in %d s:", all->n_eos,
      all->row->streams, (gint) (EOS_TIMEOUT_US / G_USEC_PER_SEC));
  for (i = 0; i < all->row->streams; i++)
    g_printerr (" %u", all->s[i].received);
  die (" frames received");
}

/* Every frame arrived, each with its message if messages are on. */
static void
check_run (Streams *all, Result *r)
{
  const guint want_msgs = all->row->messages ? all->n_frames : 0;
  guint i;

  for (i = 0; i < all->row->streams; i++) {
    Stream *s = &all->s[i];

    g_thread_join (s->feeder);
    if (s->received != all->n_frames)
      fail (s, "%u frames of %u reached the sink", s->received,
          all->n_frames);
    if ((guint) g_atomic_int_get (&s->messages) != want_msgs)
      fail (s, "%d histogram messages for %u frames", s->messages,
          all->n_frames);
    r->pool_copies += s->copies;
  }
}

typedef struct {
  gdouble agg_fps, stream_median, stream_min, cpu_us_per_frame;
  gdouble latency_median, latency_p99;
} RunFigures;

static void
run_figures (Streams *all, gdouble t0, gdouble cpu_us, RunFigures *fig)
{
  GArray *fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble last = t0;
  guint i;

  for (i = 0; i < all->row->streams; i++) {
    last = MAX (last, all->s[i].eos_us);
    g_array_append_val (fps, (gdouble) {
        all->n_frames * 1e6 / (all->s[i].eos_us - t0)});
  }
  fig->agg_fps = (gdouble) all->n_frames * all->row->streams * 1e6
      / (last - t0);
  fig->stream_median = clh_bench_percentile (fps, 50);
  fig->stream_min = clh_bench_percentile (fps, 0);
  fig->cpu_us_per_frame = cpu_us / ((gdouble) all->n_frames
      * all->row->streams);
  g_array_set_size (fps, 0);
  for (i = 0; i < all->row->streams; i++)
    g_array_append_vals (fps, all->s[i].latency->data,
        all->s[i].latency->len);
  fig->latency_median = fps->len ? clh_bench_percentile (fps, 50) : 0;
  fig->latency_p99 = fps->len ? clh_bench_percentile (fps, 99) : 0;
  g_array_unref (fps);
}

/* One run: all pipelines to PLAYING and negotiated, the feeders released
 * together, timed to the last EOS; then back to READY. */
static void
run_once (Streams *all, gboolean first, Result *r, RunFigures *fig)
{
  GHashTable *threads0 = NULL;
  gdouble t0, c0;
  guint i;

  set_states (all, GST_STATE_PLAYING);
  wait_negotiated (all);
  wait_src_pools (all);
  if (first && all->row->pool)
    for (i = 0; i < all->row->streams; i++)
      stream_setup_pool (&all->s[i], r);
  start_feeders (all);

  t0 = clh_bench_now_us ();
  c0 = clh_bench_cpu_us ();
  if (cpu_by_thread)
    threads0 = clh_thread_cpu_snapshot ();
  release_and_wait (all);
  run_figures (all, t0, clh_bench_cpu_us () - c0, fig);
  if (cpu_by_thread) {
    GHashTable *threads1 = clh_thread_cpu_snapshot ();
    GHashTable *by_name = clh_thread_cpu_by_name (threads0, threads1);

    g_free (r->cpu_threads);
    r->cpu_threads = clh_thread_cpu_format (by_name,
        (gdouble) all->n_frames * all->row->streams);
    g_hash_table_unref (by_name);
    g_hash_table_unref (threads1);
    g_hash_table_unref (threads0);
  }

  check_run (all, r);
  set_states (all, GST_STATE_READY);
}

static void
streams_init (Streams *all, const Row *row, const Frames *frames,
    guint n_frames)
{
  guint i;

  memset (all, 0, sizeof (*all));
  all->row = row;
  all->frames = frames;
  all->caps = caps_for (row->format);
  all->n_frames = n_frames;
  g_mutex_init (&all->lock);
  g_cond_init (&all->cond);
  all->s = g_new0 (Stream, row->streams);
  for (i = 0; i < row->streams; i++)
    stream_init (&all->s[i], all, i);
}

static void
streams_clear (Streams *all)
{
  guint i;

  for (i = 0; i < all->row->streams; i++)
    stream_clear (&all->s[i]);
  g_free (all->s);
  gst_caps_unref (all->caps);
  g_mutex_clear (&all->lock);
  g_cond_clear (&all->cond);
}

/* The device contexts the row's elements opened, read after the warm-up:
 * how many (device=auto spreads streams over a host's GPUs); a warning if
 * the first element's device is not the probe's. */
static guint
check_device (Streams *all)
{
  GHashTable *contexts;
  gchar *name = NULL;
  guint i, n;

  if (!all->row->histogram)
    return 0;
  g_object_get (all->s[0].first, "device-name", &name, NULL);
  if (g_strcmp0 (name, device_name) != 0)
    g_printerr ("warning: the element used %s, the probe %s\n", name,
        device_name);
  g_free (name);
  contexts = g_hash_table_new (NULL, NULL);
  for (i = 0; i < all->row->streams; i++) {
    GstContext *c = gst_element_get_context (all->s[i].first,
        "gst.opencl.context");

    if (!c)
      continue;
    g_hash_table_add (contexts, (gpointer) g_value_get_boxed
        (gst_structure_get_value (gst_context_get_structure (c),
                "context")));
    gst_context_unref (c);
  }
  n = g_hash_table_size (contexts);
  g_hash_table_unref (contexts);
  return n;
}

/* The median over runs of the figure at @offset in RunFigures. */
static gdouble
median_of (GArray *figs, gsize offset)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble median;
  guint i;

  for (i = 0; i < figs->len; i++)
    g_array_append_val (values, G_STRUCT_MEMBER (gdouble,
            &g_array_index (figs, RunFigures, i), offset));
  median = clh_bench_percentile (values, 50);
  g_array_unref (values);
  return median;
}

static void
run_row (const Row *row, const Frames *frames, guint n_frames, guint runs,
    Result *r)
{
  const gint failures_before = g_atomic_int_get (&failures);
  GArray *figs = g_array_new (FALSE, FALSE, sizeof (RunFigures));
  Streams all;
  RunFigures fig;
  guint run;

  streams_init (&all, row, frames, n_frames);
  /* Run 0 warms up: device buffers, pools, page faults. */
  for (run = 0; run <= runs; run++) {
    run_once (&all, run == 0, r, &fig);
    if (run == 0) {
      r->devices = check_device (&all);
      r->pool_copies = 0;
      continue;
    }
    g_array_append_val (figs, fig);
    g_array_append_val (r->agg_runs, fig.agg_fps);
  }
  streams_clear (&all);

  r->agg_fps = median_of (figs, G_STRUCT_OFFSET (RunFigures, agg_fps));
  r->stream_fps_median = median_of (figs,
      G_STRUCT_OFFSET (RunFigures, stream_median));
  r->stream_fps_min = median_of (figs,
      G_STRUCT_OFFSET (RunFigures, stream_min));
  r->cpu_us_per_frame = median_of (figs,
      G_STRUCT_OFFSET (RunFigures, cpu_us_per_frame));
  r->latency_median = median_of (figs,
      G_STRUCT_OFFSET (RunFigures, latency_median));
  r->latency_p99 = median_of (figs,
      G_STRUCT_OFFSET (RunFigures, latency_p99));
  r->failures = g_atomic_int_get (&failures) - failures_before;
  r->frames = n_frames;
  r->runs = runs;
  g_array_unref (figs);
}

/* ---- the device ---- */

/* Opens the device in a pipeline of its own, kept in READY through the
 * throughput rows: it holds the shared context, as a long-lived
 * application would, so rows do not pay for opening it again. The platform
 * and driver come from the engine the element is built on, opened the
 * same way (the default device). */
static GstElement *
probe_device (void)
{
  GstElement *pipeline = gst_pipeline_new ("keeper");
  GstElement *h = gst_element_factory_make ("clhistogram", NULL);
  ClhEngine *engine;

  if (!h)
    die ("The clhistogram element was not found. Run from the source tree "
        "with GST_PLUGIN_PATH=build, e.g.\n"
        "  GST_PLUGIN_PATH=build build/bench/clh-streams-bench --quick");
  if (device_spec)
    g_object_set (h, "device", device_spec, NULL);
  gst_bin_add (GST_BIN (pipeline), h);
  if (gst_element_set_state (pipeline, GST_STATE_READY)
      == GST_STATE_CHANGE_FAILURE) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg)
      print_error_message (msg, "");
    die ("clhistogram could not open an OpenCL device");
  }
  g_object_get (h, "device-name", &device_name, NULL);

  if ((engine = clh_engine_new (device_spec, NULL))) {
    if (g_str_equal (clh_engine_get_device_name (engine), device_name)) {
      platform = g_strdup (clh_engine_get_platform_name (engine));
      driver = clh_engine_get_driver_version (engine);
    }
    clh_engine_free (engine);
  }
  return pipeline;
}

/* ---- rows ---- */

static void
add_row (GArray *rows, const Row *proto, gboolean pool, guint in_flight,
    gboolean messages)
{
  Row row = *proto;

  row.pool = pool;
  row.in_flight = in_flight;
  row.messages = messages;
  g_array_append_val (rows, row);
}

static gboolean
contains (GArray *values, guint v)
{
  guint i;

  for (i = 0; i < values->len; i++)
    if (g_array_index (values, guint, i) == v)
      return TRUE;
  return FALSE;
}

typedef struct {
  GArray *streams, *formats, *in_flight, *pool, *messages, *messages_streams;
} Lists;

/* The rows of one format and stream count: the baseline, then each pool x
 * in-flight x messages (messages on only at --messages-streams). */
static void
add_rows (GArray *rows, const Lists *l, GstVideoFormat format,
    guint streams)
{
  Row proto = { streams, format, FALSE, FALSE, 0, FALSE };
  guint p, k, m;

  g_array_append_val (rows, proto);
  proto.histogram = TRUE;
  for (p = 0; p < l->pool->len; p++)
    for (k = 0; k < l->in_flight->len; k++)
      for (m = 0; m < l->messages->len; m++) {
        const gboolean on = g_array_index (l->messages, guint, m);

        if (on && l->messages_streams->len > 0
            && !contains (l->messages_streams, streams))
          continue;
        add_row (rows, &proto, g_array_index (l->pool, guint, p),
            g_array_index (l->in_flight, guint, k), on);
      }
}

static GArray *
build_rows (const Lists *l)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));
  guint f, s;

  for (f = 0; f < l->formats->len; f++)
    for (s = 0; s < l->streams->len; s++)
      add_rows (rows, l, g_array_index (l->formats, guint, f),
          g_array_index (l->streams, guint, s));
  return rows;
}

/* Each row's aggregate over the best aggregate of single-stream rows of
 * its format; unknown (-1) without such a row. */
static void
compute_ratios (GArray *rows, Result *results, guint n_done)
{
  guint i, j;

  for (i = 0; i < n_done; i++) {
    const Row *row = &g_array_index (rows, Row, i);
    gdouble best = 0;

    for (j = 0; j < n_done; j++) {
      const Row *one = &g_array_index (rows, Row, j);

      if (one->streams == 1 && one->histogram && !results[j].skipped
          && one->format == row->format)
        best = MAX (best, results[j].agg_fps);
    }
    results[i].ratio = row->histogram && best > 0 && !results[i].skipped ?
        results[i].agg_fps / best : -1;
  }
}

/* ---- output ---- */

static const gchar *
on_off (gboolean b)
{
  return b ? "on" : "off";
}

static void
in_flight_name (const Row *row, gchar *buf, gsize size)
{
  if (!row->histogram)
    g_strlcpy (buf, "-", size);
  else if (row->in_flight == 0)
    g_strlcpy (buf, "auto", size);
  else
    g_snprintf (buf, size, "%u", row->in_flight);
}

static void
print_header (const Options *o)
{
  printf ("device: %s (%s), driver %s\n", device_name ? device_name :
      "unknown", platform ? platform : "platform unknown",
      driver ? driver : "unknown");
  printf ("%ux%u, %u bins (GRAY8: luma, RGBA: channels); %u frames per "
      "stream per run", WIDTH, HEIGHT, BINS, o->frames);
  if (o->min_total > 0)
    printf (" (at least %u over all streams)", o->min_total);
  printf (", median of %u runs after a warm-up;\n"
      "fps: frames/s, all streams together (agg) and per stream (median, "
      "slowest); cpu: process user+sys per frame;\n"
      "ratio: agg / best single-stream agg of the format (target: 64 GRAY8 "
      ">= %.0f%%); base: no clhistogram;\n"
      "lat: us from a frame entering clhistogram to the fakesink, median "
      "and 99th percentile\n", o->runs, TARGET_RATIO * 100);
  printf ("%7s %-6s %-4s %-4s %-4s %6s | %10s | %9s %9s | %8s | %6s | "
      "%8s %8s | %s\n", "streams", "format", "pool", "fl", "msgs", "frames",
      "agg fps", "strm med", "strm min", "cpu us", "ratio", "lat med",
      "lat p99", "notes");
  fflush (stdout);
}

static void
add_note (GString *notes, const gchar *format, ...) G_GNUC_PRINTF (2, 3);

static void
add_note (GString *notes, const gchar *format, ...)
{
  va_list args;

  if (notes->len)
    g_string_append_c (notes, ' ');
  va_start (args, format);
  g_string_append_vprintf (notes, format, args);
  va_end (args);
}

static gchar *
notes_for (const Row *row, const Result *r)
{
  GString *notes = g_string_new (NULL);

  if (!row->histogram)
    add_note (notes, "base");
  if (r->skipped)
    add_note (notes, "skipped (--budget)");
  else if (row->pool && r->pool_note)
    add_note (notes, "POOL: %s", r->pool_note);
  else if (row->pool && !r->meta_from_pool)
    add_note (notes, "vmeta added by bench");
  if (r->pool_copies)
    add_note (notes, "%u copies", r->pool_copies);
  if (r->failures)
    add_note (notes, "%u FAILED", r->failures);
  if (r->devices > 1)
    add_note (notes, "%u devices", r->devices);
  return g_string_free (notes, FALSE);
}

/* While rows run, a single-stream row's ratio is not final: later
 * single-stream rows may do better. */
static void
print_row (const Row *row, const Result *r, gboolean final)
{
  gchar fl[16], ratio[16], *notes = notes_for (row, r);

  in_flight_name (row, fl, sizeof (fl));
  if (r->ratio >= 0 && (final || row->streams > 1))
    g_snprintf (ratio, sizeof (ratio), "%5.1f%%", r->ratio * 100);
  else
    g_strlcpy (ratio, "-", sizeof (ratio));
  printf ("%7u %-6s %-4s %-4s %-4s %6u | ", row->streams,
      gst_video_format_to_string (row->format), on_off (row->pool), fl,
      on_off (row->messages), r->frames);
  if (r->skipped)
    printf ("%10s | %9s %9s | %8s | %6s | %8s %8s |", "-", "-", "-", "-", "-",
        "-", "-");
  else
    printf ("%10.1f | %9.1f %9.1f | %8.1f | %6s | %8.1f %8.1f |", r->agg_fps,
        r->stream_fps_median, r->stream_fps_min, r->cpu_us_per_frame, ratio,
        r->latency_median, r->latency_p99);
  printf ("%s%s\n", *notes ? " " : "", notes);
  if (!final && r->cpu_threads)
    printf ("        cpu us/frame by thread: %s\n", r->cpu_threads);
  fflush (stdout);
  g_free (notes);
}

void
json_doubles (GString *json, GArray *values)
{
  guint i;

  g_string_append_c (json, '[');
  for (i = 0; values && i < values->len; i++)
    g_string_append_printf (json, "%s%.2f", i ? ", " : "",
        g_array_index (values, gdouble, i));
  g_string_append_c (json, ']');
}

static void
json_ratio (GString *json, gdouble ratio)
{
  if (ratio >= 0)
    g_string_append_printf (json, "%.4f", ratio);
  else
    g_string_append (json, "null");
}

static void
json_row (GString *json, const Row *row, const Result *r)
{
  g_string_append_printf (json, "    {\"streams\": %u, \"format\": \"%s\", "
      "\"mode\": \"%s\", \"histogram\": %s, \"pool\": %s, ",
      row->streams, gst_video_format_to_string (row->format),
      row->histogram ? mode_for (row->format) : "none",
      row->histogram ? "true" : "false", row->pool ? "true" : "false");
  if (row->histogram)
    g_string_append_printf (json, "\"in_flight\": %u, ", row->in_flight);
  else
    g_string_append (json, "\"in_flight\": null, ");
  g_string_append_printf (json, "\"post_messages\": %s, \"skipped\": %s, "
      "\"frames_per_stream\": %u, \"runs\": %u, \"aggregate_fps\": %.2f, "
      "\"aggregate_fps_runs\": ", row->messages ? "true" : "false",
      r->skipped ? "true" : "false", r->frames, r->runs, r->agg_fps);
  json_doubles (json, r->agg_runs);
  g_string_append_printf (json, ", \"stream_fps_median\": %.2f, "
      "\"stream_fps_min\": %.2f, \"cpu_us_per_frame\": %.2f, "
      "\"latency_us_median\": %.2f, \"latency_us_p99\": %.2f, "
      "\"ratio_to_single_best\": ", r->stream_fps_median, r->stream_fps_min,
      r->cpu_us_per_frame, r->latency_median, r->latency_p99);
  json_ratio (json, r->ratio);
  g_string_append (json, ", \"pool_note\": ");
  clh_bench_json_string (json, r->pool_note);
  g_string_append_printf (json, ", \"video_meta_from_pool\": %s, "
      "\"pool_copies\": %u, \"devices\": %u, \"failures\": %u, "
      "\"cpu_us_per_frame_by_thread\": ",
      row->pool && r->meta_from_pool ? "true" : "false", r->pool_copies,
      r->devices, r->failures);
  clh_bench_json_string (json, r->cpu_threads);
  g_string_append (json, "}");
}

static void
json_rows (GString *json, GArray *rows, const Result *results, guint n)
{
  guint i;

  g_string_append (json, "  \"rows\": [\n");
  for (i = 0; i < n; i++) {
    json_row (json, &g_array_index (rows, Row, i), &results[i]);
    g_string_append (json, i + 1 < n ? ",\n" : "\n");
  }
  g_string_append (json, "  ]");
}

static void
json_header (GString *json, const Options *o)
{
  g_string_append (json, "{\n  \"device\": ");
  clh_bench_json_string (json, device_name);
  g_string_append (json, ",\n  \"platform\": ");
  clh_bench_json_string (json, platform);
  g_string_append (json, ",\n  \"driver\": ");
  clh_bench_json_string (json, driver);
  g_string_append_printf (json, ",\n  \"width\": %u, \"height\": %u, "
      "\"bins\": %u, \"frames_per_stream\": %u, \"min_total\": %u, "
      "\"runs\": %u, \"target_ratio\": %.2f, \"target_warm_ms\": %.1f,\n",
      WIDTH, HEIGHT, BINS, o->frames, o->min_total, o->runs, TARGET_RATIO,
      TARGET_WARM_MS);
}

static void
write_file (const gchar *path, GString *text)
{
  GError *err = NULL;

  if (!g_file_set_contents (path, text->str, text->len, &err)) {
    g_printerr ("%s\n", err->message);
    exit (1);
  }
}

/* ---- options ---- */

static GArray *
parse_uints (const gchar *text, const gchar *what, guint min, guint max)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar **items = g_strsplit (text, ",", -1);
  guint i;

  for (i = 0; items[i]; i++) {
    guint64 v;

    if (!g_ascii_string_to_unsigned (g_strstrip (items[i]), 10, min, max, &v,
            NULL)) {
      g_printerr ("--%s: numbers %u..%u, comma-separated, not '%s'\n", what,
          min, max, items[i]);
      exit (1);
    }
    g_array_append_val (values, (guint) { v });
  }
  g_strfreev (items);
  return values;
}

static GArray *
parse_switches (const gchar *text, const gchar *what)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar **items = g_strsplit (text, ",", -1);
  guint i;

  for (i = 0; items[i]; i++) {
    if (!g_str_equal (items[i], "on") && !g_str_equal (items[i], "off")) {
      g_printerr ("--%s: on, off or on,off, not '%s'\n", what, items[i]);
      exit (1);
    }
    g_array_append_val (values, (guint) { g_str_equal (items[i], "on") });
  }
  g_strfreev (items);
  return values;
}

static GArray *
parse_formats (const gchar *text)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar **items = g_strsplit (text, ",", -1);
  guint i;

  for (i = 0; items[i]; i++) {
    const GstVideoFormat f = gst_video_format_from_string (items[i]);

    if (f != GST_VIDEO_FORMAT_GRAY8 && f != GST_VIDEO_FORMAT_RGBA) {
      g_printerr ("--formats: GRAY8, RGBA or both, not '%s'\n", items[i]);
      exit (1);
    }
    g_array_append_val (values, (guint) { f });
  }
  g_strfreev (items);
  return values;
}

static void
parse_lists (const Options *o, Lists *l)
{
  l->streams = parse_uints (o->streams, "streams", 1, 1024);
  l->formats = parse_formats (o->formats);
  l->in_flight = parse_uints (o->in_flight, "in-flight", 0, 16);
  l->pool = parse_switches (o->pool, "pool");
  l->messages = parse_switches (o->messages, "messages");
  l->messages_streams = o->messages_streams ?
      parse_uints (o->messages_streams, "messages-streams", 1, 1024) :
      g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
lists_clear (Lists *l)
{
  g_array_unref (l->streams);
  g_array_unref (l->formats);
  g_array_unref (l->in_flight);
  g_array_unref (l->pool);
  g_array_unref (l->messages);
  g_array_unref (l->messages_streams);
}

/* What --quick and the full run use for options not given. */
static void
apply_defaults (Options *o)
{
  if (!o->streams)
    o->streams = g_strdup (o->quick ? "1,4" : "1,4,16,64");
  if (!o->formats)
    o->formats = g_strdup (o->quick ? "GRAY8" : "GRAY8,RGBA");
  if (!o->in_flight)
    o->in_flight = g_strdup ("1,4");
  if (!o->pool)
    o->pool = g_strdup ("on,off");
  if (!o->messages)
    o->messages = g_strdup ("off");
  if (o->frames == 0)
    o->frames = o->quick ? 200 : 1000;
  if (o->runs == 0)
    o->runs = o->quick ? 2 : 3;
  if (o->startup_runs == 0)
    o->startup_runs = o->quick ? 3 : 5;
}

static void
parse_options (Options *o, int *argc, char ***argv)
{
  GOptionEntry entries[] = {
    {"streams", 's', 0, G_OPTION_ARG_STRING, &o->streams,
        "Concurrent streams (default 1,4,16,64)", "LIST"},
    {"formats", 'f', 0, G_OPTION_ARG_STRING, &o->formats,
        "GRAY8 (luma) and/or RGBA (channels) (default GRAY8,RGBA)", "LIST"},
    {"in-flight", 'k', 0, G_OPTION_ARG_STRING, &o->in_flight,
        "max-frames-in-flight values, 0 automatic (default 1,4)", "LIST"},
    {"pool", 'p', 0, G_OPTION_ARG_STRING, &o->pool,
        "Frames from the element's pool (on) or wrapped (off) "
        "(default on,off)", "LIST"},
    {"messages", 'm', 0, G_OPTION_ARG_STRING, &o->messages,
        "post-messages (default off)", "off[,on]"},
    {"messages-streams", 0, 0, G_OPTION_ARG_STRING, &o->messages_streams,
        "Rows with messages on only at these stream counts (default all)",
        "LIST"},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device_spec,
        "Every element's device property (default auto: with several GPUs "
        "the streams spread over them)", "SPEC"},
    {"cpu-by-thread", 0, 0, G_OPTION_ARG_NONE, &cpu_by_thread,
        "Also print each row's CPU time per frame by thread name (the "
        "last run's; Linux)", NULL},
    {"verify", 0, 0, G_OPTION_ARG_NONE, &verify,
        "Compare every histogram with a count of its frame's pixels made at "
        "the sink (slow: for checking, not timing)", NULL},
    {"paced", 0, 0, G_OPTION_ARG_NONE, &paced,
        "Each stream sends a frame only once the one before is out (a "
        "request-response loop): latency without queueing", NULL},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &o->frames,
        "Frames per stream per run (default 1000, --quick 200)", "N"},
    {"min-total", 0, 0, G_OPTION_ARG_INT, &o->min_total,
        "At least N frames per run over all streams: fewer streams get "
        "more frames each, so that their runs are not too short to time "
        "(default 0)", "N"},
    {"runs", 'r', 0, G_OPTION_ARG_INT, &o->runs,
        "Timed runs per row, after a warm-up (default 3, --quick 2)", "R"},
    {"budget", 'b', 0, G_OPTION_ARG_DOUBLE, &o->budget,
        "Skip the throughput rows left after this many seconds (0: none)",
        "S"},
    {"json", 'j', 0, G_OPTION_ARG_FILENAME, &o->json, "Write JSON here",
        "FILE"},
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &o->quick,
        "GRAY8, 1 and 4 streams, 200 frames, 2 runs (for CPU devices)", NULL},
    {"startup", 0, 0, G_OPTION_ARG_NONE, &o->startup,
        "Also time start-up, cache cold, warm and off, in fresh processes",
        NULL},
    {"startup-runs", 0, 0, G_OPTION_ARG_INT, &o->startup_runs,
        "Processes per start-up configuration (default 5, --quick 3)", "N"},
    {"no-throughput", 0, 0, G_OPTION_ARG_NONE, &o->no_throughput,
        "Skip the streams rows (with --startup)", NULL},
    {"startup-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE,
        &o->startup_child, "One timed start (run by --startup)", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- throughput of many "
      "clhistogram streams in one process, and start-up time");
  GError *err = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, argc, argv, &err)) {
    g_printerr ("%s\n", err->message);
    exit (1);
  }
  g_option_context_free (ctx);
  if (o->frames < 0 || o->min_total < 0 || o->runs < 0
      || o->startup_runs < 0 || o->budget < 0)
    die ("--frames, --min-total, --runs, --startup-runs and --budget must "
        "be positive");
  apply_defaults (o);
}

static void
options_clear (Options *o)
{
  g_free (o->streams);
  g_free (o->formats);
  g_free (o->in_flight);
  g_free (o->pool);
  g_free (o->messages);
  g_free (o->messages_streams);
  g_free (o->json);
}

/* ---- main ---- */

static guint
max_streams (const Lists *l)
{
  guint i, n = 0;

  for (i = 0; i < l->streams->len; i++)
    n = MAX (n, g_array_index (l->streams, guint, i));
  return n;
}

/* The whole JSON so far: rewritten after every row. */
static void
save_json (const Options *o, GArray *rows, const Result *results, guint n,
    const Startup *st, guint n_st)
{
  GString *json = g_string_new (NULL);

  if (!o->json)
    return;
  json_header (json, o);
  json_rows (json, rows, results, n);
  g_string_append (json, ",\n");
  json_startup (json, st, n_st);
  g_string_append (json, "\n}\n");
  write_file (o->json, json);
  g_string_free (json, TRUE);
}

typedef struct {
  const Options *o;
  Lists lists;
  GArray *rows;
  Result *results;
  guint n_done;
} Table;

static guint
frames_per_stream (const Options *o, const Row *row)
{
  return MAX ((guint) o->frames,
      ((guint) o->min_total + row->streams - 1) / row->streams);
}

/* Runs the rows in order, one format's frames at a time. */
static void
run_rows (Table *t)
{
  const gdouble start = clh_bench_now_us ();
  Frames frames = { 0 };
  guint i;

  for (i = 0; i < t->rows->len; i++) {
    const Row *row = &g_array_index (t->rows, Row, i);
    Result *r = &t->results[i];

    r->agg_runs = g_array_new (FALSE, FALSE, sizeof (gdouble));
    r->ratio = -1;
    if (t->o->budget > 0 && clh_bench_now_us () - start > t->o->budget * 1e6) {
      r->skipped = TRUE;
    } else {
      if (frames.data && frames.format != row->format)
        frames_clear (&frames);
      if (!frames.data)
        frames_init (&frames, row->format, max_streams (&t->lists));
      run_row (row, &frames, frames_per_stream (t->o, row), t->o->runs, r);
    }
    t->n_done = i + 1;
    compute_ratios (t->rows, t->results, t->n_done);
    print_row (row, r, FALSE);
    save_json (t->o, t->rows, t->results, t->n_done, NULL, 0);
  }
  frames_clear (&frames);
}

static void
print_table (Table *t)
{
  guint i;

  printf ("\nall rows, ratios final:\n");
  print_header (t->o);
  for (i = 0; i < t->n_done; i++)
    print_row (&g_array_index (t->rows, Row, i), &t->results[i], TRUE);
}

/* The throughput target (64 GRAY8 streams reach 80% of one stream's best
 * aggregate), for each 64-stream GRAY8 row. */
static void
print_target (Table *t)
{
  guint i;

  for (i = 0; i < t->n_done; i++) {
    const Row *row = &g_array_index (t->rows, Row, i);
    const Result *r = &t->results[i];

    if (row->streams != 64 || row->format != GST_VIDEO_FORMAT_GRAY8
        || !row->histogram || r->ratio < 0)
      continue;
    printf ("target: 64 GRAY8 streams, pool %s, in flight %u, messages %s: "
        "%.1f%% of the single-stream best (>= %.0f%%): %s\n",
        on_off (row->pool), row->in_flight, on_off (row->messages),
        r->ratio * 100, TARGET_RATIO * 100,
        r->ratio >= TARGET_RATIO ? "met" : "NOT met");
  }
}

static void
table_clear (Table *t)
{
  guint i;

  for (i = 0; i < t->rows->len; i++) {
    if (t->results[i].agg_runs)
      g_array_unref (t->results[i].agg_runs);
    g_free (t->results[i].pool_note);
    g_free (t->results[i].cpu_threads);
  }
  g_free (t->results);
  g_array_unref (t->rows);
  lists_clear (&t->lists);
}

static void
run_throughput (Table *t)
{
  GstElement *keeper = probe_device ();

  print_header (t->o);
  run_rows (t);
  gst_element_set_state (keeper, GST_STATE_NULL);
  gst_object_unref (keeper);
  if (t->rows->len > 1) {
    print_table (t);
    print_target (t);
  }
}

/* The device's name, platform and driver for start-up alone; the probe's
 * pipeline goes at once, so that no clhistogram outlives it. */
static void
probe_only (void)
{
  GstElement *keeper = probe_device ();

  gst_element_set_state (keeper, GST_STATE_NULL);
  gst_object_unref (keeper);
  printf ("device: %s (%s), driver %s\n", device_name, platform ? platform :
      "platform unknown", driver ? driver : "unknown");
}

int
main (int argc, char **argv)
{
  Options o = { 0 };
  Table t = { &o };
  Startup st[6] = { {0} };
  guint n_st = 0, i;

  parse_options (&o, &argc, &argv);
  gst_init (NULL, NULL);
  if (o.startup_child)
    return startup_child ();

  parse_lists (&o, &t.lists);
  t.rows = build_rows (&t.lists);
  t.results = g_new0 (Result, t.rows->len);
  if (!o.no_throughput)
    run_throughput (&t);
  else
    probe_only ();
  if (o.startup)
    n_st = run_startup (st, o.startup_runs, platform);
  save_json (&o, t.rows, t.results, t.n_done, st, n_st);

  for (i = 0; i < n_st; i++)
    g_array_unref (st[i].ms);
  table_clear (&t);
  options_clear (&o);
  g_free (device_name);
  g_free (platform);
  g_free (driver);
  if (failures) {
    g_printerr ("%d check(s) failed: frames missing, out of order, without "
        "a right histogram, or messages miscounted\n", failures);
    return 2;
  }
  return 0;
}
