/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The base class of the scope elements: a scope engine of the element's
 * own on the device its base class opens (base/gstclbasetransform.c), from
 * NULL->READY to READY->NULL, which proposes upstream its pool of host
 * memory, read without a host copy; the scope properties (`scopes`,
 * `scale`, `graticule`, `intensity`, `vectorscope-zoom`); what the input's
 * components are, its
 * range and matrix; frames drawn and blended with the engine.
 */
#include "gstclscopebase.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_scope_base_debug);
#define GST_CAT_DEFAULT gst_cl_scope_base_debug

#define DEFAULT_SCOPES (GST_CL_SCOPE_WAVEFORM | GST_CL_SCOPE_VECTORSCOPE)
#define DEFAULT_SCALE GST_CL_SCOPE_SCALE_LINEAR
#define DEFAULT_GRATICULE GST_CL_SCOPE_GRATICULE_IRE
#define DEFAULT_INTENSITY 0.15
#define DEFAULT_VECTORSCOPE_ZOOM 1

enum {
  PROP_0,
  PROP_SCOPES,
  PROP_SCALE,
  PROP_GRATICULE,
  PROP_INTENSITY,
  PROP_VECTORSCOPE_ZOOM,
};

typedef struct {
  /* Under the object lock. */
  guint scopes;
  GstClScopeScale scale;
  GstClScopeGraticule graticule;
  gdouble intensity;
  guint vectorscope_zoom;
  /* From NULL->READY to READY->NULL. */
  ClhScope *engine;
  /* Streaming thread: what the input's components are, the range and the
   * matrix (Kr, Kb in 1/10000). */
  ClhScopeSource source;
  gboolean limited;
  guint kr;
  guint kb;
} GstClScopeBasePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstClScopeBase, gst_cl_scope_base,
    GST_TYPE_CL_BASE_TRANSFORM, G_ADD_PRIVATE (GstClScopeBase)
    GST_DEBUG_CATEGORY_INIT (gst_cl_scope_base_debug, "clscopebase", 0,
        "OpenCL scope elements"));

#define PRIV(self) \
  ((GstClScopeBasePrivate *) gst_cl_scope_base_get_instance_private (self))

GType
gst_cl_scope_kinds_get_type (void)
{
  static GType type = 0;
  static const GFlagsValue values[] = {
    {GST_CL_SCOPE_WAVEFORM, "Luma waveform", "waveform"},
    {GST_CL_SCOPE_PARADE, "A waveform per channel (Y, Cb, Cr or R, G, B)",
        "parade"},
    {GST_CL_SCOPE_VECTORSCOPE, "Cb x Cr, with the 75% colour-bar targets "
          "and the skin-tone line", "vectorscope"},
    {GST_CL_SCOPE_HISTOGRAM, "A histogram per channel", "histogram"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_flags_register_static ("GstClScopeKinds", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_scope_scale_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_SCOPE_SCALE_LINEAR, "Brightness grows with the count", "linear"},
    {GST_CL_SCOPE_SCALE_LOG, "Brightness grows with the count's logarithm",
        "log"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClScopeScale", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_scope_graticule_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_SCOPE_GRATICULE_IRE, "0 to 100 IRE in tens, black and white "
          "highlighted", "ire"},
    {GST_CL_SCOPE_GRATICULE_CODES, "Code values in quarters, limited "
          "range's black and white highlighted", "codes"},
    {GST_CL_SCOPE_GRATICULE_NONE, "No graticule", "none"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClScopeGraticule", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

static ClhScopeSource
source_of (const GstVideoInfo *info)
{
  return GST_VIDEO_INFO_IS_RGB (info) ? CLH_SCOPE_SOURCE_RGB :
      GST_VIDEO_INFO_IS_YUV (info) ? CLH_SCOPE_SOURCE_YUV :
      CLH_SCOPE_SOURCE_GRAY;
}

/* The picture width at which the scopes set now have their natural shape
 * at @height, for input caps @caps (%NULL: the negotiated ones, or three
 * channels before any). */
guint
gst_cl_scope_base_natural_width (GstClScopeBase *self, GstCaps *caps,
    guint height)
{
  GstClScopeBasePrivate *priv = PRIV (self);
  ClhScopeSource source = CLH_SCOPE_SOURCE_YUV;
  GstVideoInfo info;
  guint scopes;

  GST_OBJECT_LOCK (self);
  scopes = priv->scopes;
  GST_OBJECT_UNLOCK (self);
  if (caps && gst_caps_is_fixed (caps) && gst_video_info_from_caps (&info,
          caps))
    source = source_of (&info);
  else if (GST_VIDEO_INFO_FORMAT (gst_cl_base_transform_get_info
          (GST_CL_BASE_TRANSFORM (self))) != GST_VIDEO_FORMAT_UNKNOWN)
    source = priv->source;
  return height * MAX (clh_scope_shares (scopes, source), 1);
}

/* The spec of a @width x @height picture of the negotiated input, from
 * the properties; FALSE after posting an element error if it cannot be
 * drawn (the picture too small for the scopes). */
gboolean
gst_cl_scope_base_spec (GstClScopeBase *self, guint width, guint height,
    ClhScopeSpec *spec)
{
  GstClScopeBasePrivate *priv = PRIV (self);
  GError *err = NULL;

  memset (spec, 0, sizeof (*spec));
  GST_OBJECT_LOCK (self);
  spec->kinds = priv->scopes;
  spec->scale = (ClhScopeScale) priv->scale;
  spec->graticule = (ClhScopeGraticule) priv->graticule;
  spec->intensity = priv->intensity;
  spec->vectorscope_zoom = priv->vectorscope_zoom;
  GST_OBJECT_UNLOCK (self);
  spec->width = width;
  spec->height = height;
  spec->source = priv->source;
  spec->limited = priv->limited;
  spec->kr = priv->kr;
  spec->kb = priv->kb;
  if (clh_scope_spec_is_valid (spec, gst_cl_base_transform_get_format
          (GST_CL_BASE_TRANSFORM (self)), &err))
    return TRUE;
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
      ("The scopes cannot be drawn: %s. Choose fewer scopes, or ask for a "
          "larger picture downstream (e.g. with a capsfilter "
          "video/x-raw,width=%u,height=%u).", err->message,
          MAX (width, gst_cl_scope_base_natural_width (self, NULL,
                  MAX (height, 256))), MAX (height, 256)), ("%s",
          err->message));
  g_error_free (err);
  return FALSE;
}

/* The host block of a frame in our pool (or another element's on our
 * device), which the engine reads without a host copy; NULL for others. */
static const ClhHostBlock *
frame_block (GstClScopeBase *self, GstBuffer *buffer)
{
  const ClhHostBlock *block =
      gst_cl_base_transform_host_block (GST_CL_BASE_TRANSFORM (self), buffer);

  GST_LOG_OBJECT (self, "%s: %" GST_PTR_FORMAT, block ?
      "our host memory, no host copy" : "other memory, copy path", buffer);
  return block;
}

/* Draws @spec's picture of @inbuf into @dest, which lies in @outbuf's
 * memory; GST_FLOW_ERROR after posting an element error. */
GstFlowReturn
gst_cl_scope_base_draw (GstClScopeBase *self, GstBuffer *inbuf,
    const ClhScopeSpec *spec, GstBuffer *outbuf, guint8 *dest,
    gsize dest_stride)
{
  GstClBaseTransform *base = GST_CL_BASE_TRANSFORM (self);
  const GstVideoInfo *info = gst_cl_base_transform_get_info (base);
  GstClFrameMap map;
  ClhFrame frame;
  GError *err = NULL;
  gboolean ok;

  if (!gst_cl_frame_map_read (&map, GST_ELEMENT (self), info,
          gst_cl_base_transform_get_format (base), inbuf, &frame)) {
    gst_cl_frame_map_clear (&map);
    return GST_FLOW_ERROR;
  }
  /* A GstVideoMeta larger than the caps is read from its top-left
   * corner. */
  frame.width = GST_VIDEO_INFO_WIDTH (info);
  frame.height = GST_VIDEO_INFO_HEIGHT (info);
  ok = clh_scope_draw (PRIV (self)->engine, &frame, spec, frame_block (self,
          inbuf), dest, dest_stride, NULL, &err);
  gst_cl_frame_map_clear (&map);
  return ok ? GST_FLOW_OK : gst_cl_base_transform_engine_error (base, err);
}

/* Blends @spec's picture of @buffer into @buffer itself at (@x, @y) with
 * opacity @alpha (0..255); GST_FLOW_ERROR after posting an element
 * error. */
GstFlowReturn
gst_cl_scope_base_overlay (GstClScopeBase *self, GstBuffer *buffer,
    const ClhScopeSpec *spec, guint x, guint y, guint alpha)
{
  GstClBaseTransform *base = GST_CL_BASE_TRANSFORM (self);
  const GstVideoInfo *info = gst_cl_base_transform_get_info (base);
  GstClFrameMap map;
  ClhFrame frame;
  GError *err = NULL;
  gboolean ok;

  if (!gst_cl_frame_map_write (&map, GST_ELEMENT (self), info,
          gst_cl_base_transform_get_format (base), buffer, &frame)) {
    gst_cl_frame_map_clear (&map);
    return GST_FLOW_ERROR;
  }
  frame.width = GST_VIDEO_INFO_WIDTH (info);
  frame.height = GST_VIDEO_INFO_HEIGHT (info);
  ok = clh_scope_overlay (PRIV (self)->engine, &frame, spec,
      frame_block (self, buffer), x, y, alpha, &err);
  gst_cl_frame_map_clear (&map);
  return ok ? GST_FLOW_OK : gst_cl_base_transform_engine_error (base, err);
}

static gboolean
gst_cl_scope_base_open (GstClBaseTransform *base, ClhContext *context,
    GError **error)
{
  GstClScopeBasePrivate *priv = PRIV (GST_CL_SCOPE_BASE (base));

  priv->engine = clh_scope_new (context, error);
  return priv->engine != NULL;
}

static void
gst_cl_scope_base_close (GstClBaseTransform *base)
{
  g_clear_pointer (&PRIV (GST_CL_SCOPE_BASE (base))->engine, clh_scope_free);
}

/* Kr and Kb of @info's matrix, in 1/10000: its own for YUV caps that name
 * one; else BT.709 for frames taller than 576 rows and BT.601 for the
 * others, as GStreamer's default colorimetry picks them. */
static void
matrix_of (const GstVideoInfo *info, guint *kr, guint *kb)
{
  GstVideoColorMatrix m = info->colorimetry.matrix;
  gdouble r, b;

  if (!GST_VIDEO_INFO_IS_YUV (info) || m == GST_VIDEO_COLOR_MATRIX_RGB
      || m == GST_VIDEO_COLOR_MATRIX_UNKNOWN
      || !gst_video_color_matrix_get_Kr_Kb (m, &r, &b))
    gst_video_color_matrix_get_Kr_Kb (GST_VIDEO_INFO_HEIGHT (info) > 576 ?
        GST_VIDEO_COLOR_MATRIX_BT709 : GST_VIDEO_COLOR_MATRIX_BT601, &r, &b);
  *kr = (guint) lround (r * 10000.0);
  *kb = (guint) lround (b * 10000.0);
}

static gboolean
gst_cl_scope_base_set_info (GstClBaseTransform *base, GstCaps *incaps,
    const GstVideoInfo *info, const ClhFrame *format, GstCaps *outcaps)
{
  GstClScopeBasePrivate *priv = PRIV (GST_CL_SCOPE_BASE (base));

  priv->source = source_of (info);
  priv->limited = info->colorimetry.range == GST_VIDEO_COLOR_RANGE_16_235;
  matrix_of (info, &priv->kr, &priv->kb);
  GST_DEBUG_OBJECT (base, "source %d, %s range, Kr %u, Kb %u",
      priv->source, priv->limited ? "limited" : "full", priv->kr, priv->kb);
  return TRUE;
}

static void
gst_cl_scope_base_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClScopeBasePrivate *priv = PRIV (GST_CL_SCOPE_BASE (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_SCOPES:
      priv->scopes = g_value_get_flags (value);
      break;
    case PROP_SCALE:
      priv->scale = g_value_get_enum (value);
      break;
    case PROP_GRATICULE:
      priv->graticule = g_value_get_enum (value);
      break;
    case PROP_INTENSITY:
      priv->intensity = g_value_get_double (value);
      break;
    case PROP_VECTORSCOPE_ZOOM:
      priv->vectorscope_zoom = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_scope_base_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClScopeBasePrivate *priv = PRIV (GST_CL_SCOPE_BASE (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_SCOPES:
      g_value_set_flags (value, priv->scopes);
      break;
    case PROP_SCALE:
      g_value_set_enum (value, priv->scale);
      break;
    case PROP_GRATICULE:
      g_value_set_enum (value, priv->graticule);
      break;
    case PROP_INTENSITY:
      g_value_set_double (value, priv->intensity);
      break;
    case PROP_VECTORSCOPE_ZOOM:
      g_value_set_uint (value, priv->vectorscope_zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cl_scope_base_class_init (GstClScopeBaseClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstClBaseTransformClass *base_class = GST_CL_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cl_scope_base_set_property;
  gobject_class->get_property = gst_cl_scope_base_get_property;
  g_object_class_install_property (gobject_class, PROP_SCOPES,
      g_param_spec_flags ("scopes", "Scopes", "The scopes drawn side by "
          "side, left to right in this order", GST_TYPE_CL_SCOPE_KINDS,
          DEFAULT_SCOPES, rw));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_enum ("scale", "Scale", "How a cell's count becomes its "
          "brightness (a histogram bin's, its bar's height)",
          GST_TYPE_CL_SCOPE_SCALE, DEFAULT_SCALE, rw));
  g_object_class_install_property (gobject_class, PROP_GRATICULE,
      g_param_spec_enum ("graticule", "Graticule", "The lines drawn under "
          "the traces", GST_TYPE_CL_SCOPE_GRATICULE, DEFAULT_GRATICULE, rw));
  g_object_class_install_property (gobject_class, PROP_INTENSITY,
      g_param_spec_double ("intensity", "Intensity", "Brightness of a "
          "waveform or vectorscope cell holding the average density of "
          "samples: a cell is at full brightness at 1/intensity times it",
          0.0001, 1.0, DEFAULT_INTENSITY, rw));
  /**
   * GstClScopeBase:vectorscope-zoom:
   *
   * The vectorscope's magnification about its centre: a colour
   * difference's offset from neutral is drawn that many times as far
   * out, so that the small trace of a real picture fills the square, in
   * bins as fine as the zoomed square shows. Samples that fall beyond the
   * square are not drawn (the trace is cut at its edge); the targets
   * beyond it are left out, and the magnification is written in the
   * square's bottom-right corner ("2x").
   */
  g_object_class_install_property (gobject_class, PROP_VECTORSCOPE_ZOOM,
      g_param_spec_uint ("vectorscope-zoom", "Vectorscope zoom",
          "Magnification of the vectorscope about its centre: colour "
          "differences drawn this many times as far out, those beyond the "
          "edge not drawn", 1, CLH_SCOPE_MAX_ZOOM, DEFAULT_VECTORSCOPE_ZOOM,
          rw));

  /* Upstream may allocate its frames in our pool; one frame is drawn at a
   * time: the base class's two buffers. */
  base_class->inputs = GST_CL_BASE_TRANSFORM_INPUT_HOST_POOL;
  base_class->doing = "drawing the scopes of";
  base_class->done = "drawn";
  base_class->open = GST_DEBUG_FUNCPTR (gst_cl_scope_base_open);
  base_class->close = GST_DEBUG_FUNCPTR (gst_cl_scope_base_close);
  base_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_scope_base_set_info);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_SCOPE_BASE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_SCOPE_KINDS, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_SCOPE_SCALE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_SCOPE_GRATICULE, 0);
}

static void
gst_cl_scope_base_init (GstClScopeBase *self)
{
  GstClScopeBasePrivate *priv = PRIV (self);

  priv->scopes = DEFAULT_SCOPES;
  priv->scale = DEFAULT_SCALE;
  priv->graticule = DEFAULT_GRATICULE;
  priv->intensity = DEFAULT_INTENSITY;
  priv->vectorscope_zoom = DEFAULT_VECTORSCOPE_ZOOM;
}
