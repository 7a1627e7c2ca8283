/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which rectangles clhistogram counts in a frame besides the whole frame:
 * the `zones` grid, the fixed `regions`, the buffer's
 * GstVideoRegionOfInterestMeta and (built with GStreamer's analytics
 * library) its GstAnalyticsODMtd boxes, in that order; and the two
 * properties' values. */
#pragma once

#include <gst/video/video.h>

#include "clh-frame.h"

G_BEGIN_DECLS

/* Zones across or down: a 64 x 64 grid is CLH_MAX_REGIONS zones. */
#define GST_CL_HISTOGRAM_MAX_ZONES 64

/* One histogram of a frame besides the whole frame's: its region type
 * ("zone", "region", the ROI meta's type or the box's label; static or
 * interned), id, and rectangle, clipped to the counted frame. A zone also
 * has its place in the grid, @row and @column (0 at the top and at the
 * left), and its name there, @position (clh_zone_position()); other
 * regions have an empty @position. */
typedef struct {
  const gchar *type;
  gint id;
  ClhRect rect;
  guint row;
  guint column;
  gchar position[CLH_ZONE_POSITION_SIZE];
} GstClHistogramRegion;

/* What the element remembers between frames: which zones and fixed
 * regions were already reported outside the frame (one byte each, zones
 * first), and whether too many ROI metas were. Guarded by the element's
 * object lock. */
typedef struct {
  GByteArray *outside_reported;
  gboolean too_many_reported;
} GstClRegionReports;

GArray *gst_cl_histogram_rects_from_value (const GValue *value,
    GError **error);
void gst_cl_histogram_rects_to_value (const GArray *rects, GValue *value);
gboolean gst_cl_histogram_parse_zones (const gchar *text, guint *cols,
    guint *rows, GError **error);

GArray *gst_cl_histogram_frame_regions (GstElement *element,
    GstClRegionReports *reports, guint zone_cols, guint zone_rows,
    const GArray *fixed, gboolean roi_meta, GstBuffer *buffer, guint width,
    guint height, guint max_regions);

G_END_DECLS
