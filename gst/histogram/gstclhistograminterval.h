/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `interval` property: frames' histograms summed over an interval of
 * running time into one message, as `level` sums audio. */
#pragma once

#include "gstclhistogramresult.h"
#include "gstclhistogramstats.h"

G_BEGIN_DECLS

typedef struct _GstClHistogramInterval GstClHistogramInterval;

/* One counted frame, as the interval sums it: its times (ns) and
 * histograms as the engine counted them (@request->count), the full
 * frame's first if counted. */
typedef struct {
  GstClockTime timestamp;
  GstClockTime stream_time;
  GstClockTime running_time;
  GstClockTime duration;
  const GstClHistogramRequest *request;
  const ClhHistogram *counted;
} GstClHistogramFrame;

GstClHistogramInterval *gst_cl_histogram_interval_new (void);
void gst_cl_histogram_interval_free (GstClHistogramInterval *interval);
GstMessage *gst_cl_histogram_interval_add (GstClHistogramInterval *interval,
    GstObject *src, const GstClHistogramFrame *frame);
GstMessage *gst_cl_histogram_interval_end (GstClHistogramInterval *interval,
    GstObject *src);
void gst_cl_histogram_interval_drop (GstClHistogramInterval *interval);

G_END_DECLS
