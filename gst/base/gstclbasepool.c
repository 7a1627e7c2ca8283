/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclbufferpool
 * @title: GstClBufferPool
 * @short_description: the video buffer pool clhistogram proposes
 *
 * A #GstVideoBufferPool of host memory the device reads without a host
 * copy, that gives back what it allocated when it cannot start. GStreamer
 * 1.22's default start allocates the minimum number of buffers one by one
 * and, when one fails (the device is out of pinned memory), returns FALSE
 * with the others still queued; an inactive pool never stops, so they,
 * their memory and the device context under it would leak.
 */
#include "gstclbasepool.h"
#include "gstclbasehostmemory.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

struct _GstClBufferPool {
  GstVideoBufferPool parent;
};

#define gst_cl_buffer_pool_parent_class parent_class
G_DEFINE_TYPE (GstClBufferPool, gst_cl_buffer_pool,
    GST_TYPE_VIDEO_BUFFER_POOL);

static gboolean
gst_cl_buffer_pool_start (GstBufferPool *pool)
{
  GstBufferPoolClass *parent = GST_BUFFER_POOL_CLASS (parent_class);

  if (parent->start (pool))
    return TRUE;
  /* Stop frees every buffer queued so far. */
  parent->stop (pool);
  return FALSE;
}

static void
gst_cl_buffer_pool_class_init (GstClBufferPoolClass *klass)
{
  GST_BUFFER_POOL_CLASS (klass)->start = gst_cl_buffer_pool_start;
}

static void
gst_cl_buffer_pool_init (GstClBufferPool *pool)
{
}

/**
 * gst_cl_buffer_pool_new:
 *
 * Returns: (transfer full): a new pool; configure it as a
 *   #GstVideoBufferPool
 */
GstBufferPool *
gst_cl_buffer_pool_new (void)
{
  return g_object_new (GST_TYPE_CL_BUFFER_POOL, NULL);
}

/* Proposes in @query, for @element, a pool of @allocator's host memory
 * (gstclbasehostmemory.c) sized for @caps, with GstVideoMeta and the device's
 * alignment, and at least @min_buffers; nothing if something fails, or if a
 * frame is larger than the device's largest buffer (such frames take the
 * engine's copy path, which uploads in bands). */
void
gst_cl_buffer_pool_propose (GstElement *element, GstQuery *query,
    GstCaps *caps, GstAllocator *allocator, guint min_buffers)
{
  ClhContext *context = gst_cl_host_allocator_get_context (allocator);
  GstAllocationParams params;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  guint size;

  if (!caps || !gst_video_info_from_caps (&info, caps))
    return;
  gst_allocation_params_init (&params);
  params.align = clh_context_get_alignment (context) - 1;
  /* A frame is one device buffer, and the allocator over-allocates by the
   * alignment; bigger frames take the copy path, which uploads in bands. */
  if (info.size > clh_context_get_max_host_block (context) - params.align
      - gst_memory_alignment) {
    GST_INFO_OBJECT (element, "no pool: a %" G_GSIZE_FORMAT "-byte frame is "
        "larger than %s's largest buffer (%" G_GSIZE_FORMAT " bytes)",
        info.size, clh_context_get_device_name (context),
        clh_context_get_max_host_block (context));
    return;
  }

  pool = gst_cl_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min_buffers, 0);
  gst_buffer_pool_config_set_allocator (config, allocator, &params);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (element, "our pool refused its config");
    gst_object_unref (pool);
    return;
  }
  /* The pool may have grown the size. */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);

  GST_DEBUG_OBJECT (element, "proposing a pool of %u-byte buffers in host "
      "memory, at least %u", size, min_buffers);
  gst_query_add_allocation_pool (query, pool, size, min_buffers, 0);
  if (gst_query_get_n_allocation_params (query) == 0)
    gst_query_add_allocation_param (query, allocator, &params);
  gst_object_unref (pool);
}

/**
 * gst_cl_buffer_pool_propose_allocation:
 * @element: the element answering @query, which reads frames with an
 *   engine
 * @query: an allocation query from upstream
 * @allocator: (nullable): the element's #GstClHostAllocator (%NULL: no
 *   device open, no pool)
 * @min_buffers: frames the element holds at once, plus one
 *
 * What such an element answers upstream: #GstVideoMeta, whose offsets and
 * strides the engines read, and, when upstream asks for a pool and none
 * is proposed yet (by downstream, for an element in place), a pool of
 * @allocator's host memory (gst_cl_buffer_pool_propose()), from which
 * frames reach the device without a host copy.
 */
void
gst_cl_buffer_pool_propose_allocation (GstElement *element, GstQuery *query,
    GstAllocator *allocator, guint min_buffers)
{
  GstCaps *caps;
  gboolean need_pool;

  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (need_pool && allocator && gst_query_get_n_allocation_pools (query) == 0)
    gst_cl_buffer_pool_propose (element, query, caps, allocator, min_buffers);
}
