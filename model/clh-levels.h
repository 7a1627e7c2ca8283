/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A channel's nominal black and white: the code values a video range puts
 * them at, and levels between them given in percent of that range (an
 * operator's zebra level). Plain C: no OpenCL, no GStreamer. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * ClhLevels:
 * @black: the code value of nominal black (for chroma, of the lowest
 *   nominal colour difference)
 * @white: the code value of nominal white (chroma: the highest)
 * @top: the largest code value of the depth, 2^depth - 1
 *
 * A channel's nominal range, both ends inclusive, in code values of its
 * depth.
 */
typedef struct {
  guint black;
  guint white;
  guint top;
} ClhLevels;

ClhLevels clh_levels_nominal (guint depth, gboolean limited,
    gboolean chroma);
guint clh_levels_at_percent (const ClhLevels *levels, gdouble percent);

G_END_DECLS
