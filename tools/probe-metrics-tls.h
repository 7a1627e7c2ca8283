/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The metrics server's TLS handshakes (--web-config's tls_server_config):
 * each started once its client speaks, a few at a time, its TLS version
 * and client certificate checked. */
#pragma once

#include <gio/gio.h>

#include "probe-web-config.h"

G_BEGIN_DECLS

typedef struct _ProbeMetricsTls ProbeMetricsTls;

/* At most this many handshakes under way at once, and this many from one
 * client address; the others wait their turn. */
#define PROBE_METRICS_TLS_MAX_HANDSHAKES 8
#define PROBE_METRICS_TLS_MAX_HANDSHAKES_PER_HOST 2

/* @tls: (nullable): the connection, its handshake done; NULL where it
 * failed, was refused or the server stops. */
typedef void (*ProbeMetricsTlsDone) (GTlsConnection *tls, gpointer data);

ProbeMetricsTls *probe_metrics_tls_new (const ProbeWebConfig *web,
    GCancellable *stopping);
void probe_metrics_tls_start (ProbeMetricsTls *t,
    GSocketConnection *connection, ProbeMetricsTlsDone done, gpointer data);
void probe_metrics_tls_free (ProbeMetricsTls *t);

G_END_DECLS
