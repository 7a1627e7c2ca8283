/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The inputs one probe counts.
 *
 * An argument is NAME=FILE-OR-URI or FILE-OR-URI: an argument that names
 * an existing file or device is that file whole, even with a '=' in it;
 * else the text before the first '=', when it is a valid name, names the
 * rest. An unnamed input is named by its argument as given.
 *
 * An --inputs file is a GLib key file (the format of .desktop files):
 * one group per input, the group's name the input's, its `uri` key the
 * file or URI, and any per-input option under its long name, which
 * overrides the command line's for that input:
 *
 *   [door]
 *   uri=rtsp://door.local/stream
 *   zones=3x3
 *   alert-clipped=5
 */
#include "probe-inputs.h"
#include "probe-uri.h"

#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

/* A key file of inputs longer than this is not one: a few thousand
 * cameras' groups fit in it. */
#define MAX_KEY_FILE_BYTES (4 * 1024 * 1024)

#define MAX_NAME_LENGTH 64

#define USAGE_ERROR(error, ...) \
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, __VA_ARGS__)

/**
 * probe_inputs_spec_free:
 * @data: (nullable) (transfer full): a #ProbeInputSpec
 */
void
probe_inputs_spec_free (gpointer data)
{
  ProbeInputSpec *spec = data;

  if (!spec)
    return;
  g_free (spec->name);
  g_free (spec->location);
  g_free (spec->origin);
  probe_settings_clear (&spec->settings);
  g_free (spec);
}

/**
 * probe_inputs_spec_equal:
 * @a: an input
 * @b: another
 *
 * Returns: whether @a and @b are the same input with the same settings:
 *   one probed as the other would be, so that a reload that finds @b
 *   where @a runs lets @a run on.
 */
gboolean
probe_inputs_spec_equal (const ProbeInputSpec *a, const ProbeInputSpec *b)
{
  return strcmp (a->name, b->name) == 0
      && strcmp (a->location, b->location) == 0
      && g_strcmp0 (a->origin, b->origin) == 0 && a->named == b->named
      && a->live == b->live
      && probe_settings_equal (&a->settings, &b->settings);
}

/**
 * probe_inputs_name_is_valid:
 * @name: an input's name
 *
 * Returns: whether @name is 1 to 64 letters, digits, '_', '.' and '-',
 *   starting with a letter or a digit: a name that needs no quoting in
 *   a shell, a key file's group or a Prometheus label.
 */
gboolean
probe_inputs_name_is_valid (const gchar *name)
{
  const gsize n = strlen (name);
  gsize i;

  if (n == 0 || n > MAX_NAME_LENGTH || !g_ascii_isalnum (name[0]))
    return FALSE;
  for (i = 1; i < n; i++)
    if (!g_ascii_isalnum (name[i]) && !strchr ("_.-", name[i]))
      return FALSE;
  return TRUE;
}

/* Whether @location is a stream that can come back (a network URI, a
 * camera) rather than a local file, which ends once. A device node
 * counts even while it is missing (a camera unplugged when the probe
 * starts comes back when it is plugged in); any other location that
 * names nothing is taken for a file: reading it fails at once. */
static gboolean
is_live (const gchar *location)
{
  GStatBuf st;

  if (g_stat (location, &st) == 0)
    return S_ISCHR (st.st_mode);
  if (g_str_has_prefix (location, "/dev/"))
    return TRUE;
  return strstr (location, "://") && gst_uri_is_valid (location)
      && !g_str_has_prefix (location, "file:");
}

static ProbeInputSpec *
spec_new (const gchar *name, const gchar *location, gboolean named,
    const ProbeSettings *settings)
{
  ProbeInputSpec *spec = g_new0 (ProbeInputSpec, 1);

  /* An unnamed input is named by its argument, which may be a file name
   * in any bytes: as UTF-8 (invalid bytes as U+FFFD), since the name goes
   * into JSON and Prometheus labels, and without a URI's password
   * (probe-uri.c); two arguments that read the same then need names
   * (check_names()). */
  if (named) {
    spec->name = g_strdup (name);
  } else {
    gchar *display = g_filename_display_name (name);

    spec->name = probe_uri_redact (display);
    g_free (display);
  }
  spec->location = g_strdup (location);
  spec->named = named;
  spec->live = is_live (location);
  probe_settings_copy (&spec->settings, settings);
  return spec;
}

static ProbeInputSpec *
spec_of_argument (const gchar *arg, const ProbeSettings *defaults,
    GError **error)
{
  const gchar *eq = strchr (arg, '=');
  gchar *name;
  ProbeInputSpec *spec;

  if (!eq || g_file_test (arg, G_FILE_TEST_EXISTS))
    return spec_new (arg, arg, FALSE, defaults);
  name = g_strndup (arg, eq - arg);
  if (!probe_inputs_name_is_valid (name)) {
    g_free (name);
    return spec_new (arg, arg, FALSE, defaults);
  }
  if (eq[1] == '\0') {
    USAGE_ERROR (error, "%s: give a file or URI after the '='", arg);
    g_free (name);
    return NULL;
  }
  spec = spec_new (name, eq + 1, TRUE, defaults);
  g_free (name);
  return spec;
}

/* The keys of @group, `uri` aside, onto @spec's settings. */
static gboolean
read_group_options (ProbeInputSpec *spec, GKeyFile *file, const gchar *path,
    const gchar *group, GError **error)
{
  const gchar *const whole_probe[] = { "inputs", "quiet", "version",
    "metrics", "metrics-regions", NULL
  };
  gchar **keys = g_key_file_get_keys (file, group, NULL, NULL);
  gboolean ok = TRUE;
  guint i;

  for (i = 0; ok && keys && keys[i]; i++) {
    GError *err = NULL;

    if (strcmp (keys[i], "uri") == 0)
      continue;
    if (g_strv_contains (whole_probe, keys[i])) {
      USAGE_ERROR (error, "%s: [%s] %s: an option of the whole probe, not "
          "of one input: give --%s on the command line", path, group,
          keys[i], keys[i]);
      ok = FALSE;
      break;
    }
    ok = probe_settings_set_key (&spec->settings, file, group, keys[i], &err);
    if (!ok) {
      USAGE_ERROR (error, "%s: [%s] %s: %s", path, group, keys[i],
          err->message);
      g_error_free (err);
    }
  }
  g_strfreev (keys);
  return ok;
}

static ProbeInputSpec *
spec_of_group (GKeyFile *file, const gchar *path, const gchar *group,
    const ProbeSettings *defaults, GError **error)
{
  ProbeInputSpec *spec;
  gchar *location;
  GError *err = NULL;

  if (!probe_inputs_name_is_valid (group)) {
    USAGE_ERROR (error, "%s: [%s]: not a name for an input: give 1 to %d "
        "letters, digits, '_', '.' or '-', starting with a letter or a "
        "digit", path, group, MAX_NAME_LENGTH);
    return NULL;
  }
  location = g_key_file_get_string (file, group, "uri", &err);
  if (!location && !g_error_matches (err, G_KEY_FILE_ERROR,
          G_KEY_FILE_ERROR_KEY_NOT_FOUND)) {
    /* Not UTF-8, say: not the same as no key at all. */
    USAGE_ERROR (error, "%s: [%s] uri: %s: write the file or URI in UTF-8, "
        "percent-encoding other bytes", path, group, err->message);
    g_error_free (err);
    return NULL;
  }
  g_clear_error (&err);
  if (!location || !*location) {
    USAGE_ERROR (error, "%s: [%s]: no uri key: give uri=FILE-OR-URI", path,
        group);
    g_free (location);
    return NULL;
  }
  spec = spec_new (group, location, TRUE, defaults);
  spec->origin = g_strdup_printf ("%s: [%s]", path, group);
  g_free (location);
  if (!read_group_options (spec, file, path, group, error)) {
    probe_inputs_spec_free (spec);
    return NULL;
  }
  return spec;
}

/* A group given twice, which GKeyFile would merge into one, the second's
 * keys over the first's: two inputs of one name, which is an error; and
 * a key given twice in a group, of which GKeyFile keeps the last without
 * a word: refused alike. */
static gboolean
check_each_once (const gchar *text, const gchar *path, GError **error)
{
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, NULL);
  GHashTable *keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  gchar **lines = g_strsplit (text, "\n", -1);
  const gchar *group = NULL;
  gboolean ok = TRUE;
  guint i;

  for (i = 0; ok && lines[i]; i++) {
    gchar *line = g_strstrip (lines[i]);
    gchar *end = strrchr (line, ']'), *eq = strchr (line, '=');

    if (*line == '[' && end) {
      *end = '\0';
      group = line + 1;
      g_hash_table_remove_all (keys);
      ok = g_hash_table_add (groups, g_strdup (group));
      if (!ok)
        USAGE_ERROR (error, "--inputs %s: [%s] is given twice: give each "
            "input one group of its own", path, group);
    } else if (group && *line != '#' && eq) {
      *eq = '\0';
      ok = g_hash_table_add (keys, g_strdup (g_strchomp (line)));
      if (!ok)
        USAGE_ERROR (error, "--inputs %s: [%s] %s is given twice: give each "
            "key once", path, group, line);
    }
  }
  g_strfreev (lines);
  g_hash_table_unref (keys);
  g_hash_table_unref (groups);
  return ok;
}

/* The key file: an administrator's, but bounded all the same, and read
 * twice, by GKeyFile and for its group lines. */
static gboolean
load_key_file (GKeyFile *file, const gchar *path, GError **error)
{
  GStatBuf st;
  gchar *text = NULL;
  GError *err = NULL;
  gboolean ok;

  if (g_stat (path, &st) == 0 && st.st_size > MAX_KEY_FILE_BYTES) {
    USAGE_ERROR (error, "--inputs %s: %" G_GINT64_FORMAT " bytes: a key "
        "file of inputs is at most %d", path, (gint64) st.st_size,
        MAX_KEY_FILE_BYTES);
    return FALSE;
  }
  ok = g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, &err)
      && g_file_get_contents (path, &text, NULL, &err);
  if (!ok) {
    USAGE_ERROR (error, "--inputs %s: %s", path, err->message);
    g_error_free (err);
  } else {
    ok = check_each_once (text, path, error);
  }
  g_free (text);
  return ok;
}

static gboolean
read_key_file (GPtrArray *specs, const gchar *path,
    const ProbeSettings *defaults, GError **error)
{
  GKeyFile *file = g_key_file_new ();
  gchar **groups = NULL;
  gboolean ok = load_key_file (file, path, error);
  guint i;

  if (ok) {
    groups = g_key_file_get_groups (file, NULL);
    if (!groups[0]) {
      USAGE_ERROR (error, "--inputs %s: no inputs: give a group for each, "
          "[NAME] with uri=FILE-OR-URI", path);
      ok = FALSE;
    }
  }
  for (i = 0; ok && groups[i]; i++) {
    ProbeInputSpec *spec = spec_of_group (file, path, groups[i], defaults,
        error);

    ok = spec != NULL;
    if (ok)
      g_ptr_array_add (specs, spec);
  }
  g_strfreev (groups);
  g_key_file_free (file);
  return ok;
}

static gboolean
check_names (GPtrArray *specs, GError **error)
{
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean ok = TRUE;
  guint i;

  for (i = 0; ok && i < specs->len; i++) {
    const ProbeInputSpec *spec = g_ptr_array_index (specs, i);

    ok = g_hash_table_add (seen, spec->name);
    if (!ok && spec->named)
      USAGE_ERROR (error, "two inputs are named \"%s\": give each input a "
          "name of its own", spec->name);
    else if (!ok)
      USAGE_ERROR (error, "%s is given twice: to count it twice, name each "
          "input: NAME=FILE-OR-URI", spec->name);
  }
  g_hash_table_unref (seen);
  return ok;
}

/**
 * probe_inputs_parse:
 * @args: (array zero-terminated=1): the arguments that are inputs
 * @key_file: (nullable): the --inputs file
 * @defaults: the command line's options, every input's to start with
 *
 * Returns: (transfer full) (element-type ProbeInputSpec): the inputs,
 *   the arguments' then the key file's, in order; %NULL with @error
 *   (#G_OPTION_ERROR, a usage error, naming the file, group and key where
 *   one is wrong) on a key file that cannot be read or holds an unknown
 *   key or a bad value, a name used twice, or no input at all.
 */
GPtrArray *
probe_inputs_parse (gchar **args, const gchar *key_file,
    const ProbeSettings *defaults, GError **error)
{
  GPtrArray *specs = g_ptr_array_new_with_free_func (probe_inputs_spec_free);
  gboolean ok = TRUE;
  guint i;

  for (i = 0; ok && args[i]; i++) {
    ProbeInputSpec *spec = spec_of_argument (args[i], defaults, error);

    ok = spec != NULL;
    if (ok)
      g_ptr_array_add (specs, spec);
  }
  if (ok && key_file)
    ok = read_key_file (specs, key_file, defaults, error);
  if (ok && specs->len == 0) {
    USAGE_ERROR (error, "give a video file, URI or /dev/videoN, or "
        "--inputs FILE (see --help)");
    ok = FALSE;
  }
  ok = ok && check_names (specs, error);
  if (!ok)
    g_clear_pointer (&specs, g_ptr_array_unref);
  return specs;
}

/**
 * probe_inputs_read:
 * @key_file: the --inputs file, read again
 * @defaults: the command line's options, every input's to start with
 * @others: (element-type ProbeInputSpec): the command line's inputs,
 *   which the file's must not share a name with
 *
 * Reads the key file's inputs as probe_inputs_parse() reads them at
 * start, with the same checks: for a reload (SIGHUP).
 *
 * Returns: (transfer full) (element-type ProbeInputSpec): the file's
 *   inputs, in order; %NULL with @error (#G_OPTION_ERROR, naming the
 *   file, group and key where one is wrong) on a file that cannot be
 *   read, holds an unknown key or a bad value or no input at all, or a
 *   name used twice.
 */
GPtrArray *
probe_inputs_read (const gchar *key_file, const ProbeSettings *defaults,
    GPtrArray *others, GError **error)
{
  GPtrArray *specs = g_ptr_array_new_with_free_func (probe_inputs_spec_free);
  GPtrArray *all = g_ptr_array_new ();
  gboolean ok = read_key_file (specs, key_file, defaults, error);

  if (ok) {
    g_ptr_array_extend (all, others, NULL, NULL);
    g_ptr_array_extend (all, specs, NULL, NULL);
    ok = check_names (all, error);
  }
  g_ptr_array_unref (all);
  if (!ok)
    g_clear_pointer (&specs, g_ptr_array_unref);
  return specs;
}
