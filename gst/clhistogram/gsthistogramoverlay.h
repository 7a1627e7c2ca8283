/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS

#define GST_TYPE_HISTOGRAM_OVERLAY (gst_histogram_overlay_get_type ())
G_DECLARE_FINAL_TYPE (GstHistogramOverlay, gst_histogram_overlay, GST,
    HISTOGRAM_OVERLAY, GstVideoFilter)

/* Where and how the graph is drawn. */
typedef struct {
  gint x;
  gint y;
  gint width;
  gint height;
  gdouble alpha;
  gboolean log_scale;
} GstHistogramOverlaySettings;

struct _GstHistogramOverlay {
  GstVideoFilter parent;

  /* Under the object lock: the properties as set, which get_property
   * reads, and as applied, which frames read: dispatch_properties_changed
   * copies them whole once a g_object_set() (or a controller's update of
   * every controlled property) has stored them all. */
  GstHistogramOverlaySettings settings;
  GstHistogramOverlaySettings applied;

  /* Streaming thread: the properties as prepare_output_buffer found them
   * for the frame under way, and whether that frame is drawn on; the
   * frame is drawn with them, whatever changes meanwhile. */
  GstHistogramOverlaySettings frame_settings;
  gboolean drawing;
  /* Skipped histograms already logged once (streaming thread). */
  gboolean logged_dims;
  gboolean logged_channels;
};

GST_ELEMENT_REGISTER_DECLARE (histogramoverlay);

G_END_DECLS
