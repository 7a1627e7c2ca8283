/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The histogram engine: OpenCL device, context, queue and kernels, and
 * "histogram of this image into these bins". No GStreamer types. */
#pragma once

#include "clh-cl.h"
#include "clh-frame.h"

G_BEGIN_DECLS

typedef struct _ClhEngine ClhEngine;

ClhEngine *clh_engine_new (const gchar *device_spec, GError **error);
void clh_engine_free (ClhEngine *engine);

const gchar *clh_engine_get_device_name (const ClhEngine *engine);
const gchar *clh_engine_get_platform_name (const ClhEngine *engine);

gboolean clh_engine_histogram (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *histogram, GError **error);

void clh_engine_set_staging_limit (ClhEngine *engine, gsize bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhEngine, clh_engine_free)

G_END_DECLS
