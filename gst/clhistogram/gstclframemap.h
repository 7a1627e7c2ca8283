/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A buffer mapped for reading as the frame the engine reads, after its
 * GstVideoMeta and size are checked against the caps. */
#pragma once

#include <gst/video/video.h>

#include "clh-frame.h"

G_BEGIN_DECLS

typedef struct {
  GstBuffer *buffer;
  gboolean video_mapped;
  GstVideoFrame vframe;
  gboolean buffer_mapped;
  GstMapInfo map;
} GstClFrameMap;

gboolean gst_cl_frame_map_read (GstClFrameMap *fm, GstElement *element,
    const GstVideoInfo *info, const ClhFrame *format, GstBuffer *buffer,
    ClhFrame *frame);
void gst_cl_frame_map_clear (GstClFrameMap *fm);

G_END_DECLS
