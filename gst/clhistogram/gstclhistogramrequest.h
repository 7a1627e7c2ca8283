/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What clhistogram counts in a frame: the negotiated format as the engine
 * reads it, and the properties as a histogram request. */
#pragma once

#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-frame.h"

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
} GstClHistogramSettings;

/* What one frame is counted with, and what its meta and message say of
 * it: the settings when it came, the engine's request, the channels'
 * names, and the counted rectangle's size and samples. */
typedef struct {
  GstClHistogramSettings settings;
  ClhHistogramSpec spec;
  const gchar *const *channel_names;
  guint width;
  guint height;
  guint depth;
  GstVideoColorRange video_range;
} GstClHistogramRequest;

gboolean gst_cl_histogram_frame_format (const GstVideoInfo *info,
    ClhFrame *format);
guint gst_cl_histogram_settings_bins (const GstClHistogramSettings *settings);
gboolean gst_cl_histogram_request_init (GstClHistogramRequest *request,
    const GstClHistogramSettings *settings, const GstVideoInfo *info,
    const ClhFrame *format, GError **error);

G_END_DECLS
