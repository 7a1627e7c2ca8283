/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram-probe's metrics (tools/probe-metrics.c): the exposition text
 * read back by a parser of the format written here (every family's HELP
 * and TYPE, label escaping, a zone and a region, a zone's place (row,
 * column, position) on its statistics and alerts, the quantiles' labels,
 * the alerts on and their thresholds, the input's states and counters);
 * each value against the message it came from, for messages made here
 * and for those of a real clhistogram; the frames lost (probe-losses.c):
 * QoS messages' counts and durations, and late samples of a real
 * pipeline against its clock; a scrape during a stream of
 * messages sees one message's values; the HTTP server (status, content
 * type, methods, paths), what it does to untrusted clients (a body never
 * read, half-sent requests timed out or cut by the header deadline,
 * connections over the cap closed, one render shared by slow readers,
 * gzip) and the addresses it refuses, with their words; the monitor
 * pages of --monitor-pictures (probe-monitor-page.c): the index's
 * escaping, states and alerts, each picture's answers (the bytes given,
 * 503 before the first, 404 for a name that is no input's or an input
 * without pictures, none while no input has them), and one picture
 * shared by slow readers. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <gst/gst.h>
#include <libsoup/soup.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include "probe-losses.h"
#include "probe-metrics.h"
#include "probe-metrics-server.h"
#include "probe-monitor-page.h"
#include "clh-test-timeout.h"

/* When main() began, Unix time: after the process started. */
static gdouble test_started;

static const gchar *const family_types[][2] = {
  {"clhistogram_input_state", "gauge"},
  {"clhistogram_input_up", "gauge"},
  {"clhistogram_input_outages_total", "counter"},
  {"clhistogram_input_retries_total", "counter"},
  {"clhistogram_input_reconnects_total", "counter"},
  {"clhistogram_frames_total", "counter"},
  {"clhistogram_frames_dropped_total", "counter"},
  {"clhistogram_frames_late_total", "counter"},
  {"clhistogram_messages_total", "counter"},
  {"clhistogram_last_timestamp_seconds", "gauge"},
  {"clhistogram_alert_threshold_ratio", "gauge"},
  {"clhistogram_mean", "gauge"},
  {"clhistogram_min", "gauge"},
  {"clhistogram_max", "gauge"},
  {"clhistogram_quantile", "gauge"},
  {"clhistogram_clipped_high_ratio", "gauge"},
  {"clhistogram_clipped_low_ratio", "gauge"},
  {"clhistogram_metering_ratio", "gauge"},
  {"clhistogram_alert_active", "gauge"},
  {"clhistogram_metrics_series_dropped", "gauge"},
  {"clhistogram_output_lines_dropped_total", "counter"},
  /* The probe's own (probe-metrics-process.c), Linux's /proc read. */
  {"clhistogram_build_info", "gauge"},
  {"process_cpu_seconds_total", "counter"},
  {"process_open_fds", "gauge"},
  {"process_max_fds", "gauge"},
  {"process_virtual_memory_bytes", "gauge"},
  {"process_resident_memory_bytes", "gauge"},
  {"process_start_time_seconds", "gauge"},
};

/* One sample of the text: its family, its labels unescaped, its value. */
typedef struct
{
  gchar *name;
  GHashTable *labels;
  gdouble value;
} Sample;

static void
sample_free (Sample *sample)
{
  g_free (sample->name);
  g_hash_table_unref (sample->labels);
  g_free (sample);
}

/* `name="value",...}` up to the closing brace, unescaping as the format
 * says (\\, \" and \n only); NULL where it is not well formed. */
static const gchar *
parse_labels (const gchar *p, GHashTable *labels)
{
  while (*p != '}') {
    const gchar *eq = strchr (p, '=');
    gchar *name;
    GString *value = g_string_new (NULL);

    if (!eq || eq[1] != '"') {
      g_string_free (value, TRUE);
      return NULL;
    }
    name = g_strndup (p, eq - p);
    for (p = eq + 2; *p && *p != '"'; p++) {
      if (*p == '\n') {
        p = "";
        break;
      }
      if (*p == '\\') {
        p++;
        if (*p == 'n')
          g_string_append_c (value, '\n');
        else if (*p == '\\' || *p == '"')
          g_string_append_c (value, *p);
        else {
          p = "";
          break;
        }
      } else {
        g_string_append_c (value, *p);
      }
    }
    if (*p != '"' || g_hash_table_contains (labels, name)) {
      g_free (name);
      g_string_free (value, TRUE);
      return NULL;
    }
    g_hash_table_insert (labels, name, g_string_free (value, FALSE));
    p++;
    if (*p == ',')
      p++;
    else if (*p != '}')
      return NULL;
  }
  return p + 1;
}

/* The text as Prometheus reads it, every line checked: HELP then TYPE of
 * each family in the design's order, then only that family's samples,
 * each with labels and a number. */
static GPtrArray *
parse_exposition (const gchar *text)
{
  GPtrArray *samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      sample_free);
  gchar **lines = g_strsplit (text, "\n", -1);
  guint i, family = 0;
  const gchar *current = NULL;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_true (g_str_has_suffix (text, "\n"));
  for (i = 0; lines[i] && lines[i + 1]; i++) {
    const gchar *line = lines[i];

    if (g_str_has_prefix (line, "# HELP ")) {
      g_assert_cmpuint (family, <, G_N_ELEMENTS (family_types));
      current = family_types[family][0];
      g_assert_true (g_str_has_prefix (line + 7, current));
      g_assert_cmpint (line[7 + strlen (current)], ==, ' ');
      g_assert_cmpuint (strlen (line + 8 + strlen (current)), >, 10);
    } else if (g_str_has_prefix (line, "# TYPE ")) {
      gchar *expected = g_strdup_printf ("# TYPE %s %s", current,
          family_types[family][1]);

      g_assert_cmpstr (line, ==, expected);
      g_free (expected);
      family++;
    } else {
      Sample *sample = g_new0 (Sample, 1);
      const gchar *brace = strchr (line, '{'), *space = strchr (line, ' ');
      const gchar *rest;
      gchar *end;

      /* Only the probe's own series have no labels. */
      g_assert_nonnull (space);
      if (!brace || brace > space)
        g_assert_true (g_str_equal (current,
                "clhistogram_metrics_series_dropped")
            || g_str_equal (current, "clhistogram_output_lines_dropped_total")
            || g_str_has_prefix (current, "process_"));
      sample->name = g_strndup (line, (brace && brace < space ? brace : space)
          - line);
      g_assert_cmpstr (sample->name, ==, current);
      sample->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
          g_free);
      rest = brace && brace < space ? parse_labels (brace + 1,
          sample->labels) : space;
      g_assert_nonnull (rest);
      g_assert_cmpint (*rest, ==, ' ');
      sample->value = g_ascii_strtod (rest + 1, &end);
      g_assert_cmpint (*end, ==, '\0');
      g_assert_true (end != rest + 1);
      g_ptr_array_add (samples, sample);
    }
  }
  g_assert_cmpuint (family, ==, G_N_ELEMENTS (family_types));
  g_strfreev (lines);
  return samples;
}

/* A sample's key: its family, then its labels sorted, unescaped. */
static gchar *
key_of (const gchar *name, GHashTable *labels)
{
  GList *names = g_list_sort (g_hash_table_get_keys (labels),
      (GCompareFunc) strcmp), *l;
  GString *key = g_string_new (name);

  for (l = names; l; l = l->next)
    g_string_append_printf (key, "|%s=%s", (gchar *) l->data,
        (gchar *) g_hash_table_lookup (labels, l->data));
  g_list_free (names);
  return g_string_free (key, FALSE);
}

/* The render as key -> value (a gdouble *), each key once. */
static GHashTable *
render_map (ProbeMetrics *m)
{
  gchar *text = probe_metrics_render (m);
  GPtrArray *samples = parse_exposition (text);
  GHashTable *map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  guint i;

  for (i = 0; i < samples->len; i++) {
    Sample *sample = g_ptr_array_index (samples, i);
    gchar *key = key_of (sample->name, sample->labels);

    g_assert_false (g_hash_table_contains (map, key));
    g_hash_table_insert (map, key, g_memdup2 (&sample->value,
            sizeof (gdouble)));
  }
  g_ptr_array_unref (samples);
  g_free (text);
  return map;
}

/* Key of family @name with the labels given as NULL-ended pairs. */
static gchar *
key (const gchar *name, ...)
{
  GHashTable *labels = g_hash_table_new (g_str_hash, g_str_equal);
  const gchar *label;
  gchar *k;
  va_list args;

  va_start (args, name);
  while ((label = va_arg (args, const gchar *)))
    g_hash_table_insert (labels, (gpointer) label, va_arg (args, gchar *));
  va_end (args);
  k = key_of (name, labels);
  g_hash_table_unref (labels);
  return k;
}

static void
assert_value (GHashTable *map, gchar *k, gdouble expected)
{
  const gdouble *v = g_hash_table_lookup (map, k);

  if (!v)
    g_error ("no sample %s", k);
  if (*v != expected)
    g_error ("%s is %.17g, not %.17g", k, *v, expected);
  g_free (k);
}

static void
assert_absent (GHashTable *map, gchar *k)
{
  if (g_hash_table_contains (map, k))
    g_error ("a sample %s that should not be", k);
  g_free (k);
}

/* How many samples of family @name the input has. */
static guint
count_family (GHashTable *map, const gchar *name, const gchar *input)
{
  GHashTableIter iter;
  gpointer k;
  gchar *prefix = g_strdup_printf ("%s|", name);
  gchar *input_label = g_strdup_printf ("|input=%s", input);
  guint n = 0;

  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &k, NULL))
    if (g_str_has_prefix (k, prefix) && strstr (k, input_label))
      n++;
  g_free (prefix);
  g_free (input_label);
  return n;
}

static ProbeMetrics *
metrics_new (void)
{
  GError *error = NULL;
  ProbeMetrics *m = probe_metrics_new ("127.0.0.1:0", &error);

  g_assert_no_error (error);
  g_assert_nonnull (m);
  return m;
}

static GstStructure *
structure (const gchar *text)
{
  GstStructure *s = gst_structure_from_string (text, NULL);

  g_assert_nonnull (s);
  return s;
}

/* A luma message of frames=3 (an interval), 200 samples, with two zones,
 * a fixed region and a ROI meta's region, as clhistogram posts them. */
static GstStructure *
luma_message (guint frames, gdouble mean)
{
  GstStructure *s = structure ("histogram, mode=(string)luma, "
      "channels=(string)< Y >, pixels=(guint64)200, samples=(guint64)< 200 >, "
      "min=(uint)< 1 >, max=(uint)< 250 >, mean=(double)< 0 >, "
      "percentiles=< < (uint)10, (uint)20, (uint)240 > >, "
      "percentile-points=(double)< 1.0, 50.0, 99.5 >, "
      "clipped-low=(guint64)< 50 >, clipped-high=(guint64)< 20 >, "
      "depth=(uint)8, metering=(double)108.4, "
      "metering-percent=(double)42.25");
  const gchar *regions[] = {
    "region, type=(string)zone, id=(int)0, samples=(guint64)< 100 >, "
        "min=(uint)< 2 >, max=(uint)< 200 >, mean=(double)< 30.5 >, "
        "percentiles=< < (uint)3, (uint)31, (uint)199 > >, "
        "clipped-low=(guint64)< 1 >, clipped-high=(guint64)< 0 >",
    "region, type=(string)zone, id=(int)1, samples=(guint64)< 100 >, "
        "min=(uint)< 4 >, max=(uint)< 250 >, mean=(double)< 60.25 >, "
        "percentiles=< < (uint)5, (uint)61, (uint)249 > >, "
        "clipped-low=(guint64)< 49 >, clipped-high=(guint64)< 20 >",
    "region, type=(string)region, id=(int)0, samples=(guint64)< 0 >, "
        "min=(uint)< 0 >, max=(uint)< 0 >, mean=(double)< 0 >, "
        "percentiles=< < (uint)0, (uint)0, (uint)0 > >, "
        "clipped-low=(guint64)< 0 >, clipped-high=(guint64)< 0 >",
    "region, type=(string)face, id=(int)7, samples=(guint64)< 10 >, "
        "min=(uint)< 9 >, max=(uint)< 9 >, mean=(double)< 9 >, "
        "clipped-low=(guint64)< 0 >, clipped-high=(guint64)< 0 >",
  };
  GValue array = G_VALUE_INIT, mean_array = G_VALUE_INIT, v = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < G_N_ELEMENTS (regions); i++) {
    GstStructure *region = structure (regions[i]);

    g_value_init (&v, GST_TYPE_STRUCTURE);
    gst_value_set_structure (&v, region);
    gst_value_array_append_and_take_value (&array, &v);
    memset (&v, 0, sizeof v);
    gst_structure_free (region);
  }
  gst_structure_take_value (s, "regions", &array);
  g_value_init (&mean_array, GST_TYPE_ARRAY);
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, mean);
  gst_value_array_append_and_take_value (&mean_array, &v);
  gst_structure_take_value (s, "mean", &mean_array);
  if (frames)
    gst_structure_set (s, "frames", G_TYPE_UINT, frames, NULL);
  return s;
}

/* The samples of the map with a zone or region label. */
static guint
count_areas (GHashTable *map)
{
  GHashTableIter iter;
  gpointer k;
  guint n = 0;

  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &k, NULL))
    n += strstr (k, "|zone=") || strstr (k, "|region=");
  return n;
}

/* --metrics-regions: all (the default) gives both zones and the fixed
 * region; 1 the first zone alone, its alerts too (zone 1's, on, left
 * out); none no zone or region at all. Words that are none of those are
 * refused, saying what to write. */
static void
test_max_regions (void)
{
  const gchar *bad[] = { "", "some", "-1", "65536", "2x", " 1" };
  GstStructure *s = luma_message (1, 50);
  GstStructure *alert = structure ("exposure, alert=(string)clipped, "
      "event=(string)start, active=(boolean)true, "
      "active-zones=(int)< 1 >");
  guint max, counts[3], i;
  const gchar *words[] = { "all", "1", "none" };
  GHashTable *map;
  GError *error = NULL;

  for (i = 0; i < G_N_ELEMENTS (words); i++) {
    ProbeMetrics *m = metrics_new ();

    g_assert_true (probe_metrics_parse_regions (words[i], &max, &error));
    g_assert_no_error (error);
    probe_metrics_set_max_regions (m, max);
    probe_metrics_set_alerts (m, "cam", 2, 0);
    probe_metrics_take_message (m, "cam", s);
    probe_metrics_take_message (m, "cam", alert);
    map = render_map (m);
    counts[i] = count_areas (map);
    g_test_message ("--metrics-regions %s: %u zone and region samples",
        words[i], counts[i]);
    if (i == 1) {
      assert_value (map, key ("clhistogram_mean", "input", "cam", "zone",
              "0", "channel", "Y", "bits", "8", NULL), 30.5);
      assert_absent (map, key ("clhistogram_mean", "input", "cam", "zone",
              "1", "channel", "Y", "bits", "8", NULL));
      assert_absent (map, key ("clhistogram_alert_active", "input", "cam",
              "zone", "1", "alert", "clipped", NULL));
    }
    /* The frame's own stay whatever is chosen. */
    assert_value (map, key ("clhistogram_alert_active", "input", "cam",
            "alert", "clipped", NULL), 1);
    g_hash_table_unref (map);
    probe_metrics_free (m);
  }
  g_assert_cmpuint (counts[0], >, counts[1]);
  g_assert_cmpuint (counts[1], >, 0);
  g_assert_cmpuint (counts[2], ==, 0);
  g_assert_true (probe_metrics_parse_regions ("65535", &max, NULL));
  g_assert_cmpuint (max, ==, 65535);
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_assert_false (probe_metrics_parse_regions (bad[i], &max, &error));
    g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
    g_assert_nonnull (strstr (error->message, "all, none or a number"));
    g_clear_error (&error);
  }
  gst_structure_free (alert);
  gst_structure_free (s);
}

/* The cap on a scrape's series: uncapped, N series and nothing dropped;
 * capped at 10, the first 10 of them in the text's order (the inputs'
 * state among them) and clhistogram_metrics_series_dropped says N - 10;
 * the text still parses, every family's HELP and TYPE there. */
static void
test_max_series (void)
{
  ProbeMetrics *m = metrics_new ();
  GstStructure *s = luma_message (1, 50);
  GHashTable *map;
  guint all;

  probe_metrics_take_message (m, "cam", s);
  probe_metrics_take_message (m, "door", s);
  map = render_map (m);
  /* The probe's own series are outside the cap: the two counts of what
   * was dropped, and the build's and the process's 7. */
  all = g_hash_table_size (map) - 2 - 7;
  assert_value (map, key ("clhistogram_metrics_series_dropped", NULL), 0);
  g_hash_table_unref (map);

  probe_metrics_set_max_series (m, 10);
  map = render_map (m);
  g_test_message ("%u series, capped at 10", all);
  g_assert_cmpuint (g_hash_table_size (map) - 2 - 7, ==, 10);
  assert_value (map, key ("clhistogram_metrics_series_dropped", NULL),
      all - 10);
  assert_value (map, key ("clhistogram_input_up", "input", "door", NULL), 0);
  assert_absent (map, key ("clhistogram_mean", "input", "cam", "channel",
          "Y", "bits", "8", NULL));
  g_hash_table_unref (map);

  probe_metrics_set_max_series (m, all);
  map = render_map (m);
  assert_value (map, key ("clhistogram_metrics_series_dropped", NULL), 0);
  g_hash_table_unref (map);
  gst_structure_free (s);
  probe_metrics_free (m);
}

/* Every family, HELP and TYPE, before any message: the input listed,
 * starting, its counters 0, no statistics and no time yet; no alert
 * until one is on, then that one alone with its threshold. */
static void
test_families (void)
{
  const gchar *counters[] = { "clhistogram_input_outages_total",
    "clhistogram_input_retries_total", "clhistogram_input_reconnects_total",
    "clhistogram_frames_total", "clhistogram_frames_dropped_total",
    "clhistogram_frames_late_total", "clhistogram_messages_total"
  };
  ProbeMetrics *m = metrics_new ();
  GHashTable *map;
  guint i;

  probe_metrics_add_input (m, "cam");
  map = render_map (m);
  assert_value (map, key ("clhistogram_input_state", "input", "cam", "state",
          "starting", NULL), 1);
  assert_value (map, key ("clhistogram_input_state", "input", "cam", "state",
          "up", NULL), 0);
  assert_value (map, key ("clhistogram_input_state", "input", "cam", "state",
          "down", NULL), 0);
  assert_value (map, key ("clhistogram_input_state", "input", "cam", "state",
          "ended", NULL), 0);
  assert_value (map, key ("clhistogram_input_up", "input", "cam", NULL), 0);
  for (i = 0; i < G_N_ELEMENTS (counters); i++)
    assert_value (map, key (counters[i], "input", "cam", NULL), 0);
  assert_absent (map, key ("clhistogram_last_timestamp_seconds", "input",
          "cam", NULL));
  g_assert_cmpuint (count_family (map, "clhistogram_alert_active", "cam"),
      ==, 0);
  assert_value (map, key ("clhistogram_metrics_series_dropped", NULL), 0);
  assert_value (map, key ("clhistogram_output_lines_dropped_total", NULL), 0);
  /* And the 7 series of the probe's own (test_process). */
  g_assert_cmpuint (g_hash_table_size (map), ==, 4 + 1 + 7 + 2 + 7);
  g_hash_table_unref (map);

  probe_metrics_set_lines_dropped (m, 7);
  probe_metrics_set_alerts (m, "cam", 5, 0);
  map = render_map (m);
  assert_value (map, key ("clhistogram_output_lines_dropped_total", NULL), 7);
  assert_value (map, key ("clhistogram_alert_threshold_ratio", "input", "cam",
          "alert", "clipped", NULL), 0.05);
  assert_value (map, key ("clhistogram_alert_active", "input", "cam",
          "alert", "clipped", NULL), 0);
  assert_absent (map, key ("clhistogram_alert_threshold_ratio", "input",
          "cam", "alert", "crushed", NULL));
  assert_absent (map, key ("clhistogram_alert_active", "input", "cam",
          "alert", "crushed", NULL));
  g_assert_cmpuint (g_hash_table_size (map), ==, 4 + 1 + 7 + 2 + 2 + 7);
  g_hash_table_unref (map);

  /* Both on, then both off again (a value out of 0 to 100 is off). */
  probe_metrics_set_alerts (m, "cam", 0.5, 100);
  map = render_map (m);
  assert_value (map, key ("clhistogram_alert_threshold_ratio", "input", "cam",
          "alert", "clipped", NULL), 0.005);
  assert_value (map, key ("clhistogram_alert_threshold_ratio", "input", "cam",
          "alert", "crushed", NULL), 1);
  g_hash_table_unref (map);
  probe_metrics_set_alerts (m, "cam", 0, 101);
  map = render_map (m);
  g_assert_cmpuint (count_family (map, "clhistogram_alert_threshold_ratio",
          "cam"), ==, 0);
  g_assert_cmpuint (count_family (map, "clhistogram_alert_active", "cam"),
      ==, 0);
  g_hash_table_unref (map);
  probe_metrics_free (m);
}

static gdouble
value_of (GHashTable *map, gchar *k)
{
  gdouble *v = g_hash_table_lookup (map, k);

  if (!v)
    g_error ("no %s", k);
  g_free (k);
  return *v;
}

/* The probe's own series: clhistogram_build_info's labels those of this
 * build and the libraries it runs on; the process_* values this
 * process's, each against what the test reads itself: its descriptors
 * (one opened more shows), its limit, its start (after the machine's
 * boot, before the test began), its memory and CPU time (which grows as
 * the test works). */
static void
test_process (void)
{
  ProbeMetrics *m = metrics_new ();
  gchar *gst, *glib = g_strdup_printf ("%u.%u.%u", glib_major_version,
      glib_minor_version, glib_micro_version);
  guint major, minor, micro, nano;
  gdouble now = g_get_real_time () / 1e6, fds, start, cpu, more_cpu;
  gint extra = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  struct rlimit limit;
  GHashTable *map = render_map (m);
  gint64 deadline;

  gst_version (&major, &minor, &micro, &nano);
  gst = nano ? g_strdup_printf ("%u.%u.%u.%u", major, minor, micro, nano) :
      g_strdup_printf ("%u.%u.%u", major, minor, micro);
  assert_value (map, key ("clhistogram_build_info", "version", PROBE_VERSION,
          "gstreamer", gst, "glib", glib, NULL), 1);
  fds = value_of (map, key ("process_open_fds", NULL));
  g_assert_cmpfloat (fds, >, 3);
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &limit), ==, 0);
  assert_value (map, key ("process_max_fds", NULL), limit.rlim_cur);
  start = value_of (map, key ("process_start_time_seconds", NULL));
  /* btime is whole seconds: the start is known to 1 s; and main() comes
   * soon after the start. */
  g_assert_cmpfloat (start, <=, now + 1);
  g_assert_cmpfloat (start, >=, test_started - 1 - clh_test_timeout_us (1)
      / 1e6);
  g_assert_cmpfloat (value_of (map, key ("process_resident_memory_bytes",
              NULL)), >, 1 << 20);
  g_assert_cmpfloat (value_of (map, key ("process_virtual_memory_bytes",
              NULL)), >=, value_of (map, key ("process_resident_memory_bytes",
              NULL)));
  cpu = value_of (map, key ("process_cpu_seconds_total", NULL));
  g_assert_cmpfloat (cpu, >=, 0);
  g_hash_table_unref (map);

  /* The count is the process's own: closing one shows. */
  close (extra);
  map = render_map (m);
  assert_value (map, key ("process_open_fds", NULL), fds - 1);
  g_hash_table_unref (map);
  /* Work until the CPU time grows (a tick is 10 ms). */
  deadline = g_get_monotonic_time () + clh_test_timeout_us (60);
  do {
    g_free (probe_metrics_render (m));
    map = render_map (m);
    more_cpu = value_of (map, key ("process_cpu_seconds_total", NULL));
    g_hash_table_unref (map);
  } while (more_cpu == cpu && g_get_monotonic_time () < deadline);
  g_assert_cmpfloat (more_cpu, >, cpu);

  g_free (gst);
  g_free (glib);
  probe_metrics_free (m);
}

/* A name with a quote, backslashes and a line feed comes back whole from
 * the label; one that is not UTF-8 still gives UTF-8 text. */
static void
test_escaping (void)
{
  const gchar *name = "cam \"north\"\\door\\\nline 2 \\n";
  ProbeMetrics *m = metrics_new ();
  GstStructure *s = luma_message (0, 10.0);
  GHashTable *map;
  gchar *text;

  probe_metrics_add_input (m, name);
  probe_metrics_take_message (m, name, s);
  text = probe_metrics_render (m);
  g_assert_nonnull (strstr (text, "clhistogram_frames_total{input=\"cam "
          "\\\"north\\\"\\\\door\\\\\\nline 2 \\\\n\"} 1\n"));
  g_free (text);
  map = render_map (m);
  assert_value (map, key ("clhistogram_mean", "input", name, "channel", "Y",
          "bits", "8", NULL), 10.0);
  assert_value (map, key ("clhistogram_mean", "input", name, "zone", "1",
          "channel", "Y", "bits", "8", NULL), 60.25);
  g_hash_table_unref (map);

  probe_metrics_add_input (m, "bad \xff\xfe name");
  text = probe_metrics_render (m);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_nonnull (strstr (text, "{input=\"bad \xef\xbf\xbd"));
  g_free (text);
  gst_structure_free (s);
  probe_metrics_free (m);
}

/* Each statistic of the frame, a zone and a fixed region from the message,
 * the code values with the message's depth (bits), the percentiles as
 * quantiles (p / 100); the ROI meta's region left out; the clipped shares
 * over the samples (0 for an area of none); the metering ratio; the
 * frames counted from `frames`, else 1. */
static void
test_histogram (void)
{
  ProbeMetrics *m = metrics_new ();
  GstStructure *s = luma_message (3, 120.125);
  GHashTable *map;
  gdouble before, after;

  probe_metrics_set_alerts (m, "cam", 2, 3);
  before = g_get_real_time () / 1e6;
  probe_metrics_take_message (m, "cam", s);
  probe_metrics_take_message (m, "cam", s);
  after = g_get_real_time () / 1e6;
  map = render_map (m);
  assert_value (map, key ("clhistogram_frames_total", "input", "cam", NULL),
      6);
  assert_value (map, key ("clhistogram_messages_total", "input", "cam",
          NULL), 2);
  assert_value (map, key ("clhistogram_mean", "input", "cam", "channel", "Y",
          "bits", "8", NULL), 120.125);
  assert_value (map, key ("clhistogram_min", "input", "cam", "channel", "Y",
          "bits", "8", NULL), 1);
  assert_value (map, key ("clhistogram_max", "input", "cam", "channel", "Y",
          "bits", "8", NULL), 250);
  assert_value (map, key ("clhistogram_quantile", "input", "cam",
          "channel", "Y", "bits", "8", "quantile", "0.01", NULL), 10);
  assert_value (map, key ("clhistogram_quantile", "input", "cam",
          "channel", "Y", "bits", "8", "quantile", "0.5", NULL), 20);
  assert_value (map, key ("clhistogram_quantile", "input", "cam",
          "channel", "Y", "bits", "8", "quantile", "0.995", NULL), 240);
  assert_value (map, key ("clhistogram_clipped_high_ratio", "input", "cam",
          "channel", "Y", NULL), 20.0 / 200);
  assert_value (map, key ("clhistogram_clipped_low_ratio", "input", "cam",
          "channel", "Y", NULL), 50.0 / 200);
  assert_value (map, key ("clhistogram_metering_ratio", "input", "cam",
          NULL), 42.25 / 100);
  /* Zone 1. */
  assert_value (map, key ("clhistogram_mean", "input", "cam", "zone", "1",
          "channel", "Y", "bits", "8", NULL), 60.25);
  assert_value (map, key ("clhistogram_min", "input", "cam", "zone", "1",
          "channel", "Y", "bits", "8", NULL), 4);
  assert_value (map, key ("clhistogram_max", "input", "cam", "zone", "0",
          "channel", "Y", "bits", "8", NULL), 200);
  assert_value (map, key ("clhistogram_quantile", "input", "cam", "zone",
          "1", "channel", "Y", "bits", "8", "quantile", "0.995", NULL), 249);
  assert_value (map, key ("clhistogram_clipped_high_ratio", "input", "cam",
          "zone", "1", "channel", "Y", NULL), 0.2);
  assert_value (map, key ("clhistogram_clipped_low_ratio", "input", "cam",
          "zone", "1", "channel", "Y", NULL), 0.49);
  /* The fixed region, of no samples. */
  assert_value (map, key ("clhistogram_mean", "input", "cam", "region", "0",
          "channel", "Y", "bits", "8", NULL), 0);
  assert_value (map, key ("clhistogram_clipped_high_ratio", "input", "cam",
          "region", "0", "channel", "Y", NULL), 0);
  /* Frame, two zones and the region: 4 areas; the face's none. */
  g_assert_cmpuint (count_family (map, "clhistogram_mean", "cam"), ==, 4);
  g_assert_cmpuint (count_family (map, "clhistogram_quantile", "cam"), ==,
      12);
  assert_absent (map, key ("clhistogram_mean", "input", "cam", "region", "7",
          "channel", "Y", "bits", "8", NULL));
  assert_absent (map, key ("clhistogram_metering_ratio", "input", "cam",
          "zone", "0", NULL));
  /* A zone's alerts are listed once its zone is known. */
  assert_value (map, key ("clhistogram_alert_active", "input", "cam", "zone",
          "1", "alert", "crushed", NULL), 0);
  g_assert_cmpuint (count_family (map, "clhistogram_alert_active", "cam"),
      ==, 6);
  {
    const gdouble *t = g_hash_table_lookup (map,
        "clhistogram_last_timestamp_seconds|input=cam");

    g_assert_nonnull (t);
    g_assert_cmpfloat (*t, >=, before - 1e-6);
    g_assert_cmpfloat (*t, <=, after + 1e-6);
  }
  g_hash_table_unref (map);

  /* No `frames` (one frame a message): 1 more; no `depth`: no bits
   * label; a message of no statistics leaves none behind. */
  gst_structure_free (s);
  s = luma_message (0, 7.0);
  gst_structure_remove_field (s, "depth");
  probe_metrics_take_message (m, "cam", s);
  map = render_map (m);
  assert_value (map, key ("clhistogram_mean", "input", "cam", "channel", "Y",
          NULL), 7.0);
  assert_value (map, key ("clhistogram_quantile", "input", "cam",
          "channel", "Y", "quantile", "0.5", NULL), 20);
  g_hash_table_unref (map);
  gst_structure_free (s);
  s = structure ("histogram, mode=(string)hue, channels=(string)< hue >, "
      "samples=(guint64)< 200 >");
  probe_metrics_take_message (m, "cam", s);
  map = render_map (m);
  assert_value (map, key ("clhistogram_frames_total", "input", "cam", NULL),
      8);
  assert_value (map, key ("clhistogram_messages_total", "input", "cam",
          NULL), 4);
  g_assert_cmpuint (count_family (map, "clhistogram_mean", "cam"), ==, 0);
  g_assert_cmpuint (count_family (map, "clhistogram_metering_ratio",
          "cam"), ==, 0);
  g_hash_table_unref (map);
  gst_structure_free (s);
  probe_metrics_free (m);
}

/* Each percentile point's quantile label: p / 100 in its shortest
 * decimal form, as Prometheus writes quantiles (99.9 gives 0.999, where
 * the double 99.9 / 100 prints as 0.9990000000000001). */
static void
test_quantile_labels (void)
{
  const struct
  {
    const gchar *point;
    const gchar *label;
  } cases[] = {
    {"0.0", "0"}, {"1.0", "0.01"}, {"10.0", "0.1"}, {"50.0", "0.5"},
    {"90.0", "0.9"}, {"99.0", "0.99"}, {"99.9", "0.999"},
    {"99.99", "0.9999"}, {"0.5", "0.005"}, {"12.345", "0.12345"},
    {"100.0", "1"}, {"0.001", "0.00001"}, {"1e-05", "1e-07"},
  };
  ProbeMetrics *m = metrics_new ();
  GString *points = g_string_new (NULL), *values = g_string_new (NULL);
  GstStructure *s;
  GHashTable *map;
  gchar *text;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_string_append_printf (points, "%s%s", i ? ", " : "", cases[i].point);
    g_string_append_printf (values, "%s(uint)%u", i ? ", " : "", i);
  }
  text = g_strdup_printf ("histogram, channels=(string)< Y >, "
      "samples=(guint64)< 10 >, percentile-points=(double)< %s >, "
      "percentiles=< < %s > >", points->str, values->str);
  s = structure (text);
  probe_metrics_take_message (m, "cam", s);
  map = render_map (m);
  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_value (map, key ("clhistogram_quantile", "input", "cam",
            "channel", "Y", "quantile", cases[i].label, NULL), i);
  g_assert_cmpuint (count_family (map, "clhistogram_quantile", "cam"), ==,
      G_N_ELEMENTS (cases));
  g_hash_table_unref (map);
  gst_structure_free (s);
  g_free (text);
  g_string_free (points, TRUE);
  g_string_free (values, TRUE);
  probe_metrics_free (m);
}

static GstStructure *
exposure (const gchar *alert, const gchar *event, gboolean active,
    const gchar *active_zones)
{
  gchar *text = g_strdup_printf ("exposure, alert=(string)%s, "
      "event=(string)%s, threshold=(double)2, frame=(boolean)false, "
      "active=(boolean)%s, frame-active=(boolean)false, "
      "active-zones=(int)< %s >", alert, event, active ? "true" : "false",
      active_zones);
  GstStructure *s = structure (text);

  g_free (text);
  return s;
}

static void
take_exposure (ProbeMetrics *m, const gchar *alert, const gchar *event,
    gboolean active, const gchar *active_zones)
{
  GstStructure *s = exposure (alert, event, active, active_zones);

  probe_metrics_take_message (m, "cam", s);
  gst_structure_free (s);
}

static void
assert_alert (GHashTable *map, const gchar *alert, const gchar *zone,
    gdouble active)
{
  assert_value (map, zone ? key ("clhistogram_alert_active", "input", "cam",
          "zone", zone, "alert", alert, NULL) :
      key ("clhistogram_alert_active", "input", "cam", "alert", alert, NULL),
      active);
}

/* The alerts' states from exposure messages: a start in zones 1 and 3,
 * then one more kind, then clears, each kind on its own; an alert off
 * is never given, whatever messages come. */
static void
test_alerts (void)
{
  ProbeMetrics *m = metrics_new ();
  GstStructure *s = luma_message (0, 1.0);
  GHashTable *map;

  probe_metrics_set_alerts (m, "cam", 2, 2);
  probe_metrics_take_message (m, "cam", s);
  take_exposure (m, "clipped", "start", TRUE, "1, 3");
  map = render_map (m);
  assert_alert (map, "clipped", NULL, 1);
  assert_alert (map, "crushed", NULL, 0);
  assert_alert (map, "clipped", "0", 0);
  assert_alert (map, "clipped", "1", 1);
  /* Zone 3 is in no histogram message but its alert is on. */
  assert_alert (map, "clipped", "3", 1);
  assert_alert (map, "crushed", "3", 0);
  g_assert_cmpuint (count_family (map, "clhistogram_alert_active", "cam"),
      ==, 8);
  g_hash_table_unref (map);

  take_exposure (m, "crushed", "start", TRUE, "0");
  take_exposure (m, "clipped", "clear", TRUE, "3");
  map = render_map (m);
  assert_alert (map, "clipped", NULL, 1);
  assert_alert (map, "clipped", "1", 0);
  assert_alert (map, "clipped", "3", 1);
  assert_alert (map, "crushed", NULL, 1);
  assert_alert (map, "crushed", "0", 1);
  g_hash_table_unref (map);

  take_exposure (m, "clipped", "clear", FALSE, "");
  map = render_map (m);
  assert_alert (map, "clipped", NULL, 0);
  assert_alert (map, "clipped", "1", 0);
  assert_alert (map, "crushed", NULL, 1);
  /* Zone 3, of no message, is listed no more once no alert is on in it. */
  assert_absent (map, key ("clhistogram_alert_active", "input", "cam", "zone",
          "3", "alert", "clipped", NULL));
  g_hash_table_unref (map);
  /* Crushed turned off: none of its rows, its zones' neither, though
   * its last message said it was on. */
  probe_metrics_set_alerts (m, "cam", 2, 0);
  map = render_map (m);
  assert_alert (map, "clipped", NULL, 0);
  assert_absent (map, key ("clhistogram_alert_active", "input", "cam",
          "alert", "crushed", NULL));
  assert_absent (map, key ("clhistogram_alert_active", "input", "cam", "zone",
          "0", "alert", "crushed", NULL));
  g_assert_cmpuint (count_family (map, "clhistogram_alert_active", "cam"),
      ==, 3);
  g_hash_table_unref (map);
  /* Neither a histogram nor an exposure message: nothing changes. */
  gst_structure_set_name (s, "camshift");
  probe_metrics_take_message (m, "cam", s);
  map = render_map (m);
  assert_value (map, key ("clhistogram_messages_total", "input", "cam",
          NULL), 1);
  g_hash_table_unref (map);
  gst_structure_free (s);
  probe_metrics_free (m);
}

/* luma_message()'s zones 0 and 1 placed as the top left and top zones of
 * a 3x2 grid, as clhistogram names them. */
static GstStructure *
placed_message (void)
{
  static const struct
  {
    guint row;
    guint column;
    const gchar *position;
  } places[] = { {0, 0, "top-left"}, {0, 1, "top"} };
  GstStructure *s = luma_message (1, 50);
  const GValue *regions = gst_structure_get_value (s, "regions");
  GValue placed = G_VALUE_INIT;
  guint r;

  g_value_init (&placed, GST_TYPE_ARRAY);
  for (r = 0; r < gst_value_array_get_size (regions); r++) {
    GstStructure *region = gst_structure_copy (gst_value_get_structure
        (gst_value_array_get_value (regions, r)));
    GValue v = G_VALUE_INIT;
    gint id;

    g_assert_true (gst_structure_get_int (region, "id", &id));
    if (g_str_equal (gst_structure_get_string (region, "type"), "zone"))
      gst_structure_set (region, "row", G_TYPE_UINT, places[id].row,
          "column", G_TYPE_UINT, places[id].column, "position",
          G_TYPE_STRING, places[id].position, NULL);
    g_value_init (&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&v, region);
    gst_value_array_append_and_take_value (&placed, &v);
  }
  gst_structure_take_value (s, "regions", &placed);
  return s;
}

/* A zone's place from its message: row, column and position beside zone
 * on every series of the zone, its statistics' and its alerts', and no
 * more series than by id alone; a zone an exposure message alone names
 * placed as that message places it; a fixed region never placed. */
static void
test_zone_places (void)
{
  ProbeMetrics *m = metrics_new ();
  GstStructure *s = placed_message ();
  GstStructure *alert = structure ("exposure, alert=(string)clipped, "
      "event=(string)start, active=(boolean)true, "
      "active-zones=(int)< 1, 5 >, active-zone-row=(uint)< 0, 1 >, "
      "active-zone-column=(uint)< 1, 2 >, "
      "active-zone-position=(string)< top, bottom-right >");
  GHashTable *map;

  probe_metrics_set_alerts (m, "cam", 2, 0);
  probe_metrics_take_message (m, "cam", s);
  probe_metrics_take_message (m, "cam", alert);
  map = render_map (m);
  assert_value (map, key ("clhistogram_mean", "input", "cam", "zone", "0",
          "row", "0", "column", "0", "position", "top-left", "channel", "Y",
          "bits", "8", NULL), 30.5);
  assert_value (map, key ("clhistogram_clipped_high_ratio", "input", "cam",
          "zone", "1", "row", "0", "column", "1", "position", "top",
          "channel", "Y", NULL), 0.2);
  assert_value (map, key ("clhistogram_quantile", "input", "cam", "zone",
          "1", "row", "0", "column", "1", "position", "top", "channel", "Y",
          "bits", "8", "quantile", "0.5", NULL), 61);
  /* Not by id alone, nor a region by place. */
  assert_absent (map, key ("clhistogram_mean", "input", "cam", "zone", "0",
          "channel", "Y", "bits", "8", NULL));
  assert_value (map, key ("clhistogram_mean", "input", "cam", "region", "0",
          "channel", "Y", "bits", "8", NULL), 0);
  /* The frame, two zones and the region, as without places. */
  g_assert_cmpuint (count_family (map, "clhistogram_mean", "cam"), ==, 4);
  assert_value (map, key ("clhistogram_alert_active", "input", "cam", "zone",
          "0", "row", "0", "column", "0", "position", "top-left", "alert",
          "clipped", NULL), 0);
  assert_value (map, key ("clhistogram_alert_active", "input", "cam", "zone",
          "1", "row", "0", "column", "1", "position", "top", "alert",
          "clipped", NULL), 1);
  assert_value (map, key ("clhistogram_alert_active", "input", "cam", "zone",
          "5", "row", "1", "column", "2", "position", "bottom-right",
          "alert", "clipped", NULL), 1);
  assert_absent (map, key ("clhistogram_alert_active", "input", "cam",
          "zone", "5", "alert", "clipped", NULL));
  g_assert_cmpuint (count_family (map, "clhistogram_alert_active", "cam"),
      ==, 4);
  g_hash_table_unref (map);
  gst_structure_free (alert);
  gst_structure_free (s);
  probe_metrics_free (m);
}

/* cam's state (one of them 1, up with it) and counters. */
static void
assert_state (ProbeMetrics *m, const gchar *state, gdouble outages,
    gdouble retries, gdouble reconnects)
{
  static const gchar *const states[] = { "starting", "up", "down", "ended" };
  GHashTable *map = render_map (m);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (states); i++)
    assert_value (map, key ("clhistogram_input_state", "input", "cam",
            "state", states[i], NULL), g_str_equal (state, states[i]));
  assert_value (map, key ("clhistogram_input_up", "input", "cam", NULL),
      g_str_equal (state, "up"));
  assert_value (map, key ("clhistogram_input_outages_total", "input", "cam",
          NULL), outages);
  assert_value (map, key ("clhistogram_input_retries_total", "input", "cam",
          NULL), retries);
  assert_value (map, key ("clhistogram_input_reconnects_total", "input",
          "cam", NULL), reconnects);
  g_hash_table_unref (map);
}

/* The states: starting, up, down, ended. One outage per period down,
 * from up or from the start, the retries that fail in it counted apart;
 * each return after a down a reconnect (not the first up after a start
 * that failed); an end no outage; starting again (as new settings would
 * have it) then down is an outage; the statistics of a run gone with it;
 * the frames lost added up; inputs listed as added. */
static void
test_states (void)
{
  ProbeMetrics *m = metrics_new ();
  GstStructure *s = luma_message (0, 1.0);
  GHashTable *map;
  gchar *text;

  probe_metrics_add_input (m, "cam");
  probe_metrics_add_input (m, "door");
  assert_state (m, "starting", 0, 0, 0);
  /* The first start fails, twice retried in vain, then comes up. */
  probe_metrics_set_up (m, "cam", FALSE);
  assert_state (m, "down", 1, 0, 0);
  probe_metrics_set_up (m, "cam", FALSE);
  probe_metrics_set_up (m, "cam", FALSE);
  assert_state (m, "down", 1, 2, 0);
  probe_metrics_set_up (m, "cam", TRUE);
  assert_state (m, "up", 1, 2, 0);
  probe_metrics_set_up (m, "cam", TRUE);
  assert_state (m, "up", 1, 2, 0);
  /* Down from up, a retry in vain, back. */
  probe_metrics_take_message (m, "cam", s);
  probe_metrics_set_up (m, "cam", FALSE);
  assert_state (m, "down", 2, 2, 0);
  map = render_map (m);
  g_assert_cmpuint (count_family (map, "clhistogram_mean", "cam"), ==, 0);
  g_hash_table_unref (map);
  probe_metrics_set_up (m, "cam", FALSE);
  probe_metrics_set_up (m, "cam", TRUE);
  assert_state (m, "up", 2, 3, 1);
  /* Down and back at once. */
  probe_metrics_set_up (m, "cam", FALSE);
  probe_metrics_set_up (m, "cam", TRUE);
  assert_state (m, "up", 3, 3, 2);
  /* A frame, then down: an outage. */
  probe_metrics_take_message (m, "cam", s);
  probe_metrics_set_up (m, "cam", FALSE);
  assert_state (m, "down", 4, 3, 2);
  /* Ended: no outage; its statistics gone, its counters kept. */
  probe_metrics_set_up (m, "cam", TRUE);
  probe_metrics_take_message (m, "cam", s);
  probe_metrics_set_ended (m, "cam");
  assert_state (m, "ended", 4, 3, 3);
  probe_metrics_add_lost (m, "cam", 3, 0);
  probe_metrics_add_lost (m, "cam", 2, 5);
  probe_metrics_add_lost (m, "cam", 0, 0);
  map = render_map (m);
  g_assert_cmpuint (count_family (map, "clhistogram_mean", "cam"), ==, 0);
  assert_value (map, key ("clhistogram_frames_total", "input", "cam", NULL),
      3);
  assert_value (map, key ("clhistogram_frames_dropped_total", "input", "cam",
          NULL), 5);
  assert_value (map, key ("clhistogram_frames_late_total", "input", "cam",
          NULL), 5);
  assert_value (map, key ("clhistogram_frames_dropped_total", "input",
          "door", NULL), 0);
  assert_value (map, key ("clhistogram_input_state", "input", "door",
          "state", "starting", NULL), 1);
  g_hash_table_unref (map);
  text = probe_metrics_render (m);
  g_assert_nonnull (strstr (text,
          "clhistogram_input_up{input=\"cam\"} 0\n"
          "clhistogram_input_up{input=\"door\"} 0\n"));
  g_free (text);
  gst_structure_free (s);
  probe_metrics_free (m);
}

/* A QoS message of @src: with counts in buffers where @format is
 * GST_FORMAT_BUFFERS (a decoder's), in samples for GST_FORMAT_DEFAULT
 * (an audio decoder's), none where it is GST_FORMAT_UNDEFINED (v4l2src's
 * lost frames: only their @duration). */
static GstMessage *
qos (GstElement *src, GstFormat format, guint64 dropped, GstClockTime duration)
{
  GstMessage *msg = gst_message_new_qos (GST_OBJECT (src), TRUE,
      GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, 0, duration);

  if (format != GST_FORMAT_UNDEFINED)
    gst_message_set_qos_stats (msg, format, 10, dropped);
  return msg;
}

static guint64
take_qos (ProbeLosses *l, GstMessage *msg, GstClockTime frame_duration)
{
  guint64 n = probe_losses_take_qos (l, msg, frame_duration);

  gst_message_unref (msg);
  return n;
}

/* Frames dropped, from QoS messages: each element's count of buffers
 * dropped is cumulative, so only its increase counts, each element on
 * its own, and a count that falls (a flush started it again) counts
 * whole; a new run's elements start from 0; samples are no frames; a
 * message with no counts gives its duration in frames (3 of 40 ms in
 * 120 ms), 1 where the frames' duration is unknown. */
static void
test_losses_dropped (void)
{
  GstElement *decoder = gst_element_factory_make ("identity", "decoder");
  GstElement *other = gst_element_factory_make ("identity", "other");
  const GstClockTime frame = 40 * GST_MSECOND;
  ProbeLosses *l = probe_losses_new ();

  g_assert_cmpuint (take_qos (l, qos (decoder, GST_FORMAT_BUFFERS, 1, 0),
          frame), ==, 1);
  g_assert_cmpuint (take_qos (l, qos (decoder, GST_FORMAT_BUFFERS, 3, 0),
          frame), ==, 2);
  g_assert_cmpuint (take_qos (l, qos (other, GST_FORMAT_BUFFERS, 2, 0),
          frame), ==, 2);
  g_assert_cmpuint (take_qos (l, qos (decoder, GST_FORMAT_BUFFERS, 3, 0),
          frame), ==, 0);
  g_assert_cmpuint (take_qos (l, qos (decoder, GST_FORMAT_BUFFERS, 1, 0),
          frame), ==, 1);
  g_assert_cmpuint (take_qos (l, qos (other, GST_FORMAT_DEFAULT, 4800, 0),
          frame), ==, 0);
  g_assert_cmpuint (take_qos (l, qos (other, GST_FORMAT_UNDEFINED, 0,
              3 * frame), frame), ==, 3);
  g_assert_cmpuint (take_qos (l, qos (other, GST_FORMAT_UNDEFINED, 0,
              3 * frame), GST_CLOCK_TIME_NONE), ==, 1);
  g_assert_cmpuint (take_qos (l, qos (other, GST_FORMAT_UNDEFINED, 0,
              GST_CLOCK_TIME_NONE), frame), ==, 1);
  probe_losses_reset (l);
  g_assert_cmpuint (take_qos (l, qos (decoder, GST_FORMAT_BUFFERS, 1, 0),
          frame), ==, 1);
  probe_losses_free (l);
  gst_object_unref (gst_object_ref_sink (decoder));
  gst_object_unref (gst_object_ref_sink (other));
}

/* A sample of @pts (running time: the segment starts at 0) pushed through
 * appsrc to appsink, pulled, and whether it is late. */
static gboolean
late_sample (ProbeLosses *l, GstElement *pipeline, GstClockTime pts)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, 16, NULL);
  GstSample *sample;
  gboolean late;

  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = 40 * GST_MSECOND;
  g_assert_cmpint (gst_app_src_push_buffer (GST_APP_SRC (src), buffer), ==,
      GST_FLOW_OK);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      clh_test_timeout_ns (30));
  g_assert_nonnull (sample);
  late = probe_losses_is_late (l, sink, sample);
  gst_sample_unref (sample);
  gst_object_unref (src);
  gst_object_unref (sink);
  return late;
}

/* Late samples against a real pipeline's clock, its base time set so that
 * its running time is 10 s as it starts: with a live source, a frame of
 * 1 s is late (by 9 s or more), one of 100 s is not; with a source that
 * is not live and a sink that does not sync (a file counted as fast as
 * it comes), a frame of 1 s is no late frame: it has no time to be late
 * for. */
static void
test_losses_late (void)
{
  const gboolean live[] = { TRUE, FALSE };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (live); i++) {
    gchar *text = g_strdup_printf ("appsrc name=src is-live=%s format=time "
        "caps=application/x-probe-test ! appsink name=sink sync=false",
        live[i] ? "true" : "false");
    GstElement *pipeline = gst_parse_launch (text, NULL);
    GstClock *clock = gst_system_clock_obtain ();
    ProbeLosses *l = probe_losses_new ();

    g_assert_nonnull (pipeline);
    gst_pipeline_use_clock (GST_PIPELINE (pipeline), clock);
    /* The pipeline keeps the base time given. */
    gst_element_set_start_time (pipeline, GST_CLOCK_TIME_NONE);
    gst_element_set_base_time (pipeline, gst_clock_get_time (clock)
        - 10 * GST_SECOND);
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    if (live[i]) {
      g_assert_true (late_sample (l, pipeline, GST_SECOND));
      g_assert_false (late_sample (l, pipeline, 100 * GST_SECOND));
    } else {
      g_assert_false (late_sample (l, pipeline, GST_SECOND));
      g_assert_false (late_sample (l, pipeline, 2 * GST_SECOND));
    }
    gst_element_set_state (pipeline, GST_STATE_NULL);
    probe_losses_free (l);
    gst_object_unref (clock);
    gst_object_unref (pipeline);
    g_free (text);
  }
}

/* The values of the render against the message, computed here from its
 * fields: each statistic of each area and channel. */
static gdouble
as_double (const GValue *v)
{
  GValue d = G_VALUE_INIT;
  gdouble x;

  g_value_init (&d, G_TYPE_DOUBLE);
  g_assert_true (g_value_transform (v, &d));
  x = g_value_get_double (&d);
  g_value_unset (&d);
  return x;
}

static gdouble
element (const GstStructure *s, const gchar *field, guint i)
{
  const GValue *array = gst_structure_get_value (s, field);

  g_assert_nonnull (array);
  return as_double (gst_value_array_get_value (array, i));
}

/* A zone's labels of its place: row, column, position. */
typedef struct
{
  const gchar *row;
  const gchar *column;
  const gchar *position;
} Place;

/* The key of a row of cam's area (@kind NULL: the frame), with the
 * labels that are not NULL, a zone's @place among them. */
static gchar *
area_key (const gchar *family, const gchar *kind, const gchar *id,
    const Place *place, const gchar *channel, const gchar *bits,
    const gchar *quantile)
{
  GHashTable *labels = g_hash_table_new (g_str_hash, g_str_equal);
  gchar *k;

  g_hash_table_insert (labels, "input", "cam");
  if (kind)
    g_hash_table_insert (labels, (gpointer) kind, (gpointer) id);
  if (place) {
    g_hash_table_insert (labels, "row", (gpointer) place->row);
    g_hash_table_insert (labels, "column", (gpointer) place->column);
    g_hash_table_insert (labels, "position", (gpointer) place->position);
  }
  g_hash_table_insert (labels, "channel", (gpointer) channel);
  if (bits)
    g_hash_table_insert (labels, "bits", (gpointer) bits);
  if (quantile)
    g_hash_table_insert (labels, "quantile", (gpointer) quantile);
  k = key_of (family, labels);
  g_hash_table_unref (labels);
  return k;
}

/* The quantile labels of the percentile points the real messages use,
 * written out. */
static const gchar *
quantile_of (gdouble point)
{
  if (point == 1.0)
    return "0.01";
  if (point == 50.0)
    return "0.5";
  if (point == 99.9)
    return "0.999";
  g_error ("no quantile label written for the point %g", point);
  return NULL;
}

static void
assert_area (GHashTable *map, const GstStructure *message,
    const GstStructure *area, const gchar *kind, const gchar *id,
    const Place *place, guint *n_rows)
{
  const GValue *channels = gst_structure_get_value (message, "channels");
  const GValue *points = gst_structure_get_value (message,
      "percentile-points");
  guint c, k, depth;
  gchar *bits;

  g_assert_true (gst_structure_get_uint (message, "depth", &depth));
  bits = g_strdup_printf ("%u", depth);

  for (c = 0; c < gst_value_array_get_size (channels); c++) {
    const gchar *channel =
        g_value_get_string (gst_value_array_get_value (channels, c));
    const GValue *percentiles = gst_value_array_get_value
        (gst_structure_get_value (area, "percentiles"), c);
    const struct
    {
      const gchar *family;
      gboolean coded;
      gdouble value;
    } plain[] = {
      {"clhistogram_mean", TRUE, element (area, "mean", c)},
      {"clhistogram_min", TRUE, element (area, "min", c)},
      {"clhistogram_max", TRUE, element (area, "max", c)},
      {"clhistogram_clipped_high_ratio", FALSE,
          element (area, "clipped-high", c) / element (area, "samples", c)},
      {"clhistogram_clipped_low_ratio", FALSE,
          element (area, "clipped-low", c) / element (area, "samples", c)},
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS (plain); i++, (*n_rows)++)
      assert_value (map, area_key (plain[i].family, kind, id, place, channel,
              plain[i].coded ? bits : NULL, NULL), plain[i].value);
    for (k = 0; k < gst_value_array_get_size (points); k++, (*n_rows)++)
      assert_value (map, area_key ("clhistogram_quantile", kind, id, place,
              channel, bits, quantile_of (as_double
                  (gst_value_array_get_value (points, k)))),
          as_double (gst_value_array_get_value (percentiles, k)));
  }
  g_free (bits);
}

/* The rows of the families of statistics, all inputs. */
static guint
statistics_rows (GHashTable *map)
{
  static const gchar *const names[] = { "clhistogram_mean|",
    "clhistogram_min|", "clhistogram_max|", "clhistogram_quantile|",
    "clhistogram_clipped_high_ratio|", "clhistogram_clipped_low_ratio|"
  };
  GHashTableIter iter;
  gpointer k;
  guint n = 0, i;

  g_hash_table_iter_init (&iter, map);
  while (g_hash_table_iter_next (&iter, &k, NULL))
    for (i = 0; i < G_N_ELEMENTS (names); i++)
      n += g_str_has_prefix (k, names[i]);
  return n;
}

typedef struct
{
  ProbeMetrics *m;
  guint messages;
  guint64 frames;
} Real;

/* The places of 2x2 zones, written out. */
static const Place places_2x2[] = {
  {"0", "0", "top-left"}, {"0", "1", "top-right"},
  {"1", "0", "bottom-left"}, {"1", "1", "bottom-right"},
};

static GstBusSyncReply
on_real_message (GstBus *bus, GstMessage *msg, gpointer data)
{
  Real *real = data;
  const GstStructure *s = gst_message_get_structure (msg);
  const GValue *regions;
  GHashTable *map;
  guint r, rows = 0, frames = 1;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT
      || !gst_structure_has_name (s, "histogram"))
    return GST_BUS_PASS;
  probe_metrics_take_message (real->m, "cam", s);
  gst_structure_get_uint (s, "frames", &frames);
  real->frames += frames;
  real->messages++;
  map = render_map (real->m);
  assert_value (map, key ("clhistogram_frames_total", "input", "cam", NULL),
      real->frames);
  assert_value (map, key ("clhistogram_messages_total", "input", "cam",
          NULL), real->messages);
  assert_area (map, s, s, NULL, NULL, NULL, &rows);
  regions = gst_structure_get_value (s, "regions");
  g_assert_cmpuint (gst_value_array_get_size (regions), ==, 5);
  for (r = 0; r < gst_value_array_get_size (regions); r++) {
    const GstStructure *region =
        gst_value_get_structure (gst_value_array_get_value (regions, r));
    const gchar *type = gst_structure_get_string (region, "type");
    gint id;
    gchar *text;

    g_assert_true (gst_structure_get_int (region, "id", &id));
    text = g_strdup_printf ("%d", id);
    /* Each zone by its place as well as its id; the region by its id. */
    if (g_str_equal (type, "zone")) {
      g_assert_cmpint (id, <, G_N_ELEMENTS (places_2x2));
      assert_area (map, s, region, type, text, &places_2x2[id], &rows);
    } else {
      assert_area (map, s, region, type, text, NULL, &rows);
    }
    g_free (text);
  }
  /* Nothing else: the frame, 4 zones and the region x 3 channels x (5
   * statistics + 3 percentiles). */
  g_assert_cmpuint (rows, ==, 6 * 3 * 8);
  g_assert_cmpuint (statistics_rows (map), ==, rows);
  g_hash_table_unref (map);
  gst_message_unref (msg);
  return GST_BUS_DROP;
}

/* A real clhistogram's messages, RGB channels, 2x2 zones and a region,
 * one per two frames: each render right after each message equals it. */
static void
test_real_messages (void)
{
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=6 "
      "pattern=ball ! video/x-raw,format=RGBx,width=64,height=48,"
      "framerate=10/1 ! clhistogram mode=channels zones=2x2 "
      "regions=\"<<4,4,20,10>>\" percentiles=\"<1.0,50.0,99.9>\" "
      "interval=200000000 ! fakesink", &error);
  Real real = { metrics_new () };
  GstBus *bus;
  GstMessage *msg;

  g_assert_no_error (error);
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, on_real_message, &real, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, clh_test_timeout_ns (60),
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &error, NULL);
    g_error ("the pipeline failed: %s", error->message);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_assert_cmpuint (real.messages, ==, 3);
  g_assert_cmpuint (real.frames, ==, 6);
  probe_metrics_free (real.m);
}

typedef struct
{
  ProbeMetrics *m;
  guint messages;
  gint done;
} Stream;

/* Message k (from 1) of each input has frames k and a mean of k: a scrape
 * that mixes two messages shows a mean other than its message count. */
static gpointer
stream_messages (gpointer data)
{
  Stream *stream = data;
  guint k;

  for (k = 1; k <= stream->messages; k++) {
    GstStructure *s = luma_message (k, k);

    probe_metrics_take_message (stream->m, "cam", s);
    probe_metrics_take_message (stream->m, "door", s);
    gst_structure_free (s);
  }
  g_atomic_int_set (&stream->done, 1);
  return NULL;
}

static void
assert_one_message (GHashTable *map, const gchar *input)
{
  gchar *k = key ("clhistogram_messages_total", "input", input, NULL);
  const gdouble *n = g_hash_table_lookup (map, k);

  g_free (k);
  if (!n)
    return;
  assert_value (map, key ("clhistogram_frames_total", "input", input, NULL),
      *n * (*n + 1) / 2);
  if (*n > 0)
    assert_value (map, key ("clhistogram_mean", "input", input, "zone", "1",
            "channel", "Y", "bits", "8", NULL), 60.25);
  if (*n > 0)
    assert_value (map, key ("clhistogram_mean", "input", input, "channel",
            "Y", "bits", "8", NULL), *n);
}

static void
test_snapshot (void)
{
  Stream stream = { metrics_new (), 3000 };
  GThread *thread = g_thread_new ("messages", stream_messages, &stream);
  guint scrapes = 0;

  while (!g_atomic_int_get (&stream.done) || scrapes == 0) {
    GHashTable *map = render_map (stream.m);

    assert_one_message (map, "cam");
    assert_one_message (map, "door");
    g_hash_table_unref (map);
    scrapes++;
  }
  g_thread_join (thread);
  g_test_message ("%u scrapes during %u messages", scrapes, stream.messages);
  probe_metrics_free (stream.m);
}

static SoupMessage *
request (SoupSession *session, const gchar *method, const gchar *url,
    GBytes **body)
{
  SoupMessage *msg = soup_message_new (method, url);
  GError *error = NULL;

  g_assert_nonnull (msg);
  *body = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  return msg;
}

/* @text with the values of process_* samples, which change from one
 * render to the next (the CPU time, the memory), cut off. */
static gchar *
without_process_values (const gchar *text)
{
  GRegex *value = g_regex_new ("^(process_[a-z_]+) .*$", G_REGEX_MULTILINE,
      0, NULL);
  gchar *cut = g_regex_replace (value, text, -1, 0, "\\1", 0, NULL);

  g_regex_unref (value);
  return cut;
}

/* Two renders of the same values: the same text, but for the process's
 * values, whose families are there all the same. */
static void
assert_same_render (const gchar *a, const gchar *b)
{
  gchar *a_cut = without_process_values (a);
  gchar *b_cut = without_process_values (b);

  g_assert_nonnull (strstr (a, "\nprocess_open_fds "));
  g_assert_cmpstr (a_cut, ==, b_cut);
  g_free (a_cut);
  g_free (b_cut);
}

/* GET /metrics as Prometheus scrapes it: 200, the format's content type,
 * the render; HEAD the same with no body; other methods 405 with Allow;
 * other paths 404. */
static void
test_http (void)
{
  ProbeMetrics *m = metrics_new ();
  /* Straight to the server, whatever proxy the environment names. */
  SoupSession *session = soup_session_new_with_options ("proxy-resolver",
      NULL, NULL);
  GstStructure *s = luma_message (2, 99.5);
  gchar *url = probe_metrics_get_url (m), *other, *text, *served;
  GRegex *form = g_regex_new ("^http://127\\.0\\.0\\.1:([1-9][0-9]*)/metrics$",
      0, 0, NULL);
  SoupMessage *msg;
  GBytes *body;

  g_assert_true (g_regex_match (form, url, 0, NULL));
  probe_metrics_take_message (m, "cam", s);
  msg = request (session, "GET", url, &body);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type
      (soup_message_get_response_headers (msg), NULL), ==, "text/plain");
  g_assert_cmpstr (soup_message_headers_get_one
      (soup_message_get_response_headers (msg), "Content-Type"), ==,
      "text/plain; version=0.0.4; charset=utf-8");
  text = probe_metrics_render (m);
  served = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  assert_same_render (served, text);
  g_free (served);
  g_free (text);
  g_bytes_unref (body);
  g_object_unref (msg);

  msg = request (session, "HEAD", url, &body);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  g_assert_cmpuint (g_bytes_get_size (body), ==, 0);
  g_bytes_unref (body);
  g_object_unref (msg);

  msg = request (session, "POST", url, &body);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 405);
  g_assert_cmpstr (soup_message_headers_get_one
      (soup_message_get_response_headers (msg), "Allow"), ==, "GET, HEAD");
  g_bytes_unref (body);
  g_object_unref (msg);

  other = g_strconcat (url, "/more", NULL);
  msg = request (session, "GET", other, &body);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 404);
  g_bytes_unref (body);
  g_object_unref (msg);
  g_free (other);
  other = g_strndup (url, strlen (url) - strlen ("metrics"));
  msg = request (session, "GET", other, &body);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 404);
  g_bytes_unref (body);
  g_object_unref (msg);
  g_free (other);

  g_regex_unref (form);
  g_free (url);
  gst_structure_free (s);
  g_object_unref (session);
  probe_metrics_free (m);
}

/* A connection of our own to @url's port on 127.0.0.1, for requests that
 * no HTTP client would send; its reads give up after 5 s. */
static guint
client_timeout_s (void)
{
  return (guint) (clh_test_timeout_us (5) / G_USEC_PER_SEC);
}

static ProbeMetricsServerStats
stats_of (ProbeMetricsServer *server)
{
  ProbeMetricsServerStats stats;

  probe_metrics_server_get_stats (server, &stats);
  return stats;
}

static GSocketConnection *
connect_raw (const gchar *url)
{
  GUri *uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  GSocketClient *client = g_socket_client_new ();
  GInetAddress *host = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *where;
  GSocketConnection *connection;
  GError *error = NULL;

  g_assert_nonnull (uri);
  /* Straight to the server, whatever proxy the environment names. */
  g_socket_client_set_enable_proxy (client, FALSE);
  where = g_inet_socket_address_new (host, g_uri_get_port (uri));
  connection = g_socket_client_connect (client,
      G_SOCKET_CONNECTABLE (where), NULL, &error);
  g_assert_no_error (error);
  /* Not what is tested: a server that never answered fails the test
   * instead of hanging it. */
  g_socket_set_timeout (g_socket_connection_get_socket (connection),
      client_timeout_s ());
  g_object_unref (where);
  g_object_unref (host);
  g_object_unref (client);
  g_uri_unref (uri);
  return connection;
}

static void
send_text (GSocketConnection *connection, const gchar *text)
{
  GError *error = NULL;

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM
          (connection)), text, strlen (text), NULL, NULL, &error);
  g_assert_no_error (error);
}

/* All the server sends until it closes the connection (a reset after its
 * answer counts as closing); fails if it is still open after 5 s. */
static gchar *
read_until_closed (GSocketConnection *connection)
{
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GString *text = g_string_new (NULL);
  gchar buf[4096];
  gssize n;
  GError *error = NULL;

  while ((n = g_input_stream_read (in, buf, sizeof buf, NULL, &error)) > 0)
    g_string_append_len (text, buf, n);
  if (error && !g_error_matches (error, G_IO_ERROR,
          G_IO_ERROR_CONNECTION_CLOSED) && !g_error_matches (error,
          G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE))
    g_error ("the server did not close the connection: %s (read so far: "
        "\"%s\")", error->message, text->str);
  g_clear_error (&error);
  return g_string_free (text, FALSE);
}

static gsize
resident_bytes (void)
{
  gchar *status = NULL;
  const gchar *line;
  gsize kb = 0;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL,
          NULL));
  line = strstr (status, "VmRSS:");
  g_assert_nonnull (line);
  kb = g_ascii_strtoull (line + strlen ("VmRSS:"), NULL, 10);
  g_free (status);
  return kb * 1024;
}

/* Requests with a body of 100 MB announced, none of it sent: each is
 * answered and its connection closed, so the body was never waited for
 * (waiting, the server would have timed out without an answer); 64 MB
 * then sent after one is refused, not kept. */
static void
test_http_body_unread (void)
{
  const struct
  {
    const gchar *request;
    const gchar *status;
  } cases[] = {
    {"POST /metrics HTTP/1.1\r\nHost: probe\r\n"
          "Content-Length: 100000000\r\n\r\n", "HTTP/1.1 405 "},
    {"GET /metrics HTTP/1.1\r\nHost: probe\r\n"
          "Content-Length: 100000000\r\n\r\n", "HTTP/1.1 413 "},
    {"GET /metrics HTTP/1.1\r\nHost: probe\r\n"
          "Transfer-Encoding: chunked\r\n\r\n", "HTTP/1.1 413 "},
    {"PUT /other HTTP/1.1\r\nHost: probe\r\n"
          "Content-Length: 100000000\r\n\r\n", "HTTP/1.1 404 "},
  };
  ProbeMetrics *m = metrics_new ();
  gchar *url = probe_metrics_get_url (m);
  gsize before = resident_bytes (), sent = 0;
  gchar *chunk = g_malloc0 (1 << 20);
  GSocketConnection *connection;
  GError *error = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gint64 start = g_get_monotonic_time ();
    gchar *answer;

    connection = connect_raw (url);
    send_text (connection, cases[i].request);
    answer = read_until_closed (connection);
    g_test_message ("%.13s: %.12s in %" G_GINT64_FORMAT " us",
        cases[i].request, answer, g_get_monotonic_time () - start);
    g_assert_true (g_str_has_prefix (answer, cases[i].status));
    g_assert_nonnull (strstr (answer, "\r\nConnection: close\r\n"));
    if (i == 0)
      g_assert_nonnull (strstr (answer, "\r\nAllow: GET, HEAD\r\n"));
    g_free (answer);
    g_object_unref (connection);
  }

  /* The body sent anyway fails once the closed connection is reset. */
  connection = connect_raw (url);
  send_text (connection, cases[0].request);
  g_free (read_until_closed (connection));
  while (sent < 64 << 20 && g_output_stream_write_all
      (g_io_stream_get_output_stream (G_IO_STREAM (connection)), chunk,
          1 << 20, NULL, NULL, &error))
    sent += 1 << 20;
  g_assert_nonnull (error);
  g_test_message ("body after the answer: %s after %" G_GSIZE_FORMAT
      " bytes", error->message, sent);
  g_clear_error (&error);
  g_object_unref (connection);
  g_assert_cmpuint (resident_bytes (), <, before + (32 << 20));

  g_free (chunk);
  g_free (url);
  probe_metrics_free (m);
}

static gchar *
render_fixed (gpointer data)
{
  return g_strdup ("probe_up 1\n");
}

static guint
get_status (SoupSession *session, const gchar *url)
{
  GBytes *body;
  SoupMessage *msg = request (session, "GET", url, &body);
  guint status = soup_message_get_status (msg);

  g_bytes_unref (body);
  g_object_unref (msg);
  return status;
}

/* With a 1 s timeout, a half-sent request and a connection that sends
 * nothing are closed without an answer, not held (the client's own
 * timeout would fail the test); a GET still answers. */
static void
test_http_timeout (void)
{
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_fixed, NULL, 4, 1, 60, &error);
  const gchar *url;
  SoupSession *session = soup_session_new_with_options ("proxy-resolver",
      NULL, NULL);
  GSocketConnection *half, *silent;
  gint64 start;
  gchar *answer;

  g_assert_no_error (error);
  url = probe_metrics_server_get_url (server);
  half = connect_raw (url);
  silent = connect_raw (url);
  start = g_get_monotonic_time ();
  send_text (half, "GET /metrics HTTP/1.1\r\nHost: pro");
  answer = read_until_closed (half);
  g_test_message ("half-sent request closed after %" G_GINT64_FORMAT " us",
      g_get_monotonic_time () - start);
  g_assert_false (g_str_has_prefix (answer, "HTTP/1.1 200"));
  g_free (answer);
  g_free (read_until_closed (silent));
  g_assert_cmpuint (get_status (session, url), ==, 200);

  g_object_unref (half);
  g_object_unref (silent);
  g_object_unref (session);
  probe_metrics_server_stop (server);
}

/* With a 2 s timeout, a client sending a byte of its request every
 * 0.2 s, which no single timeout catches, is shut down by the limit on a
 * connection's life (three timeouts), as the server's count says, long
 * before its request is whole. */
static void
test_http_lifetime (void)
{
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_fixed, NULL, 4, 2, 60, &error);
  GSocketConnection *slow;
  GSocket *socket;
  GString *request = g_string_new ("GET /metrics HTTP/1.1\r\n"
      "Host: probe\r\nX-Padding: ");
  gint64 start = g_get_monotonic_time (), lasted = -1;
  gchar buf[256];
  guint i;

  g_assert_no_error (error);
  /* 30 s of bytes, 5 times the connection's life. */
  while (request->len < 150)
    g_string_append_c (request, 'a');
  slow = connect_raw (probe_metrics_server_get_url (server));
  socket = g_socket_connection_get_socket (slow);
  for (i = 0; i < request->len && lasted < 0; i++) {
    /* Once shut down, the server's answer (if any) and the end. */
    if (g_socket_condition_timed_wait (socket, G_IO_IN, G_USEC_PER_SEC / 5,
            NULL, NULL)) {
      while (g_socket_receive (socket, buf, sizeof buf, NULL, &error) > 0)
        ;
      g_clear_error (&error);
      lasted = g_get_monotonic_time () - start;
    } else if (g_socket_send (socket, request->str + i, 1, NULL,
            &error) != 1) {
      g_clear_error (&error);
      lasted = g_get_monotonic_time () - start;
    }
  }
  g_test_message ("a byte every 0.2 s: closed after %" G_GINT64_FORMAT
      " us, %u of %" G_GSIZE_FORMAT " bytes sent", lasted, i,
      request->len);
  g_assert_cmpint (lasted, >=, 0);
  g_assert_cmpuint (i, <, request->len);
  g_assert_cmpuint (stats_of (server).lifetimes_ended, ==, 1);

  g_string_free (request, TRUE);
  g_object_unref (slow);
  probe_metrics_server_stop (server);
}

/* Out of descriptors (EMFILE), the server's accepts fail: it retries
 * every 100 ms, not in a loop taking a CPU (its failures, each 100 ms or
 * more after the last, can be no more than the time they took allows:
 * a spinning retry makes thousands), says so once, and answers the
 * connection waiting once descriptors are free again. */
static void
test_http_accept_failing (void)
{
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_fixed, NULL, 4, 10, 60, &error);
  GUri *uri;
  GSocket *socket;
  GInetAddress *host = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *where;
  GArray *spare = g_array_new (FALSE, FALSE, sizeof (gint));
  gint64 fd, first_at, last_at, deadline;
  guint64 first, last;
  GString *answer = g_string_new (NULL);
  const gchar *get = "GET /metrics HTTP/1.1\r\nHost: probe\r\n\r\n";
  gchar buf[4096];
  gssize n;

  g_assert_no_error (error);
  uri = g_uri_parse (probe_metrics_server_get_url (server), G_URI_FLAGS_NONE,
      NULL);
  where = g_inet_socket_address_new (host, g_uri_get_port (uri));
  /* The client's socket made first: it needs no descriptor later. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_set_timeout (socket, client_timeout_s ());
  g_test_expect_message (NULL, G_LOG_LEVEL_WARNING,
      "*cannot accept a connection*retrying every 100 ms");
  while ((fd = dup (0)) >= 0)
    g_array_append_val (spare, fd);
  g_assert_cmpint (errno, ==, EMFILE);
  g_assert_true (g_socket_connect (socket, where, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_socket_send (socket, get, strlen (get), NULL, &error),
      ==, strlen (get));

  /* From the first failure to the third retry, no fixed time. */
  deadline = g_get_monotonic_time () + clh_test_timeout_us (10);
  do {
    first_at = g_get_monotonic_time ();
    first = stats_of (server).accept_failures;
  } while (first == 0 && first_at < deadline && (g_usleep (1000), TRUE));
  do {
    last = stats_of (server).accept_failures;
    last_at = g_get_monotonic_time ();
  } while (last < first + 3 && last_at < deadline && (g_usleep (1000), TRUE));
  for (guint i = 0; i < spare->len; i++)
    close (g_array_index (spare, gint, i));
  g_test_message ("%" G_GUINT64_FORMAT " failed accepts in %" G_GINT64_FORMAT
      " us", last - first, last_at - first_at);
  g_assert_cmpuint (last, >=, first + 3);
  g_assert_cmpuint (last - first, <=, (guint64) (last_at - first_at)
      / (PROBE_METRICS_SERVER_ACCEPT_RETRY_MS * 1000) + 1);

  while ((n = g_socket_receive (socket, buf, sizeof buf, NULL, &error)) > 0)
    g_string_append_len (answer, buf, n);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (answer->str, "HTTP/1.1 200"));
  g_test_assert_expected_messages ();

  g_string_free (answer, TRUE);
  g_array_unref (spare);
  g_object_unref (socket);
  g_object_unref (where);
  g_object_unref (host);
  g_uri_unref (uri);
  probe_metrics_server_stop (server);
}

/* Waits for the server's count at @offset in its stats to reach @want,
 * for at most 10 s: a state, not a time. */
static guint64
wait_for_count (ProbeMetricsServer *server, glong offset, guint64 want)
{
  gint64 deadline = g_get_monotonic_time () + clh_test_timeout_us (10);
  ProbeMetricsServerStats stats = stats_of (server);

  while (G_STRUCT_MEMBER (guint64, &stats, offset) < want
      && g_get_monotonic_time () < deadline) {
    g_usleep (G_USEC_PER_SEC / 100);
    stats = stats_of (server);
  }
  return G_STRUCT_MEMBER (guint64, &stats, offset);
}

#define COUNT(field) G_STRUCT_OFFSET (ProbeMetricsServerStats, field)

/* Exposition-like text of @bytes or a little more, the same each time:
 * as many region series as 32x32 zones make. */
static gchar *
render_size (gsize bytes)
{
  GString *text = g_string_sized_new (bytes + 128);
  guint i;

  for (i = 0; text->len < bytes; i++)
    g_string_append_printf (text, "clhistogram_mean{input=\"cam\","
        "zone=\"z%u\",channel=\"luma\"} %u.%03u\n", i % 1024, i % 251,
        i % 997);
  return g_string_free (text, FALSE);
}

/* Bigger than the kernel's buffers on loopback take (tcp_wmem and
 * tcp_rmem's largest, 4 and 6 MB by default): a client that does not read
 * it holds its response under way. */
static gchar *
render_16mb (gpointer data)
{
  return render_size (16 << 20);
}

static gchar *
render_11mb (gpointer data)
{
  return render_size (11 << 20);
}

static gchar *
render_1mb (gpointer data)
{
  return render_size (1 << 20);
}

static guint
scaled_s (gdouble seconds)
{
  return (guint) (clh_test_timeout_us (seconds) / G_USEC_PER_SEC);
}

static gsize
header_end (const gchar *answer)
{
  const gchar *end = strstr (answer, "\r\n\r\n");

  g_assert_nonnull (end);
  return end + 4 - answer;
}

/* With a cap of 4: 4 connections past their request (GETs of a 16 MB
 * render, left unread) held; those beyond are closed at once, refused by
 * the cap (the server's count says so: not by its timeout, nor evicting
 * one of the 4); once the 4 go, GET answers; and three times the cap of
 * GETs one after the other all answer, so closed connections stop
 * counting. */
static void
test_http_cap (void)
{
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_16mb, NULL, 4, 10, 60, &error);
  const gchar *url;
  SoupSession *session = soup_session_new_with_options ("proxy-resolver",
      NULL, NULL);
  GSocketConnection *held[4], *over;
  gint64 deadline;
  guint i;

  g_assert_no_error (error);
  url = probe_metrics_server_get_url (server);
  for (i = 0; i < G_N_ELEMENTS (held); i++) {
    held[i] = connect_raw (url);
    send_text (held[i], "GET /metrics HTTP/1.1\r\nHost: probe\r\n\r\n");
    g_assert_cmpuint (wait_for_count (server, COUNT (scrapes), i + 1), ==,
        i + 1);
  }
  for (i = 0; i < 4; i++) {
    over = connect_raw (url);
    g_free (read_until_closed (over));
    g_assert_cmpuint (stats_of (server).refused, ==, i + 1);
    g_object_unref (over);
  }
  g_assert_cmpuint (stats_of (server).accepted, ==, 4);
  g_assert_cmpuint (stats_of (server).evicted, ==, 0);
  for (i = 0; i < G_N_ELEMENTS (held); i++)
    g_object_unref (held[i]);
  /* The server sees the 4 closed as soon as it next writes to them. */
  deadline = g_get_monotonic_time () + clh_test_timeout_us (10);
  while (stats_of (server).open > 0 && g_get_monotonic_time () < deadline)
    g_usleep (G_USEC_PER_SEC / 100);
  g_assert_cmpuint (stats_of (server).open, ==, 0);
  g_assert_cmpuint (get_status (session, url), ==, 200);
  for (i = 0; i < 12; i++)
    g_assert_cmpuint (get_status (session, url), ==, 200);

  g_object_unref (session);
  probe_metrics_server_stop (server);
}

/* With a cap of 4 and a header deadline out of reach (60 s): 4
 * connections that sent half a request line take every slot. A scraper
 * is not refused: the oldest of them gives way (answered 408, counted as
 * evicted) and the scraper is answered. Tricklers that come back each
 * time they are cut change nothing: 8 rounds of a new one and a GET,
 * every GET answered, none refused. (A connection past its request
 * never gives way: test_http_cap.) */
static void
test_http_evict (void)
{
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_fixed, NULL, 4, 60, 60, &error);
  const gchar *url;
  SoupSession *session = soup_session_new_with_options ("proxy-resolver",
      NULL, NULL);
  GSocketConnection *half[12];
  gchar *answer;
  guint i;

  g_assert_no_error (error);
  url = probe_metrics_server_get_url (server);
  for (i = 0; i < G_N_ELEMENTS (half); i++) {
    half[i] = connect_raw (url);
    send_text (half[i], "GET /metrics HTTP/1.1\r\nHost: pro");
    /* Taken in this order, so that the first is the oldest. */
    g_assert_cmpuint (wait_for_count (server, COUNT (accepted), i + 1 +
            (i >= 4 ? i - 3 : 0)), >=, i + 1);
    if (i < 3)
      continue;
    g_assert_cmpuint (get_status (session, url), ==, 200);
    if (i == 3) {
      answer = read_until_closed (half[0]);
      g_assert_true (g_str_has_prefix (answer, "HTTP/1.1 408 "));
      g_free (answer);
    }
  }
  g_assert_cmpuint (stats_of (server).refused, ==, 0);
  g_assert_cmpuint (stats_of (server).evicted, >=, 9);
  g_assert_cmpuint (stats_of (server).header_deadlines, ==, 0);
  g_test_message ("%" G_GUINT64_FORMAT " evicted for 9 GETs",
      stats_of (server).evicted);

  for (i = 0; i < G_N_ELEMENTS (half); i++)
    g_object_unref (half[i]);
  g_object_unref (session);
  probe_metrics_server_stop (server);
}

/* With a cap of 4 and a 3 s header deadline (scaled; the idle timeout
 * 60 s, out of reach): a complete GET of a 16 MB render left unread, and
 * 3 connections that sent half a request line and headers. The deadline
 * answers the 3 with 408 and closes them, counted as such (not as
 * timeouts, lifetimes or evictions): a GET then answers. The unread GET, older than the 3, is not cut by the
 * deadline: its headers were whole; read afterwards, its 16 MB are all
 * there. */
static void
test_http_header_deadline (void)
{
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_16mb, NULL, 4, 60, scaled_s (3), &error);
  const gchar *url;
  SoupSession *session = soup_session_new_with_options ("proxy-resolver",
      NULL, NULL);
  GSocketConnection *whole, *half[3];
  gchar *answer;
  gint64 start;
  guint i;

  g_assert_no_error (error);
  url = probe_metrics_server_get_url (server);
  whole = connect_raw (url);
  send_text (whole, "GET /metrics HTTP/1.1\r\nHost: probe\r\n\r\n");
  g_assert_cmpuint (wait_for_count (server, COUNT (scrapes), 1), ==, 1);
  start = g_get_monotonic_time ();
  for (i = 0; i < G_N_ELEMENTS (half); i++) {
    half[i] = connect_raw (url);
    send_text (half[i], "GET /metrics HTTP/1.1\r\nHost: pro");
  }
  for (i = 0; i < G_N_ELEMENTS (half); i++) {
    answer = read_until_closed (half[i]);
    g_assert_true (g_str_has_prefix (answer, "HTTP/1.1 408 "));
    g_assert_nonnull (strstr (answer, "\r\nConnection: close\r\n"));
    g_free (answer);
  }
  g_test_message ("3 half-sent requests answered 408 after %"
      G_GINT64_FORMAT " us", g_get_monotonic_time () - start);
  g_assert_cmpuint (stats_of (server).header_deadlines, ==, 3);
  /* A round trip later, a deadline due with theirs has run too. */
  g_assert_cmpuint (get_status (session, url), ==, 200);
  g_assert_cmpuint (stats_of (server).header_deadlines, ==, 3);
  g_assert_cmpuint (stats_of (server).lifetimes_ended, ==, 0);
  g_assert_cmpuint (stats_of (server).evicted, ==, 0);

  answer = read_until_closed (whole);
  g_assert_true (g_str_has_prefix (answer, "HTTP/1.1 200 "));
  g_assert_cmpuint (strlen (answer) - header_end (answer), >=, 16 << 20);
  g_free (answer);

  for (i = 0; i < G_N_ELEMENTS (half); i++)
    g_object_unref (half[i]);
  g_object_unref (whole);
  g_object_unref (session);
  probe_metrics_server_stop (server);
}

/* A client sending its request a byte every 0.2 s, which the 2 s idle
 * timeout never catches, is answered 408 by the 1 s header deadline,
 * counted as such, well before its lifetime (6 s) would end it and
 * before its request is whole. */
static void
test_http_header_trickle (void)
{
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_fixed, NULL, 4, 2, 1, &error);
  GSocketConnection *slow;
  GSocket *socket;
  GString *request = g_string_new ("GET /metrics HTTP/1.1\r\n"
      "Host: probe\r\nX-Padding: "), *answer = g_string_new (NULL);
  gboolean closed = FALSE;
  gchar buf[256];
  gssize n;
  guint i;

  g_assert_no_error (error);
  /* 30 s of bytes: past the deadline, the idle timeout and the life. */
  while (request->len < 150)
    g_string_append_c (request, 'a');
  slow = connect_raw (probe_metrics_server_get_url (server));
  socket = g_socket_connection_get_socket (slow);
  for (i = 0; i < request->len && !closed; i++) {
    if (g_socket_condition_timed_wait (socket, G_IO_IN, G_USEC_PER_SEC / 5,
            NULL, NULL)) {
      while ((n = g_socket_receive (socket, buf, sizeof buf, NULL,
                  &error)) > 0)
        g_string_append_len (answer, buf, n);
      g_clear_error (&error);
      closed = TRUE;
    } else if (g_socket_send (socket, request->str + i, 1, NULL,
            &error) != 1) {
      g_clear_error (&error);
      closed = TRUE;
    }
  }
  g_test_message ("a byte every 0.2 s: %u of %" G_GSIZE_FORMAT " bytes "
      "sent, answered \"%.24s\"", i, request->len, answer->str);
  g_assert_true (closed);
  g_assert_cmpuint (i, <, request->len);
  g_assert_true (g_str_has_prefix (answer->str, "HTTP/1.1 408 "));
  g_assert_cmpuint (stats_of (server).header_deadlines, ==, 1);
  g_assert_cmpuint (stats_of (server).lifetimes_ended, ==, 0);

  g_string_free (answer, TRUE);
  g_string_free (request, TRUE);
  g_object_unref (slow);
  probe_metrics_server_stop (server);
}

/* 32 clients GET an 11 MB render and never read it: rendered once for
 * them all (the server's count), and the process grows by less than
 * 32 MiB, not by the 352 MB of a copy each. */
static void
test_http_shared_render (void)
{
  GError *error = NULL;
  /* Timeouts out of reach: the renders stay held. */
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_11mb, NULL, 32, scaled_s (60), scaled_s (60),
      &error);
  const gchar *url;
  GSocketConnection *slow[32];
  gsize before, grown;
  guint i;

  g_assert_no_error (error);
  url = probe_metrics_server_get_url (server);
  /* The first client's render, and whatever making it kept (an
   * allocator's, or AddressSanitizer's quarantine of freed memory), come
   * before the measure: what the 31 others cost is what is measured. */
  slow[0] = connect_raw (url);
  send_text (slow[0], "GET /metrics HTTP/1.1\r\nHost: probe\r\n\r\n");
  g_assert_cmpuint (wait_for_count (server, COUNT (scrapes), 1), ==, 1);
  before = resident_bytes ();
  for (i = 1; i < G_N_ELEMENTS (slow); i++) {
    slow[i] = connect_raw (url);
    send_text (slow[i], "GET /metrics HTTP/1.1\r\nHost: probe\r\n\r\n");
  }
  g_assert_cmpuint (wait_for_count (server, COUNT (scrapes), 32), ==, 32);
  grown = resident_bytes () - MIN (before, resident_bytes ());
  g_test_message ("31 more unread 11 MB scrapes: %" G_GUINT64_FORMAT
      " render(s) in all, resident memory grew by %.1f MiB",
      stats_of (server).renders, grown / 1048576.0);
  /* The first render alone passes the 8 MiB the held renders may take
   * before they are shared: the 31 scrapes after it share it, and add
   * less than one render's 11 MB (a copy each: 341 MB). */
  g_assert_cmpuint (stats_of (server).renders, ==, 1);
  g_assert_cmpuint (grown, <, 11 << 20);

  for (i = 0; i < G_N_ELEMENTS (slow); i++)
    g_object_unref (slow[i]);
  probe_metrics_server_stop (server);
}

static GBytes *
gunzip (GBytes *gzip)
{
  GConverter *decompressor = G_CONVERTER (g_zlib_decompressor_new
      (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
  GInputStream *in = g_memory_input_stream_new_from_bytes (gzip);
  GInputStream *plain = g_converter_input_stream_new (in, decompressor);
  GOutputStream *out = g_memory_output_stream_new_resizable ();
  GError *error = NULL;
  GBytes *bytes;

  g_output_stream_splice (out, plain, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE
      | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM
      (out));
  g_object_unref (out);
  g_object_unref (plain);
  g_object_unref (in);
  g_object_unref (decompressor);
  return bytes;
}

/* GET with @accept as Accept-Encoding (NULL: none), by a client that
 * decodes nothing itself; says whether the body came gzip. */
static GBytes *
get_encoded (SoupSession *session, const gchar *url, const gchar *accept,
    gboolean *gzip)
{
  GBytes *body;
  SoupMessage *msg = soup_message_new ("GET", url);
  SoupMessageHeaders *headers;
  GError *error = NULL;

  if (accept)
    soup_message_headers_replace (soup_message_get_request_headers (msg),
        "Accept-Encoding", accept);
  body = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  headers = soup_message_get_response_headers (msg);
  g_assert_cmpstr (soup_message_headers_get_one (headers, "Vary"), ==,
      "Accept-Encoding");
  *gzip = g_strcmp0 (soup_message_headers_get_one (headers,
          "Content-Encoding"), "gzip") == 0;
  g_object_unref (msg);
  return body;
}

/* Accept-Encoding: gzip (Prometheus sends it) gets the body gzip, which
 * decompresses to exactly the plain body; without the header, or with
 * gzip refused (q=0) or not named, plain; "*" takes gzip. Each render is
 * compressed at most once. */
static void
test_http_gzip (void)
{
  const struct
  {
    const gchar *accept;
    gboolean gzip;
  } cases[] = {
    {"gzip", TRUE}, {"deflate, GZIP;q=0.5", TRUE}, {"x-gzip", TRUE},
    {"*", TRUE}, {"gzip;q=0", FALSE}, {"*, gzip;q=0", FALSE},
    {"deflate, br", FALSE}, {"identity", FALSE},
  };
  GError *error = NULL;
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_1mb, NULL, 4, 10, 10, &error);
  SoupSession *session = soup_session_new_with_options ("proxy-resolver",
      NULL, NULL);
  const gchar *url;
  GBytes *plain, *body, *unzipped;
  gboolean gzip;
  guint i;

  g_assert_no_error (error);
  url = probe_metrics_server_get_url (server);
  /* The client's own decoder would ask for gzip and hide it. */
  soup_session_remove_feature_by_type (session, SOUP_TYPE_CONTENT_DECODER);
  plain = get_encoded (session, url, NULL, &gzip);
  g_assert_false (gzip);
  body = get_encoded (session, url, "gzip", &gzip);
  g_assert_true (gzip);
  unzipped = gunzip (body);
  g_test_message ("gzip: %" G_GSIZE_FORMAT " bytes for %" G_GSIZE_FORMAT,
      g_bytes_get_size (body), g_bytes_get_size (unzipped));
  g_assert_true (g_bytes_equal (unzipped, plain));
  g_assert_cmpuint (g_bytes_get_size (body), <, g_bytes_get_size (plain));
  g_bytes_unref (unzipped);
  g_bytes_unref (body);

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    body = get_encoded (session, url, cases[i].accept, &gzip);
    g_test_message ("Accept-Encoding: %s: %s", cases[i].accept,
        gzip ? "gzip" : "plain");
    g_assert_cmpint (gzip, ==, cases[i].gzip);
    unzipped = gzip ? gunzip (body) : g_bytes_ref (body);
    g_assert_true (g_bytes_equal (unzipped, plain));
    g_bytes_unref (unzipped);
    g_bytes_unref (body);
  }
  g_assert_cmpuint (stats_of (server).compressions, >=, 1);
  g_assert_cmpuint (stats_of (server).compressions, <=,
      stats_of (server).renders);

  g_bytes_unref (plain);
  g_object_unref (session);
  probe_metrics_server_stop (server);
}

static void
assert_refused (const gchar *address, GQuark domain, gint code,
    const gchar *words)
{
  GError *error = NULL;
  ProbeMetrics *m = probe_metrics_new (address, &error);

  g_assert_null (m);
  g_assert_error (error, domain, code);
  if (!strstr (error->message, words))
    g_error ("%s: \"%s\" does not say \"%s\"", address, error->message,
        words);
  g_error_free (error);
}

/* Addresses that are not: each error says what to write; a port in use
 * names it; :PORT, a name and [IPv6] listen. */
static void
test_addresses (void)
{
  const struct
  {
    const gchar *address;
    const gchar *words;
  } bad[] = {
    {"", "has no port: give HOST:PORT, :PORT"},
    {"9610", "has no port: give HOST:PORT"},
    {"127.0.0.1", "has no port"},
    {"127.0.0.1:", "not a number from 0 to 65535 (0: any free port)"},
    {":", "0 to 65535"},
    {"127.0.0.1:65536", "0 to 65535"},
    {":-1", "0 to 65535"},
    {":96x", "0 to 65535"},
    {"::1:9610", "an IPv6 address goes in brackets, such as [::1]:9610"},
    {"[::1]9610", "is not an address: give HOST:PORT"},
    {"[::1", "is not an address"},
    {"[127.0.0.1]:9610", "in brackets is not an IPv6 address"},
    {"[nonsense]:1", "in brackets is not an IPv6 address"},
    {"name.invalid:9610", "cannot resolve \"name.invalid\""},
  };
  ProbeMetrics *m = metrics_new (), *other;
  gchar *url = probe_metrics_get_url (m);
  gchar *port = g_strrstr (url, ":") + 1, *taken;
  GError *error = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_refused (bad[i].address, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        bad[i].words);
  *strchr (port, '/') = '\0';
  taken = g_strdup_printf ("127.0.0.1:%s", port);
  {
    gchar *words = g_strdup_printf ("port %s is in use", port);

    assert_refused (taken, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE, words);
    g_free (words);
  }
  g_free (taken);
  g_free (url);
  probe_metrics_free (m);

  for (i = 0; i < 3; i++) {
    const gchar *address = (const gchar *[]) { ":0", "localhost:0",
      "[::1]:0" }[i];

    other = probe_metrics_new (address, &error);
    if (i == 2 && !other) {
      g_test_message ("no IPv6 here: %s", error->message);
      g_clear_error (&error);
      continue;
    }
    g_assert_no_error (error);
    url = probe_metrics_get_url (other);
    g_test_message ("%s: %s", address, url);
    g_assert_false (g_str_has_suffix (url, ":0/metrics"));
    if (i == 2)
      g_assert_true (g_str_has_prefix (url, "http://[::1]:"));
    g_free (url);
    probe_metrics_free (other);
  }
  /* Nothing asked for: NULL takes everything and does nothing. */
  probe_metrics_add_input (NULL, "cam");
  probe_metrics_set_up (NULL, "cam", TRUE);
  probe_metrics_free (NULL);
}

/* GET (or @method) of @path on @m's server: its status, its body as
 * text (NUL-terminated), a header's value. */
static guint
get_page (ProbeMetrics *m, SoupSession *session, const gchar *method,
    const gchar *path, GBytes **body, const gchar *header, gchar **value)
{
  gchar *url = probe_metrics_get_url (m);
  gchar *page;
  SoupMessage *msg;
  guint status;

  url[strlen (url) - strlen ("/metrics")] = '\0';
  page = g_strconcat (url, path, NULL);
  msg = request (session, method, page, body);
  status = soup_message_get_status (msg);

  if (header)
    *value = g_strdup (soup_message_headers_get_one
        (soup_message_get_response_headers (msg), header));
  g_object_unref (msg);
  g_free (page);
  g_free (url);
  return status;
}

static guint
status_of_page (ProbeMetrics *m, SoupSession *session, const gchar *path)
{
  GBytes *body;
  guint status = get_page (m, session, "GET", path, &body, NULL, NULL);

  g_bytes_unref (body);
  return status;
}

static gchar *
page_text (ProbeMetrics *m, SoupSession *session, const gchar *path,
    guint want)
{
  GBytes *body;
  gchar *type = NULL, *text;

  g_assert_cmpuint (get_page (m, session, "GET", path, &body,
          "Cache-Control", &type), ==, want);
  g_assert_cmpstr (type, ==, "no-store");
  text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  g_bytes_unref (body);
  g_free (type);
  return text;
}

static void
assert_has (const gchar *text, const gchar *part)
{
  if (!strstr (text, part))
    g_error ("\"%s\" is not in:\n%s", part, text);
}

/* The NAME of a picture's path: decoded by libsoup, looked up as it is,
 * slashes included; other paths none. */
static void
test_picture_paths (void)
{
  const struct
  {
    const gchar *path;
    const gchar *name;
  } cases[] = {
    {"/inputs/cam/monitor.png", "cam"},
    {"/inputs/sub dir/a<b>.avi/monitor.png", "sub dir/a<b>.avi"},
    {"/inputs/x/monitor.png/monitor.png", "x/monitor.png"},
    {"/inputs/monitor.png", NULL},
    {"/inputs//monitor.png", NULL},
    {"/inputs/cam", NULL},
    {"/inputs/cam/monitor.png/x", NULL},
    {"/inputs/cam/monitor.jpg", NULL},
    {"/metrics", NULL},
    {"/", NULL},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *name = probe_monitor_page_input_of (cases[i].path);

    g_assert_cmpstr (name, ==, cases[i].name);
    g_free (name);
  }
  g_assert_true (probe_monitor_page_claims ("/"));
  g_assert_true (probe_monitor_page_claims ("/inputs/x"));
  g_assert_false (probe_monitor_page_claims ("/index.html"));
  g_assert_false (probe_monitor_page_claims ("/inputs"));
}

/* A PNG's first bytes, as a picture; what the pages send is what they
 * were given, whatever it holds. */
static GBytes *
fake_png (gsize size, guchar fill)
{
  guchar *data = g_malloc (size);

  memset (data, fill, size);
  memcpy (data, "\x89PNG\r\n\x1a\n", MIN (size, 8));
  return g_bytes_new_take (data, size);
}

/* The index and the pictures through the metrics' own server: none
 * while no input has pictures; the index's names escaped, its states,
 * alerts and pictures; a picture 503 before the first, the bytes given
 * after, 404 for an unknown name, an input without pictures, a path
 * that is no picture's; a removed input's late picture not listed. */
static void
test_pictures (void)
{
  ProbeMetrics *m = metrics_new ();
  SoupSession *session = soup_session_new_with_options ("proxy-resolver",
      NULL, NULL);
  const gchar *weird = "sub dir/we<ird> & \"x\" 'y'\x01.avi";
  gchar *weird_path, *escaped, *text, *value = NULL;
  GstStructure *alert;
  GBytes *png = fake_png (5000, 7), *body;

  probe_metrics_add_input (m, "cam");
  probe_metrics_add_input (m, weird);
  probe_metrics_add_input (m, "off");
  /* No input has pictures: no page but /metrics' own. */
  g_assert_cmpuint (status_of_page (m, session, "/"), ==, 404);
  g_assert_cmpuint (status_of_page (m, session, "/inputs/cam/monitor.png"),
      ==, 404);
  probe_metrics_set_picture_period (m, "cam", G_USEC_PER_SEC / 2);
  probe_metrics_set_picture_period (m, weird, 3 * G_USEC_PER_SEC);
  probe_metrics_set_alerts (m, "cam", 2, 0);

  text = page_text (m, session, "/", 200);
  g_assert_true (g_str_has_prefix (text, "<!DOCTYPE html>\n"));
  assert_has (text, "<meta http-equiv=\"refresh\" content=\"1\">");
  assert_has (text, "<h2>cam</h2>");
  assert_has (text, "<h2>sub dir/we&lt;ird&gt; &amp; &quot;x&quot; "
      "&#39;y&#39;\xef\xbf\xbd.avi</h2>");
  g_assert_null (strstr (text, "we<ird>"));
  assert_has (text, "<a href=\"metrics\">metrics</a>");
  assert_has (text, "<p class=\"state\">starting</p>");
  assert_has (text, "No picture yet");
  assert_has (text, "No monitor picture (monitor-pictures 0)");
  assert_has (text, "not clipped");
  g_free (text);

  /* Before the first picture: 503, come back in a period. */
  g_assert_cmpuint (get_page (m, session, "GET", "/inputs/cam/monitor.png",
          &body, "Retry-After", &value), ==, 503);
  g_assert_cmpstr (value, ==, "1");
  g_clear_pointer (&value, g_free);
  g_bytes_unref (body);
  probe_metrics_set_picture (m, "cam", png, 320, 346);
  g_assert_cmpuint (get_page (m, session, "GET", "/inputs/cam/monitor.png",
          &body, "Content-Type", &value), ==, 200);
  g_assert_cmpstr (value, ==, "image/png");
  g_clear_pointer (&value, g_free);
  g_assert_true (g_bytes_equal (body, png));
  g_bytes_unref (body);
  g_assert_cmpuint (get_page (m, session, "HEAD", "/inputs/cam/monitor.png",
          &body, NULL, NULL), ==, 200);
  g_assert_cmpuint (g_bytes_get_size (body), ==, 0);
  g_bytes_unref (body);
  g_assert_cmpuint (get_page (m, session, "POST", "/inputs/cam/monitor.png",
          &body, NULL, NULL), ==, 405);
  g_bytes_unref (body);
  /* The name percent-encoded, its slash too. */
  escaped = g_uri_escape_string (weird, NULL, FALSE);
  weird_path = g_strdup_printf ("/inputs/%s/monitor.png", escaped);
  g_assert_cmpuint (status_of_page (m, session, weird_path), ==, 503);
  /* Names that are no input's, or one without pictures, and paths that
   * are no picture's. */
  g_assert_cmpuint (status_of_page (m, session, "/inputs/off/monitor.png"),
      ==, 404);
  g_assert_cmpuint (status_of_page (m, session, "/inputs/nobody/monitor.png"),
      ==, 404);
  g_assert_cmpuint (status_of_page (m, session, "/inputs/CAM/monitor.png"),
      ==, 404);
  g_assert_cmpuint (status_of_page (m, session, "/inputs/cam"), ==, 404);
  g_assert_cmpuint (status_of_page (m, session,
          "/inputs/cam/monitor.png/x"), ==, 404);
  g_assert_cmpuint (status_of_page (m, session, "/inputs/"), ==, 404);
  g_assert_cmpuint (status_of_page (m, session, "/index.html"), ==, 404);

  /* The index with the picture, and an alert on in two zones. */
  alert = structure ("exposure, alert=(string)clipped, event=(string)start, "
      "active=(boolean)true, active-zones=(int)< 3, 2 >");
  probe_metrics_take_message (m, "cam", alert);
  gst_structure_free (alert);
  probe_metrics_set_up (m, "cam", TRUE);
  text = page_text (m, session, "/", 200);
  assert_has (text, "<img src=\"inputs/cam/monitor.png?picture=1\" "
      "width=\"320\" height=\"346\"");
  assert_has (text, "<section class=\"input state-up\" data-state=\"up\">");
  assert_has (text, "<span class=\"alert active\" data-alert=\"clipped\">"
      "clipped (zones 2, 3)</span>");
  g_free (text);
  /* Zones whose message gives their places are named by position. */
  alert = structure ("exposure, alert=(string)clipped, event=(string)start, "
      "active=(boolean)true, active-zones=(int)< 4, 2 >, "
      "active-zone-row=(uint)< 1, 0 >, active-zone-column=(uint)< 1, 2 >, "
      "active-zone-position=(string)< centre, top-right >");
  probe_metrics_take_message (m, "cam", alert);
  gst_structure_free (alert);
  text = page_text (m, session, "/", 200);
  assert_has (text, "<span class=\"alert active\" data-alert=\"clipped\">"
      "clipped (zones top-right, centre)</span>");
  g_free (text);

  /* Removed (a reload): its late picture does not bring it back. */
  probe_metrics_remove_input (m, "cam");
  probe_metrics_set_picture (m, "cam", png, 320, 346);
  g_assert_cmpuint (status_of_page (m, session, "/inputs/cam/monitor.png"),
      ==, 404);
  text = page_text (m, session, "/", 200);
  g_assert_null (strstr (text, "<h2>cam</h2>"));
  g_free (text);
  /* No input with pictures left: the pages go. */
  probe_metrics_set_picture_period (m, weird, 0);
  g_assert_cmpuint (status_of_page (m, session, "/"), ==, 404);
  g_assert_cmpuint (status_of_page (m, session, weird_path), ==, 404);

  g_free (weird_path);
  g_free (escaped);
  g_bytes_unref (png);
  g_object_unref (session);
  probe_metrics_free (m);
}

static gboolean
claim_pictures (const gchar *path, gpointer data)
{
  return probe_metrics_has_pictures (data)
      && probe_monitor_page_claims (path);
}

static void
answer_pictures (const gchar *path, ProbeMetricsPage *page, gpointer data)
{
  probe_monitor_page_answer (data, path, page);
}

/* 32 clients that ask for an 11 MB picture and read none of it: each
 * answer is a reference to the one picture, not a copy; resident memory
 * grows by less than one picture (a copy each: 352 MB). */
static void
test_http_pictures_shared (void)
{
  ProbeMetrics *m = metrics_new ();
  GBytes *png = fake_png (11 << 20, 0x5a);
  GError *error = NULL;
  /* Timeouts out of reach: the answers stay held. */
  ProbeMetricsServer *server = probe_metrics_server_start_with_limits
      ("127.0.0.1:0", render_1mb, NULL, 32, scaled_s (60), scaled_s (60),
      &error);
  const gchar *url;
  const gchar *get = "GET /inputs/cam/monitor.png HTTP/1.1\r\n"
      "Host: probe\r\n\r\n";
  GSocketConnection *slow[32];
  gsize before, grown;
  guint i;

  g_assert_no_error (error);
  probe_metrics_server_set_pages (server, claim_pictures, answer_pictures,
      m);
  probe_metrics_add_input (m, "cam");
  probe_metrics_set_picture_period (m, "cam", G_USEC_PER_SEC);
  probe_metrics_set_picture (m, "cam", png, 4000, 4000);
  url = probe_metrics_server_get_url (server);
  /* What the first answer makes (libsoup's buffers) before the measure. */
  slow[0] = connect_raw (url);
  send_text (slow[0], get);
  g_assert_cmpuint (wait_for_count (server, COUNT (pages), 1), ==, 1);
  before = resident_bytes ();
  for (i = 1; i < G_N_ELEMENTS (slow); i++) {
    slow[i] = connect_raw (url);
    send_text (slow[i], get);
  }
  g_assert_cmpuint (wait_for_count (server, COUNT (pages), 32), ==, 32);
  grown = resident_bytes () - MIN (before, resident_bytes ());
  g_test_message ("31 more unread 11 MB pictures: resident memory grew by "
      "%.1f MiB", grown / 1048576.0);
  g_assert_cmpuint (grown, <, 11 << 20);
  /* The picture replaced meanwhile: those sending the old keep it. */
  g_bytes_unref (png);
  png = fake_png (100, 1);
  probe_metrics_set_picture (m, "cam", png, 10, 10);

  for (i = 0; i < G_N_ELEMENTS (slow); i++)
    g_object_unref (slow[i]);
  probe_metrics_server_stop (server);
  g_bytes_unref (png);
  probe_metrics_free (m);
}

int
main (int argc, char **argv)
{
  test_started = g_get_real_time () / 1e6;
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/probe-metrics/families", test_families);
  g_test_add_func ("/probe-metrics/process", test_process);
  g_test_add_func ("/probe-metrics/escaping", test_escaping);
  g_test_add_func ("/probe-metrics/histogram", test_histogram);
  g_test_add_func ("/probe-metrics/quantile-labels", test_quantile_labels);
  g_test_add_func ("/probe-metrics/max-regions", test_max_regions);
  g_test_add_func ("/probe-metrics/max-series", test_max_series);
  g_test_add_func ("/probe-metrics/alerts", test_alerts);
  g_test_add_func ("/probe-metrics/zone-places", test_zone_places);
  g_test_add_func ("/probe-metrics/states", test_states);
  g_test_add_func ("/probe-metrics/losses-dropped", test_losses_dropped);
  g_test_add_func ("/probe-metrics/losses-late", test_losses_late);
  g_test_add_func ("/probe-metrics/real-messages", test_real_messages);
  g_test_add_func ("/probe-metrics/snapshot", test_snapshot);
  g_test_add_func ("/probe-metrics/http", test_http);
  g_test_add_func ("/probe-metrics/http-body-unread", test_http_body_unread);
  g_test_add_func ("/probe-metrics/http-timeout", test_http_timeout);
  g_test_add_func ("/probe-metrics/http-lifetime", test_http_lifetime);
  g_test_add_func ("/probe-metrics/http-cap", test_http_cap);
  g_test_add_func ("/probe-metrics/http-evict", test_http_evict);
  g_test_add_func ("/probe-metrics/http-accept-failing",
      test_http_accept_failing);
  g_test_add_func ("/probe-metrics/http-header-deadline",
      test_http_header_deadline);
  g_test_add_func ("/probe-metrics/http-header-trickle",
      test_http_header_trickle);
  g_test_add_func ("/probe-metrics/http-shared-render",
      test_http_shared_render);
  g_test_add_func ("/probe-metrics/http-gzip", test_http_gzip);
  g_test_add_func ("/probe-metrics/addresses", test_addresses);
  g_test_add_func ("/probe-metrics/picture-paths", test_picture_paths);
  g_test_add_func ("/probe-metrics/pictures", test_pictures);
  g_test_add_func ("/probe-metrics/http-pictures-shared",
      test_http_pictures_shared);
  return g_test_run ();
}
