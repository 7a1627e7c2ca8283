/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The base class of the tracking elements: the `device` and `device-name`
 * properties, the device context every element of the plugin shares
 * (gstclcontext.c) with a tracking engine of the element's own on it from
 * NULL->READY to READY->NULL, the negotiated input format, and frames
 * mapped for the engine with their GstVideoMeta checked.
 */
#include "gstcltrackerfilter.h"
#include "gstclcontext.h"
#include "gstclutils.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_tracker_filter_debug);
#define GST_CAT_DEFAULT gst_cl_tracker_filter_debug

#define DEFAULT_DEVICE "auto"

enum {
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
};

typedef struct {
  /* Under the object lock. */
  gchar *device;
  gchar *device_name;
  ClhContext *context;
  /* From NULL->READY to READY->NULL. */
  ClhTracker *tracker;
  /* Streaming thread: the input caps and their planes and components. */
  GstVideoInfo info;
  ClhFrame format;
  GstClCudaInput cuda_input;
} GstClTrackerFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClTrackerFilter, gst_cl_tracker_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstClTrackerFilter)
    GST_DEBUG_CATEGORY_INIT (gst_cl_tracker_filter_debug, "cltrackerfilter",
        0, "OpenCL tracking elements"));

#define PRIV(self) \
  ((GstClTrackerFilterPrivate *) \
      gst_cl_tracker_filter_get_instance_private (self))

/* The tracking engine, from NULL->READY to READY->NULL. */
ClhTracker *
gst_cl_tracker_filter_get_tracker (GstClTrackerFilter *self)
{
  return PRIV (self)->tracker;
}

/* The negotiated input format (streaming thread). */
const GstVideoInfo *
gst_cl_tracker_filter_get_info (GstClTrackerFilter *self)
{
  return &PRIV (self)->info;
}

/* Has @spec read the negotiated format's R, G, B (RGB formats) or Y, U, V
 * (YUV formats, converted with BT.601 as clhistogram's hue mode does). */
void
gst_cl_tracker_filter_init_spec (GstClTrackerFilter *self,
    ClhBackprojectSpec *spec)
{
  const GstVideoInfo *info = &PRIV (self)->info;
  guint c;

  spec->n_components = 3;
  for (c = 0; c < 3; c++)
    spec->components[c] = c;
  spec->color = GST_VIDEO_INFO_IS_YUV (info) ? CLH_COLOR_YUV_BT601 :
      CLH_COLOR_RGB;
}

/* Maps @buffer for reading as the caps' frame (a GstVideoMeta larger than
 * the caps is read from its top-left corner): in host memory, or on the
 * device for frames in CUDA memory the tracker imports (@block: the device
 * memory, else NULL); FALSE after posting a STREAM error. */
gboolean
gst_cl_tracker_filter_map (GstClTrackerFilter *self, GstBuffer *buffer,
    GstClFrameMap *map, ClhFrame *frame, const ClhHostBlock **block)
{
  GstClTrackerFilterPrivate *priv = PRIV (self);

  if (!gst_cl_cuda_input_map (&priv->cuda_input, GST_ELEMENT (self),
          priv->context, map, &priv->info, &priv->format, buffer, frame,
          block)) {
    gst_cl_frame_map_clear (map);
    return FALSE;
  }
  frame->width = GST_VIDEO_INFO_WIDTH (&priv->info);
  frame->height = GST_VIDEO_INFO_HEIGHT (&priv->info);
  return TRUE;
}

/* Posts the element error for an engine failure on a frame; takes @err. */
GstFlowReturn
gst_cl_tracker_filter_engine_error (GstClTrackerFilter *self, GError *err)
{
  GstClTrackerFilterPrivate *priv = PRIV (self);

  if (g_error_matches (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID))
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The %s frame cannot be tracked as its caps and GstVideoMeta "
            "describe it: %s.", GST_VIDEO_INFO_NAME (&priv->info),
            err->message), ("%s", err->message));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("OpenCL failed while tracking a frame on %s: %s. The device may be "
            "out of memory or lost; restart the pipeline or choose another "
            "device.", priv->device_name, err->message), ("%s",
            err->message));
  g_error_free (err);
  return GST_FLOW_ERROR;
}

static void
close_device (GstClTrackerFilter *self)
{
  GstClTrackerFilterPrivate *priv = PRIV (self);
  ClhContext *context;

  g_clear_pointer (&priv->tracker, clh_tracker_free);
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&priv->device_name, g_free);
  context = g_steal_pointer (&priv->context);
  GST_OBJECT_UNLOCK (self);
  /* The last reference may close the device: not under the lock. */
  g_clear_pointer (&context, gst_cl_context_handle_unref);
}

/* The shared device context and our own tracking engine on it; FALSE
 * after posting an element error that says what to do. */
static gboolean
open_device (GstClTrackerFilter *self)
{
  GstClTrackerFilterPrivate *priv = PRIV (self);

  priv->tracker = gst_cl_open_engine (GST_ELEMENT (self), &priv->device,
      &priv->context, (GstClEngineNew) clh_tracker_new, &priv->device_name,
      "tracking");
  if (!priv->tracker)
    close_device (self);
  return priv->tracker != NULL;
}

static GstStateChangeReturn
gst_cl_tracker_filter_change_state (GstElement *element,
    GstStateChange transition)
{
  GstClTrackerFilter *self = GST_CL_TRACKER_FILTER (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !open_device (self))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_cl_tracker_filter_parent_class)->change_state
      (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    close_device (self);
    gst_cl_cuda_input_clear (&PRIV (self)->cuda_input);
  }
  return ret;
}

static void
gst_cl_tracker_filter_set_context (GstElement *element, GstContext *context)
{
  GstClTrackerFilterPrivate *priv = PRIV (GST_CL_TRACKER_FILTER (element));

  gst_cl_cuda_input_set_context (&priv->cuda_input, element, context);
  if (gst_cl_handle_set_context (element, context, &priv->device, &priv->context))
    GST_ELEMENT_CLASS (gst_cl_tracker_filter_parent_class)->set_context (element, context);
}

static gboolean
gst_cl_tracker_filter_query (GstBaseTransform *trans,
    GstPadDirection direction, GstQuery *query)
{
  GstClTrackerFilterPrivate *priv = PRIV (GST_CL_TRACKER_FILTER (trans));
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
  return GST_BASE_TRANSFORM_CLASS (gst_cl_tracker_filter_parent_class)->query
      (trans, direction, query);
}

/* Frames in CUDA memory: the pool of exportable CUDA memory, where the
 * tracker can import it. */
static gboolean
gst_cl_tracker_filter_propose_allocation (GstBaseTransform *trans,
    GstQuery *decide_query, GstQuery *query)
{
  GstClTrackerFilterPrivate *priv = PRIV (GST_CL_TRACKER_FILTER (trans));
  ClhContext *context = NULL;

  if (!GST_BASE_TRANSFORM_CLASS (gst_cl_tracker_filter_parent_class)->
      propose_allocation (trans, decide_query, query))
    GST_DEBUG_OBJECT (trans, "downstream answered no allocation query");
  GST_OBJECT_LOCK (trans);
  if (priv->context)
    context = gst_cl_context_handle_ref (priv->context);
  GST_OBJECT_UNLOCK (trans);
  /* The frame being tracked, and the one the decoder writes meanwhile. */
  gst_cl_cuda_input_propose_allocation (&priv->cuda_input,
      GST_ELEMENT (trans), query, context, 2);
  g_clear_pointer (&context, gst_cl_context_handle_unref);
  return TRUE;
}

static gboolean
gst_cl_tracker_filter_set_caps (GstBaseTransform *trans, GstCaps *incaps,
    GstCaps *outcaps)
{
  GstClTrackerFilterPrivate *priv = PRIV (GST_CL_TRACKER_FILTER (trans));
  GstVideoInfo info;
  ClhFrame format;

  if (!gst_video_info_from_caps (&info, incaps)
      || !gst_cl_frame_format (&info, &format)) {
    GST_WARNING_OBJECT (trans, "cannot read %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  priv->info = info;
  priv->format = format;
  gst_cl_cuda_input_set_caps (&priv->cuda_input, incaps);
  return TRUE;
}

static gboolean
gst_cl_tracker_filter_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START)
    gst_cl_cuda_input_new_stream (&PRIV (GST_CL_TRACKER_FILTER (trans))->
        cuda_input);
  return GST_BASE_TRANSFORM_CLASS (gst_cl_tracker_filter_parent_class)->
      sink_event (trans, event);
}

static void
gst_cl_tracker_filter_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClTrackerFilterPrivate *priv = PRIV (GST_CL_TRACKER_FILTER (object));

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
gst_cl_tracker_filter_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClTrackerFilterPrivate *priv = PRIV (GST_CL_TRACKER_FILTER (object));

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

static void
gst_cl_tracker_filter_finalize (GObject *object)
{
  GstClTrackerFilter *self = GST_CL_TRACKER_FILTER (object);

  close_device (self);
  gst_cl_cuda_input_clear (&PRIV (self)->cuda_input);
  g_free (PRIV (self)->device);
  G_OBJECT_CLASS (gst_cl_tracker_filter_parent_class)->finalize (object);
}

static void
gst_cl_tracker_filter_class_init (GstClTrackerFilterClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cl_tracker_filter_set_property;
  gobject_class->get_property = gst_cl_tracker_filter_get_property;
  gobject_class->finalize = gst_cl_tracker_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "OpenCL device: auto (first GPU, else accelerator, else CPU), "
          "P:D (platform:device as clinfo -l numbers them) or part of its "
          "name; read when the element goes to READY", DEFAULT_DEVICE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "Name of the OpenCL device in use (NULL before READY)", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_change_state);
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_set_context);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_query);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_set_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_propose_allocation);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_TRACKER_FILTER, 0);
}

static void
gst_cl_tracker_filter_init (GstClTrackerFilter *self)
{
  PRIV (self)->device = g_strdup (DEFAULT_DEVICE);
}
