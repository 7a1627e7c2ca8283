/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What histogramoverlay shows of one histogram channel: its colour, its
 * part in the graph's scale and in a zone's exposure, and its clipped
 * shares from the meta's statistics. */
#pragma once

#include <gst/clhistogram/clhistogram.h>

G_BEGIN_DECLS

typedef struct {
  /* The channel's colour, as RGB. */
  guint8 rgb[3];
  /* Painted in the hue of each place along the axis (a hue histogram). */
  gboolean hue;
  /* Its largest bin takes part in the graph's scale (not alpha's). */
  gboolean sets_scale;
  /* A level an operator exposes by (luma, R, G, B, max): its clipping
   * colours a zone. */
  gboolean exposure;
  /* A colour difference (U, V): nominal white is chroma's. */
  gboolean chroma;
  /* Its statistics' clipped shares are shown (every channel of levels:
   * not alpha, not hue). */
  gboolean clipping;
} GstClOverlayChannelStyle;

void gst_cl_overlay_channel_style (const gchar *name, guint index,
    GstClOverlayChannelStyle *style);

gboolean gst_cl_overlay_channel_clipped (
    const GstHistogramStatistics *statistics, gdouble *low_percent,
    gdouble *high_percent);

void gst_cl_overlay_channel_format_percent (gdouble percent, gchar *out,
    gsize size);

G_END_DECLS
