/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How many frames clhistogram keeps in flight: the property, or for 0 one
 * per live source and more for others. */
#pragma once

#include "gstclhistogram.h"

G_BEGIN_DECLS

/* Frames in flight for a source that is not live when the property is 0:
 * enough for the upload of one frame to overlap the counting and readback
 * of the one before; more gained nothing on a GPU (docs/performance.md,
 * "Why the defaults are what they are": 4 and 8 ran at the same rate). */
#define GST_CL_HISTOGRAM_DEFAULT_IN_FLIGHT 4
#define GST_CL_HISTOGRAM_MAX_IN_FLIGHT 16

guint gst_cl_histogram_wanted_in_flight (GstClHistogram *self);
void gst_cl_histogram_apply_in_flight (GstClHistogram *self);
gboolean gst_cl_histogram_query_upstream_live (GstClHistogram *self);

G_END_DECLS
