/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The scopes' golden reference: the layout, every plot's counts and the
 * drawn picture (graticule included) by the obvious loops over samples and
 * pixels, with its own arithmetic, the oracle the scope engine is tested
 * against to the bit. */
#pragma once

#include "clh-scope-picture.h"

G_BEGIN_DECLS

void clh_reference_scope_layout (const ClhScopeSpec *spec,
    const ClhFrame *frame, ClhScopeLayout *layout);
void clh_reference_scope_counts (const ClhFrame *frame,
    const ClhScopeSpec *spec, const ClhScopeLayout *layout,
    guint32 *counts);
guint clh_reference_scope_level (const ClhScopeSpec *spec,
    const ClhScopePlot *plot, guint columns, guint32 count);
void clh_reference_scope_graticule (const ClhScopeSpec *spec,
    const ClhScopeLayout *layout, guint8 *rgba, gsize stride);
void clh_reference_scope_picture (const ClhScopeSpec *spec,
    const ClhScopeLayout *layout, const guint32 *counts, guint8 *rgba,
    gsize stride);

void clh_reference_scope_overlay (const ClhFrame *frame,
    const ClhScopeSpec *spec, const guint8 *picture, guint x, guint y,
    guint alpha);

G_END_DECLS
