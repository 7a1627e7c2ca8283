/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* histogramoverlay's panel: a frame's histogram as an operator reads it,
 * the bar graph with its value graticule, the legal marks of the
 * stream's range, a legend, the clipped shares and the clip indicators
 * beside the bars, laid out in a box of the frame. */
#pragma once

#include <gst/clhistogram/clhistogram.h>

#include "gstcloverlaytext.h"

G_BEGIN_DECLS

/* What the graticule's lines and labels mark along the value axis. */
typedef enum {
  GST_CL_OVERLAY_GRATICULE_NONE,
  GST_CL_OVERLAY_GRATICULE_CODES,
  GST_CL_OVERLAY_GRATICULE_IRE,
} GstClOverlayGraticule;

typedef struct {
  /* The box in pixels of the frame; it may overhang the frame, and only
   * its part inside is drawn. */
  gint64 x;
  gint64 y;
  gint64 width;
  gint64 height;
  /* Opacity of the bars over the video, 0..1. */
  gdouble alpha;
  gboolean log_scale;
  GstClOverlayGraticule graticule;
  /* Marks at nominal black and white, when the stream is limited range. */
  gboolean legal_marks;
  /* The stream's range is limited (16-235), from its caps. */
  gboolean limited;
  gboolean legend;
  gboolean clipping_text;
  /* A lamp and a gauge of the clipped shares at each end of the axis,
   * beside the bars, when the meta's statistics hold them. */
  gboolean clip_indicators;
} GstClOverlayPanel;

/* The panel's parts, in pixels of the frame: the plot (the bars' box),
 * the bands above (legend) and below it (graticule labels) and the clip
 * indicators at its sides. */
typedef struct {
  gint64 plot_x;
  gint64 plot_y;
  gint64 plot_width;
  gint64 plot_height;
  /* Each clip indicator's width, and the columns between it and the
   * plot; 0 when there are none (the plot is the box's width). */
  gint64 clip_width;
  gint64 clip_gap;
  /* The font's size and a line's height; 0 when the box is too small for
   * text, which is then left out. */
  guint font_size;
  gint line_height;
  gboolean top_band;
  gboolean bottom_band;
} GstClOverlayPanelLayout;

void gst_cl_overlay_panel_layout (const GstClOverlayPanel *panel,
    GstClOverlayText *text, GstClOverlayPanelLayout *layout);

void gst_cl_overlay_panel_layout_indicators (const GstClOverlayPanel *panel,
    GstClOverlayPanelLayout *layout);

gint64 gst_cl_overlay_panel_value_column (guint value, guint range_min,
    guint range_max, gint64 width);

void gst_cl_overlay_panel_draw (GstVideoFrame *frame, GstClOverlayText *text,
    const GstClOverlayPanel *panel, GstHistogramMeta *meta);

G_END_DECLS
