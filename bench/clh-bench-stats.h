/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the benchmarks share: a monotonic clock with sub-microsecond
 * resolution (g_get_monotonic_time() rounds to whole microseconds, as long
 * as some of the times measured), the process's CPU time, nearest-rank
 * percentiles and JSON strings. */
#pragma once

#include <glib.h>
#include <time.h>
#include <sys/resource.h>

static inline gdouble
clh_bench_now_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The process's CPU time, user + system, all threads. */
static inline gdouble
clh_bench_cpu_us (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6
      + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

static inline gint
clh_bench_cmp_double (gconstpointer a, gconstpointer b)
{
  const gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* The @p-th percentile (nearest rank) of @values, which it sorts; 0 if
 * there are none. */
static inline gdouble
clh_bench_percentile (GArray *values, guint p)
{
  if (values->len == 0)
    return 0;
  g_array_sort (values, clh_bench_cmp_double);
  return g_array_index (values, gdouble,
      MIN (values->len - 1, values->len * p / 100));
}

/* @s as a JSON string, escaped; null for NULL. */
static inline void
clh_bench_json_string (GString *json, const gchar *s)
{
  const gchar *p;

  if (!s) {
    g_string_append (json, "null");
    return;
  }
  g_string_append_c (json, '"');
  for (p = s; *p; p++) {
    if (*p == '"' || *p == '\\')
      g_string_append_printf (json, "\\%c", *p);
    else if ((guchar) *p < 0x20)
      g_string_append_printf (json, "\\u%04x", (guchar) *p);
    else
      g_string_append_c (json, *p);
  }
  g_string_append_c (json, '"');
}
