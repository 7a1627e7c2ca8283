/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* From what the engine counted for a frame to what its meta and message
 * give: the bins asked for and, for the 1-D modes, the statistics. */
#pragma once

#include "gstclhistogramrequest.h"

G_BEGIN_DECLS

/* A frame's histograms and their statistics (CLH_MAX_CHANNELS per
 * histogram), in memory kept from frame to frame and grown as needed. */
typedef struct {
  ClhHistogram *histograms;
  guint histograms_size;
  guint32 *counts;
  gsize counts_size;
  ClhStats *stats;
  guint stats_size;
} GstClHistogramSet;

ClhHistogram *gst_cl_histogram_set_prepare (GstClHistogramSet *set,
    const ClhHistogramSpec *spec, guint n);
ClhStats *gst_cl_histogram_set_prepare_stats (GstClHistogramSet *set,
    guint n);
void gst_cl_histogram_set_clear (GstClHistogramSet *set);
const ClhHistogram *gst_cl_histogram_read_values (
    const GstClHistogramRequest *request, GstClHistogramSet *set,
    const ClhHistogram *values, guint n, const ClhStats **stats);

G_END_DECLS
