/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in CUDA memory counted where they lie, through the public API of
 * GStreamer 1.24's CUDA library and later: a GstCudaBufferPool whose
 * allocation method is GST_CUDA_MEMORY_ALLOC_MMAP (proposed by
 * gstclbasecudainput.c) allocates with cuMemCreate() and a POSIX file
 * descriptor handle type on Linux (gstcudabufferpool.cpp, 1.24),
 * gst_cuda_memory_export() gives that
 * descriptor, and OpenCL imports it (cl_khr_external_memory_opaque_fd).
 * NVIDIA's decoders write into the pool downstream proposes when it is a
 * GstCudaBufferPool (gstnvdecoder.cpp, 1.24 to 1.26,
 * gst_nv_decoder_ensure_cuda_pool()), unless their num-output-surfaces
 * property asks them to hand on their own surfaces. The import is made at
 * a memory's first frame and kept with the memory (as qdata), which the
 * pool recycles, so each allocation is imported once. */
#include "gstclbasecudaexport.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <gst/cuda/gstcudamemory.h>

/* What the import of one memory gave: the block, or why there is none
 * (not tried again). */
typedef struct {
  ClhHostBlock *block;
  GError *error;
} Import;

static GMutex import_lock;

G_DEFINE_QUARK (GstClCudaExportImport, import);

static void
import_free (gpointer data)
{
  Import *import = data;

  /* Before the allocator frees the memory: the block maps it. */
  g_clear_pointer (&import->block, clh_host_block_free);
  g_clear_error (&import->error);
  g_free (import);
}

/**
 * gst_cl_cuda_export_is_exportable:
 * @mem: a memory
 *
 * Returns: whether @mem is CUDA memory of virtual memory that
 *   gst_cuda_memory_export() exports
 */
gboolean
gst_cl_cuda_export_is_exportable (GstMemory *mem)
{
  return mem && gst_is_cuda_memory (mem)
      && gst_cuda_memory_get_alloc_method (GST_CUDA_MEMORY_CAST (mem))
      == GST_CUDA_MEMORY_ALLOC_MMAP;
}

/* The allocation's first byte as a CUDA device address. */
static gboolean
device_address (GstMemory *mem, guint64 *address, GError **error)
{
  GstMapInfo map;

  if (!gst_memory_map (mem, &map, GST_MAP_READ | GST_MAP_CUDA)) {
    g_set_error_literal (error, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_FAILED, "the CUDA memory cannot be mapped");
    return FALSE;
  }
  /* gst_memory_map() gives the data past the memory's offset. */
  *address = (guint64) (guintptr) map.data - mem->offset;
  gst_memory_unmap (mem, &map);
  return TRUE;
}

static ClhHostBlock *
import_memory (GstMemory *mem, ClhContext *context, GError **error)
{
  ClhHostBlock *block;
  guint64 address;
  gint fd = -1, own;

  if (!device_address (mem, &address, error))
    return NULL;
  if (!gst_cuda_memory_export (GST_CUDA_MEMORY_CAST (mem), &fd) || fd < 0) {
    g_set_error_literal (error, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_FAILED, "the CUDA memory cannot be exported as "
        "a file descriptor (gst_cuda_memory_export())");
    return NULL;
  }
  /* The memory keeps its descriptor and closes it when freed; a
   * successful import owns the one it is given. */
  own = fcntl (fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "cannot duplicate the CUDA memory's file descriptor: %s",
        g_strerror (errno));
    return NULL;
  }
  /* The whole allocation (maxsize): virtual memory is rounded up to the
   * device's allocation granularity beyond the frame. */
  block = clh_context_import_opaque_fd (context, own, mem->maxsize, address,
      error);
  if (!block)
    close (own);
  return block;
}

/**
 * gst_cl_cuda_export_get_block:
 * @mem: exportable CUDA memory (gst_cl_cuda_export_is_exportable())
 * @context: the OpenCL context that will count frames in it
 * @error: %GST_RESOURCE_ERROR_FAILED from CUDA, or the engine's error
 *
 * The memory as a block of @context's device memory
 * (clh_context_import_opaque_fd()): imported at the first call and kept
 * for the memory's life. Waits for CUDA's writes into the memory
 * (gst_cuda_memory_sync()) first, since the kernels do not wait for CUDA's
 * streams.
 *
 * Returns: (transfer none) (nullable): the block, %NULL on error or if the
 *   memory was imported into another context
 */
ClhHostBlock *
gst_cl_cuda_export_get_block (GstMemory *mem, ClhContext *context,
    GError **error)
{
  Import *import;
  ClhHostBlock *block = NULL;

  g_return_val_if_fail (gst_cl_cuda_export_is_exportable (mem), NULL);
  gst_cuda_memory_sync (GST_CUDA_MEMORY_CAST (mem));
  g_mutex_lock (&import_lock);
  import = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (mem),
      import_quark ());
  if (!import) {
    import = g_new0 (Import, 1);
    import->block = import_memory (mem, context, &import->error);
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), import_quark (),
        import, import_free);
  }
  if (import->error)
    g_propagate_error (error, g_error_copy (import->error));
  else if (clh_host_block_get_context (import->block) != context)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "the CUDA memory was imported into another OpenCL context");
  else
    block = import->block;
  g_mutex_unlock (&import_lock);
  return block;
}
