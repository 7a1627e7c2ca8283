/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A channel's statistics read off its value histogram: one counter per
 * sample value, as the device counts it when the requested bins are
 * coarser than the samples. Plain C: no OpenCL, no GStreamer. */
#pragma once

#include "clh-frame.h"

G_BEGIN_DECLS

/**
 * ClhStatsSpec:
 * @depth: bits per sample value: the value histogram has 2^@depth
 *   counters, value 0 first
 * @legal_low: the legal range's low end (16 << (depth - 8))
 * @legal_high: its high end (235 or, for chroma, 240, << (depth - 8))
 * @clip_low: the clip-low level: samples at or below it are clipped low
 *   (crushed)
 * @clip_high: the clip-high level: samples at or above it are clipped
 *   high
 * @n_percentiles: percentiles in @percentiles, at most
 *   %CLH_MAX_PERCENTILES
 * @percentiles: each in [0, 100]
 *
 * What one channel's statistics are taken over.
 */
typedef struct {
  guint depth;
  guint legal_low;
  guint legal_high;
  guint clip_low;
  guint clip_high;
  guint n_percentiles;
  gdouble percentiles[CLH_MAX_PERCENTILES];
} ClhStatsSpec;

void clh_stats_spec_set_legal (ClhStatsSpec *spec, guint depth,
    gboolean chroma);
void clh_stats_spec_set_clip_levels (ClhStatsSpec *spec, gboolean limited,
    gboolean chroma, gdouble low_percent, gdouble high_percent);
void clh_stats_from_values (const ClhStatsSpec *spec, const guint32 *values,
    ClhStats *stats);
guint clh_stats_percentile_rank (guint64 samples, gdouble p);
void clh_values_rebin (const guint32 *values, guint depth,
    guint bins, guint range_min, guint range_max, guint32 *counts,
    guint64 *below, guint64 *above);

G_END_DECLS
