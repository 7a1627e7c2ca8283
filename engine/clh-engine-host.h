/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames the host CPU counts (clh-engine-host.c), into the slot's host
 * counters, with no kernel launch. */
#pragma once

#include "clh-engine-queues.h"
#include "clh-engine-tuning.h"

G_BEGIN_DECLS

gboolean clh_engine_counts_on_host (ClhCounting counting,
    const ClhDeviceInfo *device, const ClhFrame *frame,
    const ClhHistogramSpec *spec);
gboolean clh_engine_count_on_host (ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, GError **error);

G_END_DECLS
