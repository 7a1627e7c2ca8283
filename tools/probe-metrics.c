/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's values for Prometheus, in its text exposition format
 * (version 0.0.4, Prometheus' documentation, "Exposition formats"): for
 * each input, its state and counters, and the statistics of its last
 * `histogram` message for the whole frame, each zone (label `zone`, and
 * its place in the grid: `row`, `column`, `position`) and each fixed
 * region (label `region`); its exposure alerts from the `exposure`
 * messages. One lock keeps each input's values those of one
 * message whenever a scrape reads them. */
#include "probe-metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe-metrics-process.h"

#ifdef HAVE_PROBE_METRICS_SERVER
#include "probe-metrics-server.h"
#include "probe-monitor-page.h"
#endif

typedef enum
{
  FAMILY_STATE,
  FAMILY_UP,
  FAMILY_OUTAGES,
  FAMILY_RETRIES,
  FAMILY_RECONNECTS,
  FAMILY_FRAMES,
  FAMILY_DROPPED,
  FAMILY_LATE,
  FAMILY_MESSAGES,
  FAMILY_LAST_TIMESTAMP,
  FAMILY_ALERT_THRESHOLD,
  FAMILY_MEAN,
  FAMILY_MIN,
  FAMILY_MAX,
  FAMILY_QUANTILE,
  FAMILY_CLIPPED_HIGH,
  FAMILY_CLIPPED_LOW,
  FAMILY_METERING,
  FAMILY_ALERT_ACTIVE,
  N_FAMILIES
} Family;

/* The families of a message's statistics, whose rows are made from the
 * message when a scrape first needs them. */
#define FIRST_STATISTIC FAMILY_MEAN
#define LAST_STATISTIC FAMILY_METERING

static const struct
{
  const gchar *name;
  const gchar *type;
  const gchar *help;
} families[N_FAMILIES] = {
  [FAMILY_STATE] = {"clhistogram_input_state", "gauge",
      "1 for the input's state (label state), 0 for the others: starting "
        "(before its first frame), up (delivering frames), down (failed, "
        "stalled or its live stream ended: a live input is retried), ended "
        "(a file at its end, or stopped)"},
  [FAMILY_UP] = {"clhistogram_input_up", "gauge",
      "1 while the input delivers frames (state up), else 0"},
  [FAMILY_OUTAGES] = {"clhistogram_input_outages_total", "counter",
      "Times the input went down from up or from its start: one per "
        "period down, whatever the retries in it"},
  [FAMILY_RETRIES] = {"clhistogram_input_retries_total", "counter",
      "Retries of the input that failed while it was down"},
  [FAMILY_RECONNECTS] = {"clhistogram_input_reconnects_total", "counter",
      "Times the input came back up after it went down"},
  [FAMILY_FRAMES] = {"clhistogram_frames_total", "counter",
      "Frames counted: the histogram messages' frames (1 each without "
        "an interval)"},
  [FAMILY_DROPPED] = {"clhistogram_frames_dropped_total", "counter",
      "Frames the input's pipeline dropped before they could be counted, "
        "as its elements report them in QoS messages: a decoder's frames "
        "it could not decode, a camera's frames its driver lost"},
  [FAMILY_LATE] = {"clhistogram_frames_late_total", "counter",
      "Frames counted more than 20 ms after their time on the pipeline "
        "clock (a live input's, or with --sync): those a video sink would "
        "drop as too late"},
  [FAMILY_MESSAGES] = {"clhistogram_messages_total", "counter",
      "Histogram messages taken"},
  [FAMILY_LAST_TIMESTAMP] = {"clhistogram_last_timestamp_seconds", "gauge",
      "When the last histogram message came, in seconds since the Unix "
        "epoch"},
  [FAMILY_ALERT_THRESHOLD] = {"clhistogram_alert_threshold_ratio", "gauge",
      "The share of the samples clipped high (label alert: clipped) or low "
        "(crushed) at which the input's exposure alert starts, 0 to 1; "
        "only for the alerts on for the input"},
  [FAMILY_MEAN] = {"clhistogram_mean", "gauge",
      "The mean sample value of the last histogram message, per channel, "
        "in code values of the depth in label bits"},
  [FAMILY_MIN] = {"clhistogram_min", "gauge",
      "The smallest sample value of the last histogram message, in code "
        "values of the depth in label bits"},
  [FAMILY_MAX] = {"clhistogram_max", "gauge",
      "The largest sample value of the last histogram message, in code "
        "values of the depth in label bits"},
  [FAMILY_QUANTILE] = {"clhistogram_quantile", "gauge",
      "The sample value at each quantile (label quantile, 0 to 1: the "
        "percentile / 100) of the last histogram message, in code values "
        "of the depth in label bits"},
  [FAMILY_CLIPPED_HIGH] = {"clhistogram_clipped_high_ratio", "gauge",
      "The share of the samples at or above the clip-high level, 0 to 1"},
  [FAMILY_CLIPPED_LOW] = {"clhistogram_clipped_low_ratio", "gauge",
      "The share of the samples at or below the clip-low level, 0 to 1"},
  [FAMILY_METERING] = {"clhistogram_metering_ratio", "gauge",
      "The metering value, 0 at nominal black and 1 at nominal white (the "
        "message's metering-percent / 100; beyond them out of the nominal "
        "range)"},
  [FAMILY_ALERT_ACTIVE] = {"clhistogram_alert_active", "gauge",
      "1 while the exposure alert (label alert: clipped or crushed) is on: "
        "the input's for the frame or any zone, a zone's for that zone "
        "(labels zone, row, column, position); only for the alerts on for "
        "the input"},
};

typedef enum
{
  ALERT_CLIPPED,
  ALERT_CRUSHED,
  N_ALERTS
} Alert;

/* Not a family of the inputs': one series, about the scrape itself. */
#define SERIES_DROPPED "clhistogram_metrics_series_dropped"
#define LINES_DROPPED "clhistogram_output_lines_dropped_total"

static const gchar *const alert_names[N_ALERTS] = { "clipped", "crushed" };

G_STATIC_ASSERT (N_ALERTS == PROBE_METRICS_N_ALERTS);

/* An input's states, one series each (clhistogram_input_state), 1 for
 * the current one, as node_exporter's node_systemd_unit_state: a rule
 * selects a state by its label (state="down"), and every state's series
 * is there from the input's start, so that none appears out of nothing
 * when the state changes. */
typedef enum
{
  STATE_STARTING,
  STATE_UP,
  STATE_DOWN,
  STATE_ENDED,
  N_STATES
} State;

static const gchar *const state_names[N_STATES] = {
  "starting", "up", "down", "ended"
};

/* A zone: its id and, where its message gives them, the labels of its
 * place in the grid (`,row="1",column="2",position="right"`; "" for
 * none) and its position alone (NULL for none). A zone's place follows
 * from its id and the grid, so these labels add no series: each zone
 * keeps one per family. */
typedef struct
{
  gint id;
  gchar *place;
  gchar *position;
} Zone;

/* What one histogram message gives: the statistics' rows, and the zones
 * their alerts are reported for. */
typedef struct
{
  GString *rows[N_FAMILIES];
  /* Zone, ascending by id as the message gives them. */
  GArray *zones;
} Statistics;

typedef struct
{
  gchar *name;
  /* `input="NAME"`, escaped. */
  gchar *label;
  State state;
  gboolean was_up;
  guint64 reconnects;
  guint64 outages;
  guint64 retries;
  guint64 frames;
  guint64 dropped;
  guint64 late;
  guint64 messages;
  gdouble last_timestamp;
  /* The last `histogram` message, and its rows, made from it when a
   * scrape first needs them: a frame costs a copy of its message, and
   * the text is built at most once a scrape, not once a frame. */
  GstStructure *message;
  Statistics *statistics;
  /* Each alert's threshold, percent of the samples; 0: off. */
  gdouble threshold[N_ALERTS];
  gboolean alert_active[N_ALERTS];
  /* Zone, those whose alert is on. */
  GArray *alert_zones[N_ALERTS];
  /* --monitor-pictures (0: none), and the last picture made (NULL: none
   * yet), kept over the input's runs: a camera that went down shows its
   * last, with its state. */
  gint64 picture_period_us;
  GBytes *picture;
  guint picture_width;
  guint picture_height;
  gint64 picture_time;
  guint64 pictures;
  gchar *picture_error;
} Input;

struct _ProbeMetrics
{
  GMutex lock;
  /* Input *, in the order they came; and by name. */
  GPtrArray *inputs;
  GHashTable *by_name;
  /* Set before any message: the zones and regions of a message kept,
   * the first ones; and the series a scrape gives at most. */
  guint max_regions;
  guint max_series;
  /* Lines stdout could not take in time (probe-output.c). */
  guint64 lines_dropped;
#ifdef HAVE_PROBE_METRICS_SERVER
  ProbeMetricsServer *server;
#endif
};

/* A label value as the format writes one: backslash, double quote and
 * line feed escaped, in UTF-8 (a file name need not be). */
static void
append_label (GString *out, const gchar *name, const gchar *value)
{
  gchar *valid = g_utf8_make_valid (value, -1);
  const gchar *c;

  g_string_append_printf (out, "%s=\"", name);
  for (c = valid; *c; c++) {
    if (*c == '\\')
      g_string_append (out, "\\\\");
    else if (*c == '"')
      g_string_append (out, "\\\"");
    else if (*c == '\n')
      g_string_append (out, "\\n");
    else
      g_string_append_c (out, *c);
  }
  g_string_append_c (out, '"');
  g_free (valid);
}

/* The shortest decimal form that reads back as the same double, as Go's
 * strconv (Prometheus' parser) reads it; the format's words for the
 * non-finite. */
static void
append_double (GString *out, gdouble v)
{
  gchar text[G_ASCII_DTOSTR_BUF_SIZE];
  static const gchar *const formats[] = { "%.15g", "%.16g", "%.17g" };
  guint i;

  if (isnan (v)) {
    g_string_append (out, "NaN");
    return;
  }
  if (isinf (v)) {
    g_string_append (out, v > 0 ? "+Inf" : "-Inf");
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    g_ascii_formatd (text, sizeof text, formats[i], v);
    if (g_ascii_strtod (text, NULL) == v)
      break;
  }
  g_string_append (out, text);
}

/* One sample: `name{labels} value`. */
static void
append_row (GString *out, Family family, const gchar *labels, gdouble value)
{
  g_string_append_printf (out, "%s{%s} ", families[family].name, labels);
  append_double (out, value);
  g_string_append_c (out, '\n');
}

static void
append_count (GString *out, Family family, const gchar *labels,
    guint64 value)
{
  g_string_append_printf (out, "%s{%s} %" G_GUINT64_FORMAT "\n",
      families[family].name, labels, value);
}

static gboolean
number_of (const GValue *value, gdouble *out)
{
  if (!value)
    return FALSE;
  if (G_VALUE_HOLDS_DOUBLE (value))
    *out = g_value_get_double (value);
  else if (G_VALUE_HOLDS_UINT (value))
    *out = g_value_get_uint (value);
  else if (G_VALUE_HOLDS_INT (value))
    *out = g_value_get_int (value);
  else if (G_VALUE_HOLDS_UINT64 (value))
    *out = (gdouble) g_value_get_uint64 (value);
  else if (G_VALUE_HOLDS_INT64 (value))
    *out = (gdouble) g_value_get_int64 (value);
  else
    return FALSE;
  return TRUE;
}

/* The message's fields as quarks, looked up once: g_quark_from_string(),
 * behind every lookup by name, takes GLib's one process-wide quark lock,
 * which the posting threads of many inputs would take turns at
 * (docs/performance.md, "Messages at many streams"). */
typedef struct {
  GQuark samples;
  GQuark channels;
  GQuark percentile_points;
  GQuark percentiles;
  GQuark mean;
  GQuark min;
  GQuark max;
  GQuark clipped_high;
  GQuark clipped_low;
  GQuark type;
  GQuark id;
  GQuark row;
  GQuark column;
  GQuark position;
  GQuark regions;
  GQuark metering_percent;
  GQuark active_zones;
  GQuark active_zone_row;
  GQuark active_zone_column;
  GQuark active_zone_position;
  GQuark alert;
  GQuark active;
  GQuark frames;
  GQuark depth;
} Fields;

static const Fields *
fields (void)
{
  static Fields f;
  static gsize done;

  if (g_once_init_enter (&done)) {
    f.samples = g_quark_from_static_string ("samples");
    f.channels = g_quark_from_static_string ("channels");
    f.percentile_points = g_quark_from_static_string ("percentile-points");
    f.percentiles = g_quark_from_static_string ("percentiles");
    f.mean = g_quark_from_static_string ("mean");
    f.min = g_quark_from_static_string ("min");
    f.max = g_quark_from_static_string ("max");
    f.clipped_high = g_quark_from_static_string ("clipped-high");
    f.clipped_low = g_quark_from_static_string ("clipped-low");
    f.type = g_quark_from_static_string ("type");
    f.id = g_quark_from_static_string ("id");
    f.row = g_quark_from_static_string ("row");
    f.column = g_quark_from_static_string ("column");
    f.position = g_quark_from_static_string ("position");
    f.regions = g_quark_from_static_string ("regions");
    f.metering_percent = g_quark_from_static_string ("metering-percent");
    f.active_zones = g_quark_from_static_string ("active-zones");
    f.active_zone_row = g_quark_from_static_string ("active-zone-row");
    f.active_zone_column = g_quark_from_static_string ("active-zone-column");
    f.active_zone_position =
        g_quark_from_static_string ("active-zone-position");
    f.alert = g_quark_from_static_string ("alert");
    f.active = g_quark_from_static_string ("active");
    f.frames = g_quark_from_static_string ("frames");
    f.depth = g_quark_from_static_string ("depth");
    g_once_init_leave (&done, 1);
  }
  return &f;
}

/* A field's value of the given type, NULL where it has none. */
static const GValue *
field_of (const GstStructure *s, GQuark field, GType type)
{
  const GValue *value = gst_structure_id_get_value (s, field);

  return value && G_VALUE_HOLDS (value, type) ? value : NULL;
}

/* The @i-th value of an array, NULL where there is none. */
static const GValue *
item (const GValue *array, guint i)
{
  if (!array || !GST_VALUE_HOLDS_ARRAY (array)
      || i >= gst_value_array_get_size (array))
    return NULL;
  return gst_value_array_get_value (array, i);
}

/* @zone's place, from its @row and @column (guint) and @position (a
 * string): its labels, each left out where it is NULL or not of its type
 * (a message that has none), and its position. */
static void
zone_set_place (Zone *zone, const GValue *row, const GValue *column,
    const GValue *position)
{
  GString *out = g_string_new (NULL);

  if (row && G_VALUE_HOLDS_UINT (row))
    g_string_append_printf (out, ",row=\"%u\"", g_value_get_uint (row));
  if (column && G_VALUE_HOLDS_UINT (column))
    g_string_append_printf (out, ",column=\"%u\"",
        g_value_get_uint (column));
  if (position && G_VALUE_HOLDS_STRING (position)
      && g_value_get_string (position)) {
    g_string_append_c (out, ',');
    append_label (out, "position", g_value_get_string (position));
    zone->position = g_value_dup_string (position);
  }
  zone->place = g_string_free (out, FALSE);
}

static void
zone_clear (Zone *zone)
{
  g_free (zone->place);
  g_free (zone->position);
}

/* An empty array of Zone, which frees their places. */
static GArray *
zones_new (void)
{
  GArray *zones = g_array_new (FALSE, FALSE, sizeof (Zone));

  g_array_set_clear_func (zones, (GDestroyNotify) zone_clear);
  return zones;
}

static gboolean
field_number (const GstStructure *s, GQuark field, guint i, gdouble *out)
{
  return number_of (item (gst_structure_id_get_value (s, field), i), out);
}

/* clipped-high (or -low) over samples; an area of no samples clips
 * nothing, as the element reports its statistics 0. */
static gboolean
clipped_ratio (const GstStructure *area, GQuark field, guint c,
    gdouble *ratio)
{
  gdouble clipped, samples;

  if (!field_number (area, field, c, &clipped)
      || !field_number (area, fields ()->samples, c, &samples))
    return FALSE;
  *ratio = samples > 0 ? clipped / samples : 0.0;
  return TRUE;
}

/* A quantile's label value as Prometheus writes one (0.01, 0.5, 0.99):
 * the percentile point's shortest decimal form, its point moved two
 * places left, so that 99.9 gives 0.999, where the double 99.9 / 100
 * would read 0.9990000000000001. */
static void
append_quantile (GString *out, gdouble point)
{
  GString *text = g_string_new (NULL);
  gchar **parts;
  GString *whole;
  gchar *fraction, *exponent;
  gsize skip = 0, length;

  append_double (text, point);
  if (!isfinite (point) || point < 0) {
    append_double (out, point / 100);
    g_string_free (text, TRUE);
    return;
  }
  /* A point under 0.0001 is written with an exponent: 1e-05, 1e-07. */
  if ((exponent = strchr (text->str, 'e'))) {
    gint e = atoi (exponent + 1) - 2;

    g_string_append_len (out, text->str, exponent - text->str);
    g_string_append_printf (out, "e%c%02d", e < 0 ? '-' : '+', ABS (e));
    g_string_free (text, TRUE);
    return;
  }
  parts = g_strsplit (text->str, ".", 2);
  whole = g_string_new (parts[0]);
  while (whole->len < 3)
    g_string_prepend_c (whole, '0');
  fraction = g_strconcat (whole->str + whole->len - 2,
      parts[1] ? parts[1] : "", NULL);
  g_string_truncate (whole, whole->len - 2);
  while (skip + 1 < whole->len && whole->str[skip] == '0')
    skip++;
  g_string_append (out, whole->str + skip);
  length = strlen (fraction);
  while (length > 0 && fraction[length - 1] == '0')
    fraction[--length] = '\0';
  if (length > 0) {
    g_string_append_c (out, '.');
    g_string_append (out, fraction);
  }
  g_free (fraction);
  g_string_free (whole, TRUE);
  g_strfreev (parts);
  g_string_free (text, TRUE);
}

/* The rows of one area (the frame, a zone or a region): @area holds its
 * statistics, @message the channels' names and percentile points.
 * @labels: the area's labels, input's first; @bits: the `bits` label of
 * the code values, empty where the message gives no depth. */
static void
add_area (Statistics *st, const GstStructure *message,
    const GstStructure *area, const gchar *labels, const gchar *bits)
{
  const Fields *q = fields ();
  const GValue *channels = gst_structure_id_get_value (message, q->channels);
  const GValue *points = gst_structure_id_get_value (message,
      q->percentile_points);
  GString *at = g_string_new (NULL), *coded = g_string_new (NULL);
  guint c, k;

  for (c = 0; item (channels, c); c++) {
    const GValue *name = item (channels, c);
    const GValue *percentiles = item (gst_structure_id_get_value (area,
            q->percentiles), c);
    gdouble v, point;

    if (!G_VALUE_HOLDS_STRING (name) || !g_value_get_string (name))
      continue;
    g_string_assign (at, labels);
    g_string_append_c (at, ',');
    append_label (at, "channel", g_value_get_string (name));
    g_string_assign (coded, at->str);
    g_string_append (coded, bits);
    if (field_number (area, q->mean, c, &v))
      append_row (st->rows[FAMILY_MEAN], FAMILY_MEAN, coded->str, v);
    if (field_number (area, q->min, c, &v))
      append_row (st->rows[FAMILY_MIN], FAMILY_MIN, coded->str, v);
    if (field_number (area, q->max, c, &v))
      append_row (st->rows[FAMILY_MAX], FAMILY_MAX, coded->str, v);
    for (k = 0; number_of (item (points, k), &point)
        && number_of (item (percentiles, k), &v); k++) {
      gsize length = coded->len;

      g_string_append (coded, ",quantile=\"");
      append_quantile (coded, point);
      g_string_append_c (coded, '"');
      append_row (st->rows[FAMILY_QUANTILE], FAMILY_QUANTILE, coded->str, v);
      g_string_truncate (coded, length);
    }
    if (clipped_ratio (area, q->clipped_high, c, &v))
      append_row (st->rows[FAMILY_CLIPPED_HIGH], FAMILY_CLIPPED_HIGH,
          at->str, v);
    if (clipped_ratio (area, q->clipped_low, c, &v))
      append_row (st->rows[FAMILY_CLIPPED_LOW], FAMILY_CLIPPED_LOW, at->str,
          v);
  }
  g_string_free (coded, TRUE);
  g_string_free (at, TRUE);
}

static void
statistics_free (Statistics *st)
{
  guint f;

  if (!st)
    return;
  for (f = 0; f < N_FAMILIES; f++)
    if (st->rows[f])
      g_string_free (st->rows[f], TRUE);
  g_array_unref (st->zones);
  g_free (st);
}

/* A zone's or fixed region's labels, a zone's place among them; FALSE for
 * a region of another kind (a ROI meta's, whose boxes come and go from
 * frame to frame). @zone: the zone (id -1 for a fixed region), its place
 * to free. */
static gboolean
region_labels (GString *labels, const gchar *input_label,
    const GstStructure *region, Zone *zone)
{
  const Fields *q = fields ();
  const GValue *type_value = field_of (region, q->type, G_TYPE_STRING);
  const GValue *id_value = field_of (region, q->id, G_TYPE_INT);
  const gchar *type = type_value ? g_value_get_string (type_value) : NULL;
  gint id;
  gchar *text;

  if (!type || !id_value
      || (strcmp (type, "zone") != 0 && strcmp (type, "region") != 0))
    return FALSE;
  id = g_value_get_int (id_value);
  text = g_strdup_printf ("%d", id);
  g_string_assign (labels, input_label);
  g_string_append_c (labels, ',');
  append_label (labels, type, text);
  g_free (text);
  zone->id = -1;
  zone->place = zone->position = NULL;
  if (strcmp (type, "zone") == 0) {
    zone->id = id;
    zone_set_place (zone, gst_structure_id_get_value (region, q->row),
        gst_structure_id_get_value (region, q->column),
        gst_structure_id_get_value (region, q->position));
    g_string_append (labels, zone->place);
  }
  return TRUE;
}

/* Every row a `histogram` message gives, made before the lock is taken,
 * for its first @max_regions zones and regions. */
static Statistics *
statistics_of (const gchar *input_label, const GstStructure *s,
    guint max_regions)
{
  Statistics *st = g_new0 (Statistics, 1);
  const GValue *regions = gst_structure_id_get_value (s, fields ()->regions);
  const GValue *percent = field_of (s, fields ()->metering_percent,
      G_TYPE_DOUBLE);
  const GValue *depth = field_of (s, fields ()->depth, G_TYPE_UINT);
  GString *labels = g_string_new (NULL);
  gchar *bits = depth ? g_strdup_printf (",bits=\"%u\"",
      g_value_get_uint (depth)) : g_strdup ("");
  guint f, r, kept = 0;

  for (f = FIRST_STATISTIC; f <= LAST_STATISTIC; f++)
    st->rows[f] = g_string_new (NULL);
  st->zones = zones_new ();
  add_area (st, s, s, input_label, bits);
  if (percent)
    append_row (st->rows[FAMILY_METERING], FAMILY_METERING, input_label,
        g_value_get_double (percent) / 100);
  for (r = 0; item (regions, r) && kept < max_regions; r++) {
    const GValue *region = item (regions, r);
    Zone zone;

    if (!GST_VALUE_HOLDS_STRUCTURE (region)
        || !gst_value_get_structure (region)
        || !region_labels (labels, input_label,
            gst_value_get_structure (region), &zone))
      continue;
    add_area (st, s, gst_value_get_structure (region), labels->str, bits);
    kept++;
    if (zone.id >= 0)
      g_array_append_val (st->zones, zone);
    else
      zone_clear (&zone);
  }
  g_string_free (labels, TRUE);
  g_free (bits);
  return st;
}

static void
input_free (Input *input)
{
  guint a;

  g_free (input->name);
  g_free (input->label);
  statistics_free (input->statistics);
  if (input->message)
    gst_structure_free (input->message);
  for (a = 0; a < N_ALERTS; a++)
    g_array_unref (input->alert_zones[a]);
  g_clear_pointer (&input->picture, g_bytes_unref);
  g_free (input->picture_error);
  g_free (input);
}

static gchar *
input_label_of (const gchar *name)
{
  GString *label = g_string_new (NULL);

  append_label (label, "input", name);
  return g_string_free (label, FALSE);
}

/* The input of that name, added if new; under the lock. */
static Input *
lookup (ProbeMetrics *m, const gchar *name)
{
  Input *input = g_hash_table_lookup (m->by_name, name);
  guint a;

  if (input)
    return input;
  input = g_new0 (Input, 1);
  input->name = g_strdup (name);
  input->label = input_label_of (name);
  for (a = 0; a < N_ALERTS; a++)
    input->alert_zones[a] = zones_new ();
  g_ptr_array_add (m->inputs, input);
  g_hash_table_insert (m->by_name, input->name, input);
  return input;
}

#ifdef HAVE_PROBE_METRICS_SERVER
static gchar *
render_callback (gpointer data)
{
  return probe_metrics_render (data);
}

/* The monitor pages are there while an input has pictures. */
static gboolean
claim_callback (const gchar *path, gpointer data)
{
  return probe_metrics_has_pictures (data)
      && probe_monitor_page_claims (path);
}

static void
page_callback (const gchar *path, ProbeMetricsPage *page, gpointer data)
{
  probe_monitor_page_answer (data, path, page);
}
#endif

/**
 * probe_metrics_new:
 * @address: where to serve /metrics: `HOST:PORT`, `:PORT` (every
 *   interface) or `[IPV6]:PORT`; port 0 takes any free port
 * @error: why not: G_OPTION_ERROR_BAD_VALUE for an address that is not
 *   one or a probe built without libsoup 3 (the text says what to do), a
 *   G_IO_ERROR when the address cannot be listened on
 *   (G_IO_ERROR_ADDRESS_IN_USE: the port is taken)
 *
 * Starts serving the metrics on a thread of its own; returns once the
 * server listens.
 *
 * Returns: (transfer full) (nullable): the metrics, to free with
 *   probe_metrics_free().
 */
ProbeMetrics *
probe_metrics_new (const gchar *address, GError **error)
{
  return probe_metrics_new_full (address, NULL, error);
}

/**
 * probe_metrics_new_full:
 * @address: as probe_metrics_new()'s
 * @web: (nullable) (transfer full): the server's TLS and basic
 *   authentication (--web-config); %NULL: plain HTTP, open to all
 * @error: as probe_metrics_new()'s
 *
 * probe_metrics_new() serving as @web says.
 *
 * Returns: (transfer full) (nullable): the metrics, to free with
 *   probe_metrics_free().
 */
ProbeMetrics *
probe_metrics_new_full (const gchar *address, ProbeWebConfig *web,
    GError **error)
{
  ProbeMetrics *m;

  g_return_val_if_fail (address != NULL, NULL);
  m = g_new0 (ProbeMetrics, 1);
  g_mutex_init (&m->lock);
  m->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) input_free);
  m->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  m->max_regions = PROBE_METRICS_ALL_REGIONS;
  m->max_series = PROBE_METRICS_MAX_SERIES;
#ifdef HAVE_PROBE_METRICS_SERVER
  m->server = probe_metrics_server_start_web (address, web,
      render_callback, m, error);
  if (!m->server) {
    probe_metrics_free (m);
    return NULL;
  }
  probe_metrics_server_set_pages (m->server, claim_callback, page_callback,
      m);
  return m;
#else
  /* No --web-config is read without the server (clhistogram-probe.c). */
  g_assert (web == NULL);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "this clhistogram-probe was built without libsoup 3, which serves the "
      "metrics: build it with libsoup-3.0-dev installed (meson's metrics "
      "option)");
  probe_metrics_free (m);
  return NULL;
#endif
}

/**
 * probe_metrics_get_url:
 *
 * Returns: (transfer full): the URL the metrics are served on, the port
 *   the one bound (`http://127.0.0.1:40123/metrics`). Free with g_free().
 */
gchar *
probe_metrics_get_url (ProbeMetrics *m)
{
  g_return_val_if_fail (m != NULL, NULL);
#ifdef HAVE_PROBE_METRICS_SERVER
  return g_strdup (probe_metrics_server_get_url (m->server));
#else
  return NULL;
#endif
}

/**
 * probe_metrics_add_input:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input's name, any text (the label escapes it)
 *
 * Lists the input from now on, down and with no message yet, so that a
 * scrape shows every input from the start. Inputs are listed in the
 * order they are added; one named in a message or a state first is added
 * then.
 */
void
probe_metrics_add_input (ProbeMetrics *m, const gchar *input)
{
  if (!m)
    return;
  g_mutex_lock (&m->lock);
  lookup (m, input);
  g_mutex_unlock (&m->lock);
}

/**
 * probe_metrics_remove_input:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input's name
 *
 * Takes every series of the input out of the scrapes from now on: a
 * reload removed it (or changed it: it is added again as new). Call it
 * once the input's pipeline is down, when no message or state of it can
 * come any more, or it would be listed again.
 */
void
probe_metrics_remove_input (ProbeMetrics *m, const gchar *input)
{
  Input *found;

  if (!m)
    return;
  g_mutex_lock (&m->lock);
  found = g_hash_table_lookup (m->by_name, input);
  if (found) {
    g_hash_table_remove (m->by_name, input);
    g_ptr_array_remove (m->inputs, found);
  }
  g_mutex_unlock (&m->lock);
}

/* The zones of an `exposure` message's `active-zones`, with their places
 * from the arrays beside it. */
static GArray *
active_zones_of (const GstStructure *s)
{
  const Fields *q = fields ();
  const GValue *zones = gst_structure_id_get_value (s, q->active_zones);
  const GValue *rows = gst_structure_id_get_value (s, q->active_zone_row);
  const GValue *columns = gst_structure_id_get_value (s,
      q->active_zone_column);
  const GValue *positions = gst_structure_id_get_value (s,
      q->active_zone_position);
  GArray *active = zones_new ();
  guint i;

  for (i = 0; item (zones, i); i++)
    if (G_VALUE_HOLDS_INT (item (zones, i))) {
      Zone zone = { g_value_get_int (item (zones, i)), NULL, NULL };

      zone_set_place (&zone, item (rows, i), item (columns, i),
          item (positions, i));
      g_array_append_val (active, zone);
    }
  return active;
}

static void
take_exposure (ProbeMetrics *m, const gchar *name, const GstStructure *s)
{
  const GValue *kind_value = field_of (s, fields ()->alert, G_TYPE_STRING);
  const GValue *active_value = field_of (s, fields ()->active,
      G_TYPE_BOOLEAN);
  const gchar *kind = kind_value ? g_value_get_string (kind_value) : NULL;
  gboolean active;
  GArray *zones;
  Input *input;
  guint a;

  for (a = 0; a < N_ALERTS; a++)
    if (g_strcmp0 (kind, alert_names[a]) == 0)
      break;
  if (a == N_ALERTS || !active_value)
    return;
  active = g_value_get_boolean (active_value);
  zones = active_zones_of (s);
  g_mutex_lock (&m->lock);
  input = lookup (m, name);
  input->alert_active[a] = active;
  g_array_unref (input->alert_zones[a]);
  input->alert_zones[a] = zones;
  g_mutex_unlock (&m->lock);
}

static void
take_histogram (ProbeMetrics *m, const gchar *name, const GstStructure *s)
{
  GstStructure *message = gst_structure_copy (s), *old_message;
  Statistics *old;
  const gdouble now = g_get_real_time () / (gdouble) G_USEC_PER_SEC;
  const GValue *frames_value = field_of (s, fields ()->frames, G_TYPE_UINT);
  const guint frames = frames_value ? g_value_get_uint (frames_value) : 1;
  Input *input;

  g_mutex_lock (&m->lock);
  input = lookup (m, name);
  old = input->statistics;
  old_message = input->message;
  input->statistics = NULL;
  input->message = message;
  input->frames += frames;
  input->messages++;
  input->last_timestamp = now;
  g_mutex_unlock (&m->lock);
  statistics_free (old);
  if (old_message)
    gst_structure_free (old_message);
}

/**
 * probe_metrics_take_message:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input whose clhistogram posted it
 * @s: a `histogram` or `exposure` element message's structure; others
 *   are ignored
 *
 * A `histogram` message's statistics (the frame's, each zone's and fixed
 * region's: not a ROI meta's) replace the input's, and its `frames` (1
 * without) add to the frames counted, all at once for a scrape. An
 * `exposure` message sets its alert's state, the input's and its zones'.
 * Called from any thread (a streaming thread's bus sync handler).
 */
void
probe_metrics_take_message (ProbeMetrics *m, const gchar *input,
    const GstStructure *s)
{
  if (!m)
    return;
  if (gst_structure_has_name (s, "histogram"))
    take_histogram (m, input, s);
  else if (gst_structure_has_name (s, "exposure"))
    take_exposure (m, input, s);
}

/* The values of the input's run that ended: a camera that went down, or
 * a file at its end, shows no statistics and no alert on (its element,
 * built again for the next run, starts with none), only its counters. */
static void
forget_run (Input *input)
{
  guint a;

  g_clear_pointer (&input->statistics, statistics_free);
  g_clear_pointer (&input->message, gst_structure_free);
  for (a = 0; a < N_ALERTS; a++) {
    input->alert_active[a] = FALSE;
    g_array_set_size (input->alert_zones[a], 0);
  }
}

/**
 * probe_metrics_set_up:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input
 * @up: %TRUE: its run had its first frame; %FALSE: it went down (its run
 *   failed or stalled, a live stream ended, a retry failed, or a file
 *   failed)
 *
 * Down from up or from its start (state starting) counts an outage; down
 * while already down (a retry that failed) counts a retry instead, so
 * that one period down is one outage however many retries it takes.
 * Either drops the run's statistics and alerts. Up after a down counts a
 * reconnect, unless the input was never up before.
 */
void
probe_metrics_set_up (ProbeMetrics *m, const gchar *name, gboolean up)
{
  Input *input;

  if (!m)
    return;
  g_mutex_lock (&m->lock);
  input = lookup (m, name);
  if (up && input->state != STATE_UP) {
    if (input->was_up)
      input->reconnects++;
    input->was_up = TRUE;
  } else if (!up) {
    if (input->state == STATE_DOWN)
      input->retries++;
    else
      input->outages++;
    forget_run (input);
  }
  input->state = up ? STATE_UP : STATE_DOWN;
  g_mutex_unlock (&m->lock);
}

/**
 * probe_metrics_set_ended:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input
 *
 * The input ended for good without failing (a file at its end, a live
 * input at --max-frames or stopped by a signal): state ended, its
 * statistics and alerts dropped, no outage counted.
 */
void
probe_metrics_set_ended (ProbeMetrics *m, const gchar *name)
{
  Input *input;

  if (!m)
    return;
  g_mutex_lock (&m->lock);
  input = lookup (m, name);
  input->state = STATE_ENDED;
  forget_run (input);
  g_mutex_unlock (&m->lock);
}

/**
 * probe_metrics_set_alerts:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input
 * @clipped: its element's alert-clipped, percent of the samples, 0 to
 *   100 (0: off)
 * @crushed: its element's alert-crushed, the same
 *
 * The input's exposure alerts: those on are given with their thresholds
 * (clhistogram_alert_threshold_ratio, the percent / 100) and their
 * states (clhistogram_alert_active); those off are not given at all. A
 * value out of 0 to 100 (or NaN) is taken as off.
 */
void
probe_metrics_set_alerts (ProbeMetrics *m, const gchar *name,
    gdouble clipped, gdouble crushed)
{
  const gdouble thresholds[N_ALERTS] = { clipped, crushed };
  Input *input;
  guint a;

  if (!m)
    return;
  g_mutex_lock (&m->lock);
  input = lookup (m, name);
  for (a = 0; a < N_ALERTS; a++)
    input->threshold[a] = thresholds[a] > 0 && thresholds[a] <= 100 ?
        thresholds[a] : 0;
  g_mutex_unlock (&m->lock);
}

/**
 * probe_metrics_add_lost:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input
 * @dropped: frames its pipeline dropped before they were counted
 *   (probe-losses.c)
 * @late: frames counted late
 *
 * Adds to the input's clhistogram_frames_dropped_total and
 * clhistogram_frames_late_total. Any thread.
 */
void
probe_metrics_add_lost (ProbeMetrics *m, const gchar *name,
    guint64 dropped, guint64 late)
{
  Input *input;

  if (!m || (dropped == 0 && late == 0))
    return;
  g_mutex_lock (&m->lock);
  input = lookup (m, name);
  input->dropped += dropped;
  input->late += late;
  g_mutex_unlock (&m->lock);
}

static gint
compare_zones (gconstpointer a, gconstpointer b)
{
  const gint x = ((const Zone *) a)->id, y = ((const Zone *) b)->id;

  return (x > y) - (x < y);
}

static gboolean
holds (const GArray *zones, gint id)
{
  guint i;

  for (i = 0; i < zones->len; i++)
    if (g_array_index (zones, Zone, i).id == id)
      return TRUE;
  return FALSE;
}

/* The input's alert rows, of the alerts on for it: its own, then each
 * zone's, for the zones of its last message and any zone an alert is on
 * in, each named by its place as its last message (else its alert's)
 * gives it. */
static void
append_alerts (GString *out, const Input *input, guint max_regions)
{
  /* Zone, their places borrowed. */
  GArray *zones = g_array_new (FALSE, FALSE, sizeof (Zone));
  GString *labels = g_string_new (NULL);
  guint a, i;

  if (input->statistics)
    g_array_append_vals (zones, input->statistics->zones->data,
        input->statistics->zones->len);
  /* A zone left out by --metrics-regions is left out of the alerts too. */
  for (a = 0; a < N_ALERTS && max_regions == PROBE_METRICS_ALL_REGIONS; a++)
    for (i = 0; i < input->alert_zones[a]->len && input->threshold[a] > 0;
        i++) {
      const Zone *zone = &g_array_index (input->alert_zones[a], Zone, i);

      if (!holds (zones, zone->id))
        g_array_append_val (zones, *zone);
    }
  g_array_sort (zones, compare_zones);
  for (a = 0; a < N_ALERTS; a++) {
    if (input->threshold[a] <= 0)
      continue;
    g_string_assign (labels, input->label);
    g_string_append_c (labels, ',');
    append_label (labels, "alert", alert_names[a]);
    append_count (out, FAMILY_ALERT_ACTIVE, labels->str,
        input->alert_active[a]);
  }
  for (i = 0; i < zones->len; i++)
    for (a = 0; a < N_ALERTS; a++) {
      const Zone *zone = &g_array_index (zones, Zone, i);

      if (input->threshold[a] <= 0)
        continue;
      g_string_printf (labels, "%s,zone=\"%d\"%s,", input->label, zone->id,
          zone->place ? zone->place : "");
      append_label (labels, "alert", alert_names[a]);
      append_count (out, FAMILY_ALERT_ACTIVE, labels->str,
          holds (input->alert_zones[a], zone->id));
    }
  g_string_free (labels, TRUE);
  g_array_unref (zones);
}

/* One series per state, 1 for the input's. */
static void
append_states (GString *out, const Input *input)
{
  GString *labels = g_string_new (NULL);
  guint i;

  for (i = 0; i < N_STATES; i++) {
    g_string_printf (labels, "%s,state=\"%s\"", input->label,
        state_names[i]);
    append_count (out, FAMILY_STATE, labels->str, input->state == i);
  }
  g_string_free (labels, TRUE);
}

static void
append_thresholds (GString *out, const Input *input)
{
  GString *labels = g_string_new (NULL);
  guint a;

  for (a = 0; a < N_ALERTS; a++) {
    if (input->threshold[a] <= 0)
      continue;
    g_string_assign (labels, input->label);
    g_string_append_c (labels, ',');
    append_label (labels, "alert", alert_names[a]);
    append_row (out, FAMILY_ALERT_THRESHOLD, labels->str,
        input->threshold[a] / 100);
  }
  g_string_free (labels, TRUE);
}

static void
append_family (GString *out, Family f, const Input *input,
    guint max_regions)
{
  switch (f) {
    case FAMILY_STATE:
      append_states (out, input);
      break;
    case FAMILY_UP:
      append_count (out, f, input->label, input->state == STATE_UP);
      break;
    case FAMILY_OUTAGES:
      append_count (out, f, input->label, input->outages);
      break;
    case FAMILY_RETRIES:
      append_count (out, f, input->label, input->retries);
      break;
    case FAMILY_RECONNECTS:
      append_count (out, f, input->label, input->reconnects);
      break;
    case FAMILY_FRAMES:
      append_count (out, f, input->label, input->frames);
      break;
    case FAMILY_DROPPED:
      append_count (out, f, input->label, input->dropped);
      break;
    case FAMILY_LATE:
      append_count (out, f, input->label, input->late);
      break;
    case FAMILY_MESSAGES:
      append_count (out, f, input->label, input->messages);
      break;
    case FAMILY_LAST_TIMESTAMP:
      /* None before the first message: an input that has sent nothing
       * has no time to give. */
      if (input->messages > 0)
        append_row (out, f, input->label, input->last_timestamp);
      break;
    case FAMILY_ALERT_THRESHOLD:
      append_thresholds (out, input);
      break;
    case FAMILY_ALERT_ACTIVE:
      append_alerts (out, input, max_regions);
      break;
    default:
      if (input->statistics)
        g_string_append (out, input->statistics->rows[f]->str);
      break;
  }
}

/**
 * probe_metrics_parse_regions:
 * @text: `all`, `none`, or a count from 0 to 65535 (untrusted: an
 *   option's value)
 * @max_regions: (out): the count; PROBE_METRICS_ALL_REGIONS for `all`
 * @error: a G_OPTION_ERROR_BAD_VALUE saying what to write
 *
 * Reads `--metrics-regions`.
 *
 * Returns: whether @text is one of those.
 */
gboolean
probe_metrics_parse_regions (const gchar *text, guint *max_regions,
    GError **error)
{
  guint64 count;

  if (strcmp (text, "all") == 0)
    *max_regions = PROBE_METRICS_ALL_REGIONS;
  else if (strcmp (text, "none") == 0)
    *max_regions = 0;
  else if (g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT16, &count,
          NULL))
    *max_regions = (guint) count;
  else {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "\"%s\" is not all, none or a number of zones and regions from 0 "
        "to 65535 (the first of each message, in its order)", text);
    return FALSE;
  }
  return TRUE;
}

/**
 * probe_metrics_set_max_regions:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @max_regions: the zones and regions of each message kept (the first
 *   ones, in the message's order); 0: the whole frame's statistics only;
 *   PROBE_METRICS_ALL_REGIONS: all (the default)
 *
 * `--metrics-regions`: fewer series for a grid of many zones. Zone
 * alerts are then given for the zones kept only. Call before the first
 * message.
 */
void
probe_metrics_set_max_regions (ProbeMetrics *m, guint max_regions)
{
  if (m)
    m->max_regions = max_regions;
}

/**
 * probe_metrics_set_max_series:
 * @max_series: the series a scrape gives at most
 *
 * Internal, for tests: another cap than PROBE_METRICS_MAX_SERIES.
 */
void
probe_metrics_set_max_series (ProbeMetrics *m, guint max_series)
{
  g_mutex_lock (&m->lock);
  m->max_series = max_series;
  g_mutex_unlock (&m->lock);
}

/* The series @out has from @from on, one a line, as many as @budget has
 * left: those beyond are cut and counted in @dropped. */
static void
keep_within (GString *out, gsize from, guint *budget, guint64 *dropped)
{
  const gchar *line = out->str + from, *end = out->str + out->len, *nl;
  gsize cut = out->len;

  for (; line < end && (nl = memchr (line, '\n', end - line)); line = nl + 1)
    if (*budget > 0)
      (*budget)--;
    else {
      if (cut == out->len)
        cut = line - out->str;
      (*dropped)++;
    }
  g_string_truncate (out, cut);
}

/**
 * probe_metrics_render:
 *
 * Returns: (transfer full): every family, its HELP and TYPE lines then a
 *   row per input (and channel, zone, region, percentile, alert), in the
 *   text exposition format 0.0.4; each input's rows those of one message.
 *   At most PROBE_METRICS_MAX_SERIES series (probe_metrics_set_max_series()),
 *   the first in that order; clhistogram_metrics_series_dropped, last,
 *   says how many more there were. Free with g_free().
 */
gchar *
probe_metrics_render (ProbeMetrics *m)
{
  GString *out = g_string_sized_new (4096);
  guint64 dropped = 0, lines_dropped;
  guint budget, f, i;

  g_return_val_if_fail (m != NULL, NULL);
  g_mutex_lock (&m->lock);
  for (i = 0; i < m->inputs->len; i++) {
    Input *input = g_ptr_array_index (m->inputs, i);

    if (input->message && !input->statistics)
      input->statistics = statistics_of (input->label, input->message,
          m->max_regions);
  }
  budget = m->max_series;
  for (f = 0; f < N_FAMILIES; f++) {
    g_string_append_printf (out, "# HELP %s %s\n# TYPE %s %s\n",
        families[f].name, families[f].help, families[f].name,
        families[f].type);
    for (i = 0; i < m->inputs->len; i++) {
      gsize from = out->len;

      append_family (out, f, g_ptr_array_index (m->inputs, i),
          m->max_regions);
      keep_within (out, from, &budget, &dropped);
    }
  }
  lines_dropped = m->lines_dropped;
  g_mutex_unlock (&m->lock);
  /* Outside the cap: what it cut is always said. */
  g_string_append_printf (out, "# HELP %s Series left out of this scrape "
      "by its cap of %u series\n# TYPE %s gauge\n%s %" G_GUINT64_FORMAT
      "\n", SERIES_DROPPED, m->max_series, SERIES_DROPPED, SERIES_DROPPED,
      dropped);
  g_string_append_printf (out, "# HELP %s JSON lines dropped because "
      "stdout took nothing\n# TYPE %s counter\n%s %" G_GUINT64_FORMAT "\n",
      LINES_DROPPED, LINES_DROPPED, LINES_DROPPED, lines_dropped);
  probe_metrics_process_append (out);
  return g_string_free (out, FALSE);
}

/**
 * probe_metrics_set_lines_dropped:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @lines: the JSON lines dropped so far because stdout took nothing
 *
 * Any thread.
 */
void
probe_metrics_set_lines_dropped (ProbeMetrics *m, guint64 lines)
{
  if (!m)
    return;
  g_mutex_lock (&m->lock);
  m->lines_dropped = lines;
  g_mutex_unlock (&m->lock);
}

/**
 * probe_metrics_set_picture_period:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input
 * @period_us: its --monitor-pictures, microseconds; 0: none
 *
 * Whether the input has monitor pictures: the monitor pages
 * (probe-monitor-page.c) are served while an input has them.
 */
void
probe_metrics_set_picture_period (ProbeMetrics *m, const gchar *name,
    gint64 period_us)
{
  if (!m)
    return;
  g_mutex_lock (&m->lock);
  lookup (m, name)->picture_period_us = MAX (period_us, 0);
  g_mutex_unlock (&m->lock);
}

/**
 * probe_metrics_set_picture:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input
 * @png: its monitor picture, a PNG, referenced (not copied)
 * @width: the picture's width, pixels
 * @height: its height
 *
 * The input's picture from now on, in place of the last, which the
 * requests still sending it keep until they are done. An input not
 * listed (removed by a reload) is not listed again. Any thread.
 */
void
probe_metrics_set_picture (ProbeMetrics *m, const gchar *name, GBytes *png,
    guint width, guint height)
{
  Input *input;
  GBytes *old = NULL;

  if (!m)
    return;
  g_mutex_lock (&m->lock);
  input = g_hash_table_lookup (m->by_name, name);
  if (input) {
    old = input->picture;
    input->picture = g_bytes_ref (png);
    input->picture_width = width;
    input->picture_height = height;
    input->picture_time = g_get_real_time ();
    input->pictures++;
  }
  g_mutex_unlock (&m->lock);
  if (old)
    g_bytes_unref (old);
}

/**
 * probe_metrics_set_picture_error:
 * @m: (nullable): the metrics; %NULL (none asked for) does nothing
 * @input: the input
 * @reason: why its pictures stopped, one line
 *
 * Any thread.
 */
void
probe_metrics_set_picture_error (ProbeMetrics *m, const gchar *name,
    const gchar *reason)
{
  Input *input;

  if (!m)
    return;
  g_mutex_lock (&m->lock);
  input = g_hash_table_lookup (m->by_name, name);
  if (input) {
    g_free (input->picture_error);
    input->picture_error = g_strdup (reason);
  }
  g_mutex_unlock (&m->lock);
}

/**
 * probe_metrics_has_pictures:
 *
 * Returns: whether an input listed has monitor pictures. Any thread.
 */
gboolean
probe_metrics_has_pictures (ProbeMetrics *m)
{
  gboolean any = FALSE;
  guint i;

  g_mutex_lock (&m->lock);
  for (i = 0; i < m->inputs->len && !any; i++)
    any = ((Input *) g_ptr_array_index (m->inputs, i))->picture_period_us > 0;
  g_mutex_unlock (&m->lock);
  return any;
}

/* A zone as an operator names it: its position, else its id. */
static gchar *
zone_name (const Zone *zone)
{
  return zone->position && zone->position[0] ? g_strdup (zone->position) :
      g_strdup_printf ("%d", zone->id);
}

/* The names of @zones, ascending by id. */
static GPtrArray *
zone_names (const GArray *zones)
{
  GArray *sorted = g_array_copy ((GArray *) zones);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint i;

  g_array_sort (sorted, compare_zones);
  for (i = 0; i < sorted->len; i++)
    g_ptr_array_add (names, zone_name (&g_array_index (sorted, Zone, i)));
  g_array_unref (sorted);
  return names;
}

/* Under the lock. */
static ProbeMetricsView *
view_of (const Input *input)
{
  ProbeMetricsView *view = g_new0 (ProbeMetricsView, 1);
  guint a;

  view->name = g_strdup (input->name);
  view->state = state_names[input->state];
  for (a = 0; a < N_ALERTS; a++) {
    view->alerts[a].name = alert_names[a];
    view->alerts[a].on = input->threshold[a] > 0;
    view->alerts[a].active = input->alert_active[a];
    view->alerts[a].zones = zone_names (input->alert_zones[a]);
  }
  view->picture_period_us = input->picture_period_us;
  view->picture = input->picture ? g_bytes_ref (input->picture) : NULL;
  view->picture_width = input->picture_width;
  view->picture_height = input->picture_height;
  view->picture_time = input->picture_time;
  view->pictures = input->pictures;
  view->picture_error = g_strdup (input->picture_error);
  return view;
}

/**
 * probe_metrics_get_views:
 *
 * Returns: (transfer full) (element-type ProbeMetricsView): every input
 *   listed, in the order they were added, as it is now: each picture
 *   referenced, not copied. Any thread.
 */
GPtrArray *
probe_metrics_get_views (ProbeMetrics *m)
{
  GPtrArray *views = g_ptr_array_new_with_free_func (probe_metrics_view_free);
  guint i;

  g_mutex_lock (&m->lock);
  for (i = 0; i < m->inputs->len; i++)
    g_ptr_array_add (views, view_of (g_ptr_array_index (m->inputs, i)));
  g_mutex_unlock (&m->lock);
  return views;
}

/**
 * probe_metrics_get_view:
 * @input: an input's name, exactly (untrusted: from a request)
 *
 * Returns: (transfer full) (nullable): the input as it is now, or %NULL
 *   for no input of that name. Free with probe_metrics_view_free(). Any
 *   thread.
 */
ProbeMetricsView *
probe_metrics_get_view (ProbeMetrics *m, const gchar *name)
{
  Input *input;
  ProbeMetricsView *view = NULL;

  g_mutex_lock (&m->lock);
  input = g_hash_table_lookup (m->by_name, name);
  if (input)
    view = view_of (input);
  g_mutex_unlock (&m->lock);
  return view;
}

void
probe_metrics_view_free (gpointer data)
{
  ProbeMetricsView *view = data;
  guint a;

  if (!view)
    return;
  g_free (view->name);
  for (a = 0; a < PROBE_METRICS_N_ALERTS; a++)
    g_ptr_array_unref (view->alerts[a].zones);
  if (view->picture)
    g_bytes_unref (view->picture);
  g_free (view->picture_error);
  g_free (view);
}

/**
 * probe_metrics_free:
 * @m: (nullable) (transfer full):
 *
 * Stops the server (a scrape under way finishes first) and frees the
 * values.
 */
void
probe_metrics_free (ProbeMetrics *m)
{
  if (!m)
    return;
#ifdef HAVE_PROBE_METRICS_SERVER
  probe_metrics_server_stop (m->server);
#endif
  g_hash_table_unref (m->by_name);
  g_ptr_array_unref (m->inputs);
  g_mutex_clear (&m->lock);
  g_free (m);
}
