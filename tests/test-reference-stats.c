/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The statistics reference against what is known of hand-made frames
 * (percentiles at p = 0 and 100, ranks that are whole numbers, ranks that
 * round half to even as FFmpeg's lrint does), and against a second
 * derivation from the full-resolution reference histogram on random,
 * degenerate and gradient frames of every format with a 1-D mode, whole and
 * in regions. */
#include <math.h>
#include <string.h>

#include "clh-levels.h"
#include "clh-reference.h"
#include "clh-reference-stats.h"
#include "clh-test-frame.h"

static const gdouble ps[] = { 0, 1, 10, 25, 50, 90, 99, 100 };

/* A GRAY8 frame of @n pixels in one row holding @values. */
static ClhTestFrame *
row_frame (const guint8 *values, guint n)
{
  ClhTestFrame *t = clh_test_frame_new ("GRAY8", n, 1, 0, CLH_TEST_ZERO, 0);

  memcpy ((guint8 *) t->frame.planes[0].data, values, n);
  return t;
}

static void
stats_of (const ClhTestFrame *t, const ClhRect *r, const gdouble *p,
    guint n_p, ClhStats *stats)
{
  static const guint low[] = { 16, 16, 16, 16 }, high[] = { 235, 240, 240,
    235
  };
  /* Full range: clipped at the extreme codes. */
  static const guint clip_low[] = { 0, 0, 0, 0 }, clip_high[] = { 255, 255,
    255, 255
  };
  ClhHistogramSpec spec;

  g_assert_true (clh_reference_spec (t->klass, &t->frame, "luma", 256,
          &spec));
  g_assert_true (clh_reference_stats_region (&t->frame, &spec, r, low, high,
          clip_low, clip_high, p, n_p, stats));
}

/* Values 0..99: every figure is known. */
static void
test_known (void)
{
  const guint want[] = { 0, 0, 9, 24, 49, 89, 98, 99 };
  const ClhRect whole = { 0, 0, 100, 1 };
  guint8 values[100];
  ClhStats stats;
  ClhTestFrame *t;
  guint i;

  for (i = 0; i < 100; i++)
    values[i] = 99 - i;
  t = row_frame (values, 100);
  stats_of (t, &whole, ps, G_N_ELEMENTS (ps), &stats);
  g_assert_cmpuint (stats.samples, ==, 100);
  g_assert_cmpuint (stats.min, ==, 0);
  g_assert_cmpuint (stats.max, ==, 99);
  g_assert_cmpuint (stats.sum, ==, 4950);
  g_assert_cmpuint (stats.clipped_low, ==, 1);
  g_assert_cmpuint (stats.clipped_high, ==, 0);
  g_assert_cmpuint (stats.below_legal, ==, 16);
  g_assert_cmpuint (stats.above_legal, ==, 0);
  for (i = 0; i < G_N_ELEMENTS (ps); i++)
    g_assert_cmpuint (stats.percentiles[i], ==, want[i]);
  clh_test_frame_free (t);
}

/* Five samples: the ranks 0.5, 1.5, 2.5, 3.5 and 4.5 round half to even
 * (0, 2, 2, 4, 4), as lrint does in FFmpeg; a rank of 0 gives the
 * smallest sample (not 0, as FFmpeg's walk from value 0 would); p = 100
 * gives the largest. Three samples of 255: clipped high, above the legal
 * range, and every percentile 255. */
static void
test_rounding_and_ends (void)
{
  const guint8 five[] = { 50, 10, 40, 30, 20 };
  const gdouble p[] = { 10, 30, 50, 70, 90, 100 };
  const guint want[] = { 10, 20, 20, 40, 40, 50 };
  const guint8 top[] = { 255, 255, 255 };
  const ClhRect r5 = { 0, 0, 5, 1 }, r3 = { 0, 0, 3, 1 };
  ClhStats stats;
  ClhTestFrame *t = row_frame (five, 5);
  guint i;

  stats_of (t, &r5, p, G_N_ELEMENTS (p), &stats);
  for (i = 0; i < G_N_ELEMENTS (p); i++)
    g_assert_cmpuint (stats.percentiles[i], ==, want[i]);
  g_assert_cmpuint (stats.min, ==, 10);
  clh_test_frame_free (t);

  /* Ranks 3p/100: 0 for p = 0, 1 and 10 (0.3), 1 or more from 25 on;
   * the smallest sample is 255 either way. */
  t = row_frame (top, 3);
  stats_of (t, &r3, ps, G_N_ELEMENTS (ps), &stats);
  g_assert_cmpuint (stats.clipped_high, ==, 3);
  g_assert_cmpuint (stats.above_legal, ==, 3);
  for (i = 0; i < G_N_ELEMENTS (ps); i++)
    g_assert_cmpuint (stats.percentiles[i], ==, 255);
  clh_test_frame_free (t);
}

/* Levels read off a limited-range scale: 16 and 235 (240 for chroma) at
 * 0 and 100 percent, scaled by 2^(depth - 8); full range at the extreme
 * codes; 95 percent (a zebra level) at 16 + 0.95 x 219 = 224.05, 224;
 * half codes rounded up; levels outside the nominal range kept within the
 * depth's codes. The model's levels equal the reference's. */
static void
test_clip_levels (void)
{
  const struct {
    guint depth;
    gboolean limited, chroma;
    gdouble percent;
    guint want;
  } cases[] = {
    {8, TRUE, FALSE, 0.0, 16}, {8, TRUE, FALSE, 100.0, 235},
    {8, TRUE, TRUE, 0.0, 16}, {8, TRUE, TRUE, 100.0, 240},
    {10, TRUE, FALSE, 0.0, 64}, {10, TRUE, FALSE, 100.0, 940},
    {10, TRUE, TRUE, 100.0, 960}, {12, TRUE, FALSE, 100.0, 3760},
    {12, TRUE, TRUE, 0.0, 256}, {16, TRUE, FALSE, 100.0, 60160},
    {16, TRUE, TRUE, 100.0, 61440}, {16, TRUE, FALSE, 0.0, 4096},
    {8, FALSE, FALSE, 0.0, 0}, {8, FALSE, FALSE, 100.0, 255},
    {10, FALSE, TRUE, 100.0, 1023}, {12, FALSE, FALSE, 100.0, 4095},
    {16, FALSE, FALSE, 100.0, 65535},
    {8, TRUE, FALSE, 95.0, 224}, {8, FALSE, FALSE, 95.0, 242},
    /* 0 + 50 x 255 / 100 = 127.5, rounded up. */
    {8, FALSE, FALSE, 50.0, 128},
    /* 16 + 2.5 x 219 / 100 = 21.475. */
    {8, TRUE, FALSE, 2.5, 21},
    {8, TRUE, FALSE, -10.0, 0}, {8, TRUE, FALSE, 110.0, 255},
    {8, TRUE, FALSE, 109.0, 255}, {8, TRUE, FALSE, -5.0, 5},
    {10, TRUE, FALSE, 95.0, 896},
  };
  const guint depths[] = { 8, 10, 12, 16 };
  guint i, d, kind;
  gint tenths;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpuint (clh_reference_clip_level (cases[i].depth,
            cases[i].limited, cases[i].chroma, cases[i].percent), ==,
        cases[i].want);
  /* The model's levels (what the element counts with) agree, every tenth
   * of a percent the element's properties take. */
  for (d = 0; d < G_N_ELEMENTS (depths); d++)
    for (kind = 0; kind < 4; kind++)
      for (tenths = -100; tenths <= 1100; tenths++) {
        const gboolean limited = kind & 1, chroma = kind >> 1;
        const ClhLevels nominal = clh_levels_nominal (depths[d], limited,
            chroma);
        const gdouble percent = tenths / 10.0;

        g_assert_cmpuint (clh_levels_at_percent (&nominal, percent), ==,
            clh_reference_clip_level (depths[d], limited, chroma, percent));
      }
}

/* Clip levels inside the range count every sample at or beyond them:
 * values 0..99 clipped at 16 and 90 give 17 low and 10 high. */
static void
test_clipped_at_levels (void)
{
  static const guint low[] = { 16 }, high[] = { 235 };
  static const guint clip_low[] = { 16 }, clip_high[] = { 90 };
  const ClhRect whole = { 0, 0, 100, 1 };
  ClhHistogramSpec spec;
  ClhStats stats;
  guint8 values[100];
  ClhTestFrame *t;
  guint i;

  for (i = 0; i < 100; i++)
    values[i] = i;
  t = row_frame (values, 100);
  g_assert_true (clh_reference_spec (t->klass, &t->frame, "luma", 256,
          &spec));
  g_assert_true (clh_reference_stats_region (&t->frame, &spec, &whole, low,
          high, clip_low, clip_high, ps, 1, &stats));
  g_assert_cmpuint (stats.clipped_low, ==, 17);
  g_assert_cmpuint (stats.clipped_high, ==, 10);
  g_assert_cmpuint (stats.below_legal, ==, 16);
  clh_test_frame_free (t);
}

/* A region with no pixels: every figure 0. */
static void
test_empty (void)
{
  const guint8 some[] = { 7, 8, 9 };
  const ClhRect outside = { 10, 0, 4, 1 };
  ClhStats stats, zero;
  ClhTestFrame *t = row_frame (some, 3);

  memset (&zero, 0, sizeof (zero));
  stats_of (t, &outside, ps, G_N_ELEMENTS (ps), &stats);
  g_assert_cmpmem (&stats, sizeof (stats), &zero, sizeof (zero));
  clh_test_frame_free (t);
}

/* The same statistics from the full-resolution reference histogram (one
 * bin per value): the first and last non-empty bins, the sum of value x
 * count, the cumulative counts. */
static void
check_against_histogram (const ClhTestFrame *t, const gchar *mode,
    const ClhRect *r, const gchar *what)
{
  guint low[CLH_MAX_CHANNELS], high[CLH_MAX_CHANNELS];
  guint clip_low[CLH_MAX_CHANNELS], clip_high[CLH_MAX_CHANNELS];
  ClhStats stats[CLH_MAX_CHANNELS];
  ClhHistogramSpec spec;
  ClhHistogram h = { NULL };
  guint c, v, i, depth, n_values;

  /* A component count has the frame's depth; luma and max of colours, 8. */
  if (!clh_reference_spec (t->klass, &t->frame, mode, 1, &spec))
    return;
  depth = spec.count == CLH_COUNT_COMPONENTS ? t->frame.depth : 8;
  n_values = 1u << depth;
  g_assert_true (clh_reference_spec (t->klass, &t->frame, mode, n_values,
          &spec));
  for (c = 0; c < CLH_MAX_CHANNELS; c++) {
    low[c] = 16u << (depth - 8);
    high[c] = (c == 0 ? 235u : 240u) << (depth - 8);
    /* Levels inside the range, a different pair on each channel. */
    clip_low[c] = low[c] + c;
    clip_high[c] = high[c] - 3 * c;
  }
  h.counts = g_new0 (guint32, (gsize) clh_histogram_spec_n_channels (&spec)
      * n_values);
  clh_reference_histogram_region (&t->frame, &spec, r, &h);
  g_assert_true (clh_reference_stats_region (&t->frame, &spec, r, low, high,
          clip_low, clip_high, ps, G_N_ELEMENTS (ps), stats));
  for (c = 0; c < clh_histogram_spec_n_channels (&spec); c++) {
    const guint32 *counts = h.counts + (gsize) c * n_values;
    ClhStats want = { 0 };
    guint64 below = 0;
    gboolean seen = FALSE;

    want.samples = h.samples[c];
    for (v = 0; v < n_values; v++) {
      if (counts[v] && !seen) {
        want.min = v;
        seen = TRUE;
      }
      if (counts[v])
        want.max = v;
      want.sum += (guint64) v *counts[v];
      want.above_legal += v > high[c] ? counts[v] : 0;
      below += v < low[c] ? counts[v] : 0;
      want.clipped_low += v <= clip_low[c] ? counts[v] : 0;
      want.clipped_high += v >= clip_high[c] ? counts[v] : 0;
    }
    want.below_legal = below;
    for (i = 0; i < G_N_ELEMENTS (ps); i++) {
      const guint64 k = (guint64) llrint ((gdouble) want.samples * ps[i]
          / 100.0);
      guint64 acc = 0;

      for (v = 0; v < n_values; v++) {
        acc += counts[v];
        if (acc >= k)
          break;
      }
      /* A rank of 0 is met before any sample: the smallest one. */
      want.percentiles[i] = k == 0 ? want.min : v;
    }
    if (memcmp (&want, &stats[c], sizeof (want)) != 0)
      g_error ("%s, %s, channel %u: the statistics differ from the "
          "histogram's: min %u/%u max %u/%u sum %" G_GUINT64_FORMAT "/%"
          G_GUINT64_FORMAT " p50 %u/%u", what, mode, c, stats[c].min,
          want.min, stats[c].max, want.max, stats[c].sum, want.sum,
          stats[c].percentiles[4], want.percentiles[4]);
  }
  g_free (h.counts);
}

static void
test_formats (void)
{
  const gchar *const *formats;
  const gchar *const modes[] = { "channels", "luma", "max" };
  const ClhTestContent contents[] = {
    CLH_TEST_RANDOM, CLH_TEST_MAX, CLH_TEST_GRADIENT,
  };

  for (formats = clh_reference_formats (); *formats; formats++) {
    guint m, c;

    for (c = 0; c < G_N_ELEMENTS (contents); c++) {
      ClhTestFrame *t = clh_test_frame_new (*formats, 37, 23, 3,
          contents[c], 17 + c);
      const ClhRect rects[] = {
        {0, 0, 37, 23}, {3, 5, 11, 7}, {-4, 20, 9, 9}, {36, 22, 1, 1},
      };
      guint r;

      for (m = 0; m < G_N_ELEMENTS (modes); m++)
        for (r = 0; r < G_N_ELEMENTS (rects); r++)
          check_against_histogram (t, modes[m], &rects[r], *formats);
      clh_test_frame_free (t);
    }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/known", test_known);
  g_test_add_func ("/stats/rounding-and-ends", test_rounding_and_ends);
  g_test_add_func ("/stats/empty", test_empty);
  g_test_add_func ("/stats/clip-levels", test_clip_levels);
  g_test_add_func ("/stats/clipped-at-levels", test_clipped_at_levels);
  g_test_add_func ("/stats/formats", test_formats);
  return g_test_run ();
}
