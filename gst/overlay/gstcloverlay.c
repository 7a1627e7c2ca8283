/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-histogramoverlay
 * @title: histogramoverlay
 *
 * Draws the histogram a buffer carries (its full-frame #GstHistogramMeta,
 * as `clhistogram` attaches it) onto the frame, in place, as an operator
 * reads it: a bar graph with a graticule of values, the legal marks of a
 * limited-range stream, a legend, each channel's clipped shares and clip
 * indicators beside the bars; and,
 * when the buffer holds zones' histograms (`clhistogram zones=CxR`), the
 * grid of zones over the frame, each in the colour of its state.
 *
 * ## The box
 *
 * By default the box is sized and placed relative to the frame:
 * #GstClHistogramOverlay:size percent of the frame's width wide (35), half
 * as high (at most 45 % of the frame's height), in the
 * #GstClHistogramOverlay:corner given (top-left), a margin of 2 % of the
 * frame's smaller side (at least 2 pixels) from its edges. A 400x300
 * frame gets a box of 140 x 70 at (6, 6); a 3840x2160 frame one of
 * 1344 x 672. Setting #GstClHistogramOverlay:x, #GstClHistogramOverlay:y,
 * #GstClHistogramOverlay:width or #GstClHistogramOverlay:height places the box
 * in pixels instead (the others keep their values, by default 16, 16,
 * 256 x 100); setting #GstClHistogramOverlay:size or
 * #GstClHistogramOverlay:corner places it relative to the frame again. The
 * box may overhang the frame: only its part inside is drawn.
 *
 * A black box at three quarters of the graph's opacity dims the video
 * behind it. Its text is set in bold sans-serif (Pango, through cairo;
 * fontconfig's `Sans`) at the box's height over 12, at least 10 pixels;
 * the legend takes a line at the top of the box and the graticule's
 * labels a line at its bottom, and the bars fill the plot between them,
 * the box's full width but for the clip indicators (below). A box too
 * small for two lines of plot beside
 * those lines, or narrower than 8 characters, gets no text and its bars
 * fill it; so does every box where fontconfig gives Pango no font to
 * render with (the element warns once, naming what to install).
 *
 * ## The graph
 *
 * Each column of the plot shows the channels' bars from the bottom up, at
 * #GstClHistogramOverlay:alpha over the video. The largest bin of the
 * channels (alpha aside, below) fills the plot's height (by count, or by
 * log (1 + count) with #GstClHistogramOverlay:log-scale); a bin that counted
 * anything keeps at least one row. With more bins than columns a column
 * shows the tallest of its bins; with fewer, each bar is widened over
 * several columns.
 *
 * The value axis is linear over the histogram's binned range
 * (`range_min` to `range_max`), and value v is marked at the column
 * `((2 (v - range_min) + 1) width) / (2 (range_max - range_min + 1))`
 * (integer division; with 256 columns for 8-bit values, column v). The
 * #GstClHistogramOverlay:graticule draws white lines at 40 % of the opacity
 * down to the bars, which hide them (as they hide the legal marks: a
 * spike at a mark's value stands whole): `codes`, every 32nd code value and 255 (scaled to the
 * histogram's depth), labelled at 0, 64, 128, 192, 255; or `ire`, every
 * 10 % of the nominal range from black (0 IRE: 16 in limited range, 0 in
 * full range) to white (100 IRE: 235 or 255), labelled every 20.
 * Lines are one pixel wide up to a box 200 high, then the box's height
 * over 200. A label that would touch one already placed is left out; the
 * legal marks' are placed first, then the range's ends, then the middle
 * (codes), then the rest.
 *
 * #GstClHistogramOverlay:legal-marks draws, when the caps say limited range
 * (`colorimetry`, 16-235), dashed amber lines at nominal black (16) and
 * white (235; and 240, chroma's white, when a `U` or `V` channel is
 * drawn), labelled with their values beside a graticule of codes (with
 * `ire` they are 0 and 100 IRE); full-range streams (RGB, usually) have no
 * footroom or headroom to mark.
 *
 * #GstClHistogramOverlay:clipping-text writes, for each channel whose
 * statistics hold their clipped counts (`clhistogram` computes them for
 * `luma`, `channels` and `max`), a line at the plot's top: at its left
 * end "▼" and the share of the channel's samples at or below its
 * clip-low level (`clipped_low` / `samples`), at its right end "▲" and
 * the share at or above its clip-high level, in the channel's colour
 * (text is drawn 40 % of the way from it to white, with a dark halo, to
 * read over the box). #GstClHistogramOverlay:legend names the channels in
 * their colours, and the graticule's unit (`code`, `IRE`) and `log` at
 * the right.
 *
 * #GstClHistogramOverlay:clip-indicators, when a drawn channel's
 * statistics hold their clipped counts, narrows the plot for an
 * indicator at each side, `k = max (5, plot height / 10)` pixels wide and
 * `max (1, k / 4)` from the bars: from the plot's top, a gap of that
 * size, a lamp k x k, lit at the left (azure, 0, 160, 255) when a
 * channel's `clipped_low` is not 0 and at the right (red, 255, 0, 0)
 * when its `clipped_high` is not 0, dark gray (64, 64, 64) when none is,
 * a gap, and a gauge from the plot's bottom: each channel's bar `ceil
 * (clipped * rows / samples)` of its rows high, in its colour, colours
 * added where they overlap. A single clipped sample lights the lamp; the
 * gauge and the text say how many. No indicators where the bars would
 * keep fewer than 16 columns or a gauge fewer than 4 rows.
 *
 * Channel colours: `Y` (luma, gray) white; `R`, `G`, `B` red, green, blue;
 * `U` azure (0, 128, 255); `V` orange-red (255, 64, 0); `max` yellow;
 * `A` light gray (160, 160, 160); `hue` each column in the hue it counts;
 * any other channel magenta, cyan, orange, violet in turn. Where bars
 * overlap their colours add, as light does (R and G make yellow; R, G and
 * B white). An alpha channel is drawn but does not set the scale: an
 * opaque frame's alpha is a single bin holding every pixel, which would
 * flatten the colour channels; its bar stops at the top of the box. A hue
 * histogram has no levels: no legal marks, and its graticule is in codes.
 *
 * ## The zones
 *
 * With #GstClHistogramOverlay:zones, each zone's histogram (region type
 * `zone`) whose statistics hold their clipped counts is drawn as a border
 * inside its rectangle: a zone is clipped when, in a channel of levels
 * (`Y`, `R`, `G`, `B`, `max`), at least #GstClHistogramOverlay:zone-clipped
 * percent of its samples (and at least one) are clipped high; crushed
 * likewise with #GstClHistogramOverlay:zone-crushed and the clipped-low
 * counts. A fine zone's border is one grid line wide, white at 35 % of
 * the opacity; a clipped zone's is three lines wide in red, a crushed
 * zone's azure, one both clipped and crushed magenta, at the full opacity.
 * A grid line is one pixel wide up to frames 1079 pixels high (or wide),
 * then that size over 540. #GstClHistogramOverlay:zone-labels writes each
 * zone's largest clipped-high ("▲") and clipped-low ("▼") shares in its
 * corner, in the alert's colour when over the threshold. The graph is
 * drawn over the zones.
 *
 * ## Frames
 *
 * The properties can change while playing, and be controlled: a frame is
 * drawn with the values they had when it came. The properties one
 * g_object_set() sets (or those set between g_object_freeze_notify() and
 * g_object_thaw_notify(), and those a controller updates for a frame)
 * take effect together: no frame is drawn at a new x and y with the old
 * width and height.
 *
 * On YUV and gray frames the colours are converted with the caps' matrix
 * (BT.601 when the caps name none, as for gray) and range. A subsampled
 * chroma sample is drawn with the pixel it is co-sited with (the top-left
 * of its block), so no sample of a pixel outside what is drawn changes.
 * The alpha component of RGBA formats is raised by the drawing's opacity
 * (it is opaque where it is drawn).
 *
 * Frames with nothing to draw (no full-frame histogram and no zone whose
 * state is known: no meta at all, or only those of regions, or zones
 * without statistics) pass exactly as they came: not copied, not made
 * writable, not mapped; so do all frames when #GstClHistogramOverlay:alpha
 * is 0, and those whose box lies outside the frame and that have no
 * zones to draw. The 2-D and 3-D histograms (`hue-saturation`, `rgb`) are
 * not drawn either: their flattened bins read as no graph; the debug log
 * says so once.
 *
 * Formats: GRAY8, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB,
 * xBGR, I420, YV12, Y41B, Y42B, Y444, YUV9, YVU9, NV12, NV21, NV16, NV61,
 * NV24, YUY2, UYVY, YVYU, VYUY (every 8-bit format `clhistogram` reads),
 * padded strides included.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=vtest.avi ! decodebin ! videoconvert ! \
 *     video/x-raw,format=RGBx ! clhistogram mode=channels ! \
 *     histogramoverlay ! videoconvert ! autovideosink
 * ]| shows the video with its R, G and B histograms at its top left.
 * |[
 * gst-launch-1.0 filesrc location=vtest.avi ! decodebin ! \
 *     clhistogram zones=5x5 ! \
 *     histogramoverlay corner=bottom-right graticule=ire zone-labels=true ! \
 *     videoconvert ! autovideosink
 * ]| the luma histogram with an IRE graticule at the bottom right, and the
 * 5 x 5 zones, those that clip or crush outlined, each with its shares.
 * |[
 * gst-launch-1.0 v4l2src ! clhistogram ! \
 *     histogramoverlay x=20 y=20 width=320 height=120 log-scale=true ! \
 *     videoconvert ! autovideosink
 * ]| a camera with its luma histogram in a box placed in pixels, bars by
 * log (1 + count).
 */
#include "gstcloverlay.h"
#include "base/gstclbaseframemap.h"
#include "base/gstclbaseutils.h"
#include "gstcloverlayzones.h"

#include <gst/clhistogram/clhistogram.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_histogram_overlay_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_overlay_debug

enum {
  PROP_0,
  PROP_X,
  PROP_Y,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_ALPHA,
  PROP_LOG_SCALE,
  PROP_SIZE,
  PROP_CORNER,
  PROP_GRATICULE,
  PROP_LEGAL_MARKS,
  PROP_LEGEND,
  PROP_CLIPPING_TEXT,
  PROP_CLIP_INDICATORS,
  PROP_ZONES,
  PROP_ZONE_CLIPPED,
  PROP_ZONE_CRUSHED,
  PROP_ZONE_LABELS,
};

#define DEFAULT_X 16
#define DEFAULT_Y 16
#define DEFAULT_WIDTH 256
#define DEFAULT_HEIGHT 100
#define DEFAULT_ALPHA 0.8
#define DEFAULT_LOG_SCALE FALSE
#define DEFAULT_SIZE 35.0
#define DEFAULT_CORNER GST_CL_HISTOGRAM_OVERLAY_CORNER_TOP_LEFT
#define DEFAULT_GRATICULE GST_CL_OVERLAY_GRATICULE_CODES
#define DEFAULT_LEGAL_MARKS TRUE
#define DEFAULT_LEGEND TRUE
#define DEFAULT_CLIPPING_TEXT TRUE
#define DEFAULT_CLIP_INDICATORS TRUE
#define DEFAULT_ZONES TRUE
#define DEFAULT_ZONE_CLIPPED 1.0
#define DEFAULT_ZONE_CRUSHED 1.0
#define DEFAULT_ZONE_LABELS FALSE

/* The relative box: its height against its width, its largest share of
 * the frame's height, and its margin in percent of the frame's smaller
 * side. */
#define BOX_ASPECT 0.5
#define BOX_MAX_HEIGHT_PERCENT 45
#define BOX_MARGIN_PERCENT 2
#define BOX_MIN_MARGIN 2

#define FORMATS "{ GRAY8, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, " \
  "xRGB, xBGR, I420, YV12, Y41B, Y42B, Y444, YUV9, YVU9, NV12, NV21, " \
  "NV16, NV61, NV24, YUY2, UYVY, YVYU, VYUY }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE
        (FORMATS)));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE
        (FORMATS)));

#define gst_cl_histogram_overlay_parent_class parent_class
G_DEFINE_TYPE (GstClHistogramOverlay, gst_cl_histogram_overlay,
    GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (histogramoverlay, "histogramoverlay",
    GST_RANK_NONE, GST_TYPE_CL_HISTOGRAM_OVERLAY);

GType
gst_cl_histogram_overlay_corner_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_HISTOGRAM_OVERLAY_CORNER_TOP_LEFT, "Top left", "top-left"},
    {GST_CL_HISTOGRAM_OVERLAY_CORNER_TOP_RIGHT, "Top right", "top-right"},
    {GST_CL_HISTOGRAM_OVERLAY_CORNER_BOTTOM_LEFT, "Bottom left",
        "bottom-left"},
    {GST_CL_HISTOGRAM_OVERLAY_CORNER_BOTTOM_RIGHT, "Bottom right",
        "bottom-right"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstClHistogramOverlayCorner", values));
  return type;
}

GType
gst_cl_histogram_overlay_graticule_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_OVERLAY_GRATICULE_NONE, "No graticule", "none"},
    {GST_CL_OVERLAY_GRATICULE_CODES, "Code values (0, 64, 128, 192, 255)",
        "codes"},
    {GST_CL_OVERLAY_GRATICULE_IRE,
        "IRE: 0 at nominal black, 100 at nominal white", "ire"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstClHistogramOverlayGraticule", values));
  return type;
}

/* The box in pixels of a @frame_width x @frame_height frame: as set, or
 * relative to the frame (the class documentation gives the rule). */
static void
place_box (const GstClHistogramOverlaySettings *settings, gint frame_width,
    gint frame_height, gint64 box[4])
{
  gint64 margin, width, height;

  if (settings->in_pixels) {
    box[0] = settings->x;
    box[1] = settings->y;
    box[2] = settings->width;
    box[3] = settings->height;
    return;
  }
  margin = MAX (BOX_MIN_MARGIN, ((gint64) MIN (frame_width, frame_height)
          * BOX_MARGIN_PERCENT + 50) / 100);
  width = MAX (1, (gint64) (frame_width * settings->size / 100.0 + 0.5));
  height = MAX (1, (gint64) (width * BOX_ASPECT + 0.5));
  height = MIN (height, MAX (1, (gint64) frame_height
          * BOX_MAX_HEIGHT_PERCENT / 100));
  switch (settings->corner) {
    case GST_CL_HISTOGRAM_OVERLAY_CORNER_TOP_RIGHT:
    case GST_CL_HISTOGRAM_OVERLAY_CORNER_BOTTOM_RIGHT:
      box[0] = frame_width - margin - width;
      break;
    default:
      box[0] = margin;
      break;
  }
  switch (settings->corner) {
    case GST_CL_HISTOGRAM_OVERLAY_CORNER_BOTTOM_LEFT:
    case GST_CL_HISTOGRAM_OVERLAY_CORNER_BOTTOM_RIGHT:
      box[1] = frame_height - margin - height;
      break;
    default:
      box[1] = margin;
      break;
  }
  box[2] = width;
  box[3] = height;
}

/* The full-frame histogram of @buffer when it is one the graph draws. */
static GstHistogramMeta *
graph_meta (GstClHistogramOverlay *self, GstBuffer *buffer)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta_for_region (buffer,
      "frame", 0);

  if (!meta) {
    GST_LOG_OBJECT (self, "no full-frame histogram on %" GST_PTR_FORMAT,
        buffer);
    return NULL;
  }
  if (meta->info.n_dims > 1) {
    if (!self->logged_dims)
      GST_INFO_OBJECT (self, "%u-D %s histograms are not drawn",
          meta->info.n_dims, gst_histogram_mode_get_nick (meta->info.mode));
    self->logged_dims = TRUE;
    return NULL;
  }
  if (meta->info.n_channels == 0 || meta->info.n_bins == 0)
    return NULL;
  return meta;
}

/* Whether the frame in @buffer gets a graph or zones, with the
 * properties as they are now (kept for the frame in frame_settings). */
static gboolean
frame_is_drawn (GstClHistogramOverlay *self, GstBuffer *buffer)
{
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstClHistogramOverlaySettings *settings = &self->frame_settings;
  GstVideoRectangle visible;
  gint64 box[4];

  GST_OBJECT_LOCK (self);
  *settings = self->applied;
  GST_OBJECT_UNLOCK (self);

  /* An opacity that rounds to nothing in 8 bits draws nothing. */
  if (settings->alpha * 255.0 < 0.5)
    return FALSE;
  if (settings->zones && gst_cl_overlay_zones_any (buffer))
    return TRUE;
  if (!graph_meta (self, buffer))
    return FALSE;
  place_box (settings, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), box);
  return gst_cl_overlay_draw_clip (box[0], box[1], box[2], box[3],
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), &visible);
}

/* Controlled properties (a fading alpha, a moving box) take their values
 * at the frame's stream time. */
static void
gst_cl_histogram_overlay_before_transform (GstBaseTransform *trans,
    GstBuffer *buffer)
{
  GstClockTime stream_time;

  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

/* A frame that gets no graph leaves as it came: GstBaseTransform's own
 * in-place path would copy it when it is not writable, and the video
 * filter would map it for writing, before transform_frame_ip could say
 * there is nothing to do. Switching passthrough per frame instead would
 * reconfigure the element and renegotiate allocation every time a frame
 * with a meta follows one without. */
static GstFlowReturn
gst_cl_histogram_overlay_prepare_output_buffer (GstBaseTransform *trans,
    GstBuffer *inbuf, GstBuffer **outbuf)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (trans);

  self->drawing = frame_is_drawn (self, inbuf);
  if (!self->drawing) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer
      (trans, inbuf, outbuf);
}

static GstFlowReturn gst_cl_histogram_overlay_transform_frame_ip (
    GstVideoFilter *filter, GstVideoFrame *frame);

/* Draws on the frame mapped as every element of the plugin maps one
 * (base/gstclbaseframemap.c): a GstVideoMeta whose strides or offsets do not fit
 * the buffer is a STREAM error, never a write past it, which
 * gst_video_frame_map() alone does not check. */
static GstFlowReturn
gst_cl_histogram_overlay_transform_ip (GstBaseTransform *trans,
    GstBuffer *buffer)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (trans);
  GstVideoFilter *filter = GST_VIDEO_FILTER (trans);
  GstClFrameMap map;
  ClhFrame format, frame;
  GstFlowReturn ret;

  if (!self->drawing)
    return GST_FLOW_OK;
  self->drawing = FALSE;
  if (!gst_cl_frame_format (&filter->in_info, &format)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("The %s frames cannot be drawn on.",
            GST_VIDEO_INFO_NAME (&filter->in_info)), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!gst_cl_frame_map_write (&map, GST_ELEMENT (self), &filter->in_info,
          &format, buffer, &frame)) {
    gst_cl_frame_map_clear (&map);
    return GST_FLOW_ERROR;
  }
  ret = gst_cl_histogram_overlay_transform_frame_ip (filter, &map.vframe);
  gst_cl_frame_map_clear (&map);
  return ret;
}

static GstFlowReturn
gst_cl_histogram_overlay_transform_frame_ip (GstVideoFilter *filter,
    GstVideoFrame *frame)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (filter);
  const GstClHistogramOverlaySettings *settings = &self->frame_settings;
  GstClOverlayPanel panel = { 0 };
  GstHistogramMeta *meta;
  gint64 box[4];

  if (!self->text)
    self->text = gst_cl_overlay_text_new ();
  /* The buffer may be a copy of the one prepare_output_buffer looked at:
   * the metas are read from the frame drawn on. */
  meta = graph_meta (self, frame->buffer);
  place_box (settings, GST_VIDEO_FRAME_WIDTH (frame),
      GST_VIDEO_FRAME_HEIGHT (frame), box);
  if (settings->zones) {
    GstClOverlayZoneStyle style = { settings->alpha, settings->zone_clipped,
      settings->zone_crushed, settings->zone_labels, {0}
    };

    if (meta)
      memcpy (style.avoid, box, sizeof (box));
    gst_cl_overlay_zones_draw (frame, self->text, &style);
  }
  if (meta) {
    if (meta->info.n_channels > GST_CL_OVERLAY_MAX_CHANNELS
        && !self->logged_channels) {
      GST_INFO_OBJECT (self, "drawing the first %u of %u channels",
          GST_CL_OVERLAY_MAX_CHANNELS, meta->info.n_channels);
      self->logged_channels = TRUE;
    }
    panel.x = box[0];
    panel.y = box[1];
    panel.width = box[2];
    panel.height = box[3];
    panel.alpha = settings->alpha;
    panel.log_scale = settings->log_scale;
    panel.graticule = settings->graticule;
    panel.legal_marks = settings->legal_marks;
    panel.limited = GST_VIDEO_INFO_COLORIMETRY (&frame->info).range
        == GST_VIDEO_COLOR_RANGE_16_235;
    panel.legend = settings->legend;
    panel.clipping_text = settings->clipping_text;
    panel.clip_indicators = settings->clip_indicators;
    gst_cl_overlay_panel_draw (frame, self->text, &panel, meta);
  }
  if (gst_cl_overlay_text_failed (self->text) && !self->logged_text) {
    GST_WARNING_OBJECT (self, "text could not be rendered: Pango found no "
        "font it could load (install a font, e.g. Debian's "
        "fonts-dejavu-core, and fontconfig's configuration); the graph and "
        "the zones are drawn without it");
    self->logged_text = TRUE;
  }
  gst_cl_overlay_text_trim (self->text);
  return GST_FLOW_OK;
}

static gboolean
gst_cl_histogram_overlay_start (GstBaseTransform *trans)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (trans);

  self->drawing = FALSE;
  self->logged_dims = FALSE;
  self->logged_channels = FALSE;
  self->logged_text = FALSE;
  /* Fontconfig reads its configuration and font list once, here rather
   * than at the first frame drawn. */
  if (!self->text)
    self->text = gst_cl_overlay_text_new ();
  return TRUE;
}

static gboolean
gst_cl_histogram_overlay_stop (GstBaseTransform *trans)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (trans);

  g_clear_pointer (&self->text, gst_cl_overlay_text_free);
  return TRUE;
}

static void
gst_cl_histogram_overlay_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (object);
  GstClHistogramOverlaySettings *settings = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_X:
      settings->x = g_value_get_int (value);
      settings->in_pixels = TRUE;
      break;
    case PROP_Y:
      settings->y = g_value_get_int (value);
      settings->in_pixels = TRUE;
      break;
    case PROP_WIDTH:
      settings->width = g_value_get_int (value);
      settings->in_pixels = TRUE;
      break;
    case PROP_HEIGHT:
      settings->height = g_value_get_int (value);
      settings->in_pixels = TRUE;
      break;
    case PROP_ALPHA:
      settings->alpha = g_value_get_double (value);
      break;
    case PROP_LOG_SCALE:
      settings->log_scale = g_value_get_boolean (value);
      break;
    case PROP_SIZE:
      settings->size = g_value_get_double (value);
      settings->in_pixels = FALSE;
      break;
    case PROP_CORNER:
      settings->corner = g_value_get_enum (value);
      settings->in_pixels = FALSE;
      break;
    case PROP_GRATICULE:
      settings->graticule = g_value_get_enum (value);
      break;
    case PROP_LEGAL_MARKS:
      settings->legal_marks = g_value_get_boolean (value);
      break;
    case PROP_LEGEND:
      settings->legend = g_value_get_boolean (value);
      break;
    case PROP_CLIPPING_TEXT:
      settings->clipping_text = g_value_get_boolean (value);
      break;
    case PROP_CLIP_INDICATORS:
      settings->clip_indicators = g_value_get_boolean (value);
      break;
    case PROP_ZONES:
      settings->zones = g_value_get_boolean (value);
      break;
    case PROP_ZONE_CLIPPED:
      settings->zone_clipped = g_value_get_double (value);
      break;
    case PROP_ZONE_CRUSHED:
      settings->zone_crushed = g_value_get_double (value);
      break;
    case PROP_ZONE_LABELS:
      settings->zone_labels = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histogram_overlay_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (object);
  GstClHistogramOverlaySettings *settings = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_X:
      g_value_set_int (value, settings->x);
      break;
    case PROP_Y:
      g_value_set_int (value, settings->y);
      break;
    case PROP_WIDTH:
      g_value_set_int (value, settings->width);
      break;
    case PROP_HEIGHT:
      g_value_set_int (value, settings->height);
      break;
    case PROP_ALPHA:
      g_value_set_double (value, settings->alpha);
      break;
    case PROP_LOG_SCALE:
      g_value_set_boolean (value, settings->log_scale);
      break;
    case PROP_SIZE:
      g_value_set_double (value, settings->size);
      break;
    case PROP_CORNER:
      g_value_set_enum (value, settings->corner);
      break;
    case PROP_GRATICULE:
      g_value_set_enum (value, settings->graticule);
      break;
    case PROP_LEGAL_MARKS:
      g_value_set_boolean (value, settings->legal_marks);
      break;
    case PROP_LEGEND:
      g_value_set_boolean (value, settings->legend);
      break;
    case PROP_CLIPPING_TEXT:
      g_value_set_boolean (value, settings->clipping_text);
      break;
    case PROP_CLIP_INDICATORS:
      g_value_set_boolean (value, settings->clip_indicators);
      break;
    case PROP_ZONES:
      g_value_set_boolean (value, settings->zones);
      break;
    case PROP_ZONE_CLIPPED:
      g_value_set_double (value, settings->zone_clipped);
      break;
    case PROP_ZONE_CRUSHED:
      g_value_set_double (value, settings->zone_crushed);
      break;
    case PROP_ZONE_LABELS:
      g_value_set_boolean (value, settings->zone_labels);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* GObject calls this once the properties of a g_object_set() (or of the
 * outermost g_object_freeze_notify() ... g_object_thaw_notify(), as
 * gst_object_sync_values() holds around a controller's values) are all
 * stored: they apply here together. */
static void
gst_cl_histogram_overlay_dispatch_properties_changed (GObject *object,
    guint n_pspecs, GParamSpec **pspecs)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (object);

  GST_OBJECT_LOCK (self);
  self->applied = self->settings;
  GST_OBJECT_UNLOCK (self);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

#define PLAYING_PROPERTY (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING \
    | GST_PARAM_CONTROLLABLE | G_PARAM_STATIC_STRINGS)

static void
install_properties (GObjectClass *gobject_class)
{
  /**
   * GstClHistogramOverlay:x:
   *
   * The box's left edge, in pixels of the frame; negative places part of
   * it left of the frame, which is not drawn. Setting it (or y, width,
   * height) places the box in pixels rather than by size and corner.
   */
  g_object_class_install_property (gobject_class, PROP_X,
      g_param_spec_int ("x", "X",
          "Left edge of the box, in pixels of the frame (clipped to it); "
          "setting x, y, width or height places the box in pixels instead "
          "of by size and corner", G_MININT, G_MAXINT, DEFAULT_X,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:y:
   *
   * The box's top edge, in pixels of the frame; setting it places the box
   * in pixels.
   */
  g_object_class_install_property (gobject_class, PROP_Y,
      g_param_spec_int ("y", "Y",
          "Top edge of the box, in pixels of the frame (clipped to it); "
          "placing the box in pixels", G_MININT, G_MAXINT, DEFAULT_Y,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:width:
   *
   * The box's width in pixels, the plot's: the bins are spread over it,
   * the tallest of several bins per column when there are more bins than
   * pixels. Setting it places the box in pixels.
   */
  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width",
          "Width of the box in pixels (the part outside the frame is not "
          "drawn); placing the box in pixels", 1, G_MAXINT, DEFAULT_WIDTH,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:height:
   *
   * The box's height in pixels: the largest bin's bar, less the lines of
   * the legend and of the graticule's labels when they are drawn. Setting
   * it places the box in pixels.
   */
  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height",
          "Height of the box in pixels: the largest bin's bar, less the "
          "legend's and labels' lines (the part outside the frame is not "
          "drawn); placing the box in pixels", 1, G_MAXINT, DEFAULT_HEIGHT,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:size:
   *
   * The box's width in percent of the frame's width, when it is placed
   * relative to the frame (the default); it is half as high, at most
   * 45 % of the frame's height. Setting it places the box relative to
   * the frame again after x, y, width or height were set.
   */
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_double ("size", "Size",
          "Width of the box in percent of the frame's width (half as high, "
          "at most 45 % of the frame's height); places the box relative to "
          "the frame", 1.0, 100.0, DEFAULT_SIZE, PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:corner:
   *
   * The frame's corner the box sits in, 2 % of the frame's smaller side
   * from its edges; setting it places the box relative to the frame.
   */
  g_object_class_install_property (gobject_class, PROP_CORNER,
      g_param_spec_enum ("corner", "Corner",
          "Corner of the frame the box sits in; places the box relative to "
          "the frame", GST_TYPE_CL_HISTOGRAM_OVERLAY_CORNER, DEFAULT_CORNER,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:alpha:
   *
   * The drawing's opacity over the video (the background box has three
   * quarters of it, the graticule 40 %); 0 leaves every frame untouched,
   * 1 draws the bars in their colours exactly.
   */
  g_object_class_install_property (gobject_class, PROP_ALPHA,
      g_param_spec_double ("alpha", "Alpha",
          "Opacity of the graph and zones over the video: 0 draws nothing, "
          "1 opaque bars (the background box has three quarters of it)",
          0.0, 1.0, DEFAULT_ALPHA, PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:log-scale:
   *
   * Bar heights by log (1 + count) rather than count, so that small bins
   * stay readable beside a tall one.
   */
  g_object_class_install_property (gobject_class, PROP_LOG_SCALE,
      g_param_spec_boolean ("log-scale", "Log scale",
          "Bar heights by log (1 + count) instead of count",
          DEFAULT_LOG_SCALE, PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:graticule:
   *
   * Lines and labels along the value axis: none, code values, or IRE (0
   * at the stream's nominal black, 100 at its white).
   */
  g_object_class_install_property (gobject_class, PROP_GRATICULE,
      g_param_spec_enum ("graticule", "Graticule",
          "Lines and labels along the value axis: code values, or IRE (0 at "
          "nominal black, 100 at nominal white)",
          GST_TYPE_CL_HISTOGRAM_OVERLAY_GRATICULE, DEFAULT_GRATICULE,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:legal-marks:
   *
   * Dashed amber lines at nominal black and white (16 and 235; 240 for
   * chroma) when the caps say limited range.
   */
  g_object_class_install_property (gobject_class, PROP_LEGAL_MARKS,
      g_param_spec_boolean ("legal-marks", "Legal marks",
          "Mark nominal black and white (16, 235; chroma 240) on "
          "limited-range streams", DEFAULT_LEGAL_MARKS, PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:legend:
   *
   * The channels' names in their colours and the graticule's unit, in a
   * line at the top of the box.
   */
  g_object_class_install_property (gobject_class, PROP_LEGEND,
      g_param_spec_boolean ("legend", "Legend",
          "Name the channels in their colours, and the graticule's unit",
          DEFAULT_LEGEND, PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:clipping-text:
   *
   * Each channel's shares of samples clipped low and high (from the
   * meta's statistics) at the ends of the axis.
   */
  g_object_class_install_property (gobject_class, PROP_CLIPPING_TEXT,
      g_param_spec_boolean ("clipping-text", "Clipping text",
          "Write each channel's clipped-low and clipped-high shares (from "
          "the histogram's statistics)", DEFAULT_CLIPPING_TEXT,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:clip-indicators:
   *
   * A lamp and a gauge at each side of the bars: lit when a channel's
   * statistics count samples clipped low (left, azure) or high (right,
   * red), the gauge as high as their share of the plot.
   */
  g_object_class_install_property (gobject_class, PROP_CLIP_INDICATORS,
      g_param_spec_boolean ("clip-indicators", "Clip indicators",
          "Beside the bars, a lamp lit when a channel's statistics count "
          "samples clipped low (left, azure) or high (right, red), and a "
          "gauge of their share", DEFAULT_CLIP_INDICATORS,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:zones:
   *
   * Draw the zones' histograms (`clhistogram zones=CxR`) as a grid over
   * the frame, each zone in the colour of its state.
   */
  g_object_class_install_property (gobject_class, PROP_ZONES,
      g_param_spec_boolean ("zones", "Zones",
          "Draw the grid of zones (clhistogram zones=CxR), each in the "
          "colour of its state: clipped red, crushed azure, both magenta",
          DEFAULT_ZONES, PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:zone-clipped:
   *
   * A zone clips when at least this percentage of its samples (and at
   * least one) is clipped high in a channel of levels.
   */
  g_object_class_install_property (gobject_class, PROP_ZONE_CLIPPED,
      g_param_spec_double ("zone-clipped", "Zone clipped",
          "A zone clips when at least this percentage of its samples (and "
          "one) is clipped high", 0.0, 100.0, DEFAULT_ZONE_CLIPPED,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:zone-crushed:
   *
   * A zone is crushed when at least this percentage of its samples (and
   * at least one) is clipped low in a channel of levels.
   */
  g_object_class_install_property (gobject_class, PROP_ZONE_CRUSHED,
      g_param_spec_double ("zone-crushed", "Zone crushed",
          "A zone is crushed when at least this percentage of its samples "
          "(and one) is clipped low", 0.0, 100.0, DEFAULT_ZONE_CRUSHED,
          PLAYING_PROPERTY));
  /**
   * GstClHistogramOverlay:zone-labels:
   *
   * Write each zone's clipped-high and clipped-low shares in its corner.
   */
  g_object_class_install_property (gobject_class, PROP_ZONE_LABELS,
      g_param_spec_boolean ("zone-labels", "Zone labels",
          "Write each zone's clipped-high and clipped-low shares in it",
          DEFAULT_ZONE_LABELS, PLAYING_PROPERTY));
}

static void
gst_cl_histogram_overlay_finalize (GObject *object)
{
  GstClHistogramOverlay *self = GST_CL_HISTOGRAM_OVERLAY (object);

  g_clear_pointer (&self->text, gst_cl_overlay_text_free);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_histogram_overlay_class_init (GstClHistogramOverlayClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_histogram_overlay_debug, "histogramoverlay",
      0, "Histogram graph overlay");

  gobject_class->set_property = gst_cl_histogram_overlay_set_property;
  gobject_class->get_property = gst_cl_histogram_overlay_get_property;
  gobject_class->dispatch_properties_changed =
      gst_cl_histogram_overlay_dispatch_properties_changed;
  gobject_class->finalize = gst_cl_histogram_overlay_finalize;
  install_properties (gobject_class);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_HISTOGRAM_OVERLAY_CORNER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_HISTOGRAM_OVERLAY_GRATICULE, 0);

  gst_element_class_set_static_metadata (element_class,
      "Histogram overlay", "Filter/Effect/Video",
      "Draws the frame's histogram (GstHistogramMeta, as clhistogram "
      "attaches it) as a graph onto the frame", "clhistogram developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cl_histogram_overlay_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_histogram_overlay_stop);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_overlay_before_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_overlay_prepare_output_buffer);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_overlay_transform_ip);
  filter_class->transform_frame_ip =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_overlay_transform_frame_ip);
}

static void
gst_cl_histogram_overlay_init (GstClHistogramOverlay *self)
{
  GstClHistogramOverlaySettings *settings = &self->settings;

  settings->x = DEFAULT_X;
  settings->y = DEFAULT_Y;
  settings->width = DEFAULT_WIDTH;
  settings->height = DEFAULT_HEIGHT;
  settings->in_pixels = FALSE;
  settings->size = DEFAULT_SIZE;
  settings->corner = DEFAULT_CORNER;
  settings->alpha = DEFAULT_ALPHA;
  settings->log_scale = DEFAULT_LOG_SCALE;
  settings->graticule = DEFAULT_GRATICULE;
  settings->legal_marks = DEFAULT_LEGAL_MARKS;
  settings->legend = DEFAULT_LEGEND;
  settings->clipping_text = DEFAULT_CLIPPING_TEXT;
  settings->clip_indicators = DEFAULT_CLIP_INDICATORS;
  settings->zones = DEFAULT_ZONES;
  settings->zone_clipped = DEFAULT_ZONE_CLIPPED;
  settings->zone_crushed = DEFAULT_ZONE_CRUSHED;
  settings->zone_labels = DEFAULT_ZONE_LABELS;
  self->applied = *settings;
}
