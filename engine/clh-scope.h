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

/**
 * ClhScopeTuning:
 * @work_group: work-items of a scope_count work-group, a power of two (0:
 *   the device's: 1 on a CPU, 256 on others)
 * @tile_bytes: local memory a work-group's tile may take, all copies (0:
 *   the device's)
 * @copies: copies of a tile each group counts into, a power of two (0:
 *   the device's)
 * @slices: row slices each tile is split into, merged with global atomics
 *   (0: enough for about four work-groups per compute unit)
 * @draw_span: pixels of a row one scope_draw work-item composes (0: the
 *   device's: 64 on a CPU, 1 on others, in work-groups of 64)
 *
 * How the kernels are launched.
 */
typedef struct {
  guint work_group;
  gsize tile_bytes;
  guint copies;
  guint slices;
  guint draw_span;
} ClhScopeTuning;

ClhScope *clh_scope_new (ClhContext *context, GError **error);
void clh_scope_free (ClhScope *scope);

void clh_scope_set_tuning (ClhScope *scope, const ClhScopeTuning *tuning);
gboolean clh_scope_draw (ClhScope *scope, const ClhFrame *frame,
    const ClhScopeSpec *spec, const ClhHostBlock *block, guint8 *dest,
    gsize dest_stride, guint32 *counts,
    GError **error);

gboolean clh_scope_overlay (ClhScope *scope, const ClhFrame *frame,
    const ClhScopeSpec *spec, const ClhHostBlock *block, guint x, guint y,
    guint alpha, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ClhScope, clh_scope_free)

G_END_DECLS
