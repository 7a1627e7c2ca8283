/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clscopeoverlay
 * @title: clscopeoverlay
 *
 * The scopes of clscope drawn over the video itself, in a corner: counted,
 * drawn and blended into the frame on the OpenCL device, in place, only
 * the covered rows read back. The picture is #GstClScopeOverlay:size
 * percent of the frame's width wide and as high as the scopes' natural
 * shapes make it (a waveform and a vectorscope: a third of its width),
 * both rounded down to multiples of 4 pixels so that chroma samples are
 * never split, at most the frame's height, #GstClScopeOverlay:corner's
 * corner a 64th of the frame's width from its edges; it is blended with
 * opacity #GstClScopeOverlay:alpha into R, G, B or Y, Cb, Cr (alpha and
 * padding bytes stay), each subsampled chroma sample taking the mean
 * colour of the pixels it covers, converted with the caps' matrix and
 * range at the frame's depth. Every format clhistogram reads. As
 * clscope, it proposes a pool of host memory upstream: a frame from it
 * goes to the device and its covered rows come back by DMA, with no host
 * copy.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! \
 *     clscopeoverlay scopes=waveform+vectorscope corner=bottom-left \
 *     size=35 alpha=0.75 ! videoconvert ! autovideosink
 * ]| a camera with its waveform and vectorscope in a corner.
 */
#include "gstclscopeoverlay.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_scope_overlay_debug);
#define GST_CAT_DEFAULT gst_cl_scope_overlay_debug

#define DEFAULT_CORNER GST_CL_SCOPE_CORNER_TOP_RIGHT
#define DEFAULT_SIZE 40.0
#define DEFAULT_ALPHA 0.8

/* The picture's corner and size are multiples of the largest subsampled
 * sample (4 pixels, YUV9's and Y41B's chroma). */
#define GRID 4u

enum {
  PROP_0,
  PROP_CORNER,
  PROP_SIZE,
  PROP_ALPHA,
};

struct _GstClScopeOverlay {
  GstClScopeBase parent;

  /* Under the object lock. */
  GstClScopeCorner corner;
  gdouble size;
  gdouble alpha;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_BASE_TRANSFORM_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_BASE_TRANSFORM_CAPS));

#define gst_cl_scope_overlay_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstClScopeOverlay, gst_cl_scope_overlay,
    GST_TYPE_CL_SCOPE_BASE,
    GST_DEBUG_CATEGORY_INIT (gst_cl_scope_overlay_debug, "clscopeoverlay", 0,
        "OpenCL video scopes over the video"));
GST_ELEMENT_REGISTER_DEFINE (clscopeoverlay, "clscopeoverlay", GST_RANK_NONE,
    GST_TYPE_CL_SCOPE_OVERLAY);

GType
gst_cl_scope_corner_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_SCOPE_CORNER_TOP_LEFT, "Top left", "top-left"},
    {GST_CL_SCOPE_CORNER_TOP_RIGHT, "Top right", "top-right"},
    {GST_CL_SCOPE_CORNER_BOTTOM_LEFT, "Bottom left", "bottom-left"},
    {GST_CL_SCOPE_CORNER_BOTTOM_RIGHT, "Bottom right", "bottom-right"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClScopeCorner", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

/* Where the picture goes in a @width x @height frame, and its size;
 * FALSE after posting an element error if the frame is too small. */
static gboolean
placement (GstClScopeOverlay *self, guint width, guint height, guint *x,
    guint *y, guint *w, guint *h)
{
  const guint margin = width / 64 / GRID * GRID;
  GstClScopeCorner corner;
  gdouble size;

  GST_OBJECT_LOCK (self);
  corner = self->corner;
  size = self->size;
  GST_OBJECT_UNLOCK (self);
  *w = (guint) (width * size / 100.0) / GRID * GRID;
  *w = MIN (*w, CLH_SCOPE_MAX_WIDTH);
  *h = gst_cl_scope_base_natural_width (GST_CL_SCOPE_BASE (self), NULL, 1);
  *h = *w / *h / GRID * GRID;
  *h = MIN (MAX (*h, CLH_SCOPE_MIN_SIZE), MIN (height / GRID * GRID,
          CLH_SCOPE_MAX_HEIGHT));
  if (*w < CLH_SCOPE_MIN_SIZE || *h < CLH_SCOPE_MIN_SIZE) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("The scopes cannot be drawn over a %ux%u frame at size=%g: the "
            "picture would be %ux%u pixels, at least %ux%u are needed. Set "
            "a larger size, or draw the scopes beside the video with "
            "clscope.", width, height, size, *w, *h, CLH_SCOPE_MIN_SIZE,
            CLH_SCOPE_MIN_SIZE), (NULL));
    return FALSE;
  }
  *x = corner == GST_CL_SCOPE_CORNER_TOP_LEFT
      || corner == GST_CL_SCOPE_CORNER_BOTTOM_LEFT ? margin :
      (width - *w - MIN (margin, width - *w)) / GRID * GRID;
  *y = corner == GST_CL_SCOPE_CORNER_TOP_LEFT
      || corner == GST_CL_SCOPE_CORNER_TOP_RIGHT ? MIN (margin,
      (height - *h) / GRID * GRID) :
      (height - *h - MIN (margin, height - *h)) / GRID * GRID;
  *x = MIN (*x, (width - *w) / GRID * GRID);
  return TRUE;
}

static GstFlowReturn
gst_cl_scope_overlay_transform_ip (GstBaseTransform *trans, GstBuffer *buf)
{
  GstClScopeOverlay *self = GST_CL_SCOPE_OVERLAY (trans);
  GstClScopeBase *base = GST_CL_SCOPE_BASE (trans);
  const GstVideoInfo *info = gst_cl_base_transform_get_info (GST_CL_BASE_TRANSFORM (base));
  ClhScopeSpec spec;
  guint x, y, w, h, alpha;

  if (!placement (self, GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info), &x, &y, &w, &h)
      || !gst_cl_scope_base_spec (base, w, h, &spec))
    return GST_FLOW_ERROR;
  GST_OBJECT_LOCK (self);
  alpha = (guint) (self->alpha * 255.0 + 0.5);
  GST_OBJECT_UNLOCK (self);
  GST_LOG_OBJECT (self, "%ux%u picture at (%u, %u), alpha %u", w, h, x, y,
      alpha);
  return gst_cl_scope_base_overlay (base, buf, &spec, x, y, alpha);
}

static void
gst_cl_scope_overlay_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClScopeOverlay *self = GST_CL_SCOPE_OVERLAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CORNER:
      self->corner = g_value_get_enum (value);
      break;
    case PROP_SIZE:
      self->size = g_value_get_double (value);
      break;
    case PROP_ALPHA:
      self->alpha = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_scope_overlay_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClScopeOverlay *self = GST_CL_SCOPE_OVERLAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CORNER:
      g_value_set_enum (value, self->corner);
      break;
    case PROP_SIZE:
      g_value_set_double (value, self->size);
      break;
    case PROP_ALPHA:
      g_value_set_double (value, self->alpha);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_scope_overlay_class_init (GstClScopeOverlayClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cl_scope_overlay_set_property;
  gobject_class->get_property = gst_cl_scope_overlay_get_property;

  g_object_class_install_property (gobject_class, PROP_CORNER,
      g_param_spec_enum ("corner", "Corner", "The frame's corner the scopes "
          "are drawn in", GST_TYPE_CL_SCOPE_CORNER, DEFAULT_CORNER, rw));
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_double ("size", "Size", "The scopes' width, in percent "
          "of the frame's width (their height follows their shapes)", 1.0,
          100.0, DEFAULT_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_ALPHA,
      g_param_spec_double ("alpha", "Alpha", "The scopes' opacity over the "
          "video, 0 (invisible) to 1 (opaque)", 0.0, 1.0, DEFAULT_ALPHA, rw));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "OpenCL video scopes overlay", "Filter/Analyzer/Video",
      "Waveform, parade, vectorscope and histograms of the video drawn over "
      "it in a corner, on an OpenCL device", "clhistogram developers");

  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cl_scope_overlay_transform_ip);
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (GST_TYPE_CL_SCOPE_CORNER, 0);
}

static void
gst_cl_scope_overlay_init (GstClScopeOverlay *self)
{
  self->corner = DEFAULT_CORNER;
  self->size = DEFAULT_SIZE;
  self->alpha = DEFAULT_ALPHA;
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
