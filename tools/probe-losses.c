/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frames an input's run drops before they are counted, and those it
 * counts late.
 *
 * The probe's own part of the pipeline drops nothing: it has no queue,
 * its appsink keeps every sample (drop off, no max-buffers) and has QoS
 * off, so nothing upstream drops a frame for being late. What is dropped
 * is dropped before, by elements that say so in QoS messages (GStreamer's
 * design documentation, "Quality Of Service (QoS)"):
 *
 *   - a decoder (GstVideoDecoder) drops a frame it cannot decode, and
 *     posts its counts of frames processed and dropped since it started;
 *   - v4l2src finds the frames the camera's driver lost from the gaps in
 *     their sequence numbers, and posts their duration, with no counts.
 *
 * Late: a live input's frames, and every input's with --sync, have a time
 * on the pipeline's clock (their running time, plus the latency upstream
 * declares); one that reaches the sink more than PROBE_LOSSES_LATE_NS
 * after it is late. A file counted as fast as it comes has no such time,
 * and no frame of it is ever late. */
#include "probe-losses.h"

#include <gst/base/gstbasesink.h>

struct _ProbeLosses
{
  GMutex lock;
  /* GstObject * (a ref) -> guint64 *: the frames it said it dropped so
   * far. */
  GHashTable *dropped;
  /* Whether the run's frames have a time on the clock (-1: not known
   * yet), and the latency upstream declares. */
  gint timed;
  GstClockTime latency;
};

/**
 * probe_losses_new:
 *
 * Returns: (transfer full): the losses of an input's runs, to
 *   probe_losses_reset() at each run's start and free with
 *   probe_losses_free().
 */
ProbeLosses *
probe_losses_new (void)
{
  ProbeLosses *l = g_new0 (ProbeLosses, 1);

  g_mutex_init (&l->lock);
  l->dropped = g_hash_table_new_full (NULL, NULL, gst_object_unref, g_free);
  l->timed = -1;
  return l;
}

/**
 * probe_losses_reset:
 *
 * A new run: its elements are new, with counts of their own, and its
 * source may be live where the last was not.
 */
void
probe_losses_reset (ProbeLosses *l)
{
  g_mutex_lock (&l->lock);
  g_hash_table_remove_all (l->dropped);
  l->timed = -1;
  g_mutex_unlock (&l->lock);
}

/* The frames @src says it dropped in all, @dropped, less those it said
 * before; its counts start again after a flush. */
static guint64
newly_dropped (ProbeLosses *l, GstObject *src, guint64 dropped)
{
  guint64 *before, n;

  g_mutex_lock (&l->lock);
  before = g_hash_table_lookup (l->dropped, src);
  if (!before) {
    before = g_new0 (guint64, 1);
    g_hash_table_insert (l->dropped, gst_object_ref (src), before);
  }
  n = dropped >= *before ? dropped - *before : dropped;
  *before = dropped;
  g_mutex_unlock (&l->lock);
  return n;
}

/**
 * probe_losses_take_qos:
 * @l: the input's losses
 * @msg: a QoS message of the run's pipeline
 * @frame_duration: the duration of the run's frames, as the last one
 *   that reached the element had; GST_CLOCK_TIME_NONE if unknown
 *
 * Any thread (a streaming thread's bus sync handler).
 *
 * Returns: the frames @msg says were dropped that no message said before:
 *   the increase of its sender's count of buffers dropped; for a message
 *   with no counts (v4l2src's), its duration over @frame_duration, at
 *   least 1; 0 for a message counting something else (an audio
 *   decoder's samples).
 */
guint64
probe_losses_take_qos (ProbeLosses *l, GstMessage *msg,
    GstClockTime frame_duration)
{
  GstFormat format;
  guint64 processed, dropped, duration;

  g_return_val_if_fail (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_QOS, 0);
  gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
  if (format == GST_FORMAT_BUFFERS && dropped != G_MAXUINT64)
    return newly_dropped (l, GST_MESSAGE_SRC (msg), dropped);
  if (format != GST_FORMAT_UNDEFINED)
    return 0;
  gst_message_parse_qos (msg, NULL, NULL, NULL, NULL, &duration);
  if (!GST_CLOCK_TIME_IS_VALID (duration)
      || !GST_CLOCK_TIME_IS_VALID (frame_duration) || frame_duration == 0)
    return 1;
  return MAX ((duration + frame_duration / 2) / frame_duration, 1);
}

/* Whether the run's frames have a time on the clock, and the latency,
 * asked once a run (a query upstream) and kept. */
static gboolean
timed (ProbeLosses *l, GstElement *sink, GstClockTime *latency)
{
  gboolean live = FALSE, upstream_live = FALSE, known;
  GstClockTime min = 0;

  g_mutex_lock (&l->lock);
  known = l->timed >= 0;
  g_mutex_unlock (&l->lock);
  if (!known
      && gst_base_sink_query_latency (GST_BASE_SINK (sink), &live,
          &upstream_live, &min, NULL)) {
    g_mutex_lock (&l->lock);
    /* A sink that syncs calls itself live. */
    l->timed = live || upstream_live;
    l->latency = upstream_live && GST_CLOCK_TIME_IS_VALID (min) ? min : 0;
    g_mutex_unlock (&l->lock);
  }
  g_mutex_lock (&l->lock);
  known = l->timed > 0;
  *latency = l->latency;
  g_mutex_unlock (&l->lock);
  return known;
}

/**
 * probe_losses_is_late:
 * @l: the input's losses
 * @sink: the run's sink (a GstBaseSink), in PLAYING
 * @sample: the sample it took
 *
 * On @sink's streaming thread.
 *
 * Returns: whether @sample came more than PROBE_LOSSES_LATE_NS after its
 *   time on the clock: its running time, plus the latency upstream
 *   declares, from the pipeline's base time. Never for a run whose
 *   frames have no time (a file without --sync).
 */
gboolean
probe_losses_is_late (ProbeLosses *l, GstElement *sink, GstSample *sample)
{
  GstBuffer *buffer = gst_sample_get_buffer (sample);
  const GstSegment *segment = gst_sample_get_segment (sample);
  GstClockTime latency, running, now;
  GstClock *clock;

  if (!buffer || !segment || segment->format != GST_FORMAT_TIME
      || !GST_BUFFER_PTS_IS_VALID (buffer) || !timed (l, sink, &latency))
    return FALSE;
  running = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));
  clock = gst_element_get_clock (sink);
  if (!clock)
    return FALSE;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  return GST_CLOCK_TIME_IS_VALID (running)
      && now > gst_element_get_base_time (sink) + running + latency
      + PROBE_LOSSES_LATE_NS;
}

void
probe_losses_free (ProbeLosses *l)
{
  if (!l)
    return;
  g_hash_table_unref (l->dropped);
  g_mutex_clear (&l->lock);
  g_free (l);
}
