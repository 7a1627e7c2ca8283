/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pixel side of histogramoverlay: a histogram laid out as a bar graph,
 * rectangles, lines and text masks, blended into the components of an
 * 8-bit video frame. No GObject, no element state: the element hands in
 * counts, colours and the rectangles. */
#pragma once

#include <gst/video/video.h>

G_BEGIN_DECLS

/* An RGB colour in a frame's terms (the caps' matrix and range), and
 * the part of the frame that rectangles and masks may be drawn in. */
typedef struct {
  gboolean rgb;
  gdouble kr;
  gdouble kb;
  gint offset[GST_VIDEO_MAX_COMPONENTS];
  gint scale[GST_VIDEO_MAX_COMPONENTS];
  /* The frame, or a part of it (gst_cl_overlay_painter_clip()); empty
   * when w or h is 0. */
  GstVideoRectangle clip;
} GstClOverlayPainter;

/* A coverage mask (cairo's A8 image: 0 nothing, 255 full), @width x
 * @height, rows @stride bytes apart. */
typedef struct {
  const guint8 *data;
  gint stride;
  gint width;
  gint height;
} GstClOverlayMask;

/* Channels of one graph; a meta with more has the rest left out. */
#define GST_CL_OVERLAY_MAX_CHANNELS 8

typedef struct {
  /* n_bins counts of the graph, bin 0 first. */
  const guint32 *counts;
  /* The bars' colour, as RGB. */
  guint8 rgb[3];
  /* Paint each column in the hue of its place along the axis instead
   * (a hue histogram shows the colours it counts). */
  gboolean hue;
  /* The channel's largest bin takes part in the scale; one that does not
   * (an opaque frame's alpha: all pixels in one bin) is clipped to the
   * box. */
  gboolean sets_scale;
} GstClOverlayDrawChannel;

typedef struct {
  /* The graph's rectangle in pixels of the frame; it may overhang the
   * frame, and only its part inside is drawn. */
  gint64 x;
  gint64 y;
  gint64 width;
  gint64 height;
  /* Opacity of the bars over the video, 0..1; the background box has
   * three quarters of it. */
  gdouble alpha;
  /* Bar heights by log (1 + count) instead of count. */
  gboolean log_scale;
  guint n_bins;
  guint n_channels;
  GstClOverlayDrawChannel channels[GST_CL_OVERLAY_MAX_CHANNELS];
} GstClOverlayGraph;

gboolean gst_cl_overlay_draw_clip (gint64 x, gint64 y, gint64 width,
    gint64 height, gint frame_width, gint frame_height,
    GstVideoRectangle *visible);

void gst_cl_overlay_draw_graph (GstVideoFrame *frame,
    const GstClOverlayGraph *graph);
guint64 gst_cl_overlay_draw_graph_scale (const GstClOverlayGraph *graph);
gint64 gst_cl_overlay_draw_graph_height (const GstClOverlayGraph *graph,
    guint64 scale_max, gint64 column);

void gst_cl_overlay_painter_init (GstClOverlayPainter *painter,
    const GstVideoInfo *info);
void gst_cl_overlay_painter_clip (GstClOverlayPainter *painter, gint64 x,
    gint64 y, gint64 width, gint64 height);

guint gst_cl_overlay_draw_opacity (gdouble alpha);

gint gst_cl_overlay_draw_chroma_block (const GstVideoFrame *frame);

void gst_cl_overlay_draw_rect (GstVideoFrame *frame,
    const GstClOverlayPainter *painter, gint64 x, gint64 y, gint64 width,
    gint64 height, const guint8 rgb[3], guint opacity);

void gst_cl_overlay_draw_mask (GstVideoFrame *frame,
    const GstClOverlayPainter *painter, gint64 x, gint64 y,
    const GstClOverlayMask *mask, const guint8 rgb[3], guint opacity);

G_END_DECLS
