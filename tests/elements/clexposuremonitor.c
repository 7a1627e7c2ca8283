/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clexposuremonitor as a user drives it: the layout of 640x480, 1280x720,
 * 1920x1080 and 3840x2160 frames (and odd and extreme ones) without
 * overlap; the picture it composes, byte for byte, against the elements it
 * is made of run alone on the same frames (the frame with its marks, zones
 * and panel at the top left, the scopes at their place under it); its
 * properties and its children's through the child proxy, also while
 * playing; the messages of its clhistogram on the bus; and a frame too
 * small for it. */
#include <gst/check/gstcheck.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <string.h>

#include "clh-check-util.h"
#include "gstclexposuremonitorlayout.h"

static const guint sizes[][2] = {
  {640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160},
};

static gboolean
rects_overlap (const GstClExposureMonitorRect *a,
    const GstClExposureMonitorRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width
      && a->y < b->y + b->height && b->y < a->y + a->height;
}

static gboolean
rect_inside (const GstClExposureMonitorRect *r, guint width, guint height)
{
  return r->x + r->width <= width && r->y + r->height <= height;
}

/* Every size and share: both parts inside the picture, apart, the frame
 * whole at the top left, the scopes as clscope takes them. */
GST_START_TEST (test_layout)
{
  static const guint extra[][2] = {
    {16, 1}, {37, 23}, {8192, 64}, {10000, 300}, {300, 10000}, {16384, 16384},
  };
  GstClExposureMonitorLayout l;
  guint i, shares;

  for (i = 0; i < G_N_ELEMENTS (sizes) + G_N_ELEMENTS (extra); i++) {
    const guint *s = i < G_N_ELEMENTS (sizes) ? sizes[i] :
        extra[i - G_N_ELEMENTS (sizes)];

    for (shares = 1; shares <= 8; shares++) {
      fail_unless (gst_cl_exposure_monitor_layout (s[0], s[1], shares, 0,
              &l), "%ux%u refused", s[0], s[1]);
      fail_if (rects_overlap (&l.frame, &l.scopes), "%ux%u: parts overlap",
          s[0], s[1]);
      fail_unless (rect_inside (&l.frame, l.width, l.height));
      fail_unless (rect_inside (&l.scopes, l.width, l.height));
      fail_unless (l.frame.x == 0 && l.frame.y == 0 && l.frame.width == s[0]
          && l.frame.height == s[1]);
      fail_unless (l.scopes.width >= 16 && l.scopes.width <= 8192);
      fail_unless (l.scopes.height >= 16 && l.scopes.height <= 4096);
      fail_unless (l.scopes.height % 2 == 0);
      fail_unless (l.width == s[0] && l.height == s[1] + l.scopes.height);
    }
  }
  /* The natural shape: waveform and vectorscope, 3 shares, at 1920. */
  fail_unless (gst_cl_exposure_monitor_layout (1920, 1080, 3, 0, &l));
  fail_unless_equals_int (l.scopes.height, 640);
  /* No higher than the frame; a height asked for. */
  fail_unless (gst_cl_exposure_monitor_layout (1920, 200, 3, 0, &l));
  fail_unless_equals_int (l.scopes.height, 200);
  fail_unless (gst_cl_exposure_monitor_layout (1920, 1080, 3, 301, &l));
  fail_unless_equals_int (l.scopes.height, 300);
  /* The check above fails on overlapping parts. */
  l.scopes.y -= 1;
  fail_unless (rects_overlap (&l.frame, &l.scopes));
  /* Too narrow for clscope's smallest picture. */
  fail_if (gst_cl_exposure_monitor_layout (15, 480, 3, 0, &l));
  fail_if (gst_cl_exposure_monitor_layout (640, 0, 3, 0, &l));
}

GST_END_TEST;

/* The first frame a pipeline ending in appsink "out" gives; the pipeline
 * runs to the end of its frames. */
static GstSample *
first_sample (const gchar *description)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GstElement *sink;
  GstSample *sample, *next;
  GstMessage *msg;
  GstBus *bus;

  fail_unless (pipeline != NULL, "%s: %s", description,
      err ? err->message : "?");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
  while ((next = gst_app_sink_pull_sample (GST_APP_SINK (sink))))
    gst_sample_unref (next);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s: %"
      GST_PTR_FORMAT, description, msg);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  fail_unless (sample != NULL, "%s: no frame", description);
  return sample;
}

/* Whether @rect of @big (RGBA) holds @small's pixels, row for row. */
static gboolean
region_equals (GstSample *big, const GstClExposureMonitorRect *rect,
    GstSample *small, guint *differing)
{
  GstVideoInfo bi, si;
  GstVideoFrame bf, sf;
  guint y;

  fail_unless (gst_video_info_from_caps (&bi, gst_sample_get_caps (big)));
  fail_unless (gst_video_info_from_caps (&si, gst_sample_get_caps (small)));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&si), rect->width);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&si), rect->height);
  fail_unless (gst_video_frame_map (&bf, &bi, gst_sample_get_buffer (big),
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&sf, &si, gst_sample_get_buffer (small),
          GST_MAP_READ));
  *differing = 0;
  for (y = 0; y < rect->height; y++) {
    const guint8 *b = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&bf, 0)
        + (gsize) (rect->y + y) * GST_VIDEO_FRAME_PLANE_STRIDE (&bf, 0)
        + (gsize) rect->x * 4;
    const guint8 *s = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&sf, 0)
        + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&sf, 0);

    *differing += memcmp (b, s, (gsize) rect->width * 4) != 0;
  }
  gst_video_frame_unmap (&sf);
  gst_video_frame_unmap (&bf);
  return *differing == 0;
}

#define SOURCE "videotestsrc num-buffers=2 pattern=smpte75 ! " \
  "video/x-raw,format=RGBA,width=%u,height=%u,framerate=30/1 ! "
#define FRAME_CHAIN "clhistogram zones=3x3 message-counts=false ! " \
  "clexposuremarks ! histogramoverlay zones=true ! appsink name=out sync=false"

/* The monitor's picture at each size: the parts where the layout puts
 * them, each the same bytes as its elements make alone. */
GST_START_TEST (test_picture_sizes)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    guint w = sizes[i][0], h = sizes[i][1], differing;
    GstClExposureMonitorLayout l;
    GstSample *monitor, *frame, *scopes;
    GstVideoInfo info;
    gchar *d;

    fail_unless (gst_cl_exposure_monitor_layout (w, h, 3, 0, &l));
    d = g_strdup_printf (SOURCE "clexposuremonitor ! video/x-raw,format=RGBA"
        " ! appsink name=out sync=false", w, h);
    monitor = first_sample (d);
    g_free (d);
    fail_unless (gst_video_info_from_caps (&info,
            gst_sample_get_caps (monitor)));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), l.width);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), l.height);

    d = g_strdup_printf (SOURCE FRAME_CHAIN, w, h);
    frame = first_sample (d);
    g_free (d);
    fail_unless (region_equals (monitor, &l.frame, frame, &differing),
        "%ux%u: %u rows of the frame differ", w, h, differing);

    d = g_strdup_printf (SOURCE "clscope ! video/x-raw,width=%u,height=%u ! "
        "appsink name=out sync=false", w, h, l.scopes.width, l.scopes.height);
    scopes = first_sample (d);
    g_free (d);
    fail_unless (region_equals (monitor, &l.scopes, scopes, &differing),
        "%ux%u: %u rows of the scopes differ", w, h, differing);
    gst_sample_unref (scopes);
    gst_sample_unref (frame);
    gst_sample_unref (monitor);
  }
}

GST_END_TEST;

GST_START_TEST (test_region_equals_fails)
{
  GstClExposureMonitorLayout l;
  GstSample *a, *b;
  guint differing;

  /* Two different patterns: the comparison the picture test relies on
   * finds every row different. */
  a = first_sample ("videotestsrc num-buffers=1 pattern=smpte75 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! appsink name=out");
  b = first_sample ("videotestsrc num-buffers=1 pattern=ball ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! appsink name=out");
  fail_unless (gst_cl_exposure_monitor_layout (64, 48, 3, 0, &l));
  fail_if (region_equals (a, &l.frame, b, &differing));
  fail_unless (differing > 0);
  fail_unless (region_equals (a, &l.frame, a, &differing));
  gst_sample_unref (a);
  gst_sample_unref (b);
}

GST_END_TEST;

/* Properties: the bin's own from a launch line, and its children's
 * through the child proxy, as a launch line's CHILD::PROPERTY reaches them
 * (gst_child_proxy_lookup()). Not from the launch line itself: GStreamer
 * 1.22's parser keeps a reference to each child it sets so (fixed in 1.24,
 * "parse/grammar: fix missing unref of looked up child"), which the leak
 * tracer reports. */
GST_START_TEST (test_properties)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "clexposuremonitor name=m zones=5x5 scopes=parade marks=zebra+brng "
      "scopes-height=100 ! fakesink", NULL);
  GstElement *m, *count, *scope, *overlay;
  gchar *zones = NULL;
  gdouble clipped = 0;
  guint kinds = 0, marks = 0, height = 0;
  gboolean zones_drawn = FALSE;

  fail_unless (pipeline != NULL);
  m = gst_bin_get_by_name (GST_BIN (pipeline), "m");
  count = gst_bin_get_by_name (GST_BIN (m), "count");
  scope = gst_bin_get_by_name (GST_BIN (m), "scope");
  overlay = gst_bin_get_by_name (GST_BIN (m), "overlay");
  gst_child_proxy_set (GST_CHILD_PROXY (m), "count::alert-clipped", 2.0,
      "marks::zebra-level", 90.0, NULL);
  /* The zones coloured at the alerts' thresholds; 0 (off) leaves them. */
  g_object_get (overlay, "zone-clipped", &clipped, NULL);
  fail_unless_equals_float (clipped, 2.0);
  gst_child_proxy_set (GST_CHILD_PROXY (m), "count::alert-crushed", 3.5,
      "count::alert-clipped", 0.0, NULL);
  g_object_get (overlay, "zone-crushed", &clipped, NULL);
  fail_unless_equals_float (clipped, 3.5);
  g_object_get (overlay, "zone-clipped", &clipped, NULL);
  fail_unless_equals_float (clipped, 2.0);
  gst_child_proxy_set (GST_CHILD_PROXY (m), "count::alert-clipped", 2.0,
      NULL);
  g_object_get (m, "zones", &zones, "scopes", &kinds, "marks", &marks,
      "scopes-height", &height, NULL);
  fail_unless_equals_string (zones, "5x5");
  fail_unless_equals_int (height, 100);
  g_free (zones);
  g_object_get (count, "zones", &zones, "alert-clipped", &clipped, NULL);
  fail_unless_equals_string (zones, "5x5");
  fail_unless_equals_float (clipped, 2.0);
  g_free (zones);
  fail_unless_equals_int (kinds, 2);    /* parade */
  fail_unless_equals_int (marks, 9);    /* zebra+brng */
  g_object_get (scope, "scopes", &kinds, NULL);
  fail_unless_equals_int (kinds, 2);
  g_object_get (overlay, "zones", &zones_drawn, NULL);
  fail_unless (zones_drawn);
  /* No zones: none counted, none drawn. */
  g_object_set (m, "zones", "", NULL);
  g_object_get (overlay, "zones", &zones_drawn, NULL);
  fail_if (zones_drawn);
  g_object_get (count, "zones", &zones, NULL);
  fail_unless_equals_string (zones, "");
  g_free (zones);
  gst_object_unref (overlay);
  gst_object_unref (scope);
  gst_object_unref (count);
  gst_object_unref (m);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* scopes-height and scopes changed while playing: the next frames come
 * in the new layout. */
GST_START_TEST (test_change_while_playing)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=6 ! "
      "video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! "
      "clexposuremonitor name=m ! video/x-raw,format=RGBA ! "
      "appsink name=out sync=false", NULL);
  GstElement *m = gst_bin_get_by_name (GST_BIN (pipeline), "m");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  GstSample *sample;
  GstVideoInfo info;
  guint frames = 0, first_height = 0, last_height = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    fail_unless (gst_video_info_from_caps (&info,
            gst_sample_get_caps (sample)));
    if (frames++ == 0) {
      first_height = GST_VIDEO_INFO_HEIGHT (&info);
      g_object_set (m, "scopes-height", 64, NULL);
    }
    last_height = GST_VIDEO_INFO_HEIGHT (&info);
    gst_sample_unref (sample);
  }
  fail_unless_equals_int (frames, 6);
  /* 320 / 3 = 106 under 240 rows, then 64. */
  fail_unless_equals_int (first_height, 240 + 106);
  fail_unless_equals_int (last_height, 240 + 64);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (m);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* The counting element's messages reach the application: a histogram
 * message a frame, from the child named count, with the zones. */
GST_START_TEST (test_messages)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,width=160,height=120 ! clexposuremonitor zones=2x2 ! "
      "fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint histograms = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);
    const GstStructure *s = gst_message_get_structure (msg);

    fail_if (type == GST_MESSAGE_ERROR, "%" GST_PTR_FORMAT, msg);
    if (type == GST_MESSAGE_ELEMENT && gst_structure_has_name (s, "histogram")) {
      const GValue *regions = gst_structure_get_value (s, "regions");

      fail_unless_equals_string (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
          "count");
      fail_unless (regions != NULL && GST_VALUE_HOLDS_ARRAY (regions));
      fail_unless_equals_int (gst_value_array_get_size (regions), 4);
      histograms++;
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS)
      break;
  }
  fail_unless_equals_int (histograms, 3);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A frame narrower than clscope's smallest picture: an error that says
 * so and what to do, not a stall. */
GST_START_TEST (test_too_small)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "video/x-raw,width=8,height=8 ! clexposuremonitor ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT), "%s", err->message);
  fail_unless (strstr (err->message, "too small"), "%s", err->message);
  fail_unless (strstr (debug, "8x8") && strstr (debug, "videoscale"), "%s",
      debug);
  fail_unless_equals_string (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
      "clexposuremonitor0");
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static Suite *
clexposuremonitor_suite (void)
{
  Suite *s = suite_create ("clexposuremonitor");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_layout);
  tcase_add_test (tc, test_region_equals_fails);
  tcase_add_test (tc, test_picture_sizes);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_change_while_playing);
  tcase_add_test (tc, test_messages);
  tcase_add_test (tc, test_too_small);
  return s;
}

CLH_CHECK_MAIN (clexposuremonitor);
