/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA driver calls of the CUDA memory path that GStreamer 1.22's CUDA
 * library does not wrap: the virtual memory API (cuMemCreate() and its
 * kin, CUDA 10.2) that allocates memory another API can import, and the
 * device's UUID. Loaded from libcuda.so.1, as GStreamer loads it. */
#pragma once

#include <gst/gst.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

/* The UUID's size, as CUDA's CUuuid and cl_khr_device_uuid give it. */
#define GST_CL_CUDA_UUID_SIZE 16

/* One exportable allocation: @size bytes of device memory at @ptr (a
 * CUdeviceptr), backed by the physical allocation @handle. */
typedef struct {
  guint64 ptr;
  gsize size;
  guint64 handle;
} GstClCudaAllocation;

gboolean gst_cl_cuda_driver_load (GError **error);
gboolean gst_cl_cuda_context_get_uuid (GstCudaContext *context,
    guint8 uuid[GST_CL_CUDA_UUID_SIZE], GError **error);
gboolean gst_cl_cuda_alloc_exportable (GstCudaContext *context, gsize size,
    GstClCudaAllocation *allocation, GError **error);
void gst_cl_cuda_free_exportable (GstCudaContext *context,
    GstClCudaAllocation *allocation);
gint gst_cl_cuda_export_fd (const GstClCudaAllocation *allocation,
    GError **error);
gboolean gst_cl_cuda_copy (GstCudaContext *context, gpointer dst_host,
    guint64 dst_device, gconstpointer src_host, guint64 src_device,
    gsize size, GError **error);

G_END_DECLS
