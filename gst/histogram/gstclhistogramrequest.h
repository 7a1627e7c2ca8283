/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What clhistogram counts in a frame: the negotiated format as the engine
 * reads it, and the properties as a histogram request. */
#pragma once

#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-frame.h"
#include "clh-stats.h"

G_BEGIN_DECLS

/* The counting properties, read under the object lock once per frame. */
typedef struct {
  GstHistogramMode mode;
  guint bins;
  gboolean bins_set;
  guint range_min;
  gint range_max;
  guint min_saturation;
  guint min_value;
  gboolean post_messages;
  gboolean attach_meta;
  /* Whether messages carry `counts`; the metas always do. */
  gboolean message_counts;
  gboolean full_frame;
  gboolean roi_meta;
  guint zone_cols;
  guint zone_rows;
  gboolean statistics;
  guint n_percentiles;
  gdouble percentiles[CLH_MAX_PERCENTILES];
  /* The clip levels, in percent of each channel's nominal range. */
  gdouble clip_low_level;
  gdouble clip_high_level;
  /* Running time a message sums, ns; 0: one message per frame. */
  guint64 interval;
  /* The fixed regions (ClhRect), replaced whole when the property changes
   * and shared with the requests of frames in flight; NULL: none. */
  GArray *regions;
  /* The `metering` mode (GstClHistogramMetering) and, for its zones mode,
   * a weight per zone (gdouble), shared as @regions are; NULL: none. */
  guint metering;
  GArray *metering_weights;
  /* Exposure alerts: the clipped and crushed shares that start one
   * (percent of an area's samples, 0: off), the hysteresis (percentage
   * points) and the hold (ns of running time). */
  gdouble alert_clipped;
  gdouble alert_crushed;
  gdouble alert_hysteresis;
  guint64 alert_hold;
} GstClHistogramSettings;

/* What one frame is counted with, and what its meta and message say of
 * it: the settings when it came (holding a reference on their fixed
 * regions), the histogram asked for, the channels' names, the counted
 * rectangle's size and samples, and once the frame is mapped its regions
 * (GstClHistogramRegion, in the message's order).
 *
 * With statistics, @count is the value histogram (one bin per sample
 * value) that they and @spec's bins are read from; without, @count is
 * @spec. */
typedef struct {
  GstClHistogramSettings settings;
  GArray *regions;
  ClhHistogramSpec spec;
  ClhHistogramSpec count;
  gboolean statistics;
  gboolean legal;
  ClhStatsSpec stats[CLH_MAX_CHANNELS];
  const gchar *const *channel_names;
  guint width;
  guint height;
  guint depth;
  GstVideoColorRange video_range;
} GstClHistogramRequest;

guint gst_cl_histogram_settings_bins (const GstClHistogramSettings *settings);
void gst_cl_histogram_settings_ref_arrays (GstClHistogramSettings *settings);
void gst_cl_histogram_settings_clear (GstClHistogramSettings *settings);
gboolean gst_cl_histogram_request_init (GstClHistogramRequest *request,
    const GstClHistogramSettings *settings, const GstVideoInfo *info,
    const ClhFrame *format, GError **error);
void gst_cl_histogram_request_clear (GstClHistogramRequest *request);
guint gst_cl_histogram_request_n_histograms (
    const GstClHistogramRequest *request);
guint gst_cl_histogram_request_max_regions (
    const GstClHistogramRequest *request);

G_END_DECLS
