/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclhostmemory
 * @title: GstClHostAllocator
 * @short_description: host memory an OpenCL device reads without a host copy
 *
 * A #GstAllocator over a #ClhContext whose memories are #ClhHostBlock s:
 * pinned, device-mapped memory on GPUs (the upload is a DMA), memory the
 * kernels read in place on CPU devices. The memory stays mapped for the
 * host for its whole life, so mapping it costs nothing; a frame in it is
 * handed to clh_engine_submit() with its block.
 *
 * The memory type is %GST_CL_HOST_MEMORY_TYPE. Sub-memories share their
 * parent's block.
 */
#include "gstclbasehostmemory.h"
#include "gstclbasecontext.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_host_memory_debug);
#define GST_CAT_DEFAULT gst_cl_host_memory_debug

typedef struct {
  GstMemory mem;
  /* Owned by the memory without a parent; sub-memories borrow it. */
  ClhHostBlock *block;
  /* The first of the memory's maxsize bytes, aligned, inside the block. */
  guint8 *data;
} GstClHostMemory;

struct _GstClHostAllocator {
  GstAllocator parent;

  ClhContext *context;
};

#define gst_cl_host_allocator_parent_class parent_class
G_DEFINE_TYPE (GstClHostAllocator, gst_cl_host_allocator, GST_TYPE_ALLOCATOR);

static GstClHostMemory *
memory_new (GstAllocator *allocator, GstMemory *parent, ClhHostBlock *block,
    guint8 *data, GstMemoryFlags flags, gsize maxsize, gsize align,
    gsize offset, gsize size)
{
  GstClHostMemory *mem = g_new0 (GstClHostMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (mem), flags, allocator, parent, maxsize,
      align, offset, size);
  mem->block = block;
  mem->data = data;
  return mem;
}

static GstMemory *
gst_cl_host_allocator_alloc (GstAllocator *allocator, gsize size,
    GstAllocationParams *params)
{
  GstClHostAllocator *self = GST_CL_HOST_ALLOCATOR (allocator);
  /* Masks: the caller's, the device's and GStreamer's, whichever is
   * strictest (all are 2^n - 1). */
  const gsize align = params->align | gst_memory_alignment
      | (clh_context_get_alignment (self->context) - 1);
  const gsize maxsize = params->prefix + size + params->padding;
  GError *err = NULL;
  ClhHostBlock *block;
  guint8 *data;

  /* The block's own alignment is the driver's business: take enough to
   * start the memory on a boundary of our own. */
  block = clh_context_alloc_host (self->context, maxsize + align, &err);
  if (!block) {
    GST_WARNING_OBJECT (self, "no host block of %" G_GSIZE_FORMAT
        " bytes: %s", maxsize + align, err->message);
    g_error_free (err);
    return NULL;
  }
  data = clh_host_block_get_data (block);
  data += (align + 1 - ((guintptr) data & align)) & align;

  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (data + params->prefix + size, 0, params->padding);

  return GST_MEMORY_CAST (memory_new (allocator, NULL, block, data,
          params->flags, maxsize, align, params->prefix, size));
}

static void
gst_cl_host_allocator_free (GstAllocator *allocator, GstMemory *memory)
{
  GstClHostMemory *mem = (GstClHostMemory *) memory;

  if (!memory->parent)
    clh_host_block_free (mem->block);
  g_free (mem);
}

/* Always mapped for the host: nothing to do either way. */
static gpointer
gst_cl_host_memory_map (GstMemory *memory, gsize maxsize, GstMapFlags flags)
{
  return ((GstClHostMemory *) memory)->data;
}

static void
gst_cl_host_memory_unmap (GstMemory *memory)
{
}

static GstMemory *
gst_cl_host_memory_share (GstMemory *memory, gssize offset, gssize size)
{
  GstClHostMemory *mem = (GstClHostMemory *) memory;
  GstMemory *parent = memory->parent ? memory->parent : memory;

  if (size == -1)
    size = memory->size - offset;
  /* Shared memory is read-only, as with system memory. */
  return GST_MEMORY_CAST (memory_new (memory->allocator, parent, mem->block,
          mem->data, GST_MINI_OBJECT_FLAGS (parent)
          | GST_MINI_OBJECT_FLAG_LOCK_READONLY, memory->maxsize,
          memory->align, memory->offset + offset, size));
}

static gboolean
gst_cl_host_memory_is_span (GstMemory *mem1, GstMemory *mem2, gsize *offset)
{
  GstClHostMemory *a = (GstClHostMemory *) mem1;
  GstClHostMemory *b = (GstClHostMemory *) mem2;

  /* Two top-level memories never share a block, however close they lie. */
  if (a->block != b->block || !mem1->parent)
    return FALSE;
  if (offset)
    *offset = mem1->offset - mem1->parent->offset;
  return a->data + mem1->offset + mem1->size == b->data + mem2->offset;
}

/* A copy in memory of the same allocator, so that it too reaches the
 * device without a host copy. */
static GstMemory *
gst_cl_host_memory_copy (GstMemory *memory, gssize offset, gssize size)
{
  GstClHostMemory *mem = (GstClHostMemory *) memory;
  GstAllocationParams params = { 0, memory->align, 0, 0 };
  GstMemory *copy;

  if (size == -1)
    size = (gssize) memory->size > offset ? memory->size - offset : 0;
  copy = gst_allocator_alloc (memory->allocator, size, &params);
  if (copy)
    memcpy (((GstClHostMemory *) copy)->data + copy->offset,
        mem->data + memory->offset + offset, size);
  return copy;
}

static void
gst_cl_host_allocator_finalize (GObject *object)
{
  GstClHostAllocator *self = GST_CL_HOST_ALLOCATOR (object);

  g_clear_pointer (&self->context, gst_cl_context_handle_unref);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_host_allocator_class_init (GstClHostAllocatorClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_host_memory_debug, "clhostmemory", 0,
      "OpenCL host memory");

  gobject_class->finalize = gst_cl_host_allocator_finalize;
  allocator_class->alloc = gst_cl_host_allocator_alloc;
  allocator_class->free = gst_cl_host_allocator_free;
}

static void
gst_cl_host_allocator_init (GstClHostAllocator *self)
{
  GstAllocator *allocator = GST_ALLOCATOR (self);

  allocator->mem_type = GST_CL_HOST_MEMORY_TYPE;
  allocator->mem_map = gst_cl_host_memory_map;
  allocator->mem_unmap = gst_cl_host_memory_unmap;
  allocator->mem_share = gst_cl_host_memory_share;
  allocator->mem_is_span = gst_cl_host_memory_is_span;
  allocator->mem_copy = gst_cl_host_memory_copy;
}

/**
 * gst_cl_host_allocator_new:
 * @context: the device the memory is for
 *
 * Returns: (transfer full): a new allocator of memory @context's device
 *   reads without a host copy
 */
GstAllocator *
gst_cl_host_allocator_new (ClhContext *context)
{
  GstClHostAllocator *self = g_object_new (GST_TYPE_CL_HOST_ALLOCATOR, NULL);

  gst_object_ref_sink (self);
  self->context = gst_cl_context_handle_ref (context);
  return GST_ALLOCATOR (self);
}

/**
 * gst_cl_host_allocator_get_context:
 * @allocator: an allocator
 *
 * Returns: (transfer none) (nullable): the device context of a
 *   #GstClHostAllocator, %NULL for other allocators
 */
ClhContext *
gst_cl_host_allocator_get_context (GstAllocator *allocator)
{
  if (!GST_IS_CL_HOST_ALLOCATOR (allocator))
    return NULL;
  return GST_CL_HOST_ALLOCATOR (allocator)->context;
}

/**
 * gst_is_cl_host_memory:
 * @mem: a memory
 *
 * Returns: whether @mem came from a #GstClHostAllocator (or is part of one
 *   that did)
 */
gboolean
gst_is_cl_host_memory (GstMemory *mem)
{
  return mem && GST_IS_CL_HOST_ALLOCATOR (mem->allocator);
}

/**
 * gst_cl_host_memory_get_block:
 * @mem: a memory of a #GstClHostAllocator
 *
 * Returns: (transfer none) (nullable): the host block @mem lies in (a
 *   sub-memory's is its parent's), %NULL for other memory
 */
ClhHostBlock *
gst_cl_host_memory_get_block (GstMemory *mem)
{
  if (!gst_is_cl_host_memory (mem))
    return NULL;
  return ((GstClHostMemory *) mem)->block;
}

/**
 * gst_cl_host_memory_buffer_block:
 * @buffer: a buffer
 * @context: the device context of the engine that reads @buffer
 *
 * The block an engine reads @buffer's frame from without a host copy:
 * that of its one memory, when it came from a #GstClHostAllocator on
 * @context (the pool an element proposed, or another element's on the
 * same device).
 *
 * Returns: (transfer none) (nullable): the host block, %NULL for any other
 *   buffer (which takes the engine's copy path)
 */
ClhHostBlock *
gst_cl_host_memory_buffer_block (GstBuffer *buffer, ClhContext *context)
{
  GstMemory *mem;

  if (!context || gst_buffer_n_memory (buffer) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (gst_cl_host_allocator_get_context (mem->allocator) != context)
    return NULL;
  return gst_cl_host_memory_get_block (mem);
}
