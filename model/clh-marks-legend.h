/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The false colour's legend: a key in a corner of the frame, a swatch of
 * each coloured band beside its range in percent, highest first, drawn
 * with the marks on the device as a table of ranks the host makes (one a
 * pixel, in the 5x7 font of clh-font.h). Plain C, no OpenCL, no
 * GStreamer. */
#pragma once

#include "clh-marks-spec.h"

G_BEGIN_DECLS

/* A legend pixel's rank besides its bands' (1 + band): the ground and the
 * text. */
#define CLH_MARKS_RANK_PAPER CLH_ABI_MARK_LEGEND_PAPER
#define CLH_MARKS_RANK_INK CLH_ABI_MARK_LEGEND_INK

/* Bytes a band's legend text takes at most, its end included. */
#define CLH_MARKS_LEGEND_TEXT 24

/**
 * ClhMarksLegend:
 * @x: the legend's left column in the frame, a multiple of 4
 * @y: its top row, a multiple of 4
 * @width: its width, pixels, a multiple of 4
 * @height: its height, rows, a multiple of 4
 * @scale: pixels a font pixel takes either way
 * @n_rows: the bands it shows
 *
 * Where a frame's legend lies: whole chroma samples of every subsampling
 * the marks take (4 x 4 pixels at most).
 */
typedef struct {
  guint x;
  guint y;
  guint width;
  guint height;
  guint scale;
  guint n_rows;
} ClhMarksLegend;

void clh_marks_legend_text (const ClhMarksSpec *spec, guint band,
    gchar text[CLH_MARKS_LEGEND_TEXT]);
gboolean clh_marks_legend_place (const ClhMarksSpec *spec, guint width,
    guint height, ClhMarksLegend *legend);
void clh_marks_legend_draw (const ClhMarksSpec *spec,
    const ClhMarksLegend *legend, guint8 *ranks);

G_END_DECLS
