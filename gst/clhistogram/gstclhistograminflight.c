/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in flight: counted at once, so that one frame's upload overlaps
 * the counting of the ones before; each leaves as soon as it is counted. */
#include "gstclhistograminflight.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

/* Frames the engine keeps at once: the property, or when it is 0 one for
 * live sources (each frame goes on at once) and
 * GST_CL_HISTOGRAM_DEFAULT_IN_FLIGHT for others. */
static guint
in_flight_for (guint property, gboolean live)
{
  if (property > 0)
    return property;
  return live ? 1 : GST_CL_HISTOGRAM_DEFAULT_IN_FLIGHT;
}

/* The frames in flight wanted now, from the property and upstream's
 * liveness; any thread. */
guint
gst_cl_histogram_wanted_in_flight (GstClHistogram *self)
{
  guint n;

  GST_OBJECT_LOCK (self);
  n = in_flight_for (self->max_frames_in_flight, self->upstream_live);
  GST_OBJECT_UNLOCK (self);
  return n;
}

/* Gives the engine the frames in flight wanted now; only with nothing
 * pending, which the engine requires. */
void
gst_cl_histogram_apply_in_flight (GstClHistogram *self)
{
  const guint n = gst_cl_histogram_wanted_in_flight (self);
  GError *err = NULL;

  if (n == self->in_flight)
    return;
  if (!clh_engine_set_max_in_flight (self->engine, n, &err)) {
    GST_WARNING_OBJECT (self, "keeping %u frames in flight: %s",
        self->in_flight, err->message);
    g_clear_error (&err);
    return;
  }
  GST_DEBUG_OBJECT (self, "%u frames in flight (was %u)", n, self->in_flight);
  self->in_flight = n;
}

/* Whether upstream is live, for the automatic frames in flight; unknown
 * counts as live, which keeps one frame in flight as before. */
gboolean
gst_cl_histogram_query_upstream_live (GstClHistogram *self)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = TRUE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  else
    GST_DEBUG_OBJECT (self, "upstream answered no latency query");
  gst_query_unref (query);
  return live;
}
