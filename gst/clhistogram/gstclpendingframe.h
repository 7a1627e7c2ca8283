/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A buffer between clhistogram's submit_input_buffer and generate_output:
 * mapped as the frame the engine reads until it is collected, with what its
 * meta and message will say. */
#pragma once

#include <gst/video/video.h>

#include "gstclframemap.h"
#include "gstclhistogramrequest.h"

G_BEGIN_DECLS

typedef struct {
  GstBuffer *buffer;
  /* Submitted to the engine; FALSE for a frame nothing is counted for,
   * queued only to keep its place. */
  gboolean counted;
  GstClFrameMap map;

  GstClHistogramRequest request;
  GstClockTime running_time;
  GstClockTime stream_time;
} GstClPendingFrame;

GstClPendingFrame *gst_cl_pending_frame_new (GstBuffer *buffer,
    const GstSegment *segment);
gboolean gst_cl_pending_frame_map (GstClPendingFrame *pending,
    GstElement *element, const GstVideoInfo *info, const ClhFrame *format,
    ClhFrame *frame);
void gst_cl_pending_frame_unmap (GstClPendingFrame *pending);
void gst_cl_pending_frame_free (GstClPendingFrame *pending);

G_END_DECLS
