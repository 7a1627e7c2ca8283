/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-stats.h"
#include "clh-levels.h"

#include <math.h>
#include <string.h>

/**
 * clh_stats_spec_set_legal:
 * @spec: a statistics request
 * @depth: bits per sample value, 8 or more
 * @chroma: whether the channel is U or V
 *
 * Sets @spec's depth and legal range: BT.601's 16..235 for luma and R, G,
 * B, 16..240 for chroma, scaled by 2^(depth - 8) as BT.2100 scales its
 * 10- and 12-bit ranges; and its clip levels at the extreme codes, 0 and
 * 2^@depth - 1, until clh_stats_spec_set_clip_levels() moves them.
 */
void
clh_stats_spec_set_legal (ClhStatsSpec *spec, guint depth, gboolean chroma)
{
  const guint shift = depth > 8 ? depth - 8 : 0;

  spec->depth = depth;
  spec->legal_low = 16u << shift;
  spec->legal_high = (chroma ? 240u : 235u) << shift;
  spec->clip_low = 0;
  spec->clip_high = (1u << depth) - 1;
}

/**
 * clh_stats_spec_set_clip_levels:
 * @spec: a statistics request whose depth is set
 *   (clh_stats_spec_set_legal())
 * @limited: whether the stream is limited range, as its caps say
 * @chroma: whether the channel is U or V
 * @low_percent: the clip-low level in percent of the channel's nominal
 *   range (0: its nominal black)
 * @high_percent: the clip-high level, likewise (100: its nominal white)
 *
 * Puts @spec's clip levels at those percentages of the channel's nominal
 * range for the stream's range (clh_levels_nominal(),
 * clh_levels_at_percent()): limited 8-bit luma at 0 and 100 percent
 * clips at 16 and 235, full range at 0 and 255.
 */
void
clh_stats_spec_set_clip_levels (ClhStatsSpec *spec, gboolean limited,
    gboolean chroma, gdouble low_percent, gdouble high_percent)
{
  const ClhLevels nominal = clh_levels_nominal (spec->depth, limited, chroma);

  spec->clip_low = clh_levels_at_percent (&nominal, low_percent);
  spec->clip_high = clh_levels_at_percent (&nominal, high_percent);
}

/**
 * clh_stats_percentile_rank:
 * @samples: the channel's samples, N
 * @p: the percentile, 0..100
 *
 * Returns: `lrint (N * p / 100)` (rounding half to even, as FFmpeg
 *   signalstats' `lrint (s->fs * 10 / 100.)`): how many samples must lie
 *   at or below the percentile's value
 */
guint
clh_stats_percentile_rank (guint64 samples, gdouble p)
{
  const long k = lrint ((gdouble) samples * p / 100.0);

  return k <= 0 ? 0 : (guint) k;
}

/* The percentiles in one walk up the values: each is the first value
 * whose cumulative count reaches its rank. Only values that occur are
 * visited, so a rank of 0 gives the smallest sample (FFmpeg's walk, which
 * visits every value, would give 0 there; the two agree for every rank
 * of 1 or more). */
static void
read_percentiles (const ClhStatsSpec *spec, const guint32 *values,
    ClhStats *stats)
{
  guint rank[CLH_MAX_PERCENTILES], order[CLH_MAX_PERCENTILES];
  const gsize n_values = (gsize) 1 << spec->depth;
  guint i, j, next = 0;
  guint64 cumulative = 0;
  gsize v;

  for (i = 0; i < spec->n_percentiles; i++) {
    rank[i] = clh_stats_percentile_rank (stats->samples,
        spec->percentiles[i]);
    stats->percentiles[i] = 0;
    /* Insertion sort by rank: at most CLH_MAX_PERCENTILES. */
    for (j = i; j > 0 && rank[order[j - 1]] > rank[i]; j--)
      order[j] = order[j - 1];
    order[j] = i;
  }
  for (v = stats->min; v < n_values && next < spec->n_percentiles; v++) {
    const guint64 n = values[v];

    if (n == 0)
      continue;
    cumulative += n;
    while (next < spec->n_percentiles && rank[order[next]] <= cumulative)
      stats->percentiles[order[next++]] = (guint) v;
  }
}

/**
 * clh_stats_from_values:
 * @spec: what the statistics are taken over
 * @values: (array): 2^@spec->depth counters, one per sample value, value 0
 *   first: one frame's, or the sum of an interval's frames
 * @stats: (out caller-allocates): the channel's statistics
 *
 * Reads every statistic off a value histogram in one pass over it (two
 * while percentiles remain). Each percentile is the smallest sample value
 * v such that the samples <= v number at least `lrint (N * p / 100)`, N
 * the samples (FFmpeg signalstats' YLOW and YHIGH at p = 10 and 90); a
 * rank of 0 (p = 0, or a tiny N) gives the smallest sample. The clipped
 * samples are those at or below @spec's clip_low and at or above its
 * clip_high. Without samples every field is 0.
 */
void
clh_stats_from_values (const ClhStatsSpec *spec, const guint32 *values,
    ClhStats *stats)
{
  const gsize n_values = (gsize) 1 << spec->depth;
  gboolean seen = FALSE;
  gsize v;

  g_return_if_fail (spec->depth >= 1 && spec->depth <= 16);
  g_return_if_fail (spec->clip_low < n_values && spec->clip_high < n_values);
  g_return_if_fail (spec->n_percentiles <= CLH_MAX_PERCENTILES);

  memset (stats, 0, sizeof (*stats));
  for (v = 0; v < n_values; v++) {
    const guint64 n = values[v];

    if (n == 0)
      continue;
    if (!seen)
      stats->min = (guint) v;
    seen = TRUE;
    stats->max = (guint) v;
    stats->samples += n;
    stats->sum += n * v;
    if (v < spec->legal_low)
      stats->below_legal += n;
    else if (v > spec->legal_high)
      stats->above_legal += n;
    if (v <= spec->clip_low)
      stats->clipped_low += n;
    if (v >= spec->clip_high)
      stats->clipped_high += n;
  }
  if (seen)
    read_percentiles (spec, values, stats);
}

/**
 * clh_values_rebin:
 * @values: (array): 2^@depth counters, one per sample value
 * @depth: bits per sample value
 * @bins: bins over [@range_min, @range_max], 1..(range_max - range_min + 1)
 * @range_min: smallest value binned
 * @range_max: largest value binned, inclusive, below 2^@depth
 * @counts: (out caller-allocates) (array length=bins): the histogram:
 *   value v goes to bin `(v - range_min) * bins / (range_max - range_min +
 *   1)`, as the device bins it
 * @below: (out): samples under @range_min
 * @above: (out): samples over @range_max
 *
 * The histogram the request asked for, from the value histogram the device
 * counted in its place. A bin's count is a sum of value counters of one
 * frame's channel, at most 2^28: no wrap.
 */
void
clh_values_rebin (const guint32 *values, guint depth, guint bins,
    guint range_min, guint range_max, guint32 *counts, guint64 *below,
    guint64 *above)
{
  const gsize n_values = (gsize) 1 << depth;
  const guint64 width = (guint64) range_max - range_min + 1;
  gsize v;

  g_return_if_fail (range_min <= range_max && range_max < n_values);
  memset (counts, 0, sizeof (guint32) * bins);
  *below = *above = 0;
  for (v = 0; v < range_min; v++)
    *below += values[v];
  for (v = range_min; v <= range_max; v++)
    counts[(v - range_min) * bins / width] += values[v];
  for (v = (gsize) range_max + 1; v < n_values; v++)
    *above += values[v];
}
