/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's values for Prometheus: each input's last `histogram`
 * message, its alerts and counters, served on /metrics in Prometheus'
 * text exposition format by a server on a thread of its own. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _ProbeMetrics ProbeMetrics;

ProbeMetrics *probe_metrics_new (const gchar *address, GError **error);
gchar *probe_metrics_get_url (ProbeMetrics *m);
void probe_metrics_add_input (ProbeMetrics *m, const gchar *input);
void probe_metrics_take_message (ProbeMetrics *m, const gchar *input,
    const GstStructure *s);
void probe_metrics_set_up (ProbeMetrics *m, const gchar *input,
    gboolean up);
void probe_metrics_set_ended (ProbeMetrics *m, const gchar *input);
gchar *probe_metrics_render (ProbeMetrics *m);
void probe_metrics_free (ProbeMetrics *m);

G_END_DECLS
