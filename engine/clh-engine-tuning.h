/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What benchmarks and tests change of the engine and read back from it: the
 * transfer path, the launch configuration, the staging limit and
 * engine-owned host memory. The elements use none of it. Profiling, which
 * times frames without changing how they are counted, is
 * clh-engine-profiling.h. The transfer and counting modes are defined
 * where they take effect (clh-engine-transfer.h, clh-engine-host.h), so
 * that the engine's own headers need not include this one. */
#pragma once

#include "clh-engine.h"
#include "clh-engine-host.h"
#include "clh-engine-transfer.h"
#include "clh-launch.h"
#include "clh-marks.h"
#include "clh-submitter.h"
#include "clh-tracker.h"

G_BEGIN_DECLS

void clh_engine_set_transfer (ClhEngine *engine, ClhTransfer transfer);
void clh_engine_set_submission (ClhEngine *engine, ClhSubmission submission);
void clh_tracker_set_submission (ClhTracker *tracker,
    ClhSubmission submission);
void clh_marks_set_submission (ClhMarks *marks, ClhSubmission submission);
void clh_engine_set_counting (ClhEngine *engine, ClhCounting counting);
gboolean clh_engine_next_counts_on_host (const ClhEngine *engine);
guint clh_engine_get_n_on_thread (const ClhEngine *engine);
void clh_engine_get_batch_stats (ClhEngine *engine, guint64 *n_frames,
    guint64 *n_launches);
void clh_engine_set_launch (ClhEngine *engine, const ClhLaunch *launch);
gboolean clh_engine_get_last_launch (const ClhEngine *engine,
    ClhLaunch *launch);
const ClhDeviceLimits *clh_engine_get_device_limits (const ClhEngine *engine);
void clh_engine_model_launch (const ClhEngine *engine, guint n_channels,
    guint bins, ClhLaunch *launch);
void clh_engine_set_staging_limit (ClhEngine *engine, gsize bytes);
void clh_engine_set_region_pixels_per_group (ClhEngine *engine,
    guint pixels);
void clh_engine_set_narrow_counters (ClhEngine *engine, gboolean narrow);

gpointer clh_engine_alloc_host (ClhEngine *engine, gsize size,
    GError **error);
void clh_engine_free_host (ClhEngine *engine, gpointer memory);

G_END_DECLS
