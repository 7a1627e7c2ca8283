/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Exposure alerts: when the clipped (or crushed) share of the frame or of
 * a zone crosses a threshold, with hysteresis and a minimum duration; one
 * event when an alert starts and one when it clears. Plain GLib: the
 * element feeds it each frame's shares and turns its events into
 * `exposure` messages. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The area id of the full frame; zones are their ids, 0 and up. */
#define GST_CL_EXPOSURE_FRAME (-1)

/**
 * GstClExposureKind:
 * @GST_CL_EXPOSURE_CLIPPED: samples at or above the clip-high level
 * @GST_CL_EXPOSURE_CRUSHED: samples at or below the clip-low level
 *
 * What an alert watches.
 */
typedef enum {
  GST_CL_EXPOSURE_CLIPPED,
  GST_CL_EXPOSURE_CRUSHED,
} GstClExposureKind;

#define GST_CL_EXPOSURE_N_KINDS 2

/**
 * GstClExposureLimits:
 * @threshold: for each kind, the share of an area's samples (percent)
 *   at or above which its alert starts; 0: that kind is off
 * @hysteresis: percentage points under the threshold the share must fall
 *   below for the alert to clear (a share of 0 always clears)
 * @hold: running time (ns) a condition must last, frame after frame,
 *   before the alert starts or clears: a flap shorter than this changes
 *   nothing
 */
typedef struct {
  gdouble threshold[GST_CL_EXPOSURE_N_KINDS];
  gdouble hysteresis;
  guint64 hold;
} GstClExposureLimits;

/**
 * GstClExposureArea:
 * @id: %GST_CL_EXPOSURE_FRAME or a zone's id
 * @percent: its share, percent of its samples, on the frame that decided
 *   (for an area the layout no longer has: on the last frame it had)
 */
typedef struct {
  gint id;
  gdouble percent;
} GstClExposureArea;

/**
 * GstClExposureEvents:
 * @started: for each kind, the areas (GstClExposureArea) whose alert
 *   started on this frame, in the order of the frame's areas
 * @cleared: for each kind, those whose alert cleared
 *
 * What one frame changed.
 */
typedef struct {
  GArray *started[GST_CL_EXPOSURE_N_KINDS];
  GArray *cleared[GST_CL_EXPOSURE_N_KINDS];
} GstClExposureEvents;

typedef struct _GstClExposureAlert GstClExposureAlert;

GstClExposureAlert *gst_cl_exposure_alert_new (void);
void gst_cl_exposure_alert_free (GstClExposureAlert *alert);
void gst_cl_exposure_alert_reset (GstClExposureAlert *alert);
gboolean gst_cl_exposure_alert_update (GstClExposureAlert *alert,
    const GstClExposureLimits *limits, guint64 layout, guint64 running_time,
    const gint *ids, const gdouble *percent, guint n_areas,
    GstClExposureEvents *events);
void gst_cl_exposure_alert_active (const GstClExposureAlert *alert,
    GstClExposureKind kind, GArray *ids);

void gst_cl_exposure_events_init (GstClExposureEvents *events);
void gst_cl_exposure_events_clear (GstClExposureEvents *events);

G_END_DECLS
