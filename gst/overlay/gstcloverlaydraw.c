/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcloverlaydraw.h"

#include <math.h>

/* The background box's opacity as a share of the bars': dark enough to
 * read white bars over a bright frame, light enough to see the video
 * behind. */
#define BACKGROUND_SHARE 0.75

/* What one run of rows gets: a value per colour component, in the
 * format's component order (R, G, B or Y, U, V), and an opacity. */
typedef struct {
  guint8 value[3];
  guint opacity;
} Paint;

typedef GstClOverlayPainter Painter;

/**
 * gst_cl_overlay_painter_init:
 * @painter: (out): the colours' terms
 * @info: the frame's caps
 *
 * Takes the caps' matrix and range, which an RGB colour is converted with
 * before it is blended into a YUV or gray frame, and lets the whole frame
 * be drawn in.
 */
void
gst_cl_overlay_painter_init (GstClOverlayPainter *painter,
    const GstVideoInfo *info)
{
  painter->rgb = GST_VIDEO_INFO_IS_RGB (info);
  /* Colours land where the frame's own matrix puts them; a frame that
   * names none (gray, unknown) is taken as BT.601, as SD video is. */
  if (!gst_video_color_matrix_get_Kr_Kb (info->colorimetry.matrix,
          &painter->kr, &painter->kb))
    gst_video_color_matrix_get_Kr_Kb (GST_VIDEO_COLOR_MATRIX_BT601,
        &painter->kr, &painter->kb);
  gst_video_color_range_offsets (info->colorimetry.range, info->finfo,
      painter->offset, painter->scale);
  painter->clip.x = 0;
  painter->clip.y = 0;
  painter->clip.w = GST_VIDEO_INFO_WIDTH (info);
  painter->clip.h = GST_VIDEO_INFO_HEIGHT (info);
}

/**
 * gst_cl_overlay_painter_clip:
 * @painter: the colours' terms
 * @x: the left edge of a rectangle, in pixels of the frame
 * @y: its top edge
 * @width: its width
 * @height: its height
 *
 * Narrows the part of the frame that rectangles and masks are drawn in
 * to its intersection with the rectangle, so that nothing drawn through
 * @painter strays out of it.
 */
void
gst_cl_overlay_painter_clip (GstClOverlayPainter *painter, gint64 x,
    gint64 y, gint64 width, gint64 height)
{
  GstVideoRectangle *clip = &painter->clip;
  GstVideoRectangle inside;

  if (!gst_cl_overlay_draw_clip (x - clip->x, y - clip->y, width, height,
          clip->w, clip->h, &inside)) {
    clip->w = clip->h = 0;
    return;
  }
  clip->x += inside.x;
  clip->y += inside.y;
  clip->w = inside.w;
  clip->h = inside.h;
}

static guint8
round_to_byte (gdouble v)
{
  v = floor (v + 0.5);
  return (guint8) CLAMP (v, 0.0, 255.0);
}

static void
paint_from_rgb (const Painter *painter, const guint8 rgb[3], guint opacity,
    Paint *paint)
{
  gdouble r, g, b, y;

  paint->opacity = opacity;
  if (painter->rgb) {
    paint->value[0] = rgb[0];
    paint->value[1] = rgb[1];
    paint->value[2] = rgb[2];
    return;
  }
  r = rgb[0] / 255.0;
  g = rgb[1] / 255.0;
  b = rgb[2] / 255.0;
  y = painter->kr * r + (1.0 - painter->kr - painter->kb) * g
      + painter->kb * b;
  paint->value[0] = round_to_byte (painter->offset[0] + painter->scale[0] * y);
  paint->value[1] = round_to_byte (painter->offset[1]
      + painter->scale[1] * (b - y) / (2.0 * (1.0 - painter->kb)));
  paint->value[2] = round_to_byte (painter->offset[2]
      + painter->scale[2] * (r - y) / (2.0 * (1.0 - painter->kr)));
}

static inline guint8
blend (guint8 under, guint8 over, guint opacity)
{
  return (under * (255 - opacity) + over * opacity + 127) / 255;
}

/* Paints the rows [row0, row1) of the frame's column @px. A subsampled
 * sample takes the colour of the pixel it is co-sited with (its block's
 * top-left), as clhistogram assigns samples to regions: the samples of
 * pixels outside the rectangle are never written. */
static void
paint_column (GstVideoFrame *frame, gint px, gint row0, gint row1,
    const Paint *paint)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint comp;

  if (paint->opacity == 0 || row0 >= row1)
    return;
  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (frame); comp++) {
    gint w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp);
    gint h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp);
    gint step = 1 << h_sub;
    gssize stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, comp);
    guint8 *column;
    gint py;

    if (px & ((1 << w_sub) - 1))
      continue;
    column = (guint8 *) GST_VIDEO_FRAME_COMP_DATA (frame, comp)
        + (gssize) (px >> w_sub) * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp);
    for (py = GST_ROUND_UP_N (row0, step); py < row1; py += step) {
      guint8 *sample = column + (gssize) (py >> h_sub) * stride;

      /* The graph is opaque where it is drawn: over a transparent frame
       * it still shows, as it would composited over black. */
      if (comp == GST_VIDEO_COMP_A)
        *sample = *sample + ((255 - *sample) * paint->opacity + 127) / 255;
      else
        *sample = blend (*sample, paint->value[comp], paint->opacity);
    }
  }
}

static inline void
paint_sample (guint8 *sample, guint comp, const Paint *paint, guint opacity)
{
  /* The overlay is opaque where it is drawn: over a transparent frame it
   * still shows, as it would composited over black. */
  if (comp == GST_VIDEO_COMP_A)
    *sample = *sample + ((255 - *sample) * opacity + 127) / 255;
  else
    *sample = blend (*sample, paint->value[comp], opacity);
}

/* Paints the pixels [x0, x1) x [y0, y1), inside the frame, each at the
 * paint's opacity scaled by @mask's coverage where a mask is given (its
 * top-left at @mask_x, @mask_y, covering the area). A subsampled sample
 * takes the coverage of the pixel it is co-sited with, as paint_column
 * does. */
static void
paint_area (GstVideoFrame *frame, const Paint *paint, gint x0, gint y0,
    gint x1, gint y1, const GstClOverlayMask *mask, gint64 mask_x,
    gint64 mask_y)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint comp;

  if (paint->opacity == 0 || x0 >= x1 || y0 >= y1)
    return;
  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (frame); comp++) {
    gint w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp);
    gint h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp);
    gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp);
    gssize stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, comp);
    guint8 *data = GST_VIDEO_FRAME_COMP_DATA (frame, comp);
    gint py;

    for (py = GST_ROUND_UP_N (y0, 1 << h_sub); py < y1; py += 1 << h_sub) {
      guint8 *row = data + (gssize) (py >> h_sub) * stride;
      const guint8 *cover = mask ? mask->data + (gssize) (py - mask_y)
          * mask->stride : NULL;
      gint px;

      for (px = GST_ROUND_UP_N (x0, 1 << w_sub); px < x1; px += 1 << w_sub) {
        guint opacity = paint->opacity;

        if (cover) {
          guint coverage = cover[px - mask_x];

          if (coverage == 0)
            continue;
          opacity = (coverage * opacity + 127) / 255;
        }
        paint_sample (row + (gssize) (px >> w_sub) * pstride, comp, paint,
            opacity);
      }
    }
  }
}

/**
 * gst_cl_overlay_draw_opacity:
 * @alpha: an opacity, 0..1 (clamped)
 *
 * Returns: @alpha in the 0..255 steps the blending uses, rounded
 */
guint
gst_cl_overlay_draw_opacity (gdouble alpha)
{
  return round_to_byte (CLAMP (alpha, 0.0, 1.0) * 255.0);
}

/**
 * gst_cl_overlay_draw_chroma_block:
 * @frame: a frame
 *
 * Returns: the larger side in pixels of the frame's chroma blocks (the
 *   pixels one chroma sample stands for): 1 for RGB, gray and 4:4:4, 2 for
 *   4:2:2 and 4:2:0, 4 for 4:1:1 and 4:1:0
 */
gint
gst_cl_overlay_draw_chroma_block (const GstVideoFrame *frame)
{
  guint sub = 0;
  guint comp;

  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (frame); comp++) {
    sub = MAX (sub, GST_VIDEO_FORMAT_INFO_W_SUB (frame->info.finfo, comp));
    sub = MAX (sub, GST_VIDEO_FORMAT_INFO_H_SUB (frame->info.finfo, comp));
  }
  return 1 << sub;
}

/**
 * gst_cl_overlay_draw_rect:
 * @frame: a frame of 8-bit components, mapped for writing
 * @painter: the frame's colour terms (gst_cl_overlay_painter_init())
 * @x: the rectangle's left edge, in pixels of the frame
 * @y: its top edge
 * @width: its width
 * @height: its height
 * @rgb: the colour, as RGB
 * @opacity: its opacity over the frame, 0..255
 *
 * Blends @rgb into the part of the rectangle inside @painter's clip (by
 * default the frame).
 */
void
gst_cl_overlay_draw_rect (GstVideoFrame *frame,
    const GstClOverlayPainter *painter, gint64 x, gint64 y, gint64 width,
    gint64 height, const guint8 rgb[3], guint opacity)
{
  GstVideoRectangle visible;
  Paint paint;

  if (!gst_cl_overlay_draw_clip (x - painter->clip.x, y - painter->clip.y,
          width, height, painter->clip.w, painter->clip.h, &visible))
    return;
  paint_from_rgb (painter, rgb, MIN (opacity, 255), &paint);
  paint_area (frame, &paint, painter->clip.x + visible.x,
      painter->clip.y + visible.y, painter->clip.x + visible.x + visible.w,
      painter->clip.y + visible.y + visible.h, NULL, 0, 0);
}

/**
 * gst_cl_overlay_draw_mask:
 * @frame: a frame of 8-bit components, mapped for writing
 * @painter: the frame's colour terms (gst_cl_overlay_painter_init())
 * @x: the mask's left edge, in pixels of the frame
 * @y: its top edge
 * @mask: the coverage to draw (text, as cairo renders it)
 * @rgb: the colour, as RGB
 * @opacity: the opacity of full coverage, 0..255
 *
 * Blends @rgb into the pixels of @frame under @mask, each at @opacity
 * scaled by the mask's coverage there; the part of the mask outside
 * @painter's clip (by default the frame) is left out.
 */
void
gst_cl_overlay_draw_mask (GstVideoFrame *frame,
    const GstClOverlayPainter *painter, gint64 x, gint64 y,
    const GstClOverlayMask *mask, const guint8 rgb[3], guint opacity)
{
  GstVideoRectangle visible;
  Paint paint;

  if (!mask->data || !gst_cl_overlay_draw_clip (x - painter->clip.x,
          y - painter->clip.y, mask->width, mask->height, painter->clip.w,
          painter->clip.h, &visible))
    return;
  paint_from_rgb (painter, rgb, MIN (opacity, 255), &paint);
  paint_area (frame, &paint, painter->clip.x + visible.x,
      painter->clip.y + visible.y, painter->clip.x + visible.x + visible.w,
      painter->clip.y + visible.y + visible.h, mask, x, y);
}

/**
 * gst_cl_overlay_draw_clip:
 * @x: the rectangle's left edge, in pixels of the frame
 * @y: its top edge
 * @width: its width
 * @height: its height
 * @frame_width: the frame's width
 * @frame_height: the frame's height
 * @visible: (out): the part of the rectangle inside the frame
 *
 * Returns: whether any of the rectangle lies inside the frame
 */
gboolean
gst_cl_overlay_draw_clip (gint64 x, gint64 y, gint64 width, gint64 height,
    gint frame_width, gint frame_height, GstVideoRectangle *visible)
{
  gint64 x0 = MAX (x, 0), y0 = MAX (y, 0);
  gint64 x1 = MIN (x + width, (gint64) frame_width);
  gint64 y1 = MIN (y + height, (gint64) frame_height);

  if (width <= 0 || height <= 0 || x0 >= x1 || y0 >= y1)
    return FALSE;
  visible->x = x0;
  visible->y = y0;
  visible->w = x1 - x0;
  visible->h = y1 - y0;
  return TRUE;
}

static gint64
bar_height (guint32 count, guint64 scale_max, gint64 height,
    gboolean log_scale)
{
  gint64 h;

  if (count == 0 || scale_max == 0)
    return 0;
  if (log_scale)
    h = (gint64) floor (height * log1p (count) / log1p (scale_max) + 0.5);
  else
    h = (count * (guint64) height + scale_max / 2) / scale_max;
  /* An occupied bin keeps a row however small it is against the largest:
   * a few clipped pixels at 0 or 255 stay visible. Bins over the scale (a
   * channel left out of it) stop at the top of the box. */
  return CLAMP (h, 1, height);
}

/* The fully saturated colour at @fraction (0..1) of the hue circle. */
static void
hue_to_rgb (gdouble fraction, guint8 rgb[3])
{
  gdouble sextant = fraction * 6.0;
  gint sector = (gint) floor (sextant);
  guint8 up = round_to_byte ((sextant - sector) * 255.0);
  guint8 down = 255 - up;

  switch (((sector % 6) + 6) % 6) {
    case 0:
      rgb[0] = 255, rgb[1] = up, rgb[2] = 0;
      break;
    case 1:
      rgb[0] = down, rgb[1] = 255, rgb[2] = 0;
      break;
    case 2:
      rgb[0] = 0, rgb[1] = 255, rgb[2] = up;
      break;
    case 3:
      rgb[0] = 0, rgb[1] = down, rgb[2] = 255;
      break;
    case 4:
      rgb[0] = up, rgb[1] = 0, rgb[2] = 255;
      break;
    default:
      rgb[0] = 255, rgb[1] = 0, rgb[2] = down;
      break;
  }
}

/* Each channel's bar height in the graph's column @column (counted from
 * its left edge): the tallest of the bins it shows, several when there
 * are more bins than columns, else the one bin whose bar is widened over
 * this column. */
static void
column_heights (const GstClOverlayGraph *graph, gint64 column,
    guint64 scale_max, gint64 heights[GST_CL_OVERLAY_MAX_CHANNELS])
{
  guint64 first, end;
  guint c;

  first = (guint64) column * graph->n_bins / graph->width;
  end = (guint64) (column + 1) * graph->n_bins / graph->width;
  if (end <= first)
    end = first + 1;
  for (c = 0; c < graph->n_channels; c++) {
    const guint32 *counts = graph->channels[c].counts;
    guint32 largest = 0;
    guint64 b;

    for (b = first; b < end; b++)
      largest = MAX (largest, counts[b]);
    heights[c] = bar_height (largest, scale_max, graph->height,
        graph->log_scale);
  }
}

/* Draws the graph's column @column (counted from its left edge) into the
 * frame's column @px, rows @visible_y0..@visible_y1 only. */
static void
draw_column (GstVideoFrame *frame, const GstClOverlayGraph *graph,
    const Painter *painter, gint64 column, gint px, gint visible_y0,
    gint visible_y1, guint64 scale_max, guint bar_opacity,
    const Paint *background)
{
  gint64 heights[GST_CL_OVERLAY_MAX_CHANNELS];
  gint64 levels[GST_CL_OVERLAY_MAX_CHANNELS + 2];
  guint n_levels = 0, c, k;

  column_heights (graph, column, scale_max, heights);
  levels[n_levels++] = 0;
  for (c = 0; c < graph->n_channels; c++)
    levels[n_levels++] = heights[c];
  levels[n_levels++] = graph->height;

  /* Sorted and distinct, the heights cut the column (rows counted from
   * the bottom of the box) into runs that the same channels cover. */
  for (k = 1; k < n_levels; k++) {
    gint64 level = levels[k];
    guint j = k;

    while (j > 0 && levels[j - 1] > level) {
      levels[j] = levels[j - 1];
      j--;
    }
    levels[j] = level;
  }

  for (k = 0; k + 1 < n_levels; k++) {
    gint64 low = levels[k], high = levels[k + 1];
    gint64 top, bottom;
    guint sum[3] = { 0, 0, 0 };
    gboolean covered = FALSE;
    Paint bar;

    if (high == low)
      continue;
    /* Where bars overlap their colours add, as light does: R and G show
     * yellow, R, G and B white. */
    for (c = 0; c < graph->n_channels; c++) {
      const GstClOverlayDrawChannel *channel = &graph->channels[c];
      guint8 hue[3];
      const guint8 *rgb = channel->rgb;

      if (heights[c] <= low)
        continue;
      if (channel->hue) {
        hue_to_rgb ((column + 0.5) / graph->width, hue);
        rgb = hue;
      }
      sum[0] += rgb[0];
      sum[1] += rgb[1];
      sum[2] += rgb[2];
      covered = TRUE;
    }
    if (covered) {
      guint8 rgb[3] = { MIN (sum[0], 255), MIN (sum[1], 255),
        MIN (sum[2], 255)
      };

      paint_from_rgb (painter, rgb, bar_opacity, &bar);
    }

    top = MAX (graph->y + graph->height - high, (gint64) visible_y0);
    bottom = MIN (graph->y + graph->height - low, (gint64) visible_y1);
    if (top < bottom)
      paint_column (frame, px, (gint) top, (gint) bottom,
          covered ? &bar : background);
  }
}

/**
 * gst_cl_overlay_draw_graph_scale:
 * @graph: a graph
 *
 * Returns: the count that fills the graph's height: its largest bin of
 *   the channels that set the scale (of all channels when none does)
 */
guint64
gst_cl_overlay_draw_graph_scale (const GstClOverlayGraph *graph)
{
  guint64 scale_max = 0, all_max = 0;
  gboolean any_sets_scale = FALSE;
  guint c, b;

  for (c = 0; c < graph->n_channels; c++) {
    const GstClOverlayDrawChannel *channel = &graph->channels[c];

    for (b = 0; b < graph->n_bins; b++) {
      all_max = MAX (all_max, channel->counts[b]);
      if (channel->sets_scale)
        scale_max = MAX (scale_max, channel->counts[b]);
    }
    any_sets_scale |= channel->sets_scale;
  }
  return any_sets_scale ? scale_max : all_max;
}

/**
 * gst_cl_overlay_draw_graph_height:
 * @graph: a graph
 * @scale_max: its scale (gst_cl_overlay_draw_graph_scale())
 * @column: a column, counted from the graph's left edge
 *
 * Returns: the rows from the graph's bottom that its tallest bar covers
 *   in @column, as gst_cl_overlay_draw_graph() draws it; 0 for a column
 *   outside the graph
 */
gint64
gst_cl_overlay_draw_graph_height (const GstClOverlayGraph *graph,
    guint64 scale_max, gint64 column)
{
  gint64 heights[GST_CL_OVERLAY_MAX_CHANNELS];
  gint64 tallest = 0;
  guint c;

  if (column < 0 || column >= graph->width || graph->n_bins == 0)
    return 0;
  column_heights (graph, column, scale_max, heights);
  for (c = 0; c < graph->n_channels; c++)
    tallest = MAX (tallest, heights[c]);
  return tallest;
}

/**
 * gst_cl_overlay_draw_graph:
 * @frame: a frame of 8-bit components, mapped for writing
 * @graph: what to draw and where
 *
 * Blends @graph into the part of its rectangle that lies in @frame: a box
 * of black at three quarters of the graph's opacity, and over it for each
 * column the channels' bars from the bottom up, scaled so that the largest
 * bin of the channels that set the scale fills the box's height.
 */
void
gst_cl_overlay_draw_graph (GstVideoFrame *frame, const GstClOverlayGraph *graph)
{
  static const guint8 black[3] = { 0, 0, 0 };
  GstVideoRectangle visible;
  Painter painter;
  Paint background;
  guint64 scale_max;
  guint bar_opacity, background_opacity;
  guint comp;
  gint px;

  g_return_if_fail (graph->n_channels <= GST_CL_OVERLAY_MAX_CHANNELS);
  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (frame); comp++)
    g_return_if_fail (GST_VIDEO_FORMAT_INFO_DEPTH (frame->info.finfo,
            comp) == 8);

  if (graph->n_bins == 0 || graph->n_channels == 0
      || !gst_cl_overlay_draw_clip (graph->x, graph->y, graph->width,
          graph->height, GST_VIDEO_FRAME_WIDTH (frame),
          GST_VIDEO_FRAME_HEIGHT (frame), &visible))
    return;

  scale_max = gst_cl_overlay_draw_graph_scale (graph);
  bar_opacity = gst_cl_overlay_draw_opacity (graph->alpha);
  background_opacity = round_to_byte (CLAMP (graph->alpha, 0.0, 1.0)
      * BACKGROUND_SHARE * 255.0);
  gst_cl_overlay_painter_init (&painter, &frame->info);
  paint_from_rgb (&painter, black, background_opacity, &background);

  for (px = visible.x; px < visible.x + visible.w; px++)
    draw_column (frame, graph, &painter, px - graph->x, px, visible.y,
        visible.y + visible.h, scale_max, bar_opacity, &background);
}
