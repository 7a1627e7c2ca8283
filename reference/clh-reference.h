/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The golden reference: the obvious sequential loops, the oracle every kernel
 * and every element path is tested against bit for bit. */
#pragma once

#include "clh-frame.h"

G_BEGIN_DECLS

guint8 clh_reference_luma (guint8 r, guint8 g, guint8 b);
void clh_reference_hsv (guint8 r, guint8 g, guint8 b, guint8 *h, guint8 *s,
    guint8 *v);
void clh_reference_yuv_to_rgb (guint8 y, guint8 u, guint8 v, guint8 *r,
    guint8 *g, guint8 *b);
guint clh_reference_sample (const ClhFrame *frame, guint component, guint x,
    guint y);
void clh_reference_clip (const ClhRect *region, guint width, guint height,
    ClhRect *clipped);
guint clh_reference_n_channels (const ClhHistogramSpec *spec);
guint clh_reference_n_bins (const ClhHistogramSpec *spec);

void clh_reference_histogram (const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *histogram);
void clh_reference_histogram_region (const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *region,
    ClhHistogram *histogram);
gboolean clh_reference_channel_values (const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *region, guint channel,
    GArray *values);

G_END_DECLS
