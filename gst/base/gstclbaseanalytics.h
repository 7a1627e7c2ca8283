/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GStreamer's analytics metadata (GstAnalyticsRelationMeta, GStreamer 1.24
 * and later) for the plugin's elements: the object-detection boxes of a
 * frame, read as clhistogram's regions and as clcamshift's track starts,
 * and clcamshift's tracks written as object-detection and tracking mtds.
 * Built only where meson finds gstreamer-analytics-1.0, which then
 * defines HAVE_GST_ANALYTICS. */
#pragma once

#include <gst/gst.h>

#include "clh-track.h"

G_BEGIN_DECLS

/* One GstAnalyticsODMtd of a frame: its label, the id that names it (the
 * tracking id of the GstAnalyticsTrackingMtd it relates to, or else its
 * own mtd id) and its axis-aligned rectangle (pixels, as the frame's
 * producer gave it: untrusted, any size and sign). */
typedef struct {
  GQuark label;
  guint64 id;
  ClhRect rect;
} GstClAnalyticsBox;

/* What a tracker knows of one track on a frame, for its mtds. */
typedef struct {
  guint id;
  /* The box found on this frame (all zero when lost). */
  ClhRotatedBox box;
  gboolean lost;
  /* Running times (ns) of the track's first frame and of the last frame
   * it was found on; GST_CLOCK_TIME_NONE when unknown. */
  GstClockTime first_seen;
  GstClockTime last_seen;
  /* The box's location confidence, [0, 1]. */
  gfloat confidence;
} GstClAnalyticsTrack;

GArray *gst_cl_analytics_boxes (GstBuffer *buffer, GQuark label);
gboolean gst_cl_analytics_add_track (GstBuffer *buffer, GQuark label,
    const GstClAnalyticsTrack *track);

G_END_DECLS
