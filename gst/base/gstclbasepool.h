/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_BUFFER_POOL (gst_cl_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST, CL_BUFFER_POOL,
    GstVideoBufferPool)

GstBufferPool *gst_cl_buffer_pool_new (void);
void gst_cl_buffer_pool_propose (GstElement *element, GstQuery *query,
    GstCaps *caps, GstAllocator *allocator, guint min_buffers);
void gst_cl_buffer_pool_propose_allocation (GstElement *element,
    GstQuery *query, GstAllocator *allocator, guint min_buffers);

G_END_DECLS
