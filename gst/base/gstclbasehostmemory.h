/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gst/gst.h>

#include "clh-context.h"

G_BEGIN_DECLS

/**
 * GST_CL_HOST_MEMORY_TYPE:
 *
 * The #GstMemory type of host memory an OpenCL device reads without a host
 * copy, as gst_memory_is_type() checks it.
 */
#define GST_CL_HOST_MEMORY_TYPE "ClHostMemory"

#define GST_TYPE_CL_HOST_ALLOCATOR (gst_cl_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstClHostAllocator, gst_cl_host_allocator, GST,
    CL_HOST_ALLOCATOR, GstAllocator)

GstAllocator *gst_cl_host_allocator_new (ClhContext *context);
ClhContext *gst_cl_host_allocator_get_context (GstAllocator *allocator);

gboolean gst_is_cl_host_memory (GstMemory *mem);
ClhHostBlock *gst_cl_host_memory_get_block (GstMemory *mem);
ClhHostBlock *gst_cl_host_memory_buffer_block (GstBuffer *buffer,
    ClhContext *context);

G_END_DECLS
