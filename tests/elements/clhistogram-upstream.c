/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What neighbour elements hand clhistogram: GstVideoCropMeta (counted in
 * place, equal to videocrop's copy), GstVideoMeta that disagrees with the
 * caps (a STREAM error, never a CRITICAL or a read past the buffer), a
 * source that waits for each frame before sending the next (no frame held
 * for frames that do not come) and frames larger than the device's largest
 * buffer (no pool proposed that cannot be allocated). */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-test-timeout.h"
#include "clh-check-util.h"

#include "clh-reference-frame.h"
#include "clh-test-util.h"

static void
set_caps (GstHarness *h, GstVideoFormat format, guint width, guint height)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,"
      "framerate=30/1", gst_video_format_to_string (format), width, height);

  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

/* A frame of random bytes in the caps' default layout, with a GstVideoMeta
 * saying so when @with_meta. */
static GstBuffer *
random_frame (const GstVideoInfo *info, guint seed, gboolean with_meta)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  clh_test_fill (map.data, map.size, 0, map.size, map.size, 1,
      CLH_TEST_RANDOM, seed);
  gst_buffer_unmap (buffer, &map);
  if (with_meta)
    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        (gsize *) info->offset, (gint *) info->stride);
  GST_BUFFER_PTS (buffer) = seed * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

/* Fails unless the meta on @out is the reference histogram of @frame, a
 * frame of @info. */
static void
assert_meta_is_reference_of (GstBuffer *out, const GstVideoInfo *info,
    GstBuffer *frame, const gchar *mode, const gchar *what)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint c, b, n_bins;

  fail_unless (meta != NULL, "%s: no meta", what);
  fail_unless (clh_reference_histogram_of_buffer (info, frame, mode, 16, 0,
          -1, &spec, &want), "%s: no reference", what);
  fail_unless_equals_int (meta->info.n_channels,
      clh_histogram_spec_n_channels (&spec));
  fail_unless_equals_uint64 (meta->pixels,
      (guint64) GST_VIDEO_INFO_WIDTH (info) * GST_VIDEO_INFO_HEIGHT (info));
  for (c = 0; c < meta->info.n_channels; c++) {
    const guint32 *got = gst_histogram_meta_get_counts (meta, c, &n_bins);

    for (b = 0; b < n_bins; b++)
      fail_unless (got[b] == want.counts[c * n_bins + b],
          "%s: channel %u bin %u is %u, the reference says %u", what, c, b,
          got[b], want.counts[c * n_bins + b]);
    fail_unless_equals_uint64 (gst_histogram_meta_get_statistics (meta,
            c)->samples, want.samples[c]);
  }
  g_free (want.counts);
}

/* @in cropped by videocrop into a frame of its own (the harness's sink
 * accepts no crop meta, so videocrop copies). */
static GstBuffer *
videocrop_copy (GstBuffer *in, GstVideoFormat format, guint width,
    guint height, const guint crop[4])
{
  gchar *launch = g_strdup_printf ("videocrop left=%u top=%u right=%u "
      "bottom=%u", crop[0], crop[1], crop[2], crop[3]);
  GstHarness *h = gst_harness_new_parse (launch);
  GstBuffer *out;

  set_caps (h, format, width, height);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != NULL);
  fail_if (gst_buffer_get_video_crop_meta (out), "videocrop did not copy");
  gst_harness_teardown (h);
  g_free (launch);
  return out;
}

static const GstVideoFormat crop_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGB,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_xBGR, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y41B, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21,
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_I420_10LE,
};

/* A buffer as videocrop hands it to a crop-meta-aware peer: the caps at
 * the cropped size, a GstVideoMeta of the whole frame, the crop meta; its
 * histogram in place equals that of videocrop's copy, in every channel. */
GST_START_TEST (test_crop_meta_equals_videocrop)
{
  const GstVideoFormat format = crop_formats[__i__];
  const guint width = 64, height = 40, crop[4] = { 4, 2, 8, 6 };
  const guint cw = width - crop[0] - crop[2], ch = height - crop[1] - crop[3];
  const gchar *const modes[] = { "luma", "channels" };
  GstVideoInfo full, cropped;
  guint m;

  gst_video_info_set_format (&full, format, width, height);
  gst_video_info_set_format (&cropped, format, cw, ch);
  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    GstHarness *h = gst_harness_new ("clhistogram");
    GstBuffer *in = random_frame (&full, m + 1, TRUE), *copy, *out;
    GstVideoCropMeta *cmeta;
    gchar *what = g_strdup_printf ("%s %s", gst_video_format_to_string
        (format), modes[m]);

    gst_util_set_object_arg (G_OBJECT (h->element), "mode", modes[m]);
    g_object_set (h->element, "bins", 16, NULL);
    copy = videocrop_copy (in, format, width, height, crop);
    set_caps (h, format, cw, ch);
    cmeta = gst_buffer_add_video_crop_meta (in);
    cmeta->x = crop[0];
    cmeta->y = crop[1];
    cmeta->width = cw;
    cmeta->height = ch;
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s: nothing out", what);
    assert_meta_is_reference_of (out, &cropped, copy, modes[m], what);
    gst_buffer_unref (out);
    gst_buffer_unref (copy);
    gst_harness_teardown (h);
    g_free (what);
  }
}
GST_END_TEST;

static GstPadProbeReturn
record_counts (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (buffer);
  GString *record = user_data;
  guint c, b, n_bins;

  fail_unless (meta != NULL);
  g_string_append_printf (record, "%s%" G_GUINT64_FORMAT ":",
      gst_buffer_get_video_crop_meta (buffer) ? "crop " : "", meta->pixels);
  for (c = 0; c < meta->info.n_channels; c++) {
    const guint32 *counts = gst_histogram_meta_get_counts (meta, c, &n_bins);
    for (b = 0; b < n_bins; b++)
      g_string_append_printf (record, " %u", counts[b]);
  }
  g_string_append_c (record, '\n');
  return GST_PAD_PROBE_OK;
}

/* Answers allocation queries as a sink that takes crop metas does
 * (kmssink, fakevideosink), so that videocrop attaches one instead of
 * copying. */
static GstPadProbeReturn
accept_crop_meta (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);

  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION) {
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    gst_query_add_allocation_meta (query, GST_VIDEO_CROP_META_API_TYPE,
        NULL);
  }
  return GST_PAD_PROBE_OK;
}

/* Runs @launch (its sink named "sink") to EOS and returns what
 * record_counts() saw at the sink. */
static gchar *
run_and_record (const gchar *launch, gboolean sink_takes_crop_meta)
{
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  GString *record = g_string_new (NULL);
  GstMessage *msg;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, record_counts, record,
      NULL);
  if (sink_takes_crop_meta)
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
        accept_crop_meta, NULL, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (60),
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s",
      launch);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return g_string_free (record, FALSE);
}

/* videocrop ! clhistogram ! a sink that takes crop metas: videocrop
 * attaches a crop meta instead of cropping, and the histograms are those
 * of the frames it crops for a sink that does not. */
GST_START_TEST (test_videocrop_pipeline)
{
  const gchar *head = "videotestsrc num-buffers=4 pattern=colors ! "
      "video/x-raw,format=I420,width=160,height=120 ! "
      "videocrop left=8 right=12 top=6 bottom=4 ! "
      "clhistogram mode=channels bins=32 ! ";
  gchar *launch = g_strconcat (head, "fakesink name=sink", NULL);
  gchar *with_meta = run_and_record (launch, TRUE), *copied, **lines;
  guint i;

  copied = run_and_record (launch, FALSE);
  lines = g_strsplit (with_meta, "\n", -1);
  fail_unless_equals_int (g_strv_length (lines), 5);
  for (i = 0; i < 4; i++)
    fail_unless (g_str_has_prefix (lines[i], "crop 15400:"),
        "frame %u did not come with a 140x110 crop meta: %s", i, lines[i]);
  g_strfreev (lines);
  {
    /* Strip the crop markers: the counts must be identical. */
    GString *plain = g_string_new (with_meta);

    g_string_replace (plain, "crop ", "", 0);
    fail_unless_equals_string (plain->str, copied);
    g_string_free (plain, TRUE);
  }
  g_free (launch);
  g_free (with_meta);
  g_free (copied);
}
GST_END_TEST;

static void
push_expect_stream_error (GstHarness *h, GstBus *bus, GstBuffer *buffer,
    const gchar *in_message)
{
  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      in_message, NULL);
  fail_unless (gst_harness_try_pull (h) == NULL);
}

static GstBuffer *
with_crop (GstBuffer *buffer, guint x, guint y, guint width, guint height)
{
  GstVideoCropMeta *cmeta = gst_buffer_add_video_crop_meta (buffer);

  cmeta->x = x;
  cmeta->y = y;
  cmeta->width = width;
  cmeta->height = height;
  return buffer;
}

/* Fails unless the histogram of @region on @out is the reference's for
 * @rect of @in, a frame of @full (uncropped coordinates). */
static void
assert_region_is_reference (GstBuffer *out, const gchar *type, gint id,
    const GstVideoInfo *full, GstBuffer *in, const gchar *mode, guint bins,
    const ClhRect *rect, const gchar *what)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta_for_region (out,
      type, id);
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint c, b, n_bins;

  fail_unless (meta != NULL, "%s: no %s %d", what, type, id);
  fail_unless (clh_reference_histogram_of_buffer_region (full, in, mode,
          bins, 0, -1, rect, &spec, &want), "%s: no reference", what);
  fail_unless_equals_int (meta->info.n_channels,
      clh_histogram_spec_n_channels (&spec));
  fail_unless_equals_uint64 (meta->pixels,
      (guint64) rect->width * rect->height);
  for (c = 0; c < meta->info.n_channels; c++) {
    const guint32 *got = gst_histogram_meta_get_counts (meta, c, &n_bins);

    for (b = 0; b < n_bins; b++)
      fail_unless (got[b] == want.counts[c * n_bins + b],
          "%s: %s %d channel %u bin %u is %u, the reference says %u", what,
          type, id, c, b, got[b], want.counts[c * n_bins + b]);
    fail_unless (gst_histogram_meta_get_statistics (meta, c)->samples
        == want.samples[c], "%s: %s %d channel %u has %" G_GUINT64_FORMAT
        " samples, the reference %" G_GUINT64_FORMAT, what, type, id, c,
        gst_histogram_meta_get_statistics (meta, c)->samples,
        want.samples[c]);
  }
  g_free (want.counts);
}

static const GstVideoFormat subsampled_formats[] = {
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_YUY2,
  GST_VIDEO_FORMAT_Y41B, GST_VIDEO_FORMAT_YUV9,
};

/* Crops whose corner is off the chroma grid (odd, or not a multiple of 4)
 * on subsampled formats, in luma, channels and hue modes: the full-frame
 * histogram and a fixed region (given in the crop's pixels) are the
 * reference's for the same rectangles of the uncropped frame, a chroma
 * sample counted iff its co-sited luma pixel is inside. Before, channels
 * and hue failed with "not on component 1's 2x2 subsampling grid". */
GST_START_TEST (test_crop_off_chroma_grid)
{
  const GstVideoFormat format = subsampled_formats[__i__];
  const guint width = 160, height = 120;
  const guint crops[][4] = { {61, 37, 77, 53}, {1, 3, 26, 19},
  {5, 2, 150, 117}, {3, 1, 1, 1}
  };
  const struct {
    const gchar *mode;
    guint bins;
  } modes[] = { {"luma", 16}, {"channels", 16}, {"hue", 180} };
  GstVideoInfo full;
  guint m, k;

  gst_video_info_set_format (&full, format, width, height);
  for (m = 0; m < G_N_ELEMENTS (modes); m++)
    for (k = 0; k < G_N_ELEMENTS (crops); k++) {
      GstHarness *h = gst_harness_new ("clhistogram");
      GstBus *bus = clh_check_harness_bus (h->element);
      const guint *c = crops[k];
      const ClhRect crop = { c[0], c[1], c[2], c[3] };
      /* A region in the crop's pixels, and where it is in the frame's. */
      const ClhRect inner = { 3, 5, 11, 7 };
      ClhRect shifted = { c[0] + 3, c[1] + 5, 11, 7 };
      GstBuffer *in = random_frame (&full, 10 * m + k + 1, TRUE), *out;
      gchar *what = g_strdup_printf ("%s %s crop %ux%u at (%u, %u)",
          gst_video_format_to_string (format), modes[m].mode, c[2], c[3],
          c[0], c[1]);

      gst_util_set_object_arg (G_OBJECT (h->element), "mode", modes[m].mode);
      gst_util_set_object_arg (G_OBJECT (h->element), "regions",
          "<<3, 5, 11, 7>>");
      g_object_set (h->element, "bins", modes[m].bins, NULL);
      set_caps (h, format, c[2], c[3]);
      out = gst_harness_push_and_pull (h, with_crop (gst_buffer_copy (in),
              c[0], c[1], c[2], c[3]));
      fail_unless (out != NULL, "%s: nothing out", what);
      assert_region_is_reference (out, GST_HISTOGRAM_REGION_FRAME, 0, &full,
          in, modes[m].mode, modes[m].bins, &crop, what);
      /* The region, clipped to the crop, in the frame's pixels. */
      clh_rect_clip (&shifted, c[0] + c[2], c[1] + c[3]);
      if (inner.x < (gint) c[2] && inner.y < (gint) c[3])
        assert_region_is_reference (out, "region", 0, &full, in,
            modes[m].mode, modes[m].bins, &shifted, what);
      fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL,
          "%s: an error", what);
      gst_buffer_unref (out);
      gst_buffer_unref (in);
      clh_check_harness_teardown (h, bus);
      g_free (what);
    }
}
GST_END_TEST;

/* `videocrop left=61 top=37 ! clhistogram mode=channels ! <a sink that
 * takes crop metas>` counts every frame with its crop meta, no error.
 * Before, the stream failed with "not on component 1's 2x2 subsampling
 * grid" while into a sink that takes none (videocrop copies) it counted. */
GST_START_TEST (test_videocrop_pipeline_odd)
{
  gchar *with_meta = run_and_record ("videotestsrc num-buffers=4 "
      "pattern=colors ! video/x-raw,format=I420,width=160,height=120 ! "
      "videocrop left=61 top=37 ! clhistogram mode=channels bins=32 ! "
      "fakesink name=sink", TRUE);
  gchar **lines = g_strsplit (with_meta, "\n", -1);
  guint i;

  fail_unless_equals_int (g_strv_length (lines), 5);
  for (i = 0; i < 4; i++)
    fail_unless (g_str_has_prefix (lines[i], "crop 8217:"),
        "frame %u did not come with a 99x83 crop meta: %s", i, lines[i]);
  g_strfreev (lines);
  g_free (with_meta);
}
GST_END_TEST;

/* A crop outside the frame is a STREAM error naming the crop; a crop off
 * the chroma grid is counted, in luma at any pixel too. */
GST_START_TEST (test_crop_meta_refused)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  GstBus *bus = clh_check_harness_bus (h->element);
  const guint crop[4] = { 1, 3, 5, 2 };
  const ClhRect odd = { 1, 3, 26, 19 };
  GstVideoInfo full, cropped;
  GstBuffer *in, *copy, *out;

  gst_video_info_set_format (&full, GST_VIDEO_FORMAT_I420, 32, 24);
  gst_video_info_set_format (&cropped, GST_VIDEO_FORMAT_I420, 26, 19);
  g_object_set (h->element, "bins", 16, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "channels");
  set_caps (h, GST_VIDEO_FORMAT_I420, 26, 19);
  /* Off the 4:2:0 chroma grid: counted by the spec's rule. */
  in = random_frame (&full, 1, TRUE);
  out = gst_harness_push_and_pull (h, with_crop (gst_buffer_copy (in), 1, 3,
          26, 19));
  assert_region_is_reference (out, GST_HISTOGRAM_REGION_FRAME, 0, &full, in,
      "channels", 16, &odd, "channels at (1, 3)");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  push_expect_stream_error (h, bus, with_crop (random_frame (&full, 1, TRUE),
          8, 6, 26, 19), "GstVideoCropMeta");
  push_expect_stream_error (h, bus, with_crop (random_frame (&full, 1, TRUE),
          G_MAXUINT - 3, 0, 26, 19), "GstVideoCropMeta");

  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "luma");
  in = random_frame (&full, 2, TRUE);
  copy = videocrop_copy (in, GST_VIDEO_FORMAT_I420, 32, 24, crop);
  gst_buffer_unref (in);
  out = gst_harness_push_and_pull (h, with_crop (random_frame (&full, 2, TRUE),
          1, 3, 26, 19));
  assert_meta_is_reference_of (out, &cropped, copy, "luma", "luma at (1, 3)");
  gst_buffer_unref (out);
  gst_buffer_unref (copy);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* GstVideoMetas on a buffer of a 32x16 RGBA frame's size that cannot
 * describe the caps' frame, or whose offset or stride does not fit the
 * buffer (some would wrap a size check), and what the error says. */
static const struct {
  GstVideoFormat format;
  guint width, height, n_planes;
  gsize offset;
  gint stride;
  const gchar *says;
} hostile_cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 32, 16, 1, 0, 128, "GstVideoMeta"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 3, 0, 128, "GstVideoMeta"},
    {GST_VIDEO_FORMAT_RGBA, 31, 16, 1, 0, 128, "GstVideoMeta"},
    {GST_VIDEO_FORMAT_RGBA, 32, 15, 1, 0, 128, "GstVideoMeta"},
    {GST_VIDEO_FORMAT_RGBA, 20000, 16, 1, 0, 128, "GstVideoMeta"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, G_MAXSIZE - 100, 128, "too small"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, G_MAXSIZE / 2, 128, "too small"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 0, -128, "stride"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 0, 0, "stride"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 0, 127, "stride"},
    {GST_VIDEO_FORMAT_RGBA, 40, 16, 1, 0, 160, "too small"},
};

/* A buffer of @info's size with hostile_cases[@i]'s GstVideoMeta. */
static GstBuffer *
hostile_frame (const GstVideoInfo *info, guint i)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { hostile_cases[i].offset };
  gint strides[GST_VIDEO_MAX_PLANES] = { hostile_cases[i].stride };

  gst_buffer_memset (buffer, 0, 0x80, info->size);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      hostile_cases[i].format, hostile_cases[i].width,
      hostile_cases[i].height, hostile_cases[i].n_planes, offsets, strides);
  return buffer;
}

/* A GstVideoMeta that cannot describe the caps' frame, and offsets that
 * would wrap a size check, are STREAM errors (gst-check fails the test on
 * any CRITICAL); a good frame still goes through afterwards. */
GST_START_TEST (test_video_meta_hostile)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info, i420;
  GstBuffer *buffer;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 32 * 4 };
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 32, 16);
  set_caps (h, GST_VIDEO_FORMAT_RGBA, 32, 16);
  for (i = 0; i < G_N_ELEMENTS (hostile_cases); i++) {
    GST_INFO ("case %u", i);
    push_expect_stream_error (h, bus, hostile_frame (&info, i),
        hostile_cases[i].says);
  }

  /* A bigger meta frame than the caps' is read at the caps' size. */
  buffer = gst_buffer_new_allocate (NULL, 40 * 4 * 20, NULL);
  strides[0] = 40 * 4;
  offsets[0] = 0;
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_RGBA, 40, 20, 1, offsets, strides);
  buffer = gst_harness_push_and_pull (h, buffer);
  fail_unless_equals_uint64 (gst_buffer_get_histogram_meta (buffer)->pixels,
      32 * 16);
  gst_buffer_unref (buffer);

  buffer = gst_harness_push_and_pull (h, random_frame (&info, 3, FALSE));
  g_object_set (h->element, "bins", 16, NULL);
  gst_buffer_unref (buffer);
  buffer = random_frame (&info, 4, FALSE);
  {
    GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (buffer));
    assert_meta_is_reference_of (out, &info, buffer, "luma", "after errors");
    gst_buffer_unref (out);
  }
  gst_buffer_unref (buffer);

  /* Planes of a 3-plane format whose meta has one. */
  gst_video_info_set_format (&i420, GST_VIDEO_FORMAT_I420, 32, 16);
  set_caps (h, GST_VIDEO_FORMAT_I420, 32, 16);
  buffer = gst_buffer_new_allocate (NULL, i420.size, NULL);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 32, 16, 1, i420.offset, i420.stride);
  push_expect_stream_error (h, bus, buffer, "GstVideoMeta");
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* The other elements of the plugin, each set up to read (or draw on)
 * every frame. */
static const gchar *const other_elements[] = {
  "histogramoverlay", "clbackproject", "clcamshift",
};

/* A @factory element reading every frame: a model for clbackproject, a
 * window for clcamshift, a graph over the whole frame for
 * histogramoverlay (which also needs a histogram on the buffer). */
static GstHarness *
reading_harness (const gchar *factory)
{
  GstHarness *h = gst_harness_new (factory);

  if (g_str_equal (factory, "clbackproject"))
    gst_util_set_object_arg (G_OBJECT (h->element), "model", "<1.0, 2.0, "
        "3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, "
        "15.0, 16.0>");
  else if (g_str_equal (factory, "clcamshift"))
    gst_util_set_object_arg (G_OBJECT (h->element), "window",
        "<2, 2, 12, 10>");
  else
    g_object_set (h->element, "x", 0, "y", 0, "width", 32, "height", 16,
        "alpha", 1.0, NULL);
  return h;
}

/* A histogram for histogramoverlay to draw on @buffer. */
static GstBuffer *
with_histogram (GstBuffer *buffer)
{
  const gchar *const names[] = { "Y" };
  const guint32 counts[4] = { 1, 5, 2, 8 };
  const GstHistogramRegion frame = { GST_HISTOGRAM_REGION_FRAME, 0, 0, 0,
    32, 16
  };
  const guint shape[1] = { 4 };
  GstHistogramInfo info;

  gst_histogram_info_init (&info);
  fail_unless (gst_histogram_info_set_format (&info,
          GST_HISTOGRAM_MODE_LUMA, 1, names, 1, shape));
  fail_unless (gst_buffer_add_histogram_meta (buffer, &info, &frame, counts,
          4) != NULL);
  return buffer;
}

/* clhistogram's hostile GstVideoMetas on every other element: the same
 * STREAM errors, never a CRITICAL or an access past the buffer; a good
 * frame still goes through afterwards. Before the overlay mapped frames
 * through the plugin's checked path, it drew past the buffer. */
GST_START_TEST (test_video_meta_hostile_every_element)
{
  const gchar *factory = other_elements[__i__];
  GstHarness *h = reading_harness (factory);
  GstBus *bus = clh_check_harness_bus (h->element);
  const gboolean overlay = g_str_equal (factory, "histogramoverlay");
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 32, 16);
  set_caps (h, GST_VIDEO_FORMAT_RGBA, 32, 16);
  for (i = 0; i < G_N_ELEMENTS (hostile_cases); i++) {
    GstBuffer *buffer = hostile_frame (&info, i);

    GST_INFO ("%s: case %u", factory, i);
    push_expect_stream_error (h, bus, overlay ? with_histogram (buffer) :
        buffer, hostile_cases[i].says);
  }
  {
    GstBuffer *buffer = random_frame (&info, 5, FALSE);

    gst_buffer_unref (gst_harness_push_and_pull (h, overlay ?
            with_histogram (buffer) : buffer));
  }
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Whether the element waits on its clock (the harness's test clock). */
static gboolean
clock_waits (GstHarness *h)
{
  GstTestClock *clock = gst_harness_get_testclock (h);
  gboolean waits = gst_test_clock_peek_next_pending_id (clock, NULL);

  gst_object_unref (clock);
  return waits;
}

/* With frames in flight and a source that sends nothing more, each frame
 * goes on once counted: no later frame and no time on the element's clock
 * (the harness's test clock, which never moves here). */
GST_START_TEST (test_counted_frames_go_on_alone)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  GstVideoInfo info;
  GstBuffer *in[3], *out;
  guint i;

  g_object_set (h->element, "max-frames-in-flight", 4, "bins", 16, NULL);
  gst_harness_set_live (h, FALSE);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  for (i = 0; i < 3; i++)
    in[i] = random_frame (&info, i, FALSE);

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[0])),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "the frame counted was not pushed");
  fail_if (clock_waits (h));
  assert_meta_is_reference_of (out, &info, in[0], "luma", "frame 0");
  gst_buffer_unref (out);

  /* Two more, then nothing: both go, in order. */
  for (i = 1; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in[i])),
        GST_FLOW_OK);
  for (i = 1; i < 3; i++) {
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), GST_BUFFER_PTS (in[i]));
    assert_meta_is_reference_of (out, &info, in[i], "luma", "frame 1 or 2");
    gst_buffer_unref (out);
  }
  for (i = 0; i < 3; i++)
    gst_buffer_unref (in[i]);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* A non-live appsrc that pushes one frame and waits for it at an appsink,
 * frame after frame, with the default frames in flight. */
GST_START_TEST (test_request_response_appsrc)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src is-live=false "
      "format=time caps=video/x-raw,format=GRAY8,width=64,height=48,"
      "framerate=30/1 ! clhistogram bins=16 ! appsink name=sink sync=false",
      NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  for (i = 0; i < 3; i++) {
    GstBuffer *in = random_frame (&info, i, FALSE);
    GstFlowReturn flow = GST_FLOW_ERROR;
    GstSample *sample = NULL;

    g_signal_emit_by_name (src, "push-buffer", in, &flow);
    fail_unless_equals_int (flow, GST_FLOW_OK);
    g_signal_emit_by_name (sink, "try-pull-sample", clh_test_timeout_ns (20), &sample);
    fail_unless (sample != NULL, "frame %u never came out", i);
    assert_meta_is_reference_of (gst_sample_get_buffer (sample), &info, in,
        "luma", "request-response");
    gst_sample_unref (sample);
    gst_buffer_unref (in);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}
GST_END_TEST;

/* Whether clhistogram proposes a pool for @caps. */
static gboolean
proposes_pool (GstHarness *h, const gchar *caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  gboolean pool;

  fail_unless (gst_pad_peer_query (h->srcpad, query));
  pool = gst_query_get_n_allocation_pools (query) > 0;
  gst_query_unref (query);
  gst_caps_unref (caps);
  return pool;
}

/* A frame larger than the device's largest buffer (run with
 * POCL_MEMORY_LIMIT=1: 256 MiB) gets no pool that cannot be allocated: it
 * takes the copy path in bands and is counted. */
GST_START_TEST (test_frame_larger_than_device_buffer)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  GstElement *pipeline;
  GstElement *sink;
  GstBus *bus;
  GstMessage *msg;
  GstSample *sample = NULL;
  GstHistogramMeta *meta;
  guint n_bins;

  set_caps (h, GST_VIDEO_FORMAT_RGBA, 640, 480);
  fail_unless (proposes_pool (h, "video/x-raw,format=RGBA,width=640,"
          "height=480,framerate=30/1"));
  if (g_getenv ("POCL_MEMORY_LIMIT"))
    fail_if (proposes_pool (h, "video/x-raw,format=RGBA,width=9000,"
            "height=8000,framerate=30/1"), "a 288 MB pool proposed");
  gst_harness_teardown (h);

  pipeline = gst_parse_launch ("videotestsrc num-buffers=1 pattern=white ! "
      "video/x-raw,format=RGBA,width=9000,height=8000 ! clhistogram ! "
      "appsink name=sink", NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      != GST_STATE_CHANGE_FAILURE);
  g_signal_emit_by_name (sink, "try-pull-sample", clh_test_timeout_ns (120), &sample);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_if (msg != NULL, "error: %" GST_PTR_FORMAT, msg);
  fail_unless (sample != NULL, "no frame");
  meta = gst_buffer_get_histogram_meta (gst_sample_get_buffer (sample));
  fail_unless (meta != NULL);
  fail_unless_equals_int (gst_histogram_meta_get_counts (meta, 0,
          &n_bins)[255], 9000 * 8000);
  gst_sample_unref (sample);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}
GST_END_TEST;

static Suite *
clhistogram_upstream_suite (void)
{
  Suite *s = suite_create ("clhistogram-upstream");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_crop_meta_equals_videocrop, 0,
      G_N_ELEMENTS (crop_formats));
  tcase_add_test (tc, test_videocrop_pipeline);
  tcase_add_test (tc, test_crop_meta_refused);
  tcase_add_loop_test (tc, test_crop_off_chroma_grid, 0,
      G_N_ELEMENTS (subsampled_formats));
  tcase_add_test (tc, test_videocrop_pipeline_odd);
  tcase_add_test (tc, test_video_meta_hostile);
  tcase_add_loop_test (tc, test_video_meta_hostile_every_element, 0,
      G_N_ELEMENTS (other_elements));
  tcase_add_test (tc, test_counted_frames_go_on_alone);
  tcase_add_test (tc, test_request_response_appsrc);
  tcase_add_test (tc, test_frame_larger_than_device_buffer);
  return s;
}

CLH_CHECK_MAIN (clhistogram_upstream);
