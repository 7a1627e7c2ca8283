/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclbufferpool
 * @title: GstClBufferPool
 * @short_description: the video buffer pool clhistogram proposes
 *
 * A #GstVideoBufferPool that gives back what it allocated when it cannot
 * start. GStreamer 1.22's default start allocates the minimum number of
 * buffers one by one and, when one fails (the device is out of pinned
 * memory), returns FALSE with the others still queued; an inactive pool
 * never stops, so they, their memory and the device context under it
 * would leak.
 */
#include "gstclbufferpool.h"

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
