/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The golden reference for the statistics of the 1-D modes: every sample
 * value a channel examines, gathered and sorted, then read off. */
#pragma once

#include "clh-frame.h"

G_BEGIN_DECLS

guint clh_reference_percentile_of_sorted (const guint *sorted, gsize n,
    gdouble p);
guint clh_reference_clip_level (guint depth, gboolean limited,
    gboolean chroma, gdouble percent);
gboolean clh_reference_stats_region (const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *region,
    const guint *legal_low, const guint *legal_high, const guint *clip_low,
    const guint *clip_high, const gdouble *ps, guint n_ps, ClhStats *stats);

G_END_DECLS
