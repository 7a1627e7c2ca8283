/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A GstCudaAllocator whose memory OpenCL can import. GStreamer 1.22's CUDA
 * library allocates with cuMemAllocPitch(), which no other API imports, and
 * has no public way to wrap an allocation made elsewhere (that came with
 * 1.24's gst_cuda_allocator_alloc_wrapped()); its decoders only write into
 * a GstCudaBufferPool's GstCudaMemory (gstnvdecoder.c, 1.22,
 * gst_nv_decoder_ensure_cuda_pool() and copy_frame_to_cuda()). So this
 * allocator derives from GstCudaAllocator: its memory is a GstCudaMemory
 * to GStreamer (gst_is_cuda_memory()), allocated with the virtual memory
 * API and mapped by its own functions, which replace every function of
 * the parent that would read the parent's private part. */
#include "gstclbasecudamemory.h"

#include <string.h>
#include <unistd.h>

#include "gstclbasecudadriver.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

/* One frame's exportable allocation, imported into at most one OpenCL
 * context (the counting element's). The parent's private part stays
 * NULL: GstCudaAllocator's functions never see this memory. */
typedef struct {
  GstCudaMemory parent;
  GstClCudaAllocation allocation;
  GMutex lock;
  ClhHostBlock *block;
  /* Why the import failed, if it did: not tried again. */
  GError *import_error;
  /* The host copy maps without GST_MAP_CUDA are given, and whether it
   * holds what the device memory holds (no write on the device since it
   * was downloaded). */
  guint8 *host;
  gboolean host_valid;
} GstClCudaMemory;

/* The allocator's type once registered (gst_cl_cuda_allocator_new(),
 * called only where the running GStreamer's allocator is the 1.22 one it
 * derives from); 0 before: memory is then never ours. */
static GType allocator_type;

G_DEFINE_TYPE (GstClCudaAllocator, gst_cl_cuda_allocator,
    GST_TYPE_CUDA_ALLOCATOR);

static GstClCudaMemory *
cl_cuda_memory_new (GstAllocator *allocator, GstCudaContext *context,
    const GstVideoInfo *info, GstMemory *parent, gsize offset, gsize size)
{
  GstClCudaMemory *mem = g_new0 (GstClCudaMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (mem), GST_MEMORY_FLAG_NO_SHARE,
      allocator, parent, size, 0, offset, size);
  mem->parent.context = gst_object_ref (context);
  mem->parent.info = *info;
  g_mutex_init (&mem->lock);
  return mem;
}

/**
 * gst_cl_cuda_allocator_alloc:
 * @allocator: a #GstClCudaAllocator
 * @context: the CUDA context of the device the memory is on
 * @info: the frames' layout (offsets, strides, size) in the memory
 * @error: the CUDA driver's failure
 *
 * Allocates `info->size` bytes on @context's device, exportable for
 * OpenCL's import (gst_cl_cuda_memory_get_block()).
 *
 * Returns: (transfer full) (nullable): the memory, %NULL on error
 */
GstMemory *
gst_cl_cuda_allocator_alloc (GstAllocator *allocator, GstCudaContext *context,
    const GstVideoInfo *info, GError **error)
{
  GstClCudaAllocation allocation;
  GstClCudaMemory *mem;

  if (!gst_cl_cuda_alloc_exportable (context, GST_VIDEO_INFO_SIZE (info),
          &allocation, error))
    return NULL;
  mem = cl_cuda_memory_new (allocator, context, info, NULL, 0,
      GST_VIDEO_INFO_SIZE (info));
  mem->allocation = allocation;
  return GST_MEMORY_CAST (mem);
}

/* A map with GST_MAP_CUDA gives the device address (a CUdeviceptr), as
 * GstCudaMemory's does; others a host copy, downloaded once after each
 * write on the device (a GstVideoFrame maps the memory once a plane). */
static gpointer
cl_cuda_mem_map (GstMemory *memory, gsize maxsize, GstMapFlags flags)
{
  GstClCudaMemory *mem = (GstClCudaMemory *) memory;
  GError *err = NULL;
  gpointer data = NULL;

  if (flags & GST_MAP_CUDA)
    return (gpointer) (guintptr) mem->allocation.ptr;
  g_mutex_lock (&mem->lock);
  if (!mem->host)
    mem->host = g_malloc (memory->maxsize);
  if (!mem->host_valid)
    mem->host_valid = gst_cl_cuda_copy (mem->parent.context, mem->host, 0,
        NULL, mem->allocation.ptr, memory->maxsize, &err);
  if (mem->host_valid)
    data = mem->host;
  g_mutex_unlock (&mem->lock);
  if (!data) {
    GST_ERROR ("cannot download CUDA memory for a host map: %s",
        err->message);
    g_error_free (err);
  }
  return data;
}

static void
cl_cuda_mem_unmap_full (GstMemory *memory, GstMapInfo *info)
{
  GstClCudaMemory *mem = (GstClCudaMemory *) memory;
  GError *err = NULL;

  if (!(info->flags & GST_MAP_WRITE))
    return;
  g_mutex_lock (&mem->lock);
  if (info->flags & GST_MAP_CUDA) {
    /* Written on the device: the host copy is stale. */
    mem->host_valid = FALSE;
    g_mutex_unlock (&mem->lock);
    return;
  }
  if (!gst_cl_cuda_copy (mem->parent.context, NULL, mem->allocation.ptr,
          mem->host, 0, memory->maxsize, &err)) {
    GST_ERROR ("cannot upload a host map's writes to CUDA memory: %s",
        err->message);
    g_error_free (err);
  }
  g_mutex_unlock (&mem->lock);
}

/* A copy of the whole allocation stays on the device, a frame as the
 * original is; of a part (a region of a buffer, or memory resized), in
 * system memory. @offset counts from the memory's own offset, as
 * gst_memory_copy() has it. */
static GstMemory *
cl_cuda_mem_copy (GstMemory *memory, gssize offset, gssize size)
{
  GstClCudaMemory *mem = (GstClCudaMemory *) memory;
  GstMemory *copy = NULL;
  GstMapInfo map;
  GError *err = NULL;

  if (size < 0)
    size = memory->size - offset;
  if (memory->offset + offset == 0 && (gsize) size == memory->maxsize) {
    copy = gst_cl_cuda_allocator_alloc (memory->allocator,
        mem->parent.context, &mem->parent.info, &err);
    if (copy && !gst_cl_cuda_copy (mem->parent.context, NULL,
            ((GstClCudaMemory *) copy)->allocation.ptr, NULL,
            mem->allocation.ptr, memory->size, &err))
      g_clear_pointer (&copy, gst_memory_unref);
  } else if (gst_memory_map (memory, &map, GST_MAP_READ)) {
    /* map.data is past the memory's offset already. */
    guint8 *data = g_memdup2 (map.data + offset, size);

    copy = gst_memory_new_wrapped (0, data, size, 0, size, data, g_free);
    gst_memory_unmap (memory, &map);
  }
  if (err) {
    GST_ERROR ("cannot copy CUDA memory: %s", err->message);
    g_error_free (err);
  }
  return copy;
}

static void
gst_cl_cuda_allocator_free (GstAllocator *allocator, GstMemory *memory)
{
  GstClCudaMemory *mem = (GstClCudaMemory *) memory;

  /* The import first: it maps the CUDA memory into OpenCL. */
  g_clear_pointer (&mem->block, clh_host_block_free);
  gst_cl_cuda_free_exportable (mem->parent.context, &mem->allocation);
  g_free (mem->host);
  g_clear_error (&mem->import_error);
  gst_object_unref (mem->parent.context);
  g_mutex_clear (&mem->lock);
  g_free (mem);
}

static void
gst_cl_cuda_allocator_class_init (GstClCudaAllocatorClass *klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->free = gst_cl_cuda_allocator_free;
}

static void
gst_cl_cuda_allocator_init (GstClCudaAllocator *self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  /* After GstCudaAllocator's init: ours replace its functions. */
  allocator->mem_map = cl_cuda_mem_map;
  allocator->mem_unmap_full = cl_cuda_mem_unmap_full;
  allocator->mem_copy = cl_cuda_mem_copy;
}

/**
 * gst_cl_cuda_allocator_new:
 *
 * Returns: (transfer full): a new allocator of exportable CUDA memory
 */
GstAllocator *
gst_cl_cuda_allocator_new (void)
{
  GstAllocator *allocator = g_object_new (GST_TYPE_CL_CUDA_ALLOCATOR, NULL);

  allocator_type = GST_TYPE_CL_CUDA_ALLOCATOR;
  gst_object_ref_sink (allocator);
  return allocator;
}

/**
 * gst_is_cl_cuda_memory:
 * @mem: a memory
 *
 * Returns: whether @mem is exportable CUDA memory of this plugin
 */
gboolean
gst_is_cl_cuda_memory (GstMemory *mem)
{
  /* Not by GST_IS_CL_CUDA_ALLOCATOR: that registers the type, which must
   * not happen under a later GStreamer (a larger parent). */
  return allocator_type && mem && mem->allocator
      && G_TYPE_CHECK_INSTANCE_TYPE (mem->allocator, allocator_type);
}

/* Exports @mem's allocation and imports it into @context; with the lock. */
static ClhHostBlock *
import (GstClCudaMemory *mem, ClhContext *context, GError **error)
{
  ClhHostBlock *block;
  const gint fd = gst_cl_cuda_export_fd (&mem->allocation, error);

  if (fd < 0)
    return NULL;
  block = clh_context_import_opaque_fd (context, fd, mem->allocation.size,
      mem->allocation.ptr, error);
  /* A successful import owns the descriptor (the OpenCL driver's, as in
   * Vulkan's and CUDA's imports); a failed one leaves it ours. */
  if (!block)
    close (fd);
  return block;
}

/**
 * gst_cl_cuda_memory_get_block:
 * @mem: exportable CUDA memory (gst_is_cl_cuda_memory())
 * @context: the OpenCL context that will count frames in it
 * @error: %GST_RESOURCE_ERROR_FAILED from CUDA, or the engine's error
 *
 * The memory as a block of @context's device memory
 * (clh_context_import_opaque_fd()): imported at the first call and kept
 * for the memory's life. The frame's plane data, mapped with
 * %GST_MAP_CUDA, are device addresses inside it.
 *
 * Returns: (transfer none) (nullable): the block, %NULL on error or if the
 *   memory was imported into another context
 */
ClhHostBlock *
gst_cl_cuda_memory_get_block (GstMemory *memory, ClhContext *context,
    GError **error)
{
  GstClCudaMemory *mem = (GstClCudaMemory *) memory;
  ClhHostBlock *block;

  g_return_val_if_fail (gst_is_cl_cuda_memory (memory), NULL);
  /* Memory shared with gst_memory_share() would have a parent; this
   * memory refuses sharing (GST_MEMORY_FLAG_NO_SHARE). */
  g_mutex_lock (&mem->lock);
  if (mem->import_error)
    g_propagate_error (error, g_error_copy (mem->import_error));
  else if (!mem->block && !(mem->block = import (mem, context,
              &mem->import_error)))
    g_propagate_error (error, g_error_copy (mem->import_error));
  else if (clh_host_block_get_context (mem->block) != context)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "the CUDA memory was imported into another OpenCL context");
  block = mem->block && clh_host_block_get_context (mem->block) == context ?
      mem->block : NULL;
  g_mutex_unlock (&mem->lock);
  return block;
}
