/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GStreamer's analytics metadata (gst-plugins-bad's gst/analytics library,
 * GStreamer 1.24 and later) for the plugin's elements. A frame's
 * detections and tracks live in its one GstAnalyticsRelationMeta: each a
 * "mtd" (a GstAnalyticsODMtd box, a GstAnalyticsTrackingMtd track) with an
 * id in that meta, and typed relations between them. Read here: the boxes,
 * each named by the track it relates to; written: a tracker's tracks, the
 * way GStreamer's own trackers (gst-plugins-bad's iou tracker) and
 * objectdetectionoverlay expect them, the box RELATE_TO its track.
 */
#include "gstclbaseanalytics.h"

#include <gst/analytics/analytics.h>
#include <math.h>

/* The tracking id of the GstAnalyticsTrackingMtd that @od relates to,
 * either way round; FALSE if none does. */
static gboolean
related_tracking_id (GstAnalyticsRelationMeta *rmeta, guint od_id,
    guint64 *id)
{
  GstAnalyticsTrackingMtd tracking;
  gpointer state = NULL;

  while (gst_analytics_relation_meta_iterate (rmeta, &state,
          gst_analytics_tracking_mtd_get_mtd_type (), &tracking)) {
    const GstAnalyticsRelTypes either =
        gst_analytics_relation_meta_get_relation (rmeta, od_id, tracking.id)
        | gst_analytics_relation_meta_get_relation (rmeta, tracking.id,
        od_id);

    if ((either & GST_ANALYTICS_REL_TYPE_RELATE_TO)
        && gst_analytics_tracking_mtd_get_info (&tracking, id, NULL, NULL,
            NULL))
      return TRUE;
  }
  return FALSE;
}

/**
 * gst_cl_analytics_boxes:
 * @buffer: a frame
 * @label: the object type to keep, or 0 for every box
 *
 * The frame's GstAnalyticsODMtd boxes of @label, in the relation meta's
 * order, each with its axis-aligned rectangle as
 * gst_analytics_od_mtd_get_location() gives it (for a box rotated by
 * GStreamer 1.26's gst_analytics_relation_meta_add_oriented_od_mtd(), the
 * rectangle around it) and the id of the track it relates to
 * (GST_ANALYTICS_REL_TYPE_RELATE_TO with a GstAnalyticsTrackingMtd, either
 * way round), or else its own mtd id.
 *
 * Returns: (transfer full): a new array of #GstClAnalyticsBox, empty when
 *   the frame has no relation meta
 */
GArray *
gst_cl_analytics_boxes (GstBuffer *buffer, GQuark label)
{
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (GstClAnalyticsBox));
  GstAnalyticsRelationMeta *rmeta =
      gst_buffer_get_analytics_relation_meta (buffer);
  GstAnalyticsODMtd od;
  gpointer state = NULL;

  while (rmeta && gst_analytics_relation_meta_iterate (rmeta, &state,
          gst_analytics_od_mtd_get_mtd_type (), &od)) {
    GstClAnalyticsBox box;

    box.label = gst_analytics_od_mtd_get_obj_type (&od);
    if (label && box.label != label)
      continue;
    if (!gst_analytics_od_mtd_get_location (&od, &box.rect.x, &box.rect.y,
            &box.rect.width, &box.rect.height, NULL))
      continue;
    if (!related_tracking_id (rmeta, od.id, &box.id))
      box.id = od.id;
    g_array_append_val (boxes, box);
  }
  return boxes;
}

/* @v rounded to the nearest int, within gint's range (0 if not finite). */
static gint
round_to_int (gdouble v)
{
  if (!isfinite (v))
    return 0;
  return (gint) CLAMP (round (v), (gdouble) G_MININT, (gdouble) G_MAXINT);
}

#if GST_CHECK_VERSION(1, 26, 0)
/* The box as GStreamer 1.26 rotates one: the rectangle before rotation
 * (corner and size), turned clockwise about its centre by r radians in
 * [0, 2 pi). OpenCV's RotatedRect lays its width along (cos a, sin a) in
 * image coordinates (y down), a clockwise turn of a degrees on screen:
 * r is a in radians. */
static gboolean
add_box (GstAnalyticsRelationMeta *rmeta, GQuark label,
    const GstClAnalyticsTrack *track, GstAnalyticsODMtd *od)
{
  const ClhRotatedBox *b = &track->box;
  gdouble r = fmod (b->angle * G_PI / 180.0, 2 * G_PI);

  if (r < 0)
    r += 2 * G_PI;
  return gst_analytics_relation_meta_add_oriented_od_mtd (rmeta, label,
      round_to_int (b->center_x - b->width / 2),
      round_to_int (b->center_y - b->height / 2), round_to_int (b->width),
      round_to_int (b->height), (gfloat) r, track->confidence, od);
}
#else
/* Before GStreamer 1.26 a box has no angle: the smallest rectangle of
 * whole pixels around the rotated box. */
static gboolean
add_box (GstAnalyticsRelationMeta *rmeta, GQuark label,
    const GstClAnalyticsTrack *track, GstAnalyticsODMtd *od)
{
  const ClhRotatedBox *b = &track->box;
  const gdouble a = b->angle * G_PI / 180.0;
  const gdouble half_x = (fabs (b->width * cos (a))
      + fabs (b->height * sin (a))) / 2;
  const gdouble half_y = (fabs (b->width * sin (a))
      + fabs (b->height * cos (a))) / 2;
  const gint x = round_to_int (floor (b->center_x - half_x));
  const gint y = round_to_int (floor (b->center_y - half_y));

  return gst_analytics_relation_meta_add_od_mtd (rmeta, label, x, y,
      round_to_int (ceil (b->center_x + half_x)) - x,
      round_to_int (ceil (b->center_y + half_y)) - y, track->confidence,
      od);
}
#endif

/**
 * gst_cl_analytics_add_track:
 * @buffer: a writable frame
 * @label: the object type of the track's box
 * @track: the track on this frame
 *
 * Adds to @buffer's GstAnalyticsRelationMeta (a new one if it has none)
 * the track's GstAnalyticsTrackingMtd (tracking id, first seen, last seen,
 * lost) and, unless the track is lost, its box as a GstAnalyticsODMtd of
 * @label (oriented with GStreamer 1.26, the rectangle around it before)
 * that RELATE_TO's the tracking mtd.
 *
 * Returns: %FALSE if the relation meta refused a mtd or a relation
 */
gboolean
gst_cl_analytics_add_track (GstBuffer *buffer, GQuark label,
    const GstClAnalyticsTrack *track)
{
  GstAnalyticsRelationMeta *rmeta =
      gst_buffer_get_analytics_relation_meta (buffer);
  GstAnalyticsTrackingMtd tracking;
  GstAnalyticsODMtd od;

  if (!rmeta)
    rmeta = gst_buffer_add_analytics_relation_meta (buffer);
  if (!rmeta || !gst_analytics_relation_meta_add_tracking_mtd (rmeta,
          track->id, track->first_seen, &tracking)
      || !gst_analytics_tracking_mtd_update_last_seen (&tracking,
          track->last_seen))
    return FALSE;
  if (track->lost)
    return gst_analytics_tracking_mtd_set_lost (&tracking);
  return add_box (rmeta, label, track, &od)
      && gst_analytics_relation_meta_set_relation (rmeta,
      GST_ANALYTICS_REL_TYPE_RELATE_TO, od.id, tracking.id);
}
