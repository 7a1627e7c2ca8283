/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clbackproject
 * @title: clbackproject
 *
 * OpenCV's calcBackProject() on an OpenCL device: each pixel of the output
 * GRAY8 frame is the model histogram's value at the pixel's bin, times
 * #GstClBackproject:scale, rounded and saturated to 0..255 as
 * cv2.calcBackProject() does (ties to even; NaN and values of 2^31 and more
 * give 0). Pixels outside the mask of #GstClBackproject:min-saturation,
 * #GstClBackproject:min-value and #GstClBackproject:max-value get 0, as
 * OpenCV's CamShift sample applies `prob &= mask`. The result equals
 * cv2.calcBackProject() on OpenCV's 8-bit HSV (cv2.COLOR_BGR2HSV), RGB or
 * luma (cv2.COLOR_RGB2GRAY) image bit for bit; YUV frames are read in place
 * and converted with BT.601 as clhistogram's hue mode converts them.
 *
 * The model is a flat array of doubles laid out as clhistogram lays out
 * the same mode's counts: `bins` values for hue and luma, `bins * bins`
 * (hue-major) for hue-saturation, `bins^3` (R-major) for rgb. Bins split
 * the axis as cv2.calcHist() with ranges [0, 180] (hue) or [0, 256] does.
 * Every property but the device may change while playing. The properties
 * one g_object_set() sets (or those set between g_object_freeze_notify()
 * and g_object_thaw_notify()) take effect together, on the next frame: a
 * new mode, bins and model set at once are never seen one without the
 * others. Without a model every pixel is 0 (with a warning); a model of
 * the wrong length for the mode and bins a frame is counted with is an
 * error. Modes `channels` and `max` have no back-projection: either is an
 * error when a frame comes.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! \
 *     clbackproject mode=hue bins=4 model="<0.0, 255.0, 128.0, 0.0>" ! \
 *     videoconvert ! autovideosink
 * ]| shows where the picture's hue falls in the second and third quarters.
 */
#include "gstcltrackbackproject.h"

#include "base/gstclbasemode.h"

#include <math.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_backproject_debug);
#define GST_CAT_DEFAULT gst_cl_backproject_debug

#define DEFAULT_MODE GST_HISTOGRAM_MODE_HUE
#define DEFAULT_BINS 16
#define DEFAULT_SCALE 1.0
#define DEFAULT_MIN_SATURATION 0
#define DEFAULT_MIN_VALUE 0
#define DEFAULT_MAX_VALUE 255

enum {
  PROP_0,
  PROP_MODE,
  PROP_BINS,
  PROP_MODEL,
  PROP_SCALE,
  PROP_MIN_SATURATION,
  PROP_MIN_VALUE,
  PROP_MAX_VALUE,
};

/* The properties; the model as set (gdouble) and as OpenCV's float
 * histogram holds it, shared between copies. */
typedef struct {
  GstHistogramMode mode;
  guint bins;
  GArray *model;
  GArray *model_f;
  gdouble scale;
  guint min_saturation;
  guint min_value;
  guint max_value;
} GstClBackprojectSettings;

struct _GstClBackproject {
  GstClTrackerFilter parent;

  /* Under the object lock: the properties as set, which get_property
   * reads, and as applied, which frames read. GObject's set_property
   * stores one property at a time; dispatch_properties_changed copies
   * them whole once a g_object_set() has stored them all. */
  GstClBackprojectSettings set;
  GstClBackprojectSettings applied;

  /* Streaming thread. */
  GstVideoInfo out_info;
  gboolean warned_no_model;
};

#define SRC_CAPS GST_CL_BASE_TRANSFORM_CAPS_MAKE ("GRAY8")

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_TRACKER_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SRC_CAPS));

#define gst_cl_backproject_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstClBackproject, gst_cl_backproject,
    GST_TYPE_CL_TRACKER_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cl_backproject_debug, "clbackproject", 0,
        "OpenCL back-projection"));
GST_ELEMENT_REGISTER_DEFINE (clbackproject, "clbackproject", GST_RANK_NONE,
    GST_TYPE_CL_BACKPROJECT);

/* The other pad's caps: GRAY8 of the same size and rate from any colour
 * format, and back. The output is written in system memory whatever memory
 * the input is in; from the output's caps, the input may be in system
 * memory or (where the sink template offers it) in CUDA memory. */
static GstCaps *
gst_cl_backproject_transform_caps (GstBaseTransform *trans,
    GstPadDirection direction, GstCaps *caps, GstCaps *filter)
{
  GstCaps *other = gst_caps_new_empty (), *templ, *result;
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
    GstStructure *in_cuda;

    gst_structure_remove_fields (s, "format", "colorimetry", "chroma-site",
        NULL);
    in_cuda = direction == GST_PAD_SRC ? gst_structure_copy (s) : NULL;
    other = gst_caps_merge_structure (other, s);
    if (in_cuda)
      other = gst_caps_merge_structure_full (other, in_cuda,
          gst_caps_features_new (GST_CL_CAPS_FEATURE_MEMORY_CUDA, NULL));
  }
  templ = direction == GST_PAD_SINK ?
      gst_static_pad_template_get_caps (&src_template) :
      gst_static_pad_template_get_caps (&sink_template);
  result = gst_caps_intersect (other, templ);
  gst_caps_unref (other);
  gst_caps_unref (templ);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      result);
  return result;
}

/* An output buffer is one GRAY8 frame whatever the input buffer's size,
 * which may hold padded rows (GstVideoMeta) or spare bytes, or too few,
 * which the frame's mapping reports. */
static gboolean
gst_cl_backproject_transform_size (GstBaseTransform *trans,
    GstPadDirection direction, GstCaps *caps, gsize size, GstCaps *othercaps,
    gsize *othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

static gboolean
gst_cl_backproject_set_caps (GstBaseTransform *trans, GstCaps *incaps,
    GstCaps *outcaps)
{
  GstClBackproject *self = GST_CL_BACKPROJECT (trans);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->set_caps (trans, incaps,
      outcaps) && gst_video_info_from_caps (&self->out_info, outcaps);
}

/* The spec of this frame from the properties, with a reference to the
 * model (NULL: none set); FALSE after posting an error for a mode that
 * has no back-projection, a model of the wrong length or bins the mode
 * cannot have. */
static gboolean
frame_spec (GstClBackproject *self, ClhBackprojectSpec *spec, GArray **model)
{
  guint n_bins, n_values;
  GstHistogramMode mode;
  const gchar *nick;

  memset (spec, 0, sizeof (*spec));
  gst_cl_tracker_filter_init_spec (GST_CL_TRACKER_FILTER (self), spec);
  GST_OBJECT_LOCK (self);
  mode = self->applied.mode;
  spec->bins = self->applied.bins;
  spec->scale = self->applied.scale;
  spec->min_saturation = self->applied.min_saturation;
  spec->min_value = self->applied.min_value;
  spec->max_value = self->applied.max_value;
  *model = self->applied.model_f ? g_array_ref (self->applied.model_f) :
      NULL;
  GST_OBJECT_UNLOCK (self);

  nick = gst_histogram_mode_get_nick (mode);
  if (mode == GST_HISTOGRAM_MODE_CHANNELS || mode == GST_HISTOGRAM_MODE_MAX) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("mode=%s has no back-projection: set mode to hue, hue-saturation, "
            "rgb or luma.", nick), (NULL));
    g_clear_pointer (model, g_array_unref);
    return FALSE;
  }
  spec->count = gst_cl_histogram_mode_count (mode);
  n_bins = clh_backproject_spec_n_bins (spec);
  n_values = *model ? (*model)->len : n_bins;
  if ((mode == GST_HISTOGRAM_MODE_HUE && spec->bins > 180)
      || (mode == GST_HISTOGRAM_MODE_HUE_SATURATION && spec->bins > 180)
      || (mode == GST_HISTOGRAM_MODE_RGB && spec->bins > 40)) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("mode=%s cannot have %u bins: at most 180 for hue and "
            "hue-saturation, 40 for rgb.", nick, spec->bins), (NULL));
  } else if (n_values != n_bins) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("The model has %u values, but mode=%s with bins=%u needs %u: set "
            "bins to the model's, or give a model of that many values.",
            n_values, nick, spec->bins, n_bins), (NULL));
  } else {
    spec->model = *model ? (const gfloat *) (*model)->data : NULL;
    return TRUE;
  }
  g_clear_pointer (model, g_array_unref);
  return FALSE;
}

static GstFlowReturn
project (GstClBackproject *self, GstBuffer *inbuf, const ClhBackprojectSpec
    *spec, GstVideoFrame *out)
{
  GstClTrackerFilter *filter = GST_CL_TRACKER_FILTER (self);
  const ClhHostBlock *block;
  GstClFrameMap map;
  ClhFrame frame;
  GError *err = NULL;
  gboolean ok;

  if (!gst_cl_tracker_filter_map (filter, inbuf, &map, &frame, &block))
    return GST_FLOW_ERROR;
  ok = clh_tracker_backproject (gst_cl_tracker_filter_get_tracker (filter),
      &frame, block, spec, GST_VIDEO_FRAME_PLANE_DATA (out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (out, 0), &err);
  gst_cl_frame_map_clear (&map);
  return ok ? GST_FLOW_OK : gst_cl_base_transform_engine_error (
      GST_CL_BASE_TRANSFORM (filter), err);
}

/* A frame with no model set: all zero, and one warning saying why. */
static void
no_model (GstClBackproject *self, GstVideoFrame *out)
{
  gint y;

  for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (out); y++)
    memset ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out, 0)
        + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (out, 0), 0,
        GST_VIDEO_FRAME_WIDTH (out));
  if (!self->warned_no_model)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("No model is set: every pixel's probability is 0 until the model "
            "property is set."), (NULL));
  self->warned_no_model = TRUE;
}

static GstFlowReturn
gst_cl_backproject_transform (GstBaseTransform *trans, GstBuffer *inbuf,
    GstBuffer *outbuf)
{
  GstClBackproject *self = GST_CL_BACKPROJECT (trans);
  ClhBackprojectSpec spec;
  GstVideoFrame out;
  GArray *model;
  GstFlowReturn ret;

  if (!frame_spec (self, &spec, &model))
    return GST_FLOW_ERROR;
  if (!gst_video_frame_map (&out, &self->out_info, outbuf, GST_MAP_WRITE)) {
    g_clear_pointer (&model, g_array_unref);
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not map the output frame for writing."), (NULL));
    return GST_FLOW_ERROR;
  }
  if (model) {
    ret = project (self, inbuf, &spec, &out);
    g_array_unref (model);
  } else {
    no_model (self, &out);
    ret = GST_FLOW_OK;
  }
  gst_video_frame_unmap (&out);
  return ret;
}

/* A GstValueArray of numbers as the model, in doubles and in floats;
 * NULL for an empty array. */
static void
set_model (GstClBackproject *self, const GValue *value)
{
  const guint n = gst_value_array_get_size (value);
  GArray *model = NULL, *model_f = NULL;
  guint i;

  if (n > 0) {
    model = g_array_sized_new (FALSE, FALSE, sizeof (gdouble), n);
    model_f = g_array_sized_new (FALSE, FALSE, sizeof (gfloat), n);
  }
  for (i = 0; i < n; i++) {
    const GValue *v = gst_value_array_get_value (value, i);
    GValue d = G_VALUE_INIT;
    gdouble x = 0;
    gfloat f;

    g_value_init (&d, G_TYPE_DOUBLE);
    if (g_value_transform (v, &d))
      x = g_value_get_double (&d);
    else
      GST_WARNING_OBJECT (self, "model value %u is a %s, not a number: 0",
          i, G_VALUE_TYPE_NAME (v));
    g_value_unset (&d);
    f = (gfloat) x;
    g_array_append_val (model, x);
    g_array_append_val (model_f, f);
  }
  GST_OBJECT_LOCK (self);
  g_clear_pointer (&self->set.model, g_array_unref);
  g_clear_pointer (&self->set.model_f, g_array_unref);
  self->set.model = model;
  self->set.model_f = model_f;
  GST_OBJECT_UNLOCK (self);
}

static void
get_model (GstClBackproject *self, GValue *value)
{
  GValue v = G_VALUE_INIT;
  guint i;

  g_value_init (&v, G_TYPE_DOUBLE);
  for (i = 0; self->set.model && i < self->set.model->len; i++) {
    g_value_set_double (&v, g_array_index (self->set.model, gdouble, i));
    gst_value_array_append_value (value, &v);
  }
  g_value_unset (&v);
}

static void
gst_cl_backproject_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClBackproject *self = GST_CL_BACKPROJECT (object);

  if (prop_id == PROP_MODEL) {
    set_model (self, value);
    return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->set.mode = g_value_get_enum (value);
      break;
    case PROP_BINS:
      self->set.bins = g_value_get_uint (value);
      break;
    case PROP_SCALE:
      self->set.scale = g_value_get_double (value);
      break;
    case PROP_MIN_SATURATION:
      self->set.min_saturation = g_value_get_uint (value);
      break;
    case PROP_MIN_VALUE:
      self->set.min_value = g_value_get_uint (value);
      break;
    case PROP_MAX_VALUE:
      self->set.max_value = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_backproject_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClBackproject *self = GST_CL_BACKPROJECT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->set.mode);
      break;
    case PROP_BINS:
      g_value_set_uint (value, self->set.bins);
      break;
    case PROP_MODEL:
      get_model (self, value);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->set.scale);
      break;
    case PROP_MIN_SATURATION:
      g_value_set_uint (value, self->set.min_saturation);
      break;
    case PROP_MIN_VALUE:
      g_value_set_uint (value, self->set.min_value);
      break;
    case PROP_MAX_VALUE:
      g_value_set_uint (value, self->set.max_value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Replaces @dst by @src, sharing its model. */
static void
settings_copy (GstClBackprojectSettings *dst,
    const GstClBackprojectSettings *src)
{
  if (src->model)
    g_array_ref (src->model);
  if (src->model_f)
    g_array_ref (src->model_f);
  g_clear_pointer (&dst->model, g_array_unref);
  g_clear_pointer (&dst->model_f, g_array_unref);
  *dst = *src;
}

/* GObject calls this once the properties of a g_object_set() (or of the
 * outermost g_object_freeze_notify() ... g_object_thaw_notify()) are all
 * stored: they apply here together, so that no frame sees a new bins with
 * the old model. */
static void
gst_cl_backproject_dispatch_properties_changed (GObject *object,
    guint n_pspecs, GParamSpec **pspecs)
{
  GstClBackproject *self = GST_CL_BACKPROJECT (object);

  GST_OBJECT_LOCK (self);
  settings_copy (&self->applied, &self->set);
  GST_OBJECT_UNLOCK (self);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

static void
gst_cl_backproject_finalize (GObject *object)
{
  GstClBackproject *self = GST_CL_BACKPROJECT (object);

  g_clear_pointer (&self->set.model, g_array_unref);
  g_clear_pointer (&self->set.model_f, g_array_unref);
  g_clear_pointer (&self->applied.model, g_array_unref);
  g_clear_pointer (&self->applied.model_f, g_array_unref);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_backproject_class_init (GstClBackprojectClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_cl_backproject_set_property;
  gobject_class->get_property = gst_cl_backproject_get_property;
  gobject_class->dispatch_properties_changed =
      gst_cl_backproject_dispatch_properties_changed;
  gobject_class->finalize = gst_cl_backproject_finalize;

  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode", "Colour space of the model: hue, "
          "hue-saturation, rgb or luma, as clhistogram counts them",
          GST_TYPE_HISTOGRAM_MODE, DEFAULT_MODE, rw));
  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins", "Bins along each axis of the model "
          "(at most 180 for hue and hue-saturation, 40 for rgb)", 1, 256,
          DEFAULT_BINS, rw));
  g_object_class_install_property (gobject_class, PROP_MODEL,
      /* No element spec: its validation would replace integers by 0
       * before set_property could convert them. */
      gst_param_spec_array ("model", "Model", "The model histogram (numbers, "
          "read as gdouble), flattened as clhistogram flattens the mode's "
          "counts", NULL, rw));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale", "Factor of the model's values "
          "(cv2.calcBackProject's scale)", -G_MAXDOUBLE, G_MAXDOUBLE,
          DEFAULT_SCALE, rw));
  g_object_class_install_property (gobject_class, PROP_MIN_SATURATION,
      g_param_spec_uint ("min-saturation", "Minimum saturation",
          "Pixels of lower HSV saturation get 0", 0, 255,
          DEFAULT_MIN_SATURATION, rw));
  g_object_class_install_property (gobject_class, PROP_MIN_VALUE,
      g_param_spec_uint ("min-value", "Minimum value",
          "Pixels of lower HSV value get 0", 0, 255, DEFAULT_MIN_VALUE, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_VALUE,
      g_param_spec_uint ("max-value", "Maximum value",
          "Pixels of higher HSV value get 0", 0, 255, DEFAULT_MAX_VALUE, rw));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "OpenCL back-projection", "Filter/Analyzer/Video",
      "Each pixel's probability under a model histogram, as OpenCV's "
      "calcBackProject, on an OpenCL device", "clhistogram developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_backproject_transform_caps);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cl_backproject_transform_size);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_backproject_set_caps);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_backproject_transform);
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (GST_TYPE_HISTOGRAM_MODE, 0);
}

static void
gst_cl_backproject_init (GstClBackproject *self)
{
  self->set.mode = DEFAULT_MODE;
  self->set.bins = DEFAULT_BINS;
  self->set.scale = DEFAULT_SCALE;
  self->set.min_saturation = DEFAULT_MIN_SATURATION;
  self->set.min_value = DEFAULT_MIN_VALUE;
  self->set.max_value = DEFAULT_MAX_VALUE;
  self->applied = self->set;
}
