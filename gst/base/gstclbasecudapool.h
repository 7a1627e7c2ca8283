/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pool of exportable CUDA memory the elements propose upstream for
 * frames in CUDA memory: a GstCudaBufferPool, as GStreamer 1.22's NVIDIA
 * decoders require, whose buffers OpenCL imports. */
#pragma once

#include <gst/cuda/gstcudabufferpool.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_CUDA_BUFFER_POOL (gst_cl_cuda_buffer_pool_get_type ())

typedef struct _GstClCudaBufferPool GstClCudaBufferPool;
typedef struct _GstClCudaBufferPoolClass GstClCudaBufferPoolClass;

struct _GstClCudaBufferPool {
  GstCudaBufferPool parent;
  GstAllocator *allocator;
  GstVideoInfo info;
};

struct _GstClCudaBufferPoolClass {
  GstCudaBufferPoolClass parent_class;
};

GType gst_cl_cuda_buffer_pool_get_type (void);

GstBufferPool *gst_cl_cuda_buffer_pool_new (GstCudaContext *context);

G_END_DECLS
