/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The HTTP server behind `--metrics`: libsoup 3's SoupServer on a thread
 * and GMainContext of its own, answering GET /metrics with what a
 * callback renders. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ProbeMetricsServer ProbeMetricsServer;

/* The exposition text, rendered on the server's thread for each scrape;
 * a new string, freed by the server. */
typedef gchar *(*ProbeMetricsRenderFunc) (gpointer data);

ProbeMetricsServer *probe_metrics_server_start (const gchar *address,
    ProbeMetricsRenderFunc render, gpointer data, GError **error);
/* Internal, for tests: other limits on connections than the defaults. */
ProbeMetricsServer *probe_metrics_server_start_with_limits (
    const gchar *address, ProbeMetricsRenderFunc render, gpointer data,
    guint max_connections, guint timeout_s, GError **error);
const gchar *probe_metrics_server_get_url (ProbeMetricsServer *server);
void probe_metrics_server_stop (ProbeMetricsServer *server);

G_END_DECLS
