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
 * A track starts from #GstClCamShift:window (id 0), from the
 * #GstClCamShift::start-track action signal, or, while the window is
 * unset, from each #GstVideoRegionOfInterestMeta whose type is
 * #GstClCamShift:track-type, with the meta's id; a later start of the
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
 * A #GstClCamShift:window that is not four integers, or whose width or
 * height is under 1, is ignored; one wholly outside the frame is taken as
 * OpenCV's CamShift takes it: each with an element warning on the bus
 * saying what was wrong. Track ids go from 0 to 2147483647 (G_MAXINT), the range of a
 * region-of-interest meta's id: #GstClCamShift::start-track refuses a
 * larger one with a warning, and ROI metas and analytics boxes with larger
 * ids start no track. A ROI meta (or an analytics box) whose width
 * or height is under 1 starts its id's track lost, as
 * #GstClCamShift::start-track with such a window does: the track is
 * reported, `lost` set, until it is started again or stopped. At most 256
 * tracks run at once: a start of one more is left out, with a warning.
 *
 * ## Action signals
 *
 * An application starts and ends tracks from any thread (a pad probe, a
 * bus handler, Python's main loop) with three action signals:
 *
 * * `start-track (guint id, gint x, gint y, gint width, gint height)`:
 *   start track @id (or start it again) from the window `<x, y, width,
 *   height>` (pixels; read as the window property's, cut to ±65536; a
 *   width or height under 1 makes a track lost from its start)
 * * `stop-track (guint id)`: end track @id: no more metas nor messages
 * * `clear-tracks ()`: end every track, the window property's too
 *
 * Each is queued and applies at the start of the next frame the element
 * takes (from a probe on its sink pad: that very frame; made while the
 * element is stopped: the first frame it takes), in the order made, after
 * a new #GstClCamShift:window and before the frame's ROI metas. In
 * Python: `camshift.emit ("start-track", 0, x, y, w, h)`.
 *
 * ## Track quality
 *
 * Every step measures how much of its target a track still finds, from
 * the moments CamShift fits the box to (no further work on the device):
 *
 * * `m00`: the probability mass, the back-projection (0..255 a pixel)
 *   summed over the window cv::CamShift() takes its moments in (the mean
 *   shift's last window widened by 10 pixels each side, cut at the
 *   frame): `cv2.moments (prob[window])["m00"]`, an exact integer
 * * `mean-probability`: `m00 / (255 × that window's pixels)`, 0..1
 * * `confidence`: the mean probability as a fraction of the track's first
 *   (on the frame its model was made on), at most 1: `min
 *   (mean-probability / first mean-probability, 1)`; 1 on that frame, 0
 *   when there was nothing to find (an empty model: a window on black,
 *   grey or unsaturated pixels)
 *
 * A frame whose confidence is under #GstClCamShift:min-mass is a miss;
 * #GstClCamShift:lost-frames misses in a row make the track lost. A lost
 * track is no longer searched: its window stays as the step that lost it
 * left it, and every frame reports it with `lost` set, an empty box and
 * `m00`, `mean-probability` and `confidence` 0, until it is started again
 * (#GstClCamShift::start-track, a `track` meta, a new
 * #GstClCamShift:window, or new bins or mask, which restart every track).
 * Until then a track follows cv2.CamShift() exactly: with nothing in its
 * window it grows by 10 pixels a side a frame, as OpenCV's does.
 *
 * Every frame gets one #GstVideoRegionOfInterestMeta per track, of type
 * `camshift`, whose rectangle is the search window cv2.CamShift() returns
 * (the next frame's) and whose `camshift` parameter structure holds the
 * rotated box (#gdouble `center-x`, `center-y`, `width`, `height`,
 * `angle`) and the quality (#guint64 `m00`, #gdouble `mean-probability`,
 * `confidence`, #gboolean `lost`). These metas come first among the
 * buffer's ROI metas, the first frame of a track included: those from
 * upstream follow them unchanged, so that
 * gst_buffer_get_video_region_of_interest_meta_id() (in Python
 * `GstVideo.buffer_get_video_region_of_interest_meta_id`) finds the
 * result, not the `track` meta that started it; a meta's type is a
 * #GQuark, `GLib.quark_to_string (meta.roi_type)` in Python.
 *
 * ## Messages
 *
 * With #GstClCamShift:post-messages (the default), the element posts a
 * `camshift` element message per track and frame, lost tracks included,
 * before the frame leaves it. Its rotated box and quality are those the
 * track's `camshift` ROI meta holds (above). Its fields:
 *
 * * #guint64 `timestamp`, `stream-time`, `running-time`, `duration`: the
 *   frame's (ns, or %GST_CLOCK_TIME_NONE)
 * * #guint `id`: the track's: 0 for the track #GstClCamShift:window
 *   starts, else the id of the ROI meta, the analytics box or the
 *   #GstClCamShift::start-track call that started it
 * * #GstValueArray of #gint `window`: `<x, y, width, height>`, the search
 *   window (pixels) cv2.CamShift() returns, the next frame's
 * * #gdouble `center-x`, `center-y`, `width`, `height`: the rotated box
 *   (pixels), its `height` along its main axis and its `width` across, as
 *   OpenCV's RotatedRect
 * * #gdouble `angle`: the box's angle in degrees, in [0, 180), as
 *   OpenCV's RotatedRect
 * * #guint64 `m00`, #gdouble `mean-probability`, `confidence`: the
 *   track's quality (above)
 * * #gboolean `lost`: the track is lost (above), or its window has no
 *   pixels
 *
 * A window holding no probability (`m00` 0) gives an empty box (every
 * field 0) and, as cv2.CamShift() does, the window widened by 10 pixels a
 * side, within the frame; the track goes on until it is lost (above).
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
 * #GstAnalyticsODMtd of label `camshift` holding the rotated box, with the
 * track's `confidence` as its location confidence, that relates to the
 * tracking mtd
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
#include "gstcltrackcamshift.h"
#include "base/gstclbaserect.h"
#ifdef HAVE_GST_ANALYTICS
#include "base/gstclbaseanalytics.h"
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
#define DEFAULT_MIN_MASS 0.1
#define DEFAULT_LOST_FRAMES 5

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
  PROP_MIN_MASS,
  PROP_LOST_FRAMES,
  PROP_TRACK_LABEL,
};

enum {
  SIGNAL_START_TRACK,
  SIGNAL_STOP_TRACK,
  SIGNAL_CLEAR_TRACKS,
  LAST_SIGNAL,
};

static guint signals[LAST_SIGNAL];

/* The names of the results' fields, as quarks: a structure made from
 * quarks skips a lookup of each name in GLib's quark table, which costs
 * more than the field. */
enum {
  Q_CAMSHIFT,
  Q_CENTER_X,
  Q_CENTER_Y,
  Q_WIDTH,
  Q_HEIGHT,
  Q_ANGLE,
  Q_M00,
  Q_MEAN_PROBABILITY,
  Q_CONFIDENCE,
  Q_LOST,
  Q_TIMESTAMP,
  Q_STREAM_TIME,
  Q_RUNNING_TIME,
  Q_DURATION,
  Q_ID,
  Q_WINDOW,
  N_QUARKS,
};

static GQuark quarks[N_QUARKS];
static const gchar *const quark_names[N_QUARKS] = {
  "camshift", "center-x", "center-y", "width", "height", "angle", "m00",
  "mean-probability", "confidence", "lost", "timestamp", "stream-time",
  "running-time", "duration", "id", "window",
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
  gdouble min_mass;
  guint lost_frames;
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
  /* This frame's quality (0 while lost), the mean probability on the
   * frame the model was made on, and the misses in a row. */
  guint64 m00;
  gdouble mean_probability;
  gdouble confidence;
  gdouble first_mean;
  guint misses;
  gfloat model[MAX_BINS];
  /* Running times of its first frame and of the last one it was found
   * on, for its analytics metadata; GST_CLOCK_TIME_NONE until known. */
  GstClockTime first_seen;
  GstClockTime last_seen;
} GstClCamShiftTrack;

/* What an action signal asks, queued until the next frame. */
typedef enum {
  REQUEST_START,
  REQUEST_STOP,
  REQUEST_CLEAR,
} GstClCamShiftRequestType;

typedef struct {
  GstClCamShiftRequestType type;
  guint id;
  ClhRect window;
} GstClCamShiftRequest;

struct _GstClCamShift {
  GstClTrackerFilter parent;

  /* Under the object lock: the properties as set, which get_property
   * reads, and as applied, which frames read. GObject's set_property
   * stores one property at a time; dispatch_properties_changed copies
   * them whole once a g_object_set() has stored them all. */
  GstClCamShiftSettings settings;
  GstClCamShiftSettings applied;
  /* Under the object lock: the action signals' requests (in order) since
   * the last frame took them. */
  GArray *requests;

  /* Streaming thread: the tracks (GstClCamShiftTrack) and the serials
   * their windows and models were made with. */
  GArray *tracks;
  /* The requests this frame applies, swapped with requests: both keep
   * their allocation. */
  GArray *applying;
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

/* Ends the track of @id, if any; the later tracks' fresh marks move with
 * them. */
static void
remove_track (GstClCamShift *self, guint id, gboolean *fresh)
{
  guint i;

  for (i = 0; i < self->tracks->len; i++)
    if (g_array_index (self->tracks, GstClCamShiftTrack, i).id == id)
      break;
  if (i == self->tracks->len)
    return;
  g_array_remove_index (self->tracks, i);
  memmove (fresh + i, fresh + i + 1, (self->tracks->len - i) *
      sizeof (gboolean));
  fresh[self->tracks->len] = FALSE;
}

/* The action signals' requests since the last frame, in order. */
static void
apply_requests (GstClCamShift *self, gboolean *fresh)
{
  GstClCamShiftTrack *t;
  guint i;

  for (i = 0; i < self->applying->len; i++) {
    const GstClCamShiftRequest *r = &g_array_index (self->applying,
        GstClCamShiftRequest, i);

    switch (r->type) {
      case REQUEST_START:
        if (!(t = track_for_id (self, r->id)))
          break;
        t->window = r->window;
        fresh[t - (GstClCamShiftTrack *) self->tracks->data] = TRUE;
        break;
      case REQUEST_STOP:
        remove_track (self, r->id, fresh);
        break;
      case REQUEST_CLEAR:
        g_array_set_size (self->tracks, 0);
        memset (fresh, 0, CLH_MAX_TRACKS * sizeof (gboolean));
        break;
    }
  }
  g_array_set_size (self->applying, 0);
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

    /* Ids as start-track takes them: those a ROI meta carries. */
    if (b->id > G_MAXINT || !(t = track_for_id (self, (guint) b->id)))
      continue;
    t->window = bounded_window (b->rect.x, b->rect.y, b->rect.width,
        b->rect.height);
    fresh[t - (GstClCamShiftTrack *) self->tracks->data] = TRUE;
  }
  g_clear_pointer (&boxes, g_array_unref);
}
#endif

/* The window property's window lies wholly outside the frame: likely a
 * mistake (coordinates of another size), told on the bus, not only in the
 * debug log; the track still goes as OpenCV's CamShift takes such a
 * window. */
static void
warn_if_outside (GstClCamShift *self, const ClhRect *w)
{
  const GstVideoInfo *info =
      gst_cl_base_transform_get_info (GST_CL_BASE_TRANSFORM (self));
  const gint width = GST_VIDEO_INFO_WIDTH (info);
  const gint height = GST_VIDEO_INFO_HEIGHT (info);

  if (w->x < width && w->y < height && (gint64) w->x + w->width > 0
      && (gint64) w->y + w->height > 0)
    return;
  GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
      ("The window <%d, %d, %d, %d> lies wholly outside the %dx%d frame: "
          "the track starts from no pixel of the frame.", w->x, w->y,
          w->width, w->height, width, height), ("window property"));
}

/* Marks the tracks that start on this frame (fresh[i]) at their starting
 * windows: the window property's, the action signals', the ROI metas', or
 * every track when the models' settings changed. */
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
    warn_if_outside (self, &s->window);
  }
  apply_requests (self, fresh);
  if (!s->window_set) {
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
    t->m00 = 0;
    t->mean_probability = t->confidence = t->first_mean = 0.0;
    t->misses = 0;
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

/* A lost track: no box, no quality; its window stays. */
static void
lose_track (GstClCamShiftTrack *t)
{
  t->lost = TRUE;
  t->box = (ClhRotatedBox) { 0 };
  t->m00 = 0;
  t->mean_probability = t->confidence = 0.0;
}

/* The track's quality from its step's @mass (the SECTION's formulas);
 * @first: the frame its model was made on. Lost after lost-frames misses
 * in a row. */
static void
measure_track (GstClCamShiftTrack *t, const ClhCamShiftMass *mass,
    gboolean first, const GstClCamShiftSettings *s)
{
  const gdouble area = (gdouble) mass->window.width * mass->window.height;

  t->m00 = mass->m00;
  t->mean_probability = area > 0 ? (gdouble) mass->m00 / (255.0 * area) :
      0.0;
  if (first)
    t->first_mean = t->mean_probability;
  t->confidence = t->first_mean > 0 ?
      MIN (t->mean_probability / t->first_mean, 1.0) : 0.0;
  if (t->confidence >= s->min_mass)
    t->misses = 0;
  else if (t->misses < G_MAXUINT)
    t->misses++;
  if (t->misses >= s->lost_frames || t->window.width < 1
      || t->window.height < 1)
    lose_track (t);
}

/* One CamShift step of every track not lost, in one submission. */
static gboolean
step_tracks (GstClCamShift *self, ClhTracker *tracker,
    const GstClCamShiftSettings *s, const gboolean *fresh, GError **error)
{
  ClhRect windows[CLH_MAX_TRACKS];
  ClhRotatedBox boxes[CLH_MAX_TRACKS];
  ClhCamShiftMass masses[CLH_MAX_TRACKS];
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
      &s->criteria, boxes, masses, error);
  for (i = 0; ok && i < n; i++) {
    GstClCamShiftTrack *t = &g_array_index (self->tracks,
        GstClCamShiftTrack, index[i]);

    t->window = windows[i];
    t->box = boxes[i];
    measure_track (t, &masses[i], fresh[index[i]], s);
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
  const ClhHostBlock *block;
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
  if (!gst_cl_tracker_filter_map (filter, buffer, &map, &frame, &block))
    return GST_FLOW_ERROR;
  ok = clh_tracker_set_frame (tracker, &frame, block, &spec, &err)
      && make_models (self, tracker, fresh, s->bins, &err)
      && step_tracks (self, tracker, s, fresh, &err);
  gst_cl_frame_map_clear (&map);
  return ok ? GST_FLOW_OK : gst_cl_base_transform_engine_error (
      GST_CL_BASE_TRANSFORM (filter), err);
}

/* The box and the quality, for the meta's parameter and the message. */
static GstStructure *
box_structure (GQuark name, const GstClCamShiftTrack *t)
{
  return gst_structure_new_id (name,
      quarks[Q_CENTER_X], G_TYPE_DOUBLE, t->box.center_x,
      quarks[Q_CENTER_Y], G_TYPE_DOUBLE, t->box.center_y,
      quarks[Q_WIDTH], G_TYPE_DOUBLE, t->box.width,
      quarks[Q_HEIGHT], G_TYPE_DOUBLE, t->box.height,
      quarks[Q_ANGLE], G_TYPE_DOUBLE, t->box.angle,
      quarks[Q_M00], G_TYPE_UINT64, t->m00,
      quarks[Q_MEAN_PROBABILITY], G_TYPE_DOUBLE, t->mean_probability,
      quarks[Q_CONFIDENCE], G_TYPE_DOUBLE, t->confidence,
      quarks[Q_LOST], G_TYPE_BOOLEAN, t->lost, NULL);
}

static void
attach_meta (GstBuffer *buffer, const GstClCamShiftTrack *t)
{
  GstVideoRegionOfInterestMeta *roi;

  roi = gst_buffer_add_video_region_of_interest_meta (buffer, "camshift",
      MAX (t->window.x, 0), MAX (t->window.y, 0), MAX (t->window.width, 0),
      MAX (t->window.height, 0));
  /* Every way a track starts refuses ids above G_MAXINT. */
  roi->id = (gint) t->id;
  gst_video_region_of_interest_meta_add_param (roi,
      box_structure (quarks[Q_CAMSHIFT], t));
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
  GstClAnalyticsTrack a = { t->id, t->box, t->lost, 0, 0,
    (gfloat) t->confidence };

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
  GstStructure *s = box_structure (quarks[Q_CAMSHIFT], t);
  GValue window = G_VALUE_INIT;

  if (segment->format == GST_FORMAT_TIME) {
    running = gst_segment_to_running_time (segment, GST_FORMAT_TIME, ts);
    stream = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, ts);
  }
  gst_value_array_init (&window, 4);
  gst_cl_rect_to_value (&t->window, &window);
  gst_structure_id_set (s, quarks[Q_TIMESTAMP], G_TYPE_UINT64, ts,
      quarks[Q_STREAM_TIME], G_TYPE_UINT64, stream,
      quarks[Q_RUNNING_TIME], G_TYPE_UINT64, running,
      quarks[Q_DURATION], G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      quarks[Q_ID], G_TYPE_UINT, t->id, NULL);
  gst_structure_id_take_value (s, quarks[Q_WINDOW], &window);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* The buffer's ROI metas. */
static guint
count_rois (GstBuffer *buffer)
{
  gpointer state = NULL;
  guint n = 0;

  while (gst_buffer_iterate_meta_filtered (buffer, &state,
          GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
    n++;
  return n;
}

/* Moves the buffer's first @n ROI metas, upstream's, behind the tracks'
 * own, which a GstBuffer lists after them (it adds metas at the end of its
 * list): gst_buffer_get_video_region_of_interest_meta_id() returns the
 * first meta of an id, which on a track's first frame would otherwise be
 * the `track` meta that started it. Each is copied to the end through its
 * own transform function, as GstBuffer copies metas, then removed; a
 * locked meta stays where it is. */
static void
put_results_first (GstBuffer *buffer, guint n)
{
  GstMetaTransformCopy copy = { FALSE, 0, -1 };
  guint i;

  for (i = 0; i < n; i++) {
    GstMeta *meta = gst_buffer_get_meta (buffer,
        GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);

    if (!meta || GST_META_FLAG_IS_SET (meta, GST_META_FLAG_LOCKED)
        || !meta->info->transform_func
        || !meta->info->transform_func (buffer, meta, buffer,
            _gst_meta_transform_copy, &copy))
      return;
    gst_buffer_remove_meta (buffer, meta);
  }
}

static GstFlowReturn
gst_cl_camshift_transform_ip (GstBaseTransform *trans, GstBuffer *buffer)
{
  GstClCamShift *self = GST_CL_CAMSHIFT (trans);
  GstClCamShiftSettings s;
  GstFlowReturn ret;
  GArray *requests;
  guint i, upstream;

  GST_OBJECT_LOCK (self);
  s = self->applied;
  requests = self->requests;
  self->requests = self->applying;
  self->applying = requests;
  GST_OBJECT_UNLOCK (self);

  ret = track_frame (self, buffer, &s);
  upstream = ret == GST_FLOW_OK && self->tracks->len ? count_rois (buffer) :
      0;
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
  put_results_first (buffer, upstream);
  return ret;
}

/* Queues @r for the next frame; callable from any thread. */
static void
queue_request (GstClCamShift *self, const GstClCamShiftRequest *r)
{
  GST_OBJECT_LOCK (self);
  /* Nothing before a clear would outlive it. */
  if (r->type == REQUEST_CLEAR)
    g_array_set_size (self->requests, 0);
  g_array_append_vals (self->requests, r, 1);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_camshift_start_track (GstClCamShift *self, guint id, gint x, gint y,
    gint width, gint height)
{
  const GstClCamShiftRequest r = { REQUEST_START, id,
    bounded_window (x, y, width, height)
  };

  /* A track's id travels in GstVideoRegionOfInterestMeta's gint id: a
   * larger one would be clamped and shared with other tracks. */
  if (id > G_MAXINT) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("Track id %u is above %d, the largest a region-of-interest meta "
            "carries: the track is not started.", id, G_MAXINT),
        ("start-track"));
    return;
  }
  GST_DEBUG_OBJECT (self, "start-track %u: %d,%d %dx%d", id, x, y, width,
      height);
  queue_request (self, &r);
}

static void
gst_cl_camshift_stop_track (GstClCamShift *self, guint id)
{
  const GstClCamShiftRequest r = { REQUEST_STOP, id };

  GST_DEBUG_OBJECT (self, "stop-track %u", id);
  queue_request (self, &r);
}

static void
gst_cl_camshift_clear_tracks (GstClCamShift *self)
{
  const GstClCamShiftRequest r = { REQUEST_CLEAR };

  GST_DEBUG_OBJECT (self, "clear-tracks");
  queue_request (self, &r);
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

/* @value as the application wrote it, `<1, 2, 3>`, for a warning. */
static gchar *
window_text (const GValue *value)
{
  GString *text = g_string_new ("<");
  guint i;

  for (i = 0; i < gst_value_array_get_size (value); i++) {
    const GValue *item = gst_value_array_get_value (value, i);
    gchar *one = G_VALUE_HOLDS_INT (item) ?
        g_strdup_printf ("%d", g_value_get_int (item)) :
        gst_value_serialize (item);

    g_string_append_printf (text, "%s%s", i ? ", " : "", one ? one : "?");
    g_free (one);
  }
  g_string_append_c (text, '>');
  return g_string_free (text, FALSE);
}

/* Sets the window property; returns what is wrong with @value, if
 * anything (the window then stays as it was), for an element warning
 * posted once the object lock is released. */
static gchar *
set_window (GstClCamShift *self, const GValue *value)
{
  GstClCamShiftSettings *s = &self->settings;
  ClhRect r;

  if (gst_value_array_get_size (value) == 0) {
    s->window_set = FALSE;
    return NULL;
  }
  if (!gst_cl_rect_from_value (value, &r) || r.width < 1 || r.height < 1) {
    gchar *text = window_text (value);
    gchar *why = g_strdup_printf ("The window %s is not <x, y, width, "
        "height> with a width and height of at least 1 pixel: ignored.",
        text);

    g_free (text);
    return why;
  }
  s->window = bounded_window (r.x, r.y, r.width, r.height);
  s->window_set = TRUE;
  s->window_serial++;
  return NULL;
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
  gchar *bad_window = NULL;
  const gchar *type;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WINDOW:
      bad_window = set_window (self, value);
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
    case PROP_MIN_MASS:
      s->min_mass = g_value_get_double (value);
      break;
    case PROP_LOST_FRAMES:
      s->lost_frames = g_value_get_uint (value);
      break;
    case PROP_TRACK_LABEL:
      s->track_label = g_quark_from_string (g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  /* Posting takes the object lock. */
  if (bad_window)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s", bad_window),
        ("window property"));
  g_free (bad_window);
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
    case PROP_MIN_MASS:
      g_value_set_double (value, s->min_mass);
      break;
    case PROP_LOST_FRAMES:
      g_value_set_uint (value, s->lost_frames);
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
  g_array_unref (self->applying);
  g_array_unref (self->requests);
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
          "from start-track and from ROI metas of track-type",
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
  g_object_class_install_property (gobject_class, PROP_MIN_MASS,
      g_param_spec_double ("min-mass", "Minimum mass", "A frame whose "
          "confidence (the track's probability per pixel of its window, as "
          "a fraction of its first frame's) is under this is a miss; 0: "
          "never", 0, 1, DEFAULT_MIN_MASS, rw));
  g_object_class_install_property (gobject_class, PROP_LOST_FRAMES,
      g_param_spec_uint ("lost-frames", "Lost frames", "Misses in a row "
          "(frames under min-mass) that make a track lost: its window "
          "stays, and it is no longer searched", 1, G_MAXINT,
          DEFAULT_LOST_FRAMES, rw));
#ifdef HAVE_GST_ANALYTICS
  g_object_class_install_property (gobject_class, PROP_TRACK_LABEL,
      g_param_spec_string ("track-label", "Track label", "The label (object "
          "type) of the GstAnalyticsODMtd boxes that start tracks (while "
          "window is unset); NULL: none", NULL, rw));
#endif
}

static void
install_signals (GObjectClass *gobject_class)
{
  const GType type = G_TYPE_FROM_CLASS (gobject_class);
  const GSignalFlags flags = G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION;

  /**
   * GstClCamShift::start-track:
   * @camshift: the element
   * @id: the track's id, that of its metas and messages: 0 to 2147483647
   *   (G_MAXINT, the largest a GstVideoRegionOfInterestMeta's id holds); a
   *   larger one is refused with an element warning
   * @x: the window's left edge, pixels
   * @y: its top edge, pixels
   * @width: its width, pixels; under 1: the track is lost from its start
   * @height: its height, pixels; under 1: likewise
   *
   * Starts track @id from the window on the next frame the element takes
   * (a track of that id starts again there, with a new model). Callable
   * from any thread.
   */
  signals[SIGNAL_START_TRACK] = g_signal_new_class_handler ("start-track",
      type, flags, G_CALLBACK (gst_cl_camshift_start_track), NULL, NULL,
      NULL, G_TYPE_NONE, 5, G_TYPE_UINT, G_TYPE_INT, G_TYPE_INT, G_TYPE_INT,
      G_TYPE_INT);
  /**
   * GstClCamShift::stop-track:
   * @camshift: the element
   * @id: the track's id; nothing happens if no track has it
   *
   * Ends track @id from the next frame the element takes: no meta, no
   * message. Callable from any thread.
   */
  signals[SIGNAL_STOP_TRACK] = g_signal_new_class_handler ("stop-track",
      type, flags, G_CALLBACK (gst_cl_camshift_stop_track), NULL, NULL,
      NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * GstClCamShift::clear-tracks:
   * @camshift: the element
   *
   * Ends every track, the #GstClCamShift:window one too, from the next
   * frame the element takes. Callable from any thread.
   */
  signals[SIGNAL_CLEAR_TRACKS] = g_signal_new_class_handler ("clear-tracks",
      type, flags, G_CALLBACK (gst_cl_camshift_clear_tracks), NULL, NULL,
      NULL, G_TYPE_NONE, 0);
}

static void
gst_cl_camshift_class_init (GstClCamShiftClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  guint i;

  for (i = 0; i < N_QUARKS; i++)
    quarks[i] = g_quark_from_static_string (quark_names[i]);
  gobject_class->set_property = gst_cl_camshift_set_property;
  gobject_class->get_property = gst_cl_camshift_get_property;
  gobject_class->dispatch_properties_changed =
      gst_cl_camshift_dispatch_properties_changed;
  gobject_class->finalize = gst_cl_camshift_finalize;
  install_properties (gobject_class);
  install_signals (gobject_class);

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
  s->min_mass = DEFAULT_MIN_MASS;
  s->lost_frames = DEFAULT_LOST_FRAMES;
  self->applied = *s;
  self->tracks = g_array_new (FALSE, TRUE, sizeof (GstClCamShiftTrack));
  self->requests = g_array_new (FALSE, FALSE, sizeof (GstClCamShiftRequest));
  self->applying = g_array_new (FALSE, FALSE, sizeof (GstClCamShiftRequest));
  self->window_serial = G_MAXUINT;
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
