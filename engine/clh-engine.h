/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The histogram engine: "histogram of this frame into these bins" on an
 * OpenCL device, with frames in flight. What the elements see of it: no
 * OpenCL and no GStreamer types. Benchmarks and tests reach further through
 * clh-engine-tuning.h. */
#pragma once

#include "clh-context.h"
#include "clh-frame.h"

G_BEGIN_DECLS

typedef struct _ClhEngine ClhEngine;

ClhEngine *clh_engine_new (const gchar *device_spec, GError **error);
ClhEngine *clh_engine_new_for_context (ClhContext *context, GError **error);
void clh_engine_free (ClhEngine *engine);
ClhContext *clh_engine_get_context (const ClhEngine *engine);

const gchar *clh_engine_get_device_name (const ClhEngine *engine);
const gchar *clh_engine_get_platform_name (const ClhEngine *engine);
gchar *clh_engine_get_driver_version (const ClhEngine *engine);

gboolean clh_engine_histogram (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *histogram, GError **error);

gboolean clh_engine_set_max_in_flight (ClhEngine *engine, guint n,
    GError **error);
guint clh_engine_get_max_in_flight (const ClhEngine *engine);
gboolean clh_engine_submit (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block,
    GError **error);
gboolean clh_engine_submit_regions (ClhEngine *engine,
    const ClhFrame *frame, const ClhHistogramSpec *spec, gboolean full_frame,
    const ClhRect *regions, guint n_regions, const ClhHostBlock *block,
    GError **error);
guint clh_engine_get_n_pending (const ClhEngine *engine);
gboolean clh_engine_collect (ClhEngine *engine, ClhHistogram *histogram,
    GError **error);
guint clh_engine_get_next_n_histograms (const ClhEngine *engine);
gboolean clh_engine_collect_regions (ClhEngine *engine,
    ClhHistogram *histograms, guint n_histograms, GError **error);
void clh_engine_discard (ClhEngine *engine);

gboolean clh_engine_next_is_ready (ClhEngine *engine);
void clh_engine_set_handover (ClhEngine *engine, gboolean handover);
void clh_engine_wait_counted (ClhEngine *engine);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhEngine, clh_engine_free)

G_END_DECLS
