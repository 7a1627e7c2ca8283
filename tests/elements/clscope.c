/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The clscope and clscopeoverlay elements, through GstHarness: the
 * picture pixel for pixel
 * against the golden reference on every format clhistogram reads (one of
 * each layout in the quick run), odd sizes, padded GstVideoMeta planes,
 * limited and full range, the caps' matrix, every property, properties
 * changed while streaming, the picture's size from downstream and its
 * default, timestamps, real frames of vtest.avi; what a user or upstream
 * gets wrong (a picture too small for the scopes, no scope, a truncated
 * buffer, a device that does not exist, caps it does not read); a
 * pipeline into compositor; the overlay on every format, every byte of
 * the frame against the reference's blend, its corners, sizes and
 * opacities; the pool of host memory both propose upstream, frames from
 * it drawn and blended without a host copy, and frames in other memory
 * when upstream does not use it; and, in their own environments, no
 * OpenCL, a kernel build failure and an OpenCL failure while streaming. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "clh-test-timeout.h"
#include "clh-check-util.h"
#include "clh-reference-layout.h"
#include "clh-reference-scope.h"
#include "clh-test-run.h"

/* Every format clhistogram reads. */
static const gchar *const formats[] = {
  "GRAY8", "GRAY16_LE", "GRAY16_BE", "RGB", "BGR", "RGBA", "BGRA", "ARGB",
  "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "I420", "YV12", "Y41B", "Y42B",
  "Y444", "YUV9", "YVU9", "NV12", "NV21", "NV16", "NV61", "NV24", "YUY2",
  "UYVY", "YVYU", "VYUY", "I420_10LE", "I420_10BE", "I420_12LE",
  "I422_10LE", "I422_12LE", "Y444_10LE", "Y444_10BE", "Y444_12LE",
  "Y444_16LE", "P010_10LE", "P012_LE", "P016_LE",
};

/* What the test sets and expects of the element. */
typedef struct {
  guint kinds;
  gint scale;
  gint graticule;
  gdouble intensity;
  /* vectorscope-zoom; 0 (left out) is the default, 1 */
  guint zoom;
} Props;

/* The element's defaults. */
static const Props defaults = { CLH_SCOPE_WAVEFORM | CLH_SCOPE_VECTORSCOPE,
  CLH_SCOPE_LINEAR, CLH_SCOPE_GRATICULE_IRE, 0.15
};

static GstHarness *
harness_of (const gchar *factory, GstBus **bus)
{
  GstHarness *h = gst_harness_new (factory);

  *bus = clh_check_harness_bus (h->element);
  return h;
}

static GstHarness *
harness_new (GstBus **bus)
{
  GstHarness *h = gst_harness_new ("clscope");

  *bus = clh_check_harness_bus (h->element);
  return h;
}

static void
set_props (GstElement *e, const Props *p)
{
  g_object_set (e, "scopes", p->kinds, "scale", p->scale, "graticule",
      p->graticule, "intensity", p->intensity, "vectorscope-zoom",
      MAX (p->zoom, 1), NULL);
}

/* Input caps of @format at @width x @height: BT.709 limited range for
 * YUV, sRGB for RGB, full-range gray, unless @colorimetry says. */
static gchar *
input_caps (const gchar *format, gint width, gint height,
    const gchar *colorimetry)
{
  GstVideoInfo info;
  gchar *s;
  GstCaps *caps;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  info.fps_n = 25;
  info.fps_d = 1;
  if (colorimetry)
    gst_video_colorimetry_from_string (&info.colorimetry, colorimetry);
  else if (GST_VIDEO_INFO_IS_YUV (&info))
    gst_video_colorimetry_from_string (&info.colorimetry, "bt709");
  caps = gst_video_info_to_caps (&info);
  s = gst_caps_to_string (caps);
  gst_caps_unref (caps);
  return s;
}

/* A frame of @info: random bytes, with a band of one value and a
 * gradient, so that every scope has dense cells and sparse ones. */
static GstBuffer *
frame_new (const GstVideoInfo *info, guint32 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = i < map.size / 4 ? (guint8) (i / 97) : i < map.size / 2 ?
        0x60 : (guint8) g_rand_int (rand);
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  GST_BUFFER_PTS (buf) = seed * GST_SECOND / 25;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 25;
  return buf;
}

/* The same frame with every plane padded on every side, described by a
 * GstVideoMeta. */
static GstBuffer *
padded_frame_new (const GstVideoInfo *info, guint32 seed)
{
  GstBuffer *plain = frame_new (info, seed), *buf;
  gsize offsets[GST_VIDEO_MAX_PLANES], size = 64;
  gint strides[GST_VIDEO_MAX_PLANES];
  GstMapInfo in, out;
  guint p, n = GST_VIDEO_INFO_N_PLANES (info);

  for (p = 0; p < n; p++) {
    const gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, p,
        GST_VIDEO_INFO_HEIGHT (info));

    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + 24;
    offsets[p] = size + strides[p] * 2;
    size = offsets[p] + (gsize) strides[p] * (rows + 2);
  }
  buf = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (plain, &in, GST_MAP_READ);
  gst_buffer_map (buf, &out, GST_MAP_WRITE);
  memset (out.data, 0xa5, size);
  for (p = 0; p < n; p++) {
    const gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, p,
        GST_VIDEO_INFO_HEIGHT (info));
    gint y;

    for (y = 0; y < rows; y++)
      memcpy (out.data + offsets[p] + (gsize) y * strides[p],
          in.data + GST_VIDEO_INFO_PLANE_OFFSET (info, p)
          + (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (info, p),
          GST_VIDEO_INFO_PLANE_STRIDE (info, p));
  }
  gst_buffer_unmap (buf, &out);
  gst_buffer_unmap (plain, &in);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n, offsets, strides);
  GST_BUFFER_PTS (buf) = GST_BUFFER_PTS (plain);
  gst_buffer_unref (plain);
  return buf;
}

/* The reference's picture of @in (caps @info) at the size of @out's
 * caps, with @props, Kr and Kb in 1/10000 as the test expects the
 * element to take them. */
static void
assert_picture (GstBuffer *in, const GstVideoInfo *info, GstBuffer *out,
    const GstVideoInfo *out_info, const Props *props, guint kr, guint kb,
    const gchar *what)
{
  ClhFrame frame = { 0 };
  ClhFormatClass klass;
  ClhScopeSpec spec = { 0 };
  ClhScopeLayout layout;
  GstVideoFrame vin, vout;
  guint32 *counts;
  guint8 *want;
  gsize stride;
  guint p, y;

  fail_unless (clh_reference_layout (GST_VIDEO_INFO_NAME (info), &frame,
          &klass));
  fail_unless (gst_video_frame_map (&vin, info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&vout, out_info, out, GST_MAP_READ));
  frame.width = GST_VIDEO_INFO_WIDTH (info);
  frame.height = GST_VIDEO_INFO_HEIGHT (info);
  for (p = 0; p < frame.n_planes; p++) {
    frame.planes[p].data = GST_VIDEO_FRAME_PLANE_DATA (&vin, p);
    frame.planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vin, p);
  }
  spec.kinds = props->kinds;
  spec.width = GST_VIDEO_INFO_WIDTH (out_info);
  spec.height = GST_VIDEO_INFO_HEIGHT (out_info);
  spec.source = klass == CLH_FORMAT_GRAY ? CLH_SCOPE_SOURCE_GRAY :
      klass == CLH_FORMAT_RGB ? CLH_SCOPE_SOURCE_RGB : CLH_SCOPE_SOURCE_YUV;
  spec.limited = info->colorimetry.range == GST_VIDEO_COLOR_RANGE_16_235;
  spec.kr = kr;
  spec.kb = kb;
  spec.scale = props->scale;
  spec.graticule = props->graticule;
  spec.intensity = props->intensity;
  spec.vectorscope_zoom = props->zoom;
  clh_reference_scope_layout (&spec, &frame, &layout);
  counts = g_new (guint32, layout.n_counts);
  clh_reference_scope_counts (&frame, &spec, &layout, counts);
  stride = (gsize) spec.width * 4;
  want = g_malloc (stride * spec.height);
  clh_reference_scope_picture (&spec, &layout, counts, want, stride);
  for (y = 0; y < spec.height; y++) {
    const guint8 *got = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vout,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&vout, 0);

    if (memcmp (got, want + y * stride, stride) != 0) {
      guint x = 0;

      while (memcmp (got + 4 * x, want + y * stride + 4 * x, 4) == 0)
        x++;
      fail ("%s: pixel (%u, %u) is %02x%02x%02x%02x, the reference's "
          "%02x%02x%02x%02x", what, x, y, got[4 * x], got[4 * x + 1],
          got[4 * x + 2], got[4 * x + 3], want[y * stride + 4 * x],
          want[y * stride + 4 * x + 1], want[y * stride + 4 * x + 2],
          want[y * stride + 4 * x + 3]);
    }
  }
  g_free (want);
  g_free (counts);
  gst_video_frame_unmap (&vout);
  gst_video_frame_unmap (&vin);
}

/* The BT.601 and BT.709 matrices, as GStreamer's defaults pick them for
 * RGB caps of a frame's height and as YUV caps name them. */
#define BT601_KR 2990
#define BT601_KB 1140
#define BT709_KR 2126
#define BT709_KB 722

static void
out_info_of (GstHarness *h, GstVideoInfo *out_info)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (out_info, caps));
  gst_caps_unref (caps);
}

/* The pool the element proposes for @caps_str, asked as upstream asks:
 * GstVideoMeta, host memory of the device (ClHostMemory) aligned to at
 * least 64 bytes, at least two buffers; active. */
static GstBufferPool *
proposed_pool (GstHarness *h, const gchar *caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  GstAllocationParams params;
  GstAllocator *allocator = NULL;
  GstStructure *config;
  guint size, min, max;

  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE,
          NULL), "no GstVideoMeta in the answer");
  fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 1);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  fail_unless (pool != NULL);
  fail_unless (min >= 2, "min %u buffers", min);
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_allocator (config, &allocator,
          &params));
  fail_unless (allocator != NULL);
  fail_unless_equals_string (allocator->mem_type, "ClHostMemory");
  fail_unless (params.align + 1 >= 64, "align mask %" G_GSIZE_FORMAT,
      params.align);
  fail_unless (gst_buffer_pool_config_has_option (config,
          GST_BUFFER_POOL_OPTION_VIDEO_META));
  gst_structure_free (config);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  gst_query_unref (query);
  gst_caps_unref (caps);
  return pool;
}

/* A buffer of @pool holding @plain's frame (caps @info), as upstream
 * fills the pool's buffers, every row whole (the bytes a packed format's
 * odd last pixel shares with a sample beyond it are read too); takes
 * @plain. */
static GstBuffer *
pool_frame_new (GstBufferPool *pool, const GstVideoInfo *info,
    GstBuffer *plain)
{
  GstBuffer *buffer = NULL;
  GstVideoFrame src, dst;
  guint p;
  gint y;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
          NULL), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_n_memory (buffer), 1);
  fail_unless (gst_memory_is_type (gst_buffer_peek_memory (buffer, 0),
          "ClHostMemory"), "pool memory of another type");
  fail_unless (gst_video_frame_map (&src, info, plain, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, info, buffer, GST_MAP_WRITE));
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    const gint rows = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, p,
        GST_VIDEO_INFO_HEIGHT (info));
    const gint a = GST_VIDEO_FRAME_PLANE_STRIDE (&src, p);
    const gint b = GST_VIDEO_FRAME_PLANE_STRIDE (&dst, p);

    for (y = 0; y < rows; y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&dst, p) + (gsize) y * b,
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, p)
          + (gsize) y * a, MIN (a, b));
  }
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  GST_BUFFER_PTS (buffer) = GST_BUFFER_PTS (plain);
  GST_BUFFER_DURATION (buffer) = GST_BUFFER_DURATION (plain);
  gst_buffer_unref (plain);
  return buffer;
}

/* The frames the scope elements said they read from their host memory
 * (no host copy) and from other memory. */
static gint host_path_frames, copy_path_frames;

static void
count_paths (GstDebugCategory *category, GstDebugLevel level,
    const gchar *file, const gchar *function, gint line, GObject *object,
    GstDebugMessage *message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (!g_str_equal (gst_debug_category_get_name (category), "clscopebase")
      || !text)
    return;
  if (strstr (text, "no host copy"))
    g_atomic_int_inc (&host_path_frames);
  else if (strstr (text, "copy path"))
    g_atomic_int_inc (&copy_path_frames);
}

/* Counts the paths from now on, and prints nothing. */
static void
count_paths_start (void)
{
  host_path_frames = copy_path_frames = 0;
  gst_debug_set_threshold_for_name ("clscopebase", GST_LEVEL_LOG);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (count_paths, NULL, NULL);
}

static void
count_paths_stop (gint host_frames, gint copy_frames)
{
  gst_debug_remove_log_function (count_paths);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  gst_debug_unset_threshold_for_name ("clscopebase");
  fail_unless_equals_int (g_atomic_int_get (&host_path_frames),
      host_frames);
  fail_unless_equals_int (g_atomic_int_get (&copy_path_frames),
      copy_frames);
}

/* One frame of @format through a harness, its picture against the
 * reference; @padded: in padded GstVideoMeta planes. */
static void
check_format (const gchar *format, gint width, gint height,
    const gchar *sink_caps, const Props *props, gboolean padded)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  gchar *caps = input_caps (format, width, height, NULL);
  GstVideoInfo info, out_info;
  GstBuffer *in, *out;
  gboolean yuv;
  gchar *what;

  set_props (h->element, props);
  gst_harness_set_src_caps_str (h, caps);
  if (sink_caps)
    gst_harness_set_sink_caps_str (h, sink_caps);
  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  if (GST_VIDEO_INFO_IS_YUV (&info))
    gst_video_colorimetry_from_string (&info.colorimetry, "bt709");
  /* YUV caps name BT.709; gray and RGB ones no matrix: BT.601 for their
   * height. */
  yuv = GST_VIDEO_INFO_IS_YUV (&info);
  in = padded ? padded_frame_new (&info, 3) : frame_new (&info, 3);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL, "no picture for %s", format);
  out_info_of (h, &out_info);
  fail_unless_equals_string (GST_VIDEO_INFO_NAME (&out_info), "RGBA");
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in));
  what = g_strdup_printf ("%s %dx%d%s", format, width, height,
      padded ? " padded" : "");
  assert_picture (in, &info, out, &out_info, props,
      yuv ? BT709_KR : BT601_KR, yuv ? BT709_KB : BT601_KB, what);
  g_free (what);
  gst_buffer_unref (in);
  gst_buffer_unref (out);
  g_free (caps);
  clh_check_harness_teardown (h, bus);
}

/* Frames in the pool clscope proposes, as upstream allocates them: each
 * picture against the reference, and the same as that of the same frame
 * in other memory, which upstream may still send (it need not use the
 * pool); the element reads the first without a host copy. */
GST_START_TEST (test_pool_path)
{
  static const struct {
    const gchar *format;
    gint width, height;
  } cases[] = {
    {"I420", 640, 360}, {"I420", 101, 67}, {"NV12", 64, 48},
    {"YUY2", 41, 17}, {"RGBA", 50, 30}, {"P010_10LE", 66, 40},
    {"GRAY8", 33, 20},
  };
  guint i;

  count_paths_start ();
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = harness_new (&bus);
    gchar *caps = input_caps (cases[i].format, cases[i].width,
        cases[i].height, NULL);
    GstVideoInfo info, out_info;
    GstBufferPool *pool;
    GstBuffer *in, *plain, *out_pool, *out_plain;
    GstMapInfo a, b;
    gboolean yuv;
    gchar *what = g_strdup_printf ("%s %dx%d from the pool",
        cases[i].format, cases[i].width, cases[i].height);

    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, "video/x-raw,width=384,height=128");
    gst_video_info_set_format (&info,
        gst_video_format_from_string (cases[i].format), cases[i].width,
        cases[i].height);
    yuv = GST_VIDEO_INFO_IS_YUV (&info);
    if (yuv)
      gst_video_colorimetry_from_string (&info.colorimetry, "bt709");
    pool = proposed_pool (h, caps);
    plain = frame_new (&info, i);
    in = pool_frame_new (pool, &info, gst_buffer_copy_deep (plain));
    out_pool = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    out_plain = gst_harness_push_and_pull (h, gst_buffer_ref (plain));
    fail_unless (out_pool != NULL && out_plain != NULL);
    out_info_of (h, &out_info);
    assert_picture (in, &info, out_pool, &out_info, &defaults,
        yuv ? BT709_KR : BT601_KR, yuv ? BT709_KB : BT601_KB, what);
    assert_picture (plain, &info, out_plain, &out_info, &defaults,
        yuv ? BT709_KR : BT601_KR, yuv ? BT709_KB : BT601_KB, what);
    gst_buffer_map (out_pool, &a, GST_MAP_READ);
    gst_buffer_map (out_plain, &b, GST_MAP_READ);
    fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
        "%s: the picture differs from that of the frame in other memory",
        what);
    gst_buffer_unmap (out_plain, &b);
    gst_buffer_unmap (out_pool, &a);
    gst_buffer_unref (out_pool);
    gst_buffer_unref (out_plain);
    gst_buffer_unref (in);
    gst_buffer_unref (plain);
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    g_free (what);
    g_free (caps);
    clh_check_harness_teardown (h, bus);
  }
  count_paths_stop (G_N_ELEMENTS (cases), G_N_ELEMENTS (cases));
}
GST_END_TEST;

/* Pictures when downstream proposes no pool (the harness proposes none;
 * the second time only its allocator, system memory): each output buffer
 * comes from clscope's pool of host memory (ClHostMemory, one memory, a
 * pool's), into which the engine reads the picture back by DMA, and each
 * picture equals the reference's, of frames in other memory and in the
 * pool clscope proposes upstream. */
GST_START_TEST (test_picture_pool)
{
  static const struct {
    const gchar *format;
    gint width, height;
    const gchar *sink_caps;
  } cases[] = {
    {"I420", 640, 360, "video/x-raw,width=384,height=128"},
    {"NV12", 64, 48, "video/x-raw,width=403,height=97"},
    {"RGBA", 50, 30, "video/x-raw"},
  };
  guint i, k;

  for (i = 0; i < 2 * G_N_ELEMENTS (cases); i++) {
    const guint c = i % G_N_ELEMENTS (cases);
    GstBus *bus;
    GstHarness *h = harness_new (&bus);
    gchar *caps = input_caps (cases[c].format, cases[c].width,
        cases[c].height, NULL);
    GstVideoInfo info, out_info;
    GstBufferPool *pool;
    gboolean yuv;
    gchar *what = g_strdup_printf ("%s %dx%d into %s, downstream %s",
        cases[c].format, cases[c].width, cases[c].height, cases[c].sink_caps,
        i < G_N_ELEMENTS (cases) ? "proposing nothing" :
        "proposing system memory");

    if (i >= G_N_ELEMENTS (cases)) {
      GstAllocationParams params;

      gst_allocation_params_init (&params);
      params.align = 15;
      gst_harness_set_propose_allocator (h, gst_allocator_find (NULL),
          &params);
    }
    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, cases[c].sink_caps);
    gst_video_info_set_format (&info,
        gst_video_format_from_string (cases[c].format), cases[c].width,
        cases[c].height);
    yuv = GST_VIDEO_INFO_IS_YUV (&info);
    if (yuv)
      gst_video_colorimetry_from_string (&info.colorimetry, "bt709");
    pool = proposed_pool (h, caps);
    for (k = 0; k < 4; k++) {
      GstBuffer *plain = frame_new (&info, 3 * i + k);
      GstBuffer *in = k % 2 ? pool_frame_new (pool, &info,
          gst_buffer_copy_deep (plain)) : gst_buffer_ref (plain);
      GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (in));

      fail_unless (out != NULL, "%s: no picture", what);
      fail_unless_equals_int (gst_buffer_n_memory (out), 1);
      fail_unless (gst_memory_is_type (gst_buffer_peek_memory (out, 0),
              "ClHostMemory"), "%s: the picture is not in clscope's host "
          "memory", what);
      fail_unless (out->pool != NULL, "%s: the picture is not a pool's",
          what);
      out_info_of (h, &out_info);
      assert_picture (in, &info, out, &out_info, &defaults,
          yuv ? BT709_KR : BT601_KR, yuv ? BT709_KB : BT601_KB, what);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      gst_buffer_unref (plain);
    }
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    g_free (what);
    g_free (caps);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* What both elements answer an allocation query that asks for no pool,
 * or that already holds one: GstVideoMeta, and no pool of theirs. */
GST_START_TEST (test_pool_not_proposed)
{
  const gchar *const factories[] = { "clscope", "clscopeoverlay" };
  gchar *caps_str = input_caps ("I420", 64, 48, NULL);
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstBufferPool *pool = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (factories); i++) {
    GstBus *bus;
    GstHarness *h = harness_of (factories[i], &bus);
    GstQuery *query;

    gst_harness_set_src_caps_str (h, caps_str);
    query = gst_query_new_allocation (caps, FALSE);
    fail_unless (gst_pad_peer_query (h->srcpad, query));
    fail_unless (gst_query_find_allocation_meta (query,
            GST_VIDEO_META_API_TYPE, NULL));
    fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 0);
    gst_query_unref (query);
    query = gst_query_new_allocation (caps, TRUE);
    gst_query_add_allocation_pool (query, NULL, 4608, 3, 0);
    fail_unless (gst_pad_peer_query (h->srcpad, query));
    fail_unless_equals_int (gst_query_get_n_allocation_pools (query), 1);
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
    fail_unless (pool == NULL, "%s replaced the pool proposed",
        factories[i]);
    gst_query_unref (query);
    clh_check_harness_teardown (h, bus);
  }
  gst_caps_unref (caps);
  g_free (caps_str);
}
GST_END_TEST;

GST_START_TEST (test_each_format)
{
  const gchar *format = formats[__i__];

  if (!clh_test_format_in_run (format))
    return;
  check_format (format, 67, 45, NULL, &defaults, FALSE);
  check_format (format, 67, 45, NULL, &defaults, TRUE);
}
GST_END_TEST;

/* Left free, the picture is 256 high and as wide as the scopes' natural
 * shapes: a waveform and a vectorscope of YUV 768, all four of RGB 2048,
 * a parade of gray (one channel, two heights) 512. */
GST_START_TEST (test_default_size)
{
  const struct {
    const gchar *format;
    const gchar *scopes;
    gint width;
  } cases[] = {
    {"I420", "waveform+vectorscope", 768},
    {"RGBA", "waveform+parade+vectorscope+histogram", 2048},
    {"GRAY8", "parade", 512},
    {"NV12", "vectorscope", 256},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = harness_new (&bus);
    gchar *caps = input_caps (cases[i].format, 64, 48, NULL);
    GstVideoInfo info, out_info;
    GstBuffer *out;

    gst_util_set_object_arg (G_OBJECT (h->element), "scopes",
        cases[i].scopes);
    gst_harness_set_src_caps_str (h, caps);
    gst_video_info_set_format (&info,
        gst_video_format_from_string (cases[i].format), 64, 48);
    out = gst_harness_push_and_pull (h, frame_new (&info, 1));
    out_info_of (h, &out_info);
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&out_info),
        cases[i].width);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&out_info), 256);
    fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&out_info), 25);
    gst_buffer_unref (out);
    g_free (caps);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* Every scope, scale and graticule, at sizes downstream asks for. */
GST_START_TEST (test_properties)
{
  const Props props[] = {
    {CLH_SCOPE_PARADE | CLH_SCOPE_HISTOGRAM, CLH_SCOPE_LOG,
        CLH_SCOPE_GRATICULE_CODES, 0.5},
    {CLH_SCOPE_ALL_KINDS, CLH_SCOPE_LOG, CLH_SCOPE_GRATICULE_NONE, 0.01},
    {CLH_SCOPE_VECTORSCOPE, CLH_SCOPE_LINEAR, CLH_SCOPE_GRATICULE_IRE, 1.0,
        4},
    {CLH_SCOPE_HISTOGRAM, CLH_SCOPE_LINEAR, CLH_SCOPE_GRATICULE_CODES, 0.1},
  };
  const gchar *sizes[] = {
    "video/x-raw,width=401,height=203", "video/x-raw,width=960,height=100",
    "video/x-raw,width=300,height=300", "video/x-raw,width=17,height=64",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (props); i++) {
    check_format ("I420", 160, 90, sizes[i], &props[i], FALSE);
    check_format ("BGRx", 31, 90, sizes[i], &props[i], FALSE);
    check_format ("P010_10LE", 64, 36, sizes[i], &props[i], TRUE);
  }
}
GST_END_TEST;

/* Full-range YUV and BT.2020 caps move the graticule and the targets. */
GST_START_TEST (test_colorimetry)
{
  const gchar *const colorimetries[] = { "bt2020", "2:4:5:4", "bt601" };
  const guint krkb[][2] = { {2627, 593}, {2990, 1140}, {2990, 1140} };
  const Props props = { CLH_SCOPE_ALL_KINDS, CLH_SCOPE_LINEAR,
    CLH_SCOPE_GRATICULE_IRE, 0.1
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (colorimetries); i++) {
    GstBus *bus;
    GstHarness *h = harness_new (&bus);
    gchar *caps = input_caps ("I420_10LE", 96, 54, colorimetries[i]);
    GstVideoInfo info, out_info;
    GstBuffer *in, *out;

    set_props (h->element, &props);
    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, "video/x-raw,width=640,height=120");
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420_10LE, 96, 54);
    gst_video_colorimetry_from_string (&info.colorimetry, colorimetries[i]);
    in = frame_new (&info, 5);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    out_info_of (h, &out_info);
    assert_picture (in, &info, out, &out_info, &props, krkb[i][0],
        krkb[i][1], colorimetries[i]);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
    g_free (caps);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* Properties set while streaming apply from the next frame. */
GST_START_TEST (test_change_while_streaming)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  gchar *caps = input_caps ("NV12", 80, 60, NULL);
  const Props second = { CLH_SCOPE_HISTOGRAM | CLH_SCOPE_PARADE,
    CLH_SCOPE_LOG, CLH_SCOPE_GRATICULE_CODES, 0.3
  };
  const Props third = { CLH_SCOPE_VECTORSCOPE | CLH_SCOPE_PARADE,
    CLH_SCOPE_LOG, CLH_SCOPE_GRATICULE_IRE, 0.3, 2
  };
  GstVideoInfo info, out_info;
  GstBuffer *in, *out;

  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, "video/x-raw,width=500,height=150");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 80, 60);
  gst_video_colorimetry_from_string (&info.colorimetry, "bt709");
  in = frame_new (&info, 1);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  out_info_of (h, &out_info);
  assert_picture (in, &info, out, &out_info, &defaults, BT709_KR, BT709_KB,
      "first");
  gst_buffer_unref (out);
  set_props (h->element, &second);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  assert_picture (in, &info, out, &out_info, &second, BT709_KR, BT709_KB,
      "after the change");
  gst_buffer_unref (out);
  set_props (h->element, &third);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  assert_picture (in, &info, out, &out_info, &third, BT709_KR, BT709_KB,
      "after zooming the vectorscope");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (caps);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Scopes that do not fit the picture downstream asks for, or none at all:
 * an error saying what to do, a flow error, no picture. */
GST_START_TEST (test_too_small)
{
  const struct {
    const gchar *scopes;
    const gchar *sink;
    const gchar *in_message;
  } cases[] = {
    {"waveform+parade+vectorscope+histogram",
        "video/x-raw,width=40,height=16", "too small"},
    {"0", "video/x-raw,width=400,height=200", "choose one or more"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = harness_new (&bus);
    gchar *caps = input_caps ("I420", 64, 48, NULL);
    GstVideoInfo info;

    gst_util_set_object_arg (G_OBJECT (h->element), "scopes",
        cases[i].scopes);
    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, cases[i].sink);
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
    fail_unless_equals_int (gst_harness_push (h, frame_new (&info, 1)),
        GST_FLOW_ERROR);
    clh_check_expect_error (bus, GST_LIBRARY_ERROR,
        GST_LIBRARY_ERROR_SETTINGS, cases[i].in_message, NULL);
    fail_unless (gst_harness_try_pull (h) == NULL);
    g_free (caps);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* A buffer too small for its caps: a STREAM error, nothing read past it,
 * no picture; the next whole frame is drawn. */
GST_START_TEST (test_truncated_buffer)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  gchar *caps = input_caps ("I420", 64, 48, NULL);
  GstVideoInfo info;
  GstBuffer *buf, *out;

  gst_harness_set_src_caps_str (h, caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  buf = frame_new (&info, 1);
  gst_buffer_set_size (buf, GST_VIDEO_INFO_SIZE (&info) / 2);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "too small", NULL);
  fail_unless (gst_harness_try_pull (h) == NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, 2));
  fail_unless (out != NULL);
  gst_buffer_unref (out);
  g_free (caps);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A device that does not exist: READY fails with an error naming it. */
GST_START_TEST (test_no_such_device)
{
  GstElement *e = gst_element_factory_make ("clscope", NULL);
  GstBus *bus = gst_bus_new ();
  gchar *name = NULL;

  g_object_set (e, "device", "no-such-device", NULL);
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "no-such-device", NULL);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name == NULL);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}
GST_END_TEST;

/* Formats clhistogram does not read are refused at negotiation. */
GST_START_TEST (test_caps_refused)
{
  GstHarness *h = gst_harness_new ("clscope");
  GstVideoInfo info;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=v210,width=64,"
      "height=48,framerate=25/1");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_v210, 64, 48);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL)),
      GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Frames of vtest.avi, decoded and converted to a few formats, against the
 * reference: a real picture's scopes. */
GST_START_TEST (test_vtest_frames)
{
  const gchar *video = g_getenv ("CLH_TEST_VIDEO");
  const gchar *const video_formats[] = { "I420", "RGBA", "GRAY8",
    "I420_10LE"
  };
  const gchar *format = video_formats[__i__];
  GstElement *pipeline, *scope, *in_sink, *out_sink;
  const Props props = { CLH_SCOPE_ALL_KINDS, CLH_SCOPE_LOG,
    CLH_SCOPE_GRATICULE_IRE, 0.1, 2
  };
  gchar *desc;
  guint k;

  if (!video || !g_file_test (video, G_FILE_TEST_EXISTS)) {
    GST_WARNING ("CLH_TEST_VIDEO is not set or missing: skipped");
    return;
  }
  desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
      "videoconvert ! video/x-raw,format=%s ! tee name=t "
      "t. ! queue ! appsink name=in sync=false "
      "t. ! queue ! clscope name=s ! video/x-raw,width=1200,height=240 ! "
      "appsink name=out sync=false", video, format);
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless (pipeline != NULL);
  scope = gst_bin_get_by_name (GST_BIN (pipeline), "s");
  set_props (scope, &props);
  gst_object_unref (scope);
  in_sink = gst_bin_get_by_name (GST_BIN (pipeline), "in");
  out_sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
  for (k = 0; k < 5; k++) {
    GstSample *a = NULL, *b = NULL;
    GstVideoInfo info, out_info;
    gchar *what;

    g_signal_emit_by_name (in_sink, "pull-sample", &a);
    g_signal_emit_by_name (out_sink, "pull-sample", &b);
    fail_unless (a && b);
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (a)));
    fail_unless (gst_video_info_from_caps (&out_info,
            gst_sample_get_caps (b)));
    what = g_strdup_printf ("vtest.avi frame %u as %s", k, format);
    assert_picture (gst_sample_get_buffer (a), &info,
        gst_sample_get_buffer (b), &out_info, &props,
        GST_VIDEO_INFO_IS_YUV (&info) && info.colorimetry.matrix ==
        GST_VIDEO_COLOR_MATRIX_BT709 ? BT709_KR : BT601_KR,
        GST_VIDEO_INFO_IS_YUV (&info) && info.colorimetry.matrix ==
        GST_VIDEO_COLOR_MATRIX_BT709 ? BT709_KB : BT601_KB, what);
    g_free (what);
    gst_sample_unref (a);
    gst_sample_unref (b);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (in_sink);
  gst_object_unref (out_sink);
  gst_object_unref (pipeline);
  g_free (desc);
}
GST_END_TEST;

/* The picture is a video stream like any other: compositor mixes it with
 * the video it shows. */
GST_START_TEST (test_into_compositor)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,width=320,height=240 ! tee name=t ! queue ! "
      "compositor name=mix sink_1::xpos=320 ! "
      "video/x-raw,width=1088,height=256 ! fakesink name=sink "
      "t. ! queue ! clscope ! mix.", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (60),
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS within a minute");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}
GST_END_TEST;

/* The picture's rectangle clscopeoverlay documents: size percent of the
 * width, the scopes' natural height, both rounded down to 4 pixels; a
 * 64th of the width (rounded down to 4) from the corner's edges. */
static void
overlay_rect (gint width, gint height, gdouble size, guint shares,
    const gchar *corner, guint *x, guint *y, guint *w, guint *h)
{
  const guint margin = width / 64 / 4 * 4;

  *w = (guint) (width * size / 100.0) / 4 * 4;
  *h = MIN (MAX (*w / shares / 4 * 4, 16), (guint) height / 4 * 4);
  *x = g_str_has_suffix (corner, "left") ? margin :
      (width - *w - MIN (margin, width - *w)) / 4 * 4;
  *y = g_str_has_prefix (corner, "top") ? MIN (margin, (height - *h) / 4 * 4)
      : (height - *h - MIN (margin, height - *h)) / 4 * 4;
}

/* One frame through clscopeoverlay against the reference's picture
 * blended into a copy of it by the reference: every byte of the buffer;
 * @from_pool: the frame in the pool the element proposes. */
static void
check_overlay_full (const gchar *format, gint width, gint height,
    const gchar *corner, gdouble size, gdouble alpha, const Props *props,
    guint shares, gboolean from_pool)
{
  GstBus *bus;
  GstHarness *h = harness_of ("clscopeoverlay", &bus);
  gchar *caps = input_caps (format, width, height, NULL);
  GstVideoInfo info;
  GstBufferPool *pool = NULL;
  GstBuffer *in, *want, *out;
  ClhFrame frame = { 0 };
  ClhFormatClass klass;
  ClhScopeSpec spec = { 0 };
  ClhScopeLayout layout;
  GstVideoFrame vf;
  GstMapInfo a, b;
  guint32 *counts;
  guint8 *picture;
  guint x, y, p;
  gsize i;

  set_props (h->element, props);
  gst_util_set_object_arg (G_OBJECT (h->element), "corner", corner);
  g_object_set (h->element, "size", size, "alpha", alpha, NULL);
  gst_harness_set_src_caps_str (h, caps);
  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  if (GST_VIDEO_INFO_IS_YUV (&info))
    gst_video_colorimetry_from_string (&info.colorimetry, "bt709");
  in = frame_new (&info, 9);
  if (from_pool) {
    pool = proposed_pool (h, caps);
    in = pool_frame_new (pool, &info, in);
  }
  want = gst_buffer_copy_deep (in);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out != NULL);

  fail_unless (clh_reference_layout (format, &frame, &klass));
  fail_unless (gst_video_frame_map (&vf, &info, want, GST_MAP_READWRITE));
  frame.width = width;
  frame.height = height;
  for (p = 0; p < frame.n_planes; p++) {
    frame.planes[p].data = GST_VIDEO_FRAME_PLANE_DATA (&vf, p);
    frame.planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p);
  }
  spec.kinds = props->kinds;
  overlay_rect (width, height, size, shares, corner, &x, &y, &spec.width,
      &spec.height);
  spec.source = klass == CLH_FORMAT_GRAY ? CLH_SCOPE_SOURCE_GRAY :
      klass == CLH_FORMAT_RGB ? CLH_SCOPE_SOURCE_RGB : CLH_SCOPE_SOURCE_YUV;
  spec.limited = info.colorimetry.range == GST_VIDEO_COLOR_RANGE_16_235;
  spec.kr = klass == CLH_FORMAT_YUV ? BT709_KR : BT601_KR;
  spec.kb = klass == CLH_FORMAT_YUV ? BT709_KB : BT601_KB;
  spec.scale = props->scale;
  spec.graticule = props->graticule;
  spec.intensity = props->intensity;
  spec.vectorscope_zoom = props->zoom;
  clh_reference_scope_layout (&spec, &frame, &layout);
  counts = g_new (guint32, layout.n_counts);
  clh_reference_scope_counts (&frame, &spec, &layout, counts);
  picture = g_malloc ((gsize) spec.width * 4 * spec.height);
  clh_reference_scope_picture (&spec, &layout, counts, picture,
      (gsize) spec.width * 4);
  clh_reference_scope_overlay (&frame, &spec, picture, x, y,
      (guint) (alpha * 255.0 + 0.5));
  gst_video_frame_unmap (&vf);

  gst_buffer_map (out, &a, GST_MAP_READ);
  gst_buffer_map (want, &b, GST_MAP_READ);
  fail_unless_equals_uint64 (a.size, b.size);
  for (i = 0; i < a.size; i++)
    fail_unless (a.data[i] == b.data[i], "%s %dx%d %s: byte %"
        G_GSIZE_FORMAT " is %u, the reference's %u", format, width, height,
        corner, i, a.data[i], b.data[i]);
  gst_buffer_unmap (want, &b);
  gst_buffer_unmap (out, &a);
  g_free (picture);
  g_free (counts);
  gst_buffer_unref (want);
  gst_buffer_unref (out);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  g_free (caps);
  clh_check_harness_teardown (h, bus);
}

static void
check_overlay (const gchar *format, gint width, gint height,
    const gchar *corner, gdouble size, gdouble alpha, const Props *props,
    guint shares)
{
  check_overlay_full (format, width, height, corner, size, alpha, props,
      shares, FALSE);
}

GST_START_TEST (test_overlay_each_format)
{
  const gchar *format = formats[__i__];

  if (!clh_test_format_in_run (format))
    return;
  /* The defaults: top-right, 40% of the width, alpha 0.8. */
  check_overlay (format, 160, 120, "top-right", 40.0, 0.8, &defaults, 3);
}
GST_END_TEST;

/* Every corner, sizes, opacities and scopes. */
GST_START_TEST (test_overlay_properties)
{
  const Props all = { CLH_SCOPE_ALL_KINDS, CLH_SCOPE_LOG,
    CLH_SCOPE_GRATICULE_CODES, 0.2, 3
  };
  const Props histogram = { CLH_SCOPE_HISTOGRAM, CLH_SCOPE_LINEAR,
    CLH_SCOPE_GRATICULE_IRE, 0.1
  };

  check_overlay ("I420", 200, 100, "bottom-left", 100.0, 0.5, &defaults, 3);
  check_overlay ("NV12", 642, 360, "bottom-right", 25.0, 1.0, &defaults, 3);
  check_overlay ("RGBA", 640, 480, "top-left", 90.0, 0.3, &all, 8);
  check_overlay ("P010_10LE", 320, 180, "bottom-right", 50.0, 0.0,
      &histogram, 2);
  check_overlay ("YUY2", 333, 200, "top-right", 60.0, 0.9, &all, 8);
}
GST_END_TEST;

/* Frames in the pool clscopeoverlay proposes, blended without a host
 * copy: every byte against the reference's blend. */
GST_START_TEST (test_overlay_pool_path)
{
  const Props all = { CLH_SCOPE_ALL_KINDS, CLH_SCOPE_LOG,
    CLH_SCOPE_GRATICULE_CODES, 0.2
  };

  count_paths_start ();
  check_overlay_full ("I420", 160, 120, "top-right", 40.0, 0.8, &defaults,
      3, TRUE);
  check_overlay_full ("NV12", 642, 360, "bottom-right", 25.0, 1.0,
      &defaults, 3, TRUE);
  check_overlay_full ("RGBA", 640, 480, "top-left", 90.0, 0.3, &all, 8,
      TRUE);
  check_overlay_full ("P010_10LE", 320, 180, "bottom-left", 50.0, 0.6,
      &defaults, 3, TRUE);
  check_overlay_full ("YUY2", 333, 200, "top-right", 60.0, 0.9, &all, 8,
      TRUE);
  count_paths_stop (5, 0);
}
GST_END_TEST;

/* A frame too small for the scopes at the size asked for: an error saying
 * what to do, a flow error. */
GST_START_TEST (test_overlay_too_small)
{
  GstHarness *h = gst_harness_new ("clscopeoverlay");
  GstBus *bus = clh_check_harness_bus (h->element);
  gchar *caps = input_caps ("I420", 24, 24, NULL);
  GstVideoInfo info;

  gst_harness_set_src_caps_str (h, caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 24, 24);
  fail_unless_equals_int (gst_harness_push (h, frame_new (&info, 1)),
      GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS,
      "clscope", NULL);
  g_free (caps);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static void
require_env (const gchar *name)
{
  fail_unless (g_getenv (name) != NULL,
      "%s is not set: run this test through 'meson test'", name);
}

static void
expect_ready_fails (GQuark domain, gint code, const gchar *in_message,
    const gchar *in_debug)
{
  GstElement *e = gst_element_factory_make ("clscope", NULL);
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, domain, code, in_message, in_debug);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

/* OCL_ICD_VENDORS names an empty folder: no platform at all. */
GST_START_TEST (test_env_no_opencl)
{
  require_env ("OCL_ICD_VENDORS");
  expect_ready_fails (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
      "No OpenCL device", "pocl-opencl-icd");
}
GST_END_TEST;

/* The driver cannot compile the kernels: LIBRARY/INIT, the build log in
 * the debug text. */
GST_START_TEST (test_env_build_failure)
{
  require_env ("CLFAULT_BREAK_BUILD");
  expect_ready_fails (GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
      "could not build", ".cl:");
}
GST_END_TEST;

/* Kernel launches fail with CL_OUT_OF_RESOURCES after the first few
 * (CLFAULT_NDRANGE_OK): pictures come until then, the frame that fails is
 * an error naming it and a flow error, nothing comes out for it, and
 * nothing leaks (the leaks tracer checks). */
GST_START_TEST (test_env_opencl_failure)
{
  GstBus *bus;
  GstHarness *h;
  gchar *caps = input_caps ("I420", 64, 48, NULL);
  GstVideoInfo info;
  GstFlowReturn flow = GST_FLOW_OK;
  guint k;

  require_env ("CLFAULT_NDRANGE_OK");
  h = harness_new (&bus);
  gst_harness_set_src_caps_str (h, caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  for (k = 0; k < 10; k++) {
    flow = gst_harness_push (h, frame_new (&info, k));
    if (flow != GST_FLOW_OK)
      break;
    gst_buffer_unref (gst_harness_pull (h));
  }
  fail_unless (k > 0, "the first frame failed already");
  fail_unless_equals_int (flow, GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "CL_OUT_OF_RESOURCES", "clEnqueueNDRangeKernel");
  fail_unless (gst_harness_try_pull (h) == NULL);
  g_free (caps);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static Suite *
clscope_suite (void)
{
  Suite *s = suite_create ("clscope");
  TCase *tc = tcase_create ("general"), *env;

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_each_format, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_default_size);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_colorimetry);
  tcase_add_test (tc, test_change_while_streaming);
  tcase_add_test (tc, test_too_small);
  tcase_add_test (tc, test_truncated_buffer);
  tcase_add_test (tc, test_no_such_device);
  tcase_add_test (tc, test_caps_refused);
  tcase_add_loop_test (tc, test_vtest_frames, 0, 4);
  tcase_add_test (tc, test_into_compositor);
  tcase_add_test (tc, test_pool_path);
  tcase_add_test (tc, test_picture_pool);
  tcase_add_test (tc, test_pool_not_proposed);
  tcase_add_loop_test (tc, test_overlay_each_format, 0,
      G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_overlay_properties);
  tcase_add_test (tc, test_overlay_pool_path);
  tcase_add_test (tc, test_overlay_too_small);

  env = tcase_create ("environment");
  /* As the general case: a failed build compiles first. */
  tcase_set_timeout (env, 120);
  suite_add_tcase (s, env);
  tcase_add_test (env, test_env_no_opencl);
  tcase_add_test (env, test_env_build_failure);
  tcase_add_test (env, test_env_opencl_failure);
  return s;
}

CLH_CHECK_MAIN (clscope);
