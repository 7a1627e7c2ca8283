/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* histogramoverlay's zone grid: each zone's histogram (clhistogram's
 * `zones`) judged by its clipped shares, and drawn over the frame as a
 * rectangle in the colour of its state. */
#pragma once

#include <gst/clhistogram/clhistogram.h>

#include "gstcloverlaytext.h"

G_BEGIN_DECLS

typedef enum {
  /* The zone's statistics hold no clipped counts: it is not drawn. */
  GST_CL_OVERLAY_ZONE_UNKNOWN = -1,
  GST_CL_OVERLAY_ZONE_OK = 0,
  GST_CL_OVERLAY_ZONE_CRUSHED = 1 << 0,
  GST_CL_OVERLAY_ZONE_CLIPPED = 1 << 1,
  GST_CL_OVERLAY_ZONE_CLIPPED_AND_CRUSHED = (1 << 0) | (1 << 1),
} GstClOverlayZoneState;

typedef struct {
  /* Opacity of the grid over the video, 0..1. */
  gdouble alpha;
  /* A zone clips when this share of its samples or more (percent) is
   * clipped high, in any channel of levels; crushed likewise, low. */
  gdouble clipped;
  gdouble crushed;
  /* Each zone's shares written in it, but where they would touch the
   * rectangle @avoid (x, y, width, height: the graph's box; width 0 for
   * none). */
  gboolean labels;
  gint64 avoid[4];
} GstClOverlayZoneStyle;

GstClOverlayZoneState gst_cl_overlay_zone_state (GstHistogramMeta *meta,
    const GstClOverlayZoneStyle *style, gdouble *low_percent,
    gdouble *high_percent);

gboolean gst_cl_overlay_zones_any (GstBuffer *buffer);

void gst_cl_overlay_zones_draw (GstVideoFrame *frame, GstClOverlayText *text,
    const GstClOverlayZoneStyle *style);

G_END_DECLS
