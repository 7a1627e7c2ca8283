/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's values for Prometheus: each input's last `histogram`
 * message, its alerts and counters, served on /metrics in Prometheus'
 * text exposition format by a server on a thread of its own. */
#pragma once

#include <gst/gst.h>

#include "probe-web-config.h"

G_BEGIN_DECLS

typedef struct _ProbeMetrics ProbeMetrics;

/* The series one scrape gives at most: those beyond it in the text's
 * order are left out, and counted by clhistogram_metrics_series_dropped;
 * so the last families go first (the alerts, then the statistics), the
 * inputs' states and counters last. 50000 series are about 4 MB of text:
 * 16 colour cameras with 8x8 zones and 5 percentiles make about 33000. */
#define PROBE_METRICS_MAX_SERIES 50000
/* probe_metrics_set_max_regions(): every zone and region. */
#define PROBE_METRICS_ALL_REGIONS G_MAXUINT

ProbeMetrics *probe_metrics_new (const gchar *address, GError **error);
ProbeMetrics *probe_metrics_new_full (const gchar *address,
    ProbeWebConfig *web, GError **error);
gchar *probe_metrics_get_url (ProbeMetrics *m);
gboolean probe_metrics_parse_regions (const gchar *text, guint *max_regions,
    GError **error);
void probe_metrics_set_max_regions (ProbeMetrics *m, guint max_regions);
/* Internal, for tests: another cap than PROBE_METRICS_MAX_SERIES. */
void probe_metrics_set_max_series (ProbeMetrics *m, guint max_series);
void probe_metrics_add_input (ProbeMetrics *m, const gchar *input);
void probe_metrics_remove_input (ProbeMetrics *m, const gchar *input);
void probe_metrics_take_message (ProbeMetrics *m, const gchar *input,
    const GstStructure *s);
void probe_metrics_set_up (ProbeMetrics *m, const gchar *input,
    gboolean up);
void probe_metrics_set_ended (ProbeMetrics *m, const gchar *input);
void probe_metrics_set_alerts (ProbeMetrics *m, const gchar *input,
    gdouble clipped, gdouble crushed);
void probe_metrics_add_lost (ProbeMetrics *m, const gchar *input,
    guint64 dropped, guint64 late);
void probe_metrics_set_lines_dropped (ProbeMetrics *m, guint64 lines);
gchar *probe_metrics_render (ProbeMetrics *m);
void probe_metrics_free (ProbeMetrics *m);

/* The exposure alerts an input may have. */
#define PROBE_METRICS_N_ALERTS 2

/* What the monitor pages (probe-monitor-page.c) show of an input: a
 * copy, taken at once. */
typedef struct
{
  gchar *name;
  /* starting, up, down or ended, as clhistogram_input_state says. */
  const gchar *state;
  struct
  {
    /* clipped, crushed. */
    const gchar *name;
    /* On for the input (a threshold), and on now: for the frame or for
     * the zones listed (ascending by id; each its position, "top-left"
     * or "r0c4", where its message gives one, else its id). */
    gboolean on;
    gboolean active;
    GPtrArray *zones;
  } alerts[PROBE_METRICS_N_ALERTS];
  /* --monitor-pictures, microseconds; 0: none for the input. */
  gint64 picture_period_us;
  /* The last picture (a PNG; NULL: none yet), its size, when it was made
   * (g_get_real_time()) and how many were made; why they stopped. */
  GBytes *picture;
  guint picture_width;
  guint picture_height;
  gint64 picture_time;
  guint64 pictures;
  gchar *picture_error;
} ProbeMetricsView;

void probe_metrics_set_picture_period (ProbeMetrics *m, const gchar *input,
    gint64 period_us);
void probe_metrics_set_picture (ProbeMetrics *m, const gchar *input,
    GBytes *png, guint width, guint height);
void probe_metrics_set_picture_error (ProbeMetrics *m, const gchar *input,
    const gchar *reason);
gboolean probe_metrics_has_pictures (ProbeMetrics *m);
GPtrArray *probe_metrics_get_views (ProbeMetrics *m);
ProbeMetricsView *probe_metrics_get_view (ProbeMetrics *m,
    const gchar *input);
void probe_metrics_view_free (gpointer view);

G_END_DECLS
