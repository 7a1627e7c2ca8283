/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The families about the probe itself on /metrics: its build
 * (clhistogram_build_info) and its process (process_*, as Prometheus'
 * client libraries name them). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void probe_metrics_process_append (GString *out);

G_END_DECLS
