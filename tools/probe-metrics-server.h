/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The HTTP server behind `--metrics`: libsoup 3's SoupServer on a thread
 * and GMainContext of its own, answering GET /metrics with what a
 * callback renders, over TLS and with basic authentication where
 * --web-config asks. */
#pragma once

#include <glib.h>

#include "probe-metrics-scrape.h"
#include "probe-web-config.h"

G_BEGIN_DECLS

typedef struct _ProbeMetricsServer ProbeMetricsServer;

/* The answer to a request for a page: a path the claim function took,
 * other than /metrics and /healthz. */
typedef struct
{
  guint status;
  /* Static text. */
  const gchar *content_type;
  /* (transfer full) (nullable): the body, sent as it is (not copied). */
  GBytes *body;
  /* With a 503: the seconds to come back after; 0: no Retry-After. */
  guint retry_after_s;
} ProbeMetricsPage;

/* Whether the server answers @path (URL-encoded, as requested) with a
 * page: asked from the request's headers, before its credentials are
 * checked, so it should tell by the path's form alone. On the server's
 * thread. */
typedef gboolean (*ProbeMetricsClaimFunc) (const gchar *path, gpointer data);
/* The page for a request of a path claimed, whose credentials were
 * taken; on the server's thread. */
typedef void (*ProbeMetricsPageFunc) (const gchar *path,
    ProbeMetricsPage *page, gpointer data);

/* How long after a failed accept (out of descriptors) the next is tried. */
#define PROBE_METRICS_SERVER_ACCEPT_RETRY_MS 100

ProbeMetricsServer *probe_metrics_server_start (const gchar *address,
    ProbeMetricsRenderFunc render, gpointer data, GError **error);
ProbeMetricsServer *probe_metrics_server_start_web (const gchar *address,
    ProbeWebConfig *web, ProbeMetricsRenderFunc render, gpointer data,
    GError **error);
/* Internal, for tests: other limits on connections than the defaults. */
ProbeMetricsServer *probe_metrics_server_start_with_limits (
    const gchar *address, ProbeMetricsRenderFunc render, gpointer data,
    guint max_connections, guint timeout_s, guint header_deadline_s,
    GError **error);
ProbeMetricsServer *probe_metrics_server_start_full (const gchar *address,
    ProbeWebConfig *web, ProbeMetricsRenderFunc render, gpointer data,
    guint max_connections, guint timeout_s, guint header_deadline_s,
    GError **error);
const gchar *probe_metrics_server_get_url (ProbeMetricsServer *server);
void probe_metrics_server_set_pages (ProbeMetricsServer *server,
    ProbeMetricsClaimFunc claim, ProbeMetricsPageFunc page, gpointer data);

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
  /* Requests answered by the pages (probe_metrics_server_set_pages()). */
  guint64 pages;
  /* TLS handshakes done and handed to libsoup, and those that failed or
   * were refused (an older TLS than min_version, no client certificate
   * where one is required). */
  guint64 tls_handshakes;
  guint64 tls_failures;
  /* Requests let through by their password (checked before, or by a
   * check), answered 401 (none, malformed or wrong), answered 429 (too
   * many checks under way), and the bcrypt checks started. */
  guint64 auth_granted;
  guint64 auth_denied;
  guint64 auth_busy;
  guint64 auth_checks;
} ProbeMetricsServerStats;

void probe_metrics_server_get_stats (ProbeMetricsServer *server,
    ProbeMetricsServerStats *stats);
void probe_metrics_server_stop (ProbeMetricsServer *server);

G_END_DECLS
