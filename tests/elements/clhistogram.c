/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The clhistogram element, through GstHarness: every format x mode x bins x
 * size x content bit-exact against the golden reference, padded strides,
 * messages, meta, properties and the errors a user can cause. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-check-util.h"

#include "clh-reference.h"
#include "clh-reference-layout.h"
#include "clh-test-util.h"

static const gchar *const formats[] = {
  "GRAY8", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR",
};
static const guint bins_list[] = { 1, 7, 16, 64, 112, 256 };
static const guint sizes[][2] = {
  {1, 1}, {3, 5}, {600, 480}, {601, 479}, {1920, 1080},
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

/* A frame with @content in its image and CLH_TEST_PADDING elsewhere; with
 * @extra_stride > 0 the rows are that much longer than the caps' default,
 * start 16 bytes in, and a GstVideoMeta says so. */
static GstBuffer *
frame_new (const GstVideoInfo *info, ClhTestContent content, guint seed,
    gint extra_stride)
{
  const gsize row_bytes = (gsize) GST_VIDEO_INFO_WIDTH (info)
      * GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  gsize offset = 0, stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  gsize size = GST_VIDEO_INFO_SIZE (info);
  GstBuffer *buffer;
  GstMapInfo map;

  if (extra_stride > 0) {
    offset = 16;
    stride += extra_stride;
    size = offset + stride * GST_VIDEO_INFO_HEIGHT (info) + 7;
  }
  buffer = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  clh_test_fill (map.data, size, offset, stride, row_bytes,
      GST_VIDEO_INFO_HEIGHT (info), content, seed);
  gst_buffer_unmap (buffer, &map);

  if (extra_stride > 0) {
    gsize offsets[GST_VIDEO_MAX_PLANES] = { offset };
    gint strides[GST_VIDEO_MAX_PLANES] = { (gint) stride };
    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), 1, offsets, strides);
  }
  GST_BUFFER_PTS (buffer) = seed * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

/* The reference histogram of @buffer's frame, from the hand-written
 * layout table rather than from anything the element derives. */
static guint32 *
reference_counts (const GstVideoInfo *info, GstBuffer *buffer,
    gboolean luma, guint bins, guint *n_channels)
{
  ClhHistogramSpec spec;
  guint pixel_stride;
  GstVideoFrame frame;
  ClhImage image;
  guint32 *counts;

  fail_unless (clh_reference_layout (GST_VIDEO_INFO_NAME (info), luma, bins,
          &spec, &pixel_stride));
  fail_unless (gst_video_frame_map (&frame, info, buffer, GST_MAP_READ));
  image.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  image.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  image.width = GST_VIDEO_FRAME_WIDTH (&frame);
  image.height = GST_VIDEO_FRAME_HEIGHT (&frame);
  image.pixel_stride = pixel_stride;
  counts = g_new0 (guint32, spec.n_channels * bins);
  clh_reference_histogram (&image, &spec, counts);
  gst_video_frame_unmap (&frame);
  *n_channels = spec.n_channels;
  return counts;
}

static void
assert_meta_equals_reference (const GstVideoInfo *info, GstBuffer *out,
    gboolean luma, guint bins, const gchar *what)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (out);
  guint n_channels, c, b, n_bins;
  guint32 *want = reference_counts (info, out, luma, bins, &n_channels);

  fail_unless (meta != NULL, "%s: no meta", what);
  fail_unless_equals_int (meta->mode,
      luma ? GST_HISTOGRAM_MODE_LUMA : GST_HISTOGRAM_MODE_CHANNELS);
  fail_unless_equals_int (meta->n_channels, n_channels);
  fail_unless_equals_int (meta->n_bins, bins);
  fail_unless_equals_uint64 (meta->pixels,
      (guint64) GST_VIDEO_INFO_WIDTH (info) * GST_VIDEO_INFO_HEIGHT (info));
  for (c = 0; c < n_channels; c++) {
    const guint32 *got = gst_histogram_meta_get_counts (meta, c, &n_bins);
    fail_unless_equals_int (n_bins, bins);
    for (b = 0; b < bins; b++)
      fail_unless (got[b] == want[c * bins + b],
          "%s: channel %s bin %u is %u, the reference says %u", what,
          gst_histogram_meta_get_channel_name (meta, c), b, got[b],
          want[c * bins + b]);
  }
  g_free (want);
}

/* Every format x {luma, channels} x bins x size x content. */
GST_START_TEST (test_matrix)
{
  const gchar *format = formats[__i__];
  GstHarness *h = harness_new (format, 1, 1);
  guint s, m, b;
  ClhTestContent content;

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
              m ? "channels" : "luma", bins_list[b]);
          GstBuffer *out;

          g_object_set (h->element, "mode", m ? GST_HISTOGRAM_MODE_CHANNELS :
              GST_HISTOGRAM_MODE_LUMA, "bins", bins_list[b], NULL);
          out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
          assert_meta_equals_reference (&info, out, m == 0, bins_list[b],
              what);
          gst_buffer_unref (out);
          g_free (what);
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
      assert_meta_equals_reference (&info, out, FALSE, 256, what);
      gst_buffer_unref (out);
      g_free (what);
    }
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

static GstBus *
harness_bus (GstHarness *h)
{
  GstBus *bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);
  return bus;
}

static GstMessage *
pop_histogram_message (GstBus *bus)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    if (gst_message_has_name (msg, "histogram"))
      return msg;
    gst_message_unref (msg);
  }
  return NULL;
}

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
  GstBus *bus = harness_bus (h);
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

  msg = pop_histogram_message (bus);
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
  assert_meta_equals_reference (&info, out, FALSE, 7, "message test");
  gst_message_unref (msg);

  /* A frame without a timestamp reports none. */
  in = frame_new (&info, CLH_TEST_ZERO, 4, 0);
  GST_BUFFER_PTS (in) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (in) = GST_CLOCK_TIME_NONE;
  gst_buffer_unref (gst_harness_push_and_pull (h, in));
  msg = pop_histogram_message (bus);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless_equals_uint64 (field_u64 (s, "timestamp"), GST_CLOCK_TIME_NONE);
  fail_unless_equals_uint64 (field_u64 (s, "running-time"),
      GST_CLOCK_TIME_NONE);
  fail_unless_equals_uint64 (field_u64 (s, "duration"), GST_CLOCK_TIME_NONE);
  gst_message_unref (msg);

  gst_buffer_unref (out);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* One message per frame, in order. */
GST_START_TEST (test_one_message_per_frame)
{
  GstHarness *h = harness_new ("GRAY8", 32, 16);
  GstBus *bus = harness_bus (h);
  GstVideoInfo info;
  GstMessage *msg;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  for (i = 0; i < 5; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h,
            frame_new (&info, CLH_TEST_GRADIENT, i, 0)));
  for (i = 0; i < 5; i++) {
    msg = pop_histogram_message (bus);
    fail_unless (msg != NULL);
    fail_unless_equals_uint64 (field_u64 (gst_message_get_structure (msg),
            "timestamp"), i * GST_SECOND / 30);
    gst_message_unref (msg);
  }
  fail_unless (pop_histogram_message (bus) == NULL);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

/* The meta survives a copy of the buffer, is dropped from a part of it,
 * and its tags make transforms that change pixels drop it. */
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
  part = gst_buffer_copy_region (out, GST_BUFFER_COPY_ALL, 0, 100);
  b = gst_buffer_get_histogram_meta (copy);
  fail_unless (b != NULL && b != a);
  fail_unless_equals_int (b->n_channels, 4);
  fail_unless_equals_int (b->n_bins, 16);
  fail_unless_equals_uint64 (b->pixels, 64 * 48);
  fail_unless_equals_int (b->width, 64);
  fail_unless_equals_int (b->height, 48);
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
  GstBus *bus = harness_bus (h);
  GstVideoInfo info;
  GstBuffer *out;
  GstMessage *msg;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  g_object_set (h->element, "attach-meta", FALSE, NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_MAX, 1, 0));
  fail_unless (gst_buffer_get_histogram_meta (out) == NULL);
  msg = pop_histogram_message (bus);
  fail_unless (msg != NULL, "a message is still posted");
  gst_message_unref (msg);
  gst_buffer_unref (out);

  /* and back on */
  g_object_set (h->element, "attach-meta", TRUE, NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_MAX, 2, 0));
  fail_unless (gst_buffer_get_histogram_meta (out) != NULL);
  gst_buffer_unref (out);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_post_messages_false)
{
  GstHarness *h = harness_new ("GRAY8", 16, 16);
  GstBus *bus = harness_bus (h);
  GstVideoInfo info;
  GstBuffer *out;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  g_object_set (h->element, "post-messages", FALSE, NULL);
  out = gst_harness_push_and_pull (h, frame_new (&info, CLH_TEST_ZERO, 1, 0));
  fail_unless (gst_buffer_get_histogram_meta (out) != NULL);
  fail_unless (pop_histogram_message (bus) == NULL);
  gst_buffer_unref (out);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
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
  GstBus *bus = harness_bus (h);
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
  assert_meta_equals_reference (&info, buffer, TRUE, 256, "after errors");
  gst_buffer_unref (buffer);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_unsupported_caps)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, 64 * 48 * 3 / 2, NULL);

  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=I420,width=64,height=48,framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h, buffer),
      GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
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
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_message_fields);
  tcase_add_test (tc, test_one_message_per_frame);
  tcase_add_test (tc, test_meta_copy);
  tcase_add_test (tc, test_meta_dropped_by_pixel_transforms);
  tcase_add_test (tc, test_attach_meta_false);
  tcase_add_test (tc, test_post_messages_false);
  tcase_add_test (tc, test_device_name);
  tcase_add_test (tc, test_error_device_not_found);
  tcase_add_test (tc, test_error_truncated_buffer);
  tcase_add_test (tc, test_unsupported_caps);
  return s;
}

GST_CHECK_MAIN (clhistogram);
