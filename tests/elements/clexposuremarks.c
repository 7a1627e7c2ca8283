/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clexposuremarks as a user drives it: every format it takes marked as the
 * golden reference marks it (odd sizes, the caps' padded rows, a
 * GstVideoMeta's wider ones), with the levels in percent and the colours
 * converted for the caps' range and matrix worked out here by hand; the
 * levels following the caps' range; the stripes moving; properties set
 * together; the false colour's legend in each corner and none, and
 * changed while streaming; frames without marks passed as they came; real frames of
 * vtest.avi; and what a user or upstream gets wrong (a band table that is
 * none, short buffers, strides too small, a device that does not exist).
 * The tests of the "environment" case need a process and an environment
 * of their own (no OpenCL, a broken compiler, failing launches):
 * tests/meson.build runs them one by one. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <string.h>

#include "clh-test-timeout.h"
#include "clh-check-util.h"
#include "clh-reference-frame.h"

#define ALL_MARKS "zebra+zebra-low+false-colour+brng"

/* Every format the element takes. */
static const gchar *const formats[] = {
  "GRAY8", "GRAY16_LE", "GRAY16_BE", "RGB", "BGR", "RGBA", "BGRA", "ARGB",
  "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "I420", "YV12", "Y41B", "Y42B",
  "Y444", "YUV9", "YVU9", "NV12", "NV21", "NV16", "NV61", "NV24", "YUY2",
  "UYVY", "YVYU", "VYUY", "I420_10LE", "I420_10BE", "I420_12LE", "I422_10LE",
  "I422_12LE", "Y444_10LE", "Y444_10BE", "Y444_12LE", "Y444_16LE",
  "P010_10LE", "P012_LE", "P016_LE",
};

/* The colours the tests use, as 8-bit codes worked out by hand:
 * Y' = Kr R + (1 - Kr - Kb) G + Kb B; limited range 16 + 219 Y',
 * 128 + 224 (B - Y') / (2 (1 - Kb)), 128 + 224 (R - Y') / (2 (1 - Kr));
 * full range 255 Y' (gray). E.g. yellow in BT.601: Y' = 0.886, so
 * 16 + 194.03 = 210, 128 - 112 = 16, 128 + 224 * 0.114 / 1.402 = 146.2. */
typedef enum {
  BLACK, WHITE, YELLOW, RED, N_COLOURS
} Colour;

static const guint32 colour_rgb[N_COLOURS] = {
  0x000000, 0xffffff, 0xffff00, 0xff0000
};

static const guint bt601_limited[N_COLOURS][3] = {
  {16, 128, 128}, {235, 128, 128}, {210, 16, 146}, {81, 90, 240}
};

static const guint bt709_limited[N_COLOURS][3] = {
  {16, 128, 128}, {235, 128, 128}, {219, 16, 138}, {63, 102, 240}
};

/* Gray formats: full-range BT.601 luma. */
static const guint gray_full[N_COLOURS] = { 0, 255, 226, 76 };

typedef struct {
  const gchar *format;
  guint width, height;
  gboolean bt709;
  gboolean full_range;
} Stream;

static void
stream_info (const Stream *st, GstVideoInfo *info)
{
  gst_video_info_set_format (info, gst_video_format_from_string (st->format),
      st->width, st->height);
  if (GST_VIDEO_INFO_IS_YUV (info)) {
    info->colorimetry.matrix = st->bt709 ? GST_VIDEO_COLOR_MATRIX_BT709 :
        GST_VIDEO_COLOR_MATRIX_BT601;
    info->colorimetry.range = st->full_range ? GST_VIDEO_COLOR_RANGE_0_255 :
        GST_VIDEO_COLOR_RANGE_16_235;
  }
  GST_VIDEO_INFO_FPS_N (info) = 30;
  GST_VIDEO_INFO_FPS_D (info) = 1;
}

static void
set_caps (GstHarness *h, const GstVideoInfo *info)
{
  GstCaps *caps = gst_video_info_to_caps (info);

  gst_harness_set_src_caps (h, caps);
}

/* @c in the format's code values for the caps (the test's own table). */
static void
colour_codes (const GstVideoInfo *info, Colour c, ClhMarkColour *colour)
{
  const guint shift = GST_VIDEO_INFO_COMP_DEPTH (info, 0) - 8;
  const gboolean limited = info->colorimetry.range ==
      GST_VIDEO_COLOR_RANGE_16_235;
  guint i;

  if (GST_VIDEO_INFO_IS_GRAY (info)) {
    colour->values[0] = gray_full[c];
    colour->values[1] = colour->values[2] = 0;
  } else if (GST_VIDEO_INFO_IS_RGB (info)) {
    for (i = 0; i < 3; i++)
      colour->values[i] = (colour_rgb[c] >> (16 - 8 * i)) & 0xff;
  } else {
    fail_unless (limited, "no table for full-range YUV");
    for (i = 0; i < 3; i++)
      colour->values[i] = info->colorimetry.matrix ==
          GST_VIDEO_COLOR_MATRIX_BT709 ? bt709_limited[c][i] :
          bt601_limited[c][i];
  }
  for (i = 0; i < 3; i++)
    colour->values[i] <<= shift;
}

/* A level in percent of the luma's nominal range as a code, worked out
 * here: limited 16..235 << (depth - 8), full 0..2^depth - 1, nearest. */
static guint
level_code (const GstVideoInfo *info, gdouble percent)
{
  const guint depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0);
  const gboolean limited = info->colorimetry.range ==
      GST_VIDEO_COLOR_RANGE_16_235;
  const gdouble black = limited ? 16 << (depth - 8) : 0;
  const gdouble white = limited ? 235 << (depth - 8) : (1 << depth) - 1;

  return (guint) CLAMP (floor (black + (white - black) * percent / 100 + 0.5),
      0, (1 << depth) - 1);
}

/* The settings the format tests give the element, and the spec the
 * reference draws for them. */
#define TEST_BANDS "red, 10:grey, 30:none, 60:yellow, 90:white"
static const struct {
  gdouble level;
  Colour colour;
  ClhMarkBandStyle style;
} test_bands[] = {
  {0, RED, CLH_MARK_BAND_COLOUR}, {10, BLACK, CLH_MARK_BAND_GREY},
  {30, BLACK, CLH_MARK_BAND_NONE}, {60, YELLOW, CLH_MARK_BAND_COLOUR},
  {90, WHITE, CLH_MARK_BAND_COLOUR},
};

static void
set_test_properties (GstElement *e)
{
  gst_util_set_object_arg (G_OBJECT (e), "marks", ALL_MARKS);
  g_object_set (e, "zebra-level", 80.0, "zebra-low-level", 10.0,
      "zebra-period", 6, "bands", TEST_BANDS, "zebra-colour", 0xffff00,
      "zebra-low-colour", 0xff0000, NULL);
}

static void
test_spec (const GstVideoInfo *info, guint marks, guint phase,
    ClhMarksSpec *spec)
{
  guint i;

  memset (spec, 0, sizeof (*spec));
  spec->marks = marks;
  spec->layout = GST_VIDEO_INFO_IS_GRAY (info) ? CLH_MARKS_GRAY :
      GST_VIDEO_INFO_IS_RGB (info) ? CLH_MARKS_RGB : CLH_MARKS_YUV;
  for (i = 0; i < 3; i++)
    spec->components[i] = spec->layout == CLH_MARKS_GRAY ? 0 : i;
  spec->zebra_level = level_code (info, 80.0);
  spec->zebra_low_level = level_code (info, 10.0);
  spec->zebra_period = 6;
  spec->zebra_phase = phase;
  colour_codes (info, YELLOW, &spec->zebra_colour);
  colour_codes (info, RED, &spec->zebra_low_colour);
  colour_codes (info, YELLOW, &spec->brng_colour);
  spec->n_bands = G_N_ELEMENTS (test_bands);
  for (i = 0; i < spec->n_bands; i++) {
    spec->bands[i].first = i ? level_code (info, test_bands[i].level) : 0;
    spec->bands[i].style = test_bands[i].style;
    colour_codes (info, test_bands[i].colour, &spec->bands[i].colour);
    spec->bands[i].level = test_bands[i].level;
  }
  /* The default legend: white on black, bottom-left. */
  spec->legend = CLH_MARKS_LEGEND_BOTTOM_LEFT;
  colour_codes (info, WHITE, &spec->legend_ink);
  colour_codes (info, BLACK, &spec->legend_paper);
}

/* A frame of random bytes, padding included. */
static GstBuffer *
random_frame (const GstVideoInfo *info, guint32 seed)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buffer, &map);
  g_rand_free (rand);
  return buffer;
}

static void
assert_buffers_equal (GstBuffer *got, GstBuffer *want, const gchar *what)
{
  GstMapInfo g, w;
  gsize i;

  gst_buffer_map (got, &g, GST_MAP_READ);
  gst_buffer_map (want, &w, GST_MAP_READ);
  fail_unless_equals_uint64 (g.size, w.size);
  for (i = 0; i < g.size && g.data[i] == w.data[i]; i++);
  fail_unless (i == g.size, "%s: byte %" G_GSIZE_FORMAT " of %"
      G_GSIZE_FORMAT " is %u, the reference's %u", what, i, g.size,
      i < g.size ? g.data[i] : 0, i < g.size ? w.data[i] : 0);
  gst_buffer_unmap (got, &g);
  gst_buffer_unmap (want, &w);
}

static GstHarness *
harness_new (GstBus **bus)
{
  GstHarness *h = gst_harness_new ("clexposuremarks");

  *bus = clh_check_harness_bus (h->element);
  return h;
}

/* The element's frame against the reference's for @st, every mark on. */
static void
check_stream (const Stream *st, guint32 seed)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  GstBuffer *in, *out, *want;
  ClhMarksSpec spec;
  gchar *what;

  stream_info (st, &info);
  set_test_properties (h->element);
  set_caps (h, &info);
  in = random_frame (&info, seed);
  test_spec (&info, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
      | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, 0, &spec);
  want = clh_reference_marks_of_buffer (&info, in, &spec);
  fail_unless (want != NULL);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out != NULL, "no frame out");
  what = g_strdup_printf ("%s %ux%u%s%s", st->format, st->width, st->height,
      st->bt709 ? " bt709" : "", st->full_range ? " full" : "");
  assert_buffers_equal (out, want, what);
  g_free (what);
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  clh_check_harness_teardown (h, bus);
}

/* Every format, an odd size (the caps' rows padded to 4 bytes), every
 * mark, against the reference. */
GST_START_TEST (test_each_format)
{
  const Stream st = { formats[__i__], 37, 23 };

  check_stream (&st, __i__);
}
GST_END_TEST;

/* BT.709 caps convert the colours with its matrix; a 1 x 1 frame. */
GST_START_TEST (test_bt709_and_tiny)
{
  static const Stream streams[] = {
    {"I420", 64, 36, TRUE}, {"NV12", 18, 10, TRUE},
    {"I422_10LE", 20, 6, TRUE}, {"I420", 1, 1}, {"YUY2", 1, 1},
    {"RGBA", 1, 1}, {"GRAY16_BE", 1, 1}, {"YUV9", 3, 5},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (streams); i++)
    check_stream (&streams[i], 100 + i);
}
GST_END_TEST;

/* One value over the whole frame: @y for luma (or every RGB component),
 * 128 << (depth - 8) for chroma. */
static GstBuffer *
flat_frame (const GstVideoInfo *info, guint y)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame frame;
  guint c, i, j;

  gst_video_frame_map (&frame, info, buffer, GST_MAP_WRITE);
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    const guint v = c == 0 || GST_VIDEO_INFO_IS_RGB (info) ? y :
        128u << (GST_VIDEO_INFO_COMP_DEPTH (info, c) - 8);
    const gint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c);

    for (j = 0; j < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&frame, c); j++)
      for (i = 0; i < (guint) GST_VIDEO_FRAME_COMP_WIDTH (&frame, c); i++) {
        guint8 *p = (guint8 *) GST_VIDEO_FRAME_COMP_DATA (&frame, c) + j
            * GST_VIDEO_FRAME_COMP_STRIDE (&frame, c) + i * pstride;

        if (GST_VIDEO_FRAME_COMP_DEPTH (&frame, c) > 8)
          GST_WRITE_UINT16_LE (p, v);
        else
          *p = v;
      }
  }
  gst_video_frame_unmap (&frame);
  return buffer;
}

/* The luma of pixel (x, y) of a GRAY8 or 8-bit planar YUV frame. */
static guint
luma_at (GstBuffer *buffer, const GstVideoInfo *info, guint x, guint y)
{
  GstVideoFrame frame;
  guint v;

  gst_video_frame_map (&frame, info, buffer, GST_MAP_READ);
  v = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[y *
      GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x];
  gst_video_frame_unmap (&frame);
  return v;
}

/* Whether a frame of luma @y gets zebra stripes at zebra-level @level:
 * pixel (0, 0) lies on a stripe, (3, 0) (period 4) does not. */
static gboolean
striped (const Stream *st, gdouble level, guint y)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  GstBuffer *out;
  gboolean on;

  stream_info (st, &info);
  g_object_set (h->element, "zebra-level", level, "zebra-period", 4,
      "zebra-colour", 0x000000, NULL);
  set_caps (h, &info);
  out = gst_harness_push_and_pull (h, flat_frame (&info, y));
  on = luma_at (out, &info, 0, 0) != y;
  fail_unless_equals_int (luma_at (out, &info, 3, 0), y);
  if (on)
    fail_unless_equals_int (luma_at (out, &info, 0, 0),
        info.colorimetry.range == GST_VIDEO_COLOR_RANGE_16_235 ? 16 : 0);
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
  return on;
}

/* The caps' range sets what a percent is: 95% of limited luma is
 * 16 + 0.95 * 219 = 224.05, code 224; of full range 0.95 * 255 = 242.25,
 * code 242; 100% is 235 and 255; the zebra stripes from there up,
 * exactly. */
GST_START_TEST (test_levels_follow_range)
{
  const Stream limited = { "I420", 16, 8 };
  const Stream full = { "I420", 16, 8, FALSE, TRUE };
  const Stream gray = { "GRAY8", 16, 8 };

  fail_unless (!striped (&limited, 95.0, 223));
  fail_unless (striped (&limited, 95.0, 224));
  fail_unless (!striped (&limited, 100.0, 234));
  fail_unless (striped (&limited, 100.0, 235));
  fail_unless (!striped (&full, 95.0, 241));
  fail_unless (striped (&full, 95.0, 242));
  fail_unless (!striped (&gray, 95.0, 241));
  fail_unless (striped (&gray, 95.0, 242));
  fail_unless (striped (&gray, 100.0, 255));
  fail_unless (!striped (&gray, 100.0, 254));
}
GST_END_TEST;

/* The ends of the properties' ranges, against the reference: levels of
 * -100 % and 200 % (clamped to the depth's codes: 0 and the top, so that
 * the low zebra stripes only 0 and the zebra only the top code), the
 * periods 2 and 1024 (wider than the frame), colours 0 and 0xffffff, and
 * bands at -100 % and 200 % (a band from code 0 over the first, one of
 * the top code alone). */
GST_START_TEST (test_property_ends)
{
  static const Stream streams[] = {
    {"I420", 1030, 9}, {"GRAY16_LE", 40, 6}, {"Y444_10LE", 33, 7},
    {"RGBA", 1025, 3},
  };
  static const guint periods[] = { 2, 1024 };
  guint i, p;

  for (i = 0; i < G_N_ELEMENTS (streams); i++) {
    for (p = 0; p < G_N_ELEMENTS (periods); p++) {
      GstBus *bus;
      GstHarness *h = harness_new (&bus);
      GstVideoInfo info;
      GstBuffer *in, *out, *want;
      ClhMarksSpec spec;
      guint top;

      stream_info (&streams[i], &info);
      top = (1u << GST_VIDEO_INFO_COMP_DEPTH (&info, 0)) - 1;
      gst_util_set_object_arg (G_OBJECT (h->element), "marks", ALL_MARKS);
      g_object_set (h->element, "zebra-level", 200.0, "zebra-low-level",
          -100.0, "zebra-period", periods[p], "zebra-colour", 0xffffff,
          "zebra-low-colour", 0x000000, "brng-colour", 0xffff00, "bands",
          "red, -100:grey, 200:white", NULL);
      set_caps (h, &info);
      in = random_frame (&info, 11 + i);
      memset (&spec, 0, sizeof (spec));
      spec.marks = CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
          | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG;
      spec.layout = GST_VIDEO_INFO_IS_GRAY (&info) ? CLH_MARKS_GRAY :
          GST_VIDEO_INFO_IS_RGB (&info) ? CLH_MARKS_RGB : CLH_MARKS_YUV;
      spec.components[1] = spec.layout == CLH_MARKS_GRAY ? 0 : 1;
      spec.components[2] = spec.layout == CLH_MARKS_GRAY ? 0 : 2;
      spec.zebra_level = top;
      spec.zebra_low_level = 0;
      fail_unless_equals_int (level_code (&info, 200.0), top);
      fail_unless_equals_int (level_code (&info, -100.0), 0);
      spec.zebra_period = periods[p];
      colour_codes (&info, WHITE, &spec.zebra_colour);
      colour_codes (&info, BLACK, &spec.zebra_low_colour);
      colour_codes (&info, YELLOW, &spec.brng_colour);
      spec.n_bands = 3;
      spec.bands[0].style = CLH_MARK_BAND_COLOUR;
      colour_codes (&info, RED, &spec.bands[0].colour);
      spec.bands[1].first = 0;
      spec.bands[1].style = CLH_MARK_BAND_GREY;
      spec.bands[2].first = top;
      spec.bands[2].style = CLH_MARK_BAND_COLOUR;
      colour_codes (&info, WHITE, &spec.bands[2].colour);
      want = clh_reference_marks_of_buffer (&info, in, &spec);
      fail_unless (want != NULL);
      out = gst_harness_push_and_pull (h, in);
      fail_unless (out != NULL, "no frame out");
      assert_buffers_equal (out, want, streams[i].format);
      gst_buffer_unref (out);
      gst_buffer_unref (want);
      fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
      clh_check_harness_teardown (h, bus);
    }
  }
}
GST_END_TEST;

/* zebra-moving: frame n's stripes are frame 0's moved by phase n mod the
 * period; without it they stay. */
GST_START_TEST (test_moving_zebra)
{
  const Stream st = { "NV12", 30, 14 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  guint n;

  stream_info (&st, &info);
  set_test_properties (h->element);
  g_object_set (h->element, "zebra-moving", TRUE, NULL);
  set_caps (h, &info);
  for (n = 0; n < 8; n++) {
    GstBuffer *in = random_frame (&info, 7), *out, *want;
    ClhMarksSpec spec;

    test_spec (&info, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
        | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, n % 6, &spec);
    want = clh_reference_marks_of_buffer (&info, in, &spec);
    out = gst_harness_push_and_pull (h, in);
    assert_buffers_equal (out, want, "moving zebra");
    gst_buffer_unref (out);
    gst_buffer_unref (want);
  }
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* marks set to nothing: the very buffer that came in goes out, not
 * written (a read-only buffer stays so). */
GST_START_TEST (test_no_marks_passthrough)
{
  const Stream st = { "I420", 32, 16 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  GstBuffer *in, *out, *copy;

  stream_info (&st, &info);
  gst_util_set_object_arg (G_OBJECT (h->element), "marks", "");
  set_caps (h, &info);
  in = random_frame (&info, 3);
  copy = gst_buffer_copy_deep (in);
  /* A second reference: not writable. */
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out == in, "the frame was copied");
  assert_buffers_equal (out, copy, "passed through");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_buffer_unref (copy);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A frame that is not writable (held elsewhere too) is marked in a copy;
 * the holder's stays as it was. */
GST_START_TEST (test_shared_frame_copied)
{
  const Stream st = { "Y42B", 32, 16 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  GstBuffer *in, *out, *copy, *want;
  ClhMarksSpec spec;

  stream_info (&st, &info);
  set_test_properties (h->element);
  set_caps (h, &info);
  in = random_frame (&info, 5);
  copy = gst_buffer_copy_deep (in);
  test_spec (&info, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
      | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, 0, &spec);
  want = clh_reference_marks_of_buffer (&info, in, &spec);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  fail_unless (out != in);
  assert_buffers_equal (out, want, "marked copy");
  assert_buffers_equal (in, copy, "the holder's frame");
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_buffer_unref (copy);
  gst_buffer_unref (want);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Properties set while frozen apply at the thaw, together: a frame pushed
 * in between is marked with none of them. */
GST_START_TEST (test_properties_together)
{
  const Stream st = { "I420", 24, 12 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  GstBuffer *in, *out, *want;
  ClhMarksSpec spec;

  stream_info (&st, &info);
  set_test_properties (h->element);
  set_caps (h, &info);

  g_object_freeze_notify (G_OBJECT (h->element));
  gst_util_set_object_arg (G_OBJECT (h->element), "marks", "brng");
  g_object_set (h->element, "zebra-level", 20.0, NULL);
  in = random_frame (&info, 11);
  test_spec (&info, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
      | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, 0, &spec);
  want = clh_reference_marks_of_buffer (&info, in, &spec);
  out = gst_harness_push_and_pull (h, in);
  assert_buffers_equal (out, want, "frozen: the old settings");
  gst_buffer_unref (out);
  gst_buffer_unref (want);

  g_object_thaw_notify (G_OBJECT (h->element));
  in = random_frame (&info, 12);
  spec.marks = CLH_MARK_BRNG;
  spec.zebra_level = level_code (&info, 20.0);
  want = clh_reference_marks_of_buffer (&info, in, &spec);
  out = gst_harness_push_and_pull (h, in);
  assert_buffers_equal (out, want, "thawed: the new settings");
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* The legend of the test's bands in each corner and none, set while
 * streaming, on frames of each layout, against the reference. On the
 * 320x240 I420 frame the default corner's legend (rows white, yellow,
 * red: 4 + 3 * 12 = 40 high, 8 from the edges) starts at (8, 192), its
 * paper black there, white's swatch from (12, 196); without a legend no
 * mark makes that pixel black. */
GST_START_TEST (test_legend)
{
  static const Stream streams[] = {
    {"I420", 320, 240}, {"NV12", 200, 100, TRUE}, {"RGBA", 150, 90},
    {"GRAY8", 101, 77}, {"P010_10LE", 130, 96},
  };
  static const gchar *const corners[] = { "none", "top-left", "top-right",
    "bottom-left", "bottom-right"
  };
  guint i, c;

  for (i = 0; i < G_N_ELEMENTS (streams); i++) {
    GstBus *bus;
    GstHarness *h = harness_new (&bus);
    GstVideoInfo info;
    gint def;

    stream_info (&streams[i], &info);
    set_test_properties (h->element);
    g_object_get (h->element, "legend", &def, NULL);
    fail_unless_equals_int (def, CLH_MARKS_LEGEND_BOTTOM_LEFT);
    set_caps (h, &info);
    for (c = 0; c < G_N_ELEMENTS (corners); c++) {
      GstBuffer *in = random_frame (&info, 40 + c), *out, *want;
      ClhMarksSpec spec;
      gchar *what = g_strdup_printf ("%s %ux%u, legend %s",
          streams[i].format, streams[i].width, streams[i].height,
          corners[c]);

      gst_util_set_object_arg (G_OBJECT (h->element), "legend", corners[c]);
      test_spec (&info, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
          | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, 0, &spec);
      spec.legend = (ClhMarksLegendCorner) c;
      want = clh_reference_marks_of_buffer (&info, in, &spec);
      out = gst_harness_push_and_pull (h, in);
      assert_buffers_equal (out, want, what);
      /* Paper's black (16) no mark of these makes: red, yellow, white,
       * a grey band's luma of 38 or more, BRNG's yellow for less than
       * 16. */
      if (i == 0 && c == 0)
        fail_unless (luma_at (out, &info, 8, 192) != 16, "%s: paper", what);
      if (i == 0 && c == 3) {
        fail_unless_equals_int (luma_at (out, &info, 8, 192), 16);
        fail_unless_equals_int (luma_at (out, &info, 12, 196), 235);
      }
      g_free (what);
      gst_buffer_unref (out);
      gst_buffer_unref (want);
    }
    fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

static void
push_expect_error (GstHarness *h, GstBus *bus, GstBuffer *buffer,
    GQuark domain, gint code, const gchar *in_message)
{
  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_ERROR);
  clh_check_expect_error (bus, domain, code, in_message, NULL);
  fail_unless (gst_harness_try_pull (h) == NULL, "a frame came out");
}

/* Band tables that are none: an error when a frame comes, saying what is
 * wrong, the frame lost with a flow error; a table set right makes the
 * next frame go. A wrong table does not matter without false colour. */
GST_START_TEST (test_error_bands)
{
  static const struct {
    const gchar *bands, *says;
  } bad[] = {
    {"", "0 bands"},
    {"10:red, 20:blue", "has a level"},
    {"red, blue", "has no level"},
    {"red, 20:chartreuse", "chartreuse"},
    {"red, x:blue", "no number"},
    {"red, 50:blue, 40:green", "from the lowest level up"},
    {"red, 1:red, 2:red, 3:red, 4:red, 5:red, 6:red, 7:red, 8:red, 9:red, "
          "10:red, 11:red, 12:red, 13:red, 14:red, 15:red, 16:red",
        "17 bands"},
    {"red, 20:#12345", "#12345"},
  };
  const Stream st = { "I420", 16, 8 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  guint i;

  stream_info (&st, &info);
  gst_util_set_object_arg (G_OBJECT (h->element), "marks", "false-colour");
  set_caps (h, &info);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_object_set (h->element, "bands", bad[i].bands, NULL);
    push_expect_error (h, bus, random_frame (&info, i), GST_LIBRARY_ERROR,
        GST_LIBRARY_ERROR_SETTINGS, bad[i].says);
  }
  gst_util_set_object_arg (G_OBJECT (h->element), "marks", "zebra");
  gst_buffer_unref (gst_harness_push_and_pull (h, random_frame (&info, 20)));
  g_object_set (h->element, "bands", "#102030, 50.5:none", NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "marks", "false-colour");
  gst_buffer_unref (gst_harness_push_and_pull (h, random_frame (&info, 21)));
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A buffer of half the size its caps imply: STREAM error, nothing out;
 * a whole frame goes on. */
GST_START_TEST (test_error_short_buffer)
{
  const Stream st = { "NV12", 32, 16 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  GstBuffer *whole, *half;

  stream_info (&st, &info);
  set_caps (h, &info);
  whole = random_frame (&info, 1);
  half = gst_buffer_copy_region (whole, GST_BUFFER_COPY_ALL, 0,
      info.size / 2);
  gst_buffer_unref (whole);
  push_expect_error (h, bus, half, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
      "too small");
  gst_buffer_unref (gst_harness_push_and_pull (h, random_frame (&info, 2)));
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A GstVideoMeta whose stride is shorter than a row (or zero, or
 * negative): STREAM error naming the stride, nothing written. */
GST_START_TEST (test_error_video_meta_stride)
{
  const Stream st = { "GRAY8", 32, 16 };
  const gint strides[] = { 31, 0, -32 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo info;
  guint i;

  stream_info (&st, &info);
  set_caps (h, &info);
  for (i = 0; i < G_N_ELEMENTS (strides); i++) {
    GstBuffer *buffer = random_frame (&info, i);
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
    gint stride[GST_VIDEO_MAX_PLANES] = { strides[i] };

    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_GRAY8, 32, 16, 1, offsets, stride);
    push_expect_error (h, bus, buffer, GST_STREAM_ERROR,
        GST_STREAM_ERROR_FORMAT, "stride");
  }
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* @compact's planes re-laid @extra bytes a row wider, with a GstVideoMeta
 * saying so; the padding holds 0x5a. Takes @compact. */
static GstBuffer *
padded (GstBuffer *compact, const GstVideoInfo *info, guint extra,
    GstVideoInfo *wide)
{
  GstVideoFrame in, out;
  GstBuffer *buffer;
  guint p;

  *wide = *info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    wide->stride[p] = info->stride[p] + extra;
    wide->offset[p] = p == 0 ? 0 : wide->offset[p - 1] + (gsize) wide->stride
        [p - 1] * GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, p - 1,
        GST_VIDEO_INFO_HEIGHT (info));
  }
  wide->size = wide->offset[p - 1] + (gsize) wide->stride[p - 1]
      * GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (info->finfo, p - 1,
      GST_VIDEO_INFO_HEIGHT (info));
  buffer = gst_buffer_new_allocate (NULL, wide->size, NULL);
  gst_buffer_memset (buffer, 0, 0x5a, wide->size);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      wide->offset, wide->stride);
  gst_video_frame_map (&in, info, compact, GST_MAP_READ);
  gst_video_frame_map (&out, wide, buffer, GST_MAP_WRITE);
  gst_video_frame_copy (&out, &in);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  gst_buffer_unref (compact);
  return buffer;
}

/* Rows padded wider than the caps' (a GstVideoMeta): marked as the
 * reference marks them, the padding untouched. */
GST_START_TEST (test_padded_frames)
{
  static const gchar *const padded_formats[] = { "I420", "NV21", "YUY2",
    "P010_10LE", "BGRA", "GRAY16_LE", "Y444_12LE"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (padded_formats); i++) {
    const Stream st = { padded_formats[i], 29, 13 };
    GstBus *bus;
    GstHarness *h = harness_new (&bus);
    GstVideoInfo info, wide;
    GstBuffer *in, *out, *want;
    ClhMarksSpec spec;

    stream_info (&st, &info);
    set_test_properties (h->element);
    set_caps (h, &info);
    in = padded (random_frame (&info, i), &info, 20, &wide);
    test_spec (&info, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
        | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, 0, &spec);
    want = clh_reference_marks_of_buffer (&info, in, &spec);
    out = gst_harness_push_and_pull (h, in);
    assert_buffers_equal (out, want, padded_formats[i]);
    gst_buffer_unref (out);
    gst_buffer_unref (want);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* A frame larger than its caps, as videocrop's crop meta leaves it (the
 * GstVideoMeta says the whole frame, the caps the crop): marked whole, as
 * the reference marks the whole frame. */
GST_START_TEST (test_crop_meta_frame)
{
  const Stream whole_st = { "NV12", 48, 26 }, crop_st = { "NV12", 30, 14 };
  GstBus *bus;
  GstHarness *h = harness_new (&bus);
  GstVideoInfo whole, crop;
  GstBuffer *in, *out, *want;
  GstVideoCropMeta *cm;
  ClhMarksSpec spec;

  stream_info (&whole_st, &whole);
  stream_info (&crop_st, &crop);
  set_test_properties (h->element);
  set_caps (h, &crop);
  in = random_frame (&whole, 9);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_NV12, 48, 26, 2, whole.offset, whole.stride);
  cm = gst_buffer_add_video_crop_meta (in);
  cm->x = 8;
  cm->y = 6;
  cm->width = 30;
  cm->height = 14;
  test_spec (&whole, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
      | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, 0, &spec);
  want = clh_reference_marks_of_buffer (&whole, in, &spec);
  out = gst_harness_push_and_pull (h, in);
  assert_buffers_equal (out, want, "the whole frame behind a crop");
  gst_buffer_unref (out);
  gst_buffer_unref (want);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Frames of vtest.avi as videoconvert gives them in @format: marked as
 * the reference marks them. */
static void
check_video (const gchar *format, guint n_frames)
{
  const gchar *video = g_getenv ("CLH_TEST_VIDEO");
  gchar *desc;
  GstElement *pipeline, *sink;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  GstSample *sample;
  guint n = 0;

  fail_unless (video && g_file_test (video, G_FILE_TEST_EXISTS),
      "CLH_TEST_VIDEO (%s) is no file: run this test through 'meson test', "
      "with data/vtest.avi fetched (scripts/fetch-samples.sh)", video);
  desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
      "videoconvert ! video/x-raw,format=%s ! appsink name=sink sync=false",
      video, format);
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  h = harness_new (&bus);
  set_test_properties (h->element);
  g_object_set (h->element, "zebra-level", 70.0, NULL);
  while (n < n_frames
      && (sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstBuffer *in = gst_buffer_copy_deep (gst_sample_get_buffer (sample));
    GstBuffer *out, *want;
    ClhMarksSpec spec;

    gst_video_info_from_caps (&info, gst_sample_get_caps (sample));
    if (n == 0)
      gst_harness_set_src_caps (h, gst_caps_copy (gst_sample_get_caps
              (sample)));
    test_spec (&info, CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
        | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG, 0, &spec);
    spec.zebra_level = level_code (&info, 70.0);
    want = clh_reference_marks_of_buffer (&info, in, &spec);
    out = gst_harness_push_and_pull (h, in);
    assert_buffers_equal (out, want, format);
    gst_buffer_unref (out);
    gst_buffer_unref (want);
    gst_sample_unref (sample);
    n++;
  }
  fail_unless_equals_int (n, n_frames);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  clh_check_harness_teardown (h, bus);
}

GST_START_TEST (test_vtest_frames)
{
  static const gchar *const video_formats[] = { "I420", "NV12", "YUY2",
    "RGBx", "GRAY8", "P010_10LE", "Y444_16LE"
  };

  check_video (video_formats[__i__], 12);
}
GST_END_TEST;

/* device matching nothing: READY fails with RESOURCE/NOT_FOUND naming the
 * setting; fixed, it opens and names its device. */
GST_START_TEST (test_error_device_not_found)
{
  GstElement *e = gst_element_factory_make ("clexposuremarks", NULL);
  GstBus *bus = gst_bus_new ();
  gchar *name = NULL;

  gst_element_set_bus (e, bus);
  g_object_set (e, "device", "no-such-opencl-device", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "no-such-opencl-device", NULL);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name == NULL, "device-name %s", name);
  g_object_set (e, "device", "auto", NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name != NULL && *name, "no device-name in READY");
  g_free (name);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}
GST_END_TEST;

/* clhistogram ! clexposuremarks in one pipeline share one device context,
 * through state cycles. */
GST_START_TEST (test_pipeline_shares_device)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=I420,width=64,height=48 ! clhistogram ! "
      "clexposuremarks marks=zebra+brng ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint cycle;

  for (cycle = 0; cycle < 3; cycle++) {
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (30),
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL);
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
    gst_message_unref (msg);
    gst_element_set_state (pipeline, GST_STATE_NULL);
  }
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}
GST_END_TEST;

static void
require_env (const gchar *name)
{
  fail_unless (g_getenv (name) != NULL,
      "%s is not set: run this test through 'meson test'", name);
}

/* No OpenCL platform at all: READY fails saying what to install. */
GST_START_TEST (test_env_no_opencl)
{
  GstElement *e;
  GstBus *bus;

  require_env ("OCL_ICD_VENDORS");
  e = gst_element_factory_make ("clexposuremarks", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  clh_check_expect_error (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "No OpenCL device", "pocl-opencl-icd");
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}
GST_END_TEST;

/* Kernel launches fail after the first few: frames go through until
 * then, the frame that fails is a RESOURCE error naming the call, a flow
 * error, nothing out, nothing leaked. */
GST_START_TEST (test_env_opencl_failure)
{
  const Stream st = { "I420", 32, 16 };
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  GstFlowReturn flow = GST_FLOW_OK;
  guint k;

  require_env ("CLFAULT_NDRANGE_OK");
  h = harness_new (&bus);
  stream_info (&st, &info);
  set_caps (h, &info);
  for (k = 0; k < 10; k++) {
    flow = gst_harness_push (h, random_frame (&info, k));
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
clexposuremarks_suite (void)
{
  Suite *s = suite_create ("clexposuremarks");
  TCase *tc = tcase_create ("general"), *env = tcase_create ("environment");

  tcase_set_timeout (tc, 300);
  /* A failed build compiles first: more than check's default 4 s under
   * the sanitizers on a busy machine. */
  tcase_set_timeout (env, 120);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_each_format, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_bt709_and_tiny);
  tcase_add_test (tc, test_levels_follow_range);
  tcase_add_test (tc, test_property_ends);
  tcase_add_test (tc, test_moving_zebra);
  tcase_add_test (tc, test_no_marks_passthrough);
  tcase_add_test (tc, test_shared_frame_copied);
  tcase_add_test (tc, test_properties_together);
  tcase_add_test (tc, test_legend);
  tcase_add_test (tc, test_error_bands);
  tcase_add_test (tc, test_error_short_buffer);
  tcase_add_test (tc, test_error_video_meta_stride);
  tcase_add_test (tc, test_padded_frames);
  tcase_add_test (tc, test_crop_meta_frame);
  tcase_add_loop_test (tc, test_vtest_frames, 0, 7);
  tcase_add_test (tc, test_error_device_not_found);
  tcase_add_test (tc, test_pipeline_shares_device);
  suite_add_tcase (s, env);
  tcase_add_test (env, test_env_no_opencl);
  tcase_add_test (env, test_env_opencl_failure);
  return s;
}

CLH_CHECK_MAIN (clexposuremarks);
