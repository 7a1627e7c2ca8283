/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A frame's histograms, the whole frame's and its regions'
 * (clh-engine-regions.c): the region table and the split of the counters
 * read back. */
#pragma once

#include "clh-engine-dispatch.h"

G_BEGIN_DECLS

gboolean clh_engine_check_regions (const ClhHistogramSpec *spec,
    gboolean full_frame, guint n_regions, GError **error);
gboolean clh_engine_prepare_regions (const ClhDispatch *d, ClhQueues *q,
    const ClhFrame *frame, const ClhHistogramSpec *spec, gboolean full_frame,
    const ClhRect *regions, guint n_regions, GError **error);
void clh_engine_clear_regions (ClhSlot *slot);
void clh_engine_split_histograms (const ClhSlot *slot,
    ClhHistogram *histograms);

G_END_DECLS
