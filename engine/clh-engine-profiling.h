/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-frame device timings from OpenCL profiling events
 * (clh-engine-profiling.c): what benchmarks read of where a frame's device
 * time went. It changes nothing of how frames are counted. */
#pragma once

#include "clh-engine.h"

G_BEGIN_DECLS

/**
 * ClhTimings:
 * @upload_ns: device time of the frame's host-to-device copies, ns
 * @kernel_ns: device time of zeroing the bins and every kernel launch, ns
 * @readback_ns: device time of copying the bins back, ns
 * @span_ns: from the start of the first command to the end of the last, ns
 *
 * Where one histogram's device time went, from OpenCL profiling events.
 */
typedef struct {
  guint64 upload_ns;
  guint64 kernel_ns;
  guint64 readback_ns;
  guint64 span_ns;
} ClhTimings;

gboolean clh_engine_set_profiling (ClhEngine *engine, gboolean profiling,
    GError **error);
gboolean clh_engine_get_timings (const ClhEngine *engine,
    ClhTimings *timings);

G_END_DECLS
