/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The histogram engine: OpenCL device, context, queue and kernels, and
 * "histogram of this image into these bins". No GStreamer types. */
#pragma once

#include "clh-cl.h"
#include "clh-frame.h"

G_BEGIN_DECLS

typedef struct _ClhEngine ClhEngine;

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

ClhEngine *clh_engine_new (const gchar *device_spec, GError **error);
void clh_engine_free (ClhEngine *engine);

const gchar *clh_engine_get_device_name (const ClhEngine *engine);
const gchar *clh_engine_get_platform_name (const ClhEngine *engine);

gboolean clh_engine_histogram (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *histogram, GError **error);

void clh_engine_set_staging_limit (ClhEngine *engine, gsize bytes);

gboolean clh_engine_set_profiling (ClhEngine *engine, gboolean profiling,
    GError **error);
gboolean clh_engine_get_timings (const ClhEngine *engine,
    ClhTimings *timings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhEngine, clh_engine_free)

G_END_DECLS
