/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What clhistogram hands on for a counted frame: the `histogram` message
 * and the GstHistogramMeta. */
#pragma once

#include "gstclhistogramalert.h"
#include "gstclhistogramregions.h"
#include "gstclhistogramrequest.h"

G_BEGIN_DECLS

/* A frame's metering value (gstclhistogrammetering.h), if it has one:
 * luma code values and percent of the nominal range. */
typedef struct {
  gboolean known;
  gdouble value;
  gdouble percent;
} GstClMeteringValue;

/* What one `histogram` message reports, of one frame or of the frames of
 * an interval, counted as a request says: the times (ns), the frames
 * summed (0: one frame's message, without a `frames` field), the pixels
 * of the full frame and of each region (NULL: each region's rectangle),
 * the regions (GstClHistogramRegion), and the histograms in the request's
 * bins, the full frame's first if counted, with their statistics
 * (CLH_MAX_CHANNELS per histogram; NULL without). */
typedef struct {
  GstClockTime timestamp;
  GstClockTime stream_time;
  GstClockTime running_time;
  GstClockTime duration;
  guint frames;
  guint64 pixels;
  const GArray *regions;
  const guint64 *region_pixels;
  const ClhHistogram *histograms;
  const ClhStats *stats;
  GstClMeteringValue metering;
} GstClHistogramReport;

/* One `exposure` message: alerts of one kind that started (or cleared)
 * on a frame, with the frame's times (ns), the areas (GstClExposureArea)
 * and, after the change, the ids of the areas whose alert is on (gint),
 * and the alert's threshold (percent). The zones' ids of @areas are of a
 * grid of @zone_cols x @zone_rows, those of @active of @active_cols x
 * @active_rows: alerts that cleared because the grid changed are of the
 * grid before. */
typedef struct {
  GstClockTime timestamp;
  GstClockTime stream_time;
  GstClockTime running_time;
  GstClExposureKind kind;
  gboolean started;
  const GArray *areas;
  const GArray *active;
  gdouble threshold;
  guint zone_cols;
  guint zone_rows;
  guint active_cols;
  guint active_rows;
} GstClExposureReport;

GstMessage *gst_cl_histogram_message_new (GstObject *src,
    const GstClHistogramRequest *request,
    const GstClHistogramReport *report);
GstMessage *gst_cl_exposure_message_new (GstObject *src,
    const GstClExposureReport *report);
void gst_cl_histogram_attach_metas (GstBuffer *buffer,
    const GstClHistogramRequest *request, const ClhHistogram *histograms,
    const ClhStats *stats, const GstClMeteringValue *metering);

G_END_DECLS
