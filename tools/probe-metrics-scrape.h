/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The renders of /metrics, as plain text and, made once on demand, gzip:
 * one shared by the clients that ask while many are held by slow
 * readers, so that memory does not grow with the number of clients. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The exposition text, rendered on the server's thread for each scrape;
 * a new string, freed by the server. */
typedef gchar *(*ProbeMetricsRenderFunc) (gpointer data);

typedef struct _ProbeMetricsScrape ProbeMetricsScrape;
typedef struct _ProbeMetricsScrapes ProbeMetricsScrapes;

ProbeMetricsScrapes *probe_metrics_scrapes_new (ProbeMetricsRenderFunc render,
    gpointer data, gint64 max_age_us);
ProbeMetricsScrape *probe_metrics_scrapes_get (ProbeMetricsScrapes *scrapes,
    gboolean *rendered);
void probe_metrics_scrapes_free (ProbeMetricsScrapes *scrapes);

GBytes *probe_metrics_scrape_get_text (ProbeMetricsScrape *scrape);
GBytes *probe_metrics_scrape_get_gzip (ProbeMetricsScrape *scrape,
    gboolean *compressed);
void probe_metrics_scrape_release (gpointer scrape);

G_END_DECLS
