/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The golden reference for the statistics of the 1-D modes: every sample
 * value a channel examines, gathered and sorted, then read off. */
#pragma once

#include "clh-frame.h"

G_BEGIN_DECLS

/**
 * ClhReferenceStats:
 * @samples: sample values the channel examined
 * @min: the smallest, 0 without samples
 * @max: the largest, 0 without samples
 * @sum: their sum (the mean is @sum / @samples)
 * @clipped_low: samples equal to 0
 * @clipped_high: samples equal to 2^depth - 1
 * @below_legal: samples under the legal range's low end
 * @above_legal: samples over its high end
 * @percentiles: for each p asked for, the smallest sample value v such
 *   that the samples <= v number at least `lrint (samples * p / 100)`
 *   (FFmpeg signalstats' rule; a rank of 0 gives the smallest sample)
 *
 * One channel's statistics.
 */
typedef struct {
  guint64 samples;
  guint min;
  guint max;
  guint64 sum;
  guint64 clipped_low;
  guint64 clipped_high;
  guint64 below_legal;
  guint64 above_legal;
  guint percentiles[CLH_MAX_PERCENTILES];
} ClhReferenceStats;

guint clh_reference_percentile_of_sorted (const guint *sorted, gsize n,
    gdouble p);
gboolean clh_reference_stats_region (const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *region,
    const guint *legal_low, const guint *legal_high, const gdouble *ps,
    guint n_ps, ClhReferenceStats *stats);

G_END_DECLS
