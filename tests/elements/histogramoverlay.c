/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The histogramoverlay element, through GstHarness: on every format, odd
 * sizes and padded strides, the graph's samples hold the colours the
 * documentation gives and every other byte of the buffer is the input's;
 * frames with nothing to draw leave as the same buffer; alpha, log-scale,
 * clipping, region metas, multi-dimensional metas, property changes, and
 * a real pipeline behind clhistogram. Then the annotations: the box
 * relative to the frame, the graticule's and legal marks' columns and
 * the bars they stay under, the legend and clipped shares, the clip
 * indicators lit and unlit, the zone grid's colours as zones enter and
 * leave the thresholds, and everything drawn on every format staying in
 * the box and the zones. */
#include <math.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-test-timeout.h"
#include "clh-check-util.h"

static const gchar *const formats[] = {
  "GRAY8", "RGB", "BGR", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx",
  "xRGB", "xBGR", "I420", "YV12", "Y41B", "Y42B", "Y444", "YUV9", "YVU9",
  "NV12", "NV21", "NV16", "NV61", "NV24", "YUY2", "UYVY", "YVYU", "VYUY",
};

/* The colours the graph is drawn in, and the values they take: the RGB
 * formats' own, BT.601 limited range Y'CbCr (the caps' default for
 * these sizes) and BT.601 full-range luma for GRAY8. */
enum {
  WHITE, RED, GREEN, BLUE, BLACK,
};
static const guint8 rgb_values[][3] = {
  {255, 255, 255}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {0, 0, 0},
};
static const guint8 yuv_values[][3] = {
  {235, 128, 128}, {81, 90, 240}, {145, 54, 34}, {41, 240, 110},
  {16, 128, 128},
};
static const guint8 gray_values[] = { 255, 76, 150, 29, 0 };

/* The background box's opacity at alpha 1: three quarters of the bars'. */
#define BACKGROUND_OPACITY 191

static guint8
colour_value (const GstVideoFormatInfo *finfo, gint colour, guint comp)
{
  if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo))
    return rgb_values[colour][comp];
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo))
    return yuv_values[colour][comp];
  return gray_values[colour];
}

/* A frame whose every byte (padding included) holds a pattern; @padded
 * lays its planes out with padding on every side, as a GstVideoMeta says. */
static GstBuffer *
frame_new (const gchar *format, gint width, gint height, gboolean padded,
    GstVideoInfo *info)
{
  GstBuffer *buffer;
  GstMapInfo map;
  gsize i;

  fail_unless (gst_video_info_set_format (info,
          gst_video_format_from_string (format), width, height));
  if (padded) {
    GstVideoAlignment align;

    gst_video_alignment_reset (&align);
    align.padding_top = 4;
    align.padding_left = 8;
    align.padding_right = 12;
    align.padding_bottom = 3;
    fail_unless (gst_video_info_align (info, &align));
  }
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) (i * 37 + 11);
  gst_buffer_unmap (buffer, &map);
  if (padded)
    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), width, height,
        GST_VIDEO_INFO_N_PLANES (info), info->offset, info->stride);
  GST_BUFFER_PTS (buffer) = 0;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static GstHistogramMeta *
add_region_meta (GstBuffer *buffer, GstHistogramMode mode, guint n_channels,
    const gchar *const *names, guint n_dims, const guint *shape,
    const guint32 *counts, const GstHistogramRegion *region)
{
  GstHistogramInfo info;

  gst_histogram_info_init (&info);
  fail_unless (gst_histogram_info_set_format (&info, mode, n_channels, names,
          n_dims, shape));
  return gst_buffer_add_histogram_meta (buffer, &info, region, counts,
      (gsize) info.n_channels * info.n_bins);
}

static GstHistogramMeta *
add_meta (GstBuffer *buffer, guint n_channels, const gchar *const *names,
    guint n_bins, const guint32 *counts)
{
  const GstHistogramRegion frame = { GST_HISTOGRAM_REGION_FRAME, 0, 0, 0,
    1, 1
  };

  return add_region_meta (buffer, GST_HISTOGRAM_MODE_CHANNELS, n_channels,
      names, 1, &n_bins, counts, &frame);
}

/* A harness of the overlay with its defaults, on @format frames of
 * @width x @height with the caps' default colorimetry, or @colorimetry. */
static GstHarness *
annotated_harness_new (const gchar *format, gint width, gint height,
    const gchar *colorimetry)
{
  GstHarness *h = gst_harness_new ("histogramoverlay");
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=30/1%s%s", format, width, height,
      colorimetry ? ",colorimetry=" : "", colorimetry ? colorimetry : "");

  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
  return h;
}

/* A harness of the overlay drawing the bar graph alone: no graticule,
 * legal marks, legend or clipped shares, whose pixels the graph's tests
 * check one by one. */
static GstHarness *
harness_new (const gchar *format, gint width, gint height)
{
  GstHarness *h = annotated_harness_new (format, width, height, NULL);

  g_object_set (h->element, "legal-marks", FALSE, "legend", FALSE,
      "clipping-text", FALSE, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
  return h;
}

static void
set_rectangle (GstHarness *h, gint x, gint y, gint width, gint height)
{
  g_object_set (h->element, "x", x, "y", y, "width", width, "height", height,
      NULL);
}

/* The colour the test's graph has at pixel (@px, @py) of the frame: the
 * index of a colour, or -1 for the background box. */
typedef gint (*ExpectFunc) (gint px, gint py, gpointer user_data);

/* Byte offset of component @comp's sample (@sx, @sy) in a frame laid out
 * as @info says. */
static gsize
sample_offset (const GstVideoInfo *info, guint comp, gint sx, gint sy)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp);

  return info->offset[plane] + (gsize) sy * info->stride[plane]
      + GST_VIDEO_FORMAT_INFO_POFFSET (finfo, comp)
      + (gsize) sx * GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, comp);
}

/* Checks @out against @in: every sample whose co-sited pixel lies in
 * the rectangle (@rx, @ry, @rw, @rh), clipped, holds what @expect says
 * (bars exactly, the background box within 1 of the input blended with
 * black at BACKGROUND_OPACITY), and every other byte of the buffer is the
 * input's. Returns how many samples hold a bar's colour. */
static guint
check_frame (const GstVideoInfo *info, const guint8 *in, const guint8 *out,
    gsize size, gint rx, gint ry, gint rw, gint rh, ExpectFunc expect,
    gpointer user_data)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gboolean *drawn = g_new0 (gboolean, size);
  guint bar_samples = 0;
  guint comp;
  gsize i;

  for (comp = 0; comp < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); comp++) {
    gint w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp);
    gint h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp);
    gint cw = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, comp,
        GST_VIDEO_INFO_WIDTH (info));
    gint ch = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, comp,
        GST_VIDEO_INFO_HEIGHT (info));
    gint sx, sy;

    for (sy = 0; sy < ch; sy++) {
      for (sx = 0; sx < cw; sx++) {
        gint px = sx << w_sub, py = sy << h_sub;
        gsize at = sample_offset (info, comp, sx, sy);
        gint colour, want;

        fail_unless (at < size);
        if (px < rx || px >= rx + rw || py < ry || py >= ry + rh)
          continue;
        drawn[at] = TRUE;
        colour = expect (px, py, user_data);
        if (colour >= 0) {
          want = comp == GST_VIDEO_COMP_A ? 255 : colour_value (finfo,
              colour, comp);
          fail_unless_equals_int_hex (out[at], want);
          bar_samples++;
        } else {
          if (comp == GST_VIDEO_COMP_A)
            want = in[at] + (255 - in[at]) * BACKGROUND_OPACITY / 255;
          else
            want = (in[at] * (255 - BACKGROUND_OPACITY)
                + colour_value (finfo, BLACK, comp) * BACKGROUND_OPACITY)
                / 255;
          fail_unless (ABS (out[at] - want) <= 1,
              "background sample %u (%d, %d): %u, want %d from %u", comp, px,
              py, out[at], want, in[at]);
        }
      }
    }
  }
  for (i = 0; i < size; i++)
    if (!drawn[i] && in[i] != out[i])
      fail ("byte %" G_GSIZE_FORMAT " outside the graph changed: %u -> %u",
          i, in[i], out[i]);
  g_free (drawn);
  return bar_samples;
}

/* The graph of the format tests: channels R, G, B over 4 bins, each with
 * one non-empty bin (R's and G's the tallest, B's half as tall), the
 * last bin empty, in a rectangle of 40 x 30 (10 columns per bin). */
static const gchar *const rgb_names[] = { "R", "G", "B" };
static const guint32 rgb_counts[] = {
  8, 0, 0, 0,
  0, 8, 0, 0,
  0, 0, 4, 0,
};

typedef struct {
  gint x, y, width, height;
} Rect;

static gint
expect_rgb_graph (gint px, gint py, gpointer user_data)
{
  const Rect *rect = user_data;
  gint bin = (px - rect->x) * 4 / rect->width;
  gint from_bottom = rect->y + rect->height - 1 - py;
  static const gint colours[] = { RED, GREEN, BLUE };
  static const gint heights[] = { 30, 30, 15, 0 };

  if (bin < 3 && from_bottom < heights[bin])
    return colours[bin];
  return -1;
}

/* Pushes @in through @h and checks the result as check_frame() does. */
static guint
push_and_check (GstHarness *h, GstBuffer *in, const GstVideoInfo *info,
    const Rect *rect, ExpectFunc expect)
{
  GstMapInfo in_map, out_map;
  GstBuffer *out;
  guint8 *before;
  gsize size;
  guint bars;

  gst_buffer_map (in, &in_map, GST_MAP_READ);
  before = g_memdup2 (in_map.data, in_map.size);
  size = in_map.size;
  gst_buffer_unmap (in, &in_map);

  out = gst_harness_push_and_pull (h, in);
  fail_unless (out != NULL);
  fail_unless (gst_buffer_map (out, &out_map, GST_MAP_READ));
  fail_unless_equals_uint64 (out_map.size, size);
  bars = check_frame (info, before, out_map.data, size, rect->x, rect->y,
      rect->width, rect->height, expect, (gpointer) rect);
  fail_unless (gst_buffer_get_histogram_meta (out) != NULL,
      "the histogram left the buffer");
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unref (out);
  g_free (before);
  return bars;
}

GST_START_TEST (test_formats)
{
  const gchar *format = formats[__i__];
  static const struct {
    gint width, height;
    Rect rect;
  } cases[] = {
    {64, 48, {5, 3, 40, 30}},
    {33, 17, {3, 1, 40, 30}},   /* odd size, the graph clipped right and below */
    {33, 17, {-7, -20, 40, 30}},        /* clipped left and above */
  };
  guint c, padded;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (padded = 0; padded < 2; padded++) {
      GstHarness *h = harness_new (format, cases[c].width, cases[c].height);
      GstVideoInfo info;
      GstBuffer *in = frame_new (format, cases[c].width, cases[c].height,
          padded, &info);
      const Rect *rect = &cases[c].rect;
      guint bars;

      GST_INFO ("%s %dx%d%s", format, cases[c].width, cases[c].height,
          padded ? " padded" : "");
      set_rectangle (h, rect->x, rect->y, rect->width, rect->height);
      g_object_set (h->element, "alpha", 1.0, NULL);
      add_meta (in, 3, rgb_names, 4, rgb_counts);
      bars = push_and_check (h, in, &info, rect, expect_rgb_graph);
      fail_unless (bars > 0, "%s: no bar drawn", format);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* A read-only buffer whose caller keeps a reference: neither writable nor
 * mappable for writing. */
static GstBuffer *
read_only_frame_new (const gchar *format, gint width, gint height,
    GstVideoInfo *info)
{
  GstBuffer *frame = frame_new (format, width, height, FALSE, info);
  GstMapInfo map;
  GstBuffer *buffer;
  gpointer data;

  gst_buffer_map (frame, &map, GST_MAP_READ);
  data = g_memdup2 (map.data, map.size);
  buffer = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, data,
      map.size, 0, map.size, data, g_free);
  gst_buffer_unmap (frame, &map);
  gst_buffer_unref (frame);
  return buffer;
}

/* Pushes @in (while the test keeps a reference) and checks that the very
 * same buffer, unchanged, comes out. */
static void
assert_passes_untouched (GstHarness *h, GstBuffer *in)
{
  GstMapInfo before, after;
  guint8 *copy;
  GstBuffer *out;

  gst_buffer_map (in, &before, GST_MAP_READ);
  copy = g_memdup2 (before.data, before.size);
  gst_buffer_unmap (in, &before);

  gst_buffer_ref (in);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out == in, "the frame was copied");
  gst_buffer_map (out, &after, GST_MAP_READ);
  fail_unless (memcmp (copy, after.data, after.size) == 0);
  gst_buffer_unmap (out, &after);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (copy);
}

GST_START_TEST (test_no_meta_same_buffer)
{
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = harness_new (formats[f], 64, 48);
    GstVideoInfo info;
    GstBuffer *in = read_only_frame_new (formats[f], 64, 48, &info);

    assert_passes_untouched (h, in);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_alpha_zero)
{
  GstHarness *h = harness_new ("RGBA", 64, 48);
  GstVideoInfo info;
  GstBuffer *in = read_only_frame_new ("RGBA", 64, 48, &info);

  g_object_set (h->element, "alpha", 0.0, NULL);
  add_meta (in, 3, rgb_names, 4, rgb_counts);
  assert_passes_untouched (h, in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A frame with a histogram that is drawn: a writable buffer is drawn on
 * in place, one the caller still holds is copied first (the caller's
 * stays as it was). */
GST_START_TEST (test_in_place)
{
  GstHarness *h = harness_new ("I420", 64, 48);
  GstVideoInfo info;
  GstBuffer *in = frame_new ("I420", 64, 48, FALSE, &info);
  GstBuffer *out;
  GstMapInfo map;
  guint8 *copy;

  add_meta (in, 3, rgb_names, 4, rgb_counts);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  /* The harness took its reference away with the push, ours remains. */
  fail_unless (out != in);
  gst_buffer_unref (out);
  gst_buffer_unref (in);

  in = frame_new ("I420", 64, 48, FALSE, &info);
  add_meta (in, 3, rgb_names, 4, rgb_counts);
  gst_buffer_map (in, &map, GST_MAP_READ);
  copy = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (in, &map);
  gst_harness_push (h, in);
  out = gst_harness_pull (h);
  fail_unless (out == in, "a writable frame was copied");
  gst_buffer_map (out, &map, GST_MAP_READ);
  fail_unless (memcmp (copy, map.data, map.size) != 0);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  g_free (copy);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Rows of column @px, from @y0 to @y1, whose gray value is @value. */
static gint
rows_with_value (GstBuffer *buffer, gint stride, gint px, gint y0, gint y1,
    guint8 value)
{
  GstMapInfo map;
  gint rows = 0, y;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (y = y0; y < y1; y++)
    rows += map.data[y * stride + px] == value;
  gst_buffer_unmap (buffer, &map);
  return rows;
}

static GstBuffer *
black_gray_frame (gint width, gint height)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, width * height, NULL);

  gst_buffer_memset (buffer, 0, 0, width * height);
  return buffer;
}

/* Counts 1 and 1000: linearly the 1 is one row of 100 (an occupied bin
 * keeps a row), by log (1 + count) it is log 2 / log 1001 of the height,
 * 10 rows; the 1000 fills the box both ways. */
GST_START_TEST (test_log_scale)
{
  static const gchar *const names[] = { "Y" };
  static const guint32 counts[] = { 1, 1000 };
  gboolean log_scale;

  for (log_scale = FALSE; log_scale <= TRUE; log_scale++) {
    GstHarness *h = harness_new ("GRAY8", 64, 120);
    GstBuffer *in = black_gray_frame (64, 120);
    GstBuffer *out;
    gint small, large;

    set_rectangle (h, 4, 10, 20, 100);
    g_object_set (h->element, "alpha", 1.0, "log-scale", log_scale, NULL);
    add_meta (in, 1, names, 2, counts);
    out = gst_harness_push_and_pull (h, in);
    /* Bin 0 covers columns 4..13, bin 1 columns 14..23. */
    small = rows_with_value (out, 64, 8, 0, 120, 255);
    large = rows_with_value (out, 64, 18, 0, 120, 255);
    fail_unless_equals_int (large, 100);
    fail_unless_equals_int (rows_with_value (out, 64, 18, 10, 110, 255), 100);
    if (log_scale) {
      fail_unless_equals_int (small, 10);
    } else {
      fail_unless (small <= 1, "linear: %d rows", small);
    }
    /* The bar stands on the bottom of the box. */
    fail_unless_equals_int (rows_with_value (out, 64, 8, 109, 110, 255), 1);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* 256 bins in 64 columns: a column shows the tallest of its four bins;
 * 2 bins in 64 columns: each bar is 32 columns wide. */
GST_START_TEST (test_bins_per_column)
{
  static const gchar *const names[] = { "Y" };
  guint32 many[256] = { 0 };
  static const guint32 two[] = { 0, 7 };
  GstHarness *h = harness_new ("GRAY8", 64, 40);
  GstBuffer *in, *out;
  gint x;

  set_rectangle (h, 0, 0, 64, 40);
  g_object_set (h->element, "alpha", 1.0, NULL);

  many[21] = 50;                /* column 5 */
  many[22] = 10;
  many[200] = 25;               /* column 50 */
  in = black_gray_frame (64, 40);
  add_meta (in, 1, names, 256, many);
  out = gst_harness_push_and_pull (h, in);
  for (x = 0; x < 64; x++)
    fail_unless_equals_int (rows_with_value (out, 64, x, 0, 40, 255),
        x == 5 ? 40 : x == 50 ? 20 : 0);
  gst_buffer_unref (out);

  in = black_gray_frame (64, 40);
  add_meta (in, 1, names, 2, two);
  out = gst_harness_push_and_pull (h, in);
  for (x = 0; x < 64; x++)
    fail_unless_equals_int (rows_with_value (out, 64, x, 0, 40, 255),
        x < 32 ? 0 : 40);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Bars of several channels over one bin add their colours. */
GST_START_TEST (test_overlapping_channels)
{
  static const gchar *const names[] = { "R", "G", "B" };
  static const guint32 counts[] = { 10, 10, 10, 0, 10, 5 };
  GstHarness *h = harness_new ("RGBx", 16, 20);
  GstBuffer *in = gst_buffer_new_allocate (NULL, 16 * 20 * 4, NULL);
  GstBuffer *out;
  GstMapInfo map;

  gst_buffer_memset (in, 0, 0x40, 16 * 20 * 4);
  set_rectangle (h, 0, 0, 16, 20);
  g_object_set (h->element, "alpha", 1.0, NULL);
  /* R: bins 10, 10; G: 10, 0; B: 10, 5. */
  add_meta (in, 3, names, 2, counts);
  out = gst_harness_push_and_pull (h, in);
  gst_buffer_map (out, &map, GST_MAP_READ);
  /* Column 2, bottom row: R + G + B. */
  fail_unless_equals_int (map.data[(19 * 16 + 2) * 4 + 0], 255);
  fail_unless_equals_int (map.data[(19 * 16 + 2) * 4 + 1], 255);
  fail_unless_equals_int (map.data[(19 * 16 + 2) * 4 + 2], 255);
  /* Column 12, bottom row: R + B, magenta; top row: R alone. */
  fail_unless_equals_int (map.data[(19 * 16 + 12) * 4 + 0], 255);
  fail_unless_equals_int (map.data[(19 * 16 + 12) * 4 + 1], 0);
  fail_unless_equals_int (map.data[(19 * 16 + 12) * 4 + 2], 255);
  fail_unless_equals_int (map.data[(0 * 16 + 12) * 4 + 0], 255);
  fail_unless_equals_int (map.data[(0 * 16 + 12) * 4 + 1], 0);
  fail_unless_equals_int (map.data[(0 * 16 + 12) * 4 + 2], 0);
  /* The padding byte is never written. */
  fail_unless_equals_int (map.data[(19 * 16 + 12) * 4 + 3], 0x40);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_rectangle_outside)
{
  static const Rect outside[] = {
    {64, 0, 10, 10}, {0, 48, 10, 10}, {-10, 0, 10, 10}, {0, -10, 10, 10},
    {G_MAXINT, G_MAXINT, G_MAXINT, G_MAXINT}, {G_MININT, G_MININT, 5, 5},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (outside); i++) {
    GstHarness *h = harness_new ("NV12", 64, 48);
    GstVideoInfo info;
    GstBuffer *in = read_only_frame_new ("NV12", 64, 48, &info);

    set_rectangle (h, outside[i].x, outside[i].y, outside[i].width,
        outside[i].height);
    add_meta (in, 3, rgb_names, 4, rgb_counts);
    assert_passes_untouched (h, in);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Huge rectangles reaching into the frame: only the part inside is
 * drawn, without overflowing anything. */
GST_START_TEST (test_rectangle_huge)
{
  static const Rect huge[] = {
    {-1000000, -1000000, G_MAXINT, G_MAXINT},
    {10, 10, G_MAXINT, G_MAXINT},
    {G_MININT, 0, G_MAXINT, 20},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (huge); i++) {
    GstHarness *h = harness_new ("YUY2", 33, 17);
    GstVideoInfo info;
    GstBuffer *in = frame_new ("YUY2", 33, 17, FALSE, &info);
    GstBuffer *out;

    set_rectangle (h, huge[i].x, huge[i].y, huge[i].width, huge[i].height);
    add_meta (in, 3, rgb_names, 4, rgb_counts);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Zone and region histograms are not the frame's: alone they draw
 * nothing; beside the frame's, the frame's is drawn. */
GST_START_TEST (test_region_meta)
{
  static const gchar *const names[] = { "Y" };
  static const guint32 counts[] = { 5, 5 };
  GstHarness *h = harness_new ("GRAY8", 64, 48);
  GstVideoInfo info;
  GstBuffer *in = read_only_frame_new ("GRAY8", 64, 48, &info);
  const guint n_bins = 2;
  const GstHistogramRegion zone = { "zone", 0, 0, 0, 1, 1 };
  const GstHistogramRegion region = { "region", 3, 0, 0, 1, 1 };
  Rect rect = { 5, 3, 40, 30 };

  fail_unless (add_region_meta (in, GST_HISTOGRAM_MODE_CHANNELS, 1, names, 1,
          &n_bins, counts, &zone) != NULL);
  fail_unless (add_region_meta (in, GST_HISTOGRAM_MODE_CHANNELS, 1, names, 1,
          &n_bins, counts, &region) != NULL);
  assert_passes_untouched (h, in);

  set_rectangle (h, rect.x, rect.y, rect.width, rect.height);
  g_object_set (h->element, "alpha", 1.0, NULL);
  in = frame_new ("GRAY8", 64, 48, FALSE, &info);
  fail_unless (add_region_meta (in, GST_HISTOGRAM_MODE_CHANNELS, 1, names, 1,
          &n_bins, counts, &zone) != NULL);
  add_meta (in, 3, rgb_names, 4, rgb_counts);
  push_and_check (h, in, &info, &rect, expect_rgb_graph);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Hue x saturation and joint RGB histograms are not drawn. */
GST_START_TEST (test_multi_dimensional_skipped)
{
  static const gchar *const names[] = { "hue-saturation" };
  static const guint shape[] = { 4, 4 };
  const GstHistogramRegion frame = { GST_HISTOGRAM_REGION_FRAME, 0, 0, 0,
    4, 4
  };
  guint32 counts[16];
  GstHarness *h = harness_new ("RGB", 64, 48);
  GstVideoInfo info;
  GstBuffer *in;
  guint i;

  for (i = 0; i < 16; i++)
    counts[i] = i;
  for (i = 0; i < 2; i++) {
    in = read_only_frame_new ("RGB", 64, 48, &info);
    fail_unless (add_region_meta (in, GST_HISTOGRAM_MODE_HUE_SATURATION, 1,
            names, 2, shape, counts, &frame) != NULL);
    assert_passes_untouched (h, in);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A hue histogram is drawn in the hues it counts: its first column red,
 * a column a third of the way green, two thirds blue. */
GST_START_TEST (test_hue_colours)
{
  static const gchar *const names[] = { "hue" };
  const guint n_bins = 180;
  const GstHistogramRegion frame = { GST_HISTOGRAM_REGION_FRAME, 0, 0, 0,
    180, 10
  };
  guint32 counts[180];
  GstHarness *h = harness_new ("RGB", 180, 10);
  GstBuffer *in = gst_buffer_new_allocate (NULL, 180 * 3 * 10, NULL);
  GstBuffer *out;
  GstMapInfo map;
  guint i;

  for (i = 0; i < 180; i++)
    counts[i] = 3;
  gst_buffer_memset (in, 0, 0, 180 * 3 * 10);
  set_rectangle (h, 0, 0, 180, 10);
  g_object_set (h->element, "alpha", 1.0, NULL);
  add_region_meta (in, GST_HISTOGRAM_MODE_HUE, 1, names, 1, &n_bins, counts,
      &frame);
  out = gst_harness_push_and_pull (h, in);
  gst_buffer_map (out, &map, GST_MAP_READ);
  fail_unless_equals_int (map.data[9 * 540 + 0], 255);
  fail_unless (map.data[9 * 540 + 1] < 16 && map.data[9 * 540 + 2] == 0);
  fail_unless_equals_int (map.data[9 * 540 + 60 * 3 + 1], 255);
  fail_unless (map.data[9 * 540 + 60 * 3 + 0] < 16);
  fail_unless_equals_int (map.data[9 * 540 + 120 * 3 + 2], 255);
  fail_unless (map.data[9 * 540 + 120 * 3 + 1] < 16);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  GstElement *overlay = gst_element_factory_make ("histogramoverlay", NULL);
  gint x, y, width, height;
  gdouble alpha;
  gboolean log_scale;
  gchar *klass;

  fail_unless (overlay != NULL);
  g_object_get (overlay, "x", &x, "y", &y, "width", &width, "height",
      &height, "alpha", &alpha, "log-scale", &log_scale, NULL);
  fail_unless_equals_int (x, 16);
  fail_unless_equals_int (y, 16);
  fail_unless_equals_int (width, 256);
  fail_unless_equals_int (height, 100);
  fail_unless_equals_float (alpha, 0.8);
  fail_unless (!log_scale);

  g_object_set (overlay, "x", -5, "y", 7, "width", 3, "height", 4, "alpha",
      0.25, "log-scale", TRUE, NULL);
  g_object_get (overlay, "x", &x, "y", &y, "width", &width, "height",
      &height, "alpha", &alpha, "log-scale", &log_scale, NULL);
  fail_unless_equals_int (x, -5);
  fail_unless_equals_int (y, 7);
  fail_unless_equals_int (width, 3);
  fail_unless_equals_int (height, 4);
  fail_unless_equals_float (alpha, 0.25);
  fail_unless (log_scale);

  klass = g_strdup (gst_element_class_get_metadata (GST_ELEMENT_GET_CLASS
          (overlay), GST_ELEMENT_METADATA_KLASS));
  fail_unless_equals_string (klass, "Filter/Effect/Video");
  g_free (klass);
  gst_object_unref (overlay);
}

GST_END_TEST;

/* Properties set between frames apply from the next frame. */
GST_START_TEST (test_change_while_playing)
{
  GstHarness *h = harness_new ("BGRA", 64, 48);
  Rect first = { 5, 3, 40, 30 }, second = { 20, 10, 40, 30 };
  GstVideoInfo info;
  GstBuffer *in;

  set_rectangle (h, first.x, first.y, first.width, first.height);
  g_object_set (h->element, "alpha", 1.0, NULL);
  in = frame_new ("BGRA", 64, 48, FALSE, &info);
  add_meta (in, 3, rgb_names, 4, rgb_counts);
  push_and_check (h, in, &info, &first, expect_rgb_graph);

  set_rectangle (h, second.x, second.y, second.width, second.height);
  in = frame_new ("BGRA", 64, 48, FALSE, &info);
  add_meta (in, 3, rgb_names, 4, rgb_counts);
  push_and_check (h, in, &info, &second, expect_rgb_graph);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The properties one g_object_set() sets, or those set between
 * g_object_freeze_notify() and g_object_thaw_notify(), draw together: a
 * frame pushed while only x of a new place is set is drawn at the old
 * place, the next after the thaw at the new one. Before, that frame was
 * drawn at the new x and the old y. */
GST_START_TEST (test_change_grouped)
{
  GstHarness *h = harness_new ("BGRA", 64, 48);
  Rect first = { 5, 3, 40, 30 }, second = { 20, 10, 40, 30 };
  GstVideoInfo info;
  GstBuffer *in;

  set_rectangle (h, first.x, first.y, first.width, first.height);
  g_object_set (h->element, "alpha", 1.0, NULL);
  g_object_freeze_notify (G_OBJECT (h->element));
  g_object_set (h->element, "x", second.x, NULL);
  in = frame_new ("BGRA", 64, 48, FALSE, &info);
  add_meta (in, 3, rgb_names, 4, rgb_counts);
  push_and_check (h, in, &info, &first, expect_rgb_graph);

  g_object_set (h->element, "y", second.y, NULL);
  g_object_thaw_notify (G_OBJECT (h->element));
  in = frame_new ("BGRA", 64, 48, FALSE, &info);
  add_meta (in, 3, rgb_names, 4, rgb_counts);
  push_and_check (h, in, &info, &second, expect_rgb_graph);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The block a hostile frame wraps, exactly the buffer's size (so that
 * AddressSanitizer sees any access past it), kept by the test until the
 * element let go of the buffer. */
typedef struct {
  guint8 *data;
  guint8 *copy;
  gsize size;
  gboolean released;
} HostileBlock;

static void
hostile_block_released (gpointer user_data)
{
  ((HostileBlock *) user_data)->released = TRUE;
}

/* A @format frame of @width x @height in a buffer of @size bytes with a
 * GstVideoMeta of @n_planes giving @offsets and @strides (which need not
 * fit), and a histogram to draw. */
static GstBuffer *
hostile_frame (HostileBlock *block, GstVideoFormat format, guint width,
    guint height, guint n_planes, gsize size, const gsize *offsets,
    const gint *strides)
{
  GstBuffer *buffer;
  gsize i;

  block->size = size;
  block->data = g_malloc (size);
  for (i = 0; i < size; i++)
    block->data[i] = (guint8) (i * 37 + 11);
  block->copy = g_memdup2 (block->data, size);
  block->released = FALSE;
  buffer = gst_buffer_new_wrapped_full (0, block->data, size, 0, size, block,
      hostile_block_released);
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE, format,
      width, height, n_planes, (gsize *) offsets, (gint *) strides);
  add_meta (buffer, 3, rgb_names, 4, rgb_counts);
  GST_BUFFER_PTS (buffer) = 0;
  return buffer;
}

/* A GstVideoMeta whose strides or offsets do not fit the buffer, or that
 * does not describe the caps' frame: a STREAM error saying what is wrong,
 * a flow error, nothing out, and not a byte of the buffer written (nor
 * past it: AddressSanitizer). Before the overlay mapped frames through the
 * plugin's checked path, it drew through the meta's strides past the
 * buffer: heap-buffer-overflow in paint_column. */
GST_START_TEST (test_video_meta_past_buffer)
{
  const struct {
    GstVideoFormat format;
    guint width, height, n_planes;
    gsize size;
    gsize offsets[GST_VIDEO_MAX_PLANES];
    gint strides[GST_VIDEO_MAX_PLANES];
    const gchar *says;
  } cases[] = {
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 32 * 4 * 16, {0}, {160}, "too small"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 32 * 4 * 16, {1024}, {128},
        "too small"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 32 * 4 * 16, {G_MAXSIZE - 100},
        {128}, "too small"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 32 * 4 * 8, {0}, {128}, "too small"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 32 * 4 * 16, {0}, {127}, "stride"},
    {GST_VIDEO_FORMAT_RGBA, 32, 16, 1, 32 * 4 * 16, {0}, {-128}, "stride"},
    {GST_VIDEO_FORMAT_RGBA, 31, 16, 1, 32 * 4 * 16, {0}, {128},
        "GstVideoMeta"},
    {GST_VIDEO_FORMAT_I420, 32, 16, 3, 32 * 16 * 3 / 2, {0, 512, 700},
        {32, 16, 16}, "too small"},
    {GST_VIDEO_FORMAT_I420, 32, 16, 3, 32 * 16 * 3 / 2, {0, 512, 640},
        {32, 16, 64}, "too small"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const gchar *format = gst_video_format_to_string (cases[i].format);
    GstHarness *h = harness_new (format, 32, 16);
    GstBus *bus = clh_check_harness_bus (h->element);
    HostileBlock block;
    GstBuffer *in = hostile_frame (&block, cases[i].format, cases[i].width,
        cases[i].height, cases[i].n_planes, cases[i].size, cases[i].offsets,
        cases[i].strides);
    GstVideoInfo info;

    GST_INFO ("case %u", i);
    set_rectangle (h, 0, 0, 32, 16);
    g_object_set (h->element, "alpha", 1.0, NULL);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
    clh_check_expect_error (bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        cases[i].says, NULL);
    fail_unless (gst_harness_try_pull (h) == NULL);
    fail_unless (block.released, "case %u: the buffer is still held", i);
    fail_unless (memcmp (block.data, block.copy, block.size) == 0,
        "case %u: the buffer was written", i);
    g_free (block.data);
    g_free (block.copy);

    /* A good frame is drawn afterwards. */
    in = frame_new (format, 32, 16, FALSE, &info);
    add_meta (in, 3, rgb_names, 4, rgb_counts);
    gst_buffer_unref (gst_harness_push_and_pull (h, in));
    clh_check_harness_teardown (h, bus);
  }
}

GST_END_TEST;

/* The default 80 % opacity: bars between the video and their colour (in
 * the box the pixel properties used to place by default). */
GST_START_TEST (test_default_alpha)
{
  static const gchar *const names[] = { "Y" };
  static const guint32 counts[] = { 9 };
  GstHarness *h = harness_new ("GRAY8", 300, 140);
  GstBuffer *in = black_gray_frame (300, 140);
  GstBuffer *out;
  GstMapInfo map;

  set_rectangle (h, 16, 16, 256, 100);
  add_meta (in, 1, names, 1, counts);
  out = gst_harness_push_and_pull (h, in);
  gst_buffer_map (out, &map, GST_MAP_READ);
  /* Inside the default box (16, 16, 256 x 100): 0.8 of white. */
  fail_unless_equals_int (map.data[20 * 300 + 20], 204);
  fail_unless_equals_int (map.data[115 * 300 + 271], 204);
  fail_unless_equals_int (map.data[116 * 300 + 271], 0);
  fail_unless_equals_int (map.data[115 * 300 + 272], 0);
  fail_unless_equals_int (map.data[15 * 300 + 20], 0);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

static void
run_pipeline (const gchar *description)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (description, &error);
  GstBus *bus;
  GstMessage *msg;

  fail_unless (pipeline != NULL, "%s: %s", description,
      error ? error->message : "?");
  g_clear_error (&error);
  bus = gst_element_get_bus (pipeline);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (60),
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s: no EOS", description);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *debug = NULL;

    gst_message_parse_error (msg, &error, &debug);
    fail ("%s: %s (%s)", description, error->message, debug);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

static GstPadProbeReturn
count_changed_frames (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  guint *changed = user_data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;

  gint x;

  /* videotestsrc's black frames (Y 16): the bar of bin 16 is white (Y
   * 235 at 0.8 over 16: 191) near the box's left edge (x = 100), right
   * of the clip indicator (at most a tenth of the box's height wide,
   * and its gap), whose gauge of the crushed samples is white too. */
  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (x = 112; x < 164; x++)
    if (map.data[100 * 320 + x] > 150) {
      (*changed)++;
      break;
    }
  gst_buffer_unmap (buffer, &map);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_pipeline)
{
  GstElement *pipeline;
  GstElement *sink;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  guint changed = 0;

  run_pipeline ("videotestsrc num-buffers=3 ! clhistogram ! "
      "histogramoverlay ! fakesink");
  run_pipeline ("videotestsrc num-buffers=3 ! video/x-raw,format=RGBx ! "
      "clhistogram mode=channels bins=16 ! histogramoverlay log-scale=true ! "
      "fakesink");

  /* Every frame gets its graph: black I420 frames, a luma graph with all
   * pixels in bin 16. */
  pipeline = gst_parse_launch ("videotestsrc num-buffers=3 pattern=black ! "
      "video/x-raw,format=I420,width=320,height=240 ! clhistogram ! "
      "histogramoverlay x=100 y=20 ! fakesink name=sink", NULL);
  fail_unless (pipeline != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_changed_frames,
      &changed, NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (60),
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  fail_unless_equals_int (changed, 3);
}

GST_END_TEST;

/* The annotations: the box relative to the frame, the graticule, the
 * legal marks, the legend and clipped shares, the zones. */

/* Records a channel's clipped counts in @meta's statistics, as
 * clhistogram's summary does. */
static void
set_clipped (GstHistogramMeta *meta, guint channel, guint64 samples,
    guint64 low, guint64 high)
{
  GstHistogramStatistics statistics = { 0 };

  statistics.flags = GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY;
  statistics.samples = samples;
  statistics.clipped_low = low;
  statistics.clipped_high = high;
  fail_unless (gst_histogram_meta_set_statistics (meta, channel,
          &statistics));
}

/* A full-frame histogram of 256 empty bins per channel: no bars, so that
 * what is drawn is the box and its annotations. */
static GstHistogramMeta *
add_empty_meta (GstBuffer *buffer, guint n_channels,
    const gchar *const *names)
{
  static const guint32 empty[8 * 256] = { 0 };

  return add_meta (buffer, n_channels, names, 256, empty);
}

static GstHistogramMeta *
add_zone (GstBuffer *buffer, gint id, guint x, guint y, guint width,
    guint height, guint64 samples, guint64 low, guint64 high)
{
  static const gchar *const names[] = { "Y" };
  static const guint32 counts[4] = { 0 };
  const guint n_bins = 4;
  const GstHistogramRegion zone = { "zone", id, x, y, width, height };
  GstHistogramMeta *meta = add_region_meta (buffer, GST_HISTOGRAM_MODE_LUMA,
      1, names, 1, &n_bins, counts, &zone);

  fail_unless (meta != NULL);
  if (samples > 0)
    set_clipped (meta, 0, samples, low, high);
  return meta;
}

/* A frame of @format whose every pixel is @colour (padding bytes hold
 * 0x5a), in the colour's values of test_formats. */
static GstBuffer *
solid_frame (const gchar *format, gint width, gint height, gint colour,
    GstVideoInfo *info)
{
  GstBuffer *buffer = frame_new (format, width, height, FALSE, info);
  const GstVideoFormatInfo *finfo = info->finfo;
  GstMapInfo map;
  guint comp;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  memset (map.data, 0x5a, map.size);
  for (comp = 0; comp < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); comp++) {
    gint cw = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, comp, width);
    gint ch = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, comp, height);
    gint sx, sy;

    for (sy = 0; sy < ch; sy++)
      for (sx = 0; sx < cw; sx++)
        map.data[sample_offset (info, comp, sx, sy)] =
            comp == GST_VIDEO_COMP_A ? 255 : colour_value (finfo, colour,
            comp);
  }
  gst_buffer_unmap (buffer, &map);
  return buffer;
}

/* A gray frame of @value everywhere. */
static GstBuffer *
gray_frame (gint width, gint height, guint8 value, GstVideoInfo *info)
{
  GstBuffer *buffer;

  fail_unless (gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8,
          width, height));
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  gst_buffer_memset (buffer, 0, value, GST_VIDEO_INFO_SIZE (info));
  return buffer;
}

/* Sample (@sx, @sy) of component @comp. */
static guint8
sample_at (const GstVideoInfo *info, const GstMapInfo *map, guint comp,
    gint sx, gint sy)
{
  return map->data[sample_offset (info, comp, sx, sy)];
}

typedef struct {
  gint64 x, y, w, h;
} Box;

/* The box the class documentation gives for a frame: size percent of its
 * width, half as high (at most 45 % of its height), 2 % of its smaller
 * side (at least 2 pixels) from the corner's edges. */
static Box
relative_box (gint width, gint height, gdouble size, const gchar *corner)
{
  gint64 margin = MAX (2, ((gint64) MIN (width, height) * 2 + 50) / 100);
  Box box;

  box.w = MAX (1, (gint64) (width * size / 100.0 + 0.5));
  box.h = MIN (MAX (1, (box.w + 1) / 2), MAX (1, (gint64) height * 45 / 100));
  box.x = g_str_has_suffix (corner, "right") ? width - margin - box.w : margin;
  box.y = g_str_has_prefix (corner, "bottom") ? height - margin - box.h :
      margin;
  return box;
}

/* The smallest box holding every pixel of a GRAY8 frame that differs
 * from @value; w 0 when none does. */
static Box
changed_box (GstBuffer *buffer, const GstVideoInfo *info, guint8 value)
{
  Box box = { G_MAXINT, G_MAXINT, 0, 0 };
  gint64 x1 = -1, y1 = -1;
  GstMapInfo map;
  gint x, y;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++)
      if (sample_at (info, &map, 0, x, y) != value) {
        box.x = MIN (box.x, x);
        box.y = MIN (box.y, y);
        x1 = MAX (x1, x);
        y1 = MAX (y1, y);
      }
  gst_buffer_unmap (buffer, &map);
  if (x1 < 0)
    return (Box) { 0, 0, 0, 0 };
  box.w = x1 - box.x + 1;
  box.h = y1 - box.y + 1;
  return box;
}

/* Rows of the GRAY8 frame between @y0 and @y1 with a sample above
 * @threshold in columns @x0..@x1: the height of white text there. */
static gint
rows_above (GstBuffer *buffer, const GstVideoInfo *info, gint x0, gint x1,
    gint y0, gint y1, guint8 threshold)
{
  GstMapInfo map;
  gint rows = 0, x, y;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (y = y0; y < y1; y++)
    for (x = x0; x < x1; x++)
      if (sample_at (info, &map, 0, x, y) > threshold) {
        rows++;
        break;
      }
  gst_buffer_unmap (buffer, &map);
  return rows;
}

GST_START_TEST (test_annotation_properties)
{
  GstElement *overlay = gst_element_factory_make ("histogramoverlay", NULL);
  gboolean legal, legend, clipping, indicators, zones, labels;
  gdouble size, clipped, crushed;
  gint corner, graticule;
  GEnumValue *value;

  g_object_get (overlay, "size", &size, "corner", &corner, "graticule",
      &graticule, "legal-marks", &legal, "legend", &legend, "clipping-text",
      &clipping, "clip-indicators", &indicators, "zones", &zones,
      "zone-clipped", &clipped, "zone-crushed", &crushed, "zone-labels",
      &labels, NULL);
  fail_unless_equals_float (size, 35.0);
  value = g_enum_get_value (g_type_class_peek (G_PARAM_SPEC_VALUE_TYPE
          (g_object_class_find_property (G_OBJECT_GET_CLASS (overlay),
                  "corner"))), corner);
  fail_unless_equals_string (value->value_nick, "top-left");
  value = g_enum_get_value (g_type_class_peek (G_PARAM_SPEC_VALUE_TYPE
          (g_object_class_find_property (G_OBJECT_GET_CLASS (overlay),
                  "graticule"))), graticule);
  fail_unless_equals_string (value->value_nick, "codes");
  fail_unless (legal && legend && clipping && indicators && zones
      && !labels);
  fail_unless_equals_float (clipped, 1.0);
  fail_unless_equals_float (crushed, 1.0);

  gst_util_set_object_arg (G_OBJECT (overlay), "corner", "bottom-right");
  gst_util_set_object_arg (G_OBJECT (overlay), "graticule", "ire");
  g_object_set (overlay, "size", 20.0, "legal-marks", FALSE, "legend", FALSE,
      "clipping-text", FALSE, "clip-indicators", FALSE, "zones", FALSE,
      "zone-clipped", 2.5, "zone-crushed", 0.0, "zone-labels", TRUE, NULL);
  g_object_get (overlay, "size", &size, "corner", &corner, "graticule",
      &graticule, "legal-marks", &legal, "legend", &legend, "clipping-text",
      &clipping, "clip-indicators", &indicators, "zones", &zones,
      "zone-clipped", &clipped, "zone-crushed", &crushed, "zone-labels",
      &labels, NULL);
  fail_unless_equals_float (size, 20.0);
  fail_unless_equals_int (corner, 3);
  fail_unless_equals_int (graticule, 2);
  fail_unless (!legal && !legend && !clipping && !indicators && !zones
      && labels);
  fail_unless_equals_float (clipped, 2.5);
  fail_unless_equals_float (crushed, 0.0);
  gst_object_unref (overlay);
}

GST_END_TEST;

/* The default box follows the frame's size, in each corner: a 400x300
 * frame keeps most of its picture, a 4K frame gets text 4K high. */
GST_START_TEST (test_relative_box)
{
  static const gchar *const names[] = { "Y" };
  static const gchar *const corners[] = { "top-left", "top-right",
    "bottom-left", "bottom-right"
  };
  static const struct {
    gint width, height;
    gint min_text_rows;
  } sizes[] = {
    {400, 300, 6}, {768, 576, 7}, {3840, 2160, 30}, {33, 17, 0},
    {101, 999, 0},
  };
  guint s, c;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (c = 0; c < G_N_ELEMENTS (corners); c++) {
      const gint width = sizes[s].width, height = sizes[s].height;
      GstHarness *h = annotated_harness_new ("GRAY8", width, height, NULL);
      Box want = relative_box (width, height, 35.0, corners[c]), got;
      GstVideoInfo info;
      GstBuffer *in = gray_frame (width, height, 128, &info), *out;

      GST_INFO ("%dx%d %s", width, height, corners[c]);
      gst_util_set_object_arg (G_OBJECT (h->element), "corner", corners[c]);
      add_empty_meta (in, 1, names);
      out = gst_harness_push_and_pull (h, in);
      got = changed_box (out, &info, 128);
      fail_unless (got.x == want.x && got.y == want.y && got.w == want.w
          && got.h == want.h, "%dx%d %s: box %" G_GINT64_FORMAT ",%"
          G_GINT64_FORMAT " %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
          ", want %" G_GINT64_FORMAT ",%" G_GINT64_FORMAT " %"
          G_GINT64_FORMAT "x%" G_GINT64_FORMAT, width, height, corners[c],
          got.x, got.y, got.w, got.h, want.x, want.y, want.w, want.h);
      /* The legend's "Y" (white over the dimmed box) in its top line is
       * as tall as the frame asks for: the font is the box's height over
       * 12, at least 10 pixels. */
      if (sizes[s].min_text_rows > 0) {
        gint rows = rows_above (out, &info, want.x, want.x + want.w / 4,
            want.y, want.y + want.h / 4, 200);

        fail_unless (rows >= sizes[s].min_text_rows
            && rows <= MAX (10, want.h / 12) * 3 / 2,
            "%dx%d: legend %d rows high", width, height, rows);
      }
      gst_buffer_unref (out);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Setting a pixel property places the box in pixels (the others at their
 * defaults), setting size or corner relative to the frame again; each
 * applies from the next frame. */
GST_START_TEST (test_box_in_pixels)
{
  static const gchar *const names[] = { "Y" };
  GstHarness *h = annotated_harness_new ("GRAY8", 640, 360, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  Box got, want;

  in = gray_frame (640, 360, 128, &info);
  add_empty_meta (in, 1, names);
  g_object_set (h->element, "x", 300, NULL);
  out = gst_harness_push_and_pull (h, in);
  got = changed_box (out, &info, 128);
  fail_unless (got.x == 300 && got.y == 16 && got.w == 256 && got.h == 100);
  gst_buffer_unref (out);

  in = gray_frame (640, 360, 128, &info);
  add_empty_meta (in, 1, names);
  g_object_set (h->element, "size", 50.0, NULL);
  out = gst_harness_push_and_pull (h, in);
  got = changed_box (out, &info, 128);
  want = relative_box (640, 360, 50.0, "top-left");
  fail_unless (got.x == want.x && got.y == want.y && got.w == want.w
      && got.h == want.h);
  gst_buffer_unref (out);

  in = gray_frame (640, 360, 128, &info);
  add_empty_meta (in, 1, names);
  g_object_set (h->element, "width", 120, "height", 60, NULL);
  out = gst_harness_push_and_pull (h, in);
  got = changed_box (out, &info, 128);
  fail_unless (got.x == 300 && got.y == 16 && got.w == 120 && got.h == 60);
  gst_buffer_unref (out);

  in = gray_frame (640, 360, 128, &info);
  add_empty_meta (in, 1, names);
  gst_util_set_object_arg (G_OBJECT (h->element), "corner", "bottom-left");
  out = gst_harness_push_and_pull (h, in);
  got = changed_box (out, &info, 128);
  want = relative_box (640, 360, 50.0, "bottom-left");
  fail_unless (got.x == want.x && got.y == want.y && got.w == want.w
      && got.h == want.h);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Columns of row @y, from @x0 to @x1, whose component @comp sample is
 * @value, as a comma list ("0,32,64"). */
static gchar *
columns_with (GstBuffer *buffer, const GstVideoInfo *info, guint comp,
    gint y, gint x0, gint x1, guint8 value)
{
  GString *list = g_string_new (NULL);
  GstMapInfo map;
  gint x;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (x = x0; x < x1; x++)
    if (sample_at (info, &map, comp, x, y) == value)
      g_string_append_printf (list, "%s%d", list->len ? "," : "", x);
  gst_buffer_unmap (buffer, &map);
  return g_string_free (list, FALSE);
}

/* Columns of the GRAY8 frame's row @y whose sample is @value. */
static gint
count_columns (GstBuffer *buffer, const GstVideoInfo *info, gint y,
    gint width, guint8 value)
{
  GstMapInfo map;
  gint n = 0, x;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (x = 0; x < width; x++)
    n += sample_at (info, &map, 0, x, y) == value;
  gst_buffer_unmap (buffer, &map);
  return n;
}

/* The graticule's lines: white at 40 % of 0.8 (82 of 255) over the
 * black box, at the column of each value's centre,
 * ((2 v + 1) width) / 512 for 8-bit values. */
GST_START_TEST (test_graticule_codes)
{
  static const gchar *const names[] = { "Y" };
  static const struct {
    gint width;
    const gchar *columns;
  } cases[] = {
    {256, "0,32,64,96,128,160,192,224,255"},
    {512, "1,65,129,193,257,321,385,449,511"},
    /* ((2 v + 1) 333) / 512 for v = 0, 32, ..., 224, 255. */
    {333, "0,42,83,125,167,208,250,292,332"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const gint width = cases[i].width;
    GstHarness *h = annotated_harness_new ("GRAY8", width, 120, NULL);
    GstVideoInfo info;
    GstBuffer *in = gray_frame (width, 120, 0, &info), *out;
    gchar *got;

    set_rectangle (h, 0, 0, width, 120);
    g_object_set (h->element, "legend", FALSE, "clipping-text", FALSE, NULL);
    add_empty_meta (in, 1, names);
    out = gst_harness_push_and_pull (h, in);
    got = columns_with (out, &info, 0, 50, 0, width, 82);
    fail_unless_equals_string (got, cases[i].columns);
    g_free (got);
    /* Nothing else in the plot: the box over black is black. */
    fail_unless_equals_int (rows_above (out, &info, 0, width, 0, 80, 82), 0);
    fail_unless_equals_int (count_columns (out, &info, 50, width, 0)
        + count_columns (out, &info, 50, width, 82), width);
    /* The labels, white, in the line below the plot: "128" under its
     * line. */
    fail_unless (rows_above (out, &info, width / 2 - 15, width / 2 + 15, 100,
            120, 160) >= 6, "no label under 128");
    gst_buffer_unref (out);

    /* No graticule: no line, no label. */
    in = gray_frame (width, 120, 0, &info);
    gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
    add_empty_meta (in, 1, names);
    out = gst_harness_push_and_pull (h, in);
    fail_unless_equals_int (rows_above (out, &info, 0, width, 0, 120, 0), 0);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* IRE: every 10 % of the nominal range, 0 IRE at black and 100 at white:
 * 0..255 in full range (GRAY8), 16..235 in limited range (I420's default
 * caps), rounded half up as clh_levels_at_percent() rounds. */
GST_START_TEST (test_graticule_ire)
{
  static const gchar *const names[] = { "Y" };
  static const struct {
    const gchar *format;
    guint8 black, line;
    const gchar *columns;
  } cases[] = {
    {"GRAY8", 0, 82, "0,26,51,77,102,128,153,179,204,230,255"},
    /* White (235) at 82 of 255 over Y = 16: (16 173 + 235 82 + 127) / 255 */
    {"I420", 16, 86, "16,38,60,82,104,126,147,169,191,213,235"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = annotated_harness_new (cases[i].format, 256, 120, NULL);
    GstVideoInfo info;
    GstBuffer *in = solid_frame (cases[i].format, 256, 120, BLACK, &info);
    GstBuffer *out;
    gchar *got;

    set_rectangle (h, 0, 0, 256, 120);
    gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "ire");
    g_object_set (h->element, "legend", FALSE, "clipping-text", FALSE,
        "legal-marks", FALSE, NULL);
    add_empty_meta (in, 1, names);
    out = gst_harness_push_and_pull (h, in);
    got = columns_with (out, &info, 0, 50, 0, 256, cases[i].line);
    fail_unless_equals_string (got, cases[i].columns);
    g_free (got);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Chroma samples of row @sy (of the U plane) that are not neutral. */
static gchar *
coloured_chroma (GstBuffer *buffer, const GstVideoInfo *info, gint sy)
{
  GString *list = g_string_new (NULL);
  gint cw = GST_VIDEO_INFO_COMP_WIDTH (info, 1);
  GstMapInfo map;
  gint sx;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (sx = 0; sx < cw; sx++)
    if (sample_at (info, &map, 1, sx, sy) != 128
        || sample_at (info, &map, 2, sx, sy) != 128)
      g_string_append_printf (list, "%s%d", list->len ? "," : "", sx);
  gst_buffer_unmap (buffer, &map);
  return g_string_free (list, FALSE);
}

/* Legal marks on limited-range caps: dashed amber lines (3 rows on, 3
 * off from the plot's top) at 16 and 235, widened to whole chroma blocks
 * so that their colour shows; at 240 too with a chroma channel; none on
 * full-range caps, none when turned off. The graticule's white lines
 * leave chroma neutral, so only the marks colour it. */
GST_START_TEST (test_legal_marks)
{
  static const gchar *const luma[] = { "Y" };
  static const gchar *const yuv[] = { "Y", "U", "V" };
  static const struct {
    const gchar *colorimetry;
    gboolean on;
    guint n_channels;
    const gchar *chroma_columns;
  } cases[] = {
    {NULL, TRUE, 1, "8,117"},
    {"bt709", TRUE, 1, "8,117"},
    {NULL, TRUE, 3, "8,117,120"},
    {NULL, FALSE, 1, ""},
    {"1:4:0:0", TRUE, 1, ""},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = annotated_harness_new ("I420", 256, 120,
        cases[i].colorimetry);
    GstVideoInfo info;
    GstBuffer *in = solid_frame ("I420", 256, 120, BLACK, &info), *out;
    GstMapInfo map;
    gchar *got;
    gint y;

    GST_INFO ("case %u", i);
    set_rectangle (h, 0, 0, 256, 120);
    g_object_set (h->element, "legend", FALSE, "clipping-text", FALSE,
        "legal-marks", cases[i].on, "alpha", 1.0, NULL);
    add_empty_meta (in, cases[i].n_channels, cases[i].n_channels == 1 ? luma
        : yuv);
    out = gst_harness_push_and_pull (h, in);
    /* Chroma rows 0 and 1 are pixel rows 0 and 2, in the first dash. */
    got = coloured_chroma (out, &info, 1);
    fail_unless_equals_string (got, cases[i].chroma_columns);
    g_free (got);
    /* Chroma row 2 is pixel row 4, in the first gap. */
    got = coloured_chroma (out, &info, 2);
    fail_unless_equals_string (got, "");
    g_free (got);
    if (cases[i].chroma_columns[0]) {
      /* The dashes in luma at column 16: amber, Y 170 in BT.601 (and
       * 171 in BT.709) limited range, at full opacity; black between. */
      gst_buffer_map (out, &map, GST_MAP_READ);
      for (y = 0; y < 60; y++)
        fail_unless_equals_int (sample_at (&info, &map, 0, 16, y),
            y % 6 < 3 ? (cases[i].colorimetry ? 171 : 170) : 16);
      gst_buffer_unmap (out, &map);
    }
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* A box set in pixels far taller than the frame, reaching above it: the
 * legal mark's dashes that fall in the frame keep their phase from the
 * plot's top (dash and gap each three line widths: 30 rows for a box
 * 2000 high, 192 for one 2^31 - 1 high): the dashes are placed from
 * the box's top even where only the frame's rows are drawn. (No timing
 * is asserted: the cost of such a box is a benchmark's question.) */
GST_START_TEST (test_legal_marks_tall_box)
{
  static const gchar *const luma[] = { "Y" };
  static const struct {
    gint y, height, dash;
  } cases[] = {
    {-1000, 2000, 30},
    {G_MININT / 2 + 7, G_MAXINT, 192},
  };
  guint i, f;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = annotated_harness_new ("I420", 256, 120, NULL);
    GstVideoInfo info;
    GstBuffer *out = NULL;
    GstMapInfo map;
    gint y;

    set_rectangle (h, 0, cases[i].y, 256, cases[i].height);
    g_object_set (h->element, "legend", FALSE, "clipping-text", FALSE,
        "alpha", 1.0, NULL);
    gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
    for (f = 0; f < 20; f++) {
      GstBuffer *in = solid_frame ("I420", 256, 120, BLACK, &info);

      add_empty_meta (in, 1, luma);
      if (out)
        gst_buffer_unref (out);
      out = gst_harness_push_and_pull (h, in);
    }
    /* Column 16 (nominal black): amber, Y 170, on a dash; black between. */
    gst_buffer_map (out, &map, GST_MAP_READ);
    for (y = 0; y < 120; y++)
      fail_unless_equals_int (sample_at (&info, &map, 0, 16, y),
          ((gint64) y - cases[i].y) % (2 * cases[i].dash) < cases[i].dash ?
          170 : 16);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Samples of an RGB frame in the rectangle whose colour is near @rgb
 * (each component within 60). */
static guint
pixels_near (GstBuffer *buffer, const GstVideoInfo *info, gint x0, gint y0,
    gint x1, gint y1, const guint8 rgb[3], gint *first_row)
{
  GstMapInfo map;
  guint n = 0;
  gint x, y;

  *first_row = -1;
  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (y = y0; y < y1; y++)
    for (x = x0; x < x1; x++) {
      guint comp;
      gboolean near = TRUE;

      for (comp = 0; comp < 3; comp++)
        near &= ABS ((gint) sample_at (info, &map, comp, x, y)
            - rgb[comp]) <= 60;
      if (near) {
        if (*first_row < 0)
          *first_row = y;
        n++;
      }
    }
  gst_buffer_unmap (buffer, &map);
  return n;
}

/* The clipped shares: a line per channel with statistics at the plot's
 * top, "▼" and the low share at its left end, "▲" and the high one at
 * its right end, in the channel's (lightened) colour, inside the box's
 * margin; none without statistics. (The clip indicators, which would
 * take the box's sides, have their own test.) */
GST_START_TEST (test_clipping_text)
{
  static const gchar *const luma[] = { "Y" };
  static const gchar *const rgb[] = { "R", "G", "B" };
  /* The channels' colours 40 % of the way to white, as text is drawn. */
  static const guint8 red[3] = { 255, 102, 102 }, green[3] = { 102, 255,
    102
  }, blue[3] = { 102, 102, 255 }, white[3] = { 255, 255, 255 };
  GstHarness *h = annotated_harness_new ("GRAY8", 400, 200, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstHistogramMeta *meta;
  gint red_row, green_row, blue_row, row;

  set_rectangle (h, 0, 0, 400, 200);
  gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
  g_object_set (h->element, "legend", FALSE, "clip-indicators", FALSE, NULL);

  /* Without statistics: nothing but the black box over black. */
  in = gray_frame (400, 200, 0, &info);
  add_empty_meta (in, 1, luma);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (rows_above (out, &info, 0, 400, 0, 200, 0), 0);
  gst_buffer_unref (out);

  /* 2.5 % low, 10 % high: "▼2.5%" at the left, "▲10%" at the right, in
   * the top line (the font is 200 / 12 = 16 pixels, the margin 4). */
  in = gray_frame (400, 200, 0, &info);
  meta = add_empty_meta (in, 1, luma);
  set_clipped (meta, 0, 1000, 25, 100);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (rows_above (out, &info, 4, 100, 0, 40, 200) >= 8);
  fail_unless (rows_above (out, &info, 300, 396, 0, 40, 200) >= 8);
  fail_unless_equals_int (rows_above (out, &info, 0, 4, 0, 200, 0), 0);
  fail_unless_equals_int (rows_above (out, &info, 396, 400, 0, 200, 0), 0);
  fail_unless_equals_int (rows_above (out, &info, 100, 300, 0, 200, 0), 0);
  fail_unless_equals_int (rows_above (out, &info, 0, 400, 40, 200, 0), 0);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  /* R, G, B: a line each, top down, in their colours. */
  h = annotated_harness_new ("RGB", 400, 200, NULL);
  set_rectangle (h, 0, 0, 400, 200);
  gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
  g_object_set (h->element, "legend", FALSE, "alpha", 1.0,
      "clip-indicators", FALSE, NULL);
  in = solid_frame ("RGB", 400, 200, BLACK, &info);
  meta = add_empty_meta (in, 3, rgb);
  set_clipped (meta, 0, 1000, 1, 2);
  set_clipped (meta, 1, 1000, 3, 4);
  set_clipped (meta, 2, 1000, 5, 6);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (pixels_near (out, &info, 0, 0, 100, 200, red, &red_row) > 10);
  fail_unless (pixels_near (out, &info, 0, 0, 100, 200, green,
          &green_row) > 10);
  fail_unless (pixels_near (out, &info, 0, 0, 100, 200, blue,
          &blue_row) > 10);
  fail_unless (red_row < green_row && green_row < blue_row,
      "rows %d, %d, %d", red_row, green_row, blue_row);
  fail_unless (pixels_near (out, &info, 300, 0, 400, 200, blue, &row) > 10);
  fail_unless (pixels_near (out, &info, 0, 0, 400, 200, white, &row) == 0);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

static void assert_pixel (GstBuffer *buffer, const GstVideoInfo *info,
    gint x, gint y, guint8 r, guint8 g, guint8 b);

/* The frame's pixels (@x0..@x1) x (@y0..@y1) all hold @rgb. */
static void
assert_area (GstBuffer *buffer, const GstVideoInfo *info, gint x0, gint x1,
    gint y0, gint y1, const guint8 rgb[3])
{
  gint x, y;

  for (y = y0; y < y1; y++)
    for (x = x0; x < x1; x++)
      assert_pixel (buffer, info, x, y, rgb[0], rgb[1], rgb[2]);
}

/* A luma histogram of 10000 samples at 128 but for @n at @value, whose
 * statistics count @low of them clipped low and @high clipped high, drawn
 * on a black RGB frame in a box of 400 x 200 with no text: the plot is
 * 200 high, the indicators 200 / 10 = 20 wide, 5 from the bars (at 25
 * to 375) and 5 below the box's top; a gauge of 200 - 20 - 10 = 170
 * rows. */
static GstBuffer *
draw_clipped (GstHarness *h, guint n, guint value, gboolean statistics,
    guint64 low, guint64 high, GstVideoInfo *info)
{
  static const gchar *const names[] = { "Y" };
  guint32 counts[256] = { 0 };
  GstBuffer *in = solid_frame ("RGB", 400, 200, BLACK, info);
  GstHistogramMeta *meta;

  counts[128] = 10000 - n;
  counts[value] += n;
  meta = add_meta (in, 1, names, 256, counts);
  if (statistics)
    set_clipped (meta, 0, 10000, low, high);
  return gst_harness_push_and_pull (h, in);
}

/* The clip indicators beside the bars: the lamp at the right lit red for
 * a frame with 1 % of its samples clipped high (at 255), dark gray for
 * one with none; the one at the left azure for 1 % crushed; each gauge
 * ceil (1.7) = 2 rows of the channel's colour at the plot's bottom; the
 * bars between them, the graticule's line at 255 above the last bar, not
 * over it. No indicators without statistics or when turned off. */
GST_START_TEST (test_clip_indicators)
{
  static const guint8 red[3] = { 255, 0, 0 }, azure[3] = { 0, 160, 255 },
      gray[3] = { 64, 64, 64 }, white[3] = { 255, 255, 255 },
      black[3] = { 0, 0, 0 };
  GstHarness *h = annotated_harness_new ("RGB", 400, 200, NULL);
  GstVideoInfo info;
  GstBuffer *out;

  set_rectangle (h, 0, 0, 400, 200);
  gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
  g_object_set (h->element, "legend", FALSE, "clipping-text", FALSE,
      "alpha", 1.0, NULL);

  /* 1 % at 255: the right lamp lit, its gauge 2 rows; the left unlit. */
  out = draw_clipped (h, 100, 255, TRUE, 0, 100, &info);
  assert_area (out, &info, 380, 400, 5, 25, red);
  assert_area (out, &info, 380, 400, 198, 200, white);
  assert_area (out, &info, 380, 400, 30, 198, black);
  assert_area (out, &info, 0, 20, 5, 25, gray);
  assert_area (out, &info, 0, 20, 30, 200, black);
  /* The lamps' gaps, and the gaps to the bars, are the box's black. */
  assert_area (out, &info, 0, 25, 0, 5, black);
  assert_area (out, &info, 375, 400, 0, 5, black);
  assert_area (out, &info, 20, 25, 0, 200, black);
  assert_area (out, &info, 375, 380, 0, 200, black);
  /* The bars: bin 128 at column 25 + 128 * 350 / 256 = 200 fills the
   * plot, bin 255 (the last column, 374) keeps a row. */
  assert_area (out, &info, 200, 201, 0, 200, white);
  assert_area (out, &info, 374, 375, 199, 200, white);
  gst_buffer_unref (out);

  /* None clipped: both lamps unlit, no gauge. */
  out = draw_clipped (h, 100, 254, TRUE, 0, 0, &info);
  assert_area (out, &info, 380, 400, 5, 25, gray);
  assert_area (out, &info, 380, 400, 30, 200, black);
  assert_area (out, &info, 0, 20, 5, 25, gray);
  gst_buffer_unref (out);

  /* 1 % at 0, crushed: the left lamp lit azure. */
  out = draw_clipped (h, 100, 0, TRUE, 100, 0, &info);
  assert_area (out, &info, 0, 20, 5, 25, azure);
  assert_area (out, &info, 0, 20, 198, 200, white);
  assert_area (out, &info, 0, 20, 30, 198, black);
  assert_area (out, &info, 380, 400, 5, 25, gray);
  gst_buffer_unref (out);

  /* Without statistics the bars take the box's width: bin 255 at column
   * 399, nothing lit. */
  out = draw_clipped (h, 100, 255, FALSE, 0, 0, &info);
  assert_area (out, &info, 399, 400, 199, 200, white);
  assert_area (out, &info, 380, 399, 0, 200, black);
  gst_buffer_unref (out);

  /* Turned off: the same. */
  g_object_set (h->element, "clip-indicators", FALSE, NULL);
  out = draw_clipped (h, 100, 255, TRUE, 0, 100, &info);
  assert_area (out, &info, 399, 400, 199, 200, white);
  assert_area (out, &info, 380, 399, 0, 200, black);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The gauge of several channels: each bar its share's height, their
 * colours added where they overlap (R 2 %, G 1 %: 4 rows, the lower 2
 * yellow). */
GST_START_TEST (test_clip_gauge_channels)
{
  static const gchar *const names[] = { "R", "G" };
  static const guint8 red[3] = { 255, 0, 0 }, yellow[3] = { 255, 255, 0 },
      black[3] = { 0, 0, 0 };
  static guint32 counts[2 * 256];
  GstHarness *h = annotated_harness_new ("RGB", 400, 200, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstHistogramMeta *meta;

  counts[128] = counts[256 + 128] = 10000;
  set_rectangle (h, 0, 0, 400, 200);
  gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
  g_object_set (h->element, "legend", FALSE, "clipping-text", FALSE,
      "alpha", 1.0, NULL);
  in = solid_frame ("RGB", 400, 200, BLACK, &info);
  meta = add_meta (in, 2, names, 256, counts);
  set_clipped (meta, 0, 10000, 0, 200);
  set_clipped (meta, 1, 10000, 0, 100);
  out = gst_harness_push_and_pull (h, in);
  /* ceil (200 * 170 / 10000) = 4, ceil (100 * 170 / 10000) = 2. */
  assert_area (out, &info, 380, 400, 198, 200, yellow);
  assert_area (out, &info, 380, 400, 196, 198, red);
  assert_area (out, &info, 380, 400, 30, 196, black);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The graticule's lines and the legal marks stay under the bars: a red
 * bar of bin 255 in the last column of a box with no text (79 wide, 8
 * characters of the smallest font would not fit), under the line at 255,
 * is red where it stands and the line shows only above it; so is a white
 * bar at 235 under the dashed amber legal mark on limited-range I420. */
GST_START_TEST (test_marks_under_bars)
{
  static const gchar *const red_names[] = { "R" };
  static const gchar *const luma[] = { "Y" };
  static guint32 counts[256];
  GstHarness *h = annotated_harness_new ("RGB", 79, 40, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstMapInfo map;
  gint y;

  /* The plot: 79 columns, 40 rows; 256 bins, the last column showing
   * bins 252 to 255 and the line at ((2 255 + 1) 79) / 512 = 78. Bin
   * 255 half as tall as bin 128: 20 rows. */
  counts[128] = 5000;
  counts[255] = 2500;
  set_rectangle (h, 0, 0, 79, 40);
  g_object_set (h->element, "alpha", 1.0, NULL);
  in = solid_frame ("RGB", 79, 40, BLACK, &info);
  add_meta (in, 1, red_names, 256, counts);
  out = gst_harness_push_and_pull (h, in);
  for (y = 20; y < 40; y++)
    assert_pixel (out, &info, 78, y, 255, 0, 0);
  /* The line above: white at 40 % of the opacity, 102. */
  for (y = 0; y < 20; y++)
    assert_pixel (out, &info, 78, y, 102, 102, 102);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  /* I420, limited range: the legal mark at 235 (column 235 of a plot
   * of 256, widened to the chroma block 234..235) is dashed down to the
   * bars, which stand whole: bin 235 fills the plot (Y 235). */
  memset (counts, 0, sizeof (counts));
  counts[235] = 1000;
  counts[234] = 10;
  h = annotated_harness_new ("I420", 256, 40, NULL);
  set_rectangle (h, 0, 0, 256, 40);
  gst_util_set_object_arg (G_OBJECT (h->element), "graticule", "none");
  g_object_set (h->element, "legend", FALSE, "clipping-text", FALSE,
      "alpha", 1.0, NULL);
  in = solid_frame ("I420", 256, 40, BLACK, &info);
  add_meta (in, 1, luma, 256, counts);
  out = gst_harness_push_and_pull (h, in);
  gst_buffer_map (out, &map, GST_MAP_READ);
  for (y = 0; y < 40; y++) {
    fail_unless_equals_int (sample_at (&info, &map, 0, 235, y), 235);
    /* Column 234: the dashes (amber, Y 170) down to bin 234's bar, a
     * row at the bottom. */
    fail_unless_equals_int (sample_at (&info, &map, 0, 234, y),
        y == 39 ? 235 : y % 6 < 3 ? 170 : 16);
  }
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Behind clhistogram, whose statistics count the clipped samples at its
 * clip levels (full-range gray: 0 and 255): a frame with 1 % at 255
 * lights the right lamp (red: Y 76 in BT.601), one with 1 % at 254 does
 * not (dark gray, 64); 1 % at 0 lights the left one (azure: Y 123). The
 * box of 100 x 60 has no text: indicators 6 wide, 1 from the bars and
 * the top. */
GST_START_TEST (test_clip_indicators_pipeline)
{
  static const struct {
    guint8 value;
    guint8 left, right;
  } cases[] = {
    {255, 64, 76}, {254, 64, 64}, {0, 123, 64}, {1, 64, 64},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = gst_harness_new_parse ("clhistogram ! histogramoverlay "
        "x=0 y=0 width=100 height=60 graticule=none legend=false "
        "clipping-text=false alpha=1.0");
    GstVideoInfo info;
    GstBuffer *in, *out;
    GstMapInfo map;
    gint x, y;

    gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=100,"
        "height=100,framerate=30/1");
    in = gray_frame (100, 100, 128, &info);
    gst_buffer_memset (in, 0, cases[i].value, 100);
    GST_BUFFER_PTS (in) = 0;
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL);
    gst_buffer_map (out, &map, GST_MAP_READ);
    for (y = 1; y < 7; y++)
      for (x = 0; x < 6; x++) {
        fail_unless_equals_int (map.data[y * 100 + x], cases[i].left);
        fail_unless_equals_int (map.data[y * 100 + 94 + x], cases[i].right);
      }
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* The legend: the channels' names in their colours left to right in the
 * box's top line, the graticule's unit in white at its right. */
GST_START_TEST (test_legend)
{
  static const gchar *const rgb[] = { "R", "G", "B" };
  /* The channels' colours 40 % of the way to white, as text is drawn. */
  static const guint8 red[3] = { 255, 102, 102 }, green[3] = { 102, 255,
    102
  }, blue[3] = { 102, 102, 255 }, white[3] = { 255, 255, 255 };
  GstHarness *h = annotated_harness_new ("RGB", 400, 200, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  gint row;
  guint on;

  set_rectangle (h, 0, 0, 400, 200);
  g_object_set (h->element, "clipping-text", FALSE, "alpha", 1.0, NULL);
  for (on = 0; on < 2; on++) {
    g_object_set (h->element, "legend", (gboolean) on, NULL);
    in = solid_frame ("RGB", 400, 200, BLACK, &info);
    add_empty_meta (in, 3, rgb);
    out = gst_harness_push_and_pull (h, in);
    if (on) {
      fail_unless (pixels_near (out, &info, 0, 0, 30, 24, red, &row) > 5);
      fail_unless (pixels_near (out, &info, 10, 0, 60, 24, green, &row) > 5);
      fail_unless (pixels_near (out, &info, 20, 0, 90, 24, blue, &row) > 5);
      fail_unless (pixels_near (out, &info, 300, 0, 400, 24, white,
              &row) > 5);
    } else {
      fail_unless_equals_int (pixels_near (out, &info, 0, 0, 400, 24, red,
              &row), 0);
      fail_unless_equals_int (pixels_near (out, &info, 300, 0, 400, 24,
              white, &row), 0);
    }
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Rows of an RGB frame between @y0 and @y1 with a white pixel (each
 * component above 200) in columns @x0..@x1. */
static gint
rows_white (GstBuffer *buffer, const GstVideoInfo *info, gint x0, gint x1,
    gint y0, gint y1)
{
  GstMapInfo map;
  gint rows = 0, x, y;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (y = y0; y < y1; y++)
    for (x = x0; x < x1; x++)
      if (sample_at (info, &map, 0, x, y) > 200
          && sample_at (info, &map, 1, x, y) > 200
          && sample_at (info, &map, 2, x, y) > 200) {
        rows++;
        break;
      }
  gst_buffer_unmap (buffer, &map);
  return rows;
}

/* The RGB pixel (@x, @y) of an RGB frame. */
static void
assert_pixel (GstBuffer *buffer, const GstVideoInfo *info, gint x, gint y,
    guint8 r, guint8 g, guint8 b)
{
  GstMapInfo map;
  guint8 got[3];
  guint comp;

  gst_buffer_map (buffer, &map, GST_MAP_READ);
  for (comp = 0; comp < 3; comp++)
    got[comp] = sample_at (info, &map, comp, x, y);
  gst_buffer_unmap (buffer, &map);
  fail_unless (got[0] == r && got[1] == g && got[2] == b,
      "pixel (%d, %d): %u, %u, %u, want %u, %u, %u", x, y, got[0], got[1],
      got[2], r, g, b);
}

/* Four 50x40 zones over a gray (64) frame at full opacity: clipped
 * (2 % >= 1 %) red, fine (0.5 %) white at 35 % (89 of 255: 131 over
 * 64), crushed (5 % low) azure, both magenta; the alerts' borders three
 * pixels wide, the fine one's one. */
static GstBuffer *
zones_frame (GstVideoInfo *info, guint64 high0, guint64 high1)
{
  GstBuffer *in = solid_frame ("RGB", 100, 80, BLACK, info);
  GstMapInfo map;
  gint x, y;
  guint comp;

  gst_buffer_map (in, &map, GST_MAP_WRITE);
  for (y = 0; y < 80; y++)
    for (x = 0; x < 100; x++)
      for (comp = 0; comp < 3; comp++)
        map.data[sample_offset (info, comp, x, y)] = 64;
  gst_buffer_unmap (in, &map);
  add_zone (in, 0, 0, 0, 50, 40, 2000, 0, high0);
  add_zone (in, 1, 50, 0, 50, 40, 2000, 0, high1);
  add_zone (in, 2, 0, 40, 50, 40, 2000, 100, 0);
  add_zone (in, 3, 50, 40, 50, 40, 2000, 100, 40);
  return in;
}

GST_START_TEST (test_zones)
{
  GstHarness *h = annotated_harness_new ("RGB", 100, 80, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;

  g_object_set (h->element, "alpha", 1.0, NULL);
  out = gst_harness_push_and_pull (h, zones_frame (&info, 40, 10));
  assert_pixel (out, &info, 0, 0, 255, 0, 0);
  assert_pixel (out, &info, 2, 2, 255, 0, 0);
  assert_pixel (out, &info, 47, 20, 255, 0, 0);
  assert_pixel (out, &info, 49, 39, 255, 0, 0);
  assert_pixel (out, &info, 3, 3, 64, 64, 64);
  assert_pixel (out, &info, 46, 20, 64, 64, 64);
  assert_pixel (out, &info, 50, 0, 131, 131, 131);
  assert_pixel (out, &info, 99, 39, 131, 131, 131);
  assert_pixel (out, &info, 51, 1, 64, 64, 64);
  assert_pixel (out, &info, 0, 40, 0, 160, 255);
  assert_pixel (out, &info, 2, 79, 0, 160, 255);
  assert_pixel (out, &info, 3, 43, 64, 64, 64);
  assert_pixel (out, &info, 50, 40, 255, 0, 255);
  assert_pixel (out, &info, 53, 43, 64, 64, 64);
  gst_buffer_unref (out);

  /* Zone 0 falls under the threshold (0.9 %): fine again. */
  out = gst_harness_push_and_pull (h, zones_frame (&info, 18, 10));
  assert_pixel (out, &info, 0, 0, 131, 131, 131);
  assert_pixel (out, &info, 1, 1, 64, 64, 64);
  gst_buffer_unref (out);

  /* A threshold of 0.5 %: zone 1, exactly at it, clips; at 0 %, a zone
   * without a clipped sample stays fine. */
  g_object_set (h->element, "zone-clipped", 0.5, NULL);
  out = gst_harness_push_and_pull (h, zones_frame (&info, 18, 10));
  assert_pixel (out, &info, 0, 0, 255, 0, 0);
  assert_pixel (out, &info, 51, 1, 255, 0, 0);
  gst_buffer_unref (out);
  g_object_set (h->element, "zone-clipped", 0.0, NULL);
  out = gst_harness_push_and_pull (h, zones_frame (&info, 0, 10));
  assert_pixel (out, &info, 1, 1, 64, 64, 64);
  assert_pixel (out, &info, 51, 1, 255, 0, 0);
  gst_buffer_unref (out);

  /* The crushed threshold above zone 2's 5 %: fine. */
  g_object_set (h->element, "zone-crushed", 5.5, NULL);
  out = gst_harness_push_and_pull (h, zones_frame (&info, 0, 0));
  assert_pixel (out, &info, 0, 40, 131, 131, 131);
  assert_pixel (out, &info, 50, 40, 255, 0, 0);
  gst_buffer_unref (out);

  /* zones=false: zones alone leave the frame as it came. */
  g_object_set (h->element, "zones", FALSE, NULL);
  in = zones_frame (&info, 40, 40);
  assert_passes_untouched (h, in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Statistics no clhistogram gives, from a hostile upstream: a zone of
 * no samples is unknown (not drawn) whatever it says is clipped; more
 * clipped samples than samples, or 2^64 - 1 of 2^64 - 1, are 100 %, which
 * reaches thresholds of 100 %; a full-frame histogram with its binned
 * range upside down, a depth of 32, a channel of no samples, another
 * crushed 2^64 - 1 times and a metering value that is not a number is
 * drawn as a box without graticule. */
GST_START_TEST (test_zones_hostile_statistics)
{
  static const gchar *const names[] = { "Y", "U" };
  static const guint8 clipped_text[3] = { 255, 80, 80 };
  GstHarness *h = annotated_harness_new ("RGB", 100, 80, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstHistogramMeta *meta;
  GstMapInfo map;
  gint row;
  guint labels;

  g_object_set (h->element, "alpha", 1.0, "zone-clipped", 100.0,
      "zone-crushed", 100.0, NULL);
  for (labels = 0; labels < 2; labels++) {
    g_object_set (h->element, "zone-labels", (gboolean) labels, NULL);
    in = solid_frame ("RGB", 100, 80, BLACK, &info);
    gst_buffer_map (in, &map, GST_MAP_WRITE);
    memset (map.data, 64, map.size);
    gst_buffer_unmap (in, &map);
    set_clipped (add_zone (in, 0, 0, 0, 50, 40, 0, 0, 0), 0, 0, 5, 5);
    add_zone (in, 1, 50, 0, 50, 40, 100, 0, 1000);
    add_zone (in, 2, 0, 40, 50, 40, G_MAXUINT64, G_MAXUINT64, 0);
    add_zone (in, 3, 50, 40, 50, 40, 10, G_MAXUINT64, G_MAXUINT64);
    meta = add_empty_meta (in, 2, names);
    meta->info.range_min = 300;
    meta->info.range_max = 200;
    meta->info.depth = 32;
    set_clipped (meta, 0, 0, 7, 7);
    set_clipped (meta, 1, 10, G_MAXUINT64, 0);
    gst_histogram_meta_set_metering (meta, NAN, INFINITY);
    out = gst_harness_push_and_pull (h, in);
    /* The box, at its default place (2, 2), 35 x 18: too small for text,
     * the background at three quarters over the zone of no samples. */
    gst_buffer_map (out, &map, GST_MAP_READ);
    fail_unless (sample_at (&info, &map, 0, 10, 10) < 20);
    gst_buffer_unmap (out, &map);
    assert_pixel (out, &info, 45, 30, 64, 64, 64);
    assert_pixel (out, &info, 50, 0, 255, 0, 0);
    assert_pixel (out, &info, 99, 39, 255, 0, 0);
    assert_pixel (out, &info, 0, 79, 0, 160, 255);
    assert_pixel (out, &info, 50, 40, 255, 0, 255);
    assert_pixel (out, &info, 90, 75, 64, 64, 64);
    /* Zone 1's label, "▲100%", in the alert's colour. */
    fail_unless_equals_int (pixels_near (out, &info, 53, 3, 97, 37,
            clipped_text, &row) > 0, labels);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Zones whose state is unknown (no statistics, or statistics without
 * their summary) draw nothing; a zone's rectangle is clipped to the
 * frame, a hostile one outside it draws nothing and reads nothing past
 * the buffer. */
GST_START_TEST (test_zones_unknown_or_outside)
{
  static const gchar *const names[] = { "Y" };
  static const guint32 counts[4] = { 0 };
  const guint n_bins = 4;
  const GstHistogramRegion zone = { "zone", 0, 0, 0, 50, 40 };
  GstHarness *h = annotated_harness_new ("RGB", 100, 80, NULL);
  GstHistogramStatistics statistics = { 0 };
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstHistogramMeta *meta;

  in = read_only_frame_new ("RGB", 100, 80, &info);
  add_zone (in, 0, 0, 0, 50, 40, 0, 0, 0);
  meta = add_region_meta (in, GST_HISTOGRAM_MODE_LUMA, 1, names, 1, &n_bins,
      counts, &zone);
  statistics.samples = 2000;
  statistics.clipped_high = 2000;
  fail_unless (gst_histogram_meta_set_statistics (meta, 0, &statistics));
  assert_passes_untouched (h, in);

  g_object_set (h->element, "alpha", 1.0, NULL);
  in = solid_frame ("RGB", 100, 80, BLACK, &info);
  add_zone (in, 0, 90, 70, 1000, 1000, 100, 0, 100);
  add_zone (in, 1, G_MAXUINT - 5, G_MAXUINT - 5, G_MAXUINT, G_MAXUINT, 100,
      0, 100);
  add_zone (in, 2, 0, 0, 0, 0, 100, 0, 100);
  out = gst_harness_push_and_pull (h, in);
  assert_pixel (out, &info, 90, 70, 255, 0, 0);
  assert_pixel (out, &info, 99, 79, 255, 0, 0);
  assert_pixel (out, &info, 93, 73, 0, 0, 0);
  assert_pixel (out, &info, 0, 0, 0, 0, 0);
  assert_pixel (out, &info, 89, 69, 0, 0, 0);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Zone labels: each zone's shares in its corner ("▲" in red over the
 * clipped threshold), none where they would touch the graph's box. */
GST_START_TEST (test_zone_labels)
{
  static const gchar *const names[] = { "Y" };
  static const guint8 red[3] = { 255, 80, 80 };
  GstHarness *h = annotated_harness_new ("RGB", 400, 320, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  gint row;
  guint on;

  g_object_set (h->element, "alpha", 1.0, NULL);
  for (on = 0; on < 2; on++) {
    g_object_set (h->element, "zone-labels", (gboolean) on, NULL);
    in = solid_frame ("RGB", 400, 320, BLACK, &info);
    add_zone (in, 0, 0, 0, 200, 160, 1000, 0, 50);
    add_zone (in, 1, 200, 0, 200, 160, 1000, 0, 0);
    out = gst_harness_push_and_pull (h, in);
    /* Zone 0 clips: its "▲5.0%" in light red; zone 1's labels white. */
    fail_unless_equals_int (pixels_near (out, &info, 3, 3, 100, 60, red,
            &row) > 10, on);
    fail_unless_equals_int (pixels_near (out, &info, 203, 3, 300, 60, red,
            &row), 0);
    fail_unless_equals_int (rows_white (out, &info, 203, 300, 3, 60) > 5,
        on);
    gst_buffer_unref (out);
  }

  /* With the graph's box in zone 0's corner, its labels are left out
   * (the box is white and gray: nothing red). */
  in = solid_frame ("RGB", 400, 320, BLACK, &info);
  add_zone (in, 0, 0, 0, 200, 160, 1000, 0, 50);
  add_empty_meta (in, 1, names);
  out = gst_harness_push_and_pull (h, in);
  fail_unless_equals_int (pixels_near (out, &info, 3, 3, 200, 157, red,
          &row), 0);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Every format, odd sizes, plain and padded strides, with everything
 * drawn (relative box, graticule, marks, legend, shares, a zone with
 * labels): no byte changes but the samples co-sited with a pixel of the
 * box or of the zone, and both are drawn. */
GST_START_TEST (test_annotated_formats)
{
  static const gchar *const rgb_channels[] = { "R", "G", "B" };
  static const gchar *const yuv_channels[] = { "Y", "U", "V" };
  static const gchar *const gray_channels[] = { "Y" };
  static const gint sizes[][2] = { {33, 17}, {67, 41}, {401, 301} };
  const gchar *format = formats[__i__];
  guint s, padded;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (padded = 0; padded < 2; padded++) {
      const gint width = sizes[s][0], height = sizes[s][1];
      GstHarness *h = annotated_harness_new (format, width, height, NULL);
      GstVideoInfo info;
      GstBuffer *in = frame_new (format, width, height, padded, &info);
      const GstVideoFormatInfo *finfo = info.finfo;
      Box box = relative_box (width, height, 35.0, "top-left");
      Box zone = { width / 2, height / 2, width / 3, height / 3 };
      const gchar *const *names = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) ?
          rgb_channels : GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) ? yuv_channels :
          gray_channels;
      const guint n = GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo) ? 1 : 3;
      GstHistogramMeta *meta;
      GstMapInfo in_map, out_map;
      guint8 *before;
      gboolean *inside;
      guint in_box = 0, in_zone = 0, c, comp;
      GstBuffer *out;
      gsize i;

      GST_INFO ("%s %dx%d%s", format, width, height, padded ? " padded" :
          "");
      g_object_set (h->element, "zone-labels", TRUE, NULL);
      meta = add_meta (in, n, names, 4, rgb_counts);
      for (c = 0; c < n; c++)
        set_clipped (meta, c, 1000, 10 * c, 20 * c);
      add_zone (in, 0, zone.x, zone.y, zone.w, zone.h, 1000, 0, 500);

      gst_buffer_map (in, &in_map, GST_MAP_READ);
      before = g_memdup2 (in_map.data, in_map.size);
      inside = g_new0 (gboolean, in_map.size);
      gst_buffer_unmap (in, &in_map);
      out = gst_harness_push_and_pull (h, in);
      gst_buffer_map (out, &out_map, GST_MAP_READ);
      for (comp = 0; comp < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
          comp++) {
        gint w_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, comp);
        gint h_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, comp);
        gint cw = GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, comp, width);
        gint ch = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, comp, height);
        gint sx, sy;

        for (sy = 0; sy < ch; sy++)
          for (sx = 0; sx < cw; sx++) {
            gint64 px = sx << w_sub, py = sy << h_sub;
            gsize at = sample_offset (&info, comp, sx, sy);
            gboolean b = px >= box.x && px < box.x + box.w && py >= box.y
                && py < box.y + box.h;
            gboolean z = px >= zone.x && px < zone.x + zone.w
                && py >= zone.y && py < zone.y + zone.h;

            inside[at] = b || z;
            in_box += b && out_map.data[at] != before[at];
            in_zone += z && !b && out_map.data[at] != before[at];
          }
      }
      for (i = 0; i < out_map.size; i++)
        if (!inside[i] && out_map.data[i] != before[i])
          fail ("%s %dx%d: byte %" G_GSIZE_FORMAT " outside the box and "
              "the zone changed: %u -> %u", format, width, height, i,
              before[i], out_map.data[i]);
      fail_unless (in_box > 0 && in_zone > 0, "%s %dx%d: box %u, zone %u",
          format, width, height, in_box, in_zone);
      gst_buffer_unmap (out, &out_map);
      gst_buffer_unref (out);
      g_free (inside);
      g_free (before);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* With its defaults, frames with nothing to draw still leave as they
 * came: no meta, only zones without statistics, only a region's. */
GST_START_TEST (test_annotated_nothing_to_draw)
{
  static const gchar *const names[] = { "Y" };
  static const guint32 counts[] = { 5, 5 };
  const guint n_bins = 2;
  const GstHistogramRegion region = { "region", 3, 0, 0, 10, 10 };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstHarness *h = annotated_harness_new (formats[f], 64, 48, NULL);
    GstVideoInfo info;
    GstBuffer *in = read_only_frame_new (formats[f], 64, 48, &info);

    assert_passes_untouched (h, in);
    in = read_only_frame_new (formats[f], 64, 48, &info);
    add_zone (in, 0, 0, 0, 32, 24, 0, 0, 0);
    fail_unless (add_region_meta (in, GST_HISTOGRAM_MODE_LUMA, 1, names, 1,
            &n_bins, counts, &region) != NULL);
    assert_passes_untouched (h, in);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static GstPadProbeReturn
check_red_corner (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  guint *red = user_data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;

  /* RGBx: the top-left zone's border, outside the graph's box. */
  gst_buffer_map (buffer, &map, GST_MAP_READ);
  if (map.data[0] == 255 && map.data[1] == 0 && map.data[2] == 0)
    (*red)++;
  gst_buffer_unmap (buffer, &map);
  return GST_PAD_PROBE_OK;
}

/* Behind clhistogram zones=4x4: a white frame clips in every zone, each
 * outlined in red. */
GST_START_TEST (test_pipeline_zones)
{
  GstElement *pipeline, *sink;
  GstMessage *msg;
  GstPad *pad;
  GstBus *bus;
  guint red = 0;

  run_pipeline ("videotestsrc num-buffers=3 ! clhistogram zones=5x5 ! "
      "histogramoverlay zone-labels=true graticule=ire ! fakesink");
  pipeline = gst_parse_launch ("videotestsrc num-buffers=3 pattern=white ! "
      "video/x-raw,format=RGBx,width=320,height=240 ! clhistogram "
      "zones=4x4 ! histogramoverlay alpha=1 zone-labels=true ! "
      "fakesink name=sink", NULL);
  fail_unless (pipeline != NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_red_corner, &red,
      NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (60),
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  fail_unless_equals_int (red, 3);
}

GST_END_TEST;

/* Channel names are any string in a meta: one that is not UTF-8 is left
 * out of the legend (Pango would warn and draw garbage), the others
 * stay. */
GST_START_TEST (test_legend_names_not_utf8)
{
  static const gchar *const names[] = { "\xff\xfe", "G" };
  /* G's colour 40 % of the way to white, as text is drawn. */
  static const guint8 green[3] = { 102, 255, 102 };
  GstHarness *h = annotated_harness_new ("RGB", 400, 200, NULL);
  GstVideoInfo info;
  GstBuffer *in, *out;
  gint row;

  set_rectangle (h, 0, 0, 400, 200);
  g_object_set (h->element, "alpha", 1.0, NULL);
  in = solid_frame ("RGB", 400, 200, BLACK, &info);
  add_empty_meta (in, 2, names);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (pixels_near (out, &info, 0, 0, 40, 24, green, &row) > 5);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Counts the overlay's warnings that text could not be rendered. */
static void
count_font_warnings (GstDebugCategory *category, GstDebugLevel level,
    const gchar *file, const gchar *function, gint line, GObject *object,
    GstDebugMessage *message, gpointer user_data)
{
  if (level == GST_LEVEL_WARNING
      && g_str_equal (gst_debug_category_get_name (category),
          "histogramoverlay")
      && strstr (gst_debug_message_get (message), "no font"))
    g_atomic_int_inc ((gint *) user_data);
}

/* Run by the test element-overlay-no-font, with a fontconfig that has no
 * font: each frame is drawn (the box, its lines, the zones) without text,
 * one warning says why and what to install. Before, Pango drew every
 * character here as a box of its code; and where fontconfig listed fonts
 * that could not be loaded (a sysroot's paths), cairo's surface for a
 * label had no data and copying it crashed (SIGSEGV). */
GST_START_TEST (test_no_font)
{
  static const gchar *const names[] = { "Y" };
  GstHarness *h = annotated_harness_new ("GRAY8", 400, 300, NULL);
  Box want = relative_box (400, 300, 35.0, "top-left"), got;
  gint warnings = 0;
  GstVideoInfo info;
  GstHistogramMeta *meta;
  GstBuffer *in, *out;
  guint i;

  gst_debug_add_log_function (count_font_warnings, &warnings, NULL);
  g_object_set (h->element, "zone-labels", TRUE, NULL);
  for (i = 0; i < 2; i++) {
    in = gray_frame (400, 300, 128, &info);
    meta = add_empty_meta (in, 1, names);
    set_clipped (meta, 0, 1000, 20, 30);
    out = gst_harness_push_and_pull (h, in);
    got = changed_box (out, &info, 128);
    fail_unless (got.x == want.x && got.y == want.y && got.w == want.w
        && got.h == want.h);
    /* No legend: nothing white in the box's top line. */
    fail_unless_equals_int (rows_above (out, &info, want.x, want.x + want.w,
            want.y, want.y + 14, 200), 0);
    gst_buffer_unref (out);
  }
  gst_debug_remove_log_function (count_font_warnings);
  fail_unless_equals_int (g_atomic_int_get (&warnings), 1);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
histogramoverlay_suite (void)
{
  Suite *s = suite_create ("histogramoverlay");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_formats, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_no_meta_same_buffer);
  tcase_add_test (tc, test_alpha_zero);
  tcase_add_test (tc, test_in_place);
  tcase_add_test (tc, test_log_scale);
  tcase_add_test (tc, test_bins_per_column);
  tcase_add_test (tc, test_overlapping_channels);
  tcase_add_test (tc, test_rectangle_outside);
  tcase_add_test (tc, test_rectangle_huge);
  tcase_add_test (tc, test_region_meta);
  tcase_add_test (tc, test_multi_dimensional_skipped);
  tcase_add_test (tc, test_hue_colours);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_change_while_playing);
  tcase_add_test (tc, test_change_grouped);
  tcase_add_test (tc, test_video_meta_past_buffer);
  tcase_add_test (tc, test_default_alpha);
  tcase_add_test (tc, test_pipeline);
  tcase_add_test (tc, test_annotation_properties);
  tcase_add_test (tc, test_relative_box);
  tcase_add_test (tc, test_box_in_pixels);
  tcase_add_test (tc, test_graticule_codes);
  tcase_add_test (tc, test_graticule_ire);
  tcase_add_test (tc, test_legal_marks);
  tcase_add_test (tc, test_legal_marks_tall_box);
  tcase_add_test (tc, test_clipping_text);
  tcase_add_test (tc, test_clip_indicators);
  tcase_add_test (tc, test_clip_gauge_channels);
  tcase_add_test (tc, test_marks_under_bars);
  tcase_add_test (tc, test_clip_indicators_pipeline);
  tcase_add_test (tc, test_legend);
  tcase_add_test (tc, test_zones);
  tcase_add_test (tc, test_zones_unknown_or_outside);
  tcase_add_test (tc, test_zones_hostile_statistics);
  tcase_add_test (tc, test_zone_labels);
  tcase_add_loop_test (tc, test_annotated_formats, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_annotated_nothing_to_draw);
  tcase_add_test (tc, test_pipeline_zones);
  tcase_add_test (tc, test_legend_names_not_utf8);
  /* Only where fontconfig has no font (tests/meson.build says where). */
  if (g_getenv ("CLH_TEST_NO_FONT"))
    tcase_add_test (tc, test_no_font);
  return s;
}

CLH_CHECK_MAIN (histogramoverlay);
