/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The scope engine: waveform, parade, vectorscope and histogram pictures
 * counted and drawn on an OpenCL device, over the same device context (and
 * compiled program) as the histogram engine. What the elements see of it:
 * no OpenCL and no GStreamer types. */
#pragma once

#include "clh-context.h"
#include "clh-scope-picture.h"

G_BEGIN_DECLS

typedef struct _ClhScope ClhScope;

ClhScope *clh_scope_new (ClhContext *context, GError **error);
void clh_scope_free (ClhScope *scope);

gboolean clh_scope_draw (ClhScope *scope, const ClhFrame *frame,
    const ClhScopeSpec *spec, guint8 *dest, gsize dest_stride,
    guint32 *counts, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhScope, clh_scope_free)

G_END_DECLS
