/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Host blocks: host memory the device reads frames from without a host
 * copy. On a CPU device, our own allocation under a CL_MEM_USE_HOST_PTR
 * buffer, read where it lies; on others, pinned memory the driver copies
 * by DMA, mapped for the host for the block's life and unmapped only while
 * lent to the device. Device memory imported from another API
 * (clh-external-memory.c) is a block too, which is never mapped. */
#include "clh-context-state.h"

/* A CPU device reads our own aligned memory where it lies. */
static gboolean
host_block_wrap (ClhHostBlock *block, GError **error)
{
  ClhContext *ctx = block->context;
  cl_int ret;

  block->allocation = g_aligned_alloc0 (1, block->size, ctx->alignment);
  block->mem = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY
      | CL_MEM_USE_HOST_PTR, block->size, block->allocation, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (CL_MEM_USE_HOST_PTR)", error))
    return FALSE;
  block->data = block->allocation;
  return TRUE;
}

/* Other devices: pinned memory the driver copies from by DMA, mapped for
 * the host for the block's whole life. */
static gboolean
host_block_pin (ClhHostBlock *block, GError **error)
{
  block->data = clh_context_pin (block->context, CL_MEM_READ_ONLY,
      block->size, &block->mem, error);
  return block->data != NULL;
}

/**
 * clh_context_alloc_host:
 * @context: a context
 * @size: bytes
 * @error: %CLH_ENGINE_ERROR_OPENCL if the driver cannot allocate it, or
 *   @size exceeds clh_context_get_max_host_block()
 *
 * Allocates host memory the device reads without a host copy: on a CPU
 * device the kernels read it where it lies; on others it is pinned memory
 * (%CL_MEM_ALLOC_HOST_PTR, mapped for the host) that the driver copies to
 * the device by DMA. Its data starts at a multiple of
 * clh_context_get_alignment(). Pass the block to clh_engine_submit() with
 * frames in it. Any thread may use and free it.
 *
 * Returns: (transfer full) (nullable): the block, or %NULL on error
 */
ClhHostBlock *
clh_context_alloc_host (ClhContext *context, gsize size, GError **error)
{
  ClhHostBlock *block;

  if (size > context->max_block) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL,
        "%" G_GSIZE_FORMAT " bytes of host memory asked for; %s allocates "
        "at most %" G_GSIZE_FORMAT " in one buffer", size,
        context->device.name, context->max_block);
    return NULL;
  }
  block = g_new0 (ClhHostBlock, 1);
  block->context = clh_context_ref (context);
  block->size = MAX (size, 1);
  if (context->in_place ? host_block_wrap (block, error) :
      host_block_pin (block, error))
    return block;
  block->data = NULL;
  clh_host_block_free (block);
  return NULL;
}

/**
 * clh_host_block_free:
 * @block: (transfer full) (nullable): from clh_context_alloc_host(), no
 *   longer read by any pending frame
 */
void
clh_host_block_free (ClhHostBlock *block)
{
  ClhContext *ctx;

  if (!block)
    return;
  ctx = block->context;
  if (block->allocation || block->external)
    g_clear_pointer (&block->mem, clReleaseMemObject);
  else
    clh_context_unpin (ctx, g_steal_pointer (&block->mem), block->data);
  g_clear_pointer (&block->allocation, g_aligned_free);
  clh_context_unref (ctx);
  g_free (block);
}

/**
 * clh_host_block_get_data:
 * @block: a host block
 *
 * Returns: (transfer none): its first byte
 */
guint8 *
clh_host_block_get_data (const ClhHostBlock *block)
{
  return block->data;
}

/**
 * clh_host_block_get_size:
 * @block: a host block
 *
 * Returns: its size in bytes
 */
gsize
clh_host_block_get_size (const ClhHostBlock *block)
{
  return block->size;
}

/**
 * clh_host_block_get_mem:
 * @block: a host block
 *
 * Returns: (transfer none): the OpenCL buffer over it
 */
cl_mem
clh_host_block_get_mem (const ClhHostBlock *block)
{
  return block->mem;
}

/**
 * clh_host_block_lend:
 * @block: a host block no pending frame reads
 * @queue: the queue of the commands that will read it
 * @event: (out) (optional): the unmap's event, or %NULL
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Hands a pinned block to the device, so that kernels read it where it
 * lies across the bus instead of from a copy: unmaps it for the host on
 * @queue. The host must not touch its data until
 * clh_host_block_take_back(). A block of a context that reads host memory
 * in place is never mapped: nothing to do.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_host_block_lend (ClhHostBlock *block, cl_command_queue queue,
    cl_event *event, GError **error)
{
  if (event)
    *event = NULL;
  if (block->allocation || block->external)
    return TRUE;
  return clh_cl_check (clEnqueueUnmapMemObject (queue, block->mem,
          block->data, 0, NULL, event), "clEnqueueUnmapMemObject", error);
}

/**
 * clh_host_block_take_back:
 * @block: a block lent with clh_host_block_lend()
 * @queue: the queue it was lent on
 * @blocking: wait until the host may read it
 * @event: (out) (optional): the map's event, or %NULL
 * @error: %CLH_ENGINE_ERROR_OPENCL, also when the driver maps the block at
 *   another address (frames the caller placed in it cannot move)
 *
 * Maps a lent block for the host again, behind the commands on @queue
 * that read it.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_host_block_take_back (ClhHostBlock *block, cl_command_queue queue,
    gboolean blocking, cl_event *event, GError **error)
{
  guint8 *data;
  cl_int ret;

  if (event)
    *event = NULL;
  if (block->allocation || block->external)
    return TRUE;
  data = clEnqueueMapBuffer (queue, block->mem, blocking, CL_MAP_READ
      | CL_MAP_WRITE, 0, block->size, 0, NULL, event, &ret);
  if (!clh_cl_check (ret, "clEnqueueMapBuffer", error))
    return FALSE;
  if (data != block->data) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL,
        "The OpenCL driver mapped host memory at %p, then at %p: frames in "
        "it can no longer be read in place", block->data, data);
    block->data = data;
    return FALSE;
  }
  return TRUE;
}

/**
 * clh_host_block_get_context:
 * @block: a host block
 *
 * Returns: (transfer none): the context it belongs to
 */
ClhContext *
clh_host_block_get_context (const ClhHostBlock *block)
{
  return block->context;
}

/**
 * clh_host_block_is_external:
 * @block: a block
 *
 * Returns: whether @block is device memory imported from another API
 *   (clh_context_import_opaque_fd()), whose data the host cannot read
 */
gboolean
clh_host_block_is_external (const ClhHostBlock *block)
{
  return block->external;
}

/**
 * clh_host_block_holds:
 * @block: a block
 * @frame: a frame whose planes' data are addresses in @block's space (host
 *   memory, or another API's device addresses for an external block)
 * @planes: a bit mask of @frame's planes (bit p: plane p)
 *
 * Compares addresses as integers, never reading through them.
 *
 * Returns: whether every plane of @planes lies whole inside @block
 */
gboolean
clh_host_block_holds (const ClhHostBlock *block, const ClhFrame *frame,
    guint planes)
{
  const guintptr start = (guintptr) block->data;
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    const guintptr at = (guintptr) frame->planes[p].data;

    if ((planes & (1u << p)) && (at < start || at - start > block->size
            || clh_frame_plane_span (frame, p) > block->size
            - (at - start)))
      return FALSE;
  }
  return TRUE;
}
