/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The oracle's own statement of where each format keeps its samples and what
 * each mode counts, written out by hand rather than derived from GStreamer,
 * so that tests catch a wrong derivation in the element. */
#pragma once

#include "clh-frame.h"

G_BEGIN_DECLS

/**
 * ClhFormatClass:
 * @CLH_FORMAT_GRAY: one component, `Y`
 * @CLH_FORMAT_RGB: `R`, `G`, `B`[, `A`]
 * @CLH_FORMAT_YUV: `Y`, `U`, `V`
 */
typedef enum {
  CLH_FORMAT_GRAY,
  CLH_FORMAT_RGB,
  CLH_FORMAT_YUV,
} ClhFormatClass;

gboolean clh_reference_layout (const gchar *format, ClhFrame *frame,
    ClhFormatClass *klass);

gboolean clh_reference_spec (ClhFormatClass klass, const ClhFrame *frame,
    const gchar *mode, guint bins, ClhHistogramSpec *spec);

const gchar *const *clh_reference_formats (void);

G_END_DECLS
