/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-reference-stats.h"

#include <math.h>
#include <string.h>

#include "clh-reference.h"

/**
 * clh_reference_percentile_of_sorted:
 * @sorted: (array length=n): sample values in ascending order
 * @n: how many
 * @p: the percentile, 0..100
 *
 * FFmpeg signalstats' percentile (libavfilter/vf_signalstats.c, its YLOW
 * and YHIGH at p = 10 and 90): the smallest sample value v such that the
 * samples <= v number at least `k = lrint (n * p / 100)` (lrint rounds
 * half to even). For k >= 1 that is the k-th smallest sample, as FFmpeg
 * finds it; for k = 0 it is the smallest sample (FFmpeg, walking every
 * value from 0, would say 0), and 0 for no samples.
 *
 * Returns: the percentile's value
 */
guint
clh_reference_percentile_of_sorted (const guint *sorted, gsize n, gdouble p)
{
  const long k = lrint ((gdouble) n * p / 100.0);

  if (n == 0)
    return 0;
  return sorted[CLAMP (k, 1, (long) n) - 1];
}

/**
 * clh_reference_clip_level:
 * @depth: bits per sample value, 8..16
 * @limited: whether the stream is limited range
 * @chroma: whether the channel is a colour difference
 * @percent: the level in percent of the nominal range
 *
 * The reference's own reading of a clip level. The nominal range, from
 * ITU-R BT.601 and BT.709 for 8 bits and BT.2100 table 9 for more: black
 * 16 x 2^(depth - 8), white 235 x 2^(depth - 8) (240 for chroma) in
 * limited range; 0 and 2^depth - 1 in full range. The level is
 * `(100 black + percent (white - black)) / 100` rounded half up (as one
 * reads a level off a scale), kept within the depth's codes.
 *
 * Returns: the level's code value
 */
guint
clh_reference_clip_level (guint depth, gboolean limited, gboolean chroma,
    gdouble percent)
{
  const guint64 scale = (guint64) 1 << (depth - 8);
  const gint64 top = ((gint64) 1 << depth) - 1;
  const gint64 black = limited ? 16 * (gint64) scale : 0;
  const gint64 white = limited ? (chroma ? 240 : 235) * (gint64) scale : top;
  /* In hundredths of a code: whole numbers for the percentages of a few
   * decimals an operator gives. */
  const gdouble hundredths = 100.0 * (gdouble) black
      + percent * (gdouble) (white - black);
  const gdouble code = floor ((hundredths + 50.0) / 100.0);

  return code <= 0.0 ? 0 : code >= (gdouble) top ? (guint) top : (guint) code;
}

static gint
compare_values (gconstpointer a, gconstpointer b)
{
  const guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* @stats of one channel's @values, sorted here. */
static void
stats_of_values (GArray *values, guint legal_low, guint legal_high,
    guint clip_low, guint clip_high, const gdouble *ps, guint n_ps,
    ClhStats *stats)
{
  const guint *v;
  guint i;

  memset (stats, 0, sizeof (*stats));
  g_array_sort (values, compare_values);
  v = (const guint *) (gpointer) values->data;
  stats->samples = values->len;
  if (values->len > 0) {
    stats->min = v[0];
    stats->max = v[values->len - 1];
  }
  for (i = 0; i < values->len; i++) {
    stats->sum += v[i];
    stats->clipped_low += v[i] <= clip_low;
    stats->clipped_high += v[i] >= clip_high;
    stats->below_legal += v[i] < legal_low;
    stats->above_legal += v[i] > legal_high;
  }
  for (i = 0; i < n_ps; i++)
    stats->percentiles[i] = clh_reference_percentile_of_sorted (v,
        values->len, ps[i]);
}

/**
 * clh_reference_stats_region:
 * @frame: a valid frame (clh_frame_is_valid())
 * @spec: a request valid for @frame
 * @region: a rectangle of @frame's pixels, clipped here
 * @legal_low: (array): for each channel, the legal range's low end
 * @legal_high: (array): for each channel, the legal range's high end
 * @clip_low: (array): for each channel, the level at or below which a
 *   sample is clipped low (clh_reference_clip_level())
 * @clip_high: (array): for each channel, the level at or above which a
 *   sample is clipped high
 * @ps: (array length=n_ps): the percentiles asked for, 0..100
 * @n_ps: how many, at most %CLH_MAX_PERCENTILES
 * @stats: (out caller-allocates) (array): one per channel of @spec
 *
 * Every channel's statistics over the values it examines in @region
 * (clh_reference_channel_values()), whatever @spec's bins and range. The
 * values of a luma or max count are 8-bit.
 *
 * Returns: %FALSE for a colour count (hue, hue-saturation, rgb), which has
 *   no statistics
 */
gboolean
clh_reference_stats_region (const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *region,
    const guint *legal_low, const guint *legal_high, const guint *clip_low,
    const guint *clip_high, const gdouble *ps, guint n_ps, ClhStats *stats)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint));
  guint c;

  g_return_val_if_fail (n_ps <= CLH_MAX_PERCENTILES, FALSE);
  for (c = 0; c < clh_reference_n_channels (spec); c++) {
    g_array_set_size (values, 0);
    if (!clh_reference_channel_values (frame, spec, region, c, values)) {
      g_array_unref (values);
      return FALSE;
    }
    stats_of_values (values, legal_low[c], legal_high[c], clip_low[c],
        clip_high[c], ps, n_ps, &stats[c]);
  }
  g_array_unref (values);
  return TRUE;
}
