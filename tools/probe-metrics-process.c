/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's own families on /metrics: clhistogram_build_info, whose
 * labels say what runs (the probe's version, the GStreamer and GLib it
 * runs on), and the process_* families Prometheus' client libraries give
 * every process (client_golang's process collector: the same names,
 * types and units), read from /proc/self on Linux and left out elsewhere,
 * as client_golang leaves them out where there is no procfs. Outside the
 * series cap (a handful of series). */
#include "probe-metrics-process.h"

#include <math.h>
#include <string.h>
#include <gst/gst.h>

#ifdef __linux__
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <glib/gstdio.h>
#endif

/* /proc/self/stat is one line of 52 fields, under 1 kB; /proc/stat a
 * line per CPU and per interrupt source before btime, which 1 MiB holds
 * on machines of hundreds of CPUs. */
#define MAX_STAT_BYTES 4096
#define MAX_PROC_STAT_BYTES (1024 * 1024)

/* A label value escaped as the exposition format says. */
static void
append_label (GString *out, const gchar *name, const gchar *value)
{
  const gchar *c;

  g_string_append_printf (out, "%s=\"", name);
  for (c = value; *c; c++)
    if (*c == '\\' || *c == '"')
      g_string_append_printf (out, "\\%c", *c);
    else if (*c == '\n')
      g_string_append (out, "\\n");
    else
      g_string_append_c (out, *c);
  g_string_append_c (out, '"');
}

static void
append_family (GString *out, const gchar *name, const gchar *type,
    const gchar *help)
{
  g_string_append_printf (out, "# HELP %s %s\n# TYPE %s %s\n", name, help,
      name, type);
}

/* The shortest decimal form that reads back as @v. */
static void
append_value (GString *out, const gchar *name, gdouble v)
{
  static const gchar *const formats[] = { "%.15g", "%.16g", "%.17g" };
  gchar text[G_ASCII_DTOSTR_BUF_SIZE];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    g_ascii_formatd (text, sizeof text, formats[i], v);
    if (g_ascii_strtod (text, NULL) == v)
      break;
  }
  g_string_append_printf (out, "%s %s\n", name, isinf (v) ? "+Inf" : text);
}

static void
append_build_info (GString *out)
{
  guint major, minor, micro, nano;
  gchar *gst, *glib;

  gst_version (&major, &minor, &micro, &nano);
  gst = nano ? g_strdup_printf ("%u.%u.%u.%u", major, minor, micro, nano) :
      g_strdup_printf ("%u.%u.%u", major, minor, micro);
  glib = g_strdup_printf ("%u.%u.%u", glib_major_version, glib_minor_version,
      glib_micro_version);
  append_family (out, "clhistogram_build_info", "gauge", "1, labelled with "
      "the probe's version and the GStreamer and GLib it runs on");
  g_string_append (out, "clhistogram_build_info{");
  append_label (out, "version", PROBE_VERSION);
  g_string_append_c (out, ',');
  append_label (out, "gstreamer", gst);
  g_string_append_c (out, ',');
  append_label (out, "glib", glib);
  g_string_append (out, "} 1\n");
  g_free (gst);
  g_free (glib);
}

#ifdef __linux__
/* @path's first @max bytes at most, NUL-terminated; NULL if unreadable. */
static gchar *
read_proc (const gchar *path, gsize max)
{
  gint fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  gchar *text;
  gsize length = 0;
  gssize n = 1;

  if (fd < 0)
    return NULL;
  text = g_malloc (max + 1);
  while (n > 0 && length < max) {
    n = read (fd, text + length, max - length);
    if (n > 0)
      length += n;
  }
  close (fd);
  if (n < 0) {
    g_free (text);
    return NULL;
  }
  text[length] = '\0';
  return text;
}

/* /proc/self/stat's fields from the state on (field 3, proc(5)), the
 * command's name, which may hold spaces and parentheses, skipped. */
static gchar **
stat_fields (void)
{
  gchar *text = read_proc ("/proc/self/stat", MAX_STAT_BYTES);
  gchar *end = text ? strrchr (text, ')') : NULL;
  gchar **fields = end ? g_strsplit (g_strstrip (end + 1), " ", -1) : NULL;

  g_free (text);
  return fields;
}

static gboolean
field_number (gchar **fields, guint field, guint64 *value)
{
  /* Field N of proc(5) is fields[N - 3]. */
  guint i;

  for (i = 0; fields[i] && i < field - 3; i++);
  return i == field - 3 && fields[i]
      && g_ascii_string_to_unsigned (fields[i], 10, 0, G_MAXUINT64, value,
      NULL);
}

/* The machine's boot, Unix time (btime of /proc/stat). */
static gboolean
boot_time (guint64 *seconds)
{
  gchar *text = read_proc ("/proc/stat", MAX_PROC_STAT_BYTES);
  gchar *line = text ? strstr (text, "\nbtime ") : NULL;
  gboolean ok = FALSE;

  if (line) {
    gchar *end = strchr (line + 7, '\n');

    if (end)
      *end = '\0';
    ok = g_ascii_string_to_unsigned (line + 7, 10, 0, G_MAXUINT64, seconds,
        NULL);
  }
  g_free (text);
  return ok;
}

/* When the process started, Unix time: read once, as it never changes;
 * a negative value where it cannot be read. */
static gdouble
start_time (gchar **fields)
{
  static gsize once = 0;
  static gdouble start = -1.0;

  if (g_once_init_enter (&once)) {
    guint64 ticks, boot;

    if (field_number (fields, 22, &ticks) && boot_time (&boot))
      start = boot + (gdouble) ticks / sysconf (_SC_CLK_TCK);
    g_once_init_leave (&once, 1);
  }
  return start;
}

/* The descriptors open, this count's own among them. */
static gint
open_fds (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  gint n = 0;

  if (!dir)
    return -1;
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

static void
append_process (GString *out)
{
  gchar **fields = stat_fields ();
  guint64 utime, stime, vsize, rss;
  struct rlimit limit;
  gdouble start;
  gint fds = open_fds ();

  if (fields && field_number (fields, 14, &utime)
      && field_number (fields, 15, &stime)) {
    append_family (out, "process_cpu_seconds_total", "counter",
        "Total user and system CPU time spent in seconds.");
    append_value (out, "process_cpu_seconds_total",
        (gdouble) (utime + stime) / sysconf (_SC_CLK_TCK));
  }
  if (fds >= 0) {
    append_family (out, "process_open_fds", "gauge",
        "Number of open file descriptors.");
    append_value (out, "process_open_fds", fds);
  }
  if (getrlimit (RLIMIT_NOFILE, &limit) == 0) {
    append_family (out, "process_max_fds", "gauge",
        "Maximum number of open file descriptors.");
    append_value (out, "process_max_fds", limit.rlim_cur == RLIM_INFINITY ?
        INFINITY : (gdouble) limit.rlim_cur);
  }
  if (fields && field_number (fields, 23, &vsize)) {
    append_family (out, "process_virtual_memory_bytes", "gauge",
        "Virtual memory size in bytes.");
    append_value (out, "process_virtual_memory_bytes", vsize);
  }
  if (fields && field_number (fields, 24, &rss)) {
    append_family (out, "process_resident_memory_bytes", "gauge",
        "Resident memory size in bytes.");
    append_value (out, "process_resident_memory_bytes",
        (gdouble) rss * sysconf (_SC_PAGESIZE));
  }
  start = fields ? start_time (fields) : -1.0;
  if (start >= 0) {
    append_family (out, "process_start_time_seconds", "gauge",
        "Start time of the process since unix epoch in seconds.");
    append_value (out, "process_start_time_seconds", start);
  }
  g_strfreev (fields);
}
#endif

/**
 * probe_metrics_process_append:
 * @out: the render, to which the families are appended
 *
 * Appends clhistogram_build_info and, on Linux, process_cpu_seconds_total,
 * process_open_fds, process_max_fds, process_virtual_memory_bytes,
 * process_resident_memory_bytes and process_start_time_seconds, in the
 * text exposition format 0.0.4; a family whose /proc file cannot be read
 * is left out. Any thread.
 */
void
probe_metrics_process_append (GString *out)
{
  append_build_info (out);
#ifdef __linux__
  append_process (out);
#endif
}
