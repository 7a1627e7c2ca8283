/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* histogramoverlay's text: labels laid out and rendered by Pango through
 * cairo into coverage masks, each with a dark halo that keeps it readable
 * over any picture, kept for the frames that draw them again. */
#pragma once

#include "gstcloverlaydraw.h"

G_BEGIN_DECLS

typedef struct _GstClOverlayText GstClOverlayText;

/* A rendered label. Both masks have the same size: the text's logical
 * and ink extents united, with @pad pixels of halo on every side; the
 * label's baseline-independent top-left is at (@pad, @pad). */
typedef struct {
  GstClOverlayMask glyphs;
  GstClOverlayMask halo;
  gint pad;
} GstClOverlayLabel;

GstClOverlayText *gst_cl_overlay_text_new (void);
void gst_cl_overlay_text_free (GstClOverlayText *text);
void gst_cl_overlay_text_trim (GstClOverlayText *text);

const GstClOverlayLabel *gst_cl_overlay_text_label (GstClOverlayText *text,
    const gchar *string, guint pixel_size);
gboolean gst_cl_overlay_text_failed (GstClOverlayText *text);
gint gst_cl_overlay_text_line_height (GstClOverlayText *text,
    guint pixel_size);

void gst_cl_overlay_text_draw (GstVideoFrame *frame,
    const GstClOverlayPainter *painter, const GstClOverlayLabel *label,
    gint64 x, gint64 y, const guint8 rgb[3], guint opacity);

G_END_DECLS
