/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clbackproject and clcamshift as a user drives them: the caps each
 * takes and gives, what each property does on frames worked out by hand
 * (and, for CamShift, against the golden reference step by step), what a
 * user can get wrong (no model, a model or bins that do not fit the mode,
 * a window outside the frame, too many tracks, a device that does not
 * exist) and what upstream can send (short buffers and strides too small,
 * padded rows and bytes after the frame); then state cycles with frames,
 * and the device context the two share with each other and with
 * clhistogram. The tests of the "environment" case need a process and an
 * environment of their own (no OpenCL, a broken compiler, failing
 * launches): tests/meson.build runs them one by one. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>
#include <math.h>

#include "clh-test-timeout.h"
#include "clh-check-util.h"
#include "clh-reference-track.h"

/* The synthetic scene: a grey background (no saturation: outside
 * clcamshift's default mask) with saturated squares. */
#define SCENE_W 96
#define SCENE_H 64
#define GREY 128

typedef struct {
  gint x, y, size;
  guint8 r, g, b;
} Square;

static const Square red_square = { 10, 8, 16, 220, 30, 30 };

static void
set_caps (GstHarness *h, const gchar *format, guint width, guint height)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,"
      "framerate=30/1", format, width, height);

  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

static GstHarness *
harness_new (const gchar *factory, GstBus **bus)
{
  GstHarness *h = gst_harness_new (factory);

  *bus = clh_check_harness_bus (h->element);
  return h;
}

static void
set_pixel (guint8 *data, gint stride, gint x, gint y, guint8 r, guint8 g,
    guint8 b)
{
  guint8 *p = data + (gsize) y * stride + (gsize) x * 3;

  p[0] = r;
  p[1] = g;
  p[2] = b;
}

/* An RGB frame of @info: @bg grey, then @squares (clipped to the frame),
 * with the caps' default strides (rows padded to 4 bytes). */
static GstBuffer *
scene_frame (const GstVideoInfo *info, guint8 bg, const Square *squares,
    guint n_squares, guint index)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);
  const gint stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  GstMapInfo map;
  gint x, y;
  guint i;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  memset (map.data, 0xa5, map.size);
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
      set_pixel (map.data, stride, x, y, bg, bg, bg);
  for (i = 0; i < n_squares; i++) {
    const Square *s = &squares[i];

    for (y = MAX (s->y, 0); y < MIN (s->y + s->size,
            GST_VIDEO_INFO_HEIGHT (info)); y++)
      for (x = MAX (s->x, 0); x < MIN (s->x + s->size,
              GST_VIDEO_INFO_WIDTH (info)); x++)
        set_pixel (map.data, stride, x, y, s->r, s->g, s->b);
  }
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = index * GST_SECOND / 30;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static void
scene_info (GstVideoInfo *info)
{
  gst_video_info_set_format (info, GST_VIDEO_FORMAT_RGB, SCENE_W, SCENE_H);
}

/* The frame with the red square moved @k steps of (3, 2) pixels. */
static Square
moving_square (guint k)
{
  Square s = red_square;

  s.x += 3 * k;
  s.y += 2 * k;
  return s;
}

static void
set_doubles (GstElement *e, const gchar *property, const gdouble *values,
    guint n)
{
  GValue array = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i;

  gst_value_array_init (&array, n);
  g_value_init (&v, G_TYPE_DOUBLE);
  for (i = 0; i < n; i++) {
    g_value_set_double (&v, values[i]);
    gst_value_array_append_value (&array, &v);
  }
  g_object_set_property (G_OBJECT (e), property, &array);
  g_value_unset (&v);
  g_value_unset (&array);
}

static void
set_ints (GstElement *e, const gchar *property, const gint *values, guint n)
{
  GValue array = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i;

  gst_value_array_init (&array, n);
  g_value_init (&v, G_TYPE_INT);
  for (i = 0; i < n; i++) {
    g_value_set_int (&v, values[i]);
    gst_value_array_append_value (&array, &v);
  }
  g_object_set_property (G_OBJECT (e), property, &array);
  g_value_unset (&v);
  g_value_unset (&array);
}

static void
set_window (GstElement *e, gint x, gint y, gint width, gint height)
{
  const gint rect[4] = { x, y, width, height };

  set_ints (e, "window", rect, 4);
}

/* A model of @n equal values. */
static void
set_flat_model (GstElement *e, guint n, gdouble value)
{
  gdouble *model = g_new (gdouble, n);
  guint i;

  for (i = 0; i < n; i++)
    model[i] = value;
  set_doubles (e, "model", model, n);
  g_free (model);
}

/* Fails unless the GRAY8 @out of @width x @height equals @want, row-major
 * without padding. */
static void
assert_gray (GstBuffer *out, guint width, guint height, const guint8 *want,
    const gchar *what)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  guint x, y;

  fail_unless (out != NULL, "%s: no frame out", what);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, width, height);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ),
      "%s: the output buffer (%" G_GSIZE_FORMAT " bytes) is not a %ux%u "
      "GRAY8 frame", what, gst_buffer_get_size (out), width, height);
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      const guint8 got = ((const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
              0))[y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x];

      fail_unless (got == want[y * width + x], "%s: pixel (%u, %u) is %u, "
          "expected %u", what, x, y, got, want[y * width + x]);
    }
  gst_video_frame_unmap (&frame);
}

static void
assert_gray_uniform (GstBuffer *out, guint width, guint height, guint8 value,
    const gchar *what)
{
  guint8 *want = g_malloc ((gsize) width * height);

  memset (want, value, (gsize) width * height);
  assert_gray (out, width, height, want, what);
  g_free (want);
}

/* Pops the messages of @type from @bus and counts them. */
static guint
count_messages (GstBus *bus, GstMessageType type)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, type))) {
    n++;
    gst_message_unref (msg);
  }
  return n;
}

/* The warnings on @bus, taken off it (each one's text must hold
 * @in_text); the other messages are put back in their order
 * (gst_bus_pop_filtered() would drop them). */
static guint
count_warnings_saying (GstBus *bus, const gchar *in_text)
{
  GQueue others = G_QUEUE_INIT;
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop (bus))) {
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_WARNING) {
      g_queue_push_tail (&others, msg);
      continue;
    }
    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, in_text) != NULL,
        "warning \"%s\" does not say \"%s\"", err->message, in_text);
    g_error_free (err);
    gst_message_unref (msg);
    n++;
  }
  while ((msg = g_queue_pop_head (&others)))
    gst_bus_post (bus, msg);
  return n;
}

static void
push_expect_error (GstHarness *h, GstBus *bus, GstBuffer *buffer,
    GQuark domain, gint code, const gchar *in_message)
{
  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_ERROR);
  clh_check_expect_error (bus, domain, code, in_message, NULL);
  fail_unless (gst_harness_try_pull (h) == NULL, "a frame came out");
}

/* ------------------------------------------------------------------ */
/* Caps */

/* Every format of clbackproject's sink template, from the template. */
static GStrv
template_formats (const gchar *factory_name)
{
  GstElementFactory *factory = gst_element_factory_find (factory_name);
  GStrvBuilder *builder = g_strv_builder_new ();
  const GList *l;
  GStrv formats;

  fail_unless (factory != NULL);
  for (l = gst_element_factory_get_static_pad_templates (factory); l;
      l = l->next) {
    GstStaticPadTemplate *templ = l->data;
    GstCaps *caps;
    const GValue *list;
    guint i;

    if (templ->direction != GST_PAD_SINK)
      continue;
    caps = gst_static_pad_template_get_caps (templ);
    list = gst_structure_get_value (gst_caps_get_structure (caps, 0),
        "format");
    fail_unless (GST_VALUE_HOLDS_LIST (list));
    for (i = 0; i < gst_value_list_get_size (list); i++)
      g_strv_builder_add (builder,
          g_value_get_string (gst_value_list_get_value (list, i)));
    gst_caps_unref (caps);
  }
  gst_object_unref (factory);
  formats = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return formats;
}

/* Each format of the sink template gives GRAY8 of the same size and rate:
 * a flat model makes every pixel its value, a value of its own for each
 * format (a recycled output buffer holds another's), so the whole frame
 * was written, whatever the layout (odd width: padded GRAY8 rows). */
GST_START_TEST (test_backproject_caps_each_format)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);
  GStrv formats = template_formats ("clbackproject");
  const guint width = 10, height = 6;
  guint i;

  fail_unless (g_strv_length (formats) >= 20, "only %u formats",
      g_strv_length (formats));
  for (i = 0; formats[i]; i++) {
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstCaps *caps;
    GstStructure *s;
    gint w = 0, hgt = 0, fn = 0, fd = 0;

    set_flat_model (h->element, 16, i + 1);
    set_caps (h, formats[i], width, height);
    gst_video_info_set_format (&info,
        gst_video_format_from_string (formats[i]), width, height);
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    gst_buffer_memset (in, 0, 0x80, info.size);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s: no frame out", formats[i]);

    caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (caps != NULL);
    s = gst_caps_get_structure (caps, 0);
    fail_unless_equals_string (gst_structure_get_string (s, "format"),
        "GRAY8");
    fail_unless (gst_structure_get_int (s, "width", &w)
        && gst_structure_get_int (s, "height", &hgt)
        && gst_structure_get_fraction (s, "framerate", &fn, &fd));
    fail_unless (w == (gint) width && hgt == (gint) height && fn == 30
        && fd == 1, "%s: %" GST_PTR_FORMAT, formats[i], caps);
    gst_caps_unref (caps);
    assert_gray_uniform (out, width, height, i + 1, formats[i]);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  g_strfreev (formats);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static const gchar *const refused_formats[] = {
  "GRAY8", "GRAY16_LE", "RGBA64_LE", "I420_10LE", "P010_10LE", "v210",
};

/* Formats whose HSV the elements do not compute: not-negotiated, as any
 * element, and no frame out. */
GST_START_TEST (test_caps_refused)
{
  const gchar *const factories[] = { "clbackproject", "clcamshift" };
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (factories); f++)
    for (i = 0; i < G_N_ELEMENTS (refused_formats); i++) {
      GstHarness *h = gst_harness_new (factories[f]);
      GstVideoInfo info;
      gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=16,"
          "height=8,framerate=30/1", refused_formats[i]);
      GstCaps *c = gst_caps_from_string (caps);
      GstPad *sink = gst_element_get_static_pad (h->element, "sink");

      fail_if (gst_pad_query_accept_caps (sink, c), "%s accepts %s",
          factories[f], refused_formats[i]);
      gst_harness_set_src_caps_str (h, caps);
      gst_video_info_set_format (&info,
          gst_video_format_from_string (refused_formats[i]), 16, 8);
      fail_unless_equals_int (gst_harness_push (h,
              gst_buffer_new_allocate (NULL, info.size, NULL)),
          GST_FLOW_NOT_NEGOTIATED);
      fail_unless (gst_harness_try_pull (h) == NULL);
      gst_object_unref (sink);
      gst_caps_unref (c);
      g_free (caps);
      gst_harness_teardown (h);
    }
}
GST_END_TEST;

/* clcamshift passes the frame as it came: the same caps, the same bytes,
 * whatever the format. */
GST_START_TEST (test_camshift_keeps_caps)
{
  const gchar *const formats[] = { "RGB", "BGRx", "I420", "NV21", "YUY2" };
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  guint i;

  set_window (h->element, 2, 2, 8, 6);
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=30,height=18,"
        "framerate=30/1", formats[i]);
    GstCaps *want = gst_caps_from_string (str), *got;
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstMapInfo a, b;
    guint j;

    gst_harness_set_src_caps (h, gst_caps_ref (want));
    gst_video_info_set_format (&info,
        gst_video_format_from_string (formats[i]), 30, 18);
    in = gst_buffer_new_allocate (NULL, info.size, NULL);
    gst_buffer_map (in, &a, GST_MAP_WRITE);
    for (j = 0; j < a.size; j++)
      a.data[j] = (guint8) (j * 37 + i);
    gst_buffer_unmap (in, &a);
    out = gst_harness_push_and_pull (h, gst_buffer_copy_deep (in));
    fail_unless (out != NULL, "%s: no frame out", formats[i]);
    got = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (gst_caps_is_equal (got, want), "%s: %" GST_PTR_FORMAT,
        formats[i], got);
    fail_unless_equals_int (gst_buffer_get_size (out), info.size);
    gst_buffer_map (in, &a, GST_MAP_READ);
    gst_buffer_map (out, &b, GST_MAP_READ);
    fail_unless (memcmp (a.data, b.data, a.size) == 0,
        "%s: the frame changed", formats[i]);
    gst_buffer_unmap (out, &b);
    gst_buffer_unmap (in, &a);
    fail_unless (gst_buffer_get_video_region_of_interest_meta_id (out, 0),
        "%s: not tracked", formats[i]);
    gst_caps_unref (got);
    gst_caps_unref (want);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    g_free (str);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* clbackproject */

/* 3x2 RGB (rows padded to 12 bytes), in OpenCV's 8-bit HSV:
 *   red (0, 255, 255)    green (60, 255, 255)    blue (120, 255, 255)
 *   white (0, 0, 255)    dark red (0, 255, 100)  yellow (30, 255, 255)
 * With 6 hue bins of 30: red, white and dark red fall in bin 0, yellow in
 * 1, green in 2, blue in 4. */
static GstBuffer *
hand_frame (void)
{
  const guint8 rgb[6][3] = {
    {255, 0, 0}, {0, 255, 0}, {0, 0, 255},
    {255, 255, 255}, {100, 0, 0}, {255, 255, 0},
  };
  GstVideoInfo info;
  GstBuffer *buffer;
  GstMapInfo map;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, 3, 2);
  fail_unless_equals_int (info.stride[0], 12);
  buffer = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  memset (map.data, 0xee, map.size);
  for (i = 0; i < 6; i++)
    set_pixel (map.data, 12, i % 3, i / 3, rgb[i][0], rgb[i][1], rgb[i][2]);
  gst_buffer_unmap (buffer, &map);
  return buffer;
}

static void
expect_hand (GstHarness *h, const guint8 want[6], const gchar *what)
{
  GstBuffer *out = gst_harness_push_and_pull (h, hand_frame ());

  assert_gray (out, 3, 2, want, what);
  gst_buffer_unref (out);
}

/* The 3x2 frame worked out by hand (and checked against
 * cv2.calcBackProject): each property changes what it should. */
GST_START_TEST (test_backproject_by_hand)
{
  const gdouble model[6] = { 10, 20, 30, 40, 50, 60 };
  const gdouble rounding[6] = { 300, 3.5, 2.5, 0, -7, 0 };
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);

  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "hue");
  g_object_set (h->element, "bins", 6, NULL);
  set_doubles (h->element, "model", model, 6);
  set_caps (h, "RGB", 3, 2);
  {
    const guint8 want[6] = { 10, 30, 50, 10, 10, 20 };
    expect_hand (h, want, "model");
  }
  g_object_set (h->element, "scale", 2.0, NULL);
  {
    const guint8 want[6] = { 20, 60, 100, 20, 20, 40 };
    expect_hand (h, want, "scale 2");
  }
  g_object_set (h->element, "scale", 1.0, "min-saturation", 1, NULL);
  {
    const guint8 want[6] = { 10, 30, 50, 0, 10, 20 };
    expect_hand (h, want, "min-saturation 1: white out");
  }
  g_object_set (h->element, "min-saturation", 0, "min-value", 101, NULL);
  {
    const guint8 want[6] = { 10, 30, 50, 10, 0, 20 };
    expect_hand (h, want, "min-value 101: dark red out");
  }
  g_object_set (h->element, "min-value", 100, NULL);
  {
    const guint8 want[6] = { 10, 30, 50, 10, 10, 20 };
    expect_hand (h, want, "min-value 100: dark red in");
  }
  g_object_set (h->element, "min-value", 0, "max-value", 254, NULL);
  {
    const guint8 want[6] = { 0, 0, 0, 0, 10, 0 };
    expect_hand (h, want, "max-value 254: only dark red in");
  }
  /* Saturated at 255 and 0, ties to even. */
  g_object_set (h->element, "max-value", 255, NULL);
  set_doubles (h->element, "model", rounding, 6);
  {
    const guint8 want[6] = { 255, 2, 0, 255, 255, 4 };
    expect_hand (h, want, "saturation and rounding");
  }

  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_WARNING), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Fails unless reading `model` back gives the doubles of @want. */
static void
assert_model_is (GstElement *e, const gdouble *want, guint n,
    const gchar *what)
{
  GValue got = G_VALUE_INIT;
  guint i;

  g_value_init (&got, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "model", &got);
  fail_unless_equals_int (gst_value_array_get_size (&got), n);
  for (i = 0; i < n; i++) {
    const GValue *v = gst_value_array_get_value (&got, i);

    fail_unless (G_VALUE_HOLDS_DOUBLE (v), "%s: model value %u is a %s",
        what, i, G_VALUE_TYPE_NAME (v));
    fail_unless (g_value_get_double (v) == want[i], "%s: model value %u is "
        "%g, not %g", what, i, g_value_get_double (v), want[i]);
  }
  g_value_unset (&got);
}

/* A model written with integers, as text (gst-launch-1.0, Python's
 * strings) or as a GstValueArray of G_TYPE_INT, is taken as the doubles
 * they are; `model` reads back as doubles, as set. */
GST_START_TEST (test_backproject_model_of_ints)
{
  const gdouble doubles[6] = { 10, 20, 30, 40, 50, 60 };
  const gdouble fractions[3] = { 0.25, -1.5, 1e300 };
  const gint ints[6] = { 10, 20, 30, 40, 50, 60 };
  const guint8 want[6] = { 10, 30, 50, 10, 10, 20 };
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);

  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "hue");
  g_object_set (h->element, "bins", 6, NULL);
  set_caps (h, "RGB", 3, 2);

  set_doubles (h->element, "model", fractions, 3);
  assert_model_is (h->element, fractions, 3, "doubles");

  gst_util_set_object_arg (G_OBJECT (h->element), "model",
      "<10, 20, 30, 40, 50, 60>");
  assert_model_is (h->element, doubles, 6, "text of ints");
  expect_hand (h, want, "text of ints");

  set_doubles (h->element, "model", fractions, 3);
  set_ints (h->element, "model", ints, 6);
  assert_model_is (h->element, doubles, 6, "GstValueArray of ints");
  expect_hand (h, want, "GstValueArray of ints");
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* No model: every frame comes out all zero (even in a buffer that held
 * another frame's probabilities) with one warning, not an error. */
GST_START_TEST (test_backproject_no_model)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);
  GstVideoInfo info;
  GValue empty = G_VALUE_INIT;
  GstBuffer *out;
  guint i;

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  set_flat_model (h->element, 16, 200.0);
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, NULL, 0, 0));
  assert_gray_uniform (out, SCENE_W, SCENE_H, 200, "flat model");
  gst_buffer_unref (out);

  gst_value_array_init (&empty, 0);
  g_object_set_property (G_OBJECT (h->element), "model", &empty);
  g_value_unset (&empty);
  for (i = 1; i <= 3; i++) {
    fail_unless_equals_int (gst_harness_push (h, scene_frame (&info, GREY,
                &red_square, 1, i)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL, "frame %u lost", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 30);
    assert_gray_uniform (out, SCENE_W, SCENE_H, 0, "no model");
    gst_buffer_unref (out);
  }
  {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    GError *err = NULL;

    fail_unless (msg != NULL, "no warning");
    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, "model"), "%s", err->message);
    g_error_free (err);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_WARNING), 0);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static gboolean
message_has (const gchar *message, const gchar *word_a, const gchar *word_b)
{
  return strstr (message, word_a) && strstr (message, word_b);
}

/* A model of the wrong length for the mode and bins: LIBRARY/SETTINGS,
 * a flow error, the message names both lengths; fixed, it goes on. */
GST_START_TEST (test_backproject_model_wrong_length)
{
  const struct {
    const gchar *mode;
    guint bins, model_len;
    const gchar *has, *needs;
  } cases[] = {
    {"hue", 6, 5, "has 5 values", "needs 6"},
    {"hue", 6, 7, "has 7 values", "needs 6"},
    {"hue-saturation", 4, 4, "has 4 values", "needs 16"},
    {"rgb", 3, 9, "has 9 values", "needs 27"},
    {"luma", 8, 64, "has 64 values", "needs 8"},
  };
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);
  GstVideoInfo info;
  GstBuffer *out;
  guint i;

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstMessage *msg;
    GError *err = NULL;

    gst_util_set_object_arg (G_OBJECT (h->element), "mode", cases[i].mode);
    g_object_set (h->element, "bins", cases[i].bins, NULL);
    set_flat_model (h->element, cases[i].model_len, 9.0);
    fail_unless_equals_int (gst_harness_push (h, scene_frame (&info, GREY,
                NULL, 0, i)), GST_FLOW_ERROR);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "%s bins=%u: no error", cases[i].mode,
        cases[i].bins);
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (g_error_matches (err, GST_LIBRARY_ERROR,
            GST_LIBRARY_ERROR_SETTINGS), "%s", err->message);
    fail_unless (message_has (err->message, cases[i].has, cases[i].needs),
        "'%s' does not name both lengths", err->message);
    g_error_free (err);
    gst_message_unref (msg);
    fail_unless (gst_harness_try_pull (h) == NULL);
  }
  /* The same length as the mode needs: frames again. */
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "rgb");
  g_object_set (h->element, "bins", 3, NULL);
  set_flat_model (h->element, 27, 9.0);
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, NULL, 0, 9));
  assert_gray_uniform (out, SCENE_W, SCENE_H, 9, "rgb 3^3");
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* The mode property is clhistogram's GstHistogramMode: the four nicks
 * users type work and read back; the modes without a back-projection
 * (channels, max) are an error that names the mode and the ones to use,
 * and a mode that has one gives frames again. */
GST_START_TEST (test_backproject_modes)
{
  const gchar *const nicks[] = { "hue", "hue-saturation", "rgb", "luma" };
  const gchar *const refused[] = { "channels", "max" };
  GParamSpec *pspec;
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);
  GstVideoInfo info;
  GstBuffer *out;
  guint i;

  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (h->element),
      "mode");
  fail_unless (G_PARAM_SPEC_VALUE_TYPE (pspec) == GST_TYPE_HISTOGRAM_MODE);
  for (i = 0; i < G_N_ELEMENTS (nicks); i++) {
    GstHistogramMode mode;

    gst_util_set_object_arg (G_OBJECT (h->element), "mode", nicks[i]);
    g_object_get (h->element, "mode", &mode, NULL);
    fail_unless_equals_string (gst_histogram_mode_get_nick (mode), nicks[i]);
  }

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  g_object_set (h->element, "bins", 4, NULL);
  set_flat_model (h->element, 4, 5.0);
  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    gst_util_set_object_arg (G_OBJECT (h->element), "mode", refused[i]);
    push_expect_error (h, bus, scene_frame (&info, GREY, NULL, 0, i),
        GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, refused[i]);
    push_expect_error (h, bus, scene_frame (&info, GREY, NULL, 0, i),
        GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, "hue-saturation");
  }
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "luma");
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, NULL, 0, 2));
  assert_gray_uniform (out, SCENE_W, SCENE_H, 5, "luma 4 bins");
  gst_buffer_unref (out);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* More bins than the mode can have (hue, hue-saturation 181, rgb 41), with
 * or without a model: an error; the largest allowed work. */
GST_START_TEST (test_backproject_too_many_bins)
{
  const struct {
    const gchar *mode;
    guint bins;
    gboolean ok;
  } cases[] = {
    {"hue", 181, FALSE}, {"hue-saturation", 181, FALSE}, {"rgb", 41, FALSE},
    {"hue", 180, TRUE}, {"rgb", 40, TRUE}, {"luma", 256, TRUE},
  };
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);
  GstVideoInfo info;
  guint i;

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    guint n = cases[i].bins;
    gchar *bins = g_strdup_printf ("%u", cases[i].bins);

    if (g_str_equal (cases[i].mode, "rgb"))
      n = n * n * n;
    else if (g_str_equal (cases[i].mode, "hue-saturation"))
      n = n * n;
    gst_util_set_object_arg (G_OBJECT (h->element), "mode", cases[i].mode);
    g_object_set (h->element, "bins", cases[i].bins, NULL);
    set_flat_model (h->element, n, 7.0);
    GST_INFO ("%s bins=%u", cases[i].mode, cases[i].bins);
    if (cases[i].ok) {
      GstBuffer *out = gst_harness_push_and_pull (h, scene_frame (&info,
              GREY, &red_square, 1, i));

      assert_gray_uniform (out, SCENE_W, SCENE_H, 7, cases[i].mode);
      gst_buffer_unref (out);
    } else {
      push_expect_error (h, bus, scene_frame (&info, GREY, NULL, 0, i),
          GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, bins);
      /* Without a model too. */
      {
        GValue empty = G_VALUE_INIT;

        gst_value_array_init (&empty, 0);
        g_object_set_property (G_OBJECT (h->element), "model", &empty);
        g_value_unset (&empty);
      }
      push_expect_error (h, bus, scene_frame (&info, GREY, NULL, 0, i),
          GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, bins);
    }
    g_free (bins);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* clcamshift */

static guint
count_camshift_metas (GstBuffer *buffer)
{
  GstVideoRegionOfInterestMeta *roi;
  gpointer state = NULL;
  guint n = 0;

  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    if (roi->roi_type == g_quark_from_string ("camshift"))
      n++;
  return n;
}

static GstVideoRegionOfInterestMeta *
camshift_meta (GstBuffer *buffer, gint id)
{
  GstVideoRegionOfInterestMeta *roi, *found = NULL;
  gpointer state = NULL;

  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    if (roi->roi_type == g_quark_from_string ("camshift") && roi->id == id) {
      fail_unless (found == NULL, "two camshift metas of id %d", id);
      found = roi;
    }
  fail_unless (found != NULL, "no camshift meta of id %d", id);
  return found;
}

static const gchar *const box_fields[] = {
  "center-x", "center-y", "width", "height", "angle",
};

/* The rotated box of a structure's five gdouble fields. */
static ClhRotatedBox
structure_box (const GstStructure *s)
{
  gdouble v[5];
  guint i;

  for (i = 0; i < 5; i++) {
    const GValue *value = gst_structure_get_value (s, box_fields[i]);

    fail_unless (value != NULL && G_VALUE_HOLDS_DOUBLE (value),
        "%s: no gdouble %s", gst_structure_get_name (s), box_fields[i]);
    v[i] = g_value_get_double (value);
  }
  return (ClhRotatedBox) { v[0], v[1], v[2], v[3], v[4] };
}

/* A track's quality, as a message or a meta's parameter has it. */
typedef struct {
  guint64 m00;
  gdouble mean_probability, confidence;
  gboolean lost;
} Quality;

static gdouble
get_double (const GstStructure *s, const gchar *field)
{
  gdouble v = -1;

  fail_unless (gst_structure_get_double (s, field, &v),
      "%s: no gdouble %s", gst_structure_get_name (s), field);
  return v;
}

/* The quality fields of a message or a meta's parameter, each in its
 * range. */
static Quality
structure_quality (const GstStructure *s)
{
  Quality q = { 0 };

  fail_unless (gst_structure_get_uint64 (s, "m00", &q.m00),
      "%s: no guint64 m00", gst_structure_get_name (s));
  q.mean_probability = get_double (s, "mean-probability");
  q.confidence = get_double (s, "confidence");
  fail_unless (gst_structure_get_boolean (s, "lost", &q.lost),
      "%s: no gboolean lost", gst_structure_get_name (s));
  fail_unless (q.mean_probability >= 0 && q.mean_probability <= 1
      && q.confidence >= 0 && q.confidence <= 1, "%s: mean probability %g "
      "and confidence %g not in [0, 1]", gst_structure_get_name (s),
      q.mean_probability, q.confidence);
  return q;
}

static Quality
meta_quality (GstVideoRegionOfInterestMeta *roi)
{
  GstStructure *s = gst_video_region_of_interest_meta_get_param (roi,
      "camshift");

  fail_unless (s != NULL, "ROI meta %d has no camshift param", roi->id);
  fail_unless_equals_int (gst_structure_n_fields (s), 9);
  return structure_quality (s);
}

static ClhRotatedBox
meta_box (GstVideoRegionOfInterestMeta *roi)
{
  GstStructure *s = gst_video_region_of_interest_meta_get_param (roi,
      "camshift");

  fail_unless (s != NULL, "ROI meta %d has no camshift param", roi->id);
  return structure_box (s);
}

static ClhRect
meta_rect (const GstVideoRegionOfInterestMeta *roi)
{
  return (ClhRect) { (gint) roi->x, (gint) roi->y, (gint) roi->w,
    (gint) roi->h };
}

static gboolean
box_is_empty (const ClhRotatedBox *b)
{
  return b->center_x == 0 && b->center_y == 0 && b->width == 0
      && b->height == 0 && b->angle == 0;
}

static void
assert_rect_in_frame (const ClhRect *r, const gchar *what)
{
  fail_unless (r->x >= 0 && r->y >= 0 && r->width >= 0 && r->height >= 0
      && r->x + r->width <= SCENE_W && r->y + r->height <= SCENE_H,
      "%s: window %d,%d %dx%d is not inside the %dx%d frame", what, r->x,
      r->y, r->width, r->height, SCENE_W, SCENE_H);
}

/* A parsed camshift message. */
typedef struct {
  guint64 timestamp, stream_time, running_time, duration;
  guint id;
  ClhRect window;
  ClhRotatedBox box;
  gboolean lost;
  Quality quality;
} CamShiftMessage;

static guint64
get_uint64 (const GstStructure *s, const gchar *field)
{
  guint64 v = 0;

  fail_unless (gst_structure_get_uint64 (s, field, &v),
      "camshift message: no guint64 %s in %" GST_PTR_FORMAT, field, s);
  return v;
}

/* Pops the next camshift element message; NULL-less: fails if none. */
static CamShiftMessage
pop_camshift_message (GstBus *bus)
{
  GstMessage *msg;
  const GstStructure *s = NULL;
  const GValue *window;
  CamShiftMessage m = { 0 };
  gint rect[4];
  guint i;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "camshift"))
      break;
    gst_message_unref (msg);
  }
  fail_unless (msg != NULL, "no camshift message");
  m.timestamp = get_uint64 (s, "timestamp");
  m.stream_time = get_uint64 (s, "stream-time");
  m.running_time = get_uint64 (s, "running-time");
  m.duration = get_uint64 (s, "duration");
  fail_unless (gst_structure_get_uint (s, "id", &m.id), "no guint id");
  fail_unless (gst_structure_get_boolean (s, "lost", &m.lost),
      "no gboolean lost");
  window = gst_structure_get_value (s, "window");
  fail_unless (window && GST_VALUE_HOLDS_ARRAY (window),
      "window is no GstValueArray");
  fail_unless_equals_int (gst_value_array_get_size (window), 4);
  for (i = 0; i < 4; i++) {
    const GValue *v = gst_value_array_get_value (window, i);

    fail_unless (G_VALUE_HOLDS_INT (v), "window[%u] is a %s", i,
        G_VALUE_TYPE_NAME (v));
    rect[i] = g_value_get_int (v);
  }
  m.window = (ClhRect) { rect[0], rect[1], rect[2], rect[3] };
  m.box = structure_box (s);
  m.quality = structure_quality (s);
  fail_unless_equals_int (m.quality.lost, m.lost);
  gst_message_unref (msg);
  return m;
}

/* The golden reference of one track through the frames: its model from
 * its first window, then one CamShift step a frame, as the element
 * should. */
typedef struct {
  ClhRect window;
  gfloat model[16];
  gboolean started;
  /* The last step's. */
  ClhCamShiftMass mass;
} RefTrack;

static void
ref_track_step (RefTrack *t, GstBuffer *buffer, const GstVideoInfo *info,
    ClhRotatedBox *box)
{
  const ClhCamShiftCriteria criteria = { 10, 1.0 };
  const guint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT
      (info);
  ClhBackprojectSpec spec = { 0 };
  ClhFrame frame = { 0 };
  GstMapInfo map;
  guint8 *prob = g_malloc ((gsize) w * h);
  guint c;

  fail_unless (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_RGB);
  gst_buffer_map (buffer, &map, GST_MAP_READ);
  frame.width = w;
  frame.height = h;
  frame.sample = CLH_SAMPLE_8;
  frame.depth = 8;
  frame.n_planes = 1;
  frame.planes[0].data = map.data;
  frame.planes[0].stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  frame.n_components = 3;
  for (c = 0; c < 3; c++) {
    frame.components[c] = (ClhComponent) { 0, c, 3, 0, 0, 0 };
    spec.components[c] = c;
  }
  spec.count = CLH_COUNT_HUE;
  spec.n_components = 3;
  spec.color = CLH_COLOR_RGB;
  spec.bins = 16;
  spec.scale = 1.0f;
  spec.min_saturation = 60;
  spec.min_value = 32;
  spec.max_value = 255;
  if (!t->started)
    clh_reference_camshift_model (&frame, &spec, &t->window, t->model);
  t->started = TRUE;
  spec.model = t->model;
  clh_reference_backproject (&frame, &spec, prob, w);
  clh_reference_camshift (prob, w, w, h, &t->window, &criteria, box,
      &t->mass);
  gst_buffer_unmap (buffer, &map);
  g_free (prob);
}

static void
assert_same_step (const ClhRect *got_window, const ClhRotatedBox *got_box,
    const ClhRect *want_window, const ClhRotatedBox *want_box,
    const gchar *what)
{
  fail_unless (memcmp (got_window, want_window, sizeof (ClhRect)) == 0
      && got_box->center_x == want_box->center_x
      && got_box->center_y == want_box->center_y
      && got_box->width == want_box->width
      && got_box->height == want_box->height
      && got_box->angle == want_box->angle,
      "%s: window %d,%d %dx%d box %g,%g %gx%g %g; the reference says "
      "%d,%d %dx%d box %g,%g %gx%g %g", what, got_window->x, got_window->y,
      got_window->width, got_window->height, got_box->center_x,
      got_box->center_y, got_box->width, got_box->height, got_box->angle,
      want_window->x, want_window->y, want_window->width, want_window->height,
      want_box->center_x, want_box->center_y, want_box->width,
      want_box->height, want_box->angle);
}

/* The mean probability clcamshift's documentation defines: the mass over
 * 255 times the pixels of its window. */
static gdouble
mean_probability (const ClhCamShiftMass *mass)
{
  const gdouble area = (gdouble) mass->window.width * mass->window.height;

  return area > 0 ? (gdouble) mass->m00 / (255.0 * area) : 0.0;
}

/* @got against the reference's @mass of a track not lost: its m00, its
 * mean probability, its confidence against @first_mean, the mean
 * probability of the track's first frame (at most 1). */
static void
assert_quality (const Quality *got, const ClhCamShiftMass *mass,
    gdouble first_mean, const gchar *what)
{
  const gdouble mean = mean_probability (mass);
  const gdouble confidence = first_mean > 0 ? MIN (mean / first_mean, 1.0)
      : 0.0;

  fail_unless (got->m00 == mass->m00 && got->mean_probability == mean
      && got->confidence == confidence && !got->lost, "%s: m00 %"
      G_GUINT64_FORMAT ", mean probability %.17g, confidence %.17g, lost "
      "%d; the reference's mass %" G_GUINT64_FORMAT " in %d,%d %dx%d: %.17g, "
      "%.17g, not lost", what, got->m00, got->mean_probability,
      got->confidence, got->lost, mass->m00, mass->window.x, mass->window.y,
      mass->window.width, mass->window.height, mean, confidence);
}

/* A window on the red square, which then moves (3, 2) pixels a frame: one
 * camshift meta and one message a frame, with the frame's timestamps in a
 * segment that starts at 1 s at stream time 5 s; the box stays on the
 * square, and every step equals the reference's, its mass and quality
 * too (confidence 1 on the first frame, and near it on the others). */
GST_START_TEST (test_camshift_window_follows)
{
  const GstClockTime start = GST_SECOND, time = 5 * GST_SECOND;
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  RefTrack ref = { {8, 6, 20, 20} };
  GstVideoInfo info;
  GstSegment segment;
  gdouble first_mean = 0;
  guint k;

  scene_info (&info);
  set_window (h->element, ref.window.x, ref.window.y, ref.window.width,
      ref.window.height);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = start;
  segment.time = time;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  for (k = 0; k < 8; k++) {
    const Square sq = moving_square (k);
    const gdouble cx = sq.x + sq.size / 2.0, cy = sq.y + sq.size / 2.0;
    GstBuffer *in = scene_frame (&info, GREY, &sq, 1, 0), *out;
    GstVideoRegionOfInterestMeta *roi;
    CamShiftMessage m;
    ClhRotatedBox box, want_box;
    ClhRect rect;
    Quality q;
    gchar *what = g_strdup_printf ("frame %u", k);

    GST_BUFFER_PTS (in) = start + k * GST_SECOND / 30;
    ref_track_step (&ref, in, &info, &want_box);
    if (k == 0)
      first_mean = mean_probability (&ref.mass);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s: no frame out", what);
    fail_unless_equals_int (count_camshift_metas (out), 1);
    roi = camshift_meta (out, 0);
    box = meta_box (roi);
    rect = meta_rect (roi);
    assert_same_step (&rect, &box, &ref.window, &want_box, what);

    /* On the square: the box's centre within a pixel and a half of the
     * square's, its axes those of a 16-pixel square (4 sigma, 18.4). */
    fail_unless (fabs (box.center_x - cx) <= 1.5
        && fabs (box.center_y - cy) <= 1.5, "%s: box at %g,%g, the square "
        "at %g,%g", what, box.center_x, box.center_y, cx, cy);
    fail_unless (box.width > 15 && box.width < 22 && box.height > 15
        && box.height < 22, "%s: box %gx%g", what, box.width, box.height);
    fail_unless (rect.x <= cx && cx <= rect.x + rect.width && rect.y <= cy
        && cy <= rect.y + rect.height, "%s: window %d,%d %dx%d misses the "
        "square", what, rect.x, rect.y, rect.width, rect.height);

    m = pop_camshift_message (bus);
    fail_unless_equals_uint64 (m.timestamp, GST_BUFFER_PTS (out));
    fail_unless_equals_uint64 (m.running_time, k * GST_SECOND / 30);
    fail_unless_equals_uint64 (m.stream_time, time + k * GST_SECOND / 30);
    fail_unless_equals_uint64 (m.duration, GST_SECOND / 30);
    fail_unless_equals_int (m.id, 0);
    fail_if (m.lost);
    assert_same_step (&m.window, &m.box, &rect, &box, "message");
    q = meta_quality (roi);
    assert_quality (&q, &ref.mass, first_mean, what);
    assert_quality (&m.quality, &ref.mass, first_mean, what);
    fail_unless (ref.mass.m00 > 0 && (k > 0 || m.quality.confidence == 1.0)
        && m.quality.confidence > 0.8, "%s: confidence %g", what,
        m.quality.confidence);
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL,
        "%s: a second message", what);
    gst_buffer_unref (out);
    g_free (what);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* post-messages=false: no message, the metas still come. */
GST_START_TEST (test_camshift_no_messages)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  GstVideoInfo info;
  guint k;

  scene_info (&info);
  g_object_set (h->element, "post-messages", FALSE, NULL);
  set_window (h->element, 8, 6, 20, 20);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  for (k = 0; k < 3; k++) {
    const Square sq = moving_square (k);
    GstBuffer *out = gst_harness_push_and_pull (h, scene_frame (&info, GREY,
            &sq, 1, k));
    ClhRotatedBox box;

    fail_unless_equals_int (count_camshift_metas (out), 1);
    box = meta_box (camshift_meta (out, 0));
    fail_if (box_is_empty (&box));
    gst_buffer_unref (out);
  }
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);
  g_object_set (h->element, "post-messages", TRUE, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (h, scene_frame (&info, GREY,
              &red_square, 1, 3)));
  pop_camshift_message (bus);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static void
add_roi (GstBuffer *buffer, const gchar *type, gint id, guint x, guint y,
    guint w, guint h)
{
  GstVideoRegionOfInterestMeta *roi =
      gst_buffer_add_video_region_of_interest_meta (buffer, type, x, y, w, h);

  roi->id = id;
}

static void
assert_box_near (GstBuffer *out, gint id, const Square *sq,
    const gchar *what)
{
  const ClhRotatedBox box = meta_box (camshift_meta (out, id));
  const gdouble cx = sq->x + sq->size / 2.0, cy = sq->y + sq->size / 2.0;

  fail_unless (fabs (box.center_x - cx) <= 1.5
      && fabs (box.center_y - cy) <= 1.5, "%s: track %d at %g,%g, its "
      "square at %g,%g", what, id, box.center_x, box.center_y, cx, cy);
}

/* With no window, ROI metas of type "track" start tracks with their ids;
 * another type does not; the tracks go on without metas; a meta of an id
 * already tracked starts that track again where it says, and adds none. */
GST_START_TEST (test_camshift_roi_tracks)
{
  const Square squares[2] = {
    {10, 10, 14, 220, 30, 30},  /* red: hue 0 */
    {60, 30, 14, 30, 30, 220},  /* blue: hue 120 */
  };
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  GstVideoInfo info;
  GstBuffer *in, *out;
  CamShiftMessage m[2];

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);

  /* No track at all: nothing attached, nothing posted. */
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, squares, 2,
          0));
  fail_unless_equals_int (count_camshift_metas (out), 0);
  gst_buffer_unref (out);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);

  in = scene_frame (&info, GREY, squares, 2, 1);
  add_roi (in, "track", 5, 8, 8, 18, 18);
  add_roi (in, "face", 7, 58, 28, 18, 18);
  add_roi (in, "track", 9, 58, 28, 18, 18);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (count_camshift_metas (out), 2);
  assert_box_near (out, 5, &squares[0], "start");
  assert_box_near (out, 9, &squares[1], "start");
  gst_buffer_unref (out);
  m[0] = pop_camshift_message (bus);
  m[1] = pop_camshift_message (bus);
  fail_unless (m[0].id == 5 && m[1].id == 9, "ids %u, %u", m[0].id,
      m[1].id);

  /* No metas: both go on. */
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, squares, 2,
          2));
  fail_unless_equals_int (count_camshift_metas (out), 2);
  assert_box_near (out, 5, &squares[0], "next frame");
  assert_box_near (out, 9, &squares[1], "next frame");
  gst_buffer_unref (out);

  /* Track 5 again, on the blue square: restarted there, not added. */
  in = scene_frame (&info, GREY, squares, 2, 3);
  add_roi (in, "track", 5, 58, 28, 18, 18);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (count_camshift_metas (out), 2);
  assert_box_near (out, 5, &squares[1], "restarted");
  assert_box_near (out, 9, &squares[1], "restart of another");
  gst_buffer_unref (out);
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, squares, 2,
          4));
  fail_unless_equals_int (count_camshift_metas (out), 2);
  assert_box_near (out, 5, &squares[1], "after the restart");
  gst_buffer_unref (out);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);

  /* track-type picks the type. */
  h = harness_new ("clcamshift", &bus);
  g_object_set (h->element, "track-type", "face", NULL);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  in = scene_frame (&info, GREY, squares, 2, 0);
  add_roi (in, "track", 5, 8, 8, 18, 18);
  add_roi (in, "face", 7, 58, 28, 18, 18);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (count_camshift_metas (out), 1);
  assert_box_near (out, 7, &squares[1], "track-type face");
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A window wholly outside the frame: no error, one warning, the frame
 * passes, and the track goes as OpenCV's CamShift takes such a window (the
 * reference's), its window inside the frame afterwards. */
GST_START_TEST (test_camshift_window_outside)
{
  const ClhRect outside[] = {
    {200, 150, 20, 20}, {-50, -40, 10, 10}, {SCENE_W, 0, 5, 5},
  };
  GstVideoInfo info;
  guint i, k;

  scene_info (&info);
  for (i = 0; i < G_N_ELEMENTS (outside); i++) {
    GstBus *bus;
    GstHarness *h = harness_new ("clcamshift", &bus);
    RefTrack ref = { outside[i] };

    set_window (h->element, outside[i].x, outside[i].y, outside[i].width,
        outside[i].height);
    set_caps (h, "RGB", SCENE_W, SCENE_H);
    for (k = 0; k < 3; k++) {
      const Square sq = moving_square (k);
      GstBuffer *in = scene_frame (&info, GREY, &sq, 1, k), *out;
      GstVideoRegionOfInterestMeta *roi;
      ClhRotatedBox box, want_box;
      ClhRect rect;
      CamShiftMessage m;
      gchar *what = g_strdup_printf ("window %d,%d frame %u", outside[i].x,
          outside[i].y, k);

      ref_track_step (&ref, in, &info, &want_box);
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out != NULL, "%s: no frame out", what);
      /* Said once, at the window's first frame. */
      fail_unless_equals_int (count_warnings_saying (bus,
              "lies wholly outside the 96x64 frame"), k == 0 ? 1 : 0);
      fail_unless_equals_int (count_camshift_metas (out), 1);
      roi = camshift_meta (out, 0);
      rect = meta_rect (roi);
      box = meta_box (roi);
      m = pop_camshift_message (bus);
      assert_same_step (&m.window, &m.box, &ref.window, &want_box, what);
      assert_same_step (&rect, &box, &ref.window, &want_box, what);
      assert_rect_in_frame (&rect, what);
      gst_buffer_unref (out);
      g_free (what);
    }
    fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* Black frames: no pixel passes the mask (value under 32), the track's box
 * is empty every frame, its window still a window of the frame. */
GST_START_TEST (test_camshift_black_frame)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  RefTrack ref = { {20, 10, 30, 24} };
  GstVideoInfo info;
  guint k;

  scene_info (&info);
  set_window (h->element, 20, 10, 30, 24);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  for (k = 0; k < 3; k++) {
    GstBuffer *in = scene_frame (&info, 0, NULL, 0, k), *out;
    GstVideoRegionOfInterestMeta *roi;
    ClhRotatedBox box, want_box;
    ClhRect rect;
    CamShiftMessage m;

    ref_track_step (&ref, in, &info, &want_box);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL);
    fail_unless_equals_int (count_camshift_metas (out), 1);
    roi = camshift_meta (out, 0);
    box = meta_box (roi);
    rect = meta_rect (roi);
    fail_unless (box_is_empty (&box), "frame %u: box %g,%g %gx%g %g", k,
        box.center_x, box.center_y, box.width, box.height, box.angle);
    assert_same_step (&rect, &box, &ref.window, &want_box, "black");
    assert_rect_in_frame (&rect, "black");
    fail_unless (rect.width > 0 && rect.height > 0);
    m = pop_camshift_message (bus);
    fail_unless (box_is_empty (&m.box));
    fail_if (m.lost, "a window of pixels reported lost");
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* 300 ROI metas that start tracks: the first 256 are tracked (ids kept),
 * one warning (not one a frame), no error. */
GST_START_TEST (test_camshift_too_many_tracks)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  GstVideoInfo info;
  guint frame;

  scene_info (&info);
  g_object_set (h->element, "post-messages", FALSE, NULL);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  for (frame = 0; frame < 2; frame++) {
    GstBuffer *in = scene_frame (&info, GREY, &red_square, 1, frame), *out;
    gint i;

    for (i = 0; i < 300; i++)
      add_roi (in, "track", i, (i % 24) * 4, (i / 24) * 4, 4, 4);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "frame %u: no frame out", frame);
    fail_unless_equals_int (count_camshift_metas (out), 256);
    for (i = 0; i < 256; i++)
      camshift_meta (out, i);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_WARNING), 1);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Windows at the ends of the ints (a meta's guints, a property's gints)
 * track as the small windows that meet the frame as they do: no sum
 * overflows on the way. */
GST_START_TEST (test_camshift_huge_windows)
{
  const struct {
    gboolean roi;
    gint64 x, y, w, h;
    ClhRect same;
  } cases[] = {
    {TRUE, G_MAXUINT - 5, G_MAXUINT - 5, G_MAXUINT, G_MAXUINT,
        {SCENE_W + 10, SCENE_H + 10, 5, 5}},
    {TRUE, 0, 0, G_MAXUINT, G_MAXUINT, {0, 0, SCENE_W, SCENE_H}},
    {TRUE, 10, 5, G_MAXUINT, 20, {10, 5, SCENE_W - 10, 20}},
    {FALSE, G_MININT, G_MININT, G_MAXINT, G_MAXINT, {-10, -10, 5, 5}},
    {FALSE, G_MAXINT, 3, G_MAXINT, 5, {SCENE_W, 3, 5, 5}},
  };
  GstVideoInfo info;
  guint i, k;

  scene_info (&info);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = harness_new ("clcamshift", &bus);
    RefTrack ref = { cases[i].same };

    if (!cases[i].roi)
      set_window (h->element, cases[i].x, cases[i].y, cases[i].w,
          cases[i].h);
    set_caps (h, "RGB", SCENE_W, SCENE_H);
    for (k = 0; k < 3; k++) {
      const Square sq = moving_square (k);
      GstBuffer *in = scene_frame (&info, GREY, &sq, 1, k), *out;
      ClhRotatedBox want_box;
      CamShiftMessage m;
      gchar *what = g_strdup_printf ("case %u frame %u", i, k);

      if (cases[i].roi && k == 0)
        gst_buffer_add_video_region_of_interest_meta (in, "track",
            cases[i].x, cases[i].y, cases[i].w, cases[i].h)->id = 0;
      ref_track_step (&ref, in, &info, &want_box);
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out != NULL, "%s: no frame out", what);
      m = pop_camshift_message (bus);
      assert_same_step (&m.window, &m.box, &ref.window, &want_box, what);
      gst_buffer_unref (out);
      g_free (what);
    }
    fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* A window of fewer than four values or of no pixels is ignored, with a
 * warning on the bus each; a good one gives none. */
GST_START_TEST (test_camshift_window_property)
{
  GstElement *e = gst_element_factory_make ("clcamshift", NULL);
  const gint three[3] = { 1, 2, 3 }, empty_w[4] = { 1, 2, 0, 5 };
  GstBus *bus = gst_bus_new ();
  GValue got = G_VALUE_INIT;

  gst_element_set_bus (e, bus);
  g_value_init (&got, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "window", &got);
  fail_unless_equals_int (gst_value_array_get_size (&got), 0);
  g_value_unset (&got);

  set_window (e, 4, 5, 6, 7);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_WARNING), 0);
  set_ints (e, "window", three, 3);
  fail_unless_equals_int (count_warnings_saying (bus,
          "The window <1, 2, 3> is not <x, y, width, height>"), 1);
  set_ints (e, "window", empty_w, 4);
  fail_unless_equals_int (count_warnings_saying (bus,
          "with a width and height of at least 1 pixel"), 1);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  g_value_init (&got, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "window", &got);
  fail_unless_equals_int (gst_value_array_get_size (&got), 4);
  fail_unless_equals_int (g_value_get_int (gst_value_array_get_value (&got,
              2)), 6);
  g_value_unset (&got);
  gst_object_unref (e);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* clcamshift's action signals, track quality and its metas' order */

static void
start_track (GstElement *e, guint id, gint x, gint y, gint width,
    gint height)
{
  g_signal_emit_by_name (e, "start-track", id, x, y, width, height);
}

/* Track ids up to G_MAXINT reach the ROI meta as they are; a larger one
 * is refused with a warning, so that no two tracks share a meta id. */
GST_START_TEST (test_camshift_track_id_range)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  GstVideoInfo info;
  GstBuffer *out;

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  start_track (h->element, (guint) G_MAXINT + 1, 8, 6, 20, 20);
  start_track (h->element, G_MAXUINT, 8, 6, 20, 20);
  fail_unless_equals_int (count_warnings_saying (bus,
          "the largest a region-of-interest meta carries"), 2);
  start_track (h->element, G_MAXINT, 8, 6, 20, 20);
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY,
          &red_square, 1, 0));
  fail_unless_equals_int (count_camshift_metas (out), 1);
  fail_unless_equals_int (camshift_meta (out, G_MAXINT)->id, G_MAXINT);
  gst_buffer_unref (out);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_WARNING), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* The ids of @out's camshift metas, in order, into @ids; their number. */
static guint
camshift_ids (GstBuffer *out, gint *ids, guint max)
{
  GstVideoRegionOfInterestMeta *roi;
  gpointer state = NULL;
  guint n = 0;

  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (out, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    if (roi->roi_type == g_quark_from_string ("camshift")) {
      fail_unless (n < max, "more than %u camshift metas", max);
      ids[n++] = roi->id;
    }
  return n;
}

/* Pushes @in and checks that the output has camshift metas of @want
 * (-1 ended) alone, in that order, and one message each. */
static void
expect_tracks (GstHarness *h, GstBus *bus, GstBuffer *in, const gint *want,
    const gchar *what)
{
  GstBuffer *out = gst_harness_push_and_pull (h, in);
  gint ids[16];
  guint n, i;

  fail_unless (out != NULL, "%s: no frame out", what);
  n = camshift_ids (out, ids, G_N_ELEMENTS (ids));
  for (i = 0; want[i] >= 0; i++) {
    fail_unless (i < n && ids[i] == want[i], "%s: track %d is not meta %u "
        "of %u", what, want[i], i, n);
    fail_unless_equals_int (pop_camshift_message (bus).id, want[i]);
  }
  fail_unless (n == i, "%s: %u camshift metas, expected %u", what, n, i);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL,
      "%s: a message too many", what);
  gst_buffer_unref (out);
}

/* start-track, stop-track and clear-tracks take effect on the next frame,
 * in the order emitted: before the first frame, between frames, several
 * at once; beside the window property; a request for an id no track has
 * changes nothing. */
GST_START_TEST (test_camshift_signals)
{
  const gint none[] = { -1 }, four[] = { 4, -1 }, two[] = { 2, -1 };
  const gint five[] = { 5, -1 }, zero_nine[] = { 0, 9, -1 };
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  RefTrack ref = { {8, 6, 20, 20} };
  GstVideoInfo info;
  GstBuffer *in, *out;
  ClhRotatedBox want_box;
  CamShiftMessage m;
  guint k = 0;

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  /* Before any frame: the first frame is tracked, as the reference. */
  start_track (h->element, 4, 8, 6, 20, 20);
  in = scene_frame (&info, GREY, &red_square, 1, k++);
  ref_track_step (&ref, in, &info, &want_box);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (count_camshift_metas (out), 1);
  m = pop_camshift_message (bus);
  fail_unless_equals_int (m.id, 4);
  fail_if (m.lost);
  assert_same_step (&m.window, &m.box, &ref.window, &want_box, "start-track");
  fail_unless_equals_uint64 (m.quality.m00, ref.mass.m00);
  fail_unless (m.quality.confidence == 1.0);
  gst_buffer_unref (out);
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      four, "track 4 goes on");

  g_signal_emit_by_name (h->element, "stop-track", 4);
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      none, "stop-track 4");
  g_signal_emit_by_name (h->element, "stop-track", 77);
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      none, "stop-track of no track");

  /* In order: 1 started and stopped, 2 stays. */
  start_track (h->element, 1, 8, 6, 20, 20);
  start_track (h->element, 2, 40, 30, 20, 20);
  g_signal_emit_by_name (h->element, "stop-track", 1);
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      two, "start 1, start 2, stop 1");
  start_track (h->element, 3, 8, 6, 20, 20);
  g_signal_emit_by_name (h->element, "clear-tracks");
  start_track (h->element, 5, 8, 6, 20, 20);
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      five, "start 3, clear, start 5");

  /* Beside the window property: a new window ends the signals' tracks
   * (as it ends every track), start-track adds to it, clear-tracks ends
   * track 0 too, until the window is set again. */
  set_window (h->element, 8, 6, 20, 20);
  start_track (h->element, 9, 40, 30, 20, 20);
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      zero_nine, "window and start-track 9");
  g_signal_emit_by_name (h->element, "clear-tracks");
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      none, "clear-tracks with a window");
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      none, "after clear-tracks with a window");
  set_window (h->element, 8, 6, 20, 20);
  expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k++),
      (const gint[]) { 0, -1 }, "the window again");
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Untrusted numbers: windows at the ends of the ints track as the small
 * windows that meet the frame as they do (as the window property's);
 * a width or height of 0 starts a lost track, reported every frame. */
GST_START_TEST (test_camshift_signal_windows)
{
  const struct {
    gint x, y, w, h;
    ClhRect same;
  } cases[] = {
    {G_MININT, G_MININT, G_MAXINT, G_MAXINT, {-10, -10, 5, 5}},
    {G_MAXINT, 3, G_MAXINT, 5, {SCENE_W, 3, 5, 5}},
    {-20, -20, G_MAXINT, G_MAXINT, {-20, -20, SCENE_W + 40, SCENE_H + 40}},
  };
  GstVideoInfo info;
  guint i, k;

  scene_info (&info);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstBus *bus;
    GstHarness *h = harness_new ("clcamshift", &bus);
    RefTrack ref = { cases[i].same };

    set_caps (h, "RGB", SCENE_W, SCENE_H);
    start_track (h->element, 3, cases[i].x, cases[i].y, cases[i].w,
        cases[i].h);
    for (k = 0; k < 3; k++) {
      const Square sq = moving_square (k);
      GstBuffer *in = scene_frame (&info, GREY, &sq, 1, k);
      ClhRotatedBox want_box;
      CamShiftMessage m;
      gchar *what = g_strdup_printf ("case %u frame %u", i, k);

      ref_track_step (&ref, in, &info, &want_box);
      gst_buffer_unref (gst_harness_push_and_pull (h, in));
      m = pop_camshift_message (bus);
      assert_same_step (&m.window, &m.box, &ref.window, &want_box, what);
      g_free (what);
    }
    fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* A request from a probe on the element's sink pad applies to the buffer
 * the probe sees: one pipeline, a detector in the probe. */
static GstPadProbeReturn
start_on_third (GstPad *pad, GstPadProbeInfo *info, gpointer element)
{
  if (GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info)) == 2 * GST_SECOND
      / 30)
    start_track (element, 6, 8, 6, 20, 20);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_camshift_signal_from_probe)
{
  const gint none[] = { -1 }, six[] = { 6, -1 };
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  GstPad *sink = gst_element_get_static_pad (h->element, "sink");
  GstVideoInfo info;
  guint k;

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, start_on_third,
      h->element, NULL);
  gst_object_unref (sink);
  for (k = 0; k < 4; k++)
    expect_tracks (h, bus, scene_frame (&info, GREY, &red_square, 1, k),
        k < 2 ? none : six, "probe");
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A second thread emits start-track for ids 0, 1, ... and then stop-track
 * for each while frames stream: every frame's tracks are what a prefix of
 * the requests, in order, makes (a range of ids), at least every request
 * emitted before the frame was pushed, never fewer than the frame before;
 * the frame pushed after the last request has none. For ThreadSanitizer
 * (suite 'threads'). */
#define SIGNAL_ROUNDS 48

typedef struct {
  GstElement *element;
  gint emitted;
} Signaller;

static gpointer
signal_thread (gpointer data)
{
  Signaller *sig = data;
  guint i;

  for (i = 0; i < 2 * SIGNAL_ROUNDS; i++) {
    if (i < SIGNAL_ROUNDS)
      start_track (sig->element, i, 8 + i % 30, 6 + i % 20, 20, 20);
    else
      g_signal_emit_by_name (sig->element, "stop-track", i - SIGNAL_ROUNDS);
    g_atomic_int_set (&sig->emitted, i + 1);
    g_thread_yield ();
  }
  return NULL;
}

/* The requests a frame's tracks, ids @lo..@hi - 1, are the result of. */
static gint
requests_applied (gint lo, gint hi, guint n, gint emitted_before)
{
  if (n == 0)
    return emitted_before == 0 ? 0 : 2 * SIGNAL_ROUNDS;
  return lo > 0 ? SIGNAL_ROUNDS + lo : hi;
}

GST_START_TEST (test_camshift_signals_from_thread)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  Signaller sig = { h->element, 0 };
  GstVideoInfo info;
  GThread *thread;
  gint applied = 0, frames = 0;
  gboolean done;

  scene_info (&info);
  g_object_set (h->element, "post-messages", FALSE, NULL);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  thread = g_thread_new ("signals", signal_thread, &sig);
  do {
    const gint emitted = g_atomic_int_get (&sig.emitted);
    GstBuffer *out;
    gint ids[SIGNAL_ROUNDS], now;
    guint n, i;

    done = emitted == 2 * SIGNAL_ROUNDS;
    out = gst_harness_push_and_pull (h, scene_frame (&info, GREY,
            &red_square, 1, frames++));
    fail_unless (out != NULL);
    n = camshift_ids (out, ids, SIGNAL_ROUNDS);
    for (i = 1; i < n; i++)
      fail_unless (ids[i] == ids[i - 1] + 1, "frame %d: track %d after %d",
          frames, ids[i], ids[i - 1]);
    now = requests_applied (n ? ids[0] : 0, n ? ids[n - 1] + 1 : 0, n,
        emitted);
    fail_unless (n == 0 || ids[0] == 0 || ids[n - 1] == SIGNAL_ROUNDS - 1,
        "frame %d: tracks %d..%d are no prefix of the requests", frames,
        ids[0], ids[n - 1]);
    fail_unless (now >= emitted && now >= applied, "frame %d: tracks of "
        "the first %d requests, after %d were emitted and %d applied",
        frames, now, emitted, applied);
    applied = now;
    gst_buffer_unref (out);
  } while (!done);
  g_thread_join (thread);
  fail_unless_equals_int (applied, 2 * SIGNAL_ROUNDS);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A scripted clip: each frame's squares on the grey background. */
typedef guint (*Script) (guint k, Square *squares);

/* Runs @script's @n frames through clcamshift from @start with the
 * element's min-mass and lost-frames set as given (@min_mass < 0: the
 * defaults, 0.1 and 5), each frame against the reference and the rule
 * the element documents: the reference's window, box and mass until the
 * frame with @lost_frames misses in a row (confidence under @min_mass),
 * which is reported lost with the reference's window of that frame; from
 * then on the same window, lost, an empty box and zero quality. Returns
 * the frame the track was lost on, or -1. */
static gint
run_script (Script script, guint n, ClhRect start, gdouble min_mass,
    guint lost_frames, const gchar *name)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  RefTrack ref = { start };
  GstVideoInfo info;
  gdouble first_mean = 0;
  guint misses = 0, k;
  gint lost_on = -1;

  scene_info (&info);
  if (min_mass >= 0)
    g_object_set (h->element, "min-mass", min_mass, "lost-frames",
        lost_frames, NULL);
  else
    g_object_get (h->element, "min-mass", &min_mass, "lost-frames",
        &lost_frames, NULL);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  start_track (h->element, 0, start.x, start.y, start.width, start.height);
  for (k = 0; k < n; k++) {
    Square squares[4];
    const guint n_squares = script (k, squares);
    GstBuffer *in = scene_frame (&info, GREY, squares, n_squares, k), *out;
    gchar *what = g_strdup_printf ("%s frame %u", name, k);
    ClhRotatedBox want_box;
    CamShiftMessage m;
    ClhRect frozen;
    Quality q;

    if (lost_on < 0) {
      ref_track_step (&ref, in, &info, &want_box);
      if (k == 0)
        first_mean = mean_probability (&ref.mass);
    }
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s: no frame out", what);
    m = pop_camshift_message (bus);
    q = meta_quality (camshift_meta (out, 0));
    fail_unless (memcmp (&q, &m.quality, sizeof (q)) == 0, "%s: the meta's "
        "quality is not the message's", what);
    frozen = meta_rect (camshift_meta (out, 0));
    fail_unless (memcmp (&frozen, &m.window, sizeof (frozen)) == 0);
    if (lost_on < 0) {
      const gdouble mean = mean_probability (&ref.mass);
      const gdouble confidence = first_mean > 0 ?
          MIN (mean / first_mean, 1.0) : 0.0;

      misses = confidence < min_mass ? misses + 1 : 0;
      fail_unless (memcmp (&m.window, &ref.window, sizeof (ClhRect)) == 0,
          "%s: window %d,%d %dx%d, the reference's %d,%d %dx%d", what,
          m.window.x, m.window.y, m.window.width, m.window.height,
          ref.window.x, ref.window.y, ref.window.width, ref.window.height);
      if (misses >= lost_frames)
        lost_on = k;
      else {
        assert_same_step (&m.window, &m.box, &ref.window, &want_box, what);
        assert_quality (&m.quality, &ref.mass, first_mean, what);
      }
    } else
      fail_unless (memcmp (&m.window, &ref.window, sizeof (ClhRect)) == 0,
          "%s: a lost track's window moved: %d,%d %dx%d, lost as %d,%d "
          "%dx%d", what, m.window.x, m.window.y, m.window.width,
          m.window.height, ref.window.x, ref.window.y, ref.window.width,
          ref.window.height);
    if (lost_on >= 0) {
      fail_unless (m.lost && box_is_empty (&m.box) && m.quality.m00 == 0
          && m.quality.mean_probability == 0 && m.quality.confidence == 0,
          "%s: lost since frame %d, reported lost %d, box %gx%g, m00 %"
          G_GUINT64_FORMAT ", confidence %g", what, lost_on, m.lost,
          m.box.width, m.box.height, m.quality.m00, m.quality.confidence);
    } else
      fail_if (m.lost, "%s: lost after %u misses", what, misses);
    gst_buffer_unref (out);
    g_free (what);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
  return lost_on;
}

static const Square blue_square = { 30, 20, 16, 30, 30, 220 };

/* The red square, still. */
static guint
script_still (guint k, Square *squares)
{
  squares[0] = red_square;
  return 1;
}

/* The blue square moving right 8 pixels a frame, out of the frame from
 * frame 9 (30 + 8 * 9 = 102 > 96). */
static guint
script_leaving (guint k, Square *squares)
{
  squares[0] = blue_square;
  squares[0].x += 8 * k;
  return 1;
}

/* The blue square, under grey (not drawn) on frames 6 to 13, back from 14
 * on. */
static guint
script_occluded (guint k, Square *squares)
{
  squares[0] = blue_square;
  return k < 6 || k >= 14;
}

/* The empty model (a window on grey: nothing in the mask), an object
 * leaving the frame and one covered up, under the defaults (min-mass 0.1,
 * lost-frames 5): lost on the fifth frame of nothing, the window frozen
 * from then on (the empty model's no longer grows by 20 pixels a frame),
 * not found again when the square comes back; before that every frame as
 * OpenCV's CamShift (the reference). min-mass 0 never loses a track;
 * lost-frames 1 loses it on its first miss. */
GST_START_TEST (test_camshift_lost)
{
  const ClhRect on_grey = { 60, 30, 16, 16 }, on_blue = { 28, 18, 20, 20 };

  fail_unless_equals_int (run_script (script_still, 10, on_grey, -1, 0,
          "empty model"), 4);
  fail_unless_equals_int (run_script (script_still, 10, on_grey, 0, 5,
          "empty model, min-mass 0"), -1);
  fail_unless_equals_int (run_script (script_still, 4, on_grey, 0.1, 1,
          "empty model, lost-frames 1"), 0);
  fail_unless_equals_int (run_script (script_leaving, 18, on_blue, -1, 0,
          "leaving"), 9 + 4);
  fail_unless_equals_int (run_script (script_occluded, 20, on_blue, -1, 0,
          "occluded"), 6 + 4);
  /* A short occlusion: three misses, then found again. */
  fail_unless_equals_int (run_script (script_occluded, 20, on_blue, 0.1, 9,
          "occluded, lost-frames 9"), -1);
}
GST_END_TEST;

/* On a track's first frame, as on every other, the first ROI meta of its
 * id is the camshift result: upstream's ROI metas (the track meta that
 * started it, another element's meta of the same id) follow the results,
 * unchanged and in their order; without tracks a buffer's metas keep their
 * order. */
GST_START_TEST (test_camshift_results_first)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clcamshift", &bus);
  GstVideoRegionOfInterestMeta *roi;
  GstVideoInfo info;
  GstBuffer *in, *out;
  gpointer state = NULL;
  ClhRotatedBox box;
  const gchar *types[] = { "camshift", "face", "track", "camshift" };
  const gint ids[] = { 5, 5, 5, 8 };
  guint k, i;

  scene_info (&info);
  g_object_set (h->element, "post-messages", FALSE, NULL);
  set_caps (h, "RGB", SCENE_W, SCENE_H);

  /* No track: nothing moves. */
  in = scene_frame (&info, GREY, &red_square, 1, 0);
  add_roi (in, "face", 5, 1, 2, 3, 4);
  add_roi (in, "camshift", 8, 5, 6, 7, 8);
  out = gst_harness_push_and_pull (h, in);
  roi = gst_buffer_get_video_region_of_interest_meta_id (out, 5);
  fail_unless (roi && roi->roi_type == g_quark_from_string ("face"));
  gst_buffer_unref (out);

  for (k = 1; k < 3; k++) {
    in = scene_frame (&info, GREY, &red_square, 1, k);
    add_roi (in, "face", 5, 1, 2, 3, 4);
    gst_video_region_of_interest_meta_add_param
        (gst_buffer_get_video_region_of_interest_meta_id (in, 5),
        gst_structure_new ("detection", "score", G_TYPE_DOUBLE, 0.5, NULL));
    if (k == 1)
      add_roi (in, "track", 5, 8, 6, 20, 20);
    add_roi (in, "camshift", 8, 5, 6, 7, 8);
    out = gst_harness_push_and_pull (h, in);
    roi = gst_buffer_get_video_region_of_interest_meta_id (out, 5);
    fail_unless (roi != NULL);
    fail_unless (roi->roi_type == g_quark_from_string ("camshift"),
        "frame %u: the first meta of id 5 is a %s", k,
        g_quark_to_string (roi->roi_type));
    box = meta_box (roi);
    fail_if (box_is_empty (&box), "frame %u: an empty box", k);
    /* Then upstream's, as they came. */
    state = NULL;
    for (i = 0; (roi = (GstVideoRegionOfInterestMeta *)
            gst_buffer_iterate_meta_filtered (out, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)); i++) {
      const guint j = k == 1 ? i : i + (i >= 2);

      fail_unless (j < G_N_ELEMENTS (types), "frame %u: %u ROI metas", k,
          i + 1);
      fail_unless (roi->roi_type == g_quark_from_string (types[j])
          && roi->id == ids[j], "frame %u: ROI meta %u is %s %d, expected "
          "%s %d", k, i, g_quark_to_string (roi->roi_type), roi->id,
          types[j], ids[j]);
      if (g_str_equal (types[j], "face")) {
        GstStructure *p = gst_video_region_of_interest_meta_get_param (roi,
            "detection");
        gdouble score = 0;

        fail_unless (roi->x == 1 && roi->y == 2 && roi->w == 3 && roi->h == 4
            && p && gst_structure_get_double (p, "score", &score)
            && score == 0.5, "frame %u: the face meta changed", k);
      }
      if (j == 3)
        fail_unless (roi->x == 5 && roi->y == 6 && roi->w == 7
            && roi->h == 8 && roi->params == NULL);
      if (g_str_equal (types[j], "track"))
        fail_unless (roi->x == 8 && roi->y == 6 && roi->w == 20
            && roi->h == 20);
    }
    fail_unless_equals_int (i, k == 1 ? 4 : 3);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Properties set together */

/* Two configurations of clbackproject that the grey scene tells apart,
 * and from any mix of them: hue with 4 bins puts grey (hue 0) in bin 0
 * (10), luma with 8 bins puts 128 in bin 4 (24). A half-applied change
 * gives 12 (luma, 4 bins, the hue model), 20 (hue, 8 bins, the luma
 * model) or, with the other model's length, an error. */
#define FLIPS 10000
static const gdouble hue_model[4] = { 10, 11, 12, 13 };
static const gdouble luma_model[8] = { 20, 21, 22, 23, 24, 25, 26, 27 };

/* The flipping thread and the streaming one: the flips start once a
 * frame went through and go on past FLIPS until MIN_FRAMES_FLIPPED
 * frames went through during them, however the two threads get the
 * cores. */
#define MIN_FRAMES_FLIPPED 200
typedef struct {
  GstElement *element;
  gint started;
  gint frames_flipped;
  gint done;
} Flipper;

static void
flip_values (GValue *values, GstHistogramMode mode, guint bins,
    const gdouble *model)
{
  GValue v = G_VALUE_INIT;
  guint i;

  g_value_init (&values[0], GST_TYPE_HISTOGRAM_MODE);
  g_value_set_enum (&values[0], mode);
  g_value_init (&values[1], G_TYPE_UINT);
  g_value_set_uint (&values[1], bins);
  gst_value_array_init (&values[2], bins);
  g_value_init (&v, G_TYPE_DOUBLE);
  for (i = 0; i < bins; i++) {
    g_value_set_double (&v, model[i]);
    gst_value_array_append_value (&values[2], &v);
  }
  g_value_unset (&v);
}

/* Sets (mode, bins, model) at least FLIPS times, each time in one
 * g_object_setv(), between the two configurations, ending on luma's. */
static gpointer
flip_thread (gpointer data)
{
  Flipper *f = data;
  const gchar *names[3] = { "mode", "bins", "model" };
  GValue hue[3] = { G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT };
  GValue luma[3] = { G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT };
  guint i;

  flip_values (hue, GST_HISTOGRAM_MODE_HUE, 4, hue_model);
  flip_values (luma, GST_HISTOGRAM_MODE_LUMA, 8, luma_model);
  while (!g_atomic_int_get (&f->started))
    g_thread_yield ();
  for (i = 0; i < FLIPS || i % 2 == 0
      || g_atomic_int_get (&f->frames_flipped) < MIN_FRAMES_FLIPPED; i++)
    g_object_setv (G_OBJECT (f->element), 3, names, i % 2 ? hue : luma);
  for (i = 0; i < 3; i++) {
    g_value_unset (&hue[i]);
    g_value_unset (&luma[i]);
  }
  g_atomic_int_set (&f->done, 1);
  return NULL;
}

/* The value of a uniform GRAY8 scene frame; fails unless it is one
 * frame's size and uniform. */
static guint8
uniform_value (GstBuffer *out)
{
  GstMapInfo map;
  guint8 value;
  gsize i;

  fail_unless (out != NULL, "no frame out");
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_int (map.size, SCENE_W * SCENE_H);
  value = map.data[0];
  for (i = 1; i < map.size; i++)
    fail_unless (map.data[i] == value, "pixel %" G_GSIZE_FORMAT " is %u, "
        "pixel 0 %u", i, map.data[i], value);
  gst_buffer_unmap (out, &map);
  return value;
}

/* A thread flips mode, bins and model together FLIPS times while frames
 * stream: every frame is one configuration's whole (10 or 24, never a
 * mix), none fails, and no error reaches the bus. Before the settings
 * were applied whole, a frame read between two of set_property's calls
 * failed with "The model has 8 values, but mode=hue with bins=4 needs
 * 4" or drew 12 or 20. */
GST_START_TEST (test_backproject_flip_together)
{
  const gchar *names[3] = { "mode", "bins", "model" };
  GValue hue[3] = { G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT };
  Flipper f = { 0 };
  guint n[2] = { 0, 0 }, frame = 0, i;
  GstVideoInfo info;
  GThread *thread;
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);

  flip_values (hue, GST_HISTOGRAM_MODE_HUE, 4, hue_model);
  g_object_setv (G_OBJECT (h->element), 3, names, hue);
  for (i = 0; i < 3; i++)
    g_value_unset (&hue[i]);
  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  f.element = h->element;
  thread = g_thread_new ("flipper", flip_thread, &f);
  /* Frames until the flips end, and a few after. */
  for (i = 0; !g_atomic_int_get (&f.done) || i < 4; frame++) {
    const gboolean after = g_atomic_int_get (&f.done);
    GstBuffer *out;
    guint8 v;

    fail_unless_equals_int (gst_harness_push (h, scene_frame (&info, GREY,
                NULL, 0, frame)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    v = uniform_value (out);
    fail_unless (v == 10 || v == 24, "frame %u is %u: a half-applied "
        "configuration", frame, v);
    n[v == 24]++;
    gst_buffer_unref (out);
    if (after) {
      /* The last flip is luma's. */
      fail_unless_equals_int (v, 24);
      i++;
    } else if (g_atomic_int_get (&f.started)) {
      g_atomic_int_inc (&f.frames_flipped);
    }
    g_atomic_int_set (&f.started, 1);
  }
  g_thread_join (thread);
  GST_INFO ("%u frames: %u hue, %u luma", frame, n[0], n[1]);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  fail_unless (n[0] > 0 && n[1] > 0, "%u hue frames, %u luma", n[0], n[1]);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Properties set between g_object_freeze_notify() and
 * g_object_thaw_notify() apply together at the thaw: a frame in between
 * is counted with none of them. Before, it had the new bins and the old
 * model: an error. */
GST_START_TEST (test_backproject_frozen_group)
{
  GstBus *bus;
  GstHarness *h = harness_new ("clbackproject", &bus);
  GstVideoInfo info;
  GstBuffer *out;

  scene_info (&info);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  g_object_set (h->element, "bins", 4, NULL);
  set_doubles (h->element, "model", hue_model, 4);
  g_object_freeze_notify (G_OBJECT (h->element));
  gst_util_set_object_arg (G_OBJECT (h->element), "mode", "luma");
  g_object_set (h->element, "bins", 8, NULL);
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, NULL, 0, 0));
  fail_unless_equals_int (uniform_value (out), 10);
  gst_buffer_unref (out);
  set_doubles (h->element, "model", luma_model, 8);
  g_object_thaw_notify (G_OBJECT (h->element));
  out = gst_harness_push_and_pull (h, scene_frame (&info, GREY, NULL, 0, 1));
  fail_unless_equals_int (uniform_value (out), 24);
  gst_buffer_unref (out);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Track 0's window and box on @in's frame. */
static void
camshift_step (GstHarness *h, GstBuffer *in, ClhRect *window,
    ClhRotatedBox *box)
{
  GstBuffer *out = gst_harness_push_and_pull (h, in);
  GstVideoRegionOfInterestMeta *roi;

  fail_unless (out != NULL, "no frame out");
  roi = camshift_meta (out, 0);
  *window = meta_rect (roi);
  *box = meta_box (roi);
  gst_buffer_unref (out);
}

/* clcamshift's window and bins set together between
 * g_object_freeze_notify() and g_object_thaw_notify() restart track 0 on
 * the frame after the thaw, as one g_object_set() does: its windows and
 * boxes equal those of an element given both at once. Before, the frame
 * between the two started the track at the new window with the old bins
 * (on the blue square rather than the red one). */
GST_START_TEST (test_camshift_frozen_group)
{
  const Square blue = { 62, 36, 18, 30, 30, 220 };
  const gint blue_window[4] = { 58, 32, 26, 26 };
  GstBus *bus[2];
  GstHarness *h[2];
  GstVideoInfo info;
  guint k, i;

  scene_info (&info);
  for (i = 0; i < 2; i++) {
    h[i] = harness_new ("clcamshift", &bus[i]);
    g_object_set (h[i]->element, "post-messages", FALSE, NULL);
    set_window (h[i]->element, red_square.x - 2, red_square.y - 2,
        red_square.size + 4, red_square.size + 4);
    set_caps (h[i], "RGB", SCENE_W, SCENE_H);
  }
  for (k = 0; k < 5; k++) {
    const Square squares[2] = { moving_square (k), blue };
    ClhRect window[2];
    ClhRotatedBox box[2];

    if (k == 2) {
      /* h[0] in two calls, frozen, with a frame between; h[1] in one. */
      g_object_freeze_notify (G_OBJECT (h[0]->element));
      set_ints (h[0]->element, "window", blue_window, 4);
    }
    if (k == 3) {
      g_object_set (h[0]->element, "bins", 8, NULL);
      g_object_thaw_notify (G_OBJECT (h[0]->element));
      g_object_freeze_notify (G_OBJECT (h[1]->element));
      set_ints (h[1]->element, "window", blue_window, 4);
      g_object_set (h[1]->element, "bins", 8, NULL);
      g_object_thaw_notify (G_OBJECT (h[1]->element));
    }
    for (i = 0; i < 2; i++)
      camshift_step (h[i], scene_frame (&info, GREY, squares, 2, k),
          &window[i], &box[i]);
    fail_unless (memcmp (&window[0], &window[1], sizeof (ClhRect)) == 0,
        "frame %u: window %d,%d %dx%d, expected %d,%d %dx%d", k,
        window[0].x, window[0].y, window[0].width, window[0].height,
        window[1].x, window[1].y, window[1].width, window[1].height);
    fail_unless (memcmp (&box[0], &box[1], sizeof (ClhRotatedBox)) == 0,
        "frame %u: box centre %g,%g, expected %g,%g", k, box[0].center_x,
        box[0].center_y, box[1].center_x, box[1].center_y);
    /* On the blue square from frame 3 on, on the red one before. */
    fail_unless ((box[0].center_x > 55) == (k >= 3), "frame %u: box centre "
        "%g,%g", k, box[0].center_x, box[0].center_y);
  }
  for (i = 0; i < 2; i++) {
    fail_unless_equals_int (count_messages (bus[i], GST_MESSAGE_ERROR), 0);
    clh_check_harness_teardown (h[i], bus[i]);
  }
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Errors common to both elements */

static const gchar *const both[] = { "clbackproject", "clcamshift" };

/* The element of @factory streaming 96x64 RGB: a model for clbackproject,
 * a window for clcamshift (which reads nothing without a track). */
static GstHarness *
streaming_harness (const gchar *factory, GstBus **bus)
{
  GstHarness *h = harness_new (factory, bus);

  if (g_str_equal (factory, "clbackproject"))
    set_flat_model (h->element, 16, 3.0);
  else
    set_window (h->element, 8, 6, 20, 20);
  set_caps (h, "RGB", SCENE_W, SCENE_H);
  return h;
}

/* A buffer of half the size its caps imply: STREAM error, flow error,
 * nothing out (and ASan sees no read past it); a whole frame goes on. */
GST_START_TEST (test_error_short_buffer)
{
  const gchar *factory = both[__i__];
  GstBus *bus;
  GstHarness *h = streaming_harness (factory, &bus);
  GstVideoInfo info;
  GstBuffer *whole, *half;

  scene_info (&info);
  whole = scene_frame (&info, GREY, &red_square, 1, 0);
  half = gst_buffer_copy_region (whole, GST_BUFFER_COPY_ALL, 0,
      info.size / 2);
  gst_buffer_unref (whole);
  push_expect_error (h, bus, half, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "too small");
  gst_buffer_unref (gst_harness_push_and_pull (h, scene_frame (&info, GREY,
              &red_square, 1, 1)));
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A GstVideoMeta whose stride is shorter than a row (or zero, or
 * negative): STREAM error naming the stride. */
GST_START_TEST (test_error_video_meta_stride)
{
  const gchar *factory = both[__i__];
  const gint strides[] = { SCENE_W * 3 - 1, 0, -SCENE_W * 3 };
  GstBus *bus;
  GstHarness *h = streaming_harness (factory, &bus);
  GstVideoInfo info;
  guint i;

  scene_info (&info);
  for (i = 0; i < G_N_ELEMENTS (strides); i++) {
    GstBuffer *buffer = scene_frame (&info, GREY, &red_square, 1, i);
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
    gint stride[GST_VIDEO_MAX_PLANES] = { strides[i] };

    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_RGB, SCENE_W, SCENE_H, 1, offsets, stride);
    push_expect_error (h, bus, buffer, GST_STREAM_ERROR,
        GST_STREAM_ERROR_FORMAT, "stride");
  }
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* @compact re-laid with rows of @stride bytes and a GstVideoMeta saying
 * so, or (stride 0) as it is with @extra bytes after the frame. */
static GstBuffer *
relaid (GstBuffer *compact, const GstVideoInfo *info, gint stride,
    gsize extra)
{
  const gint row = GST_VIDEO_INFO_WIDTH (info) * 3;
  const gint height = GST_VIDEO_INFO_HEIGHT (info);
  const gint src_stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  const gsize size = stride ? (gsize) stride * height : info->size + extra;
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo in, out;
  gint y;

  gst_buffer_map (compact, &in, GST_MAP_READ);
  gst_buffer_map (buffer, &out, GST_MAP_WRITE);
  memset (out.data, 0x5a, out.size);
  for (y = 0; y < height; y++)
    memcpy (out.data + (gsize) y * (stride ? stride : src_stride),
        in.data + (gsize) y * src_stride, row);
  gst_buffer_unmap (buffer, &out);
  gst_buffer_unmap (compact, &in);
  if (stride) {
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
    gint strides[GST_VIDEO_MAX_PLANES] = { stride };

    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info), height, 1,
        offsets, strides);
  }
  gst_buffer_copy_into (buffer, compact, GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  return buffer;
}

/* What a frame gives: clbackproject's bytes, or clcamshift's window and
 * box (its track started on this frame). */
static gchar *
frame_result (GstHarness *h, GstBuffer *in, gboolean backproject)
{
  GstBuffer *out;
  gchar *result;

  if (!backproject)
    set_window (h->element, 8, 6, 20, 20);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out != NULL, "no frame out");
  if (backproject) {
    GstMapInfo map;

    gst_buffer_map (out, &map, GST_MAP_READ);
    result = g_base64_encode (map.data, map.size);
    gst_buffer_unmap (out, &map);
  } else {
    GstVideoRegionOfInterestMeta *roi = camshift_meta (out, 0);
    const ClhRotatedBox box = meta_box (roi);

    result = g_strdup_printf ("%u,%u %ux%u box %a,%a %ax%a %a", roi->x,
        roi->y, roi->w, roi->h, box.center_x, box.center_y, box.width,
        box.height, box.angle);
  }
  gst_buffer_unref (out);
  return result;
}

/* Frames a well-behaved upstream may send: rows padded wider than the
 * caps' (with a GstVideoMeta), or bytes after the frame (a driver's
 * page-aligned buffer): the same result as the compact frame. */
GST_START_TEST (test_padded_frames)
{
  const gboolean backproject = g_str_equal (both[__i__], "clbackproject");
  GstBus *bus;
  GstHarness *h = streaming_harness (both[__i__], &bus);
  const gdouble model[16] = { 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 37
  };
  GstVideoInfo info;
  GstBuffer *compact;
  gchar *want, *got;

  scene_info (&info);
  if (backproject) {
    set_doubles (h->element, "model", model, 16);
    g_object_set (h->element, "min-saturation", 60, NULL);
  }
  compact = scene_frame (&info, GREY, &red_square, 1, 0);
  want = frame_result (h, gst_buffer_ref (compact), backproject);
  got = frame_result (h, relaid (compact, &info, 320, 0), backproject);
  fail_unless_equals_string (got, want);
  g_free (got);
  got = frame_result (h, relaid (compact, &info, 0, 100), backproject);
  fail_unless_equals_string (got, want);
  g_free (got);
  g_free (want);
  gst_buffer_unref (compact);
  fail_unless_equals_int (count_messages (bus, GST_MESSAGE_ERROR), 0);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* device matching nothing: READY fails with RESOURCE/NOT_FOUND naming the
 * setting and listing the devices; device-name stays NULL. */
GST_START_TEST (test_error_device_not_found)
{
  GstElement *e = gst_element_factory_make (both[__i__], NULL);
  GstBus *bus = gst_bus_new ();
  gchar *name = NULL;

  gst_element_set_bus (e, bus);
  g_object_set (e, "device", "no-such-opencl-device", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "no-such-opencl-device", "0:0 ");
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name == NULL, "device-name %s", name);

  /* Fixed, it opens. */
  g_object_set (e, "device", "auto", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}
GST_END_TEST;

/* device-name: NULL in NULL, the device's in READY (clhistogram's), NULL
 * again after. */
GST_START_TEST (test_device_name)
{
  GstElement *e = gst_element_factory_make (both[__i__], NULL);
  GstElement *ref = gst_element_factory_make ("clhistogram", NULL);
  gchar *name = NULL, *want = NULL, *device = NULL;

  g_object_get (e, "device-name", &name, "device", &device, NULL);
  fail_unless (name == NULL);
  fail_unless_equals_string (device, "auto");
  g_free (device);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_element_set_state (ref, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_get (e, "device-name", &name, NULL);
  g_object_get (ref, "device-name", &want, NULL);
  fail_unless (name != NULL && *name, "no device-name in READY");
  fail_unless_equals_string (name, want);
  g_free (name);
  g_free (want);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_state (ref, GST_STATE_NULL);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name == NULL, "device-name %s in NULL", name);
  gst_object_unref (ref);
  gst_object_unref (e);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Lifecycle */

/* appsrc ! clcamshift ! clbackproject ! appsink from NULL to PLAYING and
 * back five times with frames each time: every frame out, the track
 * starts again from the window each run (the first frame's message is
 * the same every run, although the track ended the run before far from
 * there, on the square it followed), no error. */
GST_START_TEST (test_state_cycles)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=src format=time "
      "caps=video/x-raw,format=RGB,width=96,height=64,framerate=30/1 ! "
      "clcamshift name=cs ! clbackproject name=bp bins=16 "
      "min-saturation=60 ! appsink name=sink sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *cs = gst_bin_get_by_name (GST_BIN (pipeline), "cs");
  GstElement *bp = gst_bin_get_by_name (GST_BIN (pipeline), "bp");
  GstBus *bus = gst_element_get_bus (pipeline);
  gdouble model[16] = { 200 };
  CamShiftMessage first[5];
  GstVideoInfo info;
  guint cycle, k;

  scene_info (&info);
  set_window (cs, 8, 6, 20, 20);
  set_doubles (bp, "model", model, 16);
  for (cycle = 0; cycle < 5; cycle++) {
    fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING)
        != GST_STATE_CHANGE_FAILURE, "cycle %u", cycle);
    for (k = 0; k < 6; k++) {
      /* (9, 6) pixels a frame: the last window is out of reach of the
       * first square. */
      const Square sq = moving_square (3 * k);
      GstBuffer *in = scene_frame (&info, GREY, &sq, 1, k);
      GstFlowReturn flow = GST_FLOW_ERROR;
      GstSample *sample = NULL;
      GstVideoFrame frame;
      GstVideoInfo out_info;
      CamShiftMessage m;

      g_signal_emit_by_name (src, "push-buffer", in, &flow);
      gst_buffer_unref (in);
      fail_unless_equals_int (flow, GST_FLOW_OK);
      g_signal_emit_by_name (sink, "try-pull-sample", clh_test_timeout_ns (20),
          &sample);
      fail_unless (sample != NULL, "cycle %u frame %u never came out",
          cycle, k);
      fail_unless (gst_video_info_from_caps (&out_info,
              gst_sample_get_caps (sample)));
      fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&out_info),
          GST_VIDEO_FORMAT_GRAY8);
      fail_unless (gst_video_frame_map (&frame, &out_info,
              gst_sample_get_buffer (sample), GST_MAP_READ));
      /* The square's middle 200, the grey background 0. */
      fail_unless_equals_int (((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
                  0))[(sq.y + 8) * GST_VIDEO_FRAME_PLANE_STRIDE (&frame,
                  0) + sq.x + 8], 200);
      fail_unless_equals_int (((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
                  0))[(SCENE_H - 1) * GST_VIDEO_FRAME_PLANE_STRIDE (&frame,
                  0) + SCENE_W - 1], 0);
      gst_video_frame_unmap (&frame);
      gst_sample_unref (sample);
      m = pop_camshift_message (bus);
      if (k == 0) {
        first[cycle] = m;
        if (cycle > 0)
          assert_same_step (&m.window, &m.box, &first[0].window,
              &first[0].box, "first frame of a new run");
      } else if (k == 5) {
        fail_unless (fabs (m.box.center_x - (sq.x + 8)) <= 1.5
            && fabs (m.box.center_y - (sq.y + 8)) <= 1.5,
            "cycle %u: the track did not follow the square: %g,%g for "
            "%d,%d", cycle, m.box.center_x, m.box.center_y, sq.x + 8,
            sq.y + 8);
      }
    }
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
    fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    gst_bus_set_flushing (bus, TRUE);
    gst_bus_set_flushing (bus, FALSE);
  }
  gst_object_unref (bus);
  gst_object_unref (bp);
  gst_object_unref (cs);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
}
GST_END_TEST;

/* The ClhContext an element holds, from the gst.opencl.context stored on it
 * (the pointer, for comparing). */
static gconstpointer
element_cl_context (GstElement *e)
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
  gst_context_unref (context);
  return handle;
}

/* Pops every message and counts the need-context and have-context ones of
 * gst.opencl.context. */
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

/* @up linked to @down outside any bin, on one bus: the first to go to
 * READY makes the context and announces it; the second finds it with a
 * context query (downstream or upstream), asking nobody else. */
static void
check_query_finds_context (const gchar *up_factory,
    const gchar *down_factory, gboolean downstream_first)
{
  GstElement *up = gst_element_factory_make (up_factory, NULL);
  GstElement *down = gst_element_factory_make (down_factory, NULL);
  GstElement *early = downstream_first ? down : up;
  GstElement *late = downstream_first ? up : down;
  GstPad *src = gst_element_get_static_pad (up, "src");
  GstPad *sink = gst_element_get_static_pad (down, "sink");
  GstBus *bus = gst_bus_new ();
  guint need, have;

  gst_element_set_bus (up, bus);
  gst_element_set_bus (down, bus);
  fail_unless_equals_int (gst_pad_link (src, sink), GST_PAD_LINK_OK);
  fail_unless_equals_int (gst_element_set_state (early, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  count_context_messages (bus, &need, &have);
  fail_unless (need == 1 && have == 1, "%s first: %u need, %u have",
      GST_OBJECT_NAME (early), need, have);
  fail_unless_equals_int (gst_element_set_state (late, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  count_context_messages (bus, &need, &have);
  fail_unless (need == 0 && have == 0, "%s ! %s, %s asking %s: %u need, "
      "%u have", up_factory, down_factory, GST_OBJECT_NAME (late),
      downstream_first ? "downstream" : "upstream", need, have);
  fail_unless (element_cl_context (up) == element_cl_context (down));

  gst_element_set_state (up, GST_STATE_NULL);
  gst_element_set_state (down, GST_STATE_NULL);
  gst_element_set_bus (up, NULL);
  gst_element_set_bus (down, NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (bus);
  gst_object_unref (up);
  gst_object_unref (down);
}

/* clhistogram, clcamshift and clbackproject of one pipeline share one
 * device context: made and announced once; each pair finds the other's
 * with a context query, either way. */
GST_START_TEST (test_context_shared)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc ! "
      "video/x-raw,format=RGB ! clhistogram name=h ! clcamshift name=cs ! "
      "clbackproject name=bp ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  const gchar *const names[] = { "h", "cs", "bp" };
  gconstpointer handle[3];
  guint need, have, i;

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  for (i = 0; i < 3; i++) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), names[i]);
    gchar *device_name = NULL;

    handle[i] = element_cl_context (e);
    g_object_get (e, "device-name", &device_name, NULL);
    fail_unless (device_name != NULL);
    g_free (device_name);
    gst_object_unref (e);
  }
  fail_unless (handle[0] == handle[1] && handle[1] == handle[2],
      "three elements, more than one context");
  count_context_messages (bus, &need, &have);
  fail_unless_equals_int (need, 1);
  fail_unless_equals_int (have, 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);

  check_query_finds_context ("clcamshift", "clbackproject", TRUE);
  check_query_finds_context ("clcamshift", "clbackproject", FALSE);
  check_query_finds_context ("clhistogram", "clcamshift", TRUE);
  check_query_finds_context ("clhistogram", "clcamshift", FALSE);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* Errors that need an environment of their own: tests/meson.build runs
 * each in its own process with GST_CHECKS naming it, and leaves them out
 * of the main run with GST_CHECKS_IGNORE. */

static void
require_env (const gchar *name)
{
  fail_unless (g_getenv (name) != NULL,
      "%s is not set: run this test through 'meson test'", name);
}

static void
expect_ready_fails (const gchar *factory, GQuark domain, gint code,
    const gchar *in_message, const gchar *in_debug)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstBus *bus = gst_bus_new ();
  gchar *name = NULL;

  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, domain, code, in_message, in_debug);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name == NULL);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

/* OCL_ICD_VENDORS names an empty folder: no platform at all. */
GST_START_TEST (test_env_no_opencl)
{
  require_env ("OCL_ICD_VENDORS");
  expect_ready_fails (both[__i__], GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "No OpenCL device", "pocl-opencl-icd");
}
GST_END_TEST;

/* The driver cannot compile the kernels: LIBRARY/INIT, the build log
 * (naming lines of the kernels' sources) in the debug text. */
GST_START_TEST (test_env_build_failure)
{
  require_env ("CLFAULT_BREAK_BUILD");
  expect_ready_fails (both[__i__], GST_LIBRARY_ERROR,
      GST_LIBRARY_ERROR_INIT, "could not build", ".cl:");
}
GST_END_TEST;

/* Kernel launches fail with CL_OUT_OF_RESOURCES after the first few
 * (CLFAULT_NDRANGE_OK): frames go through until then, the frame that
 * fails is an error naming it and a flow error, nothing comes out for
 * it, and nothing leaks (the leaks tracer checks). */
GST_START_TEST (test_env_opencl_failure)
{
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  GstFlowReturn flow = GST_FLOW_OK;
  guint k;

  require_env ("CLFAULT_NDRANGE_OK");
  h = streaming_harness (both[__i__], &bus);
  scene_info (&info);
  for (k = 0; k < 10; k++) {
    const Square sq = moving_square (k);

    flow = gst_harness_push (h, scene_frame (&info, GREY, &sq, 1, k));
    if (flow != GST_FLOW_OK)
      break;
    gst_buffer_unref (gst_harness_pull (h));
  }
  fail_unless (k > 0, "the first frame failed already");
  fail_unless_equals_int (flow, GST_FLOW_ERROR);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "CL_OUT_OF_RESOURCES", "clEnqueueNDRangeKernel");
  fail_unless (gst_harness_try_pull (h) == NULL);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static Suite *
cltrackers_suite (void)
{
  Suite *s = suite_create ("cltrackers");
  TCase *tc = tcase_create ("general"), *env;

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_backproject_caps_each_format);
  tcase_add_test (tc, test_caps_refused);
  tcase_add_test (tc, test_camshift_keeps_caps);
  tcase_add_test (tc, test_backproject_by_hand);
  tcase_add_test (tc, test_backproject_model_of_ints);
  tcase_add_test (tc, test_backproject_no_model);
  tcase_add_test (tc, test_backproject_model_wrong_length);
  tcase_add_test (tc, test_backproject_too_many_bins);
  tcase_add_test (tc, test_backproject_modes);
  tcase_add_test (tc, test_camshift_window_follows);
  tcase_add_test (tc, test_camshift_no_messages);
  tcase_add_test (tc, test_camshift_roi_tracks);
  tcase_add_test (tc, test_camshift_window_outside);
  tcase_add_test (tc, test_camshift_black_frame);
  tcase_add_test (tc, test_camshift_too_many_tracks);
  tcase_add_test (tc, test_camshift_window_property);
  tcase_add_test (tc, test_camshift_huge_windows);
  tcase_add_test (tc, test_camshift_signals);
  tcase_add_test (tc, test_camshift_track_id_range);
  tcase_add_test (tc, test_camshift_signal_windows);
  tcase_add_test (tc, test_camshift_signal_from_probe);
  tcase_add_test (tc, test_camshift_signals_from_thread);
  tcase_add_test (tc, test_camshift_lost);
  tcase_add_test (tc, test_camshift_results_first);
  tcase_add_test (tc, test_backproject_flip_together);
  tcase_add_test (tc, test_backproject_frozen_group);
  tcase_add_test (tc, test_camshift_frozen_group);
  tcase_add_loop_test (tc, test_error_short_buffer, 0, G_N_ELEMENTS (both));
  tcase_add_loop_test (tc, test_error_video_meta_stride, 0,
      G_N_ELEMENTS (both));
  tcase_add_loop_test (tc, test_padded_frames, 0, G_N_ELEMENTS (both));
  tcase_add_loop_test (tc, test_error_device_not_found, 0,
      G_N_ELEMENTS (both));
  tcase_add_loop_test (tc, test_device_name, 0, G_N_ELEMENTS (both));
  tcase_add_test (tc, test_state_cycles);
  tcase_add_test (tc, test_context_shared);

  env = tcase_create ("environment");
  /* As the general case: a failed build compiles first. */
  tcase_set_timeout (env, 120);
  suite_add_tcase (s, env);
  tcase_add_loop_test (env, test_env_no_opencl, 0, G_N_ELEMENTS (both));
  tcase_add_loop_test (env, test_env_build_failure, 0, G_N_ELEMENTS (both));
  tcase_add_loop_test (env, test_env_opencl_failure, 0, G_N_ELEMENTS (both));
  return s;
}

CLH_CHECK_MAIN (cltrackers);
