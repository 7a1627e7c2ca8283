/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The clhistogram element, through GstHarness: every format x mode x bins x
 * size x content bit-exact against the golden reference, padded strides,
 * messages, meta, properties and the errors a user can cause; the shared
 * device context, the proposed pool of host memory and frames in flight. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-test-timeout.h"
#include "clh-check-util.h"

#include "clh-reference-frame.h"
#include "clh-test-util.h"
#include "clh-test-run.h"

/* The RGB and gray formats of the first release, over its full matrix. */
static const gchar *const formats[] = {
  "GRAY8", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR",
};
static const guint bins_list[] = { 1, 7, 16, 64, 112, 256 };
static const guint sizes[][2] = {
  {1, 1}, {3, 5}, {600, 480}, {601, 479}, {1920, 1080},
};
static const gchar *const modes[] = {
  "luma", "channels", "max", "hue", "hue-saturation", "rgb",
};

static void
set_caps (GstHarness *h, const gchar *format, guint width, guint height)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,"
      "framerate=30/1", format, width, height);

  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

static GstHarness *
harness_new (const gchar *format, guint width, guint height)
{
  GstHarness *h = gst_harness_new ("clhistogram");

  set_caps (h, format, width, height);
  return h;
}

static GstHistogramMode
mode_from_nick (const gchar *nick)
{
  GEnumClass *klass = g_type_class_ref (GST_TYPE_HISTOGRAM_MODE);
  GEnumValue *value = g_enum_get_value_by_nick (klass, nick);

  fail_unless (value != NULL, "no mode %s", nick);
  g_type_class_unref (klass);
  return value->value;
}

/* A frame with @content in every plane's rows and CLH_TEST_PADDING
 * elsewhere; with @extra_stride > 0 every plane's rows are that much longer
 * (rounded up to even) than the caps' default, planes start at odd places,
 * and a GstVideoMeta says so. */
static GstBuffer *
frame_new (const GstVideoInfo *info, ClhTestContent content, guint seed,
    gint extra_stride)
{
  ClhFrame layout = { 0 };
  ClhFormatClass klass;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  gsize size = GST_VIDEO_INFO_SIZE (info);
  GstBuffer *buffer;
  GstMapInfo map;
  guint p;

  fail_unless (clh_reference_layout (GST_VIDEO_INFO_NAME (info), &layout,
          &klass));
  layout.width = GST_VIDEO_INFO_WIDTH (info);
  layout.height = GST_VIDEO_INFO_HEIGHT (info);
  for (p = 0; p < layout.n_planes; p++) {
    offsets[p] = GST_VIDEO_INFO_PLANE_OFFSET (info, p);
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
  }
  if (extra_stride > 0) {
    size = 0;
    for (p = 0; p < layout.n_planes; p++) {
      strides[p] += GST_ROUND_UP_2 (extra_stride);
      offsets[p] = size + 16;
      size = offsets[p] + (gsize) strides[p] * clh_frame_plane_rows (&layout,
          p);
    }
    size += 7;
  }

  buffer = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  memset (map.data, CLH_TEST_PADDING, size);
  for (p = 0; p < layout.n_planes; p++) {
    guint rows = clh_frame_plane_rows (&layout, p);
    clh_test_fill (map.data + offsets[p], (gsize) strides[p] * rows, 0,
        strides[p], clh_frame_plane_row_bytes (&layout, p), rows, content,
        seed * 7 + p);
  }
  gst_buffer_unmap (buffer, &map);

  if (extra_stride > 0)
    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), layout.n_planes, offsets, strides);
  GST_BUFFER_PTS (buffer) = seed * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

/* The meta on @out against the reference of the same frame: counts, the
 * channels' samples, below and above, and the shape. */
static void
assert_meta_equals_reference (const GstVideoInfo *info, GstBuffer *out,
    const gchar *mode, guint bins, guint range_min, gint range_max,
    const gchar *what)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint n_channels, n_bins, c, b;

  fail_unless (meta != NULL, "%s: no meta", what);
  fail_unless (clh_reference_histogram_of_buffer (info, out, mode, bins,
          range_min, range_max, &spec, &want), "%s: no reference", what);
  n_channels = clh_histogram_spec_n_channels (&spec);
  fail_unless_equals_int (meta->info.mode, mode_from_nick (mode));
  fail_unless_equals_int (meta->info.n_channels, n_channels);
  fail_unless_equals_int (meta->info.n_bins, clh_histogram_spec_n_bins (&spec));
  fail_unless_equals_uint64 (meta->pixels,
      (guint64) GST_VIDEO_INFO_WIDTH (info) * GST_VIDEO_INFO_HEIGHT (info));
  fail_unless_equals_int (meta->info.shape[0], bins);
  fail_unless_equals_int (meta->info.n_dims, g_str_equal (mode, "rgb") ? 3 :
      g_str_equal (mode, "hue-saturation") ? 2 : 1);
  fail_unless_equals_int (meta->info.depth,
      GST_VIDEO_INFO_COMP_DEPTH (info, 0));

  for (c = 0; c < n_channels; c++) {
    const guint32 *got = gst_histogram_meta_get_counts (meta, c, &n_bins);
    const GstHistogramStatistics *st =
        gst_histogram_meta_get_statistics (meta, c);

    fail_unless_equals_int (n_bins, meta->info.n_bins);
    for (b = 0; b < n_bins; b++)
      fail_unless (got[b] == want.counts[c * n_bins + b],
          "%s: channel %s bin %u is %u, the reference says %u", what,
          gst_histogram_meta_get_channel_name (meta, c), b, got[b],
          want.counts[c * n_bins + b]);
    fail_unless_equals_uint64 (st->samples, want.samples[c]);
    fail_unless_equals_uint64 (st->below, want.below[c]);
    fail_unless_equals_uint64 (st->above, want.above[c]);
  }
  g_free (want.counts);
}

/* Every RGB and gray format x {luma, channels} x bins x size x content. */
GST_START_TEST (test_matrix)
{
  const gchar *format = formats[__i__];
  GstHarness *h;
  guint s, m, b;
  ClhTestContent content;

  if (!clh_test_format_in_run (format))
    return;
  h = harness_new (format, 1, 1);

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    GstVideoInfo info;

    set_caps (h, format, sizes[s][0], sizes[s][1]);
    gst_video_info_set_format (&info, gst_video_format_from_string (format),
        sizes[s][0], sizes[s][1]);

    for (content = 0; content < CLH_TEST_N_CONTENTS; content++) {
      GstBuffer *in = frame_new (&info, content, s + 1, 0);

      for (m = 0; m < 2; m++)
        for (b = 0; b < G_N_ELEMENTS (bins_list); b++) {
          gchar *what = g_strdup_printf ("%s %ux%u %s %s %u bins", format,
              sizes[s][0], sizes[s][1], clh_test_content_name (content),
              modes[m], bins_list[b]);
          GstBuffer *out;

          g_object_set (h->element, "mode", mode_from_nick (modes[m]),
              "bins", bins_list[b], NULL);
          out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
          assert_meta_equals_reference (&info, out, modes[m], bins_list[b],
              0, -1, what);
          gst_buffer_unref (out);
          g_free (what);
        }
      gst_buffer_unref (in);
    }
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Most bins each mode allows for a format of @depth bits. */
static guint
max_bins (const gchar *mode, guint depth)
{
  if (g_str_has_prefix (mode, "hue"))
    return 180;
  if (g_str_equal (mode, "rgb"))
    return 40;
  return depth <= 8 ? 256 : depth <= 12 ? 4096 : 65536;
}

/* Every format the element reads x every mode that applies x {1, odd, most}
 * bins x odd sizes (odd chroma planes) x contents, plain and padded. */
GST_START_TEST (test_all_formats)
{
  const gchar *format = clh_reference_formats ()[__i__];
  static const guint odd_sizes[][3] = { {1, 1, 0}, {5, 3, 0}, {601, 479, 0},
  {601, 479, 61}
  };
  GstHarness *h;
  GstVideoFormat vformat = gst_video_format_from_string (format);
  guint s, m, b;
  ClhTestContent content;

  if (!clh_test_format_in_run (format))
    return;
  h = harness_new (format, 1, 1);
  for (s = 0; s < G_N_ELEMENTS (odd_sizes); s++) {
    GstVideoInfo info;

    set_caps (h, format, odd_sizes[s][0], odd_sizes[s][1]);
    gst_video_info_set_format (&info, vformat, odd_sizes[s][0],
        odd_sizes[s][1]);

    for (content = 0; content < CLH_TEST_N_CONTENTS; content++) {
      GstBuffer *in = frame_new (&info, content, s + 1, odd_sizes[s][2]);

      for (m = 0; m < G_N_ELEMENTS (modes); m++) {
        ClhFrame layout;
        ClhFormatClass klass;
        ClhHistogramSpec spec;
        const guint most = max_bins (modes[m], GST_VIDEO_INFO_COMP_DEPTH (&info,
                0));
        const guint bins[] = { 1, 7, most };

        clh_reference_layout (format, &layout, &klass);
        if (!clh_reference_spec (klass, &layout, modes[m], 1, &spec))
          continue;
        for (b = 0; b < G_N_ELEMENTS (bins); b++) {
          gchar *what = g_strdup_printf ("%s %ux%u +%u %s %s %u bins", format,
              odd_sizes[s][0], odd_sizes[s][1], odd_sizes[s][2],
              clh_test_content_name (content), modes[m], bins[b]);
          GstBuffer *out;

          g_object_set (h->element, "mode", mode_from_nick (modes[m]),
              "bins", bins[b], NULL);
          out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
          assert_meta_equals_reference (&info, out, modes[m], bins[b], 0, -1,
              what);
          gst_buffer_unref (out);
          g_free (what);
        }
      }
      gst_buffer_unref (in);
    }
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Rows longer than the image, described by a GstVideoMeta, for every
 * format; their padding (CLH_TEST_PADDING) must not be counted. */
GST_START_TEST (test_padded_strides)
{
  static const gint extra[] = { 1, 4, 61, 4096 };
  guint f, e;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = harness_new (formats[f], 601, 479);
    GstVideoInfo info;

    gst_video_info_set_format (&info,
        gst_video_format_from_string (formats[f]), 601, 479);
    for (e = 0; e < G_N_ELEMENTS (extra); e++) {
      gchar *what = g_strdup_printf ("%s stride +%d", formats[f], extra[e]);
      GstBuffer *in = frame_new (&info, CLH_TEST_ZERO, e, extra[e]), *out;

      g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_CHANNELS, NULL);
      out = gst_harness_push_and_pull (h, in);
      assert_meta_equals_reference (&info, out, "channels", 256, 0, -1, what);
      gst_buffer_unref (out);
      g_free (what);
    }
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

static guint64
field_u64 (const GstStructure *s, const gchar *name)
{
  guint64 v = 0;
  fail_unless (gst_structure_get_uint64 (s, name, &v), "no %s", name);
  return v;
}

/* The message's fields, the timestamps under a segment that makes running
 * time and stream time differ, and counts equal to the meta's. */
GST_START_TEST (test_message_fields)
{
  GstHarness *h = harness_new ("BGRx", 601, 479);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstSegment segment;
  GstBuffer *in, *out;
  GstMessage *msg;
  const GstStructure *s;
  const GValue *channels, *counts;
  GstHistogramMeta *meta;
  guint c, b, bins;
  static const gchar *const names[] = { "R", "G", "B" };

  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = 1 * GST_SECOND;
  segment.base = 5 * GST_SECOND;
  segment.time = 20 * GST_SECOND;
  segment.position = segment.start;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_BGRx, 601, 479);
  in = frame_new (&info, CLH_TEST_RANDOM, 3, 0);
  GST_BUFFER_PTS (in) = 2 * GST_SECOND;
  GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
  g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_CHANNELS, "bins", 7,
      NULL);
  out = gst_harness_push_and_pull (h, in);

  msg = clh_check_pop_element_message (bus, "histogram");
  fail_unless (msg != NULL);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (h->element));
  s = gst_message_get_structure (msg);
  fail_unless_equals_uint64 (field_u64 (s, "timestamp"), 2 * GST_SECOND);
  fail_unless_equals_uint64 (field_u64 (s, "running-time"), 6 * GST_SECOND);
  fail_unless_equals_uint64 (field_u64 (s, "stream-time"), 21 * GST_SECOND);
  fail_unless_equals_uint64 (field_u64 (s, "duration"), 40 * GST_MSECOND);
  fail_unless_equals_uint64 (field_u64 (s, "pixels"), 601 * 479);
  fail_unless_equals_string (gst_structure_get_string (s, "mode"),
      "channels");
  fail_unless (gst_structure_get_uint (s, "bins", &bins));
  fail_unless_equals_int (bins, 7);

  channels = gst_structure_get_value (s, "channels");
  counts = gst_structure_get_value (s, "counts");
  fail_unless (GST_VALUE_HOLDS_ARRAY (channels));
  fail_unless (GST_VALUE_HOLDS_ARRAY (counts));
  fail_unless_equals_int (gst_value_array_get_size (channels), 3);
  fail_unless_equals_int (gst_value_array_get_size (counts), 3);

  meta = gst_buffer_get_histogram_meta (out);
  for (c = 0; c < 3; c++) {
    const GValue *channel = gst_value_array_get_value (counts, c);
    const guint32 *want = gst_histogram_meta_get_counts (meta, c, NULL);

    fail_unless_equals_string (g_value_get_string
        (gst_value_array_get_value (channels, c)), names[c]);
    fail_unless_equals_int (gst_value_array_get_size (channel), 7);
    for (b = 0; b < 7; b++) {
      const GValue *v = gst_value_array_get_value (channel, b);
      fail_unless (G_VALUE_HOLDS_UINT (v));
      fail_unless_equals_int (g_value_get_uint (v), want[b]);
    }
  }
  assert_meta_equals_reference (&info, out, "channels", 7, 0, -1,
      "message test");
  gst_message_unref (msg);

  /* A frame without a timestamp reports none. */
  in = frame_new (&info, CLH_TEST_ZERO, 4, 0);
  GST_BUFFER_PTS (in) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (in) = GST_CLOCK_TIME_NONE;
  gst_buffer_unref (gst_harness_push_and_pull (h, in));
  msg = clh_check_pop_element_message (bus, "histogram");
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless_equals_uint64 (field_u64 (s, "timestamp"), GST_CLOCK_TIME_NONE);
  fail_unless_equals_uint64 (field_u64 (s, "running-time"),
      GST_CLOCK_TIME_NONE);
  fail_unless_equals_uint64 (field_u64 (s, "duration"), GST_CLOCK_TIME_NONE);
  gst_message_unref (msg);

  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* One message per frame, in order. */
GST_START_TEST (test_one_message_per_frame)
{
  GstHarness *h = harness_new ("GRAY8", 32, 16);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstMessage *msg;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  for (i = 0; i < 5; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h,
            frame_new (&info, CLH_TEST_GRADIENT, i, 0)));
  for (i = 0; i < 5; i++) {
    msg = clh_check_pop_element_message (bus, "histogram");
    fail_unless (msg != NULL);
    fail_unless_equals_uint64 (field_u64 (gst_message_get_structure (msg),
            "timestamp"), i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
  fail_unless (clh_check_pop_element_message (bus, "histogram") == NULL);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* The meta survives a copy of the buffer, is dropped from a part of it,
 * and its tags make transforms that change pixels drop it. */
static void
count_errors (GstDebugCategory *category, GstDebugLevel level,
    const gchar *file, const gchar *function, gint line, GObject *object,
    GstDebugMessage *message, gpointer user_data)
{
  if (level == GST_LEVEL_ERROR)
    g_atomic_int_inc ((gint *) user_data);
}

/* A buffer holding several histograms: the full frame's is found first
 * whatever the order they were added in, each region by type and id, the
 * list in the order added; copies keep region type and id. */
GST_START_TEST (test_meta_regions)
{
  static const gchar *const names[] = { "Y" };
  const guint32 counts[4] = { 1, 2, 3, 4 };
  const guint shape[1] = { 4 };
  static const struct {
    const gchar *type;
    gint id;
  } regions[] = { {"region", 0}, {"frame", 0}, {"zone", 3}, {"region", 1} };
  GstBuffer *buffer = gst_buffer_new (), *copy;
  GstHistogramMeta *meta;
  GstHistogramInfo info;
  GList *metas, *l;
  guint i;

  gst_histogram_info_init (&info);
  fail_unless (gst_histogram_info_set_format (&info, GST_HISTOGRAM_MODE_LUMA,
          1, names, 1, shape));
  info.video_range = GST_VIDEO_COLOR_RANGE_0_255;
  for (i = 0; i < G_N_ELEMENTS (regions); i++) {
    const GstHistogramRegion region = { regions[i].type, regions[i].id, i,
      i, 2, 5
    };
    const GstHistogramStatistics stats = { .samples = 10 };

    meta = gst_buffer_add_histogram_meta (buffer, &info, &region, counts,
        G_N_ELEMENTS (counts));
    fail_unless (meta != NULL);
    fail_unless (gst_histogram_meta_set_statistics (meta, 0, &stats));
  }

  meta = gst_buffer_get_histogram_meta (buffer);
  fail_unless_equals_string (meta->region.type, "frame");
  fail_unless_equals_int (meta->region.x, 1);
  meta = gst_buffer_get_histogram_meta_for_region (buffer, "zone", 3);
  fail_unless (meta != NULL && meta->region.x == 2 && meta->region.id == 3);
  meta = gst_buffer_get_histogram_meta_for_region (buffer, "region", 1);
  fail_unless (meta != NULL && meta->region.x == 3);
  fail_unless (gst_buffer_get_histogram_meta_for_region (buffer, "zone",
          4) == NULL);
  fail_unless (gst_buffer_get_histogram_meta_for_region (buffer, "frame",
          1) == NULL);

  metas = gst_buffer_get_histogram_metas (buffer);
  fail_unless_equals_int (g_list_length (metas), 4);
  for (l = metas, i = 0; l; l = l->next, i++) {
    meta = l->data;
    fail_unless_equals_string (meta->region.type, regions[i].type);
    fail_unless_equals_int (meta->region.id, regions[i].id);
    fail_unless_equals_uint64 (meta->pixels, 10);
  }
  g_list_free (metas);

  copy = gst_buffer_copy (buffer);
  meta = gst_buffer_get_histogram_meta_for_region (copy, "zone", 3);
  fail_unless (meta != NULL && meta->region.width == 2
      && meta->region.height == 5);
  fail_unless (memcmp (gst_histogram_meta_get_counts (meta, 0, NULL), counts,
          sizeof (counts)) == 0);
  metas = gst_buffer_get_histogram_metas (copy);
  fail_unless_equals_int (g_list_length (metas), 4);
  g_list_free (metas);
  gst_buffer_unref (copy);
  gst_buffer_unref (buffer);
  buffer = gst_buffer_new ();
  fail_unless (gst_buffer_get_histogram_metas (buffer) == NULL);
  fail_unless (gst_buffer_get_histogram_meta (buffer) == NULL);
  gst_buffer_unref (buffer);
}

GST_END_TEST;

/* gst-check catches the criticals of GStreamer's own log domains only:
 * the meta library's (GstClHistogram) go through ASSERT_CRITICAL too, and
 * fail the test anywhere else. */
static void
meta_library_critical (const gchar *domain, GLogLevelFlags level,
    const gchar *message, gpointer user_data)
{
  if (!_gst_check_expecting_log)
    fail ("unexpected %s critical: %s", domain, message);
  _gst_check_raised_critical = TRUE;
}

/* The meta library's value types as an application uses them: the info's
 * defaults, layouts and refusals; regions; the statistics set, copied with
 * the buffer, replaced, refused when inconsistent, and the stored
 * percentiles read back for a histogram whose bins cannot give them. */
GST_START_TEST (test_meta_info_region_statistics)
{
  static const gchar *const names[] = { "hue-saturation" };
  const guint shape[2] = { 3, 4 }, huge[2] = { 65536, 65536 };
  const guint zero[1] = { 0 }, one[1] = { 1 };
  guint32 counts[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
  gdouble points[2] = { 42.0, 90.0 };
  guint values[2] = { 7, 11 };
  GstHistogramStatistics stats = { GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY, 80,
    5, 9, 1, 178, 60.5, 2, 3, 0, 0, 2, points, values
  };
  GstHistogramInfo info, *info_copy;
  GstHistogramRegion *region, *region_copy;
  GstHistogramStatistics *stats_copy;
  const GstHistogramStatistics *got;
  GstBuffer *buffer = gst_buffer_new (), *copy;
  GstHistogramMeta *meta, *copied;
  guint i, value, handler;

  handler = g_log_set_handler ("GstClHistogram", G_LOG_LEVEL_CRITICAL,
      meta_library_critical, NULL);
  gst_histogram_info_init (&info);
  fail_unless_equals_int (info.n_dims, 1);
  fail_unless_equals_int (info.depth, 8);
  fail_unless_equals_int (info.range_min, 0);
  fail_unless_equals_int (info.range_max, 255);
  fail_unless_equals_int (info.video_range, GST_VIDEO_COLOR_RANGE_UNKNOWN);
  for (i = 0; i < GST_HISTOGRAM_INFO_MAX_CHANNELS; i++)
    fail_unless (info.channel_names[i] == NULL);

  fail_unless (gst_histogram_info_set_format (&info,
          GST_HISTOGRAM_MODE_HUE_SATURATION, 1, names, 2, shape));
  fail_unless_equals_int (info.n_bins, 12);
  fail_unless (info.shape[0] == 3 && info.shape[1] == 4 && info.shape[2] == 0);
  fail_unless (info.channel_names[0] == g_intern_string ("hue-saturation"));
  info.range_max = 179;
  /* Refused layouts leave the info as it was. */
  ASSERT_CRITICAL (fail_if (gst_histogram_info_set_format (&info,
              GST_HISTOGRAM_MODE_LUMA, 0, names, 1, one)));
  ASSERT_CRITICAL (fail_if (gst_histogram_info_set_format (&info,
              GST_HISTOGRAM_MODE_LUMA, GST_HISTOGRAM_INFO_MAX_CHANNELS + 1,
              names, 1, one)));
  ASSERT_CRITICAL (fail_if (gst_histogram_info_set_format (&info,
              GST_HISTOGRAM_MODE_LUMA, 1, names, 4, one)));
  ASSERT_CRITICAL (fail_if (gst_histogram_info_set_format (&info,
              GST_HISTOGRAM_MODE_LUMA, 1, names, 1, zero)));
  ASSERT_CRITICAL (fail_if (gst_histogram_info_set_format (&info,
              GST_HISTOGRAM_MODE_LUMA, 1, names, 2, huge)));
  fail_unless (info.mode == GST_HISTOGRAM_MODE_HUE_SATURATION
      && info.n_bins == 12 && info.n_dims == 2);
  info_copy = gst_histogram_info_copy (&info);
  fail_unless (memcmp (info_copy, &info, sizeof (info)) == 0);
  gst_histogram_info_free (info_copy);
  info_copy = gst_histogram_info_new ();
  fail_unless (info_copy->depth == 8 && info_copy->n_bins == 0);
  gst_histogram_info_free (info_copy);

  region = gst_histogram_region_new ("zone", 7, 1, 2, 4, 20);
  fail_unless (region->type == g_intern_string ("zone"));
  region_copy = gst_histogram_region_copy (region);
  fail_unless (region_copy->type == region->type && region_copy->id == 7
      && region_copy->x == 1 && region_copy->y == 2
      && region_copy->width == 4 && region_copy->height == 20);
  gst_histogram_region_free (region_copy);

  /* A shape whose product is not n_bins is refused, and counts of another
   * length than the info's. */
  info.n_bins = 13;
  ASSERT_CRITICAL (fail_unless (gst_buffer_add_histogram_meta (buffer, &info,
              region, counts, 13) == NULL));
  info.n_bins = 12;
  ASSERT_CRITICAL (fail_unless (gst_buffer_add_histogram_meta (buffer, &info,
              region, counts, 11) == NULL));
  fail_unless (gst_buffer_get_histogram_meta (buffer) == NULL);
  meta = gst_buffer_add_histogram_meta (buffer, &info, region, counts,
      G_N_ELEMENTS (counts));
  gst_histogram_region_free (region);
  fail_unless (meta != NULL);
  fail_unless_equals_string (meta->region.type, "zone");
  fail_unless_equals_uint64 (meta->pixels, 80);
  fail_unless_equals_int (meta->info.range_max, 179);
  got = gst_histogram_meta_get_statistics (meta, 0);
  fail_unless (got->flags == GST_HISTOGRAM_STATISTICS_FLAG_NONE
      && got->samples == 80 && got->below == 0 && got->above == 0
      && got->n_percentiles == 0);
  fail_if (gst_histogram_meta_get_percentile (meta, 0, 42.0, &value));

  fail_unless (gst_histogram_meta_set_statistics (meta, 0, &stats));
  /* Copied: the caller's arrays may change. */
  points[0] = 1.0;
  values[0] = 0;
  got = gst_histogram_meta_get_statistics (meta, 0);
  fail_unless (got->flags == GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY
      && got->samples == 80 && got->below == 5 && got->above == 9
      && got->min == 1 && got->max == 178 && got->mean == 60.5
      && got->clipped_low == 2 && got->clipped_high == 3);
  fail_unless (got->n_percentiles == 2 && got->percentile_points[0] == 42.0
      && got->percentiles[0] == 7 && got->percentile_points[1] == 90.0
      && got->percentiles[1] == 11);
  /* 2-D bins give no percentile but the stored ones. */
  fail_unless (gst_histogram_meta_get_percentile (meta, 0, 42.0, &value));
  fail_unless_equals_int (value, 7);
  fail_if (gst_histogram_meta_get_percentile (meta, 0, 50.0, &value));

  /* Inconsistent statistics change nothing. */
  stats.below = 79;
  ASSERT_CRITICAL (fail_if (gst_histogram_meta_set_statistics (meta, 0,
              &stats)));
  stats.below = 5;
  points[0] = 101.0;
  ASSERT_CRITICAL (fail_if (gst_histogram_meta_set_statistics (meta, 0,
              &stats)));
  ASSERT_CRITICAL (fail_if (gst_histogram_meta_set_statistics (meta, 1,
              &stats)));
  fail_unless (gst_histogram_meta_get_statistics (meta, 0)->below == 5);

  stats_copy = gst_histogram_statistics_copy (got);
  fail_unless (stats_copy->percentiles != got->percentiles
      && stats_copy->percentiles[1] == 11 && stats_copy->mean == 60.5);
  gst_histogram_statistics_free (stats_copy);

  copy = gst_buffer_copy (buffer);
  copied = gst_buffer_get_histogram_meta_for_region (copy, "zone", 7);
  fail_unless (copied != NULL && copied != meta);
  fail_unless (memcmp (&copied->info, &meta->info, sizeof (meta->info)) == 0);
  fail_unless (memcmp (gst_histogram_meta_get_counts (copied, 0, NULL),
          counts, sizeof (counts)) == 0);
  got = gst_histogram_meta_get_statistics (copied, 0);
  fail_unless (got != gst_histogram_meta_get_statistics (meta, 0)
      && got->below == 5 && got->mean == 60.5 && got->n_percentiles == 2
      && got->percentiles[0] == 7);
  gst_buffer_unref (copy);
  gst_buffer_unref (buffer);
  g_log_remove_handler ("GstClHistogram", handler);
}

GST_END_TEST;

GST_START_TEST (test_meta_copy)
{
  GstHarness *h = harness_new ("RGBA", 64, 48);
  GstVideoInfo info;
  GstBuffer *out, *copy, *deep, *part;
  GstHistogramMeta *a, *b;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_CHANNELS, "bins", 16,
      NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_RANDOM, 1,
          0));
  a = gst_buffer_get_histogram_meta (out);
  fail_unless (a != NULL);

  copy = gst_buffer_copy (out);
  deep = gst_buffer_copy_deep (out);
  /* A part of the frame drops the histogram without an ERROR line: a copy
   * whose meta transform fails is logged as one. */
  {
    gint errors = 0;

    gst_debug_set_active (TRUE);
    gst_debug_set_threshold_for_name ("GST_BUFFER", GST_LEVEL_ERROR);
    gst_debug_add_log_function (count_errors, &errors, NULL);
    part = gst_buffer_copy_region (out, GST_BUFFER_COPY_ALL, 0, 100);
    gst_debug_remove_log_function (count_errors);
    fail_unless_equals_int (errors, 0);
  }
  b = gst_buffer_get_histogram_meta (copy);
  fail_unless (b != NULL && b != a);
  fail_unless_equals_int (b->info.n_channels, 4);
  fail_unless_equals_int (b->info.n_bins, 16);
  fail_unless_equals_uint64 (b->pixels, 64 * 48);
  fail_unless_equals_int (b->region.width, 64);
  fail_unless_equals_int (b->region.height, 48);
  fail_unless (memcmp (a->counts, b->counts, 4 * 16 * sizeof (guint32)) == 0);
  fail_unless_equals_string (gst_histogram_meta_get_channel_name (b, 3), "A");
  fail_unless (gst_buffer_get_histogram_meta (deep) != NULL);
  fail_unless (gst_buffer_get_histogram_meta (part) == NULL);

  fail_unless (gst_meta_api_type_has_tag (GST_HISTOGRAM_META_API_TYPE,
          g_quark_from_string (GST_META_TAG_VIDEO_STR)));
  fail_unless (gst_meta_api_type_has_tag (GST_HISTOGRAM_META_API_TYPE,
          g_quark_from_string (GST_META_TAG_VIDEO_COLORSPACE_STR)));
  fail_unless (gst_meta_api_type_has_tag (GST_HISTOGRAM_META_API_TYPE,
          g_quark_from_string (GST_META_TAG_VIDEO_SIZE_STR)));

  gst_buffer_unref (copy);
  gst_buffer_unref (deep);
  gst_buffer_unref (part);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}
GST_END_TEST;

static GstBuffer *
run_pipeline_to_appsink (const gchar *description)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GstElement *sink;
  GstSample *sample;
  GstBuffer *buffer;

  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  g_signal_emit_by_name (sink, "pull-sample", &sample);
  fail_unless (sample != NULL);
  buffer = gst_buffer_ref (gst_sample_get_buffer (sample));
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return buffer;
}

/* videoconvert changing the format drops the meta; a passthrough keeps it. */
GST_START_TEST (test_meta_dropped_by_pixel_transforms)
{
  GstBuffer *buffer;

  buffer = run_pipeline_to_appsink ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! clhistogram ! "
      "videoconvert ! video/x-raw,format=GRAY8 ! appsink name=sink");
  fail_unless (gst_buffer_get_histogram_meta (buffer) == NULL);
  gst_buffer_unref (buffer);

  buffer = run_pipeline_to_appsink ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! clhistogram ! "
      "videoconvert ! video/x-raw,format=RGBA ! queue ! appsink name=sink");
  fail_unless (gst_buffer_get_histogram_meta (buffer) != NULL);
  gst_buffer_unref (buffer);
}
GST_END_TEST;

GST_START_TEST (test_attach_meta_false)
{
  GstHarness *h = harness_new ("GRAY8", 16, 16);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstBuffer *out;
  GstMessage *msg;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  g_object_set (h->element, "attach-meta", FALSE, NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_MAX, 1, 0));
  fail_unless (gst_buffer_get_histogram_meta (out) == NULL);
  msg = clh_check_pop_element_message (bus, "histogram");
  fail_unless (msg != NULL, "a message is still posted");
  gst_message_unref (msg);
  gst_buffer_unref (out);

  /* and back on */
  g_object_set (h->element, "attach-meta", TRUE, NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_MAX, 2, 0));
  fail_unless (gst_buffer_get_histogram_meta (out) != NULL);
  gst_buffer_unref (out);

  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

GST_START_TEST (test_post_messages_false)
{
  GstHarness *h = harness_new ("GRAY8", 16, 16);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstBuffer *out;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  g_object_set (h->element, "post-messages", FALSE, NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_ZERO, 1, 0));
  fail_unless (gst_buffer_get_histogram_meta (out) != NULL);
  fail_unless (clh_check_pop_element_message (bus, "histogram") == NULL);
  gst_buffer_unref (out);

  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

GST_START_TEST (test_device_name)
{
  GstElement *e = gst_element_factory_make ("clhistogram", NULL);
  gchar *name = NULL, *device = NULL;

  g_object_get (e, "device-name", &name, "device", &device, NULL);
  fail_unless (name == NULL);
  fail_unless_equals_string (device, "auto");
  g_free (device);

  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name != NULL && *name);
  g_free (name);

  /* "P:D" selects the same first device on a one-device machine. */
  gst_element_set_state (e, GST_STATE_NULL);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name == NULL);
  g_object_set (e, "device", "0:0", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
}
GST_END_TEST;

GST_START_TEST (test_error_device_not_found)
{
  GstElement *e = gst_element_factory_make ("clhistogram", NULL);
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (e, bus);
  g_object_set (e, "device", "no-such-opencl-device", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  /* The message names the setting; the debug text lists what exists. */
  clh_check_expect_error (bus, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
      "no-such-opencl-device", "0:0 ");

  g_object_set (e, "device", "7:3", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
      "7:3", "Devices:");

  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}
GST_END_TEST;

static void
check_truncated (GstHarness *h, GstBus *bus, GstBuffer *buffer)
{
  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "too small", NULL);
  fail_unless (gst_harness_try_pull (h) == NULL);
}

/* A buffer shorter than its caps, or than its GstVideoMeta describes, is a
 * stream error, not a read past its end. */
GST_START_TEST (test_error_truncated_buffer)
{
  GstHarness *h = harness_new ("RGBx", 601, 479);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstBuffer *buffer;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 601 * 4 };

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBx, 601, 479);
  check_truncated (h, bus, gst_buffer_new_allocate (NULL,
          GST_VIDEO_INFO_SIZE (&info) - 1, NULL));
  check_truncated (h, bus, gst_buffer_new ());

  /* Meta rows one byte too long for the buffer. */
  buffer = gst_buffer_new_allocate (NULL, 601 * 4 * 479, NULL);
  strides[0] += 1;
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_RGBx, 601, 479, 1, offsets, strides);
  check_truncated (h, bus, buffer);

  /* Meta rows shorter than a row of pixels. */
  buffer = gst_buffer_new_allocate (NULL, 601 * 4 * 479, NULL);
  strides[0] = 600 * 4;
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_RGBx, 601, 479, 1, offsets, strides);
  check_truncated (h, bus, buffer);

  /* A good frame still goes through afterwards. */
  buffer = frame_new (&info, CLH_TEST_RANDOM, 1, 0);
  buffer = gst_harness_push_and_pull (h, buffer);
  assert_meta_equals_reference (&info, buffer, "luma", 256, 0, -1,
      "after errors");
  gst_buffer_unref (buffer);

  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

GST_START_TEST (test_unsupported_caps)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, 128 * 48 * 8 / 3, NULL);

  /* v210 packs three 10-bit samples in 32 bits: not read in place. */
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=v210,width=48,height=48,framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h, buffer),
      GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Pushes one frame of @caps into an element set up by @props and expects
 * negotiation to fail with a message containing every string of @says. */
static void
expect_unsupported (const gchar *caps, const gchar *props,
    const gchar *const *says)
{
  gchar *desc = g_strdup_printf ("clhistogram %s", props);
  GstHarness *h = gst_harness_new_parse (desc);
  GstElement *e = gst_harness_find_element (h, "clhistogram");
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  GstVideoInfo info;

  gst_element_set_bus (e, bus);
  gst_harness_set_src_caps_str (h, caps);
  {
    GstCaps *c = gst_caps_from_string (caps);
    fail_unless (gst_video_info_from_caps (&info, c));
    gst_caps_unref (c);
  }
  fail_unless_equals_int (gst_harness_push (h, frame_new (&info,
              CLH_TEST_RANDOM, 1, 0)), GST_FLOW_NOT_NEGOTIATED);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s with %s: no error message", props, caps);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  for (; *says; says++)
    fail_unless (strstr (err->message, *says), "'%s' not in '%s'", *says,
        err->message);
  GST_INFO ("%s with %s: %s", props, caps, err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  gst_harness_teardown (h);
  g_free (desc);
}

/* Combinations that cannot be counted fail negotiation, saying which and
 * why; never an empty histogram. */
GST_START_TEST (test_unsupported_combinations)
{
  const gchar *caps_gray = "video/x-raw,format=GRAY8,width=8,height=8";
  const gchar *caps_nv12 = "video/x-raw,format=NV12,width=8,height=8";
  const gchar *caps_rgb = "video/x-raw,format=RGB,width=8,height=8";
  const gchar *caps_10 = "video/x-raw,format=I420_10LE,width=8,height=8";
  const gchar *hue_gray[] = { "mode=hue", "GRAY8", "colour", NULL };
  const gchar *max_nv12[] = { "mode=max", "NV12", "RGB", NULL };
  const gchar *rgb_nv12[] = { "mode=rgb", "NV12", NULL };
  const gchar *bins_8[] = { "1000 bins", "8-bit", "256", NULL };
  const gchar *bins_rgb[] = { "41", "40 per axis", NULL };
  const gchar *bins_hue[] = { "181", "180", NULL };
  const gchar *hue_10[] = { "mode=hue", "I420_10LE", "8-bit", NULL };
  const gchar *range[] = { "range", "300", "8-bit", NULL };

  expect_unsupported (caps_gray, "mode=hue", hue_gray);
  expect_unsupported (caps_gray, "mode=hue-saturation", hue_gray + 1);
  expect_unsupported (caps_nv12, "mode=max", max_nv12);
  expect_unsupported (caps_nv12, "mode=rgb", rgb_nv12);
  expect_unsupported (caps_gray, "bins=1000", bins_8);
  expect_unsupported (caps_rgb, "mode=rgb bins=41", bins_rgb);
  expect_unsupported (caps_rgb, "mode=hue bins=181", bins_hue);
  expect_unsupported (caps_10, "mode=hue", hue_10);
  expect_unsupported (caps_gray, "range-max=300", range);
}
GST_END_TEST;

/* A property changed mid-stream to a combination the format cannot count
 * fails the next frame with the same message, and properties can be set
 * in any order. */
GST_START_TEST (test_unsupported_change_while_playing)
{
  GstHarness *h = harness_new ("GRAY8", 16, 16);
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;

  gst_element_set_bus (h->element, bus);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  gst_buffer_unref (gst_harness_push_and_pull (h, frame_new (&info,
              CLH_TEST_RANDOM, 1, 0)));
  g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_HUE, NULL);
  fail_unless_equals_int (gst_harness_push (h, frame_new (&info,
              CLH_TEST_RANDOM, 2, 0)), GST_FLOW_NOT_NEGOTIATED);
  clh_check_expect_error (bus, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
      "mode=hue", NULL);
  clh_check_harness_teardown (h, bus);

  /* bins for one mode, then the mode: no order matters. */
  h = harness_new ("RGB", 16, 16);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, 16, 16);
  g_object_set (h->element, "bins", 256, "mode", GST_HISTOGRAM_MODE_RGB,
      "bins", 8, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (h, frame_new (&info,
              CLH_TEST_RANDOM, 3, 0)));
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A source that negotiates again on each frame it tries (videotestsrc)
 * gets one error for caps the settings cannot count, not one a retry. */
GST_START_TEST (test_unsupported_error_posted_once)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=GRAY8,width=32,height=16 ! "
      "clhistogram name=h mode=hue ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstElement *h = gst_bin_get_by_name (GST_BIN (pipeline), "h");
  GstMessage *msg;
  guint errors = 0;
  gboolean stopped = FALSE;

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* The source's streaming thread ends with an error of its own (not
   * negotiated) after clhistogram refused, and negotiates no more: once it
   * is on the bus, so is every error clhistogram posted. */
  while (!stopped && (msg = gst_bus_timed_pop_filtered (bus,
              clh_test_timeout_ns (60), GST_MESSAGE_ERROR | GST_MESSAGE_EOS))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR
        && GST_MESSAGE_SRC (msg) == GST_OBJECT (h)) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      fail_unless (g_error_matches (err, GST_CORE_ERROR,
              GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
      g_clear_error (&err);
      errors++;
    } else {
      stopped = TRUE;
    }
    gst_message_unref (msg);
  }
  fail_unless (stopped, "the source did not stop");
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
    errors += GST_MESSAGE_SRC (msg) == GST_OBJECT (h);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (errors, 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (h);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}
GST_END_TEST;

/* bins left unset follows the mode: 256, 180 for hue, 32 per axis for
 * hue-saturation, 16 per axis for rgb. */
GST_START_TEST (test_default_bins)
{
  GstElement *e = gst_element_factory_make ("clhistogram", NULL);
  static const struct {
    GstHistogramMode mode;
    guint bins;
  } defaults[] = {
    {GST_HISTOGRAM_MODE_LUMA, 256}, {GST_HISTOGRAM_MODE_CHANNELS, 256},
    {GST_HISTOGRAM_MODE_MAX, 256}, {GST_HISTOGRAM_MODE_HUE, 180},
    {GST_HISTOGRAM_MODE_HUE_SATURATION, 32}, {GST_HISTOGRAM_MODE_RGB, 16},
  };
  guint i, bins;

  for (i = 0; i < G_N_ELEMENTS (defaults); i++) {
    g_object_set (e, "mode", defaults[i].mode, NULL);
    g_object_get (e, "bins", &bins, NULL);
    fail_unless_equals_int (bins, defaults[i].bins);
  }
  g_object_set (e, "bins", 12, NULL);
  g_object_get (e, "bins", &bins, NULL);
  fail_unless_equals_int (bins, 12);
  gst_object_unref (e);
}
GST_END_TEST;

static const GValue *
array_field (const GstStructure *s, const gchar *name, guint n)
{
  const GValue *v = gst_structure_get_value (s, name);

  fail_unless (v != NULL && GST_VALUE_HOLDS_ARRAY (v), "no array %s", name);
  fail_unless_equals_int (gst_value_array_get_size (v), n);
  return v;
}

/* Ranges of 10-bit samples: below and above in the meta and the message,
 * and the message's samples per channel (a quarter for 4:2:0 chroma),
 * shape, depth and video range. */
GST_START_TEST (test_ranges_and_message_fields)
{
  GstHarness *h = harness_new ("I420_10LE", 601, 479);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstBuffer *out;
  GstMessage *msg;
  const GstStructure *s;
  const GValue *samples, *below, *above, *shape;
  GstHistogramMeta *meta;
  guint c, v;
  static const guint64 n_samples[] = { 601 * 479, 301 * 240, 301 * 240 };

  gst_harness_set_src_caps_str (h, "video/x-raw,format=I420_10LE,width=601,"
      "height=479,framerate=30/1,colorimetry=bt601");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420_10LE, 601, 479);
  g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_CHANNELS, "bins", 877,
      "range-min", 64, "range-max", 940, NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_RANDOM, 5,
          0));
  assert_meta_equals_reference (&info, out, "channels", 877, 64, 940,
      "I420_10LE 64..940");
  meta = gst_buffer_get_histogram_meta (out);
  fail_unless_equals_int (meta->info.range_min, 64);
  fail_unless_equals_int (meta->info.range_max, 940);
  fail_unless_equals_int (meta->info.depth, 10);
  fail_unless_equals_int (meta->info.video_range,
      GST_VIDEO_COLOR_RANGE_16_235);
  fail_unless (gst_histogram_meta_get_statistics (meta, 0)->below > 0);
  fail_unless (gst_histogram_meta_get_statistics (meta, 0)->above > 0);

  msg = clh_check_pop_element_message (bus, "histogram");
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  samples = array_field (s, "samples", 3);
  below = array_field (s, "below", 3);
  above = array_field (s, "above", 3);
  shape = array_field (s, "shape", 1);
  for (c = 0; c < 3; c++) {
    fail_unless_equals_uint64 (g_value_get_uint64 (gst_value_array_get_value
            (samples, c)), n_samples[c]);
    fail_unless_equals_uint64 (gst_histogram_meta_get_statistics (meta,
            c)->samples, n_samples[c]);
    fail_unless_equals_uint64 (g_value_get_uint64 (gst_value_array_get_value
            (below, c)), gst_histogram_meta_get_statistics (meta, c)->below);
    fail_unless_equals_uint64 (g_value_get_uint64 (gst_value_array_get_value
            (above, c)), gst_histogram_meta_get_statistics (meta, c)->above);
  }
  fail_unless_equals_int (g_value_get_uint (gst_value_array_get_value (shape,
              0)), 877);
  fail_unless (gst_structure_get_uint (s, "depth", &v));
  fail_unless_equals_int (v, 10);
  fail_unless (gst_structure_get_uint (s, "range-min", &v));
  fail_unless_equals_int (v, 64);
  fail_unless (gst_structure_get_uint (s, "range-max", &v));
  fail_unless_equals_int (v, 940);
  fail_unless_equals_string (gst_structure_get_string (s, "video-range"),
      "limited");
  fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
          (gst_structure_get_value (s, "channels"), 1)), "U");
  gst_message_unref (msg);
  gst_buffer_unref (out);

  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* The joint RGB histogram's shape and name, and hue masks through the
 * element. */
GST_START_TEST (test_colour_modes)
{
  GstHarness *h = harness_new ("BGR", 97, 61);
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstHistogramMeta *meta;
  const guint *shape;
  ClhHistogramSpec spec;
  ClhHistogram unmasked;
  guint32 total = 0, all = 0, b;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_BGR, 97, 61);
  in = frame_new (&info, CLH_TEST_RANDOM, 9, 0);

  g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_RGB, NULL);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  assert_meta_equals_reference (&info, out, "rgb", 16, 0, -1, "rgb 16");
  meta = gst_buffer_get_histogram_meta (out);
  shape = meta->info.shape;
  fail_unless_equals_int (meta->info.n_dims, 3);
  fail_unless (shape[0] == 16 && shape[1] == 16 && shape[2] == 16);
  fail_unless_equals_int (meta->info.n_bins, 4096);
  fail_unless_equals_string (gst_histogram_meta_get_channel_name (meta, 0),
      "rgb");
  gst_buffer_unref (out);

  /* min-saturation leaves grey-ish pixels out of the hue histogram. */
  g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_HUE,
      "min-saturation", 100, "min-value", 40, NULL);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  meta = gst_buffer_get_histogram_meta (out);
  fail_unless_equals_int (meta->info.n_bins, 180);
  for (b = 0; b < 180; b++)
    total += meta->counts[b];
  fail_unless (clh_reference_histogram_of_buffer (&info, in, "hue", 180, 0,
          -1, &spec, &unmasked));
  for (b = 0; b < 180; b++)
    all += unmasked.counts[b];
  fail_unless_equals_int (all, 97 * 61);
  fail_unless (total > 0 && total < all, "masked %u of %u", total, all);
  g_free (unmasked.counts);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A plane that runs across two memory blocks (gst_video_frame_map maps only
 * the block holding its first byte) is counted whole, not read past. */
GST_START_TEST (test_plane_across_memories)
{
  GstHarness *h = harness_new ("GRAY8", 64, 64);
  GstVideoInfo info;
  GstBuffer *whole, *split, *out_whole, *out_split;
  GstMapInfo map;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 64 };
  GstHistogramMeta *a, *b;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 64);
  whole = frame_new (&info, CLH_TEST_RANDOM, 4, 0);
  gst_buffer_map (whole, &map, GST_MAP_READ);
  split = gst_buffer_new ();
  for (i = 0; i < 2; i++) {
    guint8 *half = g_memdup2 (map.data + i * 2048, 2048);

    gst_buffer_append_memory (split, gst_memory_new_wrapped (0, half, 2048,
            0, 2048, half, g_free));
  }
  gst_buffer_unmap (whole, &map);
  gst_buffer_add_video_meta_full (split, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY8, 64, 64, 1, offsets, strides);

  out_whole = gst_harness_push_and_pull (h, whole);
  out_split = gst_harness_push_and_pull (h, split);
  assert_meta_equals_reference (&info, out_whole, "luma", 256, 0, -1,
      "contiguous");
  a = gst_buffer_get_histogram_meta (out_whole);
  b = gst_buffer_get_histogram_meta (out_split);
  fail_unless (b != NULL);
  fail_unless (memcmp (a->counts, b->counts, 256 * sizeof (guint32)) == 0);
  gst_buffer_unref (out_whole);
  gst_buffer_unref (out_split);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* 16-bit samples at an odd offset and stride: the kernels read bytes, so
 * alignment does not matter. */
GST_START_TEST (test_unaligned_16bit)
{
  GstHarness *h = harness_new ("GRAY16_LE", 61, 33);
  GstVideoInfo info;
  GstBuffer *buffer, *out;
  GstMapInfo map;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 1 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 61 * 2 + 5 };

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY16_LE, 61, 33);
  buffer = gst_buffer_new_allocate (NULL, 1 + strides[0] * 33, NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  clh_test_fill (map.data, map.size, 1, strides[0], 61 * 2, 33,
      CLH_TEST_RANDOM, 3);
  gst_buffer_unmap (buffer, &map);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY16_LE, 61, 33, 1, offsets, strides);
  g_object_set (h->element, "bins", 65536, NULL);
  out = gst_harness_push_and_pull (h, buffer);
  assert_meta_equals_reference (&info, out, "luma", 65536, 0, -1,
      "GRAY16_LE at offset 1");
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* The ClhContext a clhistogram element uses, from the GstContext stored on
 * it (transfer none: the pointer, for comparing). */
static gconstpointer
element_cl_context (GstElement *e, gchar **device_name)
{
  GstContext *context = gst_element_get_context (e, "gst.opencl.context");
  const GstStructure *s;
  gconstpointer handle;

  fail_unless (context != NULL, "%s holds no gst.opencl.context",
      GST_OBJECT_NAME (e));
  fail_unless (gst_context_is_persistent (context));
  s = gst_context_get_structure (context);
  handle = g_value_get_boxed (gst_structure_get_value (s, "context"));
  fail_unless (handle != NULL);
  if (device_name)
    *device_name = g_strdup (gst_structure_get_string (s, "device-name"));
  gst_context_unref (context);
  return handle;
}

/* Pops every message and counts the need-context and have-context ones
 * for our context type. */
static void
count_context_messages (GstBus *bus, guint *need, guint *have)
{
  GstMessage *msg;
  const gchar *type;
  GstContext *context;

  *need = *have = 0;
  while ((msg = gst_bus_pop (bus))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT
        && gst_message_parse_context_type (msg, &type)
        && g_str_equal (type, "gst.opencl.context"))
      (*need)++;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
      gst_message_parse_have_context (msg, &context);
      if (g_str_equal (gst_context_get_context_type (context),
              "gst.opencl.context"))
        (*have)++;
      gst_context_unref (context);
    }
    gst_message_unref (msg);
  }
}

static GstElement *
pipeline_new (const gchar *description)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);

  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  return pipeline;
}

static gconstpointer
ready_and_get_context (GstElement *pipeline, const gchar *name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), name);
  gconstpointer handle;
  gchar *device_name, *prop;

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  handle = element_cl_context (e, &device_name);
  g_object_get (e, "device-name", &prop, NULL);
  fail_unless_equals_string (device_name, prop);
  g_free (device_name);
  g_free (prop);
  gst_object_unref (e);
  return handle;
}

static GstBusSyncReply
answer_need_context (GstBus *bus, GstMessage *msg, gpointer context)
{
  const gchar *type;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT
      && gst_message_parse_context_type (msg, &type)
      && g_str_equal (type, "gst.opencl.context"))
    gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), context);
  return GST_BUS_PASS;
}

/* Two linked elements outside any bin: the second to go to READY finds
 * the first's context with a context query, downstream or upstream, and
 * neither asks the application nor announces it. */
static void
check_query_finds_context (gboolean downstream_first)
{
  GstElement *a = gst_element_factory_make ("clhistogram", NULL);
  GstElement *b = gst_element_factory_make ("clhistogram", NULL);
  GstElement *early = downstream_first ? b : a;
  GstElement *late = downstream_first ? a : b;
  GstPad *src = gst_element_get_static_pad (a, "src");
  GstPad *sink = gst_element_get_static_pad (b, "sink");
  GstBus *bus = gst_bus_new ();
  guint need, have;

  gst_element_set_bus (a, bus);
  gst_element_set_bus (b, bus);
  fail_unless_equals_int (gst_pad_link (src, sink), GST_PAD_LINK_OK);
  fail_unless_equals_int (gst_element_set_state (early, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  count_context_messages (bus, &need, &have);
  fail_unless (need == 1 && have == 1, "first: %u need, %u have", need, have);
  fail_unless_equals_int (gst_element_set_state (late, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  count_context_messages (bus, &need, &have);
  fail_unless (need == 0 && have == 0, "%s: %u need, %u have",
      downstream_first ? "a asking downstream" : "b asking upstream", need,
      have);
  fail_unless (element_cl_context (a, NULL) == element_cl_context (b, NULL));

  gst_element_set_state (a, GST_STATE_NULL);
  gst_element_set_state (b, GST_STATE_NULL);
  gst_element_set_bus (a, NULL);
  gst_element_set_bus (b, NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (bus);
  gst_object_unref (a);
  gst_object_unref (b);
}

/* The shared context's structure reads as text (gst-launch-1.0 -v and -m
 * print it so): its handle serialises as the device's name, not the NULL
 * GStreamer writes for a boxed type without a serialisation. */
GST_START_TEST (test_context_readable)
{
  GstElement *e = gst_element_factory_make ("clhistogram", NULL);
  GstContext *context;
  const GstStructure *s;
  gchar *text, *handle, *name = NULL;

  fail_unless (gst_element_set_state (e, GST_STATE_READY)
      == GST_STATE_CHANGE_SUCCESS);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name != NULL);
  context = gst_element_get_context (e, "gst.opencl.context");
  fail_unless (context != NULL);
  s = gst_context_get_structure (context);
  text = gst_structure_to_string (s);
  GST_INFO ("%s", text);
  fail_if (strstr (text, "NULL"), "%s", text);
  handle = gst_value_serialize (gst_structure_get_value (s, "context"));
  fail_unless (handle != NULL, "the handle does not serialise");
  fail_unless (strstr (handle, name), "'%s' does not name %s", handle, name);
  fail_unless (strstr (text, handle), "%s", text);
  g_free (handle);
  g_free (text);
  g_free (name);
  gst_context_unref (context);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
}
GST_END_TEST;

/* Counts the debug log's warnings that a region or zone lies outside. */
static void
count_outside (GstDebugCategory *category, GstDebugLevel level,
    const gchar *file, const gchar *function, gint line, GObject *object,
    GstDebugMessage *message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (level == GST_LEVEL_WARNING && text && strstr (text, "lies outside"))
    g_atomic_int_inc ((gint *) user_data);
}

/* A fixed region wholly outside the frame, and a zone of a grid finer than
 * the frame, give a warning in the debug log the first time each falls
 * outside, not on every frame; new regions are warned about again. */
GST_START_TEST (test_outside_warned_once)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  gint warnings = 0;
  guint i;

  gst_debug_set_active (TRUE);
  gst_debug_set_threshold_for_name ("clhistogram", GST_LEVEL_WARNING);
  gst_debug_add_log_function (count_outside, &warnings, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "regions",
      "<<100, 100, 5, 5>, <0, 0, 4, 4>>");
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=32,"
      "height=24,framerate=30/1");
  for (i = 0; i < 3; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h,
            gst_harness_create_buffer (h, 32 * 24)));
  fail_unless_equals_int (g_atomic_int_get (&warnings), 1);

  /* New regions, one outside: warned about once again. */
  gst_util_set_object_arg (G_OBJECT (h->element), "regions",
      "<<0, 0, 4, 4>, <-50, 3, 10, 10>>");
  for (i = 0; i < 3; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h,
            gst_harness_create_buffer (h, 32 * 24)));
  fail_unless_equals_int (g_atomic_int_get (&warnings), 2);
  gst_debug_remove_log_function (count_outside);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Two elements of a pipeline share one device context: the first to go
 * to READY (downstream) makes and announces it, the other finds it with a
 * context query. A second pipeline shares it through the process-wide
 * registry; a context the application sets, before READY or when asked,
 * is used as it is, with no announcement. */
GST_START_TEST (test_context_shared)
{
  GstElement *p1 = pipeline_new ("videotestsrc ! clhistogram name=a ! "
      "clhistogram name=b ! fakesink");
  GstElement *p2, *p3;
  GstBus *bus1 = gst_element_get_bus (p1), *bus;
  gconstpointer ctx_a, ctx_b;
  GstElement *a;
  GstContext *context;
  guint need, have;

  ctx_b = ready_and_get_context (p1, "b");
  ctx_a = ready_and_get_context (p1, "a");
  fail_unless (ctx_a == ctx_b, "two elements, two contexts");
  count_context_messages (bus1, &need, &have);
  fail_unless_equals_int (need, 1);
  fail_unless_equals_int (have, 1);
  check_query_finds_context (TRUE);
  check_query_finds_context (FALSE);

  /* Another pipeline: the registry's, announced there. */
  p2 = pipeline_new ("clhistogram name=c ! fakesink");
  bus = gst_element_get_bus (p2);
  fail_unless (ready_and_get_context (p2, "c") == ctx_a);
  count_context_messages (bus, &need, &have);
  fail_unless_equals_int (need, 1);
  fail_unless_equals_int (have, 1);
  gst_element_set_state (p2, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p2);

  /* The application takes p1's context and sets it on a new pipeline. */
  a = gst_bin_get_by_name (GST_BIN (p1), "a");
  context = gst_element_get_context (a, "gst.opencl.context");
  gst_object_unref (a);
  p3 = pipeline_new ("clhistogram name=d ! clhistogram name=e ! fakesink");
  bus = gst_element_get_bus (p3);
  gst_element_set_context (p3, context);
  fail_unless (ready_and_get_context (p3, "d") == ctx_a);
  fail_unless (ready_and_get_context (p3, "e") == ctx_a);
  count_context_messages (bus, &need, &have);
  fail_unless_equals_int (need, 0);
  fail_unless_equals_int (have, 0);
  gst_element_set_state (p3, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p3);

  /* ... or answers need-context with it. */
  p3 = pipeline_new ("clhistogram name=f ! fakesink");
  bus = gst_element_get_bus (p3);
  gst_bus_set_sync_handler (bus, answer_need_context, context, NULL);
  fail_unless (ready_and_get_context (p3, "f") == ctx_a);
  count_context_messages (bus, &need, &have);
  fail_unless_equals_int (need, 1);
  fail_unless_equals_int (have, 0);
  gst_element_set_state (p3, GST_STATE_NULL);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (p3);

  /* And it keeps it through NULL and back (the context is persistent). */
  gst_element_set_state (p1, GST_STATE_NULL);
  fail_unless (ready_and_get_context (p1, "a") == ctx_a);
  gst_element_set_state (p1, GST_STATE_NULL);
  gst_context_unref (context);
  gst_object_unref (bus1);
  gst_object_unref (p1);
}
GST_END_TEST;

/* The counts a histogram message carries against the reference of the
 * frame. */
static void
assert_message_equals_reference (const GstVideoInfo *info, GstBuffer *frame,
    GstMessage *msg, const gchar *mode, guint bins, const gchar *what)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const GValue *counts = gst_structure_get_value (s, "counts");
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint c, b, n_bins;

  fail_unless (clh_reference_histogram_of_buffer (info, frame, mode, bins, 0,
          -1, &spec, &want));
  n_bins = clh_histogram_spec_n_bins (&spec);
  fail_unless_equals_int (gst_value_array_get_size (counts),
      clh_histogram_spec_n_channels (&spec));
  for (c = 0; c < clh_histogram_spec_n_channels (&spec); c++) {
    const GValue *channel = gst_value_array_get_value (counts, c);

    for (b = 0; b < n_bins; b++)
      fail_unless_equals_int (g_value_get_uint (gst_value_array_get_value
              (channel, b)), want.counts[c * n_bins + b]);
  }
  GST_INFO ("%s: %u channels of %u bins as the reference", what, c, n_bins);
  g_free (want.counts);
}

/* Whether the host is known to have two devices, 0:0 and 0:1: PoCL's as
 * tests/meson.build sets them up (POCL_DEVICES), or a host with two GPUs
 * whose runner says so (CLH_TEST_TWO_DEVICES=1). */
static gboolean
has_two_devices (void)
{
  if (g_getenv ("POCL_DEVICES")
      || g_strcmp0 (g_getenv ("CLH_TEST_TWO_DEVICES"), "1") == 0)
    return TRUE;
  GST_INFO ("neither POCL_DEVICES nor CLH_TEST_TWO_DEVICES=1 is set: run "
      "through 'meson test', or on a host with two GPUs");
  return FALSE;
}

/* The `"P:D"` numbers of the device @e's context is on. */
static gchar *
element_cl_device (GstElement *e)
{
  GstContext *context = gst_element_get_context (e, "gst.opencl.context");
  gchar *spec;

  fail_unless (context != NULL);
  spec = g_strdup (gst_structure_get_string (gst_context_get_structure
          (context), "device"));
  gst_context_unref (context);
  fail_unless (spec != NULL, "the context names no device");
  return spec;
}

/* Two elements on two devices (PoCL's basic and pthread devices, or two
 * pthread devices of one name, which tests/meson.build sets up; two GPUs)
 * do not share: two contexts, each on the device its element asked for,
 * both counting right. The devices may have one name (two identical
 * GPUs): their numbers tell them apart. */
GST_START_TEST (test_two_devices)
{
  GstHarness *h;
  GstBus *bus;
  GstElement *a, *b;
  gconstpointer ctx_a, ctx_b;
  gchar *name_a, *name_b, *spec_a, *spec_b;
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMessage *msg;
  guint i, n_messages;

  if (!has_two_devices ())
    return;
  h = gst_harness_new_parse ("clhistogram name=a device=0:0 mode=channels "
      "! clhistogram name=b device=0:1 mode=channels attach-meta=false");
  bus = clh_check_harness_bus (h->element);
  a = gst_bin_get_by_name (GST_BIN (h->element), "a");
  b = gst_bin_get_by_name (GST_BIN (h->element), "b");
  ctx_a = element_cl_context (a, &name_a);
  ctx_b = element_cl_context (b, &name_b);
  fail_unless (ctx_a != ctx_b, "two devices, one context");
  spec_a = element_cl_device (a);
  spec_b = element_cl_device (b);
  fail_unless_equals_string (spec_a, "0:0");
  fail_unless_equals_string (spec_b, "0:1");
  GST_INFO ("a on %s (%s), b on %s (%s)", name_a, spec_a, name_b, spec_b);

  set_caps (h, "RGBA", 601, 479);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 601, 479);
  for (i = 0; i < 3; i++) {
    in = frame_new (&info, i ? CLH_TEST_RANDOM : CLH_TEST_GRADIENT, i, 0);
    out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
    assert_meta_equals_reference (&info, out, "channels", 256, 0, -1, name_a);
    for (n_messages = 0; (msg = clh_check_pop_element_message (bus, "histogram")); n_messages++) {
      assert_message_equals_reference (&info, in, msg, "channels", 256,
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)));
      gst_message_unref (msg);
    }
    fail_unless_equals_int (n_messages, 2);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  g_free (name_a);
  g_free (name_b);
  g_free (spec_a);
  g_free (spec_b);
  gst_object_unref (a);
  gst_object_unref (b);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* The device each of @names in @pipeline (in READY) counts on: 0 for the
 * device of @first's context, 1 for any other; and checks that elements on
 * one device share one context. */
static void
devices_of (GstElement *pipeline, const gchar *const *names, guint n,
    guint *device)
{
  gconstpointer first = NULL, other = NULL;
  guint i;

  for (i = 0; i < n; i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), names[i]);
    gconstpointer ctx = element_cl_context (e, NULL);

    if (!first)
      first = ctx;
    else if (ctx != first && !other)
      other = ctx;
    fail_unless (ctx == first || ctx == other, "three contexts");
    device[i] = ctx == first ? 0 : 1;
    gst_object_unref (e);
  }
}

/* device=auto with two devices to choose from (PoCL's basic and pthread,
 * both CPU devices, as tests/meson.build sets them up): unlinked elements
 * go to the least loaded device, so that four streams take two each;
 * linked elements share one; an element opened after one stream stopped
 * goes where it stopped; and each stream counts right. */
GST_START_TEST (test_auto_spreads)
{
  const gchar *const four[] = { "h0", "h1", "h2", "h3" };
  const gchar *const chain[] = { "a", "b" };
  GstElement *p, *q;
  GstHarness *h[2];
  GstVideoInfo info;
  guint device[4], i;

  if (!has_two_devices ())
    return;
  p = pipeline_new ("videotestsrc ! clhistogram name=h0 ! fakesink "
      "videotestsrc ! clhistogram name=h1 ! fakesink "
      "videotestsrc ! clhistogram name=h2 ! fakesink "
      "videotestsrc ! clhistogram name=h3 ! fakesink");
  fail_unless_equals_int (gst_element_set_state (p, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  devices_of (p, four, 4, device);
  fail_unless_equals_int (device[0] + device[1] + device[2] + device[3], 2);

  /* A linked pair shares whichever device it lands on. */
  q = pipeline_new ("videotestsrc ! clhistogram name=a ! "
      "clhistogram name=b ! fakesink");
  fail_unless_equals_int (gst_element_set_state (q, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  devices_of (q, chain, 2, device);
  fail_unless_equals_int (device[1], 0);
  gst_element_set_state (q, GST_STATE_NULL);
  gst_object_unref (q);

  /* Stop h0: the next stream goes to its device, now the less loaded. */
  {
    GstElement *h0 = gst_bin_get_by_name (GST_BIN (p), "h0");
    gconstpointer freed = element_cl_context (h0, NULL);

    fail_unless_equals_int (gst_element_set_state (h0, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    q = pipeline_new ("videotestsrc ! clhistogram name=n ! fakesink");
    fail_unless_equals_int (gst_element_set_state (q, GST_STATE_READY),
        GST_STATE_CHANGE_SUCCESS);
    {
      GstElement *n = gst_bin_get_by_name (GST_BIN (q), "n");

      fail_unless (element_cl_context (n, NULL) == freed,
          "not the least loaded device");
      gst_object_unref (n);
    }
    gst_element_set_state (q, GST_STATE_NULL);
    gst_object_unref (q);
    gst_object_unref (h0);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);

  /* Two streams, one per device, each counting right. */
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 97, 61);
  for (i = 0; i < 2; i++) {
    h[i] = gst_harness_new_parse ("clhistogram mode=channels");
    set_caps (h[i], "RGBA", 97, 61);
  }
  {
    GstElement *e0 = gst_harness_find_element (h[0], "clhistogram");
    GstElement *e1 = gst_harness_find_element (h[1], "clhistogram");

    fail_if (element_cl_context (e0, NULL) == element_cl_context (e1, NULL),
        "two streams on one device of two");
    gst_object_unref (e0);
    gst_object_unref (e1);
  }
  for (i = 0; i < 4; i++) {
    GstBuffer *in = frame_new (&info, CLH_TEST_RANDOM, i, 0);
    GstBuffer *out = gst_harness_push_and_pull (h[i % 2], in);

    assert_meta_equals_reference (&info, out, "channels", 256, 0, -1,
        "auto");
    gst_buffer_unref (out);
  }
  for (i = 0; i < 2; i++)
    gst_harness_teardown (h[i]);
}

GST_END_TEST;

/* The pool the element proposes for @caps, through an allocation query
 * from upstream; active. */
static GstBufferPool *
get_proposed_pool (GstHarness *h, const gchar *caps_str)
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
  fail_unless (gst_query_get_n_allocation_pools (query) > 0, "no pool");
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  fail_unless (pool != NULL);
  fail_unless (min >= 2, "min %u buffers", min);
  fail_unless_equals_int (max, 0);

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

/* Fills every plane's rows of a mapped frame with @content. */
static void
fill_video_frame (GstVideoFrame *vframe, ClhTestContent content, guint seed)
{
  ClhFrame layout = { 0 };
  ClhFormatClass klass;
  guint p;

  fail_unless (clh_reference_layout (GST_VIDEO_INFO_NAME (&vframe->info),
          &layout, &klass));
  layout.width = GST_VIDEO_FRAME_WIDTH (vframe);
  layout.height = GST_VIDEO_FRAME_HEIGHT (vframe);
  for (p = 0; p < layout.n_planes; p++) {
    guint rows = clh_frame_plane_rows (&layout, p);
    gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, p);

    clh_test_fill (GST_VIDEO_FRAME_PLANE_DATA (vframe, p), stride * rows, 0,
        stride, clh_frame_plane_row_bytes (&layout, p), rows, content,
        seed * 7 + p);
  }
}

/* A buffer from @pool holding @content, and the same bytes, video meta and
 * timestamps in plain system memory. */
static GstBuffer *
pool_frame_new (GstBufferPool *pool, const GstVideoInfo *info,
    ClhTestContent content, guint seed, GstBuffer **plain)
{
  GstBuffer *buffer = NULL;
  GstVideoMeta *vmeta;
  GstVideoFrame vframe;
  GstMapInfo map;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buffer,
          NULL), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_n_memory (buffer), 1);
  fail_unless (gst_memory_is_type (gst_buffer_peek_memory (buffer, 0),
          "ClHostMemory"), "pool memory of another type");
  fail_unless (gst_video_frame_map (&vframe, info, buffer, GST_MAP_WRITE));
  fail_unless (((guintptr) GST_VIDEO_FRAME_PLANE_DATA (&vframe, 0) & 63) == 0);
  fill_video_frame (&vframe, content, seed);
  gst_video_frame_unmap (&vframe);
  GST_BUFFER_PTS (buffer) = seed * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  *plain = gst_buffer_new_memdup (map.data, map.size);
  gst_buffer_unmap (buffer, &map);
  vmeta = gst_buffer_get_video_meta (buffer);
  fail_unless (vmeta != NULL);
  gst_buffer_add_video_meta_full (*plain, GST_VIDEO_FRAME_FLAG_NONE,
      vmeta->format, vmeta->width, vmeta->height, vmeta->n_planes,
      vmeta->offset, vmeta->stride);
  GST_BUFFER_PTS (*plain) = GST_BUFFER_PTS (buffer);
  GST_BUFFER_DURATION (*plain) = GST_BUFFER_DURATION (buffer);
  return buffer;
}

static void
count_host_path (GstDebugCategory *category, GstDebugLevel level,
    const gchar *file, const gchar *function, gint line, GObject *object,
    GstDebugMessage *message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (g_str_equal (gst_debug_category_get_name (category), "clhistogram")
      && text && strstr (text, "no host copy"))
    g_atomic_int_inc ((gint *) user_data);
}

/* Pushes @in and checks its meta against the reference; returns the
 * output. */
static GstBuffer *
push_and_check (GstHarness *h, const GstVideoInfo *info, GstBuffer *in,
    const gchar *mode, const gchar *what)
{
  GstBuffer *out = gst_harness_push_and_pull (h, in);

  assert_meta_equals_reference (info, out, mode, 256, 0, -1, what);
  return out;
}

static void
assert_same_meta (GstBuffer *a, GstBuffer *b, const gchar *what)
{
  GstHistogramMeta *ma = gst_buffer_get_histogram_meta (a);
  GstHistogramMeta *mb = gst_buffer_get_histogram_meta (b);

  fail_unless_equals_int (ma->info.n_channels, mb->info.n_channels);
  fail_unless_equals_int (ma->info.n_bins, mb->info.n_bins);
  fail_unless (memcmp (ma->counts, mb->counts, (gsize) ma->info.n_channels
          * ma->info.n_bins * sizeof (guint32)) == 0,
      "%s: pool and plain memory differ", what);
}

/* Frames in the proposed pool (read by the device without a host copy)
 * and the same frames in plain memory (the copy path) give the same,
 * reference-exact bins, at even and odd sizes, packed and planar. */
GST_START_TEST (test_pool_path)
{
  static const struct {
    const gchar *format;
    guint width, height;
  } cases[] = {
    {"RGBA", 600, 480}, {"RGBA", 601, 479}, {"GRAY8", 601, 479},
    {"NV12", 601, 479}, {"I420", 600, 480}, {"I420", 5, 3},
  };
  static const gchar *const check_modes[] = { "luma", "channels" };
  static const ClhTestContent contents[] = { CLH_TEST_RANDOM,
    CLH_TEST_GRADIENT
  };
  gint host_path = 0, frames = 0;
  guint i, m, c;

  /* The element logs which path each frame takes; count, do not print. */
  gst_debug_set_threshold_for_name ("clhistogram", GST_LEVEL_LOG);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (count_host_path, &host_path, NULL);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,"
        "height=%u,framerate=30/1", cases[i].format, cases[i].width,
        cases[i].height);
    GstHarness *h = gst_harness_new ("clhistogram");
    GstBufferPool *pool;
    GstVideoInfo info;

    gst_harness_set_src_caps_str (h, caps);
    pool = get_proposed_pool (h, caps);
    gst_video_info_set_format (&info,
        gst_video_format_from_string (cases[i].format), cases[i].width,
        cases[i].height);
    for (c = 0; c < G_N_ELEMENTS (contents); c++)
      for (m = 0; m < G_N_ELEMENTS (check_modes); m++) {
        gchar *what = g_strdup_printf ("%s %s %s", caps, check_modes[m],
            clh_test_content_name (contents[c]));
        GstBuffer *plain, *in = pool_frame_new (pool, &info, contents[c], i,
            &plain);
        GstBuffer *out_pool, *out_plain;

        g_object_set (h->element, "mode", mode_from_nick (check_modes[m]),
            NULL);
        out_pool = push_and_check (h, &info, in, check_modes[m], what);
        out_plain = push_and_check (h, &info, plain, check_modes[m], what);
        assert_same_meta (out_pool, out_plain, what);
        gst_buffer_unref (out_pool);
        gst_buffer_unref (out_plain);
        frames++;
        g_free (what);
      }
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    gst_harness_teardown (h);
    g_free (caps);
  }
  gst_debug_remove_log_function (count_host_path);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  gst_debug_unset_threshold_for_name ("clhistogram");
  fail_unless_equals_int (g_atomic_int_get (&host_path), frames);
}
GST_END_TEST;

/* The host memory's sub-memories, spans and copies; a frame in a
 * sub-memory is counted as the whole. */
GST_START_TEST (test_host_memory)
{
  const gchar *caps = "video/x-raw,format=GRAY8,width=64,height=48,"
      "framerate=30/1";
  GstHarness *h = harness_new ("GRAY8", 64, 48);
  GstBufferPool *pool = get_proposed_pool (h, caps);
  GstBuffer *plain, *in, *sub, *out_sub, *out_plain;
  GstMemory *mem, *a, *b, *copy;
  GstMapInfo map, map_copy;
  GstVideoInfo info;
  gsize offset = 1;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  in = pool_frame_new (pool, &info, CLH_TEST_RANDOM, 3, &plain);
  mem = gst_buffer_peek_memory (in, 0);

  a = gst_memory_share (mem, 0, 100);
  b = gst_memory_share (mem, 100, 100);
  fail_unless (gst_memory_is_type (a, "ClHostMemory"));
  fail_unless (gst_memory_is_span (a, b, &offset));
  fail_unless_equals_int (offset, 0);
  fail_if (gst_memory_is_span (b, a, NULL));
  copy = gst_memory_copy (mem, 10, 1000);
  fail_unless (gst_memory_is_type (copy, "ClHostMemory"));
  gst_memory_map (mem, &map, GST_MAP_READ);
  gst_memory_map (copy, &map_copy, GST_MAP_READ);
  fail_unless_equals_int (map_copy.size, 1000);
  fail_unless (memcmp (map.data + 10, map_copy.data, 1000) == 0);
  gst_memory_unmap (copy, &map_copy);
  gst_memory_unmap (mem, &map);
  gst_memory_unref (a);
  gst_memory_unref (b);
  gst_memory_unref (copy);

  sub = gst_buffer_new ();
  gst_buffer_append_memory (sub, gst_memory_share (mem, 0, -1));
  gst_buffer_copy_into (sub, in, GST_BUFFER_COPY_METADATA, 0, -1);
  out_sub = push_and_check (h, &info, sub, "luma", "sub-memory");
  out_plain = push_and_check (h, &info, plain, "luma", "plain");
  assert_same_meta (out_sub, out_plain, "sub-memory");
  gst_buffer_unref (out_sub);
  gst_buffer_unref (out_plain);
  gst_buffer_unref (in);

  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Records the buffers' timestamps and the events leaving the element, in
 * order: "B0 B1 caps B2 eos". */
static GstPadProbeReturn
record_flow (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  GString *flow = user_data;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER)
    g_string_append_printf (flow, "B%" G_GUINT64_FORMAT " ",
        gst_util_uint64_scale_round (GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER
                (info)), 30, GST_SECOND));
  else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_CAPS
      || GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS
      || GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_GAP)
    g_string_append_printf (flow, "%s ",
        GST_EVENT_TYPE_NAME (GST_PAD_PROBE_INFO_EVENT (info)));
  return GST_PAD_PROBE_OK;
}

/* A harness around clhistogram keeping @n frames in flight, upstream not
 * live, recording what leaves into @flow. */
static GstHarness *
harness_in_flight (const gchar *format, guint width, guint height, guint n,
    GString *flow)
{
  GstHarness *h = gst_harness_new ("clhistogram");

  g_object_set (h->element, "max-frames-in-flight", n, NULL);
  gst_harness_set_live (h, FALSE);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, record_flow, flow, NULL);
  set_caps (h, format, width, height);
  return h;
}

/* Pulls the next output and checks it is frame @seed, with the meta of
 * that frame's own reference. */
static void
pull_frame_checked (GstHarness *h, const GstVideoInfo *info, guint seed)
{
  /* Out already, or soon: frames leave from the element's thread as they
   * are counted. */
  GstBuffer *out = gst_harness_pull (h);
  GstBuffer *want = frame_new (info, CLH_TEST_RANDOM, seed, 0);
  gchar *what = g_strdup_printf ("frame %u", seed);

  fail_unless (out != NULL, "frame %u is not out", seed);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (want));
  assert_meta_equals_reference (info, out, "luma", 256, 0, -1, what);
  gst_buffer_unref (want);
  gst_buffer_unref (out);
  g_free (what);
}

static void
push_frames (GstHarness *h, const GstVideoInfo *info, guint first, guint n)
{
  guint i;

  for (i = first; i < first + n; i++)
    fail_unless_equals_int (gst_harness_push (h, frame_new (info,
                CLH_TEST_RANDOM, i, 0)), GST_FLOW_OK);
}

/* Waits (in real time, up to 20 s) until @n buffers came out: frames
 * leave as they are counted, from the element's own thread. */
static void
wait_received (GstHarness *h, guint n)
{
  const gint64 give_up = g_get_monotonic_time () + clh_test_timeout_us (20);

  while (gst_harness_buffers_received (h) < n) {
    fail_unless (g_get_monotonic_time () < give_up, "%u of %u frames out",
        gst_harness_buffers_received (h), n);
    g_usleep (200);
  }
}

/* With 4 frames in flight each frame leaves once counted, with no later
 * frame coming and no time passing on the element's clock, with its own
 * meta and message; EOS pushes the rest first, in order. */
GST_START_TEST (test_in_flight_eos)
{
  GString *flow = g_string_new (NULL);
  GstHarness *h = harness_in_flight ("GRAY8", 64, 48, 4, flow);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstMessage *msg;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  push_frames (h, &info, 0, 3);
  wait_received (h, 3);
  for (i = 0; i < 3; i++)
    pull_frame_checked (h, &info, i);
  push_frames (h, &info, 3, 3);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  for (i = 3; i < 6; i++)
    pull_frame_checked (h, &info, i);
  fail_unless_equals_string (flow->str, "caps B0 B1 B2 B3 B4 B5 eos ");
  for (i = 0; i < 6; i++) {
    msg = clh_check_pop_element_message (bus, "histogram");
    fail_unless (msg != NULL);
    fail_unless_equals_uint64 (field_u64 (gst_message_get_structure (msg),
            "timestamp"), i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
  clh_check_harness_teardown (h, bus);
  g_string_free (flow, TRUE);
}
GST_END_TEST;

/* Pulls the frames that left before a flush or an error, which are the
 * first of those pushed, in order; returns how many. */
static guint
pull_frames_before (GstHarness *h, guint seed, guint n)
{
  GstBuffer *out;
  guint i = 0;

  for (i = 0; i < n && (out = gst_harness_try_pull (h)); i++) {
    const GstClockTime want = (seed + i) * GST_SECOND / 30;

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), want);
    gst_buffer_unref (out);
  }
  return i;
}

/* A flush drops the frames still pending unpushed (the leaks tracer checks
 * they are freed) and streaming goes on; a GAP event and a DRAIN query push
 * them first. */
GST_START_TEST (test_in_flight_flush)
{
  GString *flow = g_string_new (NULL);
  GstHarness *h = harness_in_flight ("GRAY8", 64, 48, 4, flow);
  GstVideoInfo info;
  GstSegment segment;
  GstQuery *query;
  guint i, before;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  push_frames (h, &info, 0, 3);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  before = pull_frames_before (h, 0, 3);

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  push_frames (h, &info, 10, 4);
  pull_frame_checked (h, &info, 10);
  fail_unless (gst_harness_push_event (h, gst_event_new_gap (GST_SECOND,
              GST_SECOND / 30)));
  for (i = 11; i < 14; i++)
    pull_frame_checked (h, &info, i);

  push_frames (h, &info, 20, 2);
  query = gst_query_new_drain ();
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  gst_query_unref (query);
  pull_frame_checked (h, &info, 20);
  pull_frame_checked (h, &info, 21);
  fail_unless (g_str_has_suffix (flow->str, "B10 B11 B12 B13 gap B20 B21 "),
      "%s", flow->str);
  /* Of the frames before the flush, the ones counted before it left in
   * order; no other came out, then or later. */
  for (i = 0; i < 3; i++) {
    gchar *flushed = g_strdup_printf ("B%u ", i);
    fail_unless ((strstr (flow->str, flushed) != NULL) == (i < before),
        "%s: %s", flushed, flow->str);
    g_free (flushed);
  }

  /* Pending at teardown: dropped at PAUSED->READY, nothing leaks. */
  push_frames (h, &info, 30, 2);
  gst_harness_teardown (h);
  g_string_free (flow, TRUE);
}
GST_END_TEST;

/* A frame that fails releases every frame still pending (the leaks tracer
 * checks), and streaming can go on. */
GST_START_TEST (test_in_flight_error)
{
  GString *flow = g_string_new (NULL);
  GstHarness *h = harness_in_flight ("GRAY8", 64, 48, 4, flow);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  gchar *want;
  guint before;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  push_frames (h, &info, 0, 2);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              100, NULL)), GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "too small", NULL);
  before = pull_frames_before (h, 0, 2);
  push_frames (h, &info, 10, 1);
  wait_received (h, before + 1);
  pull_frame_checked (h, &info, 10);
  want = g_strdup_printf ("caps %s%sB10 ", before > 0 ? "B0 " : "",
      before > 1 ? "B1 " : "");
  fail_unless_equals_string (flow->str, want);
  g_free (want);
  clh_check_harness_teardown (h, bus);
  g_string_free (flow, TRUE);
}
GST_END_TEST;

/* A caps change pushes the frames of the old caps first, counted in the
 * old format, then lets the new caps through. */
GST_START_TEST (test_in_flight_caps_change)
{
  GString *flow = g_string_new (NULL);
  GstHarness *h = harness_in_flight ("GRAY8", 64, 48, 4, flow);
  GstVideoInfo gray, rgba;
  GstBuffer *out;
  GstHistogramMeta *meta;
  guint i;

  gst_video_info_set_format (&gray, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  gst_video_info_set_format (&rgba, GST_VIDEO_FORMAT_RGBA, 33, 17);
  g_object_set (h->element, "mode", GST_HISTOGRAM_MODE_CHANNELS, NULL);
  push_frames (h, &gray, 0, 2);

  set_caps (h, "RGBA", 33, 17);
  fail_unless_equals_string (flow->str, "caps B0 B1 caps ");
  for (i = 0; i < 2; i++) {
    out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "GRAY8 frame %u is not out", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 30);
    assert_meta_equals_reference (&gray, out, "channels", 256, 0, -1,
        "GRAY8 before the caps change");
    meta = gst_buffer_get_histogram_meta (out);
    fail_unless_equals_int (meta->region.width, 64);
    fail_unless_equals_int (meta->info.n_channels, 1);
    gst_buffer_unref (out);
  }

  fail_unless_equals_int (gst_harness_push (h, frame_new (&rgba,
              CLH_TEST_RANDOM, 2, 0)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "RGBA frame is not out");
  assert_meta_equals_reference (&rgba, out, "channels", 256, 0, -1,
      "RGBA after the caps change");
  fail_unless_equals_int (gst_buffer_get_histogram_meta (out)->info.n_channels,
      4);
  gst_buffer_unref (out);
  fail_unless_equals_string (flow->str, "caps B0 B1 caps B2 eos ");
  gst_harness_teardown (h);
  g_string_free (flow, TRUE);
}
GST_END_TEST;

/* Holds the buffers reaching the harness's sink pad until released, as a
 * sink that blocks (prerolling, or a full queue) holds the thread pushing
 * them. */
typedef struct {
  GMutex lock;
  GCond cond;
  gboolean released;
  guint n_held;
} DownstreamGate;

static GstPadProbeReturn
gate_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  DownstreamGate *gate = user_data;

  g_mutex_lock (&gate->lock);
  gate->n_held++;
  g_cond_broadcast (&gate->cond);
  while (!gate->released)
    g_cond_wait (&gate->cond, &gate->lock);
  g_mutex_unlock (&gate->lock);
  return GST_PAD_PROBE_OK;
}

static void
gate_release (DownstreamGate *gate)
{
  g_mutex_lock (&gate->lock);
  gate->released = TRUE;
  g_cond_broadcast (&gate->cond);
  g_mutex_unlock (&gate->lock);
}

/* Pushes frame @seed from a thread of its own, as upstream's streaming
 * thread would, and returns what the push returned. */
typedef struct {
  GstHarness *h;
  const GstVideoInfo *info;
  guint seed;
  gint returned;
} LatePush;

static gpointer
late_push (gpointer data)
{
  LatePush *push = data;
  const GstFlowReturn ret = gst_harness_push (push->h,
      frame_new (push->info, CLH_TEST_RANDOM, push->seed, 0));

  g_atomic_int_set (&push->returned, 1);
  return GINT_TO_POINTER (ret);
}

/* While downstream holds the first frame (the element's output thread
 * blocked in its push, the frame counted), the streaming thread still
 * takes frames up to the frames in flight without waiting, and the next
 * one waits for room; a flush then wakes it with FLUSHING, drops the
 * frames held and the element streams on. */
GST_START_TEST (test_in_flight_output_blocked)
{
  GString *flow = g_string_new (NULL);
  GstHarness *h = harness_in_flight ("GRAY8", 64, 48, 4, flow);
  DownstreamGate gate = { 0 };
  LatePush push = { h, NULL, 4, 0 };
  GstVideoInfo info;
  GstSegment segment;
  GThread *thread;
  gulong probe;
  guint i;

  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  push.info = &info;
  probe = gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      gate_buffer, &gate, NULL);

  /* Frame 0 is held downstream; 1 to 3 go in without waiting. */
  push_frames (h, &info, 0, 4);
  g_mutex_lock (&gate.lock);
  while (gate.n_held == 0)
    g_cond_wait (&gate.cond, &gate.lock);
  g_mutex_unlock (&gate.lock);
  /* The fourth after it fills the frames in flight: its push waits for
   * room. */
  thread = g_thread_new ("late-push", late_push, &push);
  g_usleep (200 * 1000);
  fail_if (g_atomic_int_get (&push.returned), "a push did not wait for "
      "room with 4 frames in flight");

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless_equals_int (GPOINTER_TO_INT (g_thread_join (thread)),
      GST_FLOW_FLUSHING);
  /* Downstream lets go once flushing, as a sink does. */
  gate_release (&gate);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_pad_remove_probe (h->sinkpad, probe);

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  push_frames (h, &info, 10, 2);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  /* Frame 0 was in the push already; 1 to 4 were dropped unpushed. */
  fail_unless_equals_string (flow->str, "caps B0 B10 B11 eos ");
  pull_frame_checked (h, &info, 0);
  for (i = 10; i < 12; i++)
    pull_frame_checked (h, &info, i);
  gst_harness_teardown (h);
  g_mutex_clear (&gate.lock);
  g_cond_clear (&gate.cond);
  g_string_free (flow, TRUE);
}
GST_END_TEST;

static GstBusSyncReply
count_histogram_message (GstBus *bus, GstMessage *message, gpointer data)
{
  if (gst_message_has_name (message, "histogram"))
    g_atomic_int_inc ((gint *) data);
  return GST_BUS_PASS;
}

static GstPadProbeReturn
note_messages_at_eos (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  gint *counts = data;

  if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS)
    g_atomic_int_set (&counts[1], g_atomic_int_get (&counts[0]));
  return GST_PAD_PROBE_OK;
}

/* Every frame's message is on the bus before the EOS that follows the
 * frame leaves the element, though the frames were pushed and their
 * messages posted from the element's output thread. */
GST_START_TEST (test_in_flight_messages_before_eos)
{
  GString *flow = g_string_new (NULL);
  GstHarness *h = harness_in_flight ("GRAY8", 64, 48, 4, flow);
  GstBus *bus = clh_check_harness_bus (h->element);
  gint counts[2] = { 0, -1 };
  GstVideoInfo info;

  gst_bus_set_sync_handler (bus, count_histogram_message, &counts[0], NULL);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
      note_messages_at_eos, counts, NULL);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  push_frames (h, &info, 0, 7);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (g_atomic_int_get (&counts[1]), 7);
  fail_unless_equals_string (flow->str,
      "caps B0 B1 B2 B3 B4 B5 B6 eos ");
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  clh_check_harness_teardown (h, bus);
  g_string_free (flow, TRUE);
}
GST_END_TEST;

static GstClockTime
query_min_latency (GstHarness *h)
{
  GstQuery *query = gst_query_new_latency ();
  GstClockTime min, max;
  gboolean live;

  fail_unless (gst_pad_peer_query (h->sinkpad, query));
  gst_query_parse_latency (query, &live, &min, &max);
  fail_unless (!GST_CLOCK_TIME_IS_VALID (max) || max >= min);
  gst_query_unref (query);
  return min;
}

/* Frames leave as soon as they are counted, so frames in flight add no
 * frames of latency, whatever their number. A change while playing
 * applies from the next frame, after the pending ones. */
GST_START_TEST (test_in_flight_latency_and_changes)
{
  GString *flow = g_string_new (NULL);
  GstHarness *h = harness_in_flight ("GRAY8", 64, 48, 4, flow);
  GstVideoInfo info;
  guint i;

  gst_harness_set_upstream_latency (h, 10 * GST_MSECOND);
  fail_unless_equals_uint64 (query_min_latency (h), 10 * GST_MSECOND);
  g_object_set (h->element, "max-frames-in-flight", 1, NULL);
  fail_unless_equals_uint64 (query_min_latency (h), 10 * GST_MSECOND);
  g_object_set (h->element, "max-frames-in-flight", 0, NULL);
  fail_unless_equals_uint64 (query_min_latency (h), 10 * GST_MSECOND);
  gst_harness_set_live (h, TRUE);
  fail_unless_equals_uint64 (query_min_latency (h), 10 * GST_MSECOND);

  /* 4 in flight, 2 pushed and maybe still pending; down to 1: the next
   * frame pushes all three, and every later one goes at once. */
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  g_object_set (h->element, "max-frames-in-flight", 4, NULL);
  push_frames (h, &info, 0, 2);
  fail_unless (gst_harness_buffers_received (h) <= 2);
  g_object_set (h->element, "max-frames-in-flight", 1, NULL);
  push_frames (h, &info, 2, 1);
  fail_unless_equals_int (gst_harness_buffers_received (h), 3);
  push_frames (h, &info, 3, 1);
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  for (i = 0; i < 4; i++)
    pull_frame_checked (h, &info, i);
  gst_harness_teardown (h);
  g_string_free (flow, TRUE);
}
GST_END_TEST;

static GstPadProbeReturn
check_meta (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  GstVideoInfo vinfo;

  gst_video_info_set_format (&vinfo, GST_VIDEO_FORMAT_I420, 97, 61);
  assert_meta_equals_reference (&vinfo, GST_PAD_PROBE_INFO_BUFFER (info),
      "channels", 256, 0, -1, "videotestsrc frame");
  g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

/* Frames in flight on a real non-live pipeline (automatic count): every
 * frame comes out, in order, each with its own meta. */
GST_START_TEST (test_in_flight_pipeline)
{
  GstElement *pipeline = pipeline_new ("videotestsrc num-buffers=20 "
      "pattern=ball ! video/x-raw,format=I420,width=97,height=61 ! "
      "clhistogram mode=channels ! fakesink name=sink signal-handoffs=true");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  GString *flow = g_string_new (NULL);
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstMessage *msg;
  GString *want = g_string_new (NULL);
  gint checked = 0;
  guint i;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, record_flow, flow, NULL);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_meta, &checked,
      NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (30),
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  for (i = 0; i < 20; i++)
    g_string_append_printf (want, "B%u ", i);
  fail_unless_equals_string (flow->str, want->str);
  fail_unless_equals_int (g_atomic_int_get (&checked), 20);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_string_free (want, TRUE);
  g_string_free (flow, TRUE);
  gst_object_unref (pad);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}
GST_END_TEST;

static Suite *
clhistogram_suite (void)
{
  Suite *s = suite_create ("clhistogram");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_matrix, 0, G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_all_formats, 0,
      g_strv_length ((gchar **) clh_reference_formats ()));
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_message_fields);
  tcase_add_test (tc, test_one_message_per_frame);
  tcase_add_test (tc, test_meta_copy);
  tcase_add_test (tc, test_meta_regions);
  tcase_add_test (tc, test_meta_info_region_statistics);
  tcase_add_test (tc, test_meta_dropped_by_pixel_transforms);
  tcase_add_test (tc, test_attach_meta_false);
  tcase_add_test (tc, test_post_messages_false);
  tcase_add_test (tc, test_device_name);
  tcase_add_test (tc, test_error_device_not_found);
  tcase_add_test (tc, test_error_truncated_buffer);
  tcase_add_test (tc, test_unsupported_caps);
  tcase_add_test (tc, test_unsupported_combinations);
  tcase_add_test (tc, test_unsupported_change_while_playing);
  tcase_add_test (tc, test_unsupported_error_posted_once);
  tcase_add_test (tc, test_default_bins);
  tcase_add_test (tc, test_ranges_and_message_fields);
  tcase_add_test (tc, test_colour_modes);
  tcase_add_test (tc, test_plane_across_memories);
  tcase_add_test (tc, test_unaligned_16bit);
  tcase_add_test (tc, test_context_shared);
  tcase_add_test (tc, test_context_readable);
  tcase_add_test (tc, test_outside_warned_once);
  tcase_add_test (tc, test_two_devices);
  tcase_add_test (tc, test_auto_spreads);
  tcase_add_test (tc, test_pool_path);
  tcase_add_test (tc, test_host_memory);
  tcase_add_test (tc, test_in_flight_eos);
  tcase_add_test (tc, test_in_flight_flush);
  tcase_add_test (tc, test_in_flight_error);
  tcase_add_test (tc, test_in_flight_caps_change);
  tcase_add_test (tc, test_in_flight_output_blocked);
  tcase_add_test (tc, test_in_flight_messages_before_eos);
  tcase_add_test (tc, test_in_flight_latency_and_changes);
  tcase_add_test (tc, test_in_flight_pipeline);
  return s;
}

CLH_CHECK_MAIN (clhistogram);
