/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Each area (the frame, each zone) and kind has a two-state alert, off
 * and on, moved by a Schmitt trigger: it goes on when the share reaches
 * the threshold and off when it falls below the threshold less the
 * hysteresis, as a comparator with hysteresis does, so that a share
 * wavering at the threshold does not toggle it. A change also waits
 * until its condition has held for the hold time, frame after frame,
 * as a broadcast monitor's "duration" setting for its gamut and level
 * alarms does: a flap shorter than that is never reported. */
#include "gstclhistogramalert.h"

/* GST_CLOCK_TIME_NONE, without GStreamer. */
#define NO_TIME G_MAXUINT64

typedef struct {
  gint id;
  gboolean active[GST_CL_EXPOSURE_N_KINDS];
  /* The condition that would change @active has held since @since. */
  gboolean pending[GST_CL_EXPOSURE_N_KINDS];
  guint64 since[GST_CL_EXPOSURE_N_KINDS];
  /* The share on the last frame. */
  gdouble percent[GST_CL_EXPOSURE_N_KINDS];
} AreaState;

struct _GstClExposureAlert {
  gboolean started;
  guint64 layout;
  /* AreaState, in the order of the frames' areas. */
  GArray *areas;
};

/**
 * gst_cl_exposure_alert_new:
 *
 * Returns: (transfer full): alerts with every area off; free with
 *   gst_cl_exposure_alert_free()
 */
GstClExposureAlert *
gst_cl_exposure_alert_new (void)
{
  GstClExposureAlert *alert = g_new0 (GstClExposureAlert, 1);

  alert->areas = g_array_new (FALSE, TRUE, sizeof (AreaState));
  return alert;
}

void
gst_cl_exposure_alert_free (GstClExposureAlert *alert)
{
  if (!alert)
    return;
  g_array_unref (alert->areas);
  g_free (alert);
}

/**
 * gst_cl_exposure_alert_reset:
 * @alert: alerts
 *
 * Forgets every area's state, reporting nothing: for a stream that
 * stopped.
 */
void
gst_cl_exposure_alert_reset (GstClExposureAlert *alert)
{
  alert->started = FALSE;
  g_array_set_size (alert->areas, 0);
}

/**
 * gst_cl_exposure_events_init:
 * @events: (out caller-allocates): events to fill
 */
void
gst_cl_exposure_events_init (GstClExposureEvents *events)
{
  guint k;

  for (k = 0; k < GST_CL_EXPOSURE_N_KINDS; k++) {
    events->started[k] = g_array_new (FALSE, FALSE,
        sizeof (GstClExposureArea));
    events->cleared[k] = g_array_new (FALSE, FALSE,
        sizeof (GstClExposureArea));
  }
}

void
gst_cl_exposure_events_clear (GstClExposureEvents *events)
{
  guint k;

  for (k = 0; k < GST_CL_EXPOSURE_N_KINDS; k++) {
    g_clear_pointer (&events->started[k], g_array_unref);
    g_clear_pointer (&events->cleared[k], g_array_unref);
  }
}

static void
add_event (GArray *list, const AreaState *area, guint k)
{
  const GstClExposureArea event = { area->id, area->percent[k] };

  g_array_append_val (list, event);
}

/* Whether the frame's areas are those @alert watches. */
static gboolean
same_areas (const GstClExposureAlert *alert, guint64 layout,
    const gint *ids, guint n_areas)
{
  guint a;

  if (!alert->started || alert->layout != layout
      || alert->areas->len != n_areas)
    return FALSE;
  for (a = 0; a < n_areas; a++)
    if (g_array_index (alert->areas, AreaState, a).id != ids[a])
      return FALSE;
  return TRUE;
}

/* New areas: those that were on are cleared, as their ids may now name
 * other rectangles. */
static void
replace_areas (GstClExposureAlert *alert, guint64 layout, const gint *ids,
    guint n_areas, GstClExposureEvents *events)
{
  guint a, k;

  for (a = 0; a < alert->areas->len; a++) {
    const AreaState *area = &g_array_index (alert->areas, AreaState, a);

    for (k = 0; k < GST_CL_EXPOSURE_N_KINDS; k++)
      if (area->active[k])
        add_event (events->cleared[k], area, k);
  }
  g_array_set_size (alert->areas, 0);
  g_array_set_size (alert->areas, n_areas);
  for (a = 0; a < n_areas; a++)
    g_array_index (alert->areas, AreaState, a).id = ids[a];
  alert->layout = layout;
  alert->started = TRUE;
}

/* Moves one area's alert of kind @k on a frame where its share is
 * @percent; TRUE if it changed. */
static gboolean
step (AreaState *area, guint k, const GstClExposureLimits *limits,
    guint64 t, gdouble percent)
{
  const gdouble threshold = limits->threshold[k];
  gboolean change;
  guint64 since;

  area->percent[k] = percent;
  change = area->active[k] ?
      percent < threshold - limits->hysteresis || percent <= 0.0 :
      percent >= threshold;
  if (!change) {
    area->pending[k] = FALSE;
    return FALSE;
  }
  /* Running time that goes back (a new segment) starts the hold again. */
  if (!area->pending[k] || area->since[k] == NO_TIME
      || (t != NO_TIME && t < area->since[k]))
    area->since[k] = t;
  area->pending[k] = TRUE;
  since = area->since[k];
  if (limits->hold > 0 && (t == NO_TIME || since == NO_TIME
          || t - since < limits->hold))
    return FALSE;
  area->active[k] = !area->active[k];
  area->pending[k] = FALSE;
  return TRUE;
}

/**
 * gst_cl_exposure_alert_update:
 * @alert: alerts
 * @limits: the thresholds, hysteresis and hold now
 * @layout: what the areas' ids mean (the grid of zones, whether the frame
 *   is counted): when it changes, every alert on is cleared and the areas
 *   start again
 * @running_time: the frame's running time, ns, or G_MAXUINT64 (unknown:
 *   the hold then never passes, but a hold of 0 still acts)
 * @ids: (array length=n_areas) (nullable): each area's id (%NULL for
 *   none)
 * @percent: (array) (nullable): each kind's share of each area, in
 *   percent of its samples: kind k of area a at `k * n_areas + a`
 * @n_areas: how many areas the frame has
 * @events: (inout): emptied, then given the alerts that started and
 *   cleared on this frame
 *
 * Takes one frame. A kind whose threshold is 0 is off: its alerts that
 * were on are cleared.
 *
 * Returns: whether any alert started or cleared
 */
gboolean
gst_cl_exposure_alert_update (GstClExposureAlert *alert,
    const GstClExposureLimits *limits, guint64 layout, guint64 running_time,
    const gint *ids, const gdouble *percent, guint n_areas,
    GstClExposureEvents *events)
{
  gboolean any = FALSE;
  guint a, k;

  for (k = 0; k < GST_CL_EXPOSURE_N_KINDS; k++) {
    g_array_set_size (events->started[k], 0);
    g_array_set_size (events->cleared[k], 0);
  }
  if (!same_areas (alert, layout, ids, n_areas))
    replace_areas (alert, layout, ids, n_areas, events);

  for (k = 0; k < GST_CL_EXPOSURE_N_KINDS; k++) {
    const gboolean off = !(limits->threshold[k] > 0.0);

    for (a = 0; a < n_areas; a++) {
      AreaState *area = &g_array_index (alert->areas, AreaState, a);
      const gdouble share = percent[(gsize) k * n_areas + a];

      if (off) {
        area->percent[k] = share;
        area->pending[k] = FALSE;
        if (area->active[k]) {
          area->active[k] = FALSE;
          add_event (events->cleared[k], area, k);
        }
      } else if (step (area, k, limits, running_time, share)) {
        add_event (area->active[k] ? events->started[k] :
            events->cleared[k], area, k);
      }
    }
    any = any || events->started[k]->len > 0 || events->cleared[k]->len > 0;
  }
  return any;
}

/**
 * gst_cl_exposure_alert_active:
 * @alert: alerts
 * @kind: which
 * @ids: (element-type gint): given the id of every area whose alert of
 *   @kind is on, in the frame's order
 */
void
gst_cl_exposure_alert_active (const GstClExposureAlert *alert,
    GstClExposureKind kind, GArray *ids)
{
  guint a;

  for (a = 0; a < alert->areas->len; a++) {
    const AreaState *area = &g_array_index (alert->areas, AreaState, a);

    if (area->active[kind])
      g_array_append_val (ids, area->id);
  }
}
