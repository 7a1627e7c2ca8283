/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-histogramoverlay
 * @title: histogramoverlay
 *
 * Draws the histogram a buffer carries (its full-frame #GstHistogramMeta,
 * as `clhistogram` attaches it) as a bar graph onto the frame, in place.
 *
 * The graph fills the rectangle #GstHistogramOverlay:x,
 * #GstHistogramOverlay:y, #GstHistogramOverlay:width,
 * #GstHistogramOverlay:height (clipped to the frame): a black box at three
 * quarters of the graph's opacity dims the video behind it, and each
 * column shows the channels' bars from the bottom up, at
 * #GstHistogramOverlay:alpha over the video. The largest bin of the
 * channels (alpha aside, below) fills the box's height (by count, or by
 * log (1 + count) with #GstHistogramOverlay:log-scale); a bin that counted
 * anything keeps at least one row. With more bins than columns a column
 * shows the tallest of its bins; with fewer, each bar is widened over
 * several columns. The properties can change while playing, and be
 * controlled: a frame is drawn with the values they had when it came. The
 * properties one g_object_set() sets (or those set between
 * g_object_freeze_notify() and g_object_thaw_notify(), and those a
 * controller updates for a frame) take effect together: no frame is drawn
 * at a new x and y with the old width and height.
 *
 * Channel colours: `Y` (luma, gray) white; `R`, `G`, `B` red, green, blue;
 * `U` azure (0, 128, 255); `V` orange-red (255, 64, 0); `max` yellow;
 * `A` light gray (160, 160, 160); `hue` each column in the hue it counts;
 * any other channel magenta, cyan, orange, violet in turn. Where bars
 * overlap their colours add, as light does (R and G make yellow; R, G and
 * B white). An alpha channel is drawn but does not set the scale: an
 * opaque frame's alpha is a single bin holding every pixel, which would
 * flatten the colour channels; its bar stops at the top of the box.
 *
 * On YUV and gray frames the colours are converted with the caps' matrix
 * (BT.601 when the caps name none, as for gray) and range. A subsampled
 * chroma sample is drawn with the pixel it is co-sited with (the top-left
 * of its block), so no sample of a pixel outside the rectangle changes.
 * The alpha component of RGBA formats is raised by the graph's opacity
 * (the graph is opaque where it is drawn).
 *
 * Frames without a full-frame histogram (none at all, or only those of
 * zones and regions) pass exactly as they came: not copied, not made
 * writable, not mapped; so do all frames when #GstHistogramOverlay:alpha
 * is 0 or the rectangle lies outside the frame. The 2-D and 3-D
 * histograms (`hue-saturation`, `rgb`) are not drawn either: their
 * flattened bins read as no graph; the debug log says so once.
 *
 * Formats: GRAY8, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB,
 * xBGR, I420, YV12, Y41B, Y42B, Y444, YUV9, YVU9, NV12, NV21, NV16, NV61,
 * NV24, YUY2, UYVY, YVYU, VYUY (every 8-bit format `clhistogram` reads),
 * padded strides included.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=vtest.avi ! decodebin ! videoconvert ! \
 *     video/x-raw,format=RGBx ! clhistogram mode=channels ! \
 *     histogramoverlay ! videoconvert ! autovideosink
 * ]| shows the video with its R, G and B histograms at its top left.
 * |[
 * gst-launch-1.0 v4l2src ! clhistogram ! \
 *     histogramoverlay x=20 y=20 width=320 height=120 log-scale=true ! \
 *     videoconvert ! autovideosink
 * ]| a camera with its luma histogram, bars by log (1 + count).
 */
#include "gsthistogramoverlay.h"
#include "gstclframemap.h"
#include "gstclutils.h"
#include "gsthistogramdraw.h"

#include <gst/clhistogram/clhistogram.h>

GST_DEBUG_CATEGORY_STATIC (gst_histogram_overlay_debug);
#define GST_CAT_DEFAULT gst_histogram_overlay_debug

enum {
  PROP_0,
  PROP_X,
  PROP_Y,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_ALPHA,
  PROP_LOG_SCALE,
};

#define DEFAULT_X 16
#define DEFAULT_Y 16
#define DEFAULT_WIDTH 256
#define DEFAULT_HEIGHT 100
#define DEFAULT_ALPHA 0.8
#define DEFAULT_LOG_SCALE FALSE

#define FORMATS "{ GRAY8, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, " \
  "xRGB, xBGR, I420, YV12, Y41B, Y42B, Y444, YUV9, YVU9, NV12, NV21, " \
  "NV16, NV61, NV24, YUY2, UYVY, YVYU, VYUY }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE
        (FORMATS)));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE
        (FORMATS)));

#define gst_histogram_overlay_parent_class parent_class
G_DEFINE_TYPE (GstHistogramOverlay, gst_histogram_overlay,
    GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (histogramoverlay, "histogramoverlay",
    GST_RANK_NONE, GST_TYPE_HISTOGRAM_OVERLAY);

static const struct {
  const gchar *name;
  guint8 rgb[3];
} channel_colours[] = {
  {"Y", {255, 255, 255}},
  {"R", {255, 0, 0}},
  {"G", {0, 255, 0}},
  {"B", {0, 0, 255}},
  {"U", {0, 128, 255}},
  {"V", {255, 64, 0}},
  {"max", {255, 255, 0}},
  {"A", {160, 160, 160}},
};

static const guint8 other_colours[][3] = {
  {255, 0, 255}, {0, 255, 255}, {255, 160, 0}, {160, 96, 255},
};

static void
set_channel (GstHistogramDrawChannel *channel, const gchar *name,
    const guint32 *counts, guint index)
{
  const guint8 *rgb = other_colours[index % G_N_ELEMENTS (other_colours)];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (channel_colours); i++)
    if (g_strcmp0 (name, channel_colours[i].name) == 0)
      rgb = channel_colours[i].rgb;
  channel->counts = counts;
  channel->rgb[0] = rgb[0];
  channel->rgb[1] = rgb[1];
  channel->rgb[2] = rgb[2];
  channel->hue = g_strcmp0 (name, "hue") == 0;
  channel->sets_scale = g_strcmp0 (name, "A") != 0;
}

/* Whether the frame in @buffer gets a graph, with the properties as they
 * are now (kept for the frame in frame_settings). */
static gboolean
frame_is_drawn (GstHistogramOverlay *self, GstBuffer *buffer)
{
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  GstHistogramOverlaySettings *settings = &self->frame_settings;
  GstHistogramMeta *meta;
  GstVideoRectangle visible;

  GST_OBJECT_LOCK (self);
  *settings = self->applied;
  GST_OBJECT_UNLOCK (self);

  /* An opacity that rounds to nothing in 8 bits draws nothing. */
  if (settings->alpha * 255.0 < 0.5)
    return FALSE;
  meta = gst_buffer_get_histogram_meta_for_region (buffer, "frame", 0);
  if (!meta) {
    GST_LOG_OBJECT (self, "no full-frame histogram on %" GST_PTR_FORMAT,
        buffer);
    return FALSE;
  }
  if (meta->info.n_dims > 1) {
    if (!self->logged_dims)
      GST_INFO_OBJECT (self, "%u-D %s histograms are not drawn",
          meta->info.n_dims, gst_histogram_mode_get_nick (meta->info.mode));
    self->logged_dims = TRUE;
    return FALSE;
  }
  if (meta->info.n_channels == 0 || meta->info.n_bins == 0)
    return FALSE;
  return gst_histogram_draw_clip (settings->x, settings->y, settings->width,
      settings->height, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), &visible);
}

/* Controlled properties (a fading alpha, a moving box) take their values
 * at the frame's stream time. */
static void
gst_histogram_overlay_before_transform (GstBaseTransform *trans,
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
gst_histogram_overlay_prepare_output_buffer (GstBaseTransform *trans,
    GstBuffer *inbuf, GstBuffer **outbuf)
{
  GstHistogramOverlay *self = GST_HISTOGRAM_OVERLAY (trans);

  self->drawing = frame_is_drawn (self, inbuf);
  if (!self->drawing) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer
      (trans, inbuf, outbuf);
}

static GstFlowReturn gst_histogram_overlay_transform_frame_ip (
    GstVideoFilter *filter, GstVideoFrame *frame);

/* Draws on the frame mapped as every element of the plugin maps one
 * (gstclframemap.c): a GstVideoMeta whose strides or offsets do not fit
 * the buffer is a STREAM error, never a write past it, which
 * gst_video_frame_map() alone does not check. */
static GstFlowReturn
gst_histogram_overlay_transform_ip (GstBaseTransform *trans,
    GstBuffer *buffer)
{
  GstHistogramOverlay *self = GST_HISTOGRAM_OVERLAY (trans);
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
  ret = gst_histogram_overlay_transform_frame_ip (filter, &map.vframe);
  gst_cl_frame_map_clear (&map);
  return ret;
}

static GstFlowReturn
gst_histogram_overlay_transform_frame_ip (GstVideoFilter *filter,
    GstVideoFrame *frame)
{
  GstHistogramOverlay *self = GST_HISTOGRAM_OVERLAY (filter);
  const GstHistogramOverlaySettings *settings = &self->frame_settings;
  GstHistogramGraph graph = { 0 };
  GstHistogramMeta *meta;
  guint c;

  /* The buffer may be a copy of the one prepare_output_buffer looked at:
   * the meta is read from the frame drawn on. */
  meta = gst_buffer_get_histogram_meta_for_region (frame->buffer, "frame",
      0);
  if (!meta)
    return GST_FLOW_OK;

  graph.x = settings->x;
  graph.y = settings->y;
  graph.width = settings->width;
  graph.height = settings->height;
  graph.alpha = settings->alpha;
  graph.log_scale = settings->log_scale;
  graph.n_bins = meta->info.n_bins;
  graph.n_channels = MIN (meta->info.n_channels,
      GST_HISTOGRAM_DRAW_MAX_CHANNELS);
  if (graph.n_channels < meta->info.n_channels && !self->logged_channels) {
    GST_INFO_OBJECT (self, "drawing the first %u of %u channels",
        graph.n_channels, meta->info.n_channels);
    self->logged_channels = TRUE;
  }
  for (c = 0; c < graph.n_channels; c++) {
    guint n_bins;
    const guint32 *counts = gst_histogram_meta_get_counts (meta, c, &n_bins);

    set_channel (&graph.channels[c],
        gst_histogram_meta_get_channel_name (meta, c), counts, c);
  }
  gst_histogram_draw_graph (frame, &graph);
  return GST_FLOW_OK;
}

static gboolean
gst_histogram_overlay_start (GstBaseTransform *trans)
{
  GstHistogramOverlay *self = GST_HISTOGRAM_OVERLAY (trans);

  self->drawing = FALSE;
  self->logged_dims = FALSE;
  self->logged_channels = FALSE;
  return TRUE;
}

static void
gst_histogram_overlay_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstHistogramOverlay *self = GST_HISTOGRAM_OVERLAY (object);
  GstHistogramOverlaySettings *settings = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_X:
      settings->x = g_value_get_int (value);
      break;
    case PROP_Y:
      settings->y = g_value_get_int (value);
      break;
    case PROP_WIDTH:
      settings->width = g_value_get_int (value);
      break;
    case PROP_HEIGHT:
      settings->height = g_value_get_int (value);
      break;
    case PROP_ALPHA:
      settings->alpha = g_value_get_double (value);
      break;
    case PROP_LOG_SCALE:
      settings->log_scale = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_histogram_overlay_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstHistogramOverlay *self = GST_HISTOGRAM_OVERLAY (object);
  GstHistogramOverlaySettings *settings = &self->settings;

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
gst_histogram_overlay_dispatch_properties_changed (GObject *object,
    guint n_pspecs, GParamSpec **pspecs)
{
  GstHistogramOverlay *self = GST_HISTOGRAM_OVERLAY (object);

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
   * GstHistogramOverlay:x:
   *
   * The graph's left edge, in pixels of the frame; negative places part
   * of it left of the frame, which is not drawn.
   */
  g_object_class_install_property (gobject_class, PROP_X,
      g_param_spec_int ("x", "X",
          "Left edge of the graph, in pixels of the frame (clipped to it)",
          G_MININT, G_MAXINT, DEFAULT_X, PLAYING_PROPERTY));
  /**
   * GstHistogramOverlay:y:
   *
   * The graph's top edge, in pixels of the frame.
   */
  g_object_class_install_property (gobject_class, PROP_Y,
      g_param_spec_int ("y", "Y",
          "Top edge of the graph, in pixels of the frame (clipped to it)",
          G_MININT, G_MAXINT, DEFAULT_Y, PLAYING_PROPERTY));
  /**
   * GstHistogramOverlay:width:
   *
   * The graph's width in pixels: the bins are spread over it, the tallest
   * of several bins per column when there are more bins than pixels.
   */
  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width",
          "Width of the graph in pixels (the part outside the frame is not "
          "drawn)", 1, G_MAXINT, DEFAULT_WIDTH, PLAYING_PROPERTY));
  /**
   * GstHistogramOverlay:height:
   *
   * The graph's height in pixels: the largest bin's bar.
   */
  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height",
          "Height of the graph in pixels, the largest bin's bar (the part "
          "outside the frame is not drawn)", 1, G_MAXINT, DEFAULT_HEIGHT,
          PLAYING_PROPERTY));
  /**
   * GstHistogramOverlay:alpha:
   *
   * The bars' opacity over the video (the background box has three
   * quarters of it); 0 leaves every frame untouched, 1 draws the bars in their
   * colours exactly.
   */
  g_object_class_install_property (gobject_class, PROP_ALPHA,
      g_param_spec_double ("alpha", "Alpha",
          "Opacity of the graph over the video: 0 draws nothing, 1 opaque "
          "bars (the background box has three quarters of it)", 0.0, 1.0,
          DEFAULT_ALPHA, PLAYING_PROPERTY));
  /**
   * GstHistogramOverlay:log-scale:
   *
   * Bar heights by log (1 + count) rather than count, so that small bins
   * stay readable beside a tall one.
   */
  g_object_class_install_property (gobject_class, PROP_LOG_SCALE,
      g_param_spec_boolean ("log-scale", "Log scale",
          "Bar heights by log (1 + count) instead of count",
          DEFAULT_LOG_SCALE, PLAYING_PROPERTY));
}

static void
gst_histogram_overlay_class_init (GstHistogramOverlayClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_histogram_overlay_debug, "histogramoverlay",
      0, "Histogram graph overlay");

  gobject_class->set_property = gst_histogram_overlay_set_property;
  gobject_class->get_property = gst_histogram_overlay_get_property;
  gobject_class->dispatch_properties_changed =
      gst_histogram_overlay_dispatch_properties_changed;
  install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class,
      "Histogram overlay", "Filter/Effect/Video",
      "Draws the frame's histogram (GstHistogramMeta, as clhistogram "
      "attaches it) as a graph onto the frame", "clhistogram developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_histogram_overlay_start);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_histogram_overlay_before_transform);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_histogram_overlay_prepare_output_buffer);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_histogram_overlay_transform_ip);
  filter_class->transform_frame_ip =
      GST_DEBUG_FUNCPTR (gst_histogram_overlay_transform_frame_ip);
}

static void
gst_histogram_overlay_init (GstHistogramOverlay *self)
{
  GstHistogramOverlaySettings *settings = &self->settings;

  settings->x = DEFAULT_X;
  settings->y = DEFAULT_Y;
  settings->width = DEFAULT_WIDTH;
  settings->height = DEFAULT_HEIGHT;
  settings->alpha = DEFAULT_ALPHA;
  settings->log_scale = DEFAULT_LOG_SCALE;
  self->applied = *settings;
}
