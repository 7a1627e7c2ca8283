/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The options one input is probed with. One table gives each option's
 * long name, its field and its help, so that the command line (GOption)
 * and an input's group of an --inputs key file (GKeyFile) take the same
 * names, the same values and the same checks: a key is an option's long
 * name. */
#include "probe-settings.h"

#include <string.h>

#include "probe-options.h"

/* A live input's retries: the defaults of --stall-timeout and
 * --retry-max, in seconds. */
#define STALL_TIMEOUT_S 10
#define RETRY_MAX_S 30
/* The longest either may be: a day. */
#define MAX_WAIT_S 86400
/* --monitor-pictures: the shortest period, a tenth of a second (a
 * picture is a render of the monitor and a PNG), and the longest, a
 * day. */
#define MIN_PICTURE_PERIOD_S 0.1
#define MAX_PICTURE_PERIOD_S 86400

typedef struct
{
  const gchar *long_name;
  gchar short_name;
  GOptionArg arg;
  gsize offset;
  const gchar *description;
  const gchar *arg_description;
} Setting;

#define FIELD(field) G_STRUCT_OFFSET (ProbeSettings, field)

static const Setting settings[] = {
  {"mode", 'm', G_OPTION_ARG_STRING, FIELD (mode),
      "What to count (the element's mode): luma, channels, max, hue, "
        "hue-saturation, rgb", "luma"},
  {"bins", 'b', G_OPTION_ARG_STRING, FIELD (bins),
      "Bins per channel (default: the element's for the mode)", "N"},
  {"range-min", 0, G_OPTION_ARG_STRING, FIELD (range_min),
      "Smallest sample value binned", "V"},
  {"range-max", 0, G_OPTION_ARG_STRING, FIELD (range_max),
      "Largest sample value binned (-1: the format's maximum)", "V"},
  {"interval", 0, G_OPTION_ARG_STRING, FIELD (interval),
      "One message per this much running time, in ns (0: one per frame)",
        "NS"},
  {"zones", 0, G_OPTION_ARG_STRING, FIELD (zones),
      "A grid of C x R zones, each with its histogram", "CxR"},
  {"regions", 0, G_OPTION_ARG_STRING, FIELD (regions),
      "Rectangles, each with its histogram: x,y,w,h;x,y,w,h or "
        "<<x,y,w,h>,...>", "RECTS"},
  {"percentiles", 0, G_OPTION_ARG_STRING, FIELD (percentiles),
      "Percentiles reported, each 0..100", "1,10,50,90,99"},
  {"clip-low-level", 0, G_OPTION_ARG_STRING, FIELD (clip_low_level),
      "Samples at or below this level are clipped-low, in percent of the "
        "nominal range (0: nominal black)", "PERCENT"},
  {"clip-high-level", 0, G_OPTION_ARG_STRING, FIELD (clip_high_level),
      "Samples at or above this level are clipped-high, in percent of the "
        "nominal range (100: nominal white; 95: a zebra level)", "PERCENT"},
  {"metering", 0, G_OPTION_ARG_STRING, FIELD (metering),
      "The metering value: average, centre-weighted, spot, zones (with "
        "--metering-weights), none; all but average weigh --zones",
        "average"},
  {"metering-weights", 0, G_OPTION_ARG_STRING, FIELD (metering_weights),
      "--metering zones: one weight per zone, row by row",
        "0,1,0,1,4,1,0,1,0"},
  {"alert-clipped", 0, G_OPTION_ARG_STRING, FIELD (alert_clipped),
      "Print an exposure alert when the frame or a zone has this percent "
        "of its samples clipped high, and when it clears (0: off)",
        "PERCENT"},
  {"alert-crushed", 0, G_OPTION_ARG_STRING, FIELD (alert_crushed),
      "The same for samples clipped low (crushed)", "PERCENT"},
  {"alert-hysteresis", 0, G_OPTION_ARG_STRING, FIELD (alert_hysteresis),
      "Percentage points under the threshold an alert clears at", "POINTS"},
  {"alert-hold", 0, G_OPTION_ARG_STRING, FIELD (alert_hold),
      "How long a change must last before it is reported, in ns of "
        "running time", "NS"},
  {"no-statistics", 0, G_OPTION_ARG_NONE, FIELD (no_statistics),
      "Leave the statistics out (min, max, mean, percentiles, ...)", NULL},
  {"no-counts", 0, G_OPTION_ARG_NONE, FIELD (no_counts),
      "Print no counts, at the top level or in regions: statistics only",
        NULL},
  {"device", 'd', G_OPTION_ARG_STRING, FIELD (device),
      "OpenCL device: auto, P:D as clinfo -l numbers them, or part of a "
        "name", "auto"},
  {"format", 'f', G_OPTION_ARG_STRING, FIELD (format),
      "Convert to this raw format first (GRAY8, RGBA, NV12, ...)", "FORMAT"},
  {"width", 'W', G_OPTION_ARG_INT, FIELD (width),
      "Scale to this width first", "PIXELS"},
  {"height", 'H', G_OPTION_ARG_INT, FIELD (height),
      "Scale to this height first", "PIXELS"},
  {"as-decoded", 0, G_OPTION_ARG_NONE, FIELD (as_decoded),
      "Count the frames as decoded: ignore --format, --width and --height",
        NULL},
  {"check", 'c', G_OPTION_ARG_NONE, FIELD (check),
      "Compare every frame's histogram metas with the golden reference; "
        "a summary on stderr, exit status 1 on any difference", NULL},
  {"max-frames", 'n', G_OPTION_ARG_INT, FIELD (max_frames),
      "Stop after this many frames", "N"},
  {"expect-frames", 0, G_OPTION_ARG_INT, FIELD (expect_frames),
      "Exit with status 1 unless exactly this many frames were counted",
        "N"},
  {"sync", 0, G_OPTION_ARG_NONE, FIELD (sync),
      "Count the frames at the input's own rate, as a camera delivers "
        "them (default: as fast as they come)", NULL},
  {"stall-timeout", 0, G_OPTION_ARG_INT, FIELD (stall_timeout),
      "A live input (not a local file) with no frame for this long is "
        "taken down and retried (0: never; default 10)", "SECONDS"},
  {"retry-max", 0, G_OPTION_ARG_INT, FIELD (retry_max),
      "The longest wait before a live input is retried: 1 s, doubling up "
        "to this (default 30)", "SECONDS"},
  {"monitor-pictures", 0, G_OPTION_ARG_STRING, FIELD (monitor_pictures),
      "With --metrics, serve the input's monitor picture (clexposuremonitor: "
        "the frame, its zebra, zones and histogram, the scopes under it) as "
        "/inputs/NAME/monitor.png and an index of the inputs as /, the "
        "picture made at most once every SECONDS (0: off, the default)",
        "SECONDS"},
};

#define STRING_AT(s, setting) \
  ((gchar **) G_STRUCT_MEMBER_P ((s), (setting)->offset))
#define INT_AT(s, setting) ((gint *) G_STRUCT_MEMBER_P ((s), (setting)->offset))

/**
 * probe_settings_init:
 *
 * Sets @s to the defaults: every property the element's own, every size
 * the decoder's, no frame limit, no expected count.
 */
void
probe_settings_init (ProbeSettings *s)
{
  memset (s, 0, sizeof (*s));
  s->width = s->height = s->expect_frames = -1;
  s->stall_timeout = STALL_TIMEOUT_S;
  s->retry_max = RETRY_MAX_S;
}

/**
 * probe_settings_copy:
 * @dest: (out caller-allocates): uninitialized, or cleared
 * @src: the settings copied, strings too
 */
void
probe_settings_copy (ProbeSettings *dest, const ProbeSettings *src)
{
  guint i;

  *dest = *src;
  for (i = 0; i < G_N_ELEMENTS (settings); i++)
    if (settings[i].arg == G_OPTION_ARG_STRING)
      *STRING_AT (dest, &settings[i]) =
          g_strdup (*STRING_AT (src, &settings[i]));
}

void
probe_settings_clear (ProbeSettings *s)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (settings); i++)
    if (settings[i].arg == G_OPTION_ARG_STRING)
      g_clear_pointer (STRING_AT (s, &settings[i]), g_free);
}

/**
 * probe_settings_equal:
 * @a: an input's settings
 * @b: another's
 *
 * Returns: whether every option of @a has the value it has in @b: the
 *   same text (a value written otherwise, `2x2` and ` 2x2`, differs), the
 *   same number or flag.
 */
gboolean
probe_settings_equal (const ProbeSettings *a, const ProbeSettings *b)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    const Setting *setting = &settings[i];

    if (setting->arg == G_OPTION_ARG_STRING
        ? g_strcmp0 (*STRING_AT (a, setting), *STRING_AT (b, setting)) != 0
        : *INT_AT (a, setting) != *INT_AT (b, setting))
      return FALSE;
  }
  return TRUE;
}

/**
 * probe_settings_option_entries:
 * @s: the settings the command line sets, alive while the entries are
 *
 * Returns: (transfer container): the options, %NULL-terminated, for
 *   g_option_context_add_main_entries(); free with g_free().
 */
GOptionEntry *
probe_settings_option_entries (ProbeSettings *s)
{
  GOptionEntry *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (settings) + 1);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (settings); i++) {
    entries[i].long_name = settings[i].long_name;
    entries[i].short_name = settings[i].short_name;
    entries[i].arg = settings[i].arg;
    entries[i].arg_data = G_STRUCT_MEMBER_P (s, settings[i].offset);
    entries[i].description = settings[i].description;
    entries[i].arg_description = settings[i].arg_description;
  }
  return entries;
}

/**
 * probe_settings_key_names:
 *
 * Returns: the keys an input's group may hold besides `uri`: every
 *   option's long name, "mode, bins, ...". Free with g_free().
 */
gchar *
probe_settings_key_names (void)
{
  GString *names = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (settings); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "",
        settings[i].long_name);
  return g_string_free (names, FALSE);
}

static const Setting *
find_setting (const gchar *key)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (settings); i++)
    if (g_strcmp0 (settings[i].long_name, key) == 0)
      return &settings[i];
  return NULL;
}

static gboolean
set_int (ProbeSettings *s, const Setting *setting, GKeyFile *file,
    const gchar *group, GError **error)
{
  gchar *text = g_key_file_get_value (file, group, setting->long_name,
      error);
  gint64 v;
  gboolean ok;

  if (!text)
    return FALSE;
  ok = g_ascii_string_to_signed (g_strstrip (text), 10, G_MININT, G_MAXINT,
      &v, NULL);
  if (ok)
    *INT_AT (s, setting) = (gint) v;
  else
    g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
        "\"%s\" is not an integer", text);
  g_free (text);
  return ok;
}

/**
 * probe_settings_set_key:
 * @s: an input's settings, the command line's to start with
 * @file: a key file
 * @group: the input's group in @file
 * @key: an option's long name, e.g. `zones`
 *
 * Sets the option @key to its value in @file: a string as GKeyFile reads
 * it (escapes such as `\s` undone), an integer, or `true`/`false` for an
 * option that takes no value. The element checks the value when the input
 * is built, as it checks the command line's.
 *
 * Returns: %FALSE with @error (#G_KEY_FILE_ERROR, its message naming
 *   neither file nor group nor key) if @key is no option or its value is
 *   not of the option's type.
 */
gboolean
probe_settings_set_key (ProbeSettings *s, GKeyFile *file, const gchar *group,
    const gchar *key, GError **error)
{
  const Setting *setting = find_setting (key);
  GError *err = NULL;
  gboolean value;

  if (!setting) {
    gchar *names = probe_settings_key_names ();

    g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND,
        "unknown key; an input's keys are uri and %s", names);
    g_free (names);
    return FALSE;
  }
  switch (setting->arg) {
    case G_OPTION_ARG_STRING:
      g_free (*STRING_AT (s, setting));
      *STRING_AT (s, setting) = g_key_file_get_string (file, group, key,
          error);
      return *STRING_AT (s, setting) != NULL;
    case G_OPTION_ARG_INT:
      return set_int (s, setting, file, group, error);
    default:
      value = g_key_file_get_boolean (file, group, key, &err);
      if (err) {
        g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
            "give true or false");
        g_error_free (err);
        return FALSE;
      }
      *INT_AT (s, setting) = value;
      return TRUE;
  }
}

#define BAD_VALUE(error, ...) \
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, __VA_ARGS__)

/* What only the probe reads: the sizes (-1: not given) and a live
 * input's retries. */
static gboolean
check_probe_settings (const ProbeSettings *s, GError **error)
{
  if (!s->as_decoded) {
    if (s->format && !probe_check_format (s->format, error))
      return FALSE;
    if (s->width == 0 || s->width < -1 || s->height == 0
        || s->height < -1) {
      BAD_VALUE (error, "--%s: give a size of 1 pixel or more",
          s->width == 0 || s->width < -1 ? "width" : "height");
      return FALSE;
    }
    if (!probe_check_size ("width", s->width, error)
        || !probe_check_size ("height", s->height, error))
      return FALSE;
  }
  if (s->stall_timeout < 0 || s->stall_timeout > MAX_WAIT_S) {
    BAD_VALUE (error, "--stall-timeout: give 0 (never) or 1 to %d seconds",
        MAX_WAIT_S);
    return FALSE;
  }
  if (s->retry_max < 1 || s->retry_max > MAX_WAIT_S) {
    BAD_VALUE (error, "--retry-max: give 1 to %d seconds", MAX_WAIT_S);
    return FALSE;
  }
  return probe_settings_get_picture_period (s, NULL, error);
}

/**
 * probe_settings_get_picture_period:
 * @period_us: (out) (optional): the period of the input's monitor
 *   picture, microseconds; 0: no picture
 *
 * Reads --monitor-pictures: seconds, a decimal number with a point
 * (`0.5`), 0 for none, else 0.1 to 86400.
 *
 * Returns: %FALSE with @error (#G_OPTION_ERROR) on another value.
 */
gboolean
probe_settings_get_picture_period (const ProbeSettings *s, gint64 *period_us,
    GError **error)
{
  gchar *text, *end;
  gdouble seconds;

  if (period_us)
    *period_us = 0;
  if (!s->monitor_pictures)
    return TRUE;
  text = g_strstrip (g_strdup (s->monitor_pictures));
  seconds = g_ascii_strtod (text, &end);
  if (!*text || *end || !(seconds == 0 || (seconds >= MIN_PICTURE_PERIOD_S
              && seconds <= MAX_PICTURE_PERIOD_S))) {
    BAD_VALUE (error, "--monitor-pictures: \"%s\" is not 0 (no picture) or "
        "%g to %d seconds (such as 1 or 0.5)", s->monitor_pictures,
        MIN_PICTURE_PERIOD_S, MAX_PICTURE_PERIOD_S);
    g_free (text);
    return FALSE;
  }
  g_free (text);
  if (period_us)
    *period_us = (gint64) (seconds * G_USEC_PER_SEC + 0.5);
  return TRUE;
}

/**
 * probe_settings_apply:
 * @histogram: a clhistogram element in a pipeline
 *
 * Sets the options that mirror a property on @histogram, in an order
 * where none depends on one set later, and checks the options only the
 * probe reads.
 *
 * Returns: %FALSE with @error (#G_OPTION_ERROR, naming the option and
 *   what is valid) on a value the element or the probe refuses.
 */
gboolean
probe_settings_apply (const ProbeSettings *s, GstElement *histogram,
    GError **error)
{
  const struct
  {
    const gchar *property;
    const gchar *text;
  } plain[] = {
    {"mode", s->mode}, {"bins", s->bins}, {"range-min", s->range_min},
    {"range-max", s->range_max}, {"zones", s->zones},
    {"interval", s->interval}, {"device", s->device},
    {"clip-low-level", s->clip_low_level},
    {"clip-high-level", s->clip_high_level},
    {"metering", s->metering}, {"alert-clipped", s->alert_clipped},
    {"alert-crushed", s->alert_crushed},
    {"alert-hysteresis", s->alert_hysteresis},
    {"alert-hold", s->alert_hold},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (plain); i++)
    if (plain[i].text && !probe_set_property (histogram, plain[i].property,
            plain[i].text, error))
      return FALSE;
  if (s->regions && !probe_set_regions (histogram, s->regions, error))
    return FALSE;
  if (s->percentiles
      && !probe_set_percentiles (histogram, s->percentiles, error))
    return FALSE;
  if (s->metering_weights && !probe_set_doubles (histogram,
          "metering-weights", s->metering_weights, "0,1,0,1,4,1,0,1,0",
          error))
    return FALSE;
  if (s->no_statistics
      && !probe_set_boolean (histogram, "statistics", FALSE, error))
    return FALSE;
  /* The element then builds no counts the probe would drop. */
  if (s->no_counts
      && !probe_set_boolean (histogram, "message-counts", FALSE, error))
    return FALSE;
  return check_probe_settings (s, error);
}
