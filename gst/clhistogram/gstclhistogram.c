/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clhistogram
 * @title: clhistogram
 *
 * Computes the histogram of every raw video frame on an OpenCL device and
 * hands it on as a #GstHistogramMeta on the buffer and as a `histogram`
 * element message on the bus. The frame itself passes unchanged.
 *
 * The message's structure is named `histogram` and has these fields:
 *
 * * #guint64 `timestamp`: the frame's timestamp (ns, or
 *   %GST_CLOCK_TIME_NONE)
 * * #guint64 `stream-time`: its stream time (ns)
 * * #guint64 `running-time`: its running time (ns)
 * * #guint64 `duration`: its duration (ns)
 * * #gchararray `mode`: what was counted, `luma` or `channels`
 * * #guint `bins`: bins per channel
 * * #GstValueArray of #gchararray `channels`: channel names, in order
 *   (`Y`; or `R`, `G`, `B`[, `A`])
 * * #GstValueArray of #GstValueArray of #guint `counts`: one array of
 *   `bins` counts per channel
 * * #guint64 `pixels`: pixels analysed (width x height)
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! video/x-raw,format=GRAY8 ! \
 *     clhistogram bins=16 ! fakesink
 * ]| prints a 16-bin luma histogram of each of three frames.
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! video/x-raw,format=RGBA ! \
 *     clhistogram mode=channels bins=8 ! fakesink
 * ]| prints 8-bin histograms of R, G, B and A.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclhistogram.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

#define DEFAULT_MODE GST_HISTOGRAM_MODE_LUMA
#define DEFAULT_BINS 256
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_ATTACH_META TRUE
#define DEFAULT_DEVICE "auto"

enum {
  PROP_0,
  PROP_MODE,
  PROP_BINS,
  PROP_POST_MESSAGES,
  PROP_ATTACH_META,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
};

#define FORMATS "{ GRAY8, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR }"
#define CAPS_STR \
  "video/x-raw, format = (string) " FORMATS ", " \
  "width = (int) [ 1, 16384 ], height = (int) [ 1, 16384 ], " \
  "framerate = (fraction) [ 0/1, MAX ]"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (CAPS_STR));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (CAPS_STR));

static const gchar *const rgba_names[] = { "R", "G", "B", "A", NULL };
static const gchar *const luma_names[] = { "Y", NULL };

#define gst_cl_histogram_parent_class parent_class
G_DEFINE_TYPE (GstClHistogram, gst_cl_histogram, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (clhistogram, "clhistogram", GST_RANK_NONE,
    GST_TYPE_CL_HISTOGRAM);

/* What to count in the negotiated format, and the channels' names. */
static void
histogram_spec_for (const GstVideoInfo *info, GstHistogramMode mode,
    guint bins, ClhHistogramSpec *spec, const gchar *const **names)
{
  guint c;

  spec->bins = bins;
  if (GST_VIDEO_INFO_IS_GRAY (info)) {
    spec->count = CLH_COUNT_SAMPLES;
    spec->n_channels = 1;
    spec->offsets[0] = GST_VIDEO_INFO_COMP_POFFSET (info, 0);
    *names = luma_names;
  } else if (mode == GST_HISTOGRAM_MODE_LUMA) {
    spec->count = CLH_COUNT_LUMA_RGB;
    spec->n_channels = 1;
    for (c = 0; c < 3; c++)
      spec->offsets[c] = GST_VIDEO_INFO_COMP_POFFSET (info, c);
    *names = luma_names;
  } else {
    /* Components come as R, G, B[, A] whatever the byte order; x padding
     * is not a component. */
    spec->count = CLH_COUNT_SAMPLES;
    spec->n_channels = GST_VIDEO_INFO_N_COMPONENTS (info);
    for (c = 0; c < spec->n_channels; c++)
      spec->offsets[c] = GST_VIDEO_INFO_COMP_POFFSET (info, c);
    *names = rgba_names;
  }
}

/* Bytes the frame's caps, or its GstVideoMeta, say the buffer holds; 0 if
 * its rows would overlap. */
static gsize
frame_bytes_needed (const GstVideoInfo *info, GstBuffer *buffer)
{
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (buffer);
  const gsize row_bytes = (gsize) GST_VIDEO_INFO_WIDTH (info)
      * GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  gsize offset;
  gint stride;

  if (!vmeta)
    return GST_VIDEO_INFO_SIZE (info);

  offset = vmeta->offset[0];
  stride = vmeta->stride[0];
  if (stride < 0 || (gsize) stride < row_bytes)
    return 0;
  return offset + (gsize) stride * (GST_VIDEO_INFO_HEIGHT (info) - 1)
      + row_bytes;
}

static GstMessage *
histogram_message_new (GstClHistogram *self, GstBuffer *buffer,
    GstHistogramMode mode, const ClhHistogramSpec *spec,
    const gchar *const *names, guint64 pixels)
{
  GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  GstClockTime ts = GST_BUFFER_PTS (buffer);
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;
  GValue channels = G_VALUE_INIT, counts = G_VALUE_INIT;
  GstStructure *s;
  guint c, b;

  if (segment->format == GST_FORMAT_TIME) {
    running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME, ts);
    stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
  }

  g_value_init (&channels, GST_TYPE_ARRAY);
  g_value_init (&counts, GST_TYPE_ARRAY);
  for (c = 0; c < spec->n_channels; c++) {
    GValue name = G_VALUE_INIT, channel = G_VALUE_INIT;

    g_value_init (&name, G_TYPE_STRING);
    g_value_set_static_string (&name, names[c]);
    gst_value_array_append_and_take_value (&channels, &name);

    g_value_init (&channel, GST_TYPE_ARRAY);
    for (b = 0; b < spec->bins; b++) {
      GValue v = G_VALUE_INIT;
      g_value_init (&v, G_TYPE_UINT);
      g_value_set_uint (&v, self->counts[c * spec->bins + b]);
      gst_value_array_append_and_take_value (&channel, &v);
    }
    gst_value_array_append_and_take_value (&counts, &channel);
  }

  s = gst_structure_new ("histogram",
      "timestamp", G_TYPE_UINT64, ts,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      "mode", G_TYPE_STRING, gst_histogram_mode_get_nick (mode),
      "bins", G_TYPE_UINT, spec->bins, NULL);
  gst_structure_take_value (s, "channels", &channels);
  gst_structure_take_value (s, "counts", &counts);
  gst_structure_set (s, "pixels", G_TYPE_UINT64, pixels, NULL);

  return gst_message_new_element (GST_OBJECT (self), s);
}

/* Maps the frame and counts it; FALSE after posting an element error. */
static gboolean
count_frame (GstClHistogram *self, GstBuffer *buffer,
    const ClhHistogramSpec *spec)
{
  const GstVideoInfo *info = &self->info;
  gsize needed = frame_bytes_needed (info, buffer);
  gsize size = gst_buffer_get_size (buffer);
  GstVideoFrame frame;
  ClhImage image;
  GError *err = NULL;
  gboolean ok;

  if (needed == 0 || size < needed) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Buffer of %" G_GSIZE_FORMAT " bytes is too small for a %dx%d %s "
            "frame; the element upstream sent a truncated or malformed frame.",
            size, GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
            GST_VIDEO_INFO_NAME (info)),
        ("needs %" G_GSIZE_FORMAT " bytes (0: a GstVideoMeta stride shorter "
            "than a row)", needed));
    return FALSE;
  }

  if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for reading.", GST_VIDEO_INFO_NAME (info)),
        ("gst_video_frame_map() failed on %" GST_PTR_FORMAT, buffer));
    return FALSE;
  }

  image.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  image.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  image.width = GST_VIDEO_FRAME_WIDTH (&frame);
  image.height = GST_VIDEO_FRAME_HEIGHT (&frame);
  image.pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, 0);

  ok = clh_engine_histogram (self->engine, &image, spec, self->counts, &err);
  gst_video_frame_unmap (&frame);

  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL failed while counting a frame on %s: %s. The device may be "
            "out of memory or lost; restart the pipeline or choose another "
            "device.", clh_engine_get_device_name (self->engine),
            err->message), ("%s", err->message));
    g_clear_error (&err);
    return FALSE;
  }
  return TRUE;
}

static GstFlowReturn
gst_cl_histogram_transform_ip (GstBaseTransform *trans, GstBuffer *buffer)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  const GstVideoInfo *info = &self->info;
  GstHistogramMode mode;
  gboolean post_messages, attach_meta;
  ClhHistogramSpec spec;
  const gchar *const *names;
  guint width = GST_VIDEO_INFO_WIDTH (info);
  guint height = GST_VIDEO_INFO_HEIGHT (info);

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  histogram_spec_for (info, mode, self->bins, &spec, &names);
  post_messages = self->post_messages;
  attach_meta = self->attach_meta;
  GST_OBJECT_UNLOCK (self);

  if (!post_messages && !attach_meta)
    return GST_FLOW_OK;

  if (!count_frame (self, buffer, &spec))
    return GST_FLOW_ERROR;

  if (attach_meta && gst_buffer_is_writable (buffer))
    gst_buffer_add_histogram_meta (buffer, mode, spec.n_channels, names,
        spec.bins, self->counts, 0, 0, width, height);

  if (post_messages)
    gst_element_post_message (GST_ELEMENT (self),
        histogram_message_new (self, buffer, mode, &spec, names,
            (guint64) width * height));

  return GST_FLOW_OK;
}

static gboolean
gst_cl_histogram_set_caps (GstBaseTransform *trans, GstCaps *incaps,
    GstCaps *outcaps)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, incaps)) {
    GST_WARNING_OBJECT (self, "invalid caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  self->info = info;
  return TRUE;
}

/* Opens the OpenCL device; FALSE after posting an element error that says
 * what to do. */
static gboolean
open_engine (GstClHistogram *self)
{
  GError *err = NULL;
  gchar *spec;
  ClhEngine *engine;

  GST_OBJECT_LOCK (self);
  spec = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);

  engine = clh_engine_new (spec, &err);
  if (engine) {
    GST_INFO_OBJECT (self, "using OpenCL device %s (%s)",
        clh_engine_get_device_name (engine),
        clh_engine_get_platform_name (engine));
    GST_OBJECT_LOCK (self);
    self->engine = engine;
    self->device_name = g_strdup (clh_engine_get_device_name (engine));
    GST_OBJECT_UNLOCK (self);
    g_free (spec);
    return TRUE;
  }

  switch (err->code) {
    case CLH_ENGINE_ERROR_NO_DEVICE:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No OpenCL device was found. Install an OpenCL driver for your "
              "GPU, or pocl-opencl-icd to run on the CPU, and check with "
              "'clinfo -l'."), ("%s", err->message));
      break;
    case CLH_ENGINE_ERROR_DEVICE_NOT_FOUND:
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No OpenCL device matches device=\"%s\". Set it to \"auto\", to "
              "\"P:D\" as 'clinfo -l' numbers devices, or to part of a "
              "device name.", spec), ("%s", err->message));
      break;
    case CLH_ENGINE_ERROR_BUILD:
      GST_ELEMENT_ERROR (self, LIBRARY, INIT,
          ("The OpenCL driver could not build the histogram kernels. Update "
              "the driver or choose another device; the build log is in the "
              "debug message."), ("%s", err->message));
      break;
    default:
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not set up the OpenCL device: %s.", err->message),
          ("%s", err->message));
      break;
  }
  g_clear_error (&err);
  g_free (spec);
  return FALSE;
}

static void
close_engine (GstClHistogram *self)
{
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->device_name, g_free);
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->engine, clh_engine_free);
}

static GstStateChangeReturn
gst_cl_histogram_change_state (GstElement *element, GstStateChange transition)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !open_engine (self))
    return GST_STATE_CHANGE_FAILURE;

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    close_engine (self);
  return ret;
}

static void
gst_cl_histogram_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_BINS:
      self->bins = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_ATTACH_META:
      self->attach_meta = g_value_get_boolean (value);
      break;
    case PROP_DEVICE:
      g_free (self->device);
      self->device = g_value_dup_string (value);
      if (!self->device)
        self->device = g_strdup (DEFAULT_DEVICE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  /* Without meta to attach, buffers need not be writable. */
  if (prop_id == PROP_ATTACH_META)
    gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
        !g_value_get_boolean (value));
}

static void
gst_cl_histogram_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_BINS:
      g_value_set_uint (value, self->bins);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_ATTACH_META:
      g_value_set_boolean (value, self->attach_meta);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, self->device_name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histogram_finalize (GObject *object)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  close_engine (self);
  g_free (self->device);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_histogram_class_init (GstClHistogramClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_histogram_debug, "clhistogram", 0,
      "OpenCL image histogram");

  gobject_class->set_property = gst_cl_histogram_set_property;
  gobject_class->get_property = gst_cl_histogram_get_property;
  gobject_class->finalize = gst_cl_histogram_finalize;

  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What is counted: luma, or one histogram per channel",
          GST_TYPE_HISTOGRAM_MODE, DEFAULT_MODE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Bins per channel, uniform over the sample range: sample v goes "
          "to bin v * bins / 256", 1, 256, DEFAULT_BINS,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a 'histogram' element message on the bus for every frame",
          DEFAULT_POST_MESSAGES,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_ATTACH_META,
      g_param_spec_boolean ("attach-meta", "Attach meta",
          "Attach a GstHistogramMeta holding the histogram to every buffer",
          DEFAULT_ATTACH_META,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: auto (first GPU, else accelerator, else CPU), "
          "P:D (platform:device as clinfo -l numbers them) or part of its name",
          DEFAULT_DEVICE,
          G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY |
          G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use (NULL before READY)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_set_static_metadata (element_class,
      "OpenCL histogram", "Filter/Analyzer/Video",
      "Computes per-frame image histograms on an OpenCL device and posts "
      "them as messages and buffer meta",
      "clhistogram developers");
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_change_state);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_histogram_set_caps);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_transform_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_HISTOGRAM_MODE, 0);
}

static void
gst_cl_histogram_init (GstClHistogram *self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);

  self->mode = DEFAULT_MODE;
  self->bins = DEFAULT_BINS;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->attach_meta = DEFAULT_ATTACH_META;
  self->device = g_strdup (DEFAULT_DEVICE);
  gst_video_info_init (&self->info);

  gst_base_transform_set_in_place (trans, TRUE);
  gst_base_transform_set_passthrough (trans, !DEFAULT_ATTACH_META);
}
