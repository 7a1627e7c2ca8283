/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Each thread's CPU time, from /proc/self/task/TID: the scheduler's
 * nanoseconds on a CPU (schedstat, proc(5)) where the kernel keeps them,
 * else user + system clock ticks (stat, fields 14 and 15). Threads are
 * grouped by name without digits ("appsrc12:src" and "appsrc3:src" are
 * "appsrc:src"). A thread that ended between two snapshots is missing from
 * the second: benchmarks take it while their pipelines still run. */
#include "clh-thread-cpu.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  gchar *name;
  gdouble us;
} ThreadCpu;

static void
thread_cpu_free (ThreadCpu *t)
{
  g_free (t->name);
  g_free (t);
}

/* The thread's CPU time, us; < 0 if unreadable. */
static gdouble
read_us (const gchar *dir)
{
  g_autofree gchar *path = g_build_filename (dir, "schedstat", NULL);
  g_autofree gchar *text = NULL;
  const gchar *fields;
  gchar **parts;
  gdouble us = -1;

  if (g_file_get_contents (path, &text, NULL, NULL)
      && g_ascii_strtoull (text, NULL, 10) > 0)
    return g_ascii_strtoull (text, NULL, 10) / 1e3;
  g_free (path);
  g_clear_pointer (&text, g_free);
  path = g_build_filename (dir, "stat", NULL);
  /* The name in brackets may hold spaces: fields count after its ')'. */
  if (!g_file_get_contents (path, &text, NULL, NULL)
      || !(fields = strrchr (text, ')')))
    return -1;
  parts = g_strsplit (fields + 2, " ", 0);
  if (g_strv_length (parts) > 12)
    us = (g_ascii_strtoull (parts[11], NULL, 10)
        + g_ascii_strtoull (parts[12], NULL, 10)) * 1e6
        / sysconf (_SC_CLK_TCK);
  g_strfreev (parts);
  return us;
}

/* The thread's name, digits and the newline dropped. */
static gchar *
read_name (const gchar *dir)
{
  g_autofree gchar *path = g_build_filename (dir, "comm", NULL);
  g_autofree gchar *text = NULL;
  GString *name = g_string_new (NULL);
  const gchar *c;

  if (g_file_get_contents (path, &text, NULL, NULL))
    for (c = text; *c && *c != '\n'; c++)
      if (!g_ascii_isdigit (*c))
        g_string_append_c (name, *c);
  return g_string_free (name, FALSE);
}

/**
 * clh_thread_cpu_snapshot:
 *
 * Returns: (transfer full): thread id (a string) to its name and CPU time
 *   so far
 */
GHashTable *
clh_thread_cpu_snapshot (void)
{
  GHashTable *snap = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) thread_cpu_free);
  GDir *tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar *tid;

  while (tasks && (tid = g_dir_read_name (tasks))) {
    g_autofree gchar *dir = g_build_filename ("/proc/self/task", tid, NULL);
    ThreadCpu *t = g_new0 (ThreadCpu, 1);

    t->us = read_us (dir);
    t->name = read_name (dir);
    if (t->us < 0)
      thread_cpu_free (t);
    else
      g_hash_table_insert (snap, g_strdup (tid), t);
  }
  if (tasks)
    g_dir_close (tasks);
  return snap;
}

/**
 * clh_thread_cpu_by_name:
 * @before: a snapshot
 * @after: a later one
 *
 * Returns: (transfer full): each thread name's CPU time between the two,
 *   us (a gdouble pointer per name)
 */
GHashTable *
clh_thread_cpu_by_name (GHashTable *before, GHashTable *after)
{
  GHashTable *by_name = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  GHashTableIter it;
  gpointer tid, value;

  g_hash_table_iter_init (&it, after);
  while (g_hash_table_iter_next (&it, &tid, &value)) {
    const ThreadCpu *t = value, *t0 = g_hash_table_lookup (before, tid);
    gdouble *sum = g_hash_table_lookup (by_name, t->name);

    if (!sum) {
      sum = g_new0 (gdouble, 1);
      g_hash_table_insert (by_name, g_strdup (t->name), sum);
    }
    /* A thread id reused by a new thread of another name starts at 0. */
    *sum += t->us - (t0 && g_str_equal (t0->name, t->name) ? t0->us : 0);
  }
  return by_name;
}

static gint
by_time (gconstpointer a, gconstpointer b, gpointer data)
{
  GHashTable *by_name = data;
  const gdouble x = *(gdouble *) g_hash_table_lookup (by_name,
      *(const gchar **) a);
  const gdouble y = *(gdouble *) g_hash_table_lookup (by_name,
      *(const gchar **) b);

  return x < y ? 1 : x > y ? -1 : 0;
}

/**
 * clh_thread_cpu_format:
 * @by_name: from clh_thread_cpu_by_name()
 * @per: what to divide by (frames)
 *
 * Returns: (transfer full): "name time, ..." by decreasing time, each
 *   time divided by @per, those under 0.5 left out
 */
gchar *
clh_thread_cpu_format (GHashTable *by_name, gdouble per)
{
  guint n, i;
  gpointer *names = g_hash_table_get_keys_as_array (by_name, &n);
  GString *s = g_string_new (NULL);

  /* GLib 2.82 (Debian 13) deprecates g_qsort_with_data() for
   * g_sort_array(), which Debian 12's 2.74 lacks. */
#if GLIB_CHECK_VERSION (2, 82, 0)
  g_sort_array (names, n, sizeof (gpointer), by_time, by_name);
#else
  g_qsort_with_data (names, n, sizeof (gpointer), by_time, by_name);
#endif
  for (i = 0; i < n; i++) {
    const gdouble v = *(gdouble *) g_hash_table_lookup (by_name,
        names[i]) / per;

    if (v >= 0.5)
      g_string_append_printf (s, "%s%s %.1f", s->len ? ", " : "",
          (const gchar *) names[i], v);
  }
  g_free (names);
  return g_string_free (s, FALSE);
}
