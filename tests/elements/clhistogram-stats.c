/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram's statistics through GStreamer: every format's depth, the
 * three 1-D modes, random, one-value and gradient frames, bins finer and
 * coarser than the samples and a narrowed range, zones and regions (one
 * of them empty), each meta and message entry against the golden
 * reference; the clip levels on limited and full range at every depth and
 * the clip-level properties; message-counts; percentiles at p = 0 and 100 and where N * p /
 * 100 is a whole number; any percentile from the meta; statistics off; the `interval`
 * sums of a 30 fps source, ended by EOS, a flush and new caps. */
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-check-util.h"
#include "clh-reference-frame.h"

/* p = 12.5 of the 40x25 frames' 1000 samples is rank 125 exactly; 0 and
 * 100 are the ends. */
static const gdouble ps[] = { 0.0, 1.0, 10.0, 12.5, 50.0, 90.0, 99.0, 100.0 };

typedef enum {
  CONTENT_RANDOM,
  CONTENT_ONE_VALUE,
  CONTENT_GRADIENT,
} Content;

static GstBuffer *
make_frame (const GstVideoInfo *info, Content content, guint32 seed)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  const guint8 one = g_rand_int (rand) & 0xff;
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = content == CONTENT_RANDOM ? g_rand_int (rand) & 0xff :
        content == CONTENT_ONE_VALUE ? one : (guint8) (i * 7 / 5);
  gst_buffer_unmap (buffer, &map);
  g_rand_free (rand);
  GST_BUFFER_PTS (buffer) = 0;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static void
set_percentiles (GstElement *element, const gdouble *values, guint n)
{
  GValue array = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    GValue v = G_VALUE_INIT;

    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, values[i]);
    gst_value_array_append_and_take_value (&array, &v);
  }
  g_object_set_property (G_OBJECT (element), "percentiles", &array);
  g_value_unset (&array);
}

static GstHarness *
stats_harness (const gchar *description, const GstVideoInfo *info)
{
  GstHarness *h = gst_harness_new_parse (description);
  GstElement *element = gst_harness_find_element (h, "clhistogram");

  set_percentiles (element, ps, G_N_ELEMENTS (ps));
  gst_object_unref (element);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (info));
  return h;
}

static guint
uint_at (const GstStructure *s, const gchar *field, guint c)
{
  return g_value_get_uint (gst_value_array_get_value
      (gst_structure_get_value (s, field), c));
}

static guint64
uint64_at (const GstStructure *s, const gchar *field, guint c)
{
  return g_value_get_uint64 (gst_value_array_get_value
      (gst_structure_get_value (s, field), c));
}

/* The clip levels of a case: the caps' range (UNKNOWN: as
 * gst_video_info_set_format() leaves it) and the properties' percents. */
typedef struct {
  GstVideoColorRange range;
  gdouble low;
  gdouble high;
} Levels;

static const Levels default_levels = { GST_VIDEO_COLOR_RANGE_UNKNOWN, 0.0,
  100.0
};

/* The clip levels of channel @c, as the reference reads them off the
 * nominal range. */
static void
want_levels (const GstVideoInfo *info, const gchar *mode, guint c,
    const Levels *levels, guint *low, guint *high)
{
  const gboolean channels = g_strcmp0 (mode, "channels") == 0;
  /* Luma and max of R, G, B are 8-bit; a gray or Y plane has its depth. */
  const guint depth = GST_VIDEO_INFO_IS_RGB (info) && !channels ? 8 :
      GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0);
  const gboolean limited = GST_VIDEO_INFO_COLORIMETRY (info).range
      == GST_VIDEO_COLOR_RANGE_16_235;
  const gboolean chroma = channels && GST_VIDEO_INFO_IS_YUV (info) && c > 0;

  *low = clh_reference_clip_level (depth, limited, chroma, levels->low);
  *high = clh_reference_clip_level (depth, limited, chroma, levels->high);
}

/* The statistics of one histogram, in its meta and message entry, against
 * the reference's of the same rectangle with the same clip levels. */
static void
check_stats (const GstVideoInfo *info, GstBuffer *buffer, const gchar *mode,
    const Levels *levels, const ClhRect *rect, GstHistogramMeta *meta,
    const GstStructure *entry, const gchar *what)
{
  ClhStats want[CLH_MAX_CHANNELS];
  const gboolean legal = GST_VIDEO_INFO_COLORIMETRY (info).range
      == GST_VIDEO_COLOR_RANGE_16_235;
  guint c, i;

  fail_unless (clh_reference_stats_of_buffer_region_clipped (info, buffer,
          mode, rect, levels->low, levels->high, ps, G_N_ELEMENTS (ps),
          want), "%s: no reference", what);
  fail_unless_equals_int (gst_structure_has_field (entry, "below-legal"),
      legal);
  for (c = 0; c < meta->info.n_channels; c++) {
    const GstHistogramStatistics *st =
        gst_histogram_meta_get_statistics (meta, c);
    const gdouble mean = want[c].samples ? (gdouble) want[c].sum
        / (gdouble) want[c].samples : 0.0;
    const GValue *row = gst_value_array_get_value (gst_structure_get_value
        (entry, "percentiles"), c);
    const guint n = st->n_percentiles;
    const guint *values = st->percentiles;
    guint low, high;

    fail_unless (st->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY, "%s",
        what);
    fail_unless_equals_int (!!(st->flags
            & GST_HISTOGRAM_STATISTICS_FLAG_LEGAL_RANGE), legal);
    fail_unless_equals_uint64 (st->samples, want[c].samples);
    fail_unless (st->min == want[c].min
        && uint_at (entry, "min", c) == want[c].min,
        "%s channel %u: min %u, the reference says %u", what, c, st->min,
        want[c].min);
    fail_unless (st->max == want[c].max
        && uint_at (entry, "max", c) == want[c].max,
        "%s channel %u: max %u, the reference says %u", what, c, st->max,
        want[c].max);
    /* Exact: the same sum over the same count, bit for bit. */
    fail_unless (st->mean == mean
        && g_value_get_double (gst_value_array_get_value
            (gst_structure_get_value (entry, "mean"), c)) == mean,
        "%s channel %u: mean %.17g, the reference says %.17g", what, c,
        st->mean, mean);
    fail_unless_equals_int (n, G_N_ELEMENTS (ps));
    fail_unless_equals_int (gst_value_array_get_size (row), n);
    for (i = 0; i < n; i++) {
      guint any;

      fail_unless (st->percentile_points[i] == ps[i]);
      fail_unless (values[i] == want[c].percentiles[i]
          && g_value_get_uint (gst_value_array_get_value (row, i))
          == want[c].percentiles[i],
          "%s channel %u: p%g is %u, the reference says %u", what, c, ps[i],
          values[i], want[c].percentiles[i]);
      fail_unless (gst_histogram_meta_get_percentile (meta, c, ps[i], &any));
      fail_unless_equals_int (any, want[c].percentiles[i]);
    }
    fail_unless_equals_uint64 (uint64_at (entry, "clipped-low", c),
        want[c].clipped_low);
    fail_unless_equals_uint64 (uint64_at (entry, "clipped-high", c),
        want[c].clipped_high);
    fail_unless_equals_uint64 (st->clipped_low, want[c].clipped_low);
    fail_unless_equals_uint64 (st->clipped_high, want[c].clipped_high);
    want_levels (info, mode, c, levels, &low, &high);
    fail_unless (st->clip_low_level == low
        && uint_at (entry, "clip-low-level", c) == low,
        "%s channel %u: clip-low-level %u, the reference says %u", what, c,
        st->clip_low_level, low);
    fail_unless (st->clip_high_level == high
        && uint_at (entry, "clip-high-level", c) == high,
        "%s channel %u: clip-high-level %u, the reference says %u", what, c,
        st->clip_high_level, high);
    if (legal) {
      fail_unless_equals_uint64 (uint64_at (entry, "below-legal", c),
          want[c].below_legal);
      fail_unless_equals_uint64 (uint64_at (entry, "above-legal", c),
          want[c].above_legal);
      fail_unless_equals_uint64 (st->above_legal, want[c].above_legal);
    }
    fail_unless (want[c].samples == 0 || (gdouble) st->clipped_low
        / (gdouble) st->samples
        == (gdouble) want[c].clipped_low / (gdouble) want[c].samples);
  }
}

/* The counts in the request's bins and range against the reference's. */
static void
check_counts (const GstVideoInfo *info, GstBuffer *buffer, const gchar *mode,
    guint bins, guint range_min, gint range_max, const ClhRect *rect,
    GstHistogramMeta *meta, const gchar *what)
{
  ClhHistogramSpec spec;
  ClhHistogram want;
  guint c;

  fail_unless (clh_reference_histogram_of_buffer_region (info, buffer, mode,
          bins, range_min, range_max, rect, &spec, &want));
  fail_unless_equals_int (meta->info.n_bins,
      clh_histogram_spec_n_bins (&spec));
  for (c = 0; c < meta->info.n_channels; c++) {
    fail_unless (memcmp (gst_histogram_meta_get_counts (meta, c, NULL),
            want.counts + (gsize) c * meta->info.n_bins,
            sizeof (guint32) * meta->info.n_bins) == 0,
        "%s channel %u: counts differ from the reference", what, c);
    fail_unless_equals_uint64 (gst_histogram_meta_get_statistics (meta,
            c)->below, want.below[c]);
    fail_unless_equals_uint64 (gst_histogram_meta_get_statistics (meta,
            c)->above, want.above[c]);
  }
  g_free (want.counts);
}

/* One format x mode x content x binning at @levels: the whole frame, 3x2
 * zones and two fixed regions (one outside the frame: no samples). FALSE
 * if the mode does not apply to the format. */
static gboolean
check_case_at (const gchar *format, const gchar *mode, Content content,
    guint binning, const Levels *levels)
{
  const guint width = 40, height = 25;
  const ClhRect outside = { 50, 3, 4, 4 }, inside = { 3, 2, 17, 9 };
  GstVideoInfo info;
  GstBuffer *buffer, *out;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  const GstStructure *s;
  ClhStats probe[CLH_MAX_CHANNELS];
  guint depth, bins, range_min, i;
  gint range_max;
  gchar *desc, *what;
  GList *metas, *l;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  if (levels->range != GST_VIDEO_COLOR_RANGE_UNKNOWN)
    info.colorimetry.range = levels->range;
  buffer = make_frame (&info, content, g_str_hash (format) + content);
  if (!clh_reference_stats_of_buffer_region (&info, buffer, mode, NULL, ps,
          1, probe)) {
    gst_buffer_unref (buffer);
    return FALSE;
  }
  /* Bins of one value each, coarser bins, and a narrowed range. */
  depth = g_strcmp0 (mode, "channels") == 0 ?
      GST_VIDEO_FORMAT_INFO_DEPTH (info.finfo, 0) : 8;
  bins = binning == 0 ? MIN (1u << depth, 256) : binning == 1 ? 7 : 5;
  range_min = binning == 2 ? 3u << (depth - 4) : 0;
  range_max = binning == 2 ? (gint) (11u << (depth - 4)) : -1;
  if (binning == 0 && depth > 8)
    bins = 1u << depth;

  desc = g_strdup_printf ("clhistogram mode=%s bins=%u range-min=%u "
      "range-max=%d zones=3x2 regions=\"<<%d,%d,%d,%d>,<%d,%d,%d,%d>>\" "
      "clip-low-level=%g clip-high-level=%g", mode, bins, range_min,
      range_max, inside.x, inside.y, inside.width, inside.height, outside.x,
      outside.y, outside.width, outside.height, levels->low, levels->high);
  h = stats_harness (desc, &info);
  bus = clh_check_harness_bus (h->element);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buffer)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  s = gst_message_get_structure (msg);

  metas = gst_buffer_get_histogram_metas (out);
  fail_unless_equals_int (g_list_length (metas), 1 + 6 + 2);
  for (i = 0, l = metas; l; l = l->next, i++) {
    GstHistogramMeta *meta = l->data;
    const ClhRect rect = { meta->region.x, meta->region.y,
      meta->region.width, meta->region.height
    };
    const GstStructure *entry = i == 0 ? s : gst_value_get_structure
        (gst_value_array_get_value (gst_structure_get_value (s, "regions"),
            i - 1));

    what = g_strdup_printf ("%s %s content %d binning %u, %s %d", format,
        mode, content, binning, meta->region.type, meta->region.id);
    check_counts (&info, buffer, mode, bins, range_min, range_max, &rect,
        meta, what);
    check_stats (&info, buffer, mode, levels, &rect, meta, entry, what);
    g_free (what);
  }
  g_list_free (metas);
  g_free (desc);
  gst_message_unref (msg);
  gst_buffer_unref (out);
  gst_buffer_unref (buffer);
  clh_check_harness_teardown (h, bus);
  return TRUE;
}

static gboolean
check_case (const gchar *format, const gchar *mode, Content content,
    guint binning)
{
  return check_case_at (format, mode, content, binning, &default_levels);
}

GST_START_TEST (test_every_format)
{
  const gchar *const modes[] = { "luma", "channels", "max" };
  const gchar *const *formats;
  guint m, run = 0, checked = 0;

  for (formats = clh_reference_formats (); *formats; formats++)
    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      checked += check_case (*formats, modes[m], run % 3, run / 3 % 3);
      run++;
    }
  GST_INFO ("%u formats x modes checked", checked);
  fail_unless (checked >= 80, "only %u format x mode pairs ran", checked);
}
GST_END_TEST;

/* Every content and binning on a format of each depth. */
GST_START_TEST (test_contents_and_binnings)
{
  const gchar *const formats[] = { "GRAY8", "RGBA", "I420_10LE",
    "P012_LE", "GRAY16_LE", "Y444_16LE", "NV12", "YUY2"
  };
  guint f, content, binning;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (content = 0; content < 3; content++)
      for (binning = 0; binning < 3; binning++)
        fail_unless (check_case (formats[f], "channels", content, binning));
}
GST_END_TEST;

/* The clip levels on limited and full range at every depth (8, 10, 12,
 * 16 bits) for luma, chroma and R, G, B: at the nominal black and white,
 * at an operator's levels inside the range, out in the footroom and
 * headroom, at the ends of the properties' range (-10 %, 110 %: the
 * extreme codes of 8-bit limited range and beyond) and crossed; every
 * histogram's counts and levels against the reference. */
GST_START_TEST (test_clip_levels_every_depth)
{
  const gchar *const formats[] = { "GRAY8", "I420", "RGBA", "I420_10LE",
    "P010_10LE", "Y444_12LE", "P012_LE", "GRAY16_LE", "Y444_16LE", "P016_LE"
  };
  const gchar *const modes[] = { "channels", "luma" };
  const GstVideoColorRange ranges[] = { GST_VIDEO_COLOR_RANGE_16_235,
    GST_VIDEO_COLOR_RANGE_0_255
  };
  /* The last two: the ends of the properties' range, and crossed (every
   * sample clipped both ways). */
  const gdouble percents[][2] = { {0.0, 100.0}, {2.5, 95.0}, {-5.0, 105.0},
    {-10.0, 110.0}, {110.0, -10.0}
  };
  guint f, m, r, l, run = 0;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (m = 0; m < G_N_ELEMENTS (modes); m++)
      for (r = 0; r < G_N_ELEMENTS (ranges); r++)
        for (l = 0; l < G_N_ELEMENTS (percents); l++, run++) {
          const Levels levels = { ranges[r], percents[l][0],
            percents[l][1]
          };

          fail_unless (check_case_at (formats[f], modes[m],
                  run % 2 ? CONTENT_GRADIENT : CONTENT_RANDOM, run % 3,
                  &levels), "%s %s", formats[f], modes[m]);
        }
}
GST_END_TEST;

/* An I420 frame whose Y plane is 128 but for the @corner_width x
 * @corner_height pixels at the top left, at 235, and row @corner_height,
 * at 240; chroma 128. */
static GstBuffer *
highlights_frame (const GstVideoInfo *info, gint corner_width,
    gint corner_height)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame frame;
  gint x, y;

  gst_buffer_memset (buffer, 0, 128, GST_VIDEO_INFO_SIZE (info));
  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
          GST_MAP_WRITE));
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (info); x++) {
      guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0)
          + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

      if (x < corner_width && y < corner_height)
        row[x] = 235;
      else if (y == corner_height)
        row[x] = 240;
    }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buffer) = 0;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static guint64
field_at (const GstStructure *s, const gchar *field)
{
  return uint64_at (s, field, 0);
}

/* Limited-range highlights clipped at nominal white: 235 is clipped
 * high, though not above the legal range; so is a zone wholly at 235. On
 * full-range caps the same samples are not clipped. */
GST_START_TEST (test_limited_highlights_at_235)
{
  const guint width = 40, height = 20;
  /* Zone 0 of 2x2 zones (20x10) all at 235, row 10 at 240. */
  const guint n235 = 200, n240 = 40;
  const GstVideoColorRange ranges[] = { GST_VIDEO_COLOR_RANGE_16_235,
    GST_VIDEO_COLOR_RANGE_0_255
  };
  guint r;

  for (r = 0; r < G_N_ELEMENTS (ranges); r++) {
    const gboolean limited = ranges[r] == GST_VIDEO_COLOR_RANGE_16_235;
    GstVideoInfo info;
    GstHarness *h;
    GstBus *bus;
    GstBuffer *out;
    GstMessage *msg;
    const GstStructure *s, *zone;
    GstHistogramMeta *meta;

    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, width, height);
    info.colorimetry.range = ranges[r];
    h = stats_harness ("clhistogram mode=channels zones=2x2", &info);
    bus = clh_check_harness_bus (h->element);
    out = gst_harness_push_and_pull (h, highlights_frame (&info, 20, 10));
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    fail_unless (msg != NULL);
    s = gst_message_get_structure (msg);
    zone = gst_value_get_structure (gst_value_array_get_value
        (gst_structure_get_value (s, "regions"), 0));
    if (limited) {
      fail_unless_equals_uint64 (field_at (s, "clipped-high"), n235 + n240);
      fail_unless_equals_uint64 (field_at (s, "above-legal"), n240);
      fail_unless_equals_int (uint_at (s, "clip-high-level", 0), 235);
      fail_unless_equals_int (uint_at (s, "clip-high-level", 1), 240);
      fail_unless_equals_int (uint_at (s, "clip-low-level", 2), 16);
      fail_unless_equals_uint64 (field_at (zone, "clipped-high"), 200);
      fail_unless_equals_uint64 (field_at (zone, "above-legal"), 0);
    } else {
      fail_unless_equals_uint64 (field_at (s, "clipped-high"), 0);
      fail_unless_equals_int (uint_at (s, "clip-high-level", 0), 255);
      fail_unless_equals_int (uint_at (s, "clip-high-level", 1), 255);
      fail_unless_equals_int (uint_at (s, "clip-low-level", 2), 0);
      fail_unless_equals_uint64 (field_at (zone, "clipped-high"), 0);
      fail_if (gst_structure_has_field (s, "above-legal"));
    }
    meta = gst_buffer_get_histogram_meta (out);
    fail_unless_equals_uint64 (gst_histogram_meta_get_statistics (meta,
            0)->clipped_high, limited ? n235 + n240 : 0);
    fail_unless_equals_int (gst_histogram_meta_get_statistics (meta,
            0)->clip_high_level, limited ? 235 : 255);
    meta = gst_buffer_get_histogram_meta_for_region (out, "zone", 0);
    fail_unless_equals_uint64 (gst_histogram_meta_get_statistics (meta,
            0)->clipped_high, limited ? 200 : 0);
    gst_message_unref (msg);
    gst_buffer_unref (out);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* clip-low-level and clip-high-level: their defaults, read back, applied
 * together from the next frame (an operator's zebra level at 95%: 224 of
 * limited 8-bit luma), out-of-range values refused by GObject. */
GST_START_TEST (test_clip_level_properties)
{
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstBuffer *out;
  GstMessage *msg;
  GstElement *element;
  const GstStructure *s;
  gdouble low, high;
  ClhStats want;
  const Levels zebra = { GST_VIDEO_COLOR_RANGE_16_235, 5.0, 95.0 };
  GstBuffer *frame;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 32, 16);
  frame = make_frame (&info, CONTENT_RANDOM, 5);
  h = stats_harness ("clhistogram", &info);
  element = gst_harness_find_element (h, "clhistogram");
  g_object_get (element, "clip-low-level", &low, "clip-high-level", &high,
      NULL);
  fail_unless (low == 0.0 && high == 100.0);
  bus = clh_check_harness_bus (h->element);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (frame));
  gst_buffer_unref (out);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  s = gst_message_get_structure (msg);
  fail_unless_equals_int (uint_at (s, "clip-low-level", 0), 16);
  fail_unless_equals_int (uint_at (s, "clip-high-level", 0), 235);
  gst_message_unref (msg);

  g_object_set (element, "clip-low-level", zebra.low, "clip-high-level",
      zebra.high, NULL);
  g_object_get (element, "clip-low-level", &low, "clip-high-level", &high,
      NULL);
  fail_unless (low == 5.0 && high == 95.0);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (frame));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  s = gst_message_get_structure (msg);
  /* 16 + 0.05 x 219 = 26.95 and 16 + 0.95 x 219 = 224.05. */
  fail_unless_equals_int (uint_at (s, "clip-low-level", 0), 27);
  fail_unless_equals_int (uint_at (s, "clip-high-level", 0), 224);
  fail_unless (clh_reference_stats_of_buffer_region_clipped (&info, out,
          "luma", NULL, zebra.low, zebra.high, ps, 1, &want));
  fail_unless (want.clipped_high > 0 && want.clipped_low > 0);
  fail_unless_equals_uint64 (field_at (s, "clipped-low"), want.clipped_low);
  fail_unless_equals_uint64 (field_at (s, "clipped-high"),
      want.clipped_high);
  gst_message_unref (msg);
  gst_buffer_unref (out);

  CLH_ASSERT_VALUE_REFUSED (g_object_set (element, "clip-high-level", 111.0, NULL));
  g_object_get (element, "clip-high-level", &high, NULL);
  fail_unless (high == 95.0);
  gst_object_unref (element);
  gst_buffer_unref (frame);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Any p from the meta: exact from bins of one value each, refused where
 * the bins are coarser and p was not computed. */
GST_START_TEST (test_any_percentile)
{
  GstVideoInfo info;
  GstBuffer *buffer, *out;
  GstHarness *h;
  GstHistogramMeta *meta;
  guint value, p10;
  gdouble p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 37, 23);
  buffer = make_frame (&info, CONTENT_RANDOM, 11);
  h = stats_harness ("clhistogram", &info);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (buffer));
  meta = gst_buffer_get_histogram_meta (out);
  for (p = 0.0; p <= 100.0; p += 0.37) {
    ClhStats want;

    fail_unless (clh_reference_stats_of_buffer_region (&info, buffer, "luma",
            NULL, &p, 1, &want));
    fail_unless (gst_histogram_meta_get_percentile (meta, 0, p, &value));
    fail_unless (value == want.percentiles[0], "p%g is %u, the reference "
        "says %u", p, value, want.percentiles[0]);
  }
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  h = stats_harness ("clhistogram bins=16", &info);
  out = gst_harness_push_and_pull (h, gst_buffer_ref (buffer));
  meta = gst_buffer_get_histogram_meta (out);
  fail_unless (gst_histogram_meta_get_percentile (meta, 0, 10.0, &p10));
  fail_if (gst_histogram_meta_get_percentile (meta, 0, 33.0, &value));
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  gst_buffer_unref (buffer);
}
GST_END_TEST;

/* statistics=false, and the modes without statistics: no fields, no
 * statistics in the meta. */
GST_START_TEST (test_without_statistics)
{
  const gchar *const cases[][2] = {
    {"clhistogram statistics=false", "GRAY8"},
    {"clhistogram mode=hue", "RGBA"},
    {"clhistogram mode=rgb", "RGBA"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstVideoInfo info;
    GstHarness *h;
    GstBus *bus;
    GstBuffer *out;
    GstMessage *msg;
    const GstStructure *s;

    gst_video_info_set_format (&info,
        gst_video_format_from_string (cases[i][1]), 16, 8);
    h = stats_harness (cases[i][0], &info);
    bus = clh_check_harness_bus (h->element);
    out = gst_harness_push_and_pull (h, make_frame (&info, CONTENT_RANDOM,
            i));
    fail_if (gst_histogram_meta_get_statistics (gst_buffer_get_histogram_meta
            (out), 0)->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    s = gst_message_get_structure (msg);
    fail_unless (gst_structure_has_field (s, "counts"));
    fail_if (gst_structure_has_field (s, "min"));
    fail_if (gst_structure_has_field (s, "mean"));
    fail_if (gst_structure_has_field (s, "percentiles"));
    fail_if (gst_structure_has_field (s, "clipped-low"));
    gst_message_unref (msg);
    gst_buffer_unref (out);
    clh_check_harness_teardown (h, bus);
  }
}
GST_END_TEST;

/* Whether @s and each of its regions have counts; FALSE also when they
 * disagree. */
static gboolean
message_has_counts (const GstStructure *s, gboolean *consistent)
{
  const GValue *regions = gst_structure_get_value (s, "regions");
  const gboolean top = gst_structure_has_field (s, "counts");
  guint i;

  *consistent = TRUE;
  for (i = 0; i < gst_value_array_get_size (regions); i++) {
    const GstStructure *r = gst_value_get_structure
        (gst_value_array_get_value (regions, i));

    if (gst_structure_has_field (r, "counts") != top
        || !gst_structure_has_field (r, "samples")
        || !gst_structure_has_field (r, "mean"))
      *consistent = FALSE;
  }
  return top;
}

/* message-counts=false: no counts at the top level nor in any region,
 * the other fields there; every meta keeps its counts, equal to the
 * reference's; an interval's message likewise; back to TRUE, the counts
 * come back from the next frame. */
GST_START_TEST (test_message_counts)
{
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstBuffer *frame, *out;
  GstMessage *msg;
  GstElement *element;
  GList *metas, *l;
  const GstStructure *s;
  gboolean consistent, counts;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 40, 24);
  frame = make_frame (&info, CONTENT_RANDOM, 3);
  h = stats_harness ("clhistogram mode=channels message-counts=false "
      "zones=2x2 regions=\"<<3,2,10,10>>\"", &info);
  element = gst_harness_find_element (h, "clhistogram");
  g_object_get (element, "message-counts", &counts, NULL);
  fail_if (counts);
  bus = clh_check_harness_bus (h->element);

  out = gst_harness_push_and_pull (h, gst_buffer_ref (frame));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  s = gst_message_get_structure (msg);
  fail_if (message_has_counts (s, &consistent));
  fail_unless (consistent);
  fail_unless (gst_structure_has_field (s, "samples")
      && gst_structure_has_field (s, "percentiles")
      && gst_structure_has_field (s, "bins"));
  fail_unless_equals_int (gst_value_array_get_size (gst_structure_get_value
          (s, "regions")), 5);
  metas = gst_buffer_get_histogram_metas (out);
  fail_unless_equals_int (g_list_length (metas), 6);
  for (l = metas; l; l = l->next) {
    GstHistogramMeta *meta = l->data;
    const ClhRect rect = { meta->region.x, meta->region.y,
      meta->region.width, meta->region.height
    };

    check_counts (&info, out, "channels", 256, 0, -1, &rect, meta,
        meta->region.type);
  }
  g_list_free (metas);
  gst_message_unref (msg);
  gst_buffer_unref (out);

  /* An interval's message, ended by EOS, has no counts either. */
  g_object_set (element, "interval", GST_SECOND, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (h, gst_buffer_ref (frame)));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_field (s, "frames"));
  fail_if (message_has_counts (s, &consistent));
  fail_unless (consistent);
  gst_message_unref (msg);
  gst_object_unref (element);
  clh_check_harness_teardown (h, bus);

  /* The default, and the property set back while playing. */
  h = stats_harness ("clhistogram mode=channels zones=2x2", &info);
  element = gst_harness_find_element (h, "clhistogram");
  bus = clh_check_harness_bus (h->element);
  g_object_set (element, "message-counts", FALSE, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (h, gst_buffer_ref (frame)));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_if (message_has_counts (gst_message_get_structure (msg),
          &consistent));
  gst_message_unref (msg);
  g_object_set (element, "message-counts", TRUE, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (h, gst_buffer_ref (frame)));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (message_has_counts (gst_message_get_structure (msg),
          &consistent));
  fail_unless (consistent);
  gst_message_unref (msg);
  gst_object_unref (element);
  gst_buffer_unref (frame);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* What the messages of an interval should hold, summed from the frames'
 * own metas (256 bins: a bin per value). */
typedef struct {
  guint frames;
  guint64 counts[256];
  GstClockTime first_pts;
  GstClockTime end;
} Sum;

static void
sum_frame (Sum *sum, GstBuffer *buffer)
{
  GstHistogramMeta *meta = gst_buffer_get_histogram_meta (buffer);
  const guint32 *counts = gst_histogram_meta_get_counts (meta, 0, NULL);
  guint v;

  if (sum->frames++ == 0)
    sum->first_pts = GST_BUFFER_PTS (buffer);
  for (v = 0; v < 256; v++)
    sum->counts[v] += counts[v];
  sum->end = GST_BUFFER_PTS (buffer) + GST_BUFFER_DURATION (buffer);
}

/* The message against @sum, which lasted @duration. */
static void
check_interval (GstMessage *msg, const Sum *sum, GstClockTime duration)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const GValue *counts = gst_value_array_get_value (gst_structure_get_value
      (s, "counts"), 0);
  guint64 samples = 0, total = 0, pixels, timestamp, dur;
  guint frames, v, min = 0, max = 0, p50 = 0;
  gboolean seen = FALSE;
  gdouble mean;

  fail_unless (gst_structure_get (s, "frames", G_TYPE_UINT, &frames,
          "pixels", G_TYPE_UINT64, &pixels, "timestamp", G_TYPE_UINT64,
          &timestamp, "duration", G_TYPE_UINT64, &dur, NULL));
  fail_unless_equals_int (frames, sum->frames);
  fail_unless_equals_uint64 (timestamp, sum->first_pts);
  fail_unless_equals_uint64 (dur, duration);
  for (v = 0; v < 256; v++) {
    fail_unless_equals_uint64 (g_value_get_uint (gst_value_array_get_value
            (counts, v)), sum->counts[v]);
    samples += sum->counts[v];
    total += sum->counts[v] * v;
    if (sum->counts[v] && !seen)
      min = v;
    if (sum->counts[v])
      max = v, seen = TRUE;
  }
  fail_unless_equals_uint64 (pixels, samples);
  fail_unless_equals_uint64 (uint64_at (s, "samples", 0), samples);
  fail_unless_equals_int (uint_at (s, "min", 0), min);
  fail_unless_equals_int (uint_at (s, "max", 0), max);
  mean = g_value_get_double (gst_value_array_get_value
      (gst_structure_get_value (s, "mean"), 0));
  fail_unless (mean == (gdouble) total / (gdouble) samples);
  /* p50 (the fifth of ps): the first value reaching lrint (N / 2). */
  for (v = 0, total = 0; v < 256; v++) {
    total += sum->counts[v];
    if (total >= (guint64) llrint (samples * 0.5)) {
      p50 = v;
      break;
    }
  }
  fail_unless_equals_int (g_value_get_uint (gst_value_array_get_value
          (gst_value_array_get_value (gst_structure_get_value (s,
                      "percentiles"), 0), 4)), p50);
}

static GstBuffer *
timed_frame (const GstVideoInfo *info, guint i)
{
  GstBuffer *buffer = make_frame (info, CONTENT_RANDOM, 100 + i);

  GST_BUFFER_PTS (buffer) = gst_util_uint64_scale (i, GST_SECOND, 30);
  GST_BUFFER_DURATION (buffer) = gst_util_uint64_scale (i + 1, GST_SECOND,
      30) - GST_BUFFER_PTS (buffer);
  return buffer;
}

/* 40 frames at 30 fps, interval 500 ms: messages of frames 0-14 and 15-29
 * (500 ms each) as frames 15 and 30 come, frames 30-39 at EOS (the
 * 333 ms they cover). The metas stay per frame. */
GST_START_TEST (test_interval_sums)
{
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  Sum sums[3] = { {0} };
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 20, 10);
  h = stats_harness ("clhistogram interval=500000000", &info);
  bus = clh_check_harness_bus (h->element);
  for (i = 0; i < 40; i++) {
    GstBuffer *out = gst_harness_push_and_pull (h, timed_frame (&info, i));

    sum_frame (&sums[i / 15], out);
    gst_buffer_unref (out);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
    if (i == 15 || i == 30) {
      fail_unless (msg != NULL, "no message at frame %u", i);
      check_interval (msg, &sums[i / 15 - 1], 500 * GST_MSECOND);
      gst_message_unref (msg);
    } else {
      fail_unless (msg == NULL, "a message at frame %u", i);
    }
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no message at EOS");
  check_interval (msg, &sums[2], sums[2].end - sums[2].first_pts);
  gst_message_unref (msg);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A flush and new caps each end the interval, which starts again at the
 * next frame. */
GST_START_TEST (test_interval_flush_and_caps)
{
  GstVideoInfo info, other;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  Sum sum = { 0 };
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 20, 10);
  gst_video_info_set_format (&other, GST_VIDEO_FORMAT_GRAY8, 16, 8);
  h = stats_harness ("clhistogram interval=1000000000", &info);
  bus = clh_check_harness_bus (h->element);
  for (i = 0; i < 4; i++) {
    GstBuffer *out = gst_harness_push_and_pull (h, timed_frame (&info, i));
    sum_frame (&sum, out);
    gst_buffer_unref (out);
  }
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT) == NULL);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no message at the flush");
  check_interval (msg, &sum, sum.end - sum.first_pts);
  gst_message_unref (msg);

  /* After the flush, a segment again; then two frames and new caps. */
  {
    GstSegment segment;

    gst_segment_init (&segment, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment
            (&segment)));
  }
  memset (&sum, 0, sizeof (sum));
  for (i = 0; i < 2; i++) {
    GstBuffer *out = gst_harness_push_and_pull (h, timed_frame (&info, i));
    sum_frame (&sum, out);
    gst_buffer_unref (out);
  }
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&other));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no message at new caps");
  check_interval (msg, &sum, sum.end - sum.first_pts);
  gst_message_unref (msg);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Bad percentiles are refused, out of range by GObject's check of the
 * property's values, too many by the element; the old ones stay. */
GST_START_TEST (test_bad_percentiles)
{
  GstElement *element = gst_element_factory_make ("clhistogram", NULL);
  const gdouble bad[] = { 10.0, 101.0 };
  gdouble many[CLH_MAX_PERCENTILES + 1];
  GValue value = G_VALUE_INIT;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (many); i++)
    many[i] = i;
  CLH_ASSERT_VALUE_REFUSED (set_percentiles (element, bad, G_N_ELEMENTS (bad)));
  set_percentiles (element, many, G_N_ELEMENTS (many));
  g_value_init (&value, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (element), "percentiles", &value);
  fail_unless_equals_int (gst_value_array_get_size (&value), 5);
  fail_unless (g_value_get_double (gst_value_array_get_value (&value, 1))
      == 10.0);
  g_value_unset (&value);
  gst_object_unref (element);
}
GST_END_TEST;

static Suite *
clhistogram_stats_suite (void)
{
  Suite *s = suite_create ("clhistogram-stats");
  TCase *tc = tcase_create ("stats");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format);
  tcase_add_test (tc, test_contents_and_binnings);
  tcase_add_test (tc, test_clip_levels_every_depth);
  tcase_add_test (tc, test_limited_highlights_at_235);
  tcase_add_test (tc, test_clip_level_properties);
  tcase_add_test (tc, test_message_counts);
  tcase_add_test (tc, test_any_percentile);
  tcase_add_test (tc, test_without_statistics);
  tcase_add_test (tc, test_interval_sums);
  tcase_add_test (tc, test_interval_flush_and_caps);
  tcase_add_test (tc, test_bad_percentiles);
  return s;
}

CLH_CHECK_MAIN (clhistogram_stats);
