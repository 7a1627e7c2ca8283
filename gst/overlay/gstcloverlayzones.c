/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcloverlayzones.h"
#include "gstcloverlaychannel.h"
#include "gstcloverlaydraw.h"

/* The borders of zones that are fine: there, to show the grid, but faint
 * enough to leave the picture readable. */
#define OK_SHARE 0.35
/* The border of a zone in trouble is this many grid lines wide. */
#define ALERT_WIDTH 3
/* The smallest legible font, and the font's size against a zone's side. */
#define MIN_FONT_SIZE 9

static const guint8 ok_colour[3] = { 255, 255, 255 };
static const guint8 clipped_colour[3] = { 255, 0, 0 };
static const guint8 crushed_colour[3] = { 0, 160, 255 };
static const guint8 both_colour[3] = { 255, 0, 255 };
/* The labels' colours of a share over its threshold: lighter than the
 * borders', to read on the halo. */
static const guint8 clipped_text[3] = { 255, 80, 80 };
static const guint8 crushed_text[3] = { 80, 190, 255 };

/**
 * gst_cl_overlay_zone_state:
 * @meta: a zone's histogram
 * @style: the thresholds
 * @low_percent: (out): its largest clipped-low share (percent of a
 *   channel's samples) over its channels of levels (luma, R, G, B, max)
 * @high_percent: (out): its largest clipped-high share
 *
 * Returns: the zone's state: clipped when @high_percent is above 0 and
 *   reaches the `clipped` threshold, crushed when @low_percent is above 0
 *   and reaches `crushed`, unknown when no channel of levels has its
 *   clipped counts
 */
GstClOverlayZoneState
gst_cl_overlay_zone_state (GstHistogramMeta *meta,
    const GstClOverlayZoneStyle *style, gdouble *low_percent,
    gdouble *high_percent)
{
  GstClOverlayZoneState state = GST_CL_OVERLAY_ZONE_OK;
  gboolean known = FALSE;
  guint c;

  *low_percent = *high_percent = 0.0;
  for (c = 0; c < meta->info.n_channels; c++) {
    GstClOverlayChannelStyle channel;
    gdouble low, high;

    gst_cl_overlay_channel_style (gst_histogram_meta_get_channel_name (meta,
            c), c, &channel);
    if (!channel.exposure || !gst_cl_overlay_channel_clipped
        (gst_histogram_meta_get_statistics (meta, c), &low, &high))
      continue;
    known = TRUE;
    *low_percent = MAX (*low_percent, low);
    *high_percent = MAX (*high_percent, high);
  }
  if (!known)
    return GST_CL_OVERLAY_ZONE_UNKNOWN;
  /* A zone without a clipped sample is fine whatever the threshold: 0
   * flags any clipping, not every zone. */
  if (*high_percent > 0.0 && *high_percent >= style->clipped)
    state |= GST_CL_OVERLAY_ZONE_CLIPPED;
  if (*low_percent > 0.0 && *low_percent >= style->crushed)
    state |= GST_CL_OVERLAY_ZONE_CRUSHED;
  return state;
}

static gboolean
is_zone (GstHistogramMeta *meta)
{
  return g_strcmp0 (meta->region.type, "zone") == 0;
}

/**
 * gst_cl_overlay_zones_any:
 * @buffer: a buffer
 *
 * Returns: whether @buffer holds a zone's histogram whose state is known
 *   (with its statistics), so that the grid has something to show
 */
gboolean
gst_cl_overlay_zones_any (GstBuffer *buffer)
{
  const GstClOverlayZoneStyle any = { 1.0, 100.0, 100.0, FALSE, {0} };
  gpointer state = NULL;
  GstMeta *m;

  while ((m = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_HISTOGRAM_META_API_TYPE))) {
    GstHistogramMeta *meta = (GstHistogramMeta *) m;
    gdouble low, high;

    if (is_zone (meta) && gst_cl_overlay_zone_state (meta, &any, &low,
            &high) != GST_CL_OVERLAY_ZONE_UNKNOWN)
      return TRUE;
  }
  return FALSE;
}

/* The grid's line width: one pixel up to 1079 rows or columns, two from
 * 1080p, four at 4K, as the eye sees the frame at its size. */
static gint
grid_width (const GstVideoFrame *frame)
{
  return MAX (1, MIN (GST_VIDEO_FRAME_WIDTH (frame),
          GST_VIDEO_FRAME_HEIGHT (frame)) / 540);
}

/* A border @b pixels wide inside the rectangle, its four sides not
 * overlapping (a corner is not blended twice). */
static void
draw_border (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    gint64 x, gint64 y, gint64 w, gint64 h, gint64 b, const guint8 rgb[3],
    guint opacity)
{
  if (2 * b >= w || 2 * b >= h) {
    gst_cl_overlay_draw_rect (frame, painter, x, y, w, h, rgb, opacity);
    return;
  }
  gst_cl_overlay_draw_rect (frame, painter, x, y, w, b, rgb, opacity);
  gst_cl_overlay_draw_rect (frame, painter, x, y + h - b, w, b, rgb, opacity);
  gst_cl_overlay_draw_rect (frame, painter, x, y + b, b, h - 2 * b, rgb,
      opacity);
  gst_cl_overlay_draw_rect (frame, painter, x + w - b, y + b, b, h - 2 * b,
      rgb, opacity);
}

/* The zone's shares in its top-left corner, inside the border: clipped
 * ("▲") then crushed ("▼"), each in the alert's colour when over its
 * threshold; the lines that do not fit are left out. */
static void
draw_labels (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    GstClOverlayText *text, const GstClOverlayZoneStyle *style, gint64 x,
    gint64 y, gint64 w, gint64 h, gint64 border, GstClOverlayZoneState state,
    gdouble low, gdouble high, guint opacity)
{
  const gint64 *avoid = style->avoid;
  const guint font_size = (guint) CLAMP (MIN (h / 8, w / 10), MIN_FONT_SIZE,
      256);
  gint64 row = y + border;
  guint i;

  for (i = 0; i < 2; i++) {
    const gboolean is_high = i == 0;
    const gboolean over = state != GST_CL_OVERLAY_ZONE_UNKNOWN
        && (state & (is_high ? GST_CL_OVERLAY_ZONE_CLIPPED :
            GST_CL_OVERLAY_ZONE_CRUSHED));
    const GstClOverlayLabel *label;
    gchar share[16], line[32];

    gst_cl_overlay_channel_format_percent (is_high ? high : low, share,
        sizeof (share));
    g_snprintf (line, sizeof (line), "%s%s", is_high ? "\u25b2" : "\u25bc",
        share);
    label = gst_cl_overlay_text_label (text, line, font_size);
    if (row + label->glyphs.height > y + h - border
        || x + border + label->glyphs.width > x + w - border)
      return;
    /* Text under the graph's box would mix with the graph's own. */
    if (avoid[2] > 0 && avoid[3] > 0 && x + border < avoid[0] + avoid[2]
        && avoid[0] < x + border + label->glyphs.width
        && row < avoid[1] + avoid[3]
        && avoid[1] < row + label->glyphs.height)
      return;
    gst_cl_overlay_text_draw (frame, painter, label, x + border, row,
        over ? (is_high ? clipped_text : crushed_text) : ok_colour, opacity);
    row += label->glyphs.height;
  }
}

/**
 * gst_cl_overlay_zones_draw:
 * @frame: a frame of 8-bit components, mapped for writing, whose buffer
 *   holds the zones' histograms
 * @text: the renderer of the zones' labels
 * @style: thresholds and opacity
 *
 * Draws each zone whose state is known as a border inside its rectangle
 * (clipped to the frame): a fine zone's one grid line wide, white at 35 %
 * of the opacity; a clipped zone's three lines wide in red, a crushed
 * one's in azure, one both clipped and crushed in magenta, at the full
 * opacity; and, with labels, its shares in its corner.
 */
void
gst_cl_overlay_zones_draw (GstVideoFrame *frame, GstClOverlayText *text,
    const GstClOverlayZoneStyle *style)
{
  const gint line = grid_width (frame);
  const guint opacity = gst_cl_overlay_draw_opacity (style->alpha);
  const guint ok_opacity = gst_cl_overlay_draw_opacity (style->alpha
      * OK_SHARE);
  GstClOverlayPainter frame_painter;
  gpointer state = NULL;
  GstMeta *m;

  gst_cl_overlay_painter_init (&frame_painter, &frame->info);
  while ((m = gst_buffer_iterate_meta_filtered (frame->buffer, &state,
              GST_HISTOGRAM_META_API_TYPE))) {
    GstHistogramMeta *meta = (GstHistogramMeta *) m;
    GstClOverlayPainter painter = frame_painter;
    GstClOverlayZoneState zone;
    GstVideoRectangle visible;
    const guint8 *rgb;
    gdouble low, high;
    gint64 border;

    if (!is_zone (meta))
      continue;
    zone = gst_cl_overlay_zone_state (meta, style, &low, &high);
    /* A meta's rectangle is not trusted: only its part in the frame. */
    if (zone == GST_CL_OVERLAY_ZONE_UNKNOWN
        || !gst_cl_overlay_draw_clip (meta->region.x, meta->region.y,
            meta->region.width, meta->region.height,
            GST_VIDEO_FRAME_WIDTH (frame), GST_VIDEO_FRAME_HEIGHT (frame),
            &visible))
      continue;
    /* A zone's drawing stays in the zone. */
    gst_cl_overlay_painter_clip (&painter, visible.x, visible.y, visible.w,
        visible.h);
    switch (zone) {
      case GST_CL_OVERLAY_ZONE_CLIPPED:
        rgb = clipped_colour;
        break;
      case GST_CL_OVERLAY_ZONE_CRUSHED:
        rgb = crushed_colour;
        break;
      case GST_CL_OVERLAY_ZONE_CLIPPED_AND_CRUSHED:
        rgb = both_colour;
        break;
      default:
        rgb = ok_colour;
        break;
    }
    /* An alert's border is at least a chroma block wide (two pixels in
     * 4:2:0), so that one chroma sample in it shows its colour wherever
     * the zone starts. */
    border = zone == GST_CL_OVERLAY_ZONE_OK ? line : MAX (ALERT_WIDTH * line,
        gst_cl_overlay_draw_chroma_block (frame));
    draw_border (frame, &painter, visible.x, visible.y, visible.w, visible.h,
        border, rgb, zone == GST_CL_OVERLAY_ZONE_OK ? ok_opacity : opacity);
    if (style->labels)
      draw_labels (frame, &painter, text, style, visible.x, visible.y,
          visible.w, visible.h, ALERT_WIDTH * line, zone, low, high,
          opacity);
  }
}
