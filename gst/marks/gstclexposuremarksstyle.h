/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What clexposuremarks' marks look like in a stream's own code values:
 * colours by name or number, the false-colour table as the `bands`
 * property writes it, and both converted for the negotiated format
 * (gstclexposuremarksstyle.c). */
#pragma once

#include <gst/video/video.h>

#include "clh-marks-spec.h"

G_BEGIN_DECLS

/* The false-colour table after the bands of ARRI cameras' false-colour
 * exposure check: purple under 2.5% (crushed), blue to 4%, green 38-42%
 * (18% grey), pink 52-56% (one stop over: skin), yellow 97-99%, red from
 * 99% (clipping); grey between. */
#define GST_CL_MARK_BANDS_DEFAULT "purple, 2.5:blue, 4:grey, 38:green, " \
  "42:grey, 52:pink, 56:grey, 97:yellow, 99:red"

/**
 * GstClMarkBands:
 * @n_bands: bands in the table, 1..%CLH_MARKS_MAX_BANDS
 * @levels: each band's lower edge, percent of the nominal range (the
 *   first's is not read: it starts at the lowest code)
 * @styles: how each band shows its pixels
 * @rgb: each band's colour, 0xRRGGBB, for %CLH_MARK_BAND_COLOUR
 *
 * A false-colour table as the user gave it.
 */
typedef struct {
  guint n_bands;
  gdouble levels[CLH_MARKS_MAX_BANDS];
  ClhMarkBandStyle styles[CLH_MARKS_MAX_BANDS];
  guint32 rgb[CLH_MARKS_MAX_BANDS];
} GstClMarkBands;

gboolean gst_cl_mark_bands_parse (const gchar *text, GstClMarkBands *bands,
    GError **error);
ClhMarksLayout gst_cl_mark_layout (const GstVideoInfo *info);
void gst_cl_mark_colour (const GstVideoInfo *info, guint32 rgb,
    ClhMarkColour *colour);
void gst_cl_mark_bands_apply (const GstClMarkBands *bands,
    const GstVideoInfo *info, ClhMarksSpec *spec);

G_END_DECLS
