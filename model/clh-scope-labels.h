/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The numbers and names in the scopes' graticule: a waveform's lines
 * labelled with their IRE or code values, as many as the plot holds
 * apart, the vectorscope's targets named and its magnification written,
 * in the 5x7 font of clh-font.h scaled with the plot. Part of the static
 * layer clh_scope_draw_graticule() makes; plain C, no OpenCL, no
 * GStreamer. */
#pragma once

#include "clh-scope-picture.h"

G_BEGIN_DECLS

/* Lines a waveform's graticule has at most. */
#define CLH_SCOPE_MAX_LINES 16

/* Label subsets a line may be in (ClhScopeLine's sets). */
#define CLH_SCOPE_LABEL_SETS 4

/* The smallest vectorscope side whose targets are named. */
#define CLH_SCOPE_NAMES_MIN 128

/**
 * ClhScopeLine:
 * @value: the code value the line is drawn at
 * @legal: whether it is highlighted (a nominal black or white)
 * @row: the plot row it is drawn in, from the top
 * @sets: the label subsets it is labelled in, bit s for subset s: subset
 *   0 holds every line, each next one fewer (IRE: 20s, 50s, 0 and 100)
 * @text: its label
 *
 * One line across a waveform, and its label.
 */
typedef struct {
  guint value;
  gboolean legal;
  guint row;
  guint sets;
  gchar text[8];
} ClhScopeLine;

guint clh_scope_label_scale (guint pixels);
void clh_scope_label_lines (const ClhScopePlot *plot,
    const ClhScopeLine *lines, guint n, guint8 *rgba, gsize stride);
void clh_scope_label_target (const ClhScopePlot *plot, const gchar *name,
    gint x, gint y, gint cx, gint cy, gint half, const guint8 colour[4],
    guint8 *rgba, gsize stride);
void clh_scope_label_zoom (const ClhScopePlot *plot, guint8 *rgba,
    gsize stride);

G_END_DECLS
