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
 * * #gchararray `mode`: what was counted: `luma`, `channels`, `max`,
 *   `hue`, `hue-saturation` or `rgb`
 * * #guint `bins`: counters per channel (for `hue-saturation` and `rgb` the
 *   flattened array: the product of `shape`)
 * * #GstValueArray of #gchararray `channels`: channel names, in order
 *   (`Y`; `R`, `G`, `B`[, `A`]; `Y`, `U`, `V`; or the mode's nick)
 * * #GstValueArray of #GstValueArray of #guint `counts`: one array of
 *   `bins` counts per channel
 * * #guint64 `pixels`: pixels analysed (width x height)
 * * #GstValueArray of #guint64 `samples`: samples each channel examined
 *   (4:2:0 chroma: a quarter of the pixels)
 * * #GstValueArray of #guint64 `below`, `above`: samples of each channel
 *   outside [`range-min`, `range-max`], counted in no bin
 * * #GstValueArray of #guint `shape`: bins along each dimension
 * * #guint `depth`: significant bits per sample (8, 10, 12, 16)
 * * #gchararray `video-range`: `full`, `limited` or `unknown`, from the caps
 * * #guint `range-min`, `range-max`: the values binned (first axis)
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
 * |[
 * gst-launch-1.0 -m filesrc location=vtest.avi ! decodebin ! \
 *     clhistogram mode=hue min-saturation=30 ! fakesink
 * ]| prints OpenCV-style 180-bin hue histograms straight from the decoder's
 * I420, the masked histogram CamShift trackers build.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclhistogram.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

#define DEFAULT_MODE GST_HISTOGRAM_MODE_LUMA
#define DEFAULT_BINS 256
#define DEFAULT_RANGE_MIN 0
#define DEFAULT_RANGE_MAX -1
#define DEFAULT_MIN_SATURATION 0
#define DEFAULT_MIN_VALUE 0
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
  PROP_RANGE_MIN,
  PROP_RANGE_MAX,
  PROP_MIN_SATURATION,
  PROP_MIN_VALUE,
};

/* Read in place: every component of these is a byte or a 16-bit word at a
 * fixed offset and pixel stride of its plane. */
#define FORMATS "{ GRAY8, GRAY16_LE, GRAY16_BE, " \
  "RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, " \
  "I420, YV12, Y41B, Y42B, Y444, YUV9, YVU9, NV12, NV21, NV16, NV61, NV24, " \
  "YUY2, UYVY, YVYU, VYUY, " \
  "I420_10LE, I420_10BE, I420_12LE, I422_10LE, I422_12LE, " \
  "Y444_10LE, Y444_10BE, Y444_12LE, Y444_16LE, P010_10LE, P012_LE, P016_LE }"
#define CAPS_STR \
  "video/x-raw, format = (string) " FORMATS ", " \
  "width = (int) [ 1, 16384 ], height = (int) [ 1, 16384 ], " \
  "framerate = (fraction) [ 0/1, MAX ]"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (CAPS_STR));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (CAPS_STR));

static const gchar *const rgba_names[] = { "R", "G", "B", "A" };
static const gchar *const yuv_names[] = { "Y", "U", "V" };

#define gst_cl_histogram_parent_class parent_class
G_DEFINE_TYPE (GstClHistogram, gst_cl_histogram, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (clhistogram, "clhistogram", GST_RANK_NONE,
    GST_TYPE_CL_HISTOGRAM);

/* The planes and components of @info's format, from GstVideoFormatInfo;
 * FALSE for layouts the engine cannot read. */
static gboolean
layout_from_info (const GstVideoInfo *info, ClhFrame *layout)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint c;

  memset (layout, 0, sizeof (*layout));
  if (GST_VIDEO_FORMAT_INFO_IS_COMPLEX (finfo)
      || GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo) > CLH_MAX_COMPONENTS)
    return FALSE;

  layout->width = GST_VIDEO_INFO_WIDTH (info);
  layout->height = GST_VIDEO_INFO_HEIGHT (info);
  layout->depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  /* Samples of more than 8 significant bits (with their shift) sit in
   * 16-bit words; the format info's 'bits' is the depth, not the word. */
  if (layout->depth + GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0) <= 8)
    layout->sample = CLH_SAMPLE_8;
  else if (layout->depth + GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0) <= 16)
    layout->sample = GST_VIDEO_FORMAT_INFO_IS_LE (finfo) ?
        CLH_SAMPLE_16LE : CLH_SAMPLE_16BE;
  else
    return FALSE;
  layout->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  layout->n_components = GST_VIDEO_INFO_N_COMPONENTS (info);
  for (c = 0; c < layout->n_components; c++) {
    ClhComponent *comp = &layout->components[c];

    comp->plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
    comp->offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    comp->pixel_stride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    comp->shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    comp->w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    comp->h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
    /* GStreamer 1.22's tables give P010/P012/P016's V offset in samples
     * (1, from NV12's table) where its pack functions use bytes (2). */
    if (layout->sample != CLH_SAMPLE_8 && comp->offset % 2)
      comp->offset *= 2;
  }
  /* ...and VYUY's chroma offsets as UYVY's, though its bytes are
   * V0 Y0 U0 Y1, as the FourCC says. */
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_VYUY) {
    layout->components[1].offset = 2;
    layout->components[2].offset = 0;
  }
  for (c = 0; c < layout->n_planes; c++)
    layout->planes[c].stride = GST_VIDEO_INFO_PLANE_STRIDE (info, c);
  return TRUE;
}

/* Bins when the property was left alone: 180 hue bins (OpenCV's range),
 * 32 x 32 hue x saturation, the classic 16 x 16 x 16 RGB target model. */
static guint
effective_bins (const GstClHistogramSettings *st)
{
  if (st->bins_set)
    return st->bins;
  switch (st->mode) {
    case GST_HISTOGRAM_MODE_HUE:
      return 180;
    case GST_HISTOGRAM_MODE_HUE_SATURATION:
      return 32;
    case GST_HISTOGRAM_MODE_RGB:
      return 16;
    default:
      return st->bins;
  }
}

static void
list_components (ClhHistogramSpec *spec, guint n)
{
  guint i;

  spec->n_components = n;
  for (i = 0; i < n; i++)
    spec->components[i] = i;
}

/* What @st counts in @info's format, and the channels' names; FALSE with
 * @error saying which combination does not work and why. */
static gboolean
build_spec (const GstClHistogramSettings *st, const GstVideoInfo *info,
    const ClhFrame *layout, ClhHistogramSpec *spec,
    const gchar *const **names, GError **error)
{
  const gboolean rgb = GST_VIDEO_INFO_IS_RGB (info);
  const gboolean yuv = GST_VIDEO_INFO_IS_YUV (info);
  const gchar *mode = gst_histogram_mode_get_nick (st->mode);
  static const gchar *mode_names[][1] = {
    {"Y"}, {NULL}, {"max"}, {"hue"}, {"hue-saturation"}, {"rgb"},
  };
  GError *why = NULL;

  memset (spec, 0, sizeof (*spec));
  spec->bins = effective_bins (st);
  spec->range_min = st->range_min;
  spec->range_max = st->range_max >= 0 ? (guint) st->range_max :
      (1u << layout->depth) - 1;
  spec->min_saturation = st->min_saturation;
  spec->min_value = st->min_value;
  spec->color = yuv ? CLH_COLOR_YUV_BT601 : CLH_COLOR_RGB;
  *names = mode_names[st->mode];

  switch (st->mode) {
    case GST_HISTOGRAM_MODE_LUMA:
      spec->count = rgb ? CLH_COUNT_LUMA : CLH_COUNT_COMPONENTS;
      list_components (spec, rgb ? 3 : 1);
      break;
    case GST_HISTOGRAM_MODE_CHANNELS:
      spec->count = CLH_COUNT_COMPONENTS;
      list_components (spec, layout->n_components);
      *names = rgb ? rgba_names : yuv ? yuv_names : mode_names[0];
      break;
    case GST_HISTOGRAM_MODE_MAX:
    case GST_HISTOGRAM_MODE_RGB:
      if (!rgb) {
        g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
            "mode=%s counts R, G and B and needs an RGB format, not %s",
            mode, GST_VIDEO_INFO_NAME (info));
        return FALSE;
      }
      spec->count = st->mode == GST_HISTOGRAM_MODE_MAX ? CLH_COUNT_MAX :
          CLH_COUNT_RGB;
      list_components (spec, st->mode == GST_HISTOGRAM_MODE_MAX ?
          layout->n_components : 3);
      break;
    default:
      if (!rgb && !yuv) {
        g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
            "mode=%s needs colour and %s is gray: use an RGB or 8-bit YUV "
            "format", mode, GST_VIDEO_INFO_NAME (info));
        return FALSE;
      }
      spec->count = st->mode == GST_HISTOGRAM_MODE_HUE ? CLH_COUNT_HUE :
          CLH_COUNT_HUE_SATURATION;
      list_components (spec, 3);
      break;
  }

  if (!clh_histogram_spec_is_valid (spec, layout, &why)) {
    g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
        "mode=%s bins=%u range %u..%u cannot count %s: %s", mode, spec->bins,
        spec->range_min, spec->range_max, GST_VIDEO_INFO_NAME (info),
        why->message);
    g_error_free (why);
    return FALSE;
  }
  return TRUE;
}

/* Bytes the frame's caps, or its GstVideoMeta, say the buffer holds; 0 if
 * a plane's rows would overlap. */
static gsize
frame_bytes_needed (const GstVideoInfo *info, const ClhFrame *layout,
    GstBuffer *buffer)
{
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (buffer);
  ClhFrame frame = *layout;
  gsize needed = 0;
  guint p;

  if (!vmeta)
    return GST_VIDEO_INFO_SIZE (info);

  for (p = 0; p < frame.n_planes; p++) {
    if (vmeta->stride[p] < 0 || (gsize) vmeta->stride[p]
        < clh_frame_plane_row_bytes (&frame, p))
      return 0;
    frame.planes[p].stride = vmeta->stride[p];
    needed = MAX (needed, vmeta->offset[p] + clh_frame_plane_span (&frame, p));
  }
  return needed;
}

static void
append_value (GValue *array, GType type, gconstpointer v)
{
  GValue value = G_VALUE_INIT;

  g_value_init (&value, type);
  if (type == G_TYPE_STRING)
    g_value_set_static_string (&value, v);
  else if (type == G_TYPE_UINT)
    g_value_set_uint (&value, *(const guint *) v);
  else
    g_value_set_uint64 (&value, *(const guint64 *) v);
  gst_value_array_append_and_take_value (array, &value);
}

static void
take_array (GstStructure *s, const gchar *field, GType type,
    gconstpointer values, gsize elem_size, guint n)
{
  GValue array = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++)
    append_value (&array, type, type == G_TYPE_STRING ?
        ((const gchar * const *) values)[i] :
        (gconstpointer) ((const guint8 *) values + i * elem_size));
  gst_structure_take_value (s, field, &array);
}

static const gchar *
video_range_name (GstVideoColorRange range)
{
  switch (range) {
    case GST_VIDEO_COLOR_RANGE_0_255:
      return "full";
    case GST_VIDEO_COLOR_RANGE_16_235:
      return "limited";
    default:
      return "unknown";
  }
}

/* The histogram's shape: bins along each dimension. */
static guint
spec_shape (const ClhHistogramSpec *spec, guint shape[3])
{
  const guint n_dims = spec->count == CLH_COUNT_RGB ? 3 :
      spec->count == CLH_COUNT_HUE_SATURATION ? 2 : 1;
  guint d;

  for (d = 0; d < 3; d++)
    shape[d] = d < n_dims ? spec->bins : 0;
  return n_dims;
}

/* The binned range of the first axis. */
static void
spec_range (const ClhHistogramSpec *spec, guint *min, guint *max)
{
  *min = spec->range_min;
  *max = spec->range_max;
  if (spec->count == CLH_COUNT_HUE || spec->count == CLH_COUNT_HUE_SATURATION)
    *min = 0, *max = 179;
  else if (spec->count == CLH_COUNT_RGB)
    *min = 0, *max = 255;
}

static GstMessage *
histogram_message_new (GstClHistogram *self, GstBuffer *buffer,
    GstHistogramMode mode, const ClhHistogramSpec *spec,
    const gchar *const *names, const ClhHistogram *hist)
{
  GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  const guint n_bins = clh_histogram_spec_n_bins (spec);
  GstClockTime ts = GST_BUFFER_PTS (buffer);
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  GstClockTime stream_time = GST_CLOCK_TIME_NONE;
  GValue counts = G_VALUE_INIT;
  guint shape[3], n_dims = spec_shape (spec, shape), range_min, range_max;
  GstStructure *s;
  guint c, b;

  if (segment->format == GST_FORMAT_TIME) {
    running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME, ts);
    stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
  }
  spec_range (spec, &range_min, &range_max);

  s = gst_structure_new ("histogram",
      "timestamp", G_TYPE_UINT64, ts,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      "mode", G_TYPE_STRING, gst_histogram_mode_get_nick (mode),
      "bins", G_TYPE_UINT, n_bins, NULL);
  take_array (s, "channels", G_TYPE_STRING, names, 0, n_channels);

  g_value_init (&counts, GST_TYPE_ARRAY);
  for (c = 0; c < n_channels; c++) {
    GValue channel = G_VALUE_INIT;

    g_value_init (&channel, GST_TYPE_ARRAY);
    for (b = 0; b < n_bins; b++)
      append_value (&channel, G_TYPE_UINT, &hist->counts[c * n_bins + b]);
    gst_value_array_append_and_take_value (&counts, &channel);
  }
  gst_structure_take_value (s, "counts", &counts);

  gst_structure_set (s, "pixels", G_TYPE_UINT64,
      (guint64) GST_VIDEO_INFO_WIDTH (&self->info)
      * GST_VIDEO_INFO_HEIGHT (&self->info), NULL);
  take_array (s, "samples", G_TYPE_UINT64, hist->samples, sizeof (guint64),
      n_channels);
  take_array (s, "below", G_TYPE_UINT64, hist->below, sizeof (guint64),
      n_channels);
  take_array (s, "above", G_TYPE_UINT64, hist->above, sizeof (guint64),
      n_channels);
  take_array (s, "shape", G_TYPE_UINT, shape, sizeof (guint), n_dims);
  gst_structure_set (s,
      "depth", G_TYPE_UINT, self->layout.depth,
      "video-range", G_TYPE_STRING,
      video_range_name (GST_VIDEO_INFO_COLORIMETRY (&self->info).range),
      "range-min", G_TYPE_UINT, range_min,
      "range-max", G_TYPE_UINT, range_max, NULL);

  return gst_message_new_element (GST_OBJECT (self), s);
}

static void
attach_meta (GstClHistogram *self, GstBuffer *buffer, GstHistogramMode mode,
    const ClhHistogramSpec *spec, const gchar *const *names,
    const ClhHistogram *hist)
{
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  guint shape[3], n_dims = spec_shape (spec, shape), range_min, range_max, c;
  GstHistogramMeta *meta;

  meta = gst_buffer_add_histogram_meta (buffer, mode, n_channels, names,
      clh_histogram_spec_n_bins (spec), hist->counts, 0, 0,
      GST_VIDEO_INFO_WIDTH (&self->info), GST_VIDEO_INFO_HEIGHT (&self->info));
  for (c = 0; c < n_channels; c++)
    gst_histogram_meta_set_channel_stats (meta, c, hist->samples[c],
        hist->below[c], hist->above[c]);
  spec_range (spec, &range_min, &range_max);
  gst_histogram_meta_set_sample_format (meta, self->layout.depth,
      GST_VIDEO_INFO_COLORIMETRY (&self->info).range, range_min, range_max);
  gst_histogram_meta_set_shape (meta, n_dims, shape);
}

/* Points @frame's planes into @vframe; FALSE if a GstVideoMeta plane runs
 * past the memory gst_video_frame_map() mapped for it (it maps the one
 * block holding the plane's first byte). */
static gboolean
planes_from_video_frame (ClhFrame *frame, GstVideoFrame *vframe,
    gboolean per_plane_maps)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    const GstMapInfo *map = &vframe->map[per_plane_maps ? p : 0];
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);

    frame->planes[p].data = data;
    frame->planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, p);
    if ((gsize) (data - map->data) + clh_frame_plane_span (frame, p)
        > map->size)
      return FALSE;
  }
  return TRUE;
}

/* Every plane from one mapping of the whole buffer (GStreamer merges its
 * memory blocks), at the GstVideoMeta's offsets. */
static void
planes_from_buffer_map (ClhFrame *frame, const GstMapInfo *map,
    const GstVideoMeta *vmeta)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    frame->planes[p].data = map->data + vmeta->offset[p];
    frame->planes[p].stride = vmeta->stride[p];
  }
}

static gboolean
count_mapped (GstClHistogram *self, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *hist)
{
  GError *err = NULL;

  if (clh_engine_histogram (self->engine, frame, spec, hist, &err))
    return TRUE;

  if (g_error_matches (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID))
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The %s frame cannot be read as its caps and GstVideoMeta describe "
            "it: %s.", GST_VIDEO_INFO_NAME (&self->info), err->message),
        ("%s", err->message));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL failed while counting a frame on %s: %s. The device may be "
            "out of memory or lost; restart the pipeline or choose another "
            "device.", clh_engine_get_device_name (self->engine),
            err->message), ("%s", err->message));
  g_clear_error (&err);
  return FALSE;
}

/* Maps the frame and counts it; FALSE after posting an element error. */
static gboolean
count_frame (GstClHistogram *self, GstBuffer *buffer,
    const ClhHistogramSpec *spec, ClhHistogram *hist)
{
  const GstVideoInfo *info = &self->info;
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (buffer);
  gsize needed = frame_bytes_needed (info, &self->layout, buffer);
  gsize size = gst_buffer_get_size (buffer);
  GstVideoFrame vframe;
  GstMapInfo map;
  ClhFrame frame = self->layout;
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

  if (!gst_video_frame_map (&vframe, info, buffer, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for reading.", GST_VIDEO_INFO_NAME (info)),
        ("gst_video_frame_map() failed on %" GST_PTR_FORMAT, buffer));
    return FALSE;
  }
  if (planes_from_video_frame (&frame, &vframe, vmeta != NULL)) {
    ok = count_mapped (self, &frame, spec, hist);
    gst_video_frame_unmap (&vframe);
    return ok;
  }
  gst_video_frame_unmap (&vframe);

  GST_DEBUG_OBJECT (self, "a plane spans memory blocks: mapping the buffer");
  if (!gst_buffer_map (buffer, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for reading.", GST_VIDEO_INFO_NAME (info)),
        ("gst_buffer_map() failed on %" GST_PTR_FORMAT, buffer));
    return FALSE;
  }
  planes_from_buffer_map (&frame, &map, vmeta);
  ok = count_mapped (self, &frame, spec, hist);
  gst_buffer_unmap (buffer, &map);
  return ok;
}

static guint32 *
counts_for (GstClHistogram *self, const ClhHistogramSpec *spec)
{
  const gsize n = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);

  if (self->counts_size < n) {
    g_free (self->counts);
    self->counts = g_new (guint32, n);
    self->counts_size = n;
  }
  return self->counts;
}

static GstFlowReturn
gst_cl_histogram_transform_ip (GstBaseTransform *trans, GstBuffer *buffer)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstClHistogramSettings st;
  ClhHistogramSpec spec;
  ClhHistogram hist;
  const gchar *const *names;
  GError *err = NULL;
  gboolean valid;

  GST_OBJECT_LOCK (self);
  st = self->settings;
  if (!st.post_messages && !st.attach_meta) {
    GST_OBJECT_UNLOCK (self);
    return GST_FLOW_OK;
  }
  valid = build_spec (&st, &self->info, &self->layout, &spec, &names, &err);
  GST_OBJECT_UNLOCK (self);

  if (!valid) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s.", err->message), (NULL));
    g_clear_error (&err);
    return GST_FLOW_NOT_NEGOTIATED;
  }

  hist.counts = counts_for (self, &spec);
  if (!count_frame (self, buffer, &spec, &hist))
    return GST_FLOW_ERROR;

  if (st.attach_meta && gst_buffer_is_writable (buffer))
    attach_meta (self, buffer, st.mode, &spec, names, &hist);
  else if (st.attach_meta)
    GST_WARNING_OBJECT (self, "buffer not writable (attach-meta changed "
        "while it was in flight): no meta on %" GST_PTR_FORMAT, buffer);
  if (st.post_messages)
    gst_element_post_message (GST_ELEMENT (self),
        histogram_message_new (self, buffer, st.mode, &spec, names, &hist));
  return GST_FLOW_OK;
}

static gboolean
gst_cl_histogram_set_caps (GstBaseTransform *trans, GstCaps *incaps,
    GstCaps *outcaps)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstVideoInfo info;
  ClhFrame layout;
  ClhHistogramSpec spec;
  const gchar *const *names;
  GError *err = NULL;
  gboolean valid;

  if (!gst_video_info_from_caps (&info, incaps)
      || !layout_from_info (&info, &layout)) {
    GST_WARNING_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }

  GST_OBJECT_LOCK (self);
  valid = build_spec (&self->settings, &info, &layout, &spec, &names, &err);
  if (valid) {
    self->info = info;
    self->layout = layout;
  }
  GST_OBJECT_UNLOCK (self);

  if (!valid) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s.", err->message),
        ("caps %" GST_PTR_FORMAT, incaps));
    g_clear_error (&err);
  }
  return valid;
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

  if (transition == GST_STATE_CHANGE_NULL_TO_READY) {
    close_engine (self);
    if (!open_engine (self))
      return GST_STATE_CHANGE_FAILURE;
  }

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    close_engine (self);
  return ret;
}

/* Stores one counting property. The combination is checked where it is
 * used, at negotiation and for every frame, so that setting several
 * properties in any order works. */
static void
set_counting_property (GstClHistogram *self, guint prop_id,
    const GValue *value)
{
  GstClHistogramSettings *st = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      st->mode = g_value_get_enum (value);
      break;
    case PROP_BINS:
      st->bins = g_value_get_uint (value);
      st->bins_set = TRUE;
      break;
    case PROP_RANGE_MIN:
      st->range_min = g_value_get_uint (value);
      break;
    case PROP_RANGE_MAX:
      st->range_max = g_value_get_int (value);
      break;
    case PROP_MIN_SATURATION:
      st->min_saturation = g_value_get_uint (value);
      break;
    case PROP_MIN_VALUE:
      st->min_value = g_value_get_uint (value);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_histogram_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);

  switch (prop_id) {
    case PROP_MODE:
    case PROP_BINS:
    case PROP_RANGE_MIN:
    case PROP_RANGE_MAX:
    case PROP_MIN_SATURATION:
    case PROP_MIN_VALUE:
      set_counting_property (self, prop_id, value);
      break;
    case PROP_POST_MESSAGES:
      GST_OBJECT_LOCK (self);
      self->settings.post_messages = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ATTACH_META:
      GST_OBJECT_LOCK (self);
      self->settings.attach_meta = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      /* Without meta to attach, buffers need not be writable. */
      gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self),
          !g_value_get_boolean (value));
      break;
    case PROP_DEVICE:
      GST_OBJECT_LOCK (self);
      g_free (self->device);
      self->device = g_value_dup_string (value);
      if (!self->device)
        self->device = g_strdup (DEFAULT_DEVICE);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_histogram_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (object);
  const GstClHistogramSettings *st = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, st->mode);
      break;
    case PROP_BINS:
      g_value_set_uint (value, effective_bins (st));
      break;
    case PROP_RANGE_MIN:
      g_value_set_uint (value, st->range_min);
      break;
    case PROP_RANGE_MAX:
      g_value_set_int (value, st->range_max);
      break;
    case PROP_MIN_SATURATION:
      g_value_set_uint (value, st->min_saturation);
      break;
    case PROP_MIN_VALUE:
      g_value_set_uint (value, st->min_value);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, st->post_messages);
      break;
    case PROP_ATTACH_META:
      g_value_set_boolean (value, st->attach_meta);
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
  g_free (self->counts);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

#define PLAYING_PROPERTY \
  (G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS)

static void
install_properties (GObjectClass *gobject_class)
{
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "What is counted: luma, channels, max, hue, hue-saturation or rgb",
          GST_TYPE_HISTOGRAM_MODE, DEFAULT_MODE, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Bins per channel (per axis for hue-saturation and rgb): value v "
          "goes to bin (v - range-min) * bins / (range-max - range-min + 1); "
          "at most 256 for 8-bit samples, 4096 up to 12-bit, 65536 for "
          "16-bit; left unset: 180 for hue, 32 for hue-saturation, 16 for rgb",
          1, CLH_MAX_BINS, DEFAULT_BINS, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_RANGE_MIN,
      g_param_spec_uint ("range-min", "Range minimum",
          "Smallest sample value binned; smaller ones are counted as 'below'",
          0, 65535, DEFAULT_RANGE_MIN, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_RANGE_MAX,
      g_param_spec_int ("range-max", "Range maximum",
          "Largest sample value binned, inclusive (-1: the format's maximum, "
          "e.g. 255 or 1023); larger ones are counted as 'above'",
          -1, 65535, DEFAULT_RANGE_MAX, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_MIN_SATURATION,
      g_param_spec_uint ("min-saturation", "Minimum saturation",
          "hue and hue-saturation modes: pixels of lower HSV saturation "
          "(0..255) are not counted", 0, 255, DEFAULT_MIN_SATURATION,
          PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_MIN_VALUE,
      g_param_spec_uint ("min-value", "Minimum value",
          "hue and hue-saturation modes: pixels of lower HSV value (0..255) "
          "are not counted", 0, 255, DEFAULT_MIN_VALUE, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a 'histogram' element message on the bus for every frame",
          DEFAULT_POST_MESSAGES, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_ATTACH_META,
      g_param_spec_boolean ("attach-meta", "Attach meta",
          "Attach a GstHistogramMeta holding the histogram to every buffer",
          DEFAULT_ATTACH_META, PLAYING_PROPERTY));
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: auto (first GPU, else accelerator, else CPU), "
          "P:D (platform:device as clinfo -l numbers them) or part of its name; "
          "read when the element goes to READY", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use (NULL before READY)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
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
  install_properties (gobject_class);

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
  GstClHistogramSettings *st = &self->settings;

  st->mode = DEFAULT_MODE;
  st->bins = DEFAULT_BINS;
  st->bins_set = FALSE;
  st->range_min = DEFAULT_RANGE_MIN;
  st->range_max = DEFAULT_RANGE_MAX;
  st->min_saturation = DEFAULT_MIN_SATURATION;
  st->min_value = DEFAULT_MIN_VALUE;
  st->post_messages = DEFAULT_POST_MESSAGES;
  st->attach_meta = DEFAULT_ATTACH_META;
  self->device = g_strdup (DEFAULT_DEVICE);
  gst_video_info_init (&self->info);

  gst_base_transform_set_in_place (trans, TRUE);
  gst_base_transform_set_passthrough (trans, !DEFAULT_ATTACH_META);
}
