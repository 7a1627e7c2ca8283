/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GStreamer's analytics metadata (built against GStreamer 1.24 or later's
 * analytics library): clcamshift's tracks read back as GstAnalyticsODMtd
 * boxes and GstAnalyticsTrackingMtd tracks against its camshift ROI metas,
 * frame by frame, with their running times and a lost track; tracks
 * started from boxes of track-label equal to tracks started from ROI
 * metas; objectdetectionoverlay drawing the tracks; clhistogram's roi-meta
 * counting boxes as it counts the same rectangles given as ROI metas. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/analytics/analytics.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>
#include <math.h>

#include "clh-check-util.h"

/* A grey scene (no saturation: outside clcamshift's default mask) with
 * saturated squares, RGB. */
#define SCENE_W 96
#define SCENE_H 64
#define GREY 128
#define SCENE_CAPS "video/x-raw,format=RGB,width=96,height=64,framerate=30/1"

/* The frames' segment starts at 1 s; the first frame is at 1.5 s, running
 * time 0.5 s: running times are not the timestamps. */
#define SEGMENT_START GST_SECOND
#define FIRST_PTS (3 * GST_SECOND / 2)
#define FRAME_DURATION (GST_SECOND / 30)

typedef struct {
  gint x, y, size;
  guint8 r, g, b;
} Square;

static GstClockTime
frame_running_time (guint index)
{
  return FIRST_PTS - SEGMENT_START + index * FRAME_DURATION;
}

static GstBuffer *
scene_frame (const Square *squares, guint n_squares, guint index)
{
  GstVideoInfo info;
  GstBuffer *buffer;
  GstMapInfo map;
  gint stride, x, y;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, SCENE_W, SCENE_H);
  stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  memset (map.data, GREY, map.size);
  for (i = 0; i < n_squares; i++) {
    const Square *s = &squares[i];

    for (y = MAX (s->y, 0); y < MIN (s->y + s->size, SCENE_H); y++)
      for (x = MAX (s->x, 0); x < MIN (s->x + s->size, SCENE_W); x++) {
        guint8 *p = map.data + (gsize) y * stride + (gsize) x * 3;

        p[0] = s->r;
        p[1] = s->g;
        p[2] = s->b;
      }
  }
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = FIRST_PTS + index * FRAME_DURATION;
  GST_BUFFER_DURATION (buffer) = FRAME_DURATION;
  return buffer;
}

/* A red and a blue square, moving apart as @index grows. */
static void
two_squares (guint index, Square squares[2])
{
  squares[0] = (Square) { 10 + 2 * (gint) index, 10 + (gint) index, 14, 220,
    30, 30 };
  squares[1] = (Square) { 60 - (gint) index, 30 + (gint) index, 14, 30, 30,
    220 };
}

static GstHarness *
camshift_harness (GstBus **bus)
{
  GstHarness *h = gst_harness_new ("clcamshift");
  GstSegment segment;

  *bus = clh_check_harness_bus (h->element);
  gst_harness_set_src_caps_str (h, SCENE_CAPS);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = SEGMENT_START;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  return h;
}

static void
set_window (GstElement *e, gint x, gint y, gint width, gint height)
{
  const gint v[4] = { x, y, width, height };
  GValue array = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < 4; i++) {
    GValue item = G_VALUE_INIT;

    g_value_init (&item, G_TYPE_INT);
    g_value_set_int (&item, v[i]);
    gst_value_array_append_and_take_value (&array, &item);
  }
  g_object_set_property (G_OBJECT (e), "window", &array);
  g_value_unset (&array);
}

static void
add_roi (GstBuffer *buffer, const gchar *type, gint id, guint x, guint y,
    guint w, guint h)
{
  gst_buffer_add_video_region_of_interest_meta (buffer, type, x, y, w,
      h)->id = id;
}

/* The buffer's relation meta, or a new one. */
static GstAnalyticsRelationMeta *
relation_meta (GstBuffer *buffer)
{
  GstAnalyticsRelationMeta *rmeta =
      gst_buffer_get_analytics_relation_meta (buffer);

  return rmeta ? rmeta : gst_buffer_add_analytics_relation_meta (buffer);
}

/* Adds a box of @label; if @tracking_id >= 0, a tracking mtd of that id
 * related to it, box to track (or track to box if @reverse). Returns the
 * box's mtd id. */
static guint
add_box (GstBuffer *buffer, const gchar *label, gint x, gint y, gint w,
    gint h, gint64 tracking_id, gboolean reverse)
{
  GstAnalyticsRelationMeta *rmeta = relation_meta (buffer);
  GstAnalyticsODMtd od;
  GstAnalyticsTrackingMtd tracking;

  fail_unless (gst_analytics_relation_meta_add_od_mtd (rmeta,
          g_quark_from_string (label), x, y, w, h, 0.75f, &od));
  if (tracking_id >= 0) {
    fail_unless (gst_analytics_relation_meta_add_tracking_mtd (rmeta,
            (guint64) tracking_id, 0, &tracking));
    fail_unless (gst_analytics_relation_meta_set_relation (rmeta,
            GST_ANALYTICS_REL_TYPE_RELATE_TO, reverse ? tracking.id : od.id,
            reverse ? od.id : tracking.id));
  }
  return od.id;
}

static guint
count_mtds (GstAnalyticsRelationMeta *rmeta, GstAnalyticsMtdType type)
{
  GstAnalyticsMtd mtd;
  gpointer state = NULL;
  guint n = 0;

  while (gst_analytics_relation_meta_iterate (rmeta, &state, type, &mtd))
    n++;
  return n;
}

/* clcamshift's camshift ROI meta of track @id, its rotated box and, in
 * @box[5], the track's confidence. */
static GstVideoRegionOfInterestMeta *
camshift_roi (GstBuffer *buffer, gint id, gdouble box[6])
{
  static const gchar *const fields[6] = {
    "center-x", "center-y", "width", "height", "angle", "confidence",
  };
  GstVideoRegionOfInterestMeta *roi, *found = NULL;
  gpointer state = NULL;
  GstStructure *s;
  guint i;

  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    if (roi->roi_type == g_quark_from_string ("camshift") && roi->id == id) {
      fail_unless (found == NULL, "two camshift metas of track %d", id);
      found = roi;
    }
  fail_unless (found != NULL, "no camshift ROI meta of track %d", id);
  s = gst_video_region_of_interest_meta_get_param (found, "camshift");
  fail_unless (s != NULL);
  for (i = 0; i < 6; i++)
    fail_unless (gst_structure_get_double (s, fields[i], &box[i]));
  return found;
}

/* What clcamshift wrote for track @id: its tracking mtd, and its
 * `camshift` box related to it (FALSE if there is none). Fails unless
 * there is exactly one such tracking mtd. */
static gboolean
camshift_track (GstAnalyticsRelationMeta *rmeta, guint id,
    GstAnalyticsTrackingMtd *tracking, GstAnalyticsODMtd *od)
{
  GstAnalyticsMtd mtd;
  gpointer state = NULL;
  guint found = 0;
  gboolean has_box = FALSE;

  /* Its box first: the box relates to its track. */
  while (gst_analytics_relation_meta_iterate (rmeta, &state,
          gst_analytics_od_mtd_get_mtd_type (), &mtd)) {
    GstAnalyticsTrackingMtd related;
    gpointer rstate = NULL;
    guint64 tracking_id;

    if (gst_analytics_od_mtd_get_obj_type (&mtd) !=
        g_quark_from_string ("camshift"))
      continue;
    fail_unless (gst_analytics_relation_meta_get_direct_related (rmeta,
            mtd.id, GST_ANALYTICS_REL_TYPE_RELATE_TO,
            gst_analytics_tracking_mtd_get_mtd_type (), &rstate, &related),
        "camshift box %u relates to no tracking mtd", mtd.id);
    fail_unless (gst_analytics_tracking_mtd_get_info (&related, &tracking_id,
            NULL, NULL, NULL));
    if (tracking_id == id) {
      fail_if (has_box, "two camshift boxes of track %u", id);
      *od = mtd;
      *tracking = related;
      has_box = TRUE;
    }
  }
  /* The track: one tracking mtd of the id that no box of another label
   * relates to (the input's own tracking mtds do). */
  state = NULL;
  while (gst_analytics_relation_meta_iterate (rmeta, &state,
          gst_analytics_tracking_mtd_get_mtd_type (), &mtd)) {
    GstAnalyticsMtd other;
    gpointer ostate = NULL;
    guint64 tracking_id;
    gboolean input = FALSE;

    fail_unless (gst_analytics_tracking_mtd_get_info (&mtd, &tracking_id,
            NULL, NULL, NULL));
    while (gst_analytics_relation_meta_iterate (rmeta, &ostate,
            gst_analytics_od_mtd_get_mtd_type (), &other))
      input |= gst_analytics_od_mtd_get_obj_type (&other)
          != g_quark_from_string ("camshift")
          && ((gst_analytics_relation_meta_get_relation (rmeta, other.id,
                  mtd.id) | gst_analytics_relation_meta_get_relation (rmeta,
                  mtd.id, other.id)) & GST_ANALYTICS_REL_TYPE_RELATE_TO);
    if (tracking_id != id || input)
      continue;
    found++;
    if (has_box) {
      fail_unless_equals_int (mtd.id, tracking->id);
    } else {
      *tracking = mtd;
    }
  }
  fail_unless_equals_int (found, 1);
  return has_box;
}

/* @box's corners' extent along x (or y): [*lo, *hi]. */
static void
box_extent (const gdouble box[6], gboolean along_y, gdouble *lo, gdouble *hi)
{
  const gdouble a = box[4] * G_PI / 180;
  const gdouble c = cos (a), s = sin (a);
  const gdouble half = along_y ?
      (fabs (box[2] * s) + fabs (box[3] * c)) / 2 :
      (fabs (box[2] * c) + fabs (box[3] * s)) / 2;

  *lo = box[along_y ? 1 : 0] - half;
  *hi = box[along_y ? 1 : 0] + half;
}

/* The box mtd against CamShift's rotated box @box: GStreamer 1.26's
 * oriented box of the same centre, size and clockwise angle (radians),
 * and, as gst_analytics_od_mtd_get_location() gives it, the rectangle
 * around the rotated box, within rounding: the box's corner and size are
 * whole pixels (half a pixel each), and GStreamer 1.26.2 rounds the
 * rectangle it computes around a turned box to about a pixel and a
 * quarter. */
static void
assert_box_is (GstAnalyticsODMtd *od, const gdouble box[6], const gchar *what)
{
  gint x, y, w, h;
  gfloat confidence;
  gdouble lo, hi;
#if GST_CHECK_VERSION(1, 26, 0)
  gfloat r;

  fail_unless (gst_analytics_od_mtd_get_oriented_location (od, &x, &y, &w,
          &h, &r, &confidence));
  fail_unless (fabs (x + w / 2.0 - box[0]) <= 1.0
      && fabs (y + h / 2.0 - box[1]) <= 1.0
      && fabs (w - box[2]) <= 0.5 && fabs (h - box[3]) <= 0.5,
      "%s: oriented box %d,%d %dx%d; CamShift's is centred at %g,%g, "
      "%gx%g", what, x, y, w, h, box[0], box[1], box[2], box[3]);
  fail_unless (fabs (r - box[4] * G_PI / 180) < 1e-5, "%s: rotation %g "
      "radians, CamShift's angle %g degrees", what, r, box[4]);
#endif
  fail_unless (gst_analytics_od_mtd_get_location (od, &x, &y, &w, &h,
          &confidence));
  fail_unless (confidence == (gfloat) box[5], "%s: confidence %g, the "
      "track's %g", what, confidence, box[5]);
  box_extent (box, FALSE, &lo, &hi);
  fail_unless (fabs (x - lo) <= 2 && fabs (x + w - hi) <= 2,
      "%s: box columns %d..%d, the rotated box spans %g..%g", what, x,
      x + w, lo, hi);
  box_extent (box, TRUE, &lo, &hi);
  fail_unless (fabs (y - lo) <= 2 && fabs (y + h - hi) <= 2,
      "%s: box rows %d..%d, the rotated box spans %g..%g", what, y, y + h,
      lo, hi);
}

static void
assert_tracking_is (GstAnalyticsTrackingMtd *tracking, guint64 id,
    GstClockTime first_seen, GstClockTime last_seen, gboolean lost,
    const gchar *what)
{
  guint64 got_id;
  GstClockTime first, last;
  gboolean got_lost;

  fail_unless (gst_analytics_tracking_mtd_get_info (tracking, &got_id,
          &first, &last, &got_lost));
  fail_unless (got_id == id && first == first_seen && last == last_seen
      && got_lost == lost, "%s: track %" G_GUINT64_FORMAT " first seen %"
      GST_TIME_FORMAT " last seen %" GST_TIME_FORMAT " lost %d; want %"
      G_GUINT64_FORMAT ", %" GST_TIME_FORMAT ", %" GST_TIME_FORMAT ", %d",
      what, got_id, GST_TIME_ARGS (first), GST_TIME_ARGS (last), got_lost,
      id, GST_TIME_ARGS (first_seen), GST_TIME_ARGS (last_seen), lost);
}

/* A window on the red square, which moves: every frame has one camshift
 * ROI meta, and one tracking mtd (id 0, first seen at the first frame's
 * running time, last seen at this one's) with one `camshift` box related
 * to it: CamShift's rotated box. */
GST_START_TEST (test_camshift_tracks_as_analytics)
{
  GstBus *bus;
  GstHarness *h = camshift_harness (&bus);
  guint k;

  set_window (h->element, 6, 6, 20, 20);
  for (k = 0; k < 8; k++) {
    Square squares[2];
    GstBuffer *out;
    GstAnalyticsRelationMeta *rmeta;
    GstAnalyticsTrackingMtd tracking;
    GstAnalyticsODMtd od;
    gdouble box[6];
    gchar *what = g_strdup_printf ("frame %u", k);

    two_squares (k, squares);
    out = gst_harness_push_and_pull (h, scene_frame (squares, 1, k));
    camshift_roi (out, 0, box);
    rmeta = gst_buffer_get_analytics_relation_meta (out);
    fail_unless (rmeta != NULL, "%s: no relation meta", what);
    fail_unless_equals_int (count_mtds (rmeta,
            gst_analytics_od_mtd_get_mtd_type ()), 1);
    fail_unless_equals_int (count_mtds (rmeta,
            gst_analytics_tracking_mtd_get_mtd_type ()), 1);
    fail_unless (camshift_track (rmeta, 0, &tracking, &od));
    fail_unless (gst_analytics_relation_meta_get_relation (rmeta, od.id,
            tracking.id) & GST_ANALYTICS_REL_TYPE_RELATE_TO);
    assert_box_is (&od, box, what);
    assert_tracking_is (&tracking, 0, frame_running_time (0),
        frame_running_time (k), FALSE, what);
    gst_buffer_unref (out);
    g_free (what);
  }
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* A red bar 36 x 8 pixels turned 30 degrees (clockwise on screen) about
 * the frame's centre, on grey. */
static GstBuffer *
tilted_bar_frame (void)
{
  const gdouble a = 30 * G_PI / 180;
  GstBuffer *buffer = scene_frame (NULL, 0, 0);
  GstVideoInfo info;
  GstMapInfo map;
  gint x, y;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, SCENE_W, SCENE_H);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (y = 0; y < SCENE_H; y++)
    for (x = 0; x < SCENE_W; x++) {
      const gdouble dx = x + 0.5 - SCENE_W / 2, dy = y + 0.5 - SCENE_H / 2;
      guint8 *p = map.data + (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&info,
          0) + (gsize) x * 3;

      if (fabs (dx * cos (a) + dy * sin (a)) <= 18
          && fabs (-dx * sin (a) + dy * cos (a)) <= 4) {
        p[0] = 220;
        p[1] = 30;
        p[2] = 30;
      }
    }
  gst_buffer_unmap (buffer, &map);
  return buffer;
}

/* The tilted bar: CamShift's box is long, turned, and the box mtd is the
 * same box (oriented with GStreamer 1.26: the angle in radians). */
GST_START_TEST (test_camshift_tilted_box)
{
  GstBus *bus;
  GstHarness *h = camshift_harness (&bus);
  GstAnalyticsTrackingMtd tracking;
  GstAnalyticsODMtd od;
  GstBuffer *out;
  gdouble box[6];

  set_window (h->element, 28, 20, 40, 24);
  out = gst_harness_push_and_pull (h, tilted_bar_frame ());
  camshift_roi (out, 0, box);
  fail_unless (fabs (sin (2 * box[4] * G_PI / 180)) > 0.5
      && MAX (box[2], box[3]) > 2 * MIN (box[2], box[3]), "CamShift's box "
      "%gx%g at %g degrees is not the tilted bar's", box[2], box[3], box[4]);
  fail_unless (camshift_track (gst_buffer_get_analytics_relation_meta (out),
          0, &tracking, &od));
  assert_box_is (&od, box, "tilted bar");
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Track 3 is found on frames 0 and 1, then started again at a window of
 * no pixels: lost from frame 2, its tracking mtd keeps its first seen,
 * says lost and last seen at frame 1, and no box relates to it; track 4
 * goes on beside it. */
GST_START_TEST (test_camshift_lost_track)
{
  GstBus *bus;
  GstHarness *h = camshift_harness (&bus);
  guint k;

  for (k = 0; k < 5; k++) {
    Square squares[2];
    GstBuffer *in, *out;
    GstAnalyticsRelationMeta *rmeta;
    GstAnalyticsTrackingMtd tracking;
    GstAnalyticsODMtd od;
    gdouble box[6];
    gchar *what = g_strdup_printf ("frame %u", k);
    const gboolean lost = k >= 2;

    two_squares (k, squares);
    in = scene_frame (squares, 2, k);
    if (k == 0) {
      add_roi (in, "track", 3, 8, 8, 18, 18);
      add_roi (in, "track", 4, 58, 28, 18, 18);
    } else if (k == 2) {
      add_roi (in, "track", 3, 20, 20, 0, 0);
    }
    out = gst_harness_push_and_pull (h, in);
    rmeta = gst_buffer_get_analytics_relation_meta (out);
    fail_unless (rmeta != NULL, "%s: no relation meta", what);
    fail_unless_equals_int (count_mtds (rmeta,
            gst_analytics_tracking_mtd_get_mtd_type ()), 2);
    fail_unless_equals_int (count_mtds (rmeta,
            gst_analytics_od_mtd_get_mtd_type ()), lost ? 1 : 2);
    fail_unless_equals_int (camshift_track (rmeta, 3, &tracking, &od),
        !lost);
    assert_tracking_is (&tracking, 3, frame_running_time (0),
        frame_running_time (lost ? 1 : k), lost, what);
    if (!lost) {
      camshift_roi (out, 3, box);
      assert_box_is (&od, box, what);
    }
    fail_unless (camshift_track (rmeta, 4, &tracking, &od));
    camshift_roi (out, 4, box);
    assert_box_is (&od, box, what);
    assert_tracking_is (&tracking, 4, frame_running_time (0),
        frame_running_time (k), FALSE, what);
    gst_buffer_unref (out);
    g_free (what);
  }
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Everything clcamshift says of track @id on a frame, for comparing two
 * runs: the ROI meta's window and box, the box mtd's location and its
 * tracking mtd. */
typedef struct {
  guint x, y, w, h;
  gdouble box[6];
  gint od[4];
  gfloat r;
  guint64 first_seen, last_seen;
  gboolean lost;
} TrackResult;

static TrackResult
track_result (GstBuffer *out, guint id)
{
  GstAnalyticsRelationMeta *rmeta =
      gst_buffer_get_analytics_relation_meta (out);
  GstVideoRegionOfInterestMeta *roi;
  GstAnalyticsTrackingMtd tracking;
  GstAnalyticsODMtd od;
  TrackResult t;
  guint64 tracking_id;
  gfloat confidence;

  /* Compared with memcmp(): the padding too. */
  memset (&t, 0, sizeof (t));
  fail_unless (rmeta != NULL);
  roi = camshift_roi (out, (gint) id, t.box);
  t.x = roi->x;
  t.y = roi->y;
  t.w = roi->w;
  t.h = roi->h;
  fail_unless (camshift_track (rmeta, id, &tracking, &od));
#if GST_CHECK_VERSION(1, 26, 0)
  fail_unless (gst_analytics_od_mtd_get_oriented_location (&od, &t.od[0],
          &t.od[1], &t.od[2], &t.od[3], &t.r, &confidence));
#else
  fail_unless (gst_analytics_od_mtd_get_location (&od, &t.od[0], &t.od[1],
          &t.od[2], &t.od[3], &confidence));
#endif
  fail_unless (gst_analytics_tracking_mtd_get_info (&tracking, &tracking_id,
          &t.first_seen, &t.last_seen, &t.lost));
  fail_unless_equals_uint64 (tracking_id, id);
  return t;
}

/* The ids of the camshift ROI metas of @out, in order. */
static GArray *
track_ids (GstBuffer *out)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));
  GstVideoRegionOfInterestMeta *roi;
  gpointer state = NULL;

  while ((roi = (GstVideoRegionOfInterestMeta *)
          gst_buffer_iterate_meta_filtered (out, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    if (roi->roi_type == g_quark_from_string ("camshift")) {
      guint id = (guint) roi->id;

      g_array_append_val (ids, id);
    }
  return ids;
}

/* Two clcamshifts on the same frames, one started by ROI metas of type
 * "track", the other by boxes of label "face" (track-label): frame 1
 * starts tracks 5 (a box related to a tracking mtd of id 5) and 9 (a
 * tracking mtd of id 9 related to the box) on the two squares, beside a
 * box of another label; frame 4 starts a track at a box related to no
 * tracking mtd, named by its mtd id (0), as a ROI meta of id 0 does. Both
 * give the same tracks, windows, boxes and tracking mtds frame by frame. */
GST_START_TEST (test_camshift_starts_from_boxes)
{
  GstBus *bus_roi, *bus_od;
  GstHarness *by_roi = camshift_harness (&bus_roi);
  GstHarness *by_od = camshift_harness (&bus_od);
  gchar *label = NULL;
  guint k, i;

  g_object_get (by_od->element, "track-label", &label, NULL);
  fail_unless (label == NULL, "track-label is '%s' by default", label);
  g_object_set (by_od->element, "track-label", "face", NULL);
  g_object_get (by_od->element, "track-label", &label, NULL);
  fail_unless_equals_string (label, "face");
  g_free (label);

  for (k = 0; k < 8; k++) {
    Square squares[2];
    GstBuffer *a, *b, *out_a, *out_b;
    GArray *ids_a, *ids_b;
    gchar *what = g_strdup_printf ("frame %u", k);

    two_squares (k, squares);
    a = scene_frame (squares, 2, k);
    b = scene_frame (squares, 2, k);
    if (k == 1) {
      add_roi (a, "track", 5, 8, 8, 18, 18);
      add_roi (a, "track", 9, 56, 28, 18, 18);
      add_box (b, "car", 30, 40, 20, 20, -1, FALSE);
      add_box (b, "face", 8, 8, 18, 18, 5, FALSE);
      add_box (b, "face", 56, 28, 18, 18, 9, TRUE);
    } else if (k == 4) {
      add_roi (a, "track", 0, 63, 32, 16, 16);
      fail_unless_equals_int (add_box (b, "face", 63, 32, 16, 16, -1, FALSE),
          0);
    }
    out_a = gst_harness_push_and_pull (by_roi, a);
    out_b = gst_harness_push_and_pull (by_od, b);
    ids_a = track_ids (out_a);
    ids_b = track_ids (out_b);
    fail_unless_equals_int (ids_a->len, k == 0 ? 0 : k < 4 ? 2 : 3);
    fail_unless_equals_int (ids_b->len, ids_a->len);
    for (i = 0; i < ids_a->len; i++) {
      const guint id = g_array_index (ids_a, guint, i);
      TrackResult ta, tb;

      fail_unless_equals_int (g_array_index (ids_b, guint, i), id);
      ta = track_result (out_a, id);
      tb = track_result (out_b, id);
      fail_unless (memcmp (&ta, &tb, sizeof (TrackResult)) == 0,
          "%s, track %u: from a box %u,%u %ux%u (box %g,%g %gx%g %g), "
          "from a ROI meta %u,%u %ux%u (box %g,%g %gx%g %g)", what, id,
          tb.x, tb.y, tb.w, tb.h, tb.box[0], tb.box[1], tb.box[2],
          tb.box[3], tb.box[4], ta.x, ta.y, ta.w, ta.h, ta.box[0], ta.box[1],
          ta.box[2], ta.box[3], ta.box[4]);
      fail_if (ta.lost, "%s: track %u lost", what, id);
    }
    g_array_unref (ids_a);
    g_array_unref (ids_b);
    gst_buffer_unref (out_a);
    gst_buffer_unref (out_b);
    g_free (what);
  }
  clh_check_harness_teardown (by_roi, bus_roi);
  clh_check_harness_teardown (by_od, bus_od);
}
GST_END_TEST;

/* Without track-label, boxes start nothing. */
GST_START_TEST (test_camshift_boxes_need_label)
{
  GstBus *bus;
  GstHarness *h = camshift_harness (&bus);
  Square squares[2];
  GstBuffer *in, *out;
  GArray *ids;

  two_squares (0, squares);
  in = scene_frame (squares, 2, 0);
  add_box (in, "face", 8, 8, 18, 18, 5, FALSE);
  out = gst_harness_push_and_pull (h, in);
  ids = track_ids (out);
  fail_unless_equals_int (ids->len, 0);
  g_array_unref (ids);
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Whether pixel (@x, @y) lies within @margin pixels of the rectangle's
 * outline. */
static gboolean
near_outline (gint x, gint y, gint rx, gint ry, gint rw, gint rh,
    gint margin)
{
  const gboolean in_outer = x >= rx - margin && x <= rx + rw + margin
      && y >= ry - margin && y <= ry + rh + margin;
  const gboolean in_inner = x > rx + margin && x < rx + rw - margin
      && y > ry + margin && y < ry + rh - margin;

  return in_outer && !in_inner;
}

/* clcamshift ! objectdetectionoverlay: the overlay draws each track's box
 * outline where gst_analytics_od_mtd_get_location() says (some pixel
 * changes along each of its four sides) and changes no pixel further
 * than the outline's width from it. */
GST_START_TEST (test_overlay_draws_tracks)
{
  const gint margin = 4;
  GstHarness *h;
  GstElement *camshift;
  GstVideoInfo info;
  guint k;

  /* gst-plugins-bad's analyticsoverlay plugin (Debian:
   * gstreamer1.0-plugins-bad, which scripts/setup.sh installs). */
  fail_unless (gst_registry_check_feature_version (gst_registry_get (),
          "objectdetectionoverlay", 1, 24, 0), "no objectdetectionoverlay "
      "of GStreamer 1.24 or later: install gstreamer1.0-plugins-bad");
  h = gst_harness_new_parse ("clcamshift ! "
      "objectdetectionoverlay draw-labels=false "
      "object-detection-outline-color=0xff00ff00");
  camshift = gst_harness_find_element (h, "clcamshift");

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGB, SCENE_W, SCENE_H);
  set_window (camshift, 6, 6, 20, 20);
  gst_object_unref (camshift);
  gst_harness_set_src_caps_str (h, SCENE_CAPS);
  for (k = 0; k < 4; k++) {
    Square squares[2];
    GstBuffer *in, *out;
    GstMapInfo before, after;
    GstAnalyticsRelationMeta *rmeta;
    GstAnalyticsTrackingMtd tracking;
    GstAnalyticsODMtd od;
    gint rx, ry, rw, rh, x, y;
    guint changed = 0, sides[4] = { 0 };
    const gint stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);

    two_squares (k, squares);
    in = scene_frame (squares, 2, k);
    out = gst_harness_push_and_pull (h, gst_buffer_copy_deep (in));
    rmeta = gst_buffer_get_analytics_relation_meta (out);
    fail_unless (rmeta != NULL);
    fail_unless (camshift_track (rmeta, 0, &tracking, &od));
    fail_unless (gst_analytics_od_mtd_get_location (&od, &rx, &ry, &rw, &rh,
            NULL));
    fail_unless (rw > 4 && rh > 4, "frame %u: box %dx%d", k, rw, rh);

    gst_buffer_map (in, &before, GST_MAP_READ);
    gst_buffer_map (out, &after, GST_MAP_READ);
    fail_unless_equals_int (after.size, before.size);
    for (y = 0; y < SCENE_H; y++)
      for (x = 0; x < SCENE_W; x++) {
        const gsize at = (gsize) y * stride + (gsize) x * 3;

        if (memcmp (before.data + at, after.data + at, 3) == 0)
          continue;
        changed++;
        fail_unless (near_outline (x, y, rx, ry, rw, rh, margin),
            "frame %u: pixel %d,%d changed, away from the box %d,%d %dx%d",
            k, x, y, rx, ry, rw, rh);
        if (x > rx && x < rx + rw) {
          sides[0] += abs (y - ry) <= margin;
          sides[1] += abs (y - (ry + rh)) <= margin;
        }
        if (y > ry && y < ry + rh) {
          sides[2] += abs (x - rx) <= margin;
          sides[3] += abs (x - (rx + rw)) <= margin;
        }
      }
    gst_buffer_unmap (in, &before);
    gst_buffer_unmap (out, &after);
    fail_unless (changed > 0, "frame %u: the overlay drew nothing", k);
    fail_unless (sides[0] && sides[1] && sides[2] && sides[3],
        "frame %u: the outline's sides have %u, %u, %u, %u changed pixels",
        k, sides[0], sides[1], sides[2], sides[3]);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* clhistogram's roi-meta */

typedef struct {
  const gchar *type;
  gint id;
  gint x, y, w, h;
} Window;

/* A face box related to track 3, then a car box of mtd id 2 related to
 * none (one corner outside the 96x64 frame). */
static const Window windows[2] = {
  {"face", 3, 10, 12, 30, 20},
  {"car", 2, 80, 50, 40, 40},
};

static GstBuffer *
random_frame (gsize size)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, size, NULL);
  GRand *rand = g_rand_new_with_seed (32);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buffer, &map);
  g_rand_free (rand);
  GST_BUFFER_PTS (buffer) = 0;
  GST_BUFFER_DURATION (buffer) = FRAME_DURATION;
  return buffer;
}

static void
add_windows_as_rois (GstBuffer *buffer)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (windows); i++)
    add_roi (buffer, windows[i].type, windows[i].id, windows[i].x,
        windows[i].y, windows[i].w, windows[i].h);
}

static void
add_windows_as_boxes (GstBuffer *buffer)
{
  fail_unless_equals_int (add_box (buffer, windows[0].type, windows[0].x,
          windows[0].y, windows[0].w, windows[0].h, windows[0].id, FALSE), 0);
  fail_unless_equals_int (add_box (buffer, windows[1].type, windows[1].x,
          windows[1].y, windows[1].w, windows[1].h, -1, FALSE),
      windows[1].id);
}

/* Pushes @buffer through @h; its histogram metas (in order) and the
 * message's `regions`, the caller's. */
static GList *
histograms (GstHarness *h, GstBus *bus, GstBuffer *buffer, GstBuffer **out,
    GValue *regions)
{
  GstMessage *msg;

  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_OK);
  *out = gst_harness_pull (h);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no histogram message");
  g_value_init (regions, GST_TYPE_ARRAY);
  g_value_copy (gst_structure_get_value (gst_message_get_structure (msg),
          "regions"), regions);
  gst_message_unref (msg);
  return gst_buffer_get_histogram_metas (*out);
}

static void
assert_same_histogram (GstHistogramMeta *a, GstHistogramMeta *b,
    const gchar *what)
{
  guint c;

  fail_unless_equals_string (b->region.type, a->region.type);
  fail_unless_equals_int (b->region.id, a->region.id);
  fail_unless (a->region.x == b->region.x && a->region.y == b->region.y
      && a->region.width == b->region.width
      && a->region.height == b->region.height, "%s: %s %d is %ux%u at %u,%u "
      "from a box, %ux%u at %u,%u from a ROI meta", what, a->region.type,
      a->region.id, b->region.width, b->region.height, b->region.x,
      b->region.y, a->region.width, a->region.height, a->region.x,
      a->region.y);
  fail_unless_equals_uint64 (b->pixels, a->pixels);
  fail_unless_equals_int (b->info.n_channels, a->info.n_channels);
  for (c = 0; c < a->info.n_channels; c++) {
    guint n_a, n_b;
    const guint32 *ca = gst_histogram_meta_get_counts (a, c, &n_a);
    const guint32 *cb = gst_histogram_meta_get_counts (b, c, &n_b);

    fail_unless_equals_int (n_b, n_a);
    fail_unless (memcmp (ca, cb, n_a * sizeof (guint32)) == 0,
        "%s: %s %d channel %u: other counts from a box", what,
        a->region.type, a->region.id, c);
  }
}

/* The two windows as ROI metas and as boxes, on the same frame, through
 * clhistogram in two modes: the same histograms, types, ids and
 * rectangles in the metas and the messages; both on one frame: the ROI
 * metas' regions, then the boxes'; roi-meta=false: neither. */
GST_START_TEST (test_histogram_counts_boxes)
{
  static const gchar *const setups[][2] = {
    {"video/x-raw,format=GRAY8,width=96,height=64,framerate=30/1",
        "clhistogram bins=16"},
    {"video/x-raw,format=RGBA,width=96,height=64,framerate=30/1",
        "clhistogram mode=channels bins=8 full-frame=false"},
  };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (setups); s++) {
    GstHarness *h = gst_harness_new_parse (setups[s][1]);
    GstElement *e = gst_harness_find_element (h, "clhistogram");
    GstBus *bus = clh_check_harness_bus (e);
    GstBuffer *frame, *a, *b, *both, *out_a, *out_b, *out_both, *out_off;
    GValue regions_a = G_VALUE_INIT, regions_b = G_VALUE_INIT,
        regions_both = G_VALUE_INIT, regions_off = G_VALUE_INIT;
    GList *ma, *mb, *mboth, *moff = NULL, *la, *lb;
    /* (fail_unless_equals_int() has locals named first and second.) */
    const guint whole = s == 0 ? 1 : 0;
    guint i;

    gst_harness_set_src_caps_str (h, setups[s][0]);
    frame = random_frame (s == 0 ? 96 * 64 : 96 * 64 * 4);
    a = gst_buffer_copy_deep (frame);
    b = gst_buffer_copy_deep (frame);
    both = gst_buffer_copy_deep (frame);
    add_windows_as_rois (a);
    add_windows_as_boxes (b);
    add_windows_as_rois (both);
    add_windows_as_boxes (both);

    ma = histograms (h, bus, a, &out_a, &regions_a);
    mb = histograms (h, bus, b, &out_b, &regions_b);
    mboth = histograms (h, bus, both, &out_both, &regions_both);
    fail_unless_equals_int (g_list_length (ma), whole + 2);
    fail_unless_equals_int (g_list_length (mb), whole + 2);
    fail_unless_equals_int (g_list_length (mboth), whole + 4);
    for (la = ma, lb = mb; la; la = la->next, lb = lb->next)
      assert_same_histogram (la->data, lb->data, setups[s][1]);
    fail_unless (gst_value_compare (&regions_a, &regions_b) == GST_VALUE_EQUAL,
        "%s: the message's regions differ", setups[s][1]);
    /* Both: the ROI metas' two, then the boxes' two. */
    for (i = 0; i < 4; i++)
      assert_same_histogram (g_list_nth_data (ma, whole + i % 2),
          g_list_nth_data (mboth, whole + i), setups[s][1]);

    /* (Without the whole frame, a frame of no region counts nothing.) */
    if (whole) {
      g_object_set (e, "roi-meta", FALSE, NULL);
      GstBuffer *off = gst_buffer_copy_deep (frame);

      add_windows_as_rois (off);
      add_windows_as_boxes (off);
      moff = histograms (h, bus, off, &out_off, &regions_off);
      fail_unless_equals_int (g_list_length (moff), 1);
      fail_unless_equals_int (gst_value_array_get_size (&regions_off), 0);
      g_value_unset (&regions_off);
      gst_buffer_unref (out_off);
    }

    g_list_free (ma);
    g_list_free (mb);
    g_list_free (mboth);
    g_list_free (moff);
    g_value_unset (&regions_a);
    g_value_unset (&regions_b);
    g_value_unset (&regions_both);
    gst_buffer_unref (out_a);
    gst_buffer_unref (out_b);
    gst_buffer_unref (out_both);
    gst_buffer_unref (frame);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
    gst_harness_teardown (h);
  }
}
GST_END_TEST;

static Suite *
clanalytics_suite (void)
{
  Suite *s = suite_create ("clanalytics");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_camshift_tracks_as_analytics);
  tcase_add_test (tc, test_camshift_tilted_box);
  tcase_add_test (tc, test_camshift_lost_track);
  tcase_add_test (tc, test_camshift_starts_from_boxes);
  tcase_add_test (tc, test_camshift_boxes_need_label);
  tcase_add_test (tc, test_overlay_draws_tracks);
  tcase_add_test (tc, test_histogram_counts_boxes);
  return s;
}

CLH_CHECK_MAIN (clanalytics);
