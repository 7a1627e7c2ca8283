/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* histogramoverlay's text: labels laid out and rendered by Pango through
 * cairo into coverage masks, each with a dark halo that keeps it readable
 * over any picture, kept for the frames that draw them again. */
#pragma once

#include "gsthistogramdraw.h"

G_BEGIN_DECLS

typedef struct _GstHistogramText GstHistogramText;

/* A rendered label. Both masks have the same size: the text's logical
 * and ink extents united, with @pad pixels of halo on every side; the
 * label's baseline-independent top-left is at (@pad, @pad). */
typedef struct {
  GstHistogramMask glyphs;
  GstHistogramMask halo;
  gint pad;
} GstHistogramLabel;

GstHistogramText *gst_histogram_text_new (void);
void gst_histogram_text_free (GstHistogramText *text);
void gst_histogram_text_trim (GstHistogramText *text);

const GstHistogramLabel *gst_histogram_text_label (GstHistogramText *text,
    const gchar *string, guint pixel_size);
gboolean gst_histogram_text_failed (GstHistogramText *text);
gint gst_histogram_text_line_height (GstHistogramText *text,
    guint pixel_size);

void gst_histogram_text_draw (GstVideoFrame *frame,
    const GstHistogramPainter *painter, const GstHistogramLabel *label,
    gint64 x, gint64 y, const guint8 rgb[3], guint opacity);

G_END_DECLS
