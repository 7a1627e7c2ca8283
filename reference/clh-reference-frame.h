/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The golden reference applied to a GStreamer buffer: the oracle's own
 * format table places the planes' samples, the reference counts them. */
#pragma once

#include <gst/video/video.h>

#include "clh-reference.h"
#include "clh-reference-layout.h"
#include "clh-reference-marks.h"
#include "clh-reference-stats.h"

G_BEGIN_DECLS

gboolean clh_reference_histogram_of_buffer (const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, guint bins, guint range_min,
    gint range_max, ClhHistogramSpec *spec, ClhHistogram *histogram);
gboolean clh_reference_histogram_of_buffer_region (const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, guint bins, guint range_min,
    gint range_max, const ClhRect *region, ClhHistogramSpec *spec,
    ClhHistogram *histogram);

gboolean clh_reference_stats_of_buffer_region (const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, const ClhRect *region,
    const gdouble *ps, guint n_ps, ClhStats *stats);
gboolean clh_reference_stats_of_buffer_region_clipped (
    const GstVideoInfo *info, GstBuffer *buffer, const gchar *mode,
    const ClhRect *region, gdouble clip_low_percent,
    gdouble clip_high_percent, const gdouble *ps, guint n_ps,
    ClhStats *stats);

GstBuffer *clh_reference_marks_of_buffer (const GstVideoInfo *info,
    GstBuffer *buffer, const ClhMarksSpec *spec);

G_END_DECLS
