/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The oracle's own statement of where each format keeps its samples, written
 * out by hand rather than derived, so that tests catch a wrong derivation. */
#pragma once

#include "clh-image.h"

G_BEGIN_DECLS

gboolean clh_reference_layout (const gchar *format, gboolean luma, guint bins,
    ClhHistogramSpec *spec, guint *pixel_stride);

G_END_DECLS
