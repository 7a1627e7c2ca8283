/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clexposuremonitor
 * @title: clexposuremonitor
 *
 * A camera operator's monitor in one element: the frame with its exposure
 * marks (`clexposuremarks`: zebra stripes by default), its zones coloured
 * by their state and its histogram panel (`histogramoverlay`), and the
 * scopes (`clscope`: a waveform and a vectorscope by default) under it,
 * laid out from the input's size: the scopes as wide as the frame and as
 * high as their natural shapes make them at that width (no higher than
 * the frame). The frame is counted once, by `clhistogram`, whose
 * `histogram` and `exposure` messages reach the bus as they would from
 * the element alone.
 *
 * It is a bin of `videoconvert`, `clhistogram` (named `count`), `tee`,
 * `clexposuremarks` (`marks`), `histogramoverlay` (`overlay`), `clscope`
 * (`scope`) and `compositor` (`compose`), so every property of those is
 * reachable as CHILD::PROPERTY, e.g. `count::alert-clipped=2` or
 * `scope::scale=log`; #GstClExposureMonitor:scopes,
 * #GstClExposureMonitor:marks and #GstClExposureMonitor:zones are the
 * ones an operator changes most. The zones are coloured at the alerts'
 * thresholds: setting `count::alert-clipped` or `count::alert-crushed`
 * sets the overlay's `zone-clipped` or `zone-crushed` to the same
 * percentage (set the overlay's after it to differ). Any raw video in
 * system memory goes in;
 * the picture comes out in a format `compositor` and downstream agree on.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m filesrc location=vtest.avi ! decodebin ! \
 *     clexposuremonitor ! videoconvert ! autovideosink
 * ]| the monitor of a file, with the `histogram` and `exposure` messages
 * printed.
 * |[
 * gst-launch-1.0 v4l2src ! clexposuremonitor zones=5x5 \
 *     scopes=waveform+vectorscope+histogram marks=zebra+false-colour \
 *     count::alert-clipped=2 ! videoconvert ! autovideosink
 * ]| a camera's, with false colour, three scopes and an alert when more
 * than 2% of the frame clips.
 */
#include "gstclexposuremonitor.h"
#include "gstclexposuremonitorlayout.h"

#include <gst/video/video.h>

#include "clh-scope-picture.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_exposure_monitor_debug);
#define GST_CAT_DEFAULT gst_cl_exposure_monitor_debug

#define DEFAULT_ZONES "3x3"
#define DEFAULT_SCOPES_HEIGHT 0

enum {
  PROP_0,
  PROP_ZONES,
  PROP_SCOPES_HEIGHT,
  PROP_SCOPES,
  PROP_MARKS,
};

struct _GstClExposureMonitor {
  GstBin parent;

  /* The children, made once; NULL where an element is not installed
   * (@missing names the first). */
  GstElement *count;
  GstElement *marks;
  GstElement *overlay;
  GstElement *scope;
  GstElement *scope_caps;
  GstElement *compose;
  GstPad *compose_scopes;
  const gchar *missing;

  /* Guards the layout: its property, set by the application's thread,
   * and what it is applied with, by the streaming thread too. */
  GMutex lock;
  guint scopes_height;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-raw"));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-raw"));

#define gst_cl_exposure_monitor_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstClExposureMonitor, gst_cl_exposure_monitor,
    GST_TYPE_BIN, GST_DEBUG_CATEGORY_INIT (gst_cl_exposure_monitor_debug,
        "clexposuremonitor", 0, "OpenCL exposure monitor"));
GST_ELEMENT_REGISTER_DEFINE (clexposuremonitor, "clexposuremonitor",
    GST_RANK_NONE, GST_TYPE_CL_EXPOSURE_MONITOR);

/* ------------------------------------------------------------------ */
/* Layout */

/* What clscope makes of the frame's components. */
static ClhScopeSource
scope_source (const GstVideoInfo *info)
{
  if (GST_VIDEO_INFO_IS_GRAY (info))
    return CLH_SCOPE_SOURCE_GRAY;
  return GST_VIDEO_INFO_IS_RGB (info) ? CLH_SCOPE_SOURCE_RGB :
      CLH_SCOPE_SOURCE_YUV;
}

/* Sizes the scopes and places them for frames of @info; FALSE, with an
 * element error, if the frame is too small for them. Called with the
 * lock held. */
static gboolean
apply_layout (GstClExposureMonitor *self, const GstVideoInfo *info)
{
  GstClExposureMonitorLayout layout;
  guint kinds = 0;
  GstCaps *caps;

  g_object_get (self->scope, "scopes", &kinds, NULL);
  if (!gst_cl_exposure_monitor_layout (GST_VIDEO_INFO_WIDTH (info),
          GST_VIDEO_INFO_HEIGHT (info),
          clh_scope_shares (kinds, scope_source (info)),
          self->scopes_height, &layout)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The frame is too small for the monitor's scopes."),
        ("The frame is %dx%d; the scopes under it need a frame at least %d "
            "pixels wide: scale it up (videoscale) or use clhistogram and "
            "histogramoverlay alone.", GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info),
            GST_CL_EXPOSURE_MONITOR_MIN_SCOPES));
    return FALSE;
  }
  GST_INFO_OBJECT (self, "frame %ux%u, scopes %ux%u at (%u, %u), "
      "picture %ux%u", layout.frame.width, layout.frame.height,
      layout.scopes.width, layout.scopes.height, layout.scopes.x,
      layout.scopes.y, layout.width, layout.height);
  caps = gst_caps_new_simple ("video/x-raw", "width", G_TYPE_INT,
      (gint) layout.scopes.width, "height", G_TYPE_INT,
      (gint) layout.scopes.height, NULL);
  g_object_set (self->scope_caps, "caps", caps, NULL);
  gst_caps_unref (caps);
  g_object_set (self->compose_scopes, "xpos", (gint) layout.scopes.x,
      "ypos", (gint) layout.scopes.y, "width", (gint) layout.scopes.width,
      "height", (gint) layout.scopes.height, NULL);
  return TRUE;
}

/* The frame's caps, as clhistogram is about to take them: the layout
 * follows them before they reach clscope and the compositor. */
static GstPadProbeReturn
caps_probe (GstPad *pad, GstPadProbeInfo *probe, gpointer user_data)
{
  GstClExposureMonitor *self = user_data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (probe);
  GstCaps *caps;
  GstVideoInfo info;
  gboolean ok;

  if (GST_EVENT_TYPE (event) != GST_EVENT_CAPS)
    return GST_PAD_PROBE_OK;
  gst_event_parse_caps (event, &caps);
  if (!gst_video_info_from_caps (&info, caps))
    return GST_PAD_PROBE_OK;    /* clhistogram refuses them itself */
  g_mutex_lock (&self->lock);
  ok = apply_layout (self, &info);
  g_mutex_unlock (&self->lock);
  return ok ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP;
}

/* The layout again for the stream's frames, if caps have come, after a
 * property it follows changed. Called with the lock held. */
static void
reapply_layout (GstClExposureMonitor *self)
{
  GstPad *pad = gst_element_get_static_pad (self->count, "sink");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstVideoInfo info;

  if (caps && gst_video_info_from_caps (&info, caps))
    apply_layout (self, &info);
  if (caps)
    gst_caps_unref (caps);
  gst_object_unref (pad);
}

/* ------------------------------------------------------------------ */
/* Children */

static GstElement *
make_child (GstClExposureMonitor *self, const gchar *factory,
    const gchar *name)
{
  GstElement *e = gst_element_factory_make (factory, name);

  if (!e) {
    if (!self->missing)
      self->missing = factory;
    return NULL;
  }
  gst_bin_add (GST_BIN (self), e);
  return e;
}

static void
add_ghost (GstClExposureMonitor *self, GstElement *child,
    const gchar *child_pad, GstStaticPadTemplate *templ)
{
  GstPad *target = child ? gst_element_get_static_pad (child, child_pad) :
      NULL;
  GstPad *ghost = gst_ghost_pad_new_no_target_from_template
      (templ->name_template, gst_static_pad_template_get (templ));

  if (target) {
    gst_ghost_pad_set_target (GST_GHOST_PAD (ghost), target);
    gst_object_unref (target);
  }
  gst_element_add_pad (GST_ELEMENT (self), ghost);
}

/* The zones coloured at the alerts' thresholds: when clhistogram's
 * alert-clipped or alert-crushed is set (above 0), histogramoverlay's
 * zone-clipped or zone-crushed takes its value, so that a red zone is one
 * the alert names. */
static void
follow_alert (GObject *count, GParamSpec *pspec, gpointer user_data)
{
  GstClExposureMonitor *self = user_data;
  const gboolean clipped = g_str_equal (pspec->name, "alert-clipped");
  gdouble percent = 0;

  g_object_get (count, pspec->name, &percent, NULL);
  if (percent > 0)
    g_object_set (self->overlay, clipped ? "zone-clipped" : "zone-crushed",
        percent, NULL);
}

/* Links @src to a new request pad of the compositor; returns the pad. */
static GstPad *
link_compose (GstClExposureMonitor *self, GstElement *src)
{
  GstPad *srcpad = gst_element_get_static_pad (src, "src");
  GstPad *sinkpad = gst_element_request_pad_simple (self->compose,
      "sink_%u");

  gst_pad_link (srcpad, sinkpad);
  gst_object_unref (srcpad);
  gst_object_unref (sinkpad);   /* the compositor keeps it */
  return sinkpad;
}

static void
build (GstClExposureMonitor *self)
{
  GstElement *convert = make_child (self, "videoconvert", "convert");
  GstElement *tee = make_child (self, "tee", "tee");
  GstElement *frame_queue = make_child (self, "queue", "frame-queue");
  GstElement *scope_queue = make_child (self, "queue", "scope-queue");
  GstPad *pad;

  self->count = make_child (self, "clhistogram", "count");
  self->marks = make_child (self, "clexposuremarks", "marks");
  self->overlay = make_child (self, "histogramoverlay", "overlay");
  self->scope = make_child (self, "clscope", "scope");
  self->scope_caps = make_child (self, "capsfilter", "scope-caps");
  self->compose = make_child (self, "compositor", "compose");
  add_ghost (self, convert, "sink", &sink_template);
  add_ghost (self, self->compose, "src", &src_template);
  /* Before any other is found missing: the zones property reads these. */
  if (self->count)
    g_object_set (self->count, "zones", DEFAULT_ZONES, "message-counts",
        FALSE, NULL);
  if (self->missing)
    return;

  g_object_set (self->overlay, "zones", TRUE, NULL);
  g_signal_connect (self->count, "notify::alert-clipped",
      G_CALLBACK (follow_alert), self);
  g_signal_connect (self->count, "notify::alert-crushed",
      G_CALLBACK (follow_alert), self);
  /* Where the scopes are narrower than the frame (frames wider than
   * clscope's 8192), black rather than compositor's checkerboard. */
  gst_util_set_object_arg (G_OBJECT (self->compose), "background", "black");
  gst_element_link_many (convert, self->count, tee, frame_queue,
      self->marks, self->overlay, NULL);
  gst_element_link_many (tee, scope_queue, self->scope, self->scope_caps,
      NULL);
  link_compose (self, self->overlay);
  self->compose_scopes = link_compose (self, self->scope_caps);

  pad = gst_element_get_static_pad (self->count, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, caps_probe,
      self, NULL);
  gst_object_unref (pad);
}

/* ------------------------------------------------------------------ */
/* Properties */

/* A copy of a child's property, to be set on the child through this
 * element; NULL if the child's element is not there. */
static GParamSpec *
child_pspec (const gchar *type_name, const gchar *name, const gchar *blurb)
{
  GType type = g_type_from_name (type_name);
  GObjectClass *klass;
  GParamSpec *p, *copy = NULL;

  if (!type)
    return NULL;
  klass = g_type_class_ref (type);
  p = g_object_class_find_property (klass, name);
  if (p && G_IS_PARAM_SPEC_FLAGS (p))
    copy = g_param_spec_flags (name, g_param_spec_get_nick (p), blurb,
        p->value_type, G_PARAM_SPEC_FLAGS (p)->default_value,
        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
        GST_PARAM_MUTABLE_PLAYING);
  g_type_class_unref (klass);
  return copy;
}

static void
gst_cl_exposure_monitor_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClExposureMonitor *self = GST_CL_EXPOSURE_MONITOR (object);

  if (self->missing)
    return;                     /* said when it starts */
  g_mutex_lock (&self->lock);
  switch (prop_id) {
    case PROP_ZONES:{
      const gchar *zones = g_value_get_string (value);

      g_object_set (self->count, "zones", zones ? zones : "", NULL);
      g_object_set (self->overlay, "zones", zones && zones[0] != '\0', NULL);
      break;
    }
    case PROP_SCOPES_HEIGHT:
      self->scopes_height = g_value_get_uint (value);
      reapply_layout (self);
      break;
    case PROP_SCOPES:
      g_object_set_property (G_OBJECT (self->scope), "scopes", value);
      reapply_layout (self);
      break;
    case PROP_MARKS:
      g_object_set_property (G_OBJECT (self->marks), "marks", value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  g_mutex_unlock (&self->lock);
}

static void
gst_cl_exposure_monitor_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstClExposureMonitor *self = GST_CL_EXPOSURE_MONITOR (object);

  g_mutex_lock (&self->lock);
  switch (prop_id) {
    case PROP_ZONES:
      if (self->count)
        g_object_get_property (G_OBJECT (self->count), "zones", value);
      else
        g_value_set_string (value, DEFAULT_ZONES);
      break;
    case PROP_SCOPES_HEIGHT:
      g_value_set_uint (value, self->scopes_height);
      break;
    case PROP_SCOPES:
      if (self->scope)
        g_object_get_property (G_OBJECT (self->scope), "scopes", value);
      break;
    case PROP_MARKS:
      if (self->marks)
        g_object_get_property (G_OBJECT (self->marks), "marks", value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  g_mutex_unlock (&self->lock);
}

/* ------------------------------------------------------------------ */
/* Life */

static GstStateChangeReturn
gst_cl_exposure_monitor_change_state (GstElement *element,
    GstStateChange transition)
{
  GstClExposureMonitor *self = GST_CL_EXPOSURE_MONITOR (element);

  if (transition == GST_STATE_CHANGE_NULL_TO_READY && self->missing) {
    GST_ELEMENT_ERROR (self, CORE, MISSING_PLUGIN,
        ("The element %s is not installed; the monitor is made of it.",
            self->missing),
        ("Install GStreamer's base plugins (Debian: gstreamer1.0-plugins-base"
            ") and this plugin whole; gst-inspect-1.0 %s says whether it is "
            "there.", self->missing));
    return GST_STATE_CHANGE_FAILURE;
  }
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

static void
gst_cl_exposure_monitor_finalize (GObject *object)
{
  GstClExposureMonitor *self = GST_CL_EXPOSURE_MONITOR (object);

  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_exposure_monitor_class_init (GstClExposureMonitorClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GParamSpec *p;

  gobject_class->set_property = gst_cl_exposure_monitor_set_property;
  gobject_class->get_property = gst_cl_exposure_monitor_get_property;
  gobject_class->finalize = gst_cl_exposure_monitor_finalize;
  element_class->change_state = gst_cl_exposure_monitor_change_state;

  g_object_class_install_property (gobject_class, PROP_ZONES,
      g_param_spec_string ("zones", "Zones",
          "The grid of CxR zones counted, coloured by their state and "
          "named in the messages (clhistogram's zones, e.g. \"5x5\"; \"\": "
          "none)", DEFAULT_ZONES, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
          | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_SCOPES_HEIGHT,
      g_param_spec_uint ("scopes-height", "Scopes height",
          "Height of the scopes under the frame, rows (0: their natural "
          "height at the frame's width, at most the frame's; 16 to 4096)",
          0, GST_CL_EXPOSURE_MONITOR_MAX_SCOPES_HEIGHT, DEFAULT_SCOPES_HEIGHT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  /* clscope's and clexposuremarks' own flags, registered with their
   * classes, which the plugin registers first. */
  p = child_pspec ("GstClScope", "scopes",
      "The scopes under the frame, left to right (clscope's scopes)");
  if (p)
    g_object_class_install_property (gobject_class, PROP_SCOPES, p);
  p = child_pspec ("GstClExposureMarks", "marks",
      "The marks over the frame (clexposuremarks' marks)");
  if (p)
    g_object_class_install_property (gobject_class, PROP_MARKS, p);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "OpenCL exposure monitor", "Filter/Analyzer/Video",
      "The frame with its exposure marks, zones and histogram, and its "
      "scopes under it, counted and drawn with OpenCL",
      "clhistogram developers");
}

static void
gst_cl_exposure_monitor_init (GstClExposureMonitor *self)
{
  g_mutex_init (&self->lock);
  self->scopes_height = DEFAULT_SCOPES_HEIGHT;
  build (self);
}
