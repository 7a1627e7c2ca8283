/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `metering` property: a weighted mean luma of the frame, read off
 * the statistics of the full frame and of the zones, as a camera's
 * auto-exposure weighs its zones. */
#pragma once

#include <gst/gst.h>

#include "gstclhistogramrequest.h"

G_BEGIN_DECLS

/**
 * GstClHistogramMetering:
 * @GST_CL_HISTOGRAM_METERING_NONE: no metering value
 * @GST_CL_HISTOGRAM_METERING_AVERAGE: the mean luma of the frame
 * @GST_CL_HISTOGRAM_METERING_CENTRE_WEIGHTED: the zones weighted by a tent
 *   that peaks at the frame's centre
 * @GST_CL_HISTOGRAM_METERING_SPOT: the zone or zones at the frame's
 *   centre
 * @GST_CL_HISTOGRAM_METERING_ZONES: the zones weighted by the
 *   `metering-weights` property
 *
 * How `clhistogram` weighs the frame for its metering value.
 */
typedef enum {
  GST_CL_HISTOGRAM_METERING_NONE,
  GST_CL_HISTOGRAM_METERING_AVERAGE,
  GST_CL_HISTOGRAM_METERING_CENTRE_WEIGHTED,
  GST_CL_HISTOGRAM_METERING_SPOT,
  GST_CL_HISTOGRAM_METERING_ZONES,
} GstClHistogramMetering;

GType gst_cl_histogram_metering_get_type (void);
#define GST_TYPE_CL_HISTOGRAM_METERING (gst_cl_histogram_metering_get_type ())

/* The most metering weights: one per zone of the largest grid. */
#define GST_CL_HISTOGRAM_MAX_METERING_WEIGHTS (64 * 64)

gdouble gst_cl_histogram_metering_zone_weight (
    GstClHistogramMetering metering, guint cols, guint rows, guint id);
gboolean gst_cl_histogram_meter (const GstClHistogramRequest *request,
    const GArray *regions, const ClhStats *stats, gdouble *value,
    gdouble *percent, GError **error);

G_END_DECLS
