/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A buffer mapped as a frame (for the engine to read, or an element to draw
 * on), after its GstVideoMeta and size are checked against the caps. */
#pragma once

#include <gst/video/video.h>

#include "clh-frame.h"

G_BEGIN_DECLS

/* @vframe describes the mapped frame in either case: mapped by
 * gst_video_frame_map() (@video_mapped), or pointing into the one mapping
 * of the whole buffer (@buffer_mapped) when a plane spans memory blocks. */
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
gboolean gst_cl_frame_map_read_device (GstClFrameMap *fm,
    GstElement *element, const GstVideoInfo *info, const ClhFrame *format,
    GstBuffer *buffer, GstMapFlags device_flag, ClhFrame *frame);
gboolean gst_cl_frame_map_write (GstClFrameMap *fm, GstElement *element,
    const GstVideoInfo *info, const ClhFrame *format, GstBuffer *buffer,
    ClhFrame *frame);
void gst_cl_frame_map_clear (GstClFrameMap *fm);

G_END_DECLS
