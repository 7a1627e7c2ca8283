/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclbasetransform
 * @title: GstClBaseTransform
 * @short_description: base class of the elements on an OpenCL device
 *
 * The device plumbing every element of the plugin shares, as
 * #GstCudaBaseTransform (gst-plugins-bad, sys/nvcodec) holds it for
 * NVIDIA's filters: the `device` and `device-name` properties; the device
 * context shared through `gst.opencl.context` (#GstElementClass.set_context
 * and the context query, gstclbasecontext.c), found at NULL->READY, where
 * the subclass makes its engine on it (#GstClBaseTransformClass.open), and
 * let go at READY->NULL; the input caps to the engine's frame format; the
 * pools proposed upstream (host memory on the device, exportable CUDA
 * memory) and frames mapped for the engine from either; and the element
 * errors of a frame the engine fails on. A subclass says what it does to
 * frames (#GstClBaseTransformClass.doing, .done), which memory it offers
 * (.inputs), and overrides only what is its own.
 */
#include "gstclbasetransform.h"
#include "gstclbasecontext.h"
#include "gstclbasecudainput.h"
#include "gstclbasehostmemory.h"
#include "gstclbasepool.h"
#include "gstclbaseutils.h"
#include "clh-error.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_transform_debug);
#define GST_CAT_DEFAULT gst_cl_base_transform_debug

#define DEFAULT_DEVICE "auto"
#define DEFAULT_PROPOSED_BUFFERS 2

enum {
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
};

typedef struct {
  /* Under the object lock: the properties, the shared device context
   * (from set_context in any state, or NULL->READY, to READY->NULL) and,
   * while the device is open, the allocator of the host pool proposed. */
  gchar *device;
  gchar *device_name;
  ClhContext *context;
  GstAllocator *allocator;
  /* The subclass's engine is open (state-change thread). */
  gboolean open;
  /* The negotiated input, under the object lock; its planes and
   * components; what its memory is (streaming thread). */
  GstVideoInfo info;
  ClhFrame format;
  GstClCudaInput cuda_input;
} GstClBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClBaseTransform, gst_cl_base_transform,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstClBaseTransform)
    GST_DEBUG_CATEGORY_INIT (gst_cl_base_transform_debug, "clbasetransform",
        0, "OpenCL elements' device"));

#define PRIV(self) ((GstClBaseTransformPrivate *) \
    gst_cl_base_transform_get_instance_private (GST_CL_BASE_TRANSFORM (self)))
#define CLASS(self) GST_CL_BASE_TRANSFORM_GET_CLASS (self)

/**
 * gst_cl_base_transform_get_info:
 * @self: an element
 *
 * Returns: (transfer none): the negotiated input format; read on the
 *   streaming thread, or under the object lock on another
 */
const GstVideoInfo *
gst_cl_base_transform_get_info (GstClBaseTransform *self)
{
  return &PRIV (self)->info;
}

/**
 * gst_cl_base_transform_get_format:
 * @self: an element
 *
 * Returns: (transfer none): the negotiated format's planes and components
 *   as the engine reads them, plane pointers unset (streaming thread)
 */
const ClhFrame *
gst_cl_base_transform_get_format (GstClBaseTransform *self)
{
  return &PRIV (self)->format;
}

/**
 * gst_cl_base_transform_ref_allocator:
 * @self: an element with %GST_CL_BASE_TRANSFORM_INPUT_HOST_POOL
 *
 * Returns: (transfer full) (nullable): the allocator of host memory on the
 *   element's device, %NULL when no device is open
 */
GstAllocator *
gst_cl_base_transform_ref_allocator (GstClBaseTransform *self)
{
  GstClBaseTransformPrivate *priv = PRIV (self);
  GstAllocator *allocator = NULL;

  GST_OBJECT_LOCK (self);
  if (priv->allocator)
    allocator = gst_object_ref (priv->allocator);
  GST_OBJECT_UNLOCK (self);
  return allocator;
}

/**
 * gst_cl_base_transform_map:
 * @self: an element
 * @buffer: (transfer none): a frame of the negotiated caps
 * @map: (out caller-allocates): the mapping, cleared with
 *   gst_cl_frame_map_clear() whatever this returns
 * @frame: (out): the frame as the engine reads it
 * @block: (out): the device memory it lies in (a frame in CUDA memory
 *   imported into OpenCL), else %NULL
 *
 * Maps @buffer for reading, its #GstVideoMeta checked against the caps
 * and its size: on the device when it lies in exportable CUDA memory the
 * element proposed, else in host memory.
 *
 * Returns: %FALSE after posting a STREAM element error
 */
gboolean
gst_cl_base_transform_map (GstClBaseTransform *self, GstBuffer *buffer,
    GstClFrameMap *map, ClhFrame *frame, const ClhHostBlock **block)
{
  GstClBaseTransformPrivate *priv = PRIV (self);

  return gst_cl_cuda_input_map (&priv->cuda_input, GST_ELEMENT (self),
      priv->context, map, &priv->info, &priv->format, buffer, frame, block);
}

/**
 * gst_cl_base_transform_host_block:
 * @self: an element
 * @buffer: (transfer none): a frame
 *
 * Returns: (transfer none) (nullable): the host block of a frame in the
 *   pool of host memory the element proposed (or another element's on the
 *   same device), which the engine reads without a host copy; %NULL for
 *   other memory
 */
const ClhHostBlock *
gst_cl_base_transform_host_block (GstClBaseTransform *self,
    GstBuffer *buffer)
{
  const ClhHostBlock *block;

  /* Only compared with the context, held while the device is open. */
  GST_OBJECT_LOCK (self);
  block = gst_cl_host_memory_buffer_block (buffer, PRIV (self)->context);
  GST_OBJECT_UNLOCK (self);
  return block;
}

/**
 * gst_cl_base_transform_engine_error:
 * @self: an element
 * @err: (transfer full): the engine's error on a frame
 *
 * Posts the element error for an engine failure on a frame: a STREAM error
 * for a frame its caps and #GstVideoMeta do not describe
 * (%CLH_ENGINE_ERROR_INVALID), else a RESOURCE error that names the device
 * and what to do. Any thread.
 *
 * Returns: %GST_FLOW_ERROR
 */
GstFlowReturn
gst_cl_base_transform_engine_error (GstClBaseTransform *self, GError *err)
{
  GstClBaseTransformPrivate *priv = PRIV (self);
  GstClBaseTransformClass *klass = CLASS (self);
  gchar *format, *device;

  GST_OBJECT_LOCK (self);
  format = g_strdup (GST_VIDEO_INFO_NAME (&priv->info));
  device = g_strdup (priv->device_name);
  GST_OBJECT_UNLOCK (self);
  if (g_error_matches (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID))
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The %s frame cannot be %s as its caps and GstVideoMeta describe "
            "it: %s.", format, klass->done, err->message), ("%s",
            err->message));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL failed while %s a frame on %s: %s. The device may be out "
            "of memory or lost; restart the pipeline or choose another "
            "device.", klass->doing, device, err->message), ("%s",
            err->message));
  g_free (format);
  g_free (device);
  g_error_free (err);
  return GST_FLOW_ERROR;
}

/* The subclass's engine first, then the context it was made on. */
static void
close_device (GstClBaseTransform *self)
{
  GstClBaseTransformPrivate *priv = PRIV (self);
  GstAllocator *allocator;
  ClhContext *context;

  if (priv->open && CLASS (self)->close)
    CLASS (self)->close (self);
  priv->open = FALSE;
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&priv->device_name, g_free);
  allocator = g_steal_pointer (&priv->allocator);
  context = g_steal_pointer (&priv->context);
  GST_OBJECT_UNLOCK (self);
  /* The last references may close the device: not under the lock. */
  gst_clear_object (&allocator);
  g_clear_pointer (&context, gst_cl_context_handle_unref);
}

/* The shared device context and the subclass's engine on it; FALSE after
 * posting an element error that says what to do. */
static gboolean
open_device (GstClBaseTransform *self)
{
  GstClBaseTransformPrivate *priv = PRIV (self);
  GstElement *element = GST_ELEMENT (self);
  ClhContext *context = NULL;
  GError *err = NULL;
  gchar *device_spec;

  GST_OBJECT_LOCK (self);
  device_spec = g_strdup (priv->device);
  GST_OBJECT_UNLOCK (self);
  if (gst_cl_ensure_element_context (element, device_spec, &priv->context,
          &err)) {
    GST_OBJECT_LOCK (self);
    context = gst_cl_context_handle_ref (priv->context);
    GST_OBJECT_UNLOCK (self);
    priv->open = CLASS (self)->open (self, context, &err);
  }
  if (!priv->open) {
    gst_cl_post_open_error (element, device_spec, err);
    g_clear_error (&err);
    g_clear_pointer (&context, gst_cl_context_handle_unref);
    close_device (self);
    g_free (device_spec);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "%s on OpenCL device %s", CLASS (self)->doing,
      clh_context_get_device_name (context));
  GST_OBJECT_LOCK (self);
  priv->device_name = g_strdup (clh_context_get_device_name (context));
  if (CLASS (self)->inputs & GST_CL_BASE_TRANSFORM_INPUT_HOST_POOL)
    priv->allocator = gst_cl_host_allocator_new (context);
  GST_OBJECT_UNLOCK (self);
  gst_cl_context_handle_unref (context);
  g_free (device_spec);
  return TRUE;
}

static GstStateChangeReturn
gst_cl_base_transform_change_state (GstElement *element,
    GstStateChange transition)
{
  GstClBaseTransform *self = GST_CL_BASE_TRANSFORM (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !open_device (self))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_cl_base_transform_parent_class)->change_state
      (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    close_device (self);
    gst_cl_cuda_input_clear (&PRIV (self)->cuda_input);
  }
  return ret;
}

static void
gst_cl_base_transform_set_context (GstElement *element, GstContext *context)
{
  GstClBaseTransformPrivate *priv = PRIV (element);

  if (CLASS (element)->inputs & GST_CL_BASE_TRANSFORM_INPUT_CUDA)
    gst_cl_cuda_input_set_context (&priv->cuda_input, element, context);
  if (gst_cl_handle_set_context (element, context, &priv->device,
          &priv->context))
    GST_ELEMENT_CLASS (gst_cl_base_transform_parent_class)->set_context
        (element, context);
}

static gboolean
gst_cl_base_transform_query (GstBaseTransform *trans,
    GstPadDirection direction, GstQuery *query)
{
  GstClBaseTransformPrivate *priv = PRIV (trans);
  ClhContext *context = NULL;
  gboolean answered;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GST_OBJECT_LOCK (trans);
    if (priv->context)
      context = gst_cl_context_handle_ref (priv->context);
    GST_OBJECT_UNLOCK (trans);
    answered = gst_cl_handle_context_query (GST_ELEMENT (trans), query,
        context);
    g_clear_pointer (&context, gst_cl_context_handle_unref);
    if (answered)
      return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->query
      (trans, direction, query);
}

/* Upstream may write its frames where the engine reads them without a
 * copy: for caps in CUDA memory a pool of exportable CUDA memory (never
 * host memory), else a pool of host memory on the device; GstVideoMeta in
 * either case. In place, downstream sees our input buffers: it proposes
 * first, through the parent. */
static gboolean
gst_cl_base_transform_propose_allocation (GstBaseTransform *trans,
    GstQuery *decide_query, GstQuery *query)
{
  GstClBaseTransformPrivate *priv = PRIV (trans);
  GstClBaseTransformClass *klass = CLASS (trans);
  GstElement *element = GST_ELEMENT (trans);
  const guint n = klass->proposed_buffers ?
      klass->proposed_buffers (GST_CL_BASE_TRANSFORM (trans)) :
      DEFAULT_PROPOSED_BUFFERS;
  GstAllocator *allocator = NULL;
  ClhContext *context = NULL;
  gboolean cuda = FALSE;

  if (!GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->
      propose_allocation (trans, decide_query, query)) {
    GST_DEBUG_OBJECT (trans, "downstream answered no allocation query");
    /* Nothing of ours to offer: upstream hears what downstream said. */
    if (!klass->inputs)
      return FALSE;
  }
  GST_OBJECT_LOCK (trans);
  if (priv->allocator)
    allocator = gst_object_ref (priv->allocator);
  if (priv->context)
    context = gst_cl_context_handle_ref (priv->context);
  GST_OBJECT_UNLOCK (trans);
  if (klass->inputs & GST_CL_BASE_TRANSFORM_INPUT_CUDA)
    cuda = gst_cl_cuda_input_propose_allocation (&priv->cuda_input, element,
        query, context, n);
  if (klass->inputs & GST_CL_BASE_TRANSFORM_INPUT_HOST_POOL)
    gst_cl_buffer_pool_propose_allocation (element, query, cuda ? NULL :
        allocator, n);
  gst_clear_object (&allocator);
  g_clear_pointer (&context, gst_cl_context_handle_unref);
  return TRUE;
}

static gboolean
gst_cl_base_transform_set_caps (GstBaseTransform *trans, GstCaps *incaps,
    GstCaps *outcaps)
{
  GstClBaseTransformPrivate *priv = PRIV (trans);
  GstClBaseTransformClass *klass = CLASS (trans);
  GstVideoInfo info;
  ClhFrame format;

  if (!gst_video_info_from_caps (&info, incaps)
      || !gst_cl_frame_format (&info, &format)) {
    GST_WARNING_OBJECT (trans, "cannot read %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  if (klass->set_info && !klass->set_info (GST_CL_BASE_TRANSFORM (trans),
          incaps, &info, &format, outcaps))
    return FALSE;
  GST_OBJECT_LOCK (trans);
  priv->info = info;
  priv->format = format;
  GST_OBJECT_UNLOCK (trans);
  gst_cl_cuda_input_set_caps (&priv->cuda_input, incaps);
  return TRUE;
}

static gboolean
gst_cl_base_transform_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  /* Each stream says once which way its frames in CUDA memory take. */
  if (GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START)
    gst_cl_cuda_input_new_stream (&PRIV (trans)->cuda_input);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_base_transform_parent_class)->
      sink_event (trans, event);
}

static void
gst_cl_base_transform_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClBaseTransformPrivate *priv = PRIV (object);

  switch (prop_id) {
    case PROP_DEVICE:
      GST_OBJECT_LOCK (object);
      g_free (priv->device);
      priv->device = g_value_dup_string (value);
      if (!priv->device)
        priv->device = g_strdup (DEFAULT_DEVICE);
      GST_OBJECT_UNLOCK (object);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_base_transform_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClBaseTransformPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE:
      g_value_set_string (value, priv->device);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, priv->device_name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

/* An element dropped without going back to NULL still frees its engine:
 * here, while the subclass's own state is whole (its finalize comes
 * later). */
static void
gst_cl_base_transform_dispose (GObject *object)
{
  close_device (GST_CL_BASE_TRANSFORM (object));
  G_OBJECT_CLASS (gst_cl_base_transform_parent_class)->dispose (object);
}

static void
gst_cl_base_transform_finalize (GObject *object)
{
  GstClBaseTransformPrivate *priv = PRIV (object);

  gst_cl_cuda_input_clear (&priv->cuda_input);
  g_free (priv->device);
  G_OBJECT_CLASS (gst_cl_base_transform_parent_class)->finalize (object);
}

static void
gst_cl_base_transform_class_init (GstClBaseTransformClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cl_base_transform_set_property;
  gobject_class->get_property = gst_cl_base_transform_get_property;
  gobject_class->dispose = gst_cl_base_transform_dispose;
  gobject_class->finalize = gst_cl_base_transform_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: auto (a GPU, else an accelerator, else the CPU; "
          "of several, the one linked elements share, else the least "
          "loaded), P:D (platform:device as clinfo -l numbers them) or part "
          "of its name; read when the element goes to READY", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use (NULL before READY)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_change_state);
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_set_context);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_base_transform_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_propose_allocation);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_base_transform_set_caps);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_cl_base_transform_sink_event);

  klass->doing = "working on";
  klass->done = "read";

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_TRANSFORM, 0);
}

static void
gst_cl_base_transform_init (GstClBaseTransform *self)
{
  GstClBaseTransformPrivate *priv = PRIV (self);

  priv->device = g_strdup (DEFAULT_DEVICE);
  gst_video_info_init (&priv->info);
}
