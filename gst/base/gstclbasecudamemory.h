/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstCudaMemory that OpenCL can import: allocated by CUDA's virtual memory
 * API with a POSIX file descriptor handle type, imported once into the
 * OpenCL context of the element that counts it. Built for GStreamer 1.22's
 * CUDA library (docs/design.md, "Frames already in device memory"). */
#pragma once

#include <gst/video/video.h>
#include <gst/cuda/gstcudamemory.h>

#include "clh-context.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_CUDA_ALLOCATOR (gst_cl_cuda_allocator_get_type ())
#define GST_IS_CL_CUDA_ALLOCATOR(obj) \
  (G_TYPE_CHECK_INSTANCE_TYPE ((obj), GST_TYPE_CL_CUDA_ALLOCATOR))

typedef struct _GstClCudaAllocator GstClCudaAllocator;
typedef struct _GstClCudaAllocatorClass GstClCudaAllocatorClass;

struct _GstClCudaAllocator {
  GstCudaAllocator parent;
};

struct _GstClCudaAllocatorClass {
  GstCudaAllocatorClass parent_class;
};

GType gst_cl_cuda_allocator_get_type (void);

GstAllocator *gst_cl_cuda_allocator_new (void);
GstMemory *gst_cl_cuda_allocator_alloc (GstAllocator *allocator,
    GstCudaContext *context, const GstVideoInfo *info, GError **error);

gboolean gst_is_cl_cuda_memory (GstMemory *mem);
ClhHostBlock *gst_cl_cuda_memory_get_block (GstMemory *mem,
    ClhContext *context, GError **error);

G_END_DECLS
