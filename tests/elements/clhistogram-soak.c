/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Long runs: many frames through one element with the resident memory
 * measured after a warm-up and at the end; many NULL -> PLAYING -> NULL
 * cycles with memory, open files and threads counted; caps changes and
 * flushes while frames are in flight, every frame's histogram checked
 * against the reference of its own caps.
 *
 *   clhistogram-soak frames N | cycles N | changes N
 *
 * Prints its figures; exits 1 if memory grew by 1 MiB or more after the
 * warm-up, if files or threads grew, or if a histogram was wrong. The
 * suite runs short versions; scripts/reliability.sh the long ones. */
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-test-timeout.h"
#include "clh-reference-frame.h"

/* What the process holds: resident memory (KiB), open files, threads. */
typedef struct {
  guint64 rss_kib;
  guint fds;
  guint threads;
} Usage;

static guint
count_entries (const gchar *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  while (dir && g_dir_read_name (dir))
    n++;
  if (dir)
    g_dir_close (dir);
  return n;
}

static Usage
usage_now (void)
{
  Usage u = { 0 };
  gchar *status = NULL, *at;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (at = strstr (status, "VmRSS:")))
    u.rss_kib = g_ascii_strtoull (at + 6, NULL, 10);
  g_free (status);
  u.fds = count_entries ("/proc/self/fd");
  u.threads = count_entries ("/proc/self/task");
  return u;
}

static GstBuffer *
frame_new (const GstVideoInfo *info, guint seed)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);

  gst_buffer_memset (buffer, 0, seed * 7, info->size);
  gst_buffer_memset (buffer, info->size / 3, seed * 13, info->size / 3);
  GST_BUFFER_PTS (buffer) = seed * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static gboolean
equals_reference (GstBuffer *out, const GstVideoInfo *info, GstBuffer *in)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  ClhHistogramSpec spec;
  ClhHistogram want;
  gboolean same;

  if (!meta || meta->pixels != (guint64) GST_VIDEO_INFO_WIDTH (info)
      * GST_VIDEO_INFO_HEIGHT (info))
    return FALSE;
  g_assert_true (clh_reference_histogram_of_buffer (info, in,
          gst_histogram_mode_get_nick (meta->info.mode), meta->info.n_bins,
          0, -1, &spec, &want));
  same = memcmp (meta->counts, want.counts, (gsize) meta->info.n_channels
      * meta->info.n_bins * sizeof (guint32)) == 0;
  g_free (want.counts);
  return same;
}

/* AddressSanitizer keeps freed memory in quarantine (256 MiB), so resident
 * memory grows there whatever the code does; its leak check judges memory
 * instead. */
#ifdef __SANITIZE_ADDRESS__
#define RSS_LIMIT_KIB G_MAXINT64
#else
#define RSS_LIMIT_KIB 1024
#endif

/* With @mid (half-way), memory passes if either half grew less than half
 * the limit: a leak grows in both, while a one-off allocation (a driver
 * compiling a kernel variant on its first use, the program cache filled
 * by a test running beside this one) lands in one. */
static gboolean
report (const gchar *what, guint64 n, const Usage *warm, const Usage *mid,
    const Usage *end, gboolean exact_counts)
{
  const gint64 grown = (gint64) end->rss_kib - (gint64) warm->rss_kib;
  gboolean ok = grown < RSS_LIMIT_KIB;

  if (!ok && mid)
    ok = MIN ((gint64) mid->rss_kib - (gint64) warm->rss_kib,
        (gint64) end->rss_kib - (gint64) mid->rss_kib) < RSS_LIMIT_KIB / 2;
  ok = ok && (!exact_counts
      || (end->fds <= warm->fds && end->threads <= warm->threads));

  g_print ("%s: %" G_GUINT64_FORMAT "; after warm-up %" G_GUINT64_FORMAT
      " KiB resident, %u files, %u threads; at the end %" G_GUINT64_FORMAT
      " KiB (%+" G_GINT64_FORMAT " KiB), %u files, %u threads: %s\n", what, n,
      warm->rss_kib, warm->fds, warm->threads, end->rss_kib, grown, end->fds,
      end->threads, ok ? "OK" : "GREW");
  if (mid)
    g_print ("%s: %+" G_GINT64_FORMAT " KiB in the first half, %+"
        G_GINT64_FORMAT " KiB in the second\n", what,
        (gint64) mid->rss_kib - (gint64) warm->rss_kib,
        (gint64) end->rss_kib - (gint64) mid->rss_kib);
  return ok;
}

/* Pulls the frames out so far, which must be frame *@next and on, in
 * order; one in a thousand is checked against the reference. */
static gboolean
pull_in_order (GstHarness *h, const GstVideoInfo *info, guint64 *next)
{
  gboolean right = TRUE;
  GstBuffer *out;

  while ((out = gst_harness_try_pull (h))) {
    right = right && GST_BUFFER_PTS (out) == *next * GST_SECOND / 30;
    if (right && *next % 1000 == 3) {
      GstBuffer *sent = frame_new (info, *next);

      right = equals_reference (out, info, sent);
      gst_buffer_unref (sent);
    }
    gst_buffer_unref (out);
    (*next)++;
  }
  return right;
}

/* @n frames of 64x48 GRAY8 through one element, 4 in flight, each out in
 * order; one frame in a thousand checked against the reference. */
static gboolean
soak_frames (guint64 n)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  const guint64 warm_up = MIN (n / 10, 20000);
  GstVideoInfo info;
  Usage warm = { 0 }, end;
  gboolean right = TRUE;
  guint64 i, next = 0;

  g_object_set (h->element, "max-frames-in-flight", 4, "post-messages",
      FALSE, NULL);
  gst_harness_set_live (h, FALSE);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=64,"
      "height=48,framerate=30/1");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  for (i = 0; i < n && right; i++) {
    GstBuffer *in = frame_new (&info, i);

    if (i == warm_up)
      warm = usage_now ();
    right = gst_harness_push (h, in) == GST_FLOW_OK;
    /* Frames leave as they are counted: take what is out. */
    right = right && pull_in_order (h, &info, &next);
  }
  right = right && gst_harness_push_event (h, gst_event_new_eos ())
      && pull_in_order (h, &info, &next) && next == n;
  end = usage_now ();
  gst_harness_teardown (h);
  if (!right)
    g_print ("frames: a histogram was wrong or a push failed\n");
  return report ("frames", n, &warm, NULL, &end, FALSE) && right;
}

/* @n NULL -> PLAYING -> NULL cycles of a pipeline that counts a few
 * frames in the pool the element proposes. */
static gboolean
soak_cycles (guint64 n)
{
  const guint64 warm_up = MIN (MAX (n / 10, 5), 50);
  const guint64 half_way = warm_up + (n - MIN (warm_up, n)) / 2;
  Usage warm = { 0 }, mid = { 0 }, end;
  gboolean right = TRUE;
  guint64 i;

  for (i = 0; i < n && right; i++) {
    GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
        "video/x-raw,format=NV12,width=64,height=48 ! clhistogram ! "
        "fakesink", NULL);
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg;

    if (i == warm_up)
      warm = usage_now ();
    if (i == half_way)
      mid = usage_now ();
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (30),
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    right = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    if (msg)
      gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipeline);
  }
  /* Threads of GLib's and GStreamer's pools retire after their last task,
   * and the last pipeline's bus and streaming threads may still hold a
   * descriptor as the last cycle returns: give them a moment, as a thread
   * or a descriptor per cycle would never go. */
  end = usage_now ();
  for (i = 0; i < 100 && (end.threads > warm.threads
          || end.fds > warm.fds); i++) {
    g_usleep (50000);
    end = usage_now ();
  }
  if (!right)
    g_print ("cycles: a cycle did not reach EOS\n");
  return report ("cycles", n, &warm, &mid, &end, TRUE) && right;
}

/* @n rounds of: frames in flight, a caps change, more frames, a flush
 * with frames in flight; every frame out checked against its own caps. */
static gboolean
soak_changes (guint64 n)
{
  const GstVideoFormat formats[] = {
    GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_I420_10LE,
  };
  GstHarness *h = gst_harness_new ("clhistogram");
  guint64 round, checked = 0;
  gboolean right = TRUE;

  g_object_set (h->element, "max-frames-in-flight", 4, "mode", 1, NULL);
  gst_harness_set_live (h, FALSE);
  for (round = 0; round < n && right; round++) {
    GstVideoInfo info;
    GQueue sent = G_QUEUE_INIT;
    GstSegment segment;
    GstBuffer *out;
    guint i;

    gst_video_info_set_format (&info, formats[round % 4], 17 + round % 50,
        9 + round % 31);
    gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
    /* The caps event pushed what the old caps held; now 3 in flight. */
    for (i = 0; i < 3; i++) {
      GstBuffer *in = frame_new (&info, round * 10 + i);
      g_queue_push_tail (&sent, gst_buffer_ref (in));
      right = right && gst_harness_push (h, in) == GST_FLOW_OK;
    }
    if (round % 2) {
      /* A flushing seek's events: the frames held are dropped. */
      gst_harness_push_event (h, gst_event_new_flush_start ());
      gst_harness_push_event (h, gst_event_new_flush_stop (TRUE));
      gst_segment_init (&segment, GST_FORMAT_TIME);
      gst_harness_push_event (h, gst_event_new_segment (&segment));
    } else {
      gst_harness_push_event (h, gst_event_new_eos ());
    }
    while ((out = gst_harness_try_pull (h))) {
      GstBuffer *in = g_queue_pop_head (&sent);

      right = right && in && equals_reference (out, &info, in);
      checked++;
      gst_buffer_unref (out);
      if (in)
        gst_buffer_unref (in);
    }
    g_queue_clear_full (&sent, (GDestroyNotify) gst_buffer_unref);
    if (round % 2 == 0) {
      /* After EOS, a new stream. */
      gst_harness_push_event (h, gst_event_new_flush_start ());
      gst_harness_push_event (h, gst_event_new_flush_stop (TRUE));
      gst_segment_init (&segment, GST_FORMAT_TIME);
      gst_harness_push_event (h, gst_event_new_segment (&segment));
    }
  }
  gst_harness_teardown (h);
  g_print ("changes: %" G_GUINT64_FORMAT " rounds, %" G_GUINT64_FORMAT
      " frames checked: %s\n", round, checked, right ? "OK" : "WRONG");
  return right;
}

int
main (int argc, char **argv)
{
  guint64 n;
  gboolean ok;

  gst_init (&argc, &argv);
  if (argc != 3)
    g_error ("usage: clhistogram-soak frames|cycles|changes N");
  n = g_ascii_strtoull (argv[2], NULL, 10);
  if (g_str_equal (argv[1], "frames"))
    ok = soak_frames (n);
  else if (g_str_equal (argv[1], "cycles"))
    ok = soak_cycles (n);
  else if (g_str_equal (argv[1], "changes"))
    ok = soak_changes (n);
  else
    g_error ("no soak named %s", argv[1]);
  gst_deinit ();
  return ok ? 0 : 1;
}
