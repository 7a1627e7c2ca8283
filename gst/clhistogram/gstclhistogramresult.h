/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What clhistogram hands on for a counted frame: the `histogram` message
 * and the GstHistogramMeta. */
#pragma once

#include "gstclhistogramregions.h"
#include "gstclhistogramrequest.h"

G_BEGIN_DECLS

GstMessage *gst_cl_histogram_message_new (GstObject *src, GstBuffer *buffer,
    const GstClHistogramRequest *request, GstClockTime running_time,
    GstClockTime stream_time, const ClhHistogram *histograms);
void gst_cl_histogram_attach_metas (GstBuffer *buffer,
    const GstClHistogramRequest *request, const ClhHistogram *histograms);

G_END_DECLS
