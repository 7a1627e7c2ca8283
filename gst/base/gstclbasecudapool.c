/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A GstCudaBufferPool of exportable CUDA memory (gstclbasecudamemory.c). Its
 * planes' strides are multiples of 256 bytes, as cuMemAllocPitch()'s
 * pitches are on NVIDIA's GPUs, so that the decoder's copies and the
 * counting kernels read whole aligned rows. */
#include "gstclbasecudapool.h"

#include "gstclbasecudamemory.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

#define STRIDE_ALIGN 256

G_DEFINE_TYPE (GstClCudaBufferPool, gst_cl_cuda_buffer_pool,
    GST_TYPE_CUDA_BUFFER_POOL);

static const gchar **
gst_cl_cuda_buffer_pool_get_options (GstBufferPool *pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

/* GstCudaBufferPool's own set_config sizes buffers for its allocator's
 * pitch: the config is checked and sized here, for ours, and handed to
 * GstBufferPool's. */
static gboolean
gst_cl_cuda_buffer_pool_set_config (GstBufferPool *pool, GstStructure *config)
{
  GstClCudaBufferPool *self = (GstClCudaBufferPool *) pool;
  GstBufferPoolClass *base = g_type_class_peek (GST_TYPE_BUFFER_POOL);
  GstVideoAlignment align;
  GstVideoInfo info;
  GstCaps *caps = NULL;
  guint size, min, max, i;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps || !gst_video_info_from_caps (&info, caps)) {
    GST_WARNING_OBJECT (pool, "no video caps in the config");
    return FALSE;
  }
  gst_video_alignment_reset (&align);
  for (i = 0; i < GST_VIDEO_MAX_PLANES; i++)
    align.stride_align[i] = STRIDE_ALIGN - 1;
  if (!gst_video_info_align (&info, &align)) {
    GST_WARNING_OBJECT (pool, "cannot lay out %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  self->info = info;
  gst_buffer_pool_config_set_params (config, caps,
      (guint) GST_VIDEO_INFO_SIZE (&info), min, max);
  return base->set_config (pool, config);
}

static GstFlowReturn
gst_cl_cuda_buffer_pool_alloc (GstBufferPool *pool, GstBuffer **buffer,
    GstBufferPoolAcquireParams *params)
{
  GstClCudaBufferPool *self = (GstClCudaBufferPool *) pool;
  GstVideoInfo *info = &self->info;
  GError *err = NULL;
  GstMemory *mem;

  mem = gst_cl_cuda_allocator_alloc (self->allocator,
      self->parent.context, info, &err);
  if (!mem) {
    GST_ERROR_OBJECT (pool, "cannot allocate exportable CUDA memory: %s",
        err->message);
    g_error_free (err);
    return GST_FLOW_ERROR;
  }
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      info->offset, info->stride);
  return GST_FLOW_OK;
}

static void
gst_cl_cuda_buffer_pool_dispose (GObject *object)
{
  GstClCudaBufferPool *self = (GstClCudaBufferPool *) object;

  gst_clear_object (&self->allocator);
  G_OBJECT_CLASS (gst_cl_cuda_buffer_pool_parent_class)->dispose (object);
}

static void
gst_cl_cuda_buffer_pool_class_init (GstClCudaBufferPoolClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->dispose = gst_cl_cuda_buffer_pool_dispose;
  pool_class->get_options = gst_cl_cuda_buffer_pool_get_options;
  pool_class->set_config = gst_cl_cuda_buffer_pool_set_config;
  pool_class->alloc_buffer = gst_cl_cuda_buffer_pool_alloc;
}

static void
gst_cl_cuda_buffer_pool_init (GstClCudaBufferPool *self)
{
  self->allocator = gst_cl_cuda_allocator_new ();
}

/**
 * gst_cl_cuda_buffer_pool_new:
 * @context: the CUDA context the frames are decoded on
 *
 * Returns: (transfer full): a pool of exportable CUDA memory on @context's
 *   device, which GStreamer 1.22's NVIDIA decoders accept as theirs
 */
GstBufferPool *
gst_cl_cuda_buffer_pool_new (GstCudaContext *context)
{
  GstClCudaBufferPool *self = g_object_new (GST_TYPE_CL_CUDA_BUFFER_POOL,
      NULL);

  gst_object_ref_sink (self);
  self->parent.context = gst_object_ref (context);
  return GST_BUFFER_POOL_CAST (self);
}
