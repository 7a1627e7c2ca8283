/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base of clbackproject and clcamshift: an element on the OpenCL
 * device that reads 8-bit colour frames with the tracking engine. */
#pragma once

#include "clh-tracker.h"
#include "base/gstclbasecudainput.h"
#include "base/gstclbasetransform.h"

G_BEGIN_DECLS

/* The 8-bit colour formats whose HSV the kernels compute (as clhistogram's
 * hue mode): the RGB family and the 8-bit YUV layouts. */
#define GST_CL_TRACKER_FORMATS "{ RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, " \
  "BGRx, xRGB, xBGR, I420, YV12, Y41B, Y42B, Y444, YUV9, YVU9, NV12, NV21, " \
  "NV16, NV61, NV24, YUY2, UYVY, YVYU, VYUY }"

/* Their sink caps (clcamshift's source caps too): system memory, then
 * (built with GStreamer's CUDA library) the decoders' 8-bit formats in
 * CUDA memory (base/gstclbasecudainput.c). */
#define GST_CL_TRACKER_CAPS \
  GST_CL_BASE_TRANSFORM_CAPS_MAKE (GST_CL_TRACKER_FORMATS) \
  GST_CL_CUDA_CAPS_MAKE (GST_CL_CUDA_TRACKER_FORMATS)

#define GST_TYPE_CL_TRACKER_FILTER (gst_cl_tracker_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClTrackerFilter, gst_cl_tracker_filter, GST,
    CL_TRACKER_FILTER, GstClBaseTransform)

struct _GstClTrackerFilterClass {
  GstClBaseTransformClass parent_class;
};

ClhTracker *gst_cl_tracker_filter_get_tracker (GstClTrackerFilter *self);
void gst_cl_tracker_filter_init_spec (GstClTrackerFilter *self,
    ClhBackprojectSpec *spec);
gboolean gst_cl_tracker_filter_map (GstClTrackerFilter *self,
    GstBuffer *buffer, GstClFrameMap *map, ClhFrame *frame,
    const ClhHostBlock **block);

G_END_DECLS
