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
 * Every clhistogram element on one device shares one OpenCL context and
 * compiled program, found through a `gst.opencl.context` #GstContext (an
 * application may set one); each has its own command queue. When
 * downstream proposes no buffer pool, the element proposes one of host
 * memory the device reads without a host copy, with #GstVideoMeta and the
 * device's alignment.
 *
 * With #GstClHistogram:max-frames-in-flight above 1 the upload of one
 * frame overlaps the counting of the ones before: a frame leaves with its
 * meta once that many - 1 later frames have come in, or at EOS, a caps
 * change or any other serialized event, which push every pending frame
 * first; a flush drops them. The latency query reports the frames' delay.
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
#include "gstclcontext.h"
#include "gstclbufferpool.h"
#include "gstclhostmemory.h"

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
#define DEFAULT_MAX_FRAMES_IN_FLIGHT 0
/* Frames in flight for a source that is not live when the property is 0:
 * enough for the upload of one frame to overlap the counting and readback
 * of the one before. To be set from measurements on the GPU. */
#define DEFAULT_FRAMES_IN_FLIGHT 4
/* How long frames may wait for later ones with none coming: far above the
 * gap between frames of a stream at full speed (tens of microseconds),
 * far below a frame of video. */
#define IDLE_DRAIN_DELAY GST_MSECOND
#define MAX_FRAMES_IN_FLIGHT 16

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
  PROP_MAX_FRAMES_IN_FLIGHT,
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

/* A frame from submit_input_buffer to generate_output: the buffer, the
 * mapping the engine reads until the frame is collected, and what its meta
 * and message say, taken when it arrived. */
typedef struct {
  GstBuffer *buffer;
  /* Submitted to the engine; FALSE for a frame nothing is counted for,
   * queued only to keep its place. */
  gboolean counted;
  gboolean video_mapped;
  GstVideoFrame vframe;
  gboolean buffer_mapped;
  GstMapInfo map;

  GstClHistogramSettings settings;
  ClhHistogramSpec spec;
  const gchar *const *names;
  guint width;
  guint height;
  guint depth;
  GstVideoColorRange video_range;
  GstClockTime running_time;
  GstClockTime stream_time;
} GstClHistogramFrame;

static GstMessage *
histogram_message_new (GstClHistogram *self, GstBuffer *buffer,
    const GstClHistogramFrame *frame, const ClhHistogram *hist)
{
  const ClhHistogramSpec *spec = &frame->spec;
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  const guint n_bins = clh_histogram_spec_n_bins (spec);
  GValue counts = G_VALUE_INIT;
  guint shape[3], n_dims = spec_shape (spec, shape), range_min, range_max;
  GstStructure *s;
  guint c, b;

  spec_range (spec, &range_min, &range_max);

  s = gst_structure_new ("histogram",
      "timestamp", G_TYPE_UINT64, GST_BUFFER_PTS (buffer),
      "stream-time", G_TYPE_UINT64, frame->stream_time,
      "running-time", G_TYPE_UINT64, frame->running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      "mode", G_TYPE_STRING, gst_histogram_mode_get_nick (frame->settings.mode),
      "bins", G_TYPE_UINT, n_bins, NULL);
  take_array (s, "channels", G_TYPE_STRING, frame->names, 0, n_channels);

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
      (guint64) frame->width * frame->height, NULL);
  take_array (s, "samples", G_TYPE_UINT64, hist->samples, sizeof (guint64),
      n_channels);
  take_array (s, "below", G_TYPE_UINT64, hist->below, sizeof (guint64),
      n_channels);
  take_array (s, "above", G_TYPE_UINT64, hist->above, sizeof (guint64),
      n_channels);
  take_array (s, "shape", G_TYPE_UINT, shape, sizeof (guint), n_dims);
  gst_structure_set (s,
      "depth", G_TYPE_UINT, frame->depth,
      "video-range", G_TYPE_STRING, video_range_name (frame->video_range),
      "range-min", G_TYPE_UINT, range_min,
      "range-max", G_TYPE_UINT, range_max, NULL);

  return gst_message_new_element (GST_OBJECT (self), s);
}

static void
attach_meta (GstBuffer *buffer, const GstClHistogramFrame *frame,
    const ClhHistogram *hist)
{
  const ClhHistogramSpec *spec = &frame->spec;
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  guint shape[3], n_dims = spec_shape (spec, shape), range_min, range_max, c;
  GstHistogramMeta *meta;

  meta = gst_buffer_add_histogram_meta (buffer, frame->settings.mode,
      n_channels, frame->names, clh_histogram_spec_n_bins (spec),
      hist->counts, 0, 0, frame->width, frame->height);
  for (c = 0; c < n_channels; c++)
    gst_histogram_meta_set_channel_stats (meta, c, hist->samples[c],
        hist->below[c], hist->above[c]);
  spec_range (spec, &range_min, &range_max);
  gst_histogram_meta_set_sample_format (meta, frame->depth,
      frame->video_range, range_min, range_max);
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

/* Posts the element error for an engine failure on a frame. */
static void
post_engine_error (GstClHistogram *self, const GError *err)
{
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
}

static void
frame_unmap (GstClHistogramFrame *frame)
{
  if (frame->video_mapped)
    gst_video_frame_unmap (&frame->vframe);
  if (frame->buffer_mapped)
    gst_buffer_unmap (frame->buffer, &frame->map);
  frame->video_mapped = frame->buffer_mapped = FALSE;
}

/* Only once the engine has collected or discarded the frame. */
static void
frame_free (GstClHistogramFrame *frame)
{
  frame_unmap (frame);
  gst_clear_buffer (&frame->buffer);
  g_free (frame);
}

/* The frame a buffer's memory holds, from its GstVideoMeta (whose size
 * may exceed the caps': videocrop's crop meta leaves the caps at the
 * cropped size) or its caps; FALSE after posting a STREAM error if the
 * meta disagrees with the caps, which gst_video_frame_map() asserts on. */
static gboolean
memory_frame (GstClHistogram *self, const GstVideoMeta *vmeta,
    ClhFrame *frame)
{
  const GstVideoInfo *info = &self->info;
  guint p;

  *frame = self->layout;
  if (!vmeta)
    return TRUE;
  if (vmeta->format != GST_VIDEO_INFO_FORMAT (info)
      || vmeta->n_planes != GST_VIDEO_INFO_N_PLANES (info)
      || vmeta->width < (guint) GST_VIDEO_INFO_WIDTH (info)
      || vmeta->height < (guint) GST_VIDEO_INFO_HEIGHT (info)
      || vmeta->width > CLH_MAX_DIMENSION
      || vmeta->height > CLH_MAX_DIMENSION) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("A buffer's GstVideoMeta describes a %ux%u %s frame of %u planes, "
            "which does not hold the %dx%d %s frame of its caps; the element "
            "upstream attached a wrong GstVideoMeta.", vmeta->width,
            vmeta->height, gst_video_format_to_string (vmeta->format),
            vmeta->n_planes, GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info)),
        ("at most %ux%u; caps have %u planes", CLH_MAX_DIMENSION,
            CLH_MAX_DIMENSION, GST_VIDEO_INFO_N_PLANES (info)));
    return FALSE;
  }
  frame->width = vmeta->width;
  frame->height = vmeta->height;
  for (p = 0; p < frame->n_planes; p++) {
    const gsize row = clh_frame_plane_row_bytes (frame, p);

    if (vmeta->stride[p] <= 0 || (gsize) vmeta->stride[p] < row) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("A buffer's GstVideoMeta gives plane %u a stride of %d bytes, "
              "too small for its %" G_GSIZE_FORMAT "-byte rows of %s; the "
              "element upstream attached a wrong GstVideoMeta.", p,
              vmeta->stride[p], row, GST_VIDEO_INFO_NAME (info)), (NULL));
      return FALSE;
    }
    frame->planes[p].stride = vmeta->stride[p];
  }
  return TRUE;
}

/* Checks every plane of @frame, at the GstVideoMeta's offsets, lies inside
 * the buffer; FALSE after posting a STREAM error. */
static gboolean
check_frame_size (GstClHistogram *self, GstBuffer *buffer,
    const GstVideoMeta *vmeta, const ClhFrame *frame)
{
  const GstVideoInfo *info = &self->info;
  const gsize size = gst_buffer_get_size (buffer);
  gsize needed = GST_VIDEO_INFO_SIZE (info), end;
  gboolean fits = TRUE;
  guint p;

  if (vmeta) {
    needed = 0;
    for (p = 0; p < frame->n_planes; p++) {
      fits = fits && g_size_checked_add (&end, vmeta->offset[p],
          clh_frame_plane_span (frame, p));
      needed = fits ? MAX (needed, end) : G_MAXSIZE;
    }
  }
  if (fits && size >= needed)
    return TRUE;
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("Buffer of %" G_GSIZE_FORMAT " bytes is too small for a %ux%u %s "
          "frame; the element upstream sent a truncated or malformed frame.",
          size, frame->width, frame->height, GST_VIDEO_INFO_NAME (info)),
      ("needs %" G_GSIZE_FORMAT " bytes%s", needed,
          fits ? "" : " (a GstVideoMeta offset past the largest size)"));
  return FALSE;
}

/* Narrows @planes (the memory's frame) to what is counted: the
 * GstVideoCropMeta's rectangle, or the caps' size from the top-left; FALSE
 * after posting a STREAM error for a rectangle that cannot be read. */
static gboolean
crop_frame (GstClHistogram *self, GstClHistogramFrame *frame,
    ClhFrame *planes)
{
  GstVideoCropMeta *crop = gst_buffer_get_video_crop_meta (frame->buffer);
  guint x = 0, y = 0, width = frame->width, height = frame->height;
  GError *err = NULL;

  if (crop) {
    x = crop->x;
    y = crop->y;
    width = crop->width;
    height = crop->height;
  }
  if (clh_frame_crop (planes, x, y, width, height, &frame->spec, &err)) {
    frame->width = width;
    frame->height = height;
    return TRUE;
  }
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("A %s frame's GstVideoCropMeta cannot be counted in place: %s.",
          GST_VIDEO_INFO_NAME (&self->info), err->message),
      ("crop %ux%u at (%u, %u) of a %ux%u frame; a crop on the chroma grid "
          "(even x and y for 4:2:0), or mode=luma, can be counted", width,
          height, x, y, planes->width, planes->height));
  g_error_free (err);
  return FALSE;
}

/* Maps the frame for reading, as long as the engine reads it, and points
 * @planes into it; FALSE after posting an element error. */
static gboolean
map_frame (GstClHistogram *self, GstClHistogramFrame *frame,
    const GstVideoMeta *vmeta, ClhFrame *planes)
{
  const GstVideoInfo *info = &self->info;

  if (!gst_video_frame_map (&frame->vframe, info, frame->buffer,
          GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for reading.", GST_VIDEO_INFO_NAME (info)),
        ("gst_video_frame_map() failed on %" GST_PTR_FORMAT, frame->buffer));
    return FALSE;
  }
  frame->video_mapped = TRUE;
  if (planes_from_video_frame (planes, &frame->vframe, vmeta != NULL))
    return TRUE;
  frame_unmap (frame);

  GST_DEBUG_OBJECT (self, "a plane spans memory blocks: mapping the buffer");
  if (!gst_buffer_map (frame->buffer, &frame->map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map a %s frame for reading.", GST_VIDEO_INFO_NAME (info)),
        ("gst_buffer_map() failed on %" GST_PTR_FORMAT, frame->buffer));
    return FALSE;
  }
  frame->buffer_mapped = TRUE;
  planes_from_buffer_map (planes, &frame->map, vmeta);
  return TRUE;
}

/* The host block of a buffer in our pool's memory (or that of another
 * element on our context), which the engine reads without a host copy;
 * NULL for any other memory, which takes the engine's copy path. */
static const ClhHostBlock *
frame_block (GstClHistogram *self, GstBuffer *buffer)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!gst_is_cl_host_memory (mem)
      || gst_cl_host_allocator_get_context (mem->allocator) != self->context)
    return NULL;
  return gst_cl_host_memory_get_block (mem);
}

/* Maps the frame and enqueues its counting; FALSE after posting an element
 * error. */
static gboolean
submit_frame (GstClHistogram *self, GstClHistogramFrame *frame)
{
  GstVideoMeta *vmeta = gst_buffer_get_video_meta (frame->buffer);
  const ClhHostBlock *block;
  ClhFrame planes;
  GError *err = NULL;

  if (!memory_frame (self, vmeta, &planes)
      || !check_frame_size (self, frame->buffer, vmeta, &planes)
      || !map_frame (self, frame, vmeta, &planes)
      || !crop_frame (self, frame, &planes))
    return FALSE;

  block = frame_block (self, frame->buffer);
  GST_LOG_OBJECT (self, "%s: %" GST_PTR_FORMAT, block ?
      "our host memory, no host copy" : "other memory, copy path",
      frame->buffer);
  if (!clh_engine_submit (self->engine, &planes, &frame->spec, block, &err)) {
    post_engine_error (self, err);
    g_clear_error (&err);
    return FALSE;
  }
  frame->counted = TRUE;
  return TRUE;
}

/* A new frame for @buffer (taken) with what its meta and message will say:
 * the settings and format now, and its times in the segment now. */
static GstClHistogramFrame *
frame_new (GstClHistogram *self, GstBuffer *buffer)
{
  GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  GstClHistogramFrame *frame = g_new0 (GstClHistogramFrame, 1);
  const GstClockTime ts = GST_BUFFER_PTS (buffer);

  frame->buffer = buffer;
  frame->running_time = frame->stream_time = GST_CLOCK_TIME_NONE;
  if (segment->format == GST_FORMAT_TIME) {
    frame->running_time = gst_segment_to_running_time (segment,
        GST_FORMAT_TIME, ts);
    frame->stream_time = gst_segment_to_stream_time (segment,
        GST_FORMAT_TIME, ts);
  }
  return frame;
}

/* What the frame is counted with, from the settings now; FALSE with @err
 * if they cannot count this format. Called with the object lock. */
static gboolean
frame_configure (GstClHistogram *self, GstClHistogramFrame *frame,
    GError **err)
{
  frame->settings = self->settings;
  frame->width = GST_VIDEO_INFO_WIDTH (&self->info);
  frame->height = GST_VIDEO_INFO_HEIGHT (&self->info);
  frame->depth = self->layout.depth;
  frame->video_range = GST_VIDEO_INFO_COLORIMETRY (&self->info).range;
  return build_spec (&frame->settings, &self->info, &self->layout,
      &frame->spec, &frame->names, err);
}

/* Frames the engine keeps at once: the property, or when it is 0 one for
 * live sources (each frame goes on at once) and DEFAULT_FRAMES_IN_FLIGHT
 * for others. */
static guint
in_flight_for (guint property, gboolean live)
{
  if (property > 0)
    return property;
  return live ? 1 : DEFAULT_FRAMES_IN_FLIGHT;
}

static guint
wanted_in_flight (GstClHistogram *self)
{
  guint n;

  GST_OBJECT_LOCK (self);
  n = in_flight_for (self->max_frames_in_flight, self->upstream_live);
  GST_OBJECT_UNLOCK (self);
  return n;
}

/* Gives the engine the frames in flight wanted now; only with nothing
 * pending, which the engine requires. */
static void
apply_in_flight (GstClHistogram *self)
{
  const guint n = wanted_in_flight (self);
  GError *err = NULL;

  if (n == self->in_flight)
    return;
  if (!clh_engine_set_max_in_flight (self->engine, n, &err)) {
    GST_WARNING_OBJECT (self, "keeping %u frames in flight: %s",
        self->in_flight, err->message);
    g_clear_error (&err);
    return;
  }
  GST_DEBUG_OBJECT (self, "%u frames in flight (was %u)", n, self->in_flight);
  self->in_flight = n;
}

/* Drops every pending frame unpushed, once the device is done with it. */
static void
discard_pending (GstClHistogram *self)
{
  GstClHistogramFrame *frame;

  if (self->engine && clh_engine_get_n_pending (self->engine) > 0)
    clh_engine_discard (self->engine);
  if (!g_queue_is_empty (&self->pending))
    GST_DEBUG_OBJECT (self, "discarding %u pending frames",
        g_queue_get_length (&self->pending));
  while ((frame = g_queue_pop_head (&self->pending)))
    frame_free (frame);
  gst_cl_idle_drain_note (self->idle, FALSE);
}

static GstFlowReturn
gst_cl_histogram_submit_input_buffer (GstBaseTransform *trans,
    gboolean is_discont, GstBuffer *input)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstClHistogramFrame *frame;
  GError *err = NULL;
  gboolean count, valid = TRUE;
  GstFlowReturn ret;

  /* What downstream said to frames the idle drain pushed. */
  if (self->idle_flow != GST_FLOW_OK) {
    gst_buffer_unref (input);
    return self->idle_flow;
  }

  /* The parent negotiates, applies QoS and leaves the buffer queued. */
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);
  if (ret != GST_FLOW_OK || !trans->queued_buf)
    return ret;

  frame = frame_new (self, trans->queued_buf);
  trans->queued_buf = NULL;
  if (g_queue_is_empty (&self->pending))
    apply_in_flight (self);

  GST_OBJECT_LOCK (self);
  count = self->settings.post_messages || self->settings.attach_meta;
  if (count)
    valid = frame_configure (self, frame, &err);
  GST_OBJECT_UNLOCK (self);

  if (!valid) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s.", err->message), (NULL));
    g_clear_error (&err);
    ret = GST_FLOW_NOT_NEGOTIATED;
  } else if (count && !submit_frame (self, frame)) {
    ret = GST_FLOW_ERROR;
  }
  if (ret != GST_FLOW_OK) {
    frame_free (frame);
    discard_pending (self);
    return ret;
  }
  g_queue_push_tail (&self->pending, frame);
  return GST_FLOW_OK;
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

/* Collects the oldest frame's histogram, attaches and posts it and hands
 * back its buffer; frees @frame. */
static GstFlowReturn
finish_frame (GstClHistogram *self, GstClHistogramFrame *frame,
    GstBuffer **outbuf)
{
  const gboolean counted = frame->counted;
  ClhHistogram hist;
  GError *err = NULL;
  GstBuffer *buffer;

  if (counted) {
    hist.counts = counts_for (self, &frame->spec);
    if (!clh_engine_collect (self->engine, &hist, &err)) {
      post_engine_error (self, err);
      g_clear_error (&err);
      frame_free (frame);
      return GST_FLOW_ERROR;
    }
  }
  frame_unmap (frame);
  buffer = g_steal_pointer (&frame->buffer);

  /* In place, as GstBaseTransform makes a buffer writable for
   * transform_ip; without meta (passthrough) it stays as it came. */
  if (counted && frame->settings.attach_meta) {
    buffer = gst_buffer_make_writable (buffer);
    attach_meta (buffer, frame, &hist);
  }
  if (counted && frame->settings.post_messages)
    gst_element_post_message (GST_ELEMENT (self),
        histogram_message_new (self, buffer, frame, &hist));
  frame_free (frame);
  *outbuf = buffer;
  return GST_FLOW_OK;
}

/* Whether the oldest frame goes on now: frames counted for nothing at
 * once, others when the engine keeps as many as it may (a frame waits for
 * in_flight - 1 later ones), and all of them when the frames in flight
 * wanted changed, so that the change applies from the next frame. */
static gboolean
head_is_due (GstClHistogram *self)
{
  GstClHistogramFrame *head = g_queue_peek_head (&self->pending);

  return head && (!head->counted
      || clh_engine_get_n_pending (self->engine) >= self->in_flight
      || wanted_in_flight (self) != self->in_flight);
}

/* Frames stay pending for later ones; the idle drain pushes them if none
 * come. */
static GstFlowReturn
hold_pending (GstClHistogram *self)
{
  if (gst_cl_idle_drain_note (self->idle, !g_queue_is_empty (&self->pending)))
    return GST_FLOW_OK;
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Could not start a thread to push frames held in flight."),
      ("set max-frames-in-flight=1 to hold none"));
  discard_pending (self);
  return GST_FLOW_ERROR;
}

static GstFlowReturn
gst_cl_histogram_generate_output (GstBaseTransform *trans, GstBuffer **outbuf)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstFlowReturn ret;

  *outbuf = NULL;
  if (!head_is_due (self))
    return hold_pending (self);
  ret = finish_frame (self, g_queue_pop_head (&self->pending), outbuf);
  if (ret != GST_FLOW_OK)
    discard_pending (self);
  return ret;
}

/* Pushes every pending frame, oldest first, from the streaming thread:
 * before a serialized event or query, so that nothing overtakes them. */
static GstFlowReturn
drain (GstClHistogram *self)
{
  GstClHistogramFrame *frame;
  GstFlowReturn ret = GST_FLOW_OK;

  if (!g_queue_is_empty (&self->pending))
    GST_DEBUG_OBJECT (self, "draining %u frames",
        g_queue_get_length (&self->pending));
  while (ret == GST_FLOW_OK && (frame = g_queue_pop_head (&self->pending))) {
    GstBuffer *out = NULL;

    ret = finish_frame (self, frame, &out);
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
  }
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "drain stopped: %s", gst_flow_get_name (ret));
    discard_pending (self);
  }
  gst_cl_idle_drain_note (self->idle, FALSE);
  return ret;
}

/* From the idle-drain thread, with the streaming lock: no frame came for a
 * while, so the ones held go on; the next frame returns upstream what
 * downstream said. */
static void
drain_idle (GstElement *element)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (element);

  self->idle_flow = drain (self);
}

/* Never called: submit_input_buffer and generate_output replace the
 * default path, but GstBaseTransform works in place only for an element
 * that has transform_ip. */
static GstFlowReturn
gst_cl_histogram_transform_ip (GstBaseTransform *trans, GstBuffer *buffer)
{
  g_return_val_if_reached (GST_FLOW_ERROR);
}

static gboolean
gst_cl_histogram_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    discard_pending (self);
    self->idle_flow = GST_FLOW_OK;
  }
  else if (GST_EVENT_IS_SERIALIZED (event))
    drain (self);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* The duration of a frame at the caps' framerate; NONE if it varies. */
static GstClockTime
frame_duration (GstClHistogram *self)
{
  GstClockTime duration = GST_CLOCK_TIME_NONE;

  GST_OBJECT_LOCK (self);
  if (GST_VIDEO_INFO_FPS_N (&self->info) > 0)
    duration = gst_util_uint64_scale_int (GST_SECOND,
        GST_VIDEO_INFO_FPS_D (&self->info), GST_VIDEO_INFO_FPS_N (&self->info));
  GST_OBJECT_UNLOCK (self);
  return duration;
}

/* Adds what frames in flight delay a frame by: in_flight - 1 frames. */
static void
add_in_flight_latency (GstClHistogram *self, GstQuery *query)
{
  GstClockTime min, max, duration = frame_duration (self), added;
  gboolean live;
  guint n;

  gst_query_parse_latency (query, &live, &min, &max);
  GST_OBJECT_LOCK (self);
  n = in_flight_for (self->max_frames_in_flight, live);
  GST_OBJECT_UNLOCK (self);
  if (n <= 1 || !GST_CLOCK_TIME_IS_VALID (duration))
    return;
  added = (n - 1) * duration;
  GST_DEBUG_OBJECT (self, "%u frames in flight add %" GST_TIME_FORMAT, n,
      GST_TIME_ARGS (added));
  gst_query_set_latency (query, live, min + added,
      GST_CLOCK_TIME_IS_VALID (max) ? max + added : max);
}

static gboolean
gst_cl_histogram_query (GstBaseTransform *trans, GstPadDirection direction,
    GstQuery *query)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  ClhContext *context = NULL;
  gboolean ret;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GST_OBJECT_LOCK (self);
    if (self->context)
      context = gst_cl_context_handle_ref (self->context);
    GST_OBJECT_UNLOCK (self);
    ret = gst_cl_handle_context_query (GST_ELEMENT (self), query, context);
    g_clear_pointer (&context, gst_cl_context_handle_unref);
    if (ret)
      return TRUE;
  }
  /* Upstream may change its pool or wait for every frame back (DRAIN). */
  if (direction == GST_PAD_SINK && GST_QUERY_IS_SERIALIZED (query))
    drain (self);

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
  if (ret && direction == GST_PAD_SRC
      && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY)
    add_in_flight_latency (self, query);
  return ret;
}

/* A pool of our host memory, sized for @caps, with GstVideoMeta and the
 * device's alignment; added to @query unless something fails. */
static void
propose_pool (GstClHistogram *self, GstQuery *query, GstCaps *caps,
    GstAllocator *allocator)
{
  ClhContext *context = gst_cl_host_allocator_get_context (allocator);
  GstAllocationParams params;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  guint size, min = wanted_in_flight (self) + 1;

  if (!caps || !gst_video_info_from_caps (&info, caps))
    return;
  gst_allocation_params_init (&params);
  params.align = clh_context_get_alignment (context) - 1;
  /* A frame is one device buffer, and the allocator over-allocates by the
   * alignment; bigger frames take the copy path, which uploads in bands. */
  if (info.size > clh_context_get_max_host_block (context) - params.align
      - gst_memory_alignment) {
    GST_INFO_OBJECT (self, "no pool: a %" G_GSIZE_FORMAT "-byte frame is "
        "larger than %s's largest buffer (%" G_GSIZE_FORMAT " bytes)",
        info.size, clh_context_get_device_name (context),
        clh_context_get_max_host_block (context));
    return;
  }

  pool = gst_cl_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, 0);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (self, "our pool refused its config");
    gst_object_unref (pool);
    return;
  }
  /* The pool may have grown the size. */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);

  GST_DEBUG_OBJECT (self, "proposing a pool of %u-byte buffers in host "
      "memory, at least %u", size, min);
  gst_query_add_allocation_pool (query, pool, size, min, 0);
  if (gst_query_get_n_allocation_params (query) == 0)
    gst_query_add_allocation_param (query, allocator, &params);
  gst_object_unref (pool);
}

static gboolean
gst_cl_histogram_propose_allocation (GstBaseTransform *trans,
    GstQuery *decide_query, GstQuery *query)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);
  GstAllocator *allocator = NULL;
  GstCaps *caps;
  gboolean need_pool;

  /* In place, downstream sees our input buffers: it proposes first. */
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
          decide_query, query))
    GST_DEBUG_OBJECT (self, "downstream answered no allocation query");

  /* We read GstVideoMeta's offsets and strides. */
  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!need_pool || gst_query_get_n_allocation_pools (query) > 0)
    return TRUE;

  GST_OBJECT_LOCK (self);
  if (self->allocator)
    allocator = gst_object_ref (self->allocator);
  GST_OBJECT_UNLOCK (self);
  if (allocator) {
    propose_pool (self, query, caps, allocator);
    gst_object_unref (allocator);
  }
  return TRUE;
}

/* Whether upstream is live, for the automatic frames in flight; unknown
 * counts as live, which keeps one frame in flight as before. */
static gboolean
query_upstream_live (GstClHistogram *self)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = TRUE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  else
    GST_DEBUG_OBJECT (self, "upstream answered no latency query");
  gst_query_unref (query);
  return live;
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
  gboolean valid, live;

  if (!gst_video_info_from_caps (&info, incaps)
      || !layout_from_info (&info, &layout)) {
    GST_WARNING_OBJECT (self, "unsupported caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  live = query_upstream_live (self);

  GST_OBJECT_LOCK (self);
  valid = build_spec (&self->settings, &info, &layout, &spec, &names, &err);
  if (valid) {
    self->info = info;
    self->layout = layout;
    self->upstream_live = live;
  }
  GST_OBJECT_UNLOCK (self);

  if (!valid) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s.", err->message),
        ("caps %" GST_PTR_FORMAT, incaps));
    g_clear_error (&err);
  }
  return valid;
}

/* Posts the element error for a device that could not be opened: what to
 * do, by cause. */
static void
post_open_error (GstClHistogram *self, const gchar *spec, const GError *err)
{
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
}

static void
close_engine (GstClHistogram *self)
{
  GstAllocator *allocator;
  ClhContext *context;

  discard_pending (self);
  g_clear_pointer (&self->engine, clh_engine_free);
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->device_name, g_free);
  allocator = g_steal_pointer (&self->allocator);
  context = g_steal_pointer (&self->context);
  GST_OBJECT_UNLOCK (self);
  /* The last references may close the device: not under the lock. */
  gst_clear_object (&allocator);
  g_clear_pointer (&context, gst_cl_context_handle_unref);
}

/* Finds the shared device context (see gstclcontext.c) and makes our own
 * engine on it; FALSE after posting an element error that says what to
 * do. */
static gboolean
open_engine (GstClHistogram *self)
{
  GstElement *element = GST_ELEMENT (self);
  GError *err = NULL;
  ClhContext *context = NULL;
  ClhEngine *engine = NULL;
  gchar *spec;

  GST_OBJECT_LOCK (self);
  spec = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);

  if (gst_cl_ensure_element_context (element, spec, &self->context, &err)) {
    GST_OBJECT_LOCK (self);
    context = gst_cl_context_handle_ref (self->context);
    GST_OBJECT_UNLOCK (self);
    engine = clh_engine_new_for_context (context, &err);
  }
  if (!engine) {
    post_open_error (self, spec, err);
    g_clear_error (&err);
    g_clear_pointer (&context, gst_cl_context_handle_unref);
    close_engine (self);
    g_free (spec);
    return FALSE;
  }

  GST_INFO_OBJECT (self, "using OpenCL device %s (%s)",
      clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine));
  self->in_flight = clh_engine_get_max_in_flight (engine);
  GST_OBJECT_LOCK (self);
  self->engine = engine;
  self->device_name = g_strdup (clh_context_get_device_name (context));
  self->allocator = gst_cl_host_allocator_new (context);
  GST_OBJECT_UNLOCK (self);
  gst_cl_context_handle_unref (context);
  g_free (spec);
  return TRUE;
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
gst_cl_histogram_set_context (GstElement *element, GstContext *context)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (element);
  gboolean store = TRUE;
  gchar *spec;

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CL_CONTEXT_TYPE) == 0) {
    GST_OBJECT_LOCK (self);
    spec = g_strdup (self->device);
    GST_OBJECT_UNLOCK (self);
    /* One on another device, or while we have one, is not ours to keep:
     * gst_element_get_context() tells what we use. */
    store = gst_cl_handle_set_context (element, context, spec,
        &self->context);
    g_free (spec);
  }
  if (store)
    GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* Streaming has stopped (PAUSED->READY): drop what is still pending. */
static gboolean
gst_cl_histogram_stop (GstBaseTransform *trans)
{
  GstClHistogram *self = GST_CL_HISTOGRAM (trans);

  gst_cl_idle_drain_stop (self->idle);
  discard_pending (self);
  self->idle_flow = GST_FLOW_OK;
  return TRUE;
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
    case PROP_MAX_FRAMES_IN_FLIGHT:
      GST_OBJECT_LOCK (self);
      self->max_frames_in_flight = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      /* What frames in flight add to the latency changes. */
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_latency (GST_OBJECT (self)));
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
    case PROP_MAX_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->max_frames_in_flight);
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
  gst_cl_idle_drain_free (self->idle);
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
  g_object_class_install_property (gobject_class, PROP_MAX_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("max-frames-in-flight", "Max frames in flight",
          "Frames counted at once, so that one frame's upload overlaps the "
          "counting of the one before; each waits for that many - 1 later "
          "frames and adds as much latency (0: automatic: 1 when upstream "
          "is live, else " G_STRINGIFY (DEFAULT_FRAMES_IN_FLIGHT) ")", 0,
          MAX_FRAMES_IN_FLIGHT, DEFAULT_MAX_FRAMES_IN_FLIGHT,
          PLAYING_PROPERTY));
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
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_set_context);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_histogram_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_histogram_set_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_histogram_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_histogram_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_propose_allocation);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cl_histogram_generate_output);
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
  self->max_frames_in_flight = DEFAULT_MAX_FRAMES_IN_FLIGHT;
  self->upstream_live = TRUE;
  self->in_flight = 1;
  gst_video_info_init (&self->info);
  g_queue_init (&self->pending);
  self->idle = gst_cl_idle_drain_new (GST_ELEMENT (self),
      GST_BASE_TRANSFORM_SINK_PAD (self), IDLE_DRAIN_DELAY, drain_idle);

  gst_base_transform_set_in_place (trans, TRUE);
  gst_base_transform_set_passthrough (trans, !DEFAULT_ATTACH_META);
}
