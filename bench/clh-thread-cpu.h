/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The process's CPU time by thread name (clh-thread-cpu.c), for the
 * benchmarks' "where the host time goes". Linux only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GHashTable *clh_thread_cpu_snapshot (void);
GHashTable *clh_thread_cpu_by_name (GHashTable *before, GHashTable *after);
gchar *clh_thread_cpu_format (GHashTable *by_name, gdouble per);

G_END_DECLS
