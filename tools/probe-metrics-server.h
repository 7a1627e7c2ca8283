/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The HTTP server behind `--metrics`: libsoup 3's SoupServer on a thread
 * and GMainContext of its own, answering GET /metrics with what a
 * callback renders. */
#pragma once

#include <glib.h>

#include "probe-metrics-scrape.h"

G_BEGIN_DECLS

typedef struct _ProbeMetricsServer ProbeMetricsServer;

/* How long after a failed accept (out of descriptors) the next is tried. */
#define PROBE_METRICS_SERVER_ACCEPT_RETRY_MS 100

ProbeMetricsServer *probe_metrics_server_start (const gchar *address,
    ProbeMetricsRenderFunc render, gpointer data, GError **error);
/* Internal, for tests: other limits on connections than the defaults. */
ProbeMetricsServer *probe_metrics_server_start_with_limits (
    const gchar *address, ProbeMetricsRenderFunc render, gpointer data,
    guint max_connections, guint timeout_s, guint header_deadline_s,
    GError **error);
const gchar *probe_metrics_server_get_url (ProbeMetricsServer *server);

/* What the server did with its connections since it started. */
typedef struct
{
  /* Handed to libsoup, and of those still open. */
  guint64 accepted;
  guint open;
  /* Closed as soon as accepted: the connections cap was reached, and
   * every connection was past its request. */
  guint64 refused;
  /* Answered 408 and shut down to make room for a newer connection: the
   * cap was reached, and they were the oldest still sending their
   * request line and headers. */
  guint64 evicted;
  /* Shut down by the lifetime limit (three timeouts after accepted). */
  guint64 lifetimes_ended;
  /* Accepts that failed (out of descriptors), each retried later. */
  guint64 accept_failures;
  /* Shut down because their request line and headers were not whole by
   * the header deadline. */
  guint64 header_deadlines;
  /* Requests answered with the metrics (GET or HEAD /metrics), the
   * renders made for them (fewer: one serves those asking together),
   * and the gzip compressions of those renders. */
  guint64 scrapes;
  guint64 renders;
  guint64 compressions;
} ProbeMetricsServerStats;

void probe_metrics_server_get_stats (ProbeMetricsServer *server,
    ProbeMetricsServerStats *stats);
void probe_metrics_server_stop (ProbeMetricsServer *server);

G_END_DECLS
