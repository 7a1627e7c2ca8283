/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "gstcloverlaypanel.h"
#include "gstcloverlaytext.h"

G_BEGIN_DECLS

/* The frame's corner the box sits in, unless placed in pixels. */
typedef enum {
  GST_CL_HISTOGRAM_OVERLAY_CORNER_TOP_LEFT,
  GST_CL_HISTOGRAM_OVERLAY_CORNER_TOP_RIGHT,
  GST_CL_HISTOGRAM_OVERLAY_CORNER_BOTTOM_LEFT,
  GST_CL_HISTOGRAM_OVERLAY_CORNER_BOTTOM_RIGHT,
} GstClHistogramOverlayCorner;

GType gst_cl_histogram_overlay_corner_get_type (void);
#define GST_TYPE_CL_HISTOGRAM_OVERLAY_CORNER \
  (gst_cl_histogram_overlay_corner_get_type ())
GType gst_cl_histogram_overlay_graticule_get_type (void);
#define GST_TYPE_CL_HISTOGRAM_OVERLAY_GRATICULE \
  (gst_cl_histogram_overlay_graticule_get_type ())

#define GST_TYPE_CL_HISTOGRAM_OVERLAY (gst_cl_histogram_overlay_get_type ())
G_DECLARE_FINAL_TYPE (GstClHistogramOverlay, gst_cl_histogram_overlay, GST,
    CL_HISTOGRAM_OVERLAY, GstVideoFilter)

/* Where and how the graph and the zones are drawn. */
typedef struct {
  gint x;
  gint y;
  gint width;
  gint height;
  /* Placed by x, y, width and height (one of them set last) rather than
   * by size and corner. */
  gboolean in_pixels;
  gdouble size;
  GstClHistogramOverlayCorner corner;
  gdouble alpha;
  gboolean log_scale;
  GstClOverlayGraticule graticule;
  gboolean legal_marks;
  gboolean legend;
  gboolean clipping_text;
  gboolean clip_indicators;
  gboolean zones;
  gdouble zone_clipped;
  gdouble zone_crushed;
  gboolean zone_labels;
} GstClHistogramOverlaySettings;

struct _GstClHistogramOverlay {
  GstVideoFilter parent;

  /* Under the object lock: the properties as set, which get_property
   * reads, and as applied, which frames read: dispatch_properties_changed
   * copies them whole once a g_object_set() (or a controller's update of
   * every controlled property) has stored them all. */
  GstClHistogramOverlaySettings settings;
  GstClHistogramOverlaySettings applied;

  /* Streaming thread: the properties as prepare_output_buffer found them
   * for the frame under way, and whether that frame is drawn on; the
   * frame is drawn with them, whatever changes meanwhile. */
  GstClHistogramOverlaySettings frame_settings;
  gboolean drawing;
  /* Skipped histograms already logged once (streaming thread). */
  gboolean logged_dims;
  gboolean logged_channels;
  gboolean logged_text;
  /* The labels' renderer, from start to stop (streaming thread). */
  GstClOverlayText *text;
};

GST_ELEMENT_REGISTER_DECLARE (histogramoverlay);

G_END_DECLS
