/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The base class of the tracking elements: a tracking engine of the
 * element's own on the device its base class opens (gstclbasetransform.c),
 * from NULL->READY to READY->NULL, and frames mapped for it, in host or
 * CUDA memory, read from the caps' top-left corner.
 */
#include "gstcltrackfilter.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_tracker_filter_debug);
#define GST_CAT_DEFAULT gst_cl_tracker_filter_debug

typedef struct {
  /* From NULL->READY to READY->NULL. */
  ClhTracker *tracker;
} GstClTrackerFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClTrackerFilter, gst_cl_tracker_filter,
    GST_TYPE_CL_BASE_TRANSFORM, G_ADD_PRIVATE (GstClTrackerFilter)
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

/* Has @spec read the negotiated format's R, G, B (RGB formats) or Y, U, V
 * (YUV formats, converted with BT.601 as clhistogram's hue mode does). */
void
gst_cl_tracker_filter_init_spec (GstClTrackerFilter *self,
    ClhBackprojectSpec *spec)
{
  const GstVideoInfo *info =
      gst_cl_base_transform_get_info (GST_CL_BASE_TRANSFORM (self));
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
  GstClBaseTransform *base = GST_CL_BASE_TRANSFORM (self);
  const GstVideoInfo *info = gst_cl_base_transform_get_info (base);

  if (!gst_cl_base_transform_map (base, buffer, map, frame, block)) {
    gst_cl_frame_map_clear (map);
    return FALSE;
  }
  frame->width = GST_VIDEO_INFO_WIDTH (info);
  frame->height = GST_VIDEO_INFO_HEIGHT (info);
  return TRUE;
}

static gboolean
gst_cl_tracker_filter_open (GstClBaseTransform *base, ClhContext *context,
    GError **error)
{
  GstClTrackerFilterPrivate *priv = PRIV (GST_CL_TRACKER_FILTER (base));

  priv->tracker = clh_tracker_new (context, error);
  return priv->tracker != NULL;
}

static void
gst_cl_tracker_filter_close (GstClBaseTransform *base)
{
  g_clear_pointer (&PRIV (GST_CL_TRACKER_FILTER (base))->tracker,
      clh_tracker_free);
}

static void
gst_cl_tracker_filter_class_init (GstClTrackerFilterClass *klass)
{
  GstClBaseTransformClass *base_class = GST_CL_BASE_TRANSFORM_CLASS (klass);

  /* The frame being tracked, and the one the decoder writes meanwhile:
   * the base class's two. */
  base_class->inputs = GST_CL_BASE_TRANSFORM_INPUT_CUDA;
  base_class->doing = "tracking";
  base_class->done = "tracked";
  base_class->open = GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_open);
  base_class->close = GST_DEBUG_FUNCPTR (gst_cl_tracker_filter_close);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_TRACKER_FILTER, 0);
}

static void
gst_cl_tracker_filter_init (GstClTrackerFilter *self)
{
}
