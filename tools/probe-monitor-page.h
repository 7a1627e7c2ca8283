/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The monitor pages of --monitor-pictures, beside /metrics: each input's
 * last monitor picture, /inputs/NAME/monitor.png, and an index of the
 * inputs, /, with their states, alerts and pictures. */
#pragma once

#include <glib.h>

#include "probe-metrics.h"
#include "probe-metrics-server.h"

G_BEGIN_DECLS

gboolean probe_monitor_page_claims (const gchar *path);
void probe_monitor_page_answer (ProbeMetrics *m, const gchar *path,
    ProbeMetricsPage *page);
gchar *probe_monitor_page_input_of (const gchar *path);
gchar *probe_monitor_page_index (GPtrArray *views, gint64 now_us);

G_END_DECLS
