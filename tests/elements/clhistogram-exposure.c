/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram's exposure monitoring: the metering value of each mode
 * against a hand computation (equal and unequal zones, limited and full
 * range, 8 and 10 bits, an interval, the meta and its copies, no luma),
 * the settings that give none said once; the `exposure` alerts on a
 * scripted source (enter, stay, leave, a flap shorter than the hold, the
 * frame and the zones named, by id and by place, both kinds), each after
 * its frame's histogram message; a new grid's alerts; alerts without
 * statistics said once. */
#include <math.h>
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-check-util.h"

#define FPS 30

/* The zone of @n across @size pixels that pixel @x lies in: zone i spans
 * [i*size/n, (i+1)*size/n), as the element's grid. */
static guint
zone_of (gint x, guint n, gint size)
{
  guint i = 0;

  while (x >= (gint) ((i + 1) * (guint) size / n))
    i++;
  return i;
}

/* A frame of @info whose luma (the first plane, 8- or 16-bit samples) is
 * @values[z] in zone z of a @cols x @rows grid, chroma at mid grey. */
static GstBuffer *
zones_frame (const GstVideoInfo *info, guint cols, guint rows,
    const guint *values)
{
  const gboolean wide = GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0) > 8;
  const gint width = GST_VIDEO_INFO_WIDTH (info);
  const gint height = GST_VIDEO_INFO_HEIGHT (info);
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame frame;
  guint p;
  gint x, y;

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
          GST_MAP_WRITE));
  for (p = 1; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    const gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p);
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);

    for (y = 0; y < h; y++)
      for (x = 0; x < stride / 2; x++) {
        if (wide)
          ((guint16 *) (data + y * stride))[x] = 512;
        else
          data[y * stride + 2 * x] = data[y * stride + 2 * x + 1] = 128;
      }
  }
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      const guint i = zone_of (x, cols, width);
      const guint j = zone_of (y, rows, height);
      guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
      const guint v = values[j * cols + i];

      if (wide)
        ((guint16 *) row)[x] = v;
      else
        row[x] = v;
    }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buffer) = 0;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / FPS;
  return buffer;
}

static GstHarness *
harness_for (const gchar *description, const GstVideoInfo *info)
{
  GstHarness *h = gst_harness_new_parse (description);

  gst_harness_set_src_caps (h, gst_video_info_to_caps (info));
  return h;
}

/* The metering value and percent of one frame through @description: in
 * the message, and in the meta gst_buffer_get_histogram_meta() returns;
 * FALSE (checked to be so in both) when there is none. */
static gboolean
meter (const gchar *description, const GstVideoInfo *info, GstBuffer *frame,
    gdouble *value, gdouble *percent)
{
  GstHarness *h = harness_for (description, info);
  GstBus *bus = clh_check_harness_bus (h->element);
  GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (frame));
  GstMessage *msg = clh_check_pop_element_message (bus, "histogram");
  const GstStructure *s = gst_message_get_structure (msg);
  gdouble meta_value = -1.0, meta_percent = -1.0;
  gboolean known = gst_structure_has_field (s, "metering");

  fail_unless_equals_int (gst_histogram_meta_get_metering
      (gst_buffer_get_histogram_meta (out), &meta_value, &meta_percent),
      known);
  fail_unless_equals_int (gst_structure_has_field (s, "metering-percent"),
      known);
  if (known) {
    GstBuffer *copy = gst_buffer_copy (out);
    gdouble copied = -1.0;

    fail_unless (gst_structure_get_double (s, "metering", value));
    fail_unless (gst_structure_get_double (s, "metering-percent", percent));
    fail_unless (meta_value == *value && meta_percent == *percent,
        "the meta says %g (%g%%), the message %g (%g%%)", meta_value,
        meta_percent, *value, *percent);
    /* A copy of the buffer keeps it. */
    fail_unless (gst_histogram_meta_get_metering
        (gst_buffer_get_histogram_meta (copy), &copied, NULL));
    fail_unless (copied == *value);
    gst_buffer_unref (copy);
  }
  gst_message_unref (msg);
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
  return known;
}

static void
assert_close (gdouble got, gdouble want, const gchar *what)
{
  fail_unless (fabs (got - want) <= 1e-9 * MAX (1.0, fabs (want)),
      "%s: %.12g, by hand %.12g", what, got, want);
}

static void
check_meter (const gchar *description, const GstVideoInfo *info,
    GstBuffer *frame, gdouble want, gdouble black, gdouble white)
{
  gdouble value = 0.0, percent = 0.0;

  fail_unless (meter (description, info, frame, &value, &percent),
      "%s: no metering value", description);
  assert_close (value, want, description);
  assert_close (percent, (want - black) * 100.0 / (white - black),
      description);
}

/* 3x3 zones of 10x10 on a 30x30 gray frame, full range:
 *   10  20  30
 *   40 200  60
 *   70  80  90
 * average: 600 / 9; centre-weighted, weights 1 3 1 / 3 9 3 / 1 3 1:
 * (10 + 60 + 30 + 120 + 1800 + 180 + 70 + 240 + 90) / 25 = 2600 / 25 =
 * 104; spot: the centre, 200; weights 0 0 0 / 0 1 0 / 0 3 0:
 * (200 + 3 x 80) / 4 = 110. */
GST_START_TEST (test_metering_by_hand)
{
  const guint values[] = { 10, 20, 30, 40, 200, 60, 70, 80, 90 };
  GstVideoInfo info;
  GstBuffer *frame;
  gdouble value, percent;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 30, 30);
  frame = zones_frame (&info, 3, 3, values);
  check_meter ("clhistogram zones=3x3", &info, frame, 600.0 / 9.0, 0, 255);
  check_meter ("clhistogram metering=average", &info, frame, 600.0 / 9.0,
      0, 255);
  check_meter ("clhistogram zones=3x3 metering=centre-weighted", &info,
      frame, 104.0, 0, 255);
  check_meter ("clhistogram zones=3x3 metering=spot", &info, frame, 200.0,
      0, 255);
  check_meter ("clhistogram zones=3x3 metering=zones "
      "metering-weights=\"<0.0,0.0,0.0,0.0,1.0,0.0,0.0,3.0,0.0>\"", &info,
      frame, 110.0, 0, 255);
  /* Without the full frame, the zones' own: the same mean. */
  check_meter ("clhistogram zones=3x3 full-frame=false", &info, frame,
      600.0 / 9.0, 0, 255);
  check_meter ("clhistogram zones=3x3 full-frame=false metering=spot",
      &info, frame, 200.0, 0, 255);
  /* Channels of a gray frame: its Y. */
  check_meter ("clhistogram mode=channels zones=3x3 metering=spot", &info,
      frame, 200.0, 0, 255);
  fail_if (meter ("clhistogram zones=3x3 metering=none", &info, frame,
          &value, &percent));
  fail_if (meter ("clhistogram zones=3x3 statistics=false", &info, frame,
          &value, &percent));
  gst_buffer_unref (frame);
}
GST_END_TEST;

/* Zones of unequal size weigh by their samples: 31x31 in 3x3 zones of
 * 10, 10, 11 columns and rows (100, 100, 110 / 100, 100, 110 / 110, 110,
 * 121 pixels). Centre-weighted: sum (w n v) / sum (w n) =
 * (1*100*10 + 3*100*20 + 1*110*30 + 3*100*40 + 9*100*200 + 3*110*60
 *  + 1*110*70 + 3*110*80 + 1*121*90) / (100 + 300 + 110 + 300 + 900
 *  + 330 + 110 + 330 + 121) = 267090 / 2601; the average is the frame's
 * mean, (100*(10 + 20 + 40 + 200) + 110*(30 + 60 + 70 + 80) + 121*90) /
 * 961 = 64290 / 961. Limited-range I420: percent of 16..235. */
GST_START_TEST (test_metering_unequal_zones)
{
  const guint values[] = { 10, 20, 30, 40, 200, 60, 70, 80, 90 };
  GstVideoInfo info;
  GstBuffer *frame;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 31, 31);
  frame = zones_frame (&info, 3, 3, values);
  check_meter ("clhistogram zones=3x3 metering=centre-weighted", &info,
      frame, 267090.0 / 2601.0, 16, 235);
  check_meter ("clhistogram zones=3x3", &info, frame, 64290.0 / 961.0, 16,
      235);
  check_meter ("clhistogram zones=3x3 full-frame=false", &info, frame,
      64290.0 / 961.0, 16, 235);
  gst_buffer_unref (frame);
}
GST_END_TEST;

/* 10-bit limited range: percent of 64..940; a 4x2 grid's spot is its four
 * middle zones: (300 + 500 + 700 + 900) / 4 = 600. */
GST_START_TEST (test_metering_10_bit)
{
  const guint values[] = { 100, 300, 500, 64, 940, 700, 900, 1000 };
  GstVideoInfo info;
  GstBuffer *frame;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420_10LE, 40, 20);
  frame = zones_frame (&info, 4, 2, values);
  check_meter ("clhistogram zones=4x2 metering=spot", &info, frame, 600.0,
      64, 940);
  check_meter ("clhistogram zones=4x2", &info, frame, 4504.0 / 8.0, 64,
      940);
  gst_buffer_unref (frame);
}
GST_END_TEST;

/* RGB: luma has a value (BT.601 of grey is grey), channels and max have
 * none. An interval's value is over its frames: 100 and 200, 150. */
GST_START_TEST (test_metering_rgb_and_interval)
{
  const guint dark[] = { 100 }, bright[] = { 200 };
  GstVideoInfo info, rgb;
  GstBuffer *frame, *out;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  gdouble value, percent;
  GstMapInfo map;

  gst_video_info_set_format (&rgb, GST_VIDEO_FORMAT_RGBx, 16, 8);
  frame = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&rgb), NULL);
  gst_buffer_map (frame, &map, GST_MAP_WRITE);
  memset (map.data, 90, map.size);
  gst_buffer_unmap (frame, &map);
  check_meter ("clhistogram", &rgb, frame, 90.0, 0, 255);
  fail_if (meter ("clhistogram mode=channels", &rgb, frame, &value,
          &percent));
  fail_if (meter ("clhistogram mode=max", &rgb, frame, &value, &percent));
  gst_buffer_unref (frame);

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  h = harness_for ("clhistogram interval=1000000000 zones=2x2 "
      "metering=centre-weighted", &info);
  bus = clh_check_harness_bus (h->element);
  frame = zones_frame (&info, 1, 1, dark);
  out = gst_harness_push_and_pull (h, frame);
  fail_unless (gst_histogram_meta_get_metering (gst_buffer_get_histogram_meta
          (out), &value, NULL));
  fail_unless (value == 100.0);
  gst_buffer_unref (out);
  frame = zones_frame (&info, 1, 1, bright);
  GST_BUFFER_PTS (frame) = GST_SECOND / FPS;
  gst_buffer_unref (gst_harness_push_and_pull (h, frame));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  msg = clh_check_pop_element_message (bus, "histogram");
  fail_unless (gst_structure_get_double (gst_message_get_structure (msg),
          "metering", &value));
  fail_unless (value == 150.0, "interval metering %g", value);
  gst_message_unref (msg);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static void
append_double (GValue *array, gdouble v)
{
  GValue item = G_VALUE_INIT;

  g_value_init (&item, G_TYPE_DOUBLE);
  g_value_set_double (&item, v);
  gst_value_array_append_and_take_value (array, &item);
}

/* The warning of @bus's next warning message, which must contain @text;
 * then no other. */
static void
expect_one_warning (GstBus *bus, const gchar *text)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  GError *err = NULL;

  fail_unless (msg != NULL, "no warning");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, text), "'%s' not in '%s'", text,
      err->message);
  g_error_free (err);
  gst_message_unref (msg);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL,
      "a second warning");
}

/* Settings that cannot give a value say why, once, until they change:
 * spot without zones, weights that do not match the zones, weights all
 * 0; negative and NaN weights are refused (by GObject's check of the
 * property), more weights than zones can be by the element, the old
 * weights staying. */
GST_START_TEST (test_metering_settings_said)
{
  const guint values[] = { 50 };
  const struct {
    const gchar *description, *said;
  } cases[] = {
    {"clhistogram metering=spot", "set zones"},
    {"clhistogram metering=centre-weighted regions=\"<<0,0,4,4>>\"",
        "set zones"},
    {"clhistogram metering=zones zones=2x2 "
          "metering-weights=\"<1.0,2.0,3.0>\"", "3 values for the 4 zones"},
    {"clhistogram metering=zones zones=2x1", "0 values for the 2 zones"},
    {"clhistogram metering=zones zones=2x1 "
          "metering-weights=\"<0.0,0.0>\"", "all 0"},
  };
  GstVideoInfo info;
  GstElement *element;
  GValue weights = G_VALUE_INIT, got = G_VALUE_INIT;
  guint i, f;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 8, 4);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = harness_for (cases[i].description, &info);
    GstBus *bus = clh_check_harness_bus (h->element);

    for (f = 0; f < 3; f++) {
      GstBuffer *out = gst_harness_push_and_pull (h, zones_frame (&info, 1,
              1, values));

      fail_if (gst_histogram_meta_get_metering
          (gst_buffer_get_histogram_meta (out), NULL, NULL));
      gst_buffer_unref (out);
    }
    expect_one_warning (bus, cases[i].said);
    clh_check_harness_teardown (h, bus);
  }

  element = gst_element_factory_make ("clhistogram", NULL);
  gst_util_set_object_arg (G_OBJECT (element), "metering-weights",
      "<1.0, 2.5>");
  g_value_init (&weights, GST_TYPE_ARRAY);
  fail_unless (gst_value_deserialize (&weights, "<1.0, -2.0>"));
  CLH_ASSERT_VALUE_REFUSED (g_object_set_property (G_OBJECT (element),
          "metering-weights", &weights));
  g_value_unset (&weights);
  g_value_init (&weights, GST_TYPE_ARRAY);
  append_double (&weights, 3.0);
  append_double (&weights, NAN);
  CLH_ASSERT_VALUE_REFUSED (g_object_set_property (G_OBJECT (element),
          "metering-weights", &weights));
  g_value_unset (&weights);
  /* More than a 64x64 grid has zones: the element refuses them. */
  g_value_init (&weights, GST_TYPE_ARRAY);
  for (i = 0; i < 64 * 64 + 1; i++)
    append_double (&weights, 1.0);
  g_object_set_property (G_OBJECT (element), "metering-weights", &weights);
  g_value_init (&got, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (element), "metering-weights", &got);
  fail_unless_equals_int (gst_value_array_get_size (&got), 2);
  fail_unless (g_value_get_double (gst_value_array_get_value (&got, 1))
      == 2.5);
  g_value_unset (&weights);
  g_value_unset (&got);
  gst_object_unref (element);
}
GST_END_TEST;

/* What a scripted frame holds: in each zone of 2x2 zones over a 40x20
 * GRAY8 frame (20x10 each, 200 pixels), how many pixels are at 255 and
 * how many at 0; the rest is mid grey. */
typedef struct {
  guint clipped[4];
  guint crushed[4];
} Script;

static GstBuffer *
scripted_frame (const GstVideoInfo *info, const Script *script, guint i)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame frame;
  guint z, n;

  gst_buffer_memset (buffer, 0, 128, GST_VIDEO_INFO_SIZE (info));
  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
          GST_MAP_WRITE));
  for (z = 0; z < 4; z++)
    for (n = 0; n < script->clipped[z] + script->crushed[z]; n++) {
      const guint x = (z % 2) * 20 + n % 20, y = (z / 2) * 10 + n / 20;
      guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

      row[x] = n < script->clipped[z] ? 255 : 0;
    }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buffer) = gst_util_uint64_scale (i, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buffer) = gst_util_uint64_scale (i + 1, GST_SECOND,
      FPS) - GST_BUFFER_PTS (buffer);
  return buffer;
}

static gchar *
ints_of (const GValue *array)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < gst_value_array_get_size (array); i++)
    g_string_append_printf (s, "%s%d", i ? "," : "",
        g_value_get_int (gst_value_array_get_value (array, i)));
  return g_string_free (s, FALSE);
}

/* The zones of @s's @ids (`zones` or `active-zones`) by their places,
 * "row:column:position" each, from the fields beside them (@stem-row,
 * @stem-column, @stem-position), which must have as many values. */
static gchar *
places_of (const GstStructure *s, const gchar *ids, const gchar *stem)
{
  const guint n = gst_value_array_get_size (gst_structure_get_value (s,
          ids));
  const gchar *suffixes[] = { "-row", "-column", "-position" };
  const GValue *fields[3];
  GString *out = g_string_new (NULL);
  guint f, i;

  for (f = 0; f < 3; f++) {
    gchar *name = g_strconcat (stem, suffixes[f], NULL);

    fields[f] = gst_structure_get_value (s, name);
    fail_unless (fields[f] && GST_VALUE_HOLDS_ARRAY (fields[f]), "no %s",
        name);
    fail_unless_equals_int (gst_value_array_get_size (fields[f]), n);
    g_free (name);
  }
  for (i = 0; i < n; i++)
    g_string_append_printf (out, "%s%u:%u:%s", i ? "," : "",
        g_value_get_uint (gst_value_array_get_value (fields[0], i)),
        g_value_get_uint (gst_value_array_get_value (fields[1], i)),
        g_value_get_string (gst_value_array_get_value (fields[2], i)));
  return g_string_free (out, FALSE);
}

/* One `exposure` message expected: on frame @frame, of @alert, @event,
 * naming the frame (or not) and @zones (at @places: "row:column:position"
 * each), with @active_zones (at @active_places) on after. */
typedef struct {
  guint frame;
  const gchar *alert;
  const gchar *event;
  gboolean whole;
  const gchar *zones;
  gboolean active;
  const gchar *active_zones;
  const gchar *places;
  const gchar *active_places;
} Expected;

static void
check_exposure (const GstStructure *s, const Expected *want)
{
  gboolean whole, active;
  guint64 pts;
  gchar *zones, *active_zones;

  fail_unless (gst_structure_get (s, "timestamp", G_TYPE_UINT64, &pts,
          "frame", G_TYPE_BOOLEAN, &whole, "active", G_TYPE_BOOLEAN,
          &active, NULL));
  fail_unless_equals_uint64 (pts, gst_util_uint64_scale (want->frame,
          GST_SECOND, FPS));
  fail_unless_equals_string (gst_structure_get_string (s, "alert"),
      want->alert);
  fail_unless_equals_string (gst_structure_get_string (s, "event"),
      want->event);
  fail_unless_equals_int (whole, want->whole);
  fail_unless_equals_int (gst_structure_has_field (s, "frame-percent"),
      want->whole);
  zones = ints_of (gst_structure_get_value (s, "zones"));
  active_zones = ints_of (gst_structure_get_value (s, "active-zones"));
  fail_unless_equals_string (zones, want->zones);
  fail_unless_equals_string (active_zones, want->active_zones);
  fail_unless_equals_int (active, want->active);
  fail_unless_equals_int (gst_value_array_get_size (gst_structure_get_value
          (s, "zone-percent")), gst_value_array_get_size
      (gst_structure_get_value (s, "zones")));
  g_free (zones);
  g_free (active_zones);
  zones = places_of (s, "zones", "zone");
  active_zones = places_of (s, "active-zones", "active-zone");
  fail_unless_equals_string (zones, want->places);
  fail_unless_equals_string (active_zones, want->active_places);
  g_free (zones);
  g_free (active_zones);
}

/* 30 fps, clipped alert at 10% of an area's samples, crushed at 20%, 2
 * points of hysteresis, a 100 ms (3 frames) hold:
 *   frames 5-12 zone 1 30% clipped (the frame 7.5%): starts at 8;
 *   13-14 0%: a flap shorter than the hold; 15-20 30%, 21 9% (in the
 *   band), 22-30 0%: clears at 25; 31-32 30%, then 0%: never starts;
 *   41-47 every zone 50% (the frame too): starts at 44 on the frame and
 *   zones 0-3; 48-55 0%: clears at 51; 60-66 zone 3 25% crushed: starts
 *   at 63; then 0%: clears at 70.
 * Each `exposure` message comes after its frame's `histogram` message. */
GST_START_TEST (test_alerts_scripted)
{
#define ALL_PLACES "0:0:top-left,0:1:top-right,1:0:bottom-left," \
    "1:1:bottom-right"
  const Expected expected[] = {
    {8, "clipped", "start", FALSE, "1", TRUE, "1", "0:1:top-right",
        "0:1:top-right"},
    {25, "clipped", "clear", FALSE, "1", FALSE, "", "0:1:top-right", ""},
    {44, "clipped", "start", TRUE, "0,1,2,3", TRUE, "0,1,2,3", ALL_PLACES,
        ALL_PLACES},
    {51, "clipped", "clear", TRUE, "0,1,2,3", FALSE, "", ALL_PLACES, ""},
    {63, "crushed", "start", FALSE, "3", TRUE, "3", "1:1:bottom-right",
        "1:1:bottom-right"},
    {70, "crushed", "clear", FALSE, "3", FALSE, "", "1:1:bottom-right", ""},
  };
#undef ALL_PLACES
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  guint i, seen = 0;
  guint64 last_histogram = GST_CLOCK_TIME_NONE;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 40, 20);
  h = harness_for ("clhistogram zones=2x2 alert-clipped=10 "
      "alert-crushed=20 alert-hysteresis=2 alert-hold=100000000", &info);
  bus = clh_check_harness_bus (h->element);
  for (i = 0; i < 75; i++) {
    Script script = { {0}, {0} };
    guint z;

    if ((i >= 5 && i <= 12) || (i >= 15 && i <= 20) || i == 31 || i == 32)
      script.clipped[1] = 60;
    else if (i == 21)
      script.clipped[1] = 18;
    else if (i >= 41 && i <= 47)
      for (z = 0; z < 4; z++)
        script.clipped[z] = 100;
    if (i >= 60 && i <= 66)
      script.crushed[3] = 50;
    gst_buffer_unref (gst_harness_push_and_pull (h, scripted_frame (&info,
                &script, i)));
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);
    guint64 pts;

    fail_unless (gst_structure_get_uint64 (s, "timestamp", &pts));
    if (gst_structure_has_name (s, "histogram")) {
      last_histogram = pts;
    } else {
      fail_unless (gst_structure_has_name (s, "exposure"));
      fail_unless (seen < G_N_ELEMENTS (expected), "an exposure message "
          "at %" GST_TIME_FORMAT, GST_TIME_ARGS (pts));
      check_exposure (s, &expected[seen++]);
      fail_unless_equals_uint64 (last_histogram, pts);
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (seen, G_N_ELEMENTS (expected));
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A new grid clears the alerts of the old one naming their zones in the
 * old grid (zone 3 of 2x2 is the bottom right, not 5x5's r0c3); those
 * of the new grid start on the same frame, named in it: the bottom-right
 * quarter of 40x20 clipped fills 5x5's zones of 8x4 below and right of
 * (20, 10) to 50% or more, but the one at (16, 8), a quarter. */
GST_START_TEST (test_alerts_new_grid)
{
  const Expected expected[] = {
    {0, "clipped", "start", FALSE, "3", TRUE, "3", "1:1:bottom-right",
        "1:1:bottom-right"},
    {1, "clipped", "clear", FALSE, "3", FALSE, "", "1:1:bottom-right", ""},
    {1, "clipped", "start", FALSE, "13,14,17,18,19,22,23,24", TRUE,
          "13,14,17,18,19,22,23,24",
          "2:3:r2c3,2:4:r2c4,3:2:r3c2,3:3:r3c3,3:4:r3c4,4:2:r4c2,4:3:r4c3,"
          "4:4:r4c4",
        "2:3:r2c3,2:4:r2c4,3:2:r3c2,3:3:r3c3,3:4:r3c4,4:2:r4c2,4:3:r4c3,"
          "4:4:r4c4"},
  };
  const Script script = { {0, 0, 0, 200}, {0} };
  GstElement *element;
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  guint seen = 0;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 40, 20);
  h = harness_for ("clhistogram zones=2x2 alert-clipped=50 alert-hold=0 "
      "post-messages=false", &info);
  bus = clh_check_harness_bus (h->element);
  gst_buffer_unref (gst_harness_push_and_pull (h, scripted_frame (&info,
              &script, 0)));
  element = gst_harness_find_element (h, "clhistogram");
  g_object_set (element, "zones", "5x5", NULL);
  gst_object_unref (element);
  gst_buffer_unref (gst_harness_push_and_pull (h, scripted_frame (&info,
              &script, 1)));
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    fail_unless (seen < G_N_ELEMENTS (expected), "one exposure message "
        "more than expected");
    check_exposure (gst_message_get_structure (msg), &expected[seen++]);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (seen, G_N_ELEMENTS (expected));
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* With neither messages nor metas, alerts still count and post; the
 * shares in the message; the frame's alert on limited-range YUV, whose
 * highlights clip at 235 and whose chroma is not exposure. */
GST_START_TEST (test_alerts_alone)
{
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  const GstStructure *s;
  const guint values[] = { 235 };
  gdouble percent;
  GstBuffer *out;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 16, 8);
  h = harness_for ("clhistogram mode=channels post-messages=false "
      "attach-meta=false alert-clipped=50 alert-hold=0", &info);
  bus = clh_check_harness_bus (h->element);
  out = gst_harness_push_and_pull (h, zones_frame (&info, 1, 1, values));
  fail_if (gst_buffer_get_histogram_meta (out));
  gst_buffer_unref (out);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "exposure"));
  fail_unless (gst_structure_get_double (s, "frame-percent", &percent));
  fail_unless (percent == 100.0);
  fail_unless (gst_structure_get_double (s, "threshold", &percent));
  fail_unless (percent == 50.0);
  gst_message_unref (msg);
  fail_if (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT));
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Alerts on a count without statistics: said once, nothing posted. */
GST_START_TEST (test_alerts_without_statistics)
{
  const guint values[] = { 255 };
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 8, 4);
  h = harness_for ("clhistogram statistics=false alert-clipped=1 "
      "alert-hold=0", &info);
  bus = clh_check_harness_bus (h->element);
  for (i = 0; i < 3; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h, zones_frame (&info, 1,
                1, values)));
  expect_one_warning (bus, "statistics=true");
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    fail_if (gst_structure_has_name (gst_message_get_structure (msg),
            "exposure"));
    gst_message_unref (msg);
  }
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Alerts turned off with the statistics, in one g_object_set(): the
 * alert that was on clears on the next frame all the same (a frame
 * without statistics has no shares, but an alert that is off needs
 * none). */
GST_START_TEST (test_alerts_off_without_statistics)
{
  const guint values[] = { 255 };
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  const gchar *events[2] = { NULL, NULL };
  GstElement *element;
  gboolean active = TRUE;
  guint i, n = 0;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 8, 4);
  h = harness_for ("clhistogram alert-clipped=1 alert-hold=0", &info);
  bus = clh_check_harness_bus (h->element);
  gst_buffer_unref (gst_harness_push_and_pull (h, zones_frame (&info, 1, 1,
              values)));
  element = gst_harness_find_element (h, "clhistogram");
  g_object_set (element, "alert-clipped", 0.0, "statistics", FALSE, NULL);
  gst_object_unref (element);
  for (i = 0; i < 2; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h, zones_frame (&info, 1,
                1, values)));
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (msg);

    if (gst_structure_has_name (s, "exposure")) {
      fail_unless (n < 2, "a third exposure message");
      events[n++] = g_intern_string (gst_structure_get_string (s, "event"));
      fail_unless (gst_structure_get_boolean (s, "active", &active));
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (n, 2);
  fail_unless_equals_string (events[0], "start");
  fail_unless_equals_string (events[1], "clear");
  fail_if (active);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static Suite *
clhistogram_exposure_suite (void)
{
  Suite *s = suite_create ("clhistogram-exposure");
  TCase *tc = tcase_create ("exposure");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_metering_by_hand);
  tcase_add_test (tc, test_metering_unequal_zones);
  tcase_add_test (tc, test_metering_10_bit);
  tcase_add_test (tc, test_metering_rgb_and_interval);
  tcase_add_test (tc, test_metering_settings_said);
  tcase_add_test (tc, test_alerts_scripted);
  tcase_add_test (tc, test_alerts_new_grid);
  tcase_add_test (tc, test_alerts_alone);
  tcase_add_test (tc, test_alerts_without_statistics);
  tcase_add_test (tc, test_alerts_off_without_statistics);
  return s;
}

CLH_CHECK_MAIN (clhistogram_exposure);
