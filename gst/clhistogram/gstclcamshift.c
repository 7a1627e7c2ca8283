/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clcamshift
 * @title: clcamshift
 *
 * Tracks windows through the video with OpenCV's CamShift, on an OpenCL
 * device: every frame's HSV and mask, its hue back-projection through each
 * track's model, the mean-shift iterations on the window's moments and the
 * moments of the rotated box all run there, in one back-projection and one
 * CamShift launch a frame whatever the number of tracks; the host turns
 * six moments a track into the box and the next window as cv2.CamShift()
 * does. The frame passes unchanged.
 *
 * A track starts from #GstClCamShift:window (id 0), or, while that is
 * unset, from each #GstVideoRegionOfInterestMeta whose type is
 * #GstClCamShift:track-type, with the meta's id; a later such meta of the
 * same id starts the track again. Its model is the hue histogram of its
 * first window on that frame, of the pixels inside the mask
 * (#GstClCamShift:min-saturation, #GstClCamShift:min-value,
 * #GstClCamShift:max-value), normalised to 0..255 as OpenCV's CamShift
 * sample does (cv2.normalize, NORM_MINMAX); that frame is tracked too.
 * Changing the bins or the mask while playing makes every track's model
 * again from its window on the next frame. The properties one
 * g_object_set() sets (or those set between g_object_freeze_notify() and
 * g_object_thaw_notify()) take effect together: a new window and new bins
 * start track 0 on the same frame. A track whose window has no
 * pixels left is lost: it is reported, with an empty box, and no longer
 * searched (as OpenCV's sample stops calling CamShift).
 *
 * Every frame gets one #GstVideoRegionOfInterestMeta per track, of type
 * `camshift`, whose rectangle is the search window cv2.CamShift() returns
 * (the next frame's) and whose `camshift` parameter structure holds the
 * rotated box; with #GstClCamShift:post-messages, a `camshift` element
 * message per track has:
 *
 * * #guint64 `timestamp`, `stream-time`, `running-time`, `duration`: the
 *   frame's (ns, or %GST_CLOCK_TIME_NONE)
 * * #guint `id`: the track's
 * * #GstValueArray of #gint `window`: `<x, y, width, height>`, the search
 *   window (pixels)
 * * #gdouble `center-x`, `center-y`, `width`, `height`: the rotated box
 *   (pixels), `angle`: its angle (degrees), as OpenCV's RotatedRect
 * * #gboolean `lost`: the track's window has no pixels
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m videotestsrc pattern=ball foreground-color=0xffff8000 \
 *     num-buffers=60 ! video/x-raw,format=BGRx,width=320,height=240 ! \
 *     clcamshift window="<140, 100, 40, 40>" ! fakesink
 * ]| prints where the orange ball goes, frame by frame.
 *
 * ## Analytics metadata (GStreamer 1.24 and later)
 *
 * Built against GStreamer's analytics library (gst-plugins-bad's
 * `gstreamer-analytics-1.0`, GStreamer 1.24 or later; Debian 13 has it,
 * Debian 12's GStreamer 1.22 does not), the element also reads and writes
 * the detections and tracks of a frame's #GstAnalyticsRelationMeta (the
 * buffer's own, or a new one). Built without it, there is no
 * #GstClCamShift:track-label and no analytics metadata; everything else
 * is the same.
 *
 * Every frame gets, per track, a #GstAnalyticsTrackingMtd whose tracking id
 * is the track's id, first seen the running time of the track's first
 * frame, last seen that of the last frame the track was found on, and
 * lost set once it is lost; and, while the track is not lost, a
 * #GstAnalyticsODMtd of label `camshift` holding the rotated box, with a
 * location confidence of 1, that relates to the tracking mtd
 * (%GST_ANALYTICS_REL_TYPE_RELATE_TO, from the box to the track, as
 * GStreamer's own trackers relate them). With GStreamer 1.26 the box is
 * oriented (gst_analytics_od_mtd_get_oriented_location(): the rectangle of
 * the box's width and height around its centre, turned clockwise by the
 * angle in radians, which is OpenCV's angle); before, it is the rectangle
 * of whole pixels around the rotated box. `objectdetectionoverlay` draws
 * them.
 *
 * With #GstClCamShift:track-label set, while #GstClCamShift:window is
 * unset, each #GstAnalyticsODMtd of that label starts a track too, at the
 * rectangle gst_analytics_od_mtd_get_location() gives (the one around an
 * oriented box), after the frame's ROI metas; its id is the tracking id
 * of the #GstAnalyticsTrackingMtd it relates to
 * (%GST_ANALYTICS_REL_TYPE_RELATE_TO, either way round) or, if none, the
 * box's own mtd id, in the same id space as the ROI metas' ids. A box
 * whose tracking id is above %G_MAXUINT starts no track.
 */
#include "gstclcamshift.h"
#include "gstclhistogramregions.h"
#ifdef HAVE_GST_ANALYTICS
#include "gstclanalytics.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cl_camshift_debug);
#define GST_CAT_DEFAULT gst_cl_camshift_debug

#define MAX_BINS 180
#define DEFAULT_TRACK_TYPE "track"
#define DEFAULT_BINS 16
#define DEFAULT_MIN_SATURATION 60
#define DEFAULT_MIN_VALUE 32
#define DEFAULT_MAX_VALUE 255
#define DEFAULT_MAX_ITERATIONS 10
#define DEFAULT_EPSILON 1.0
#define DEFAULT_POST_MESSAGES TRUE

enum {
  PROP_0,
  PROP_WINDOW,
  PROP_TRACK_TYPE,
  PROP_BINS,
  PROP_MIN_SATURATION,
  PROP_MIN_VALUE,
  PROP_MAX_VALUE,
  PROP_MAX_ITERATIONS,
  PROP_EPSILON,
  PROP_POST_MESSAGES,
  PROP_TRACK_LABEL,
};

/* What the properties ask of a frame; window_serial and model_serial
 * change with the window, and with what a model is counted with. */
typedef struct {
  gboolean window_set;
  ClhRect window;
  GQuark track_type;
  guint bins;
  guint min_saturation;
  guint min_value;
  guint max_value;
  ClhCamShiftCriteria criteria;
  gboolean post_messages;
  guint window_serial;
  guint model_serial;
  /* The GstAnalyticsODMtd label that starts tracks; 0: none. */
  GQuark track_label;
} GstClCamShiftSettings;

typedef struct {
  guint id;
  /* The next frame's search window, and this frame's box. */
  ClhRect window;
  ClhRotatedBox box;
  gboolean lost;
  gfloat model[MAX_BINS];
  /* Running times of its first frame and of the last one it was found
   * on, for its analytics metadata; GST_CLOCK_TIME_NONE until known. */
  GstClockTime first_seen;
  GstClockTime last_seen;
} GstClCamShiftTrack;

struct _GstClCamShift {
  GstClTrackerFilter parent;

  /* Under the object lock: the properties as set, which get_property
   * reads, and as applied, which frames read. GObject's set_property
   * stores one property at a time; dispatch_properties_changed copies
   * them whole once a g_object_set() has stored them all. */
  GstClCamShiftSettings settings;
  GstClCamShiftSettings applied;

  /* Streaming thread: the tracks (GstClCamShiftTrack) and the serials
   * their windows and models were made with. */
  GArray *tracks;
  guint window_serial;
  guint model_serial;
  gboolean warned_too_many;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_TRACKER_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_TRACKER_CAPS));

#define gst_cl_camshift_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstClCamShift, gst_cl_camshift,
    GST_TYPE_CL_TRACKER_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cl_camshift_debug, "clcamshift", 0,
        "OpenCL CamShift"));
GST_ELEMENT_REGISTER_DEFINE (clcamshift, "clcamshift", GST_RANK_NONE,
    GST_TYPE_CL_CAMSHIFT);

/* Windows are read within [-WINDOW_BOUND, WINDOW_BOUND] each way, so that
 * no sum of a corner and a size can overflow an int on the device. */
#define WINDOW_BOUND (1 << 16)

/* The interval [@start, @start + @size) cut to the bound; its part in any
 * frame (at most 16384 pixels) is the same, and one wholly outside the
 * bound stays a pixel wide outside it. */
static void
bound_interval (gint64 start, gint64 size, gint *out_start, gint *out_size)
{
  const gint64 a = CLAMP (start, -WINDOW_BOUND, WINDOW_BOUND);
  const gint64 b = CLAMP (start + size, -WINDOW_BOUND, WINDOW_BOUND);

  *out_start = (gint) a;
  *out_size = (gint) MAX (b - a, 1);
  if (b - a < 1 && a == -WINDOW_BOUND)
    *out_start = -WINDOW_BOUND - 1;
}

/* A window from a property or an upstream meta: untrusted numbers. */
static ClhRect
bounded_window (gint64 x, gint64 y, gint64 width, gint64 height)
{
  ClhRect r;

  bound_interval (x, width, &r.x, &r.width);
  bound_interval (y, height, &r.y, &r.height);
  /* A side of no pixels stays so: the track is lost from its start. */
  if (width < 1)
    r.width = 0;
  if (height < 1)
    r.height = 0;
  return r;
}

/* The track of @id, or a new one at the end; NULL past CLH_MAX_TRACKS. */
static GstClCamShiftTrack *
track_for_id (GstClCamShift *self, guint id)
{
  GstClCamShiftTrack track = { 0 };
  guint i;

  for (i = 0; i < self->tracks->len; i++)
    if (g_array_index (self->tracks, GstClCamShiftTrack, i).id == id)
      return &g_array_index (self->tracks, GstClCamShiftTrack, i);
  if (self->tracks->len >= CLH_MAX_TRACKS) {
    if (!self->warned_too_many)
      GST_ELEMENT_WARNING (self, STREAM, FAILED,
          ("More than %u tracks: the ones after are not tracked.",
              CLH_MAX_TRACKS), ("track %u left out", id));
    self->warned_too_many = TRUE;
    return NULL;
  }
  track.id = id;
  track.first_seen = track.last_seen = GST_CLOCK_TIME_NONE;
  g_array_append_val (self->tracks, track);
  return &g_array_index (self->tracks, GstClCamShiftTrack,
      self->tracks->len - 1);
}

#ifdef HAVE_GST_ANALYTICS
/* Starts a track at each GstAnalyticsODMtd box of @label (see
 * gst_cl_analytics_boxes() for its id), as a ROI meta of track-type. */
static void
start_analytics_tracks (GstClCamShift *self, GstBuffer *buffer, GQuark label,
    gboolean *fresh)
{
  GArray *boxes = label ? gst_cl_analytics_boxes (buffer, label) : NULL;
  GstClCamShiftTrack *t;
  guint i;

  for (i = 0; boxes && i < boxes->len; i++) {
    const GstClAnalyticsBox *b = &g_array_index (boxes, GstClAnalyticsBox, i);

    if (b->id > G_MAXUINT || !(t = track_for_id (self, (guint) b->id)))
      continue;
    t->window = bounded_window (b->rect.x, b->rect.y, b->rect.width,
        b->rect.height);
    fresh[t - (GstClCamShiftTrack *) self->tracks->data] = TRUE;
  }
  g_clear_pointer (&boxes, g_array_unref);
}
#endif

/* Marks the tracks that start on this frame (fresh[i]) at their starting
 * windows: the window property's, the ROI metas', or every track when
 * the models' settings changed. */
static void
start_tracks (GstClCamShift *self, GstBuffer *buffer,
    const GstClCamShiftSettings *s, gboolean *fresh)
{
  GstVideoRegionOfInterestMeta *roi;
  GstClCamShiftTrack *t;
  gpointer state = NULL;
  guint i;

  if (s->window_set && s->window_serial != self->window_serial) {
    g_array_set_size (self->tracks, 0);
    t = track_for_id (self, 0);
    t->window = s->window;
  } else if (!s->window_set) {
    while ((roi = (GstVideoRegionOfInterestMeta *)
            gst_buffer_iterate_meta_filtered (buffer, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
      if (roi->roi_type != s->track_type || roi->id < 0
          || !(t = track_for_id (self, (guint) roi->id)))
        continue;
      t->window = bounded_window (roi->x, roi->y, roi->w, roi->h);
      fresh[t - (GstClCamShiftTrack *) self->tracks->data] = TRUE;
    }
#ifdef HAVE_GST_ANALYTICS
    start_analytics_tracks (self, buffer, s->track_label, fresh);
#endif
  }
  if (s->window_serial != self->window_serial
      || s->model_serial != self->model_serial)
    for (i = 0; i < self->tracks->len; i++)
      fresh[i] = TRUE;
  self->window_serial = s->window_serial;
  self->model_serial = s->model_serial;
}

/* The models of the fresh tracks from their windows on this frame. */
static gboolean
make_models (GstClCamShift *self, ClhTracker *tracker, const gboolean *fresh,
    guint bins, GError **error)
{
  ClhRect windows[CLH_MAX_TRACKS];
  guint index[CLH_MAX_TRACKS], n = 0, i;
  guint32 *counts;
  gboolean ok;

  for (i = 0; i < self->tracks->len; i++) {
    GstClCamShiftTrack *t = &g_array_index (self->tracks,
        GstClCamShiftTrack, i);

    if (!fresh[i])
      continue;
    t->lost = t->window.width < 1 || t->window.height < 1;
    if (t->lost)
      continue;
    windows[n] = t->window;
    index[n++] = i;
  }
  if (n == 0)
    return TRUE;
  counts = g_new (guint32, (gsize) n * bins);
  ok = clh_tracker_window_histograms (tracker, windows, n, counts, error);
  for (i = 0; ok && i < n; i++)
    clh_camshift_model_normalize (counts + (gsize) i * bins, bins,
        g_array_index (self->tracks, GstClCamShiftTrack, index[i]).model);
  g_free (counts);
  return ok;
}

/* One CamShift step of every track not lost, in one submission. */
static gboolean
step_tracks (GstClCamShift *self, ClhTracker *tracker,
    const GstClCamShiftSettings *s, GError **error)
{
  ClhRect windows[CLH_MAX_TRACKS];
  ClhRotatedBox boxes[CLH_MAX_TRACKS];
  guint index[CLH_MAX_TRACKS], n = 0, i;
  gfloat *models = g_new (gfloat, (gsize) self->tracks->len * s->bins);
  gboolean ok;

  for (i = 0; i < self->tracks->len; i++) {
    GstClCamShiftTrack *t = &g_array_index (self->tracks,
        GstClCamShiftTrack, i);

    t->box = (ClhRotatedBox) { 0 };
    if (t->lost)
      continue;
    memcpy (models + (gsize) n * s->bins, t->model, s->bins * sizeof
        (gfloat));
    windows[n] = t->window;
    index[n++] = i;
  }
  ok = n == 0 || clh_tracker_camshift (tracker, models, windows, n,
      &s->criteria, boxes, error);
  for (i = 0; ok && i < n; i++) {
    GstClCamShiftTrack *t = &g_array_index (self->tracks,
        GstClCamShiftTrack, index[i]);

    t->window = windows[i];
    t->box = boxes[i];
    t->lost = t->window.width < 1 || t->window.height < 1;
  }
  g_free (models);
  return ok;
}

/* Starts and steps the tracks on @buffer's frame. */
static GstFlowReturn
track_frame (GstClCamShift *self, GstBuffer *buffer,
    const GstClCamShiftSettings *s)
{
  GstClTrackerFilter *filter = GST_CL_TRACKER_FILTER (self);
  ClhTracker *tracker = gst_cl_tracker_filter_get_tracker (filter);
  gboolean fresh[CLH_MAX_TRACKS] = { FALSE };
  ClhBackprojectSpec spec = { 0 };
  GstClFrameMap map;
  GError *err = NULL;
  ClhFrame frame;
  gboolean ok;

  start_tracks (self, buffer, s, fresh);
  if (self->tracks->len == 0)
    return GST_FLOW_OK;

  gst_cl_tracker_filter_init_spec (filter, &spec);
  spec.count = CLH_COUNT_HUE;
  spec.bins = s->bins;
  spec.min_saturation = s->min_saturation;
  spec.min_value = s->min_value;
  spec.max_value = s->max_value;
  if (!gst_cl_tracker_filter_map (filter, buffer, &map, &frame))
    return GST_FLOW_ERROR;
  ok = clh_tracker_set_frame (tracker, &frame, &spec, &err)
      && make_models (self, tracker, fresh, s->bins, &err)
      && step_tracks (self, tracker, s, &err);
  gst_cl_frame_map_clear (&map);
  return ok ? GST_FLOW_OK : gst_cl_tracker_filter_engine_error (filter, err);
}

static GstStructure *
box_structure (const gchar *name, const GstClCamShiftTrack *t)
{
  return gst_structure_new (name,
      "center-x", G_TYPE_DOUBLE, t->box.center_x,
      "center-y", G_TYPE_DOUBLE, t->box.center_y,
      "width", G_TYPE_DOUBLE, t->box.width,
      "height", G_TYPE_DOUBLE, t->box.height,
      "angle", G_TYPE_DOUBLE, t->box.angle, NULL);
}

static void
attach_meta (GstBuffer *buffer, const GstClCamShiftTrack *t)
{
  GstVideoRegionOfInterestMeta *roi;

  roi = gst_buffer_add_video_region_of_interest_meta (buffer, "camshift",
      MAX (t->window.x, 0), MAX (t->window.y, 0), MAX (t->window.width, 0),
      MAX (t->window.height, 0));
  roi->id = (gint) MIN (t->id, G_MAXINT);
  gst_video_region_of_interest_meta_add_param (roi,
      box_structure ("camshift", t));
}

#ifdef HAVE_GST_ANALYTICS
/* The track as a GstAnalyticsTrackingMtd and, while found, a
 * GstAnalyticsODMtd box related to it; the frame's running time (if it
 * has one) is when it was first and last seen. */
static void
attach_analytics (GstClCamShift *self, GstBuffer *buffer,
    GstClCamShiftTrack *t)
{
  const GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  const GstClockTime now = segment->format != GST_FORMAT_TIME ?
      GST_CLOCK_TIME_NONE : gst_segment_to_running_time (segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));
  GstClAnalyticsTrack a = { t->id, t->box, t->lost, 0, 0, 1.0f };

  if (!GST_CLOCK_TIME_IS_VALID (t->first_seen))
    t->first_seen = now;
  if (!t->lost && GST_CLOCK_TIME_IS_VALID (now))
    t->last_seen = now;
  a.first_seen = t->first_seen;
  a.last_seen = t->last_seen;
  if (!gst_cl_analytics_add_track (buffer, g_quark_from_static_string
          ("camshift"), &a))
    GST_WARNING_OBJECT (self, "track %u: no analytics metadata", t->id);
}
#endif

static void
post_message (GstClCamShift *self, GstBuffer *buffer,
    const GstClCamShiftTrack *t)
{
  const GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  const GstClockTime ts = GST_BUFFER_PTS (buffer);
  GstClockTime running = GST_CLOCK_TIME_NONE, stream = GST_CLOCK_TIME_NONE;
  GstStructure *s = box_structure ("camshift", t);
  GValue window = G_VALUE_INIT;

  if (segment->format == GST_FORMAT_TIME) {
    running = gst_segment_to_running_time (segment, GST_FORMAT_TIME, ts);
    stream = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
  }
  gst_value_array_init (&window, 4);
  gst_cl_rect_to_value (&t->window, &window);
  gst_structure_set (s, "timestamp", G_TYPE_UINT64, ts,
      "stream-time", G_TYPE_UINT64, stream,
      "running-time", G_TYPE_UINT64, running,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      "id", G_TYPE_UINT, t->id, "lost", G_TYPE_BOOLEAN, t->lost, NULL);
  gst_structure_take_value (s, "window", &window);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static GstFlowReturn
gst_cl_camshift_transform_ip (GstBaseTransform *trans, GstBuffer *buffer)
{
  GstClCamShift *self = GST_CL_CAMSHIFT (trans);
  GstClCamShiftSettings s;
  GstFlowReturn ret;
  guint i;

  GST_OBJECT_LOCK (self);
  s = self->applied;
  GST_OBJECT_UNLOCK (self);

  ret = track_frame (self, buffer, &s);
  for (i = 0; ret == GST_FLOW_OK && i < self->tracks->len; i++) {
    const GstClCamShiftTrack *t = &g_array_index (self->tracks,
        GstClCamShiftTrack, i);

    attach_meta (buffer, t);
#ifdef HAVE_GST_ANALYTICS
    attach_analytics (self, buffer, &g_array_index (self->tracks,
            GstClCamShiftTrack, i));
#endif
    if (s.post_messages)
      post_message (self, buffer, t);
  }
  return ret;
}

/* Streaming stopped: the next stream starts without tracks. */
static gboolean
gst_cl_camshift_stop (GstBaseTransform *trans)
{
  GstClCamShift *self = GST_CL_CAMSHIFT (trans);

  g_array_set_size (self->tracks, 0);
  /* The window property starts its track again. */
  self->window_serial = G_MAXUINT;
  self->warned_too_many = FALSE;
  return TRUE;
}

static void
set_window (GstClCamShift *self, const GValue *value)
{
  GstClCamShiftSettings *s = &self->settings;
  ClhRect r;

  if (gst_value_array_get_size (value) == 0) {
    s->window_set = FALSE;
    return;
  }
  if (!gst_cl_rect_from_value (value, &r) || r.width < 1 || r.height < 1) {
    GST_WARNING_OBJECT (self, "window must be <x, y, width, height> with a "
        "width and height of at least 1 pixel: ignored");
    return;
  }
  s->window = bounded_window (r.x, r.y, r.width, r.height);
  s->window_set = TRUE;
  s->window_serial++;
}

static void
get_window (GstClCamShift *self, GValue *value)
{
  if (self->settings.window_set)
    gst_cl_rect_to_value (&self->settings.window, value);
}

static void
gst_cl_camshift_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstClCamShift *self = GST_CL_CAMSHIFT (object);
  GstClCamShiftSettings *s = &self->settings;
  const gchar *type;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WINDOW:
      set_window (self, value);
      break;
    case PROP_TRACK_TYPE:
      type = g_value_get_string (value);
      s->track_type = g_quark_from_string (type ? type : DEFAULT_TRACK_TYPE);
      break;
    case PROP_BINS:
      s->bins = g_value_get_uint (value);
      s->model_serial++;
      break;
    case PROP_MIN_SATURATION:
      s->min_saturation = g_value_get_uint (value);
      s->model_serial++;
      break;
    case PROP_MIN_VALUE:
      s->min_value = g_value_get_uint (value);
      s->model_serial++;
      break;
    case PROP_MAX_VALUE:
      s->max_value = g_value_get_uint (value);
      s->model_serial++;
      break;
    case PROP_MAX_ITERATIONS:
      s->criteria.max_iterations = g_value_get_uint (value);
      break;
    case PROP_EPSILON:
      s->criteria.epsilon = g_value_get_double (value);
      break;
    case PROP_POST_MESSAGES:
      s->post_messages = g_value_get_boolean (value);
      break;
    case PROP_TRACK_LABEL:
      s->track_label = g_quark_from_string (g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_camshift_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstClCamShift *self = GST_CL_CAMSHIFT (object);
  const GstClCamShiftSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WINDOW:
      get_window (self, value);
      break;
    case PROP_TRACK_TYPE:
      g_value_set_string (value, g_quark_to_string (s->track_type));
      break;
    case PROP_BINS:
      g_value_set_uint (value, s->bins);
      break;
    case PROP_MIN_SATURATION:
      g_value_set_uint (value, s->min_saturation);
      break;
    case PROP_MIN_VALUE:
      g_value_set_uint (value, s->min_value);
      break;
    case PROP_MAX_VALUE:
      g_value_set_uint (value, s->max_value);
      break;
    case PROP_MAX_ITERATIONS:
      g_value_set_uint (value, s->criteria.max_iterations);
      break;
    case PROP_EPSILON:
      g_value_set_double (value, s->criteria.epsilon);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, s->post_messages);
      break;
    case PROP_TRACK_LABEL:
      g_value_set_string (value, g_quark_to_string (s->track_label));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* GObject calls this once the properties of a g_object_set() (or of the
 * outermost g_object_freeze_notify() ... g_object_thaw_notify()) are all
 * stored: they apply here together, so that a new window and new bins
 * start the track on the same frame. */
static void
gst_cl_camshift_dispatch_properties_changed (GObject *object,
    guint n_pspecs, GParamSpec **pspecs)
{
  GstClCamShift *self = GST_CL_CAMSHIFT (object);

  GST_OBJECT_LOCK (self);
  self->applied = self->settings;
  GST_OBJECT_UNLOCK (self);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

static void
gst_cl_camshift_finalize (GObject *object)
{
  GstClCamShift *self = GST_CL_CAMSHIFT (object);

  g_array_unref (self->tracks);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
install_properties (GObjectClass *gobject_class)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_PLAYING;

  g_object_class_install_property (gobject_class, PROP_WINDOW,
      gst_param_spec_array ("window", "Window", "The initial window "
          "<x, y, width, height> (pixels) of track 0; empty: tracks start "
          "from ROI metas of track-type",
          g_param_spec_int ("value", "Value", "x, y, width or height",
              G_MININT, G_MAXINT, 0, G_PARAM_READWRITE |
              G_PARAM_STATIC_STRINGS), rw));
  g_object_class_install_property (gobject_class, PROP_TRACK_TYPE,
      g_param_spec_string ("track-type", "Track type", "The type of the "
          "GstVideoRegionOfInterestMetas that start tracks (while window "
          "is unset)", DEFAULT_TRACK_TYPE, rw));
  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins", "Hue bins of the models", 1,
          MAX_BINS, DEFAULT_BINS, rw));
  g_object_class_install_property (gobject_class, PROP_MIN_SATURATION,
      g_param_spec_uint ("min-saturation", "Minimum saturation",
          "Pixels of lower HSV saturation are not the target", 0, 255,
          DEFAULT_MIN_SATURATION, rw));
  g_object_class_install_property (gobject_class, PROP_MIN_VALUE,
      g_param_spec_uint ("min-value", "Minimum value",
          "Pixels of lower HSV value are not the target", 0, 255,
          DEFAULT_MIN_VALUE, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_VALUE,
      g_param_spec_uint ("max-value", "Maximum value",
          "Pixels of higher HSV value are not the target", 0, 255,
          DEFAULT_MAX_VALUE, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_ITERATIONS,
      g_param_spec_uint ("max-iterations", "Maximum iterations",
          "Mean-shift iterations at most (cv2.TERM_CRITERIA_COUNT)", 1,
          1000, DEFAULT_MAX_ITERATIONS, rw));
  g_object_class_install_property (gobject_class, PROP_EPSILON,
      g_param_spec_double ("epsilon", "Epsilon", "The mean shift stops when "
          "the window moves less than this (pixels, "
          "cv2.TERM_CRITERIA_EPS)", 0, 16384, DEFAULT_EPSILON, rw));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post a camshift message per track and frame",
          DEFAULT_POST_MESSAGES, rw));
#ifdef HAVE_GST_ANALYTICS
  g_object_class_install_property (gobject_class, PROP_TRACK_LABEL,
      g_param_spec_string ("track-label", "Track label", "The label (object "
          "type) of the GstAnalyticsODMtd boxes that start tracks (while "
          "window is unset); NULL: none", NULL, rw));
#endif
}

static void
gst_cl_camshift_class_init (GstClCamShiftClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cl_camshift_set_property;
  gobject_class->get_property = gst_cl_camshift_get_property;
  gobject_class->dispatch_properties_changed =
      gst_cl_camshift_dispatch_properties_changed;
  gobject_class->finalize = gst_cl_camshift_finalize;
  install_properties (gobject_class);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "OpenCL CamShift",
      "Filter/Analyzer/Video",
      "Tracks windows with OpenCV's CamShift on an OpenCL device",
      "clhistogram developers");

  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cl_camshift_transform_ip);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cl_camshift_stop);
  trans_class->passthrough_on_same_caps = FALSE;
}

static void
gst_cl_camshift_init (GstClCamShift *self)
{
  GstClCamShiftSettings *s = &self->settings;

  s->track_type = g_quark_from_static_string (DEFAULT_TRACK_TYPE);
  s->bins = DEFAULT_BINS;
  s->min_saturation = DEFAULT_MIN_SATURATION;
  s->min_value = DEFAULT_MIN_VALUE;
  s->max_value = DEFAULT_MAX_VALUE;
  s->criteria.max_iterations = DEFAULT_MAX_ITERATIONS;
  s->criteria.epsilon = DEFAULT_EPSILON;
  s->post_messages = DEFAULT_POST_MESSAGES;
  self->applied = *s;
  self->tracks = g_array_new (FALSE, TRUE, sizeof (GstClCamShiftTrack));
  self->window_serial = G_MAXUINT;
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
