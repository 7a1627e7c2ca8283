/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A `histogram` or `exposure` message as one line of JSON, the lines
 * that say an input went down or came up, and those of a reload; each
 * line's first member names its input (null for a reload's). The
 * structure is walked by the types of its values, not by a list of its
 * fields, so that a field the element gains appears with no change
 * here. */
#include "probe-json.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>

static void add_value (JsonBuilder *builder, const GValue *value,
    const gchar *skip_field);

/* json-glib 1.6 writes a double it prints in exponent form without a
 * point, as %.17g does from 1e17 up, with ".0" after the exponent
 * ("1e+20.0"), which is not JSON; such a double is an integer, so it goes
 * out as one while it fits. A non-finite one has no JSON form at all. */
static void
add_double (JsonBuilder *builder, gdouble v)
{
  if (!isfinite (v))
    json_builder_add_null_value (builder);
  else if (fabs (v) < 1e17)
    json_builder_add_double_value (builder, v);
  else if (fabs (v) < 9e18)
    json_builder_add_int_value (builder, (gint64) v);
  else
    json_builder_add_null_value (builder);
}

/* GST_CLOCK_TIME_NONE is how GStreamer says "unknown" in a guint64 time,
 * which JSON says with null. JSON integers are read as gint64 by most
 * parsers, json-glib's own included, so a larger value goes out as the
 * nearest double rather than wrapped. */
static void
add_uint64 (JsonBuilder *builder, guint64 v)
{
  if (v == GST_CLOCK_TIME_NONE)
    json_builder_add_null_value (builder);
  else if (v > G_MAXINT64)
    json_builder_add_double_value (builder, (gdouble) v);
  else
    json_builder_add_int_value (builder, (gint64) v);
}

typedef struct {
  JsonBuilder *builder;
  const gchar *skip_field;
} Walk;

static gboolean
add_field (GQuark field, const GValue *value, gpointer data)
{
  const Walk *walk = data;
  const gchar *name = g_quark_to_string (field);

  if (!walk->skip_field || strcmp (name, walk->skip_field) != 0) {
    json_builder_set_member_name (walk->builder, name);
    add_value (walk->builder, value, walk->skip_field);
  }
  return TRUE;
}

/* Walked by quark: a field looked up by its name takes GLib's one
 * process-wide quark lock, which the streams of many inputs would take
 * turns at (docs/performance.md, "Messages at many streams"). */
static void
add_fields (JsonBuilder *builder, const GstStructure *s,
    const gchar *skip_field)
{
  Walk walk = { builder, skip_field };

  gst_structure_foreach (s, add_field, &walk);
}

static void
add_list (JsonBuilder *builder, const GValue *value, const gchar *skip_field)
{
  const gboolean is_array = GST_VALUE_HOLDS_ARRAY (value);
  const guint n = is_array ? gst_value_array_get_size (value) :
      gst_value_list_get_size (value);
  guint i;

  json_builder_begin_array (builder);
  for (i = 0; i < n; i++)
    add_value (builder, is_array ? gst_value_array_get_value (value, i) :
        gst_value_list_get_value (value, i), skip_field);
  json_builder_end_array (builder);
}

static void
add_enum (JsonBuilder *builder, const GValue *value)
{
  GEnumClass *klass = g_type_class_ref (G_VALUE_TYPE (value));
  GEnumValue *v = g_enum_get_value (klass, g_value_get_enum (value));

  if (v)
    json_builder_add_string_value (builder, v->value_nick);
  else
    json_builder_add_int_value (builder, g_value_get_enum (value));
  g_type_class_unref (klass);
}

/* Anything else (fractions, flags, caps, ...) as GStreamer writes it. */
static void
add_serialized (JsonBuilder *builder, const GValue *value)
{
  gchar *text = gst_value_serialize (value);

  if (text)
    json_builder_add_string_value (builder, text);
  else
    json_builder_add_null_value (builder);
  g_free (text);
}

static void
add_value (JsonBuilder *builder, const GValue *value, const gchar *skip_field)
{
  const GType type = G_VALUE_TYPE (value);

  if (type == G_TYPE_BOOLEAN)
    json_builder_add_boolean_value (builder, g_value_get_boolean (value));
  else if (type == G_TYPE_INT)
    json_builder_add_int_value (builder, g_value_get_int (value));
  else if (type == G_TYPE_UINT)
    json_builder_add_int_value (builder, g_value_get_uint (value));
  else if (type == G_TYPE_INT64)
    json_builder_add_int_value (builder, g_value_get_int64 (value));
  else if (type == G_TYPE_UINT64)
    add_uint64 (builder, g_value_get_uint64 (value));
  else if (type == G_TYPE_LONG)
    json_builder_add_int_value (builder, g_value_get_long (value));
  else if (type == G_TYPE_ULONG)
    add_uint64 (builder, g_value_get_ulong (value));
  else if (type == G_TYPE_DOUBLE)
    add_double (builder, g_value_get_double (value));
  else if (type == G_TYPE_FLOAT)
    add_double (builder, g_value_get_float (value));
  else if (type == G_TYPE_STRING) {
    const gchar *text = g_value_get_string (value);

    if (text)
      json_builder_add_string_value (builder, text);
    else
      json_builder_add_null_value (builder);
  } else if (GST_VALUE_HOLDS_ARRAY (value) || GST_VALUE_HOLDS_LIST (value))
    add_list (builder, value, skip_field);
  else if (GST_VALUE_HOLDS_STRUCTURE (value)) {
    const GstStructure *s = gst_value_get_structure (value);

    json_builder_begin_object (builder);
    if (s)
      add_fields (builder, s, skip_field);
    json_builder_end_object (builder);
  } else if (G_TYPE_IS_ENUM (type))
    add_enum (builder, value);
  else
    add_serialized (builder, value);
}

static void
add_time_field (JsonBuilder *builder, const gchar *member,
    const GstStructure *s, GQuark field)
{
  const GValue *value = gst_structure_id_get_value (s, field);

  json_builder_set_member_name (builder, member);
  add_uint64 (builder, value && G_VALUE_HOLDS_UINT64 (value) ?
      g_value_get_uint64 (value) : GST_CLOCK_TIME_NONE);
}

/* The builder's object as one line of JSON, no newline. */
static gchar *
to_line (JsonBuilder *builder)
{
  JsonGenerator *generator = json_generator_new ();
  JsonNode *root = json_builder_get_root (builder);
  gchar *line;

  json_generator_set_root (generator, root);
  line = json_generator_to_data (generator, NULL);
  json_node_unref (root);
  g_object_unref (generator);
  return line;
}

/* An object whose first member names the input it tells of: null for
 * a line of the whole probe's (a reload), so that every line has it. */
static JsonBuilder *
begin_line (const gchar *input)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "input");
  if (input)
    json_builder_add_string_value (builder, input);
  else
    json_builder_add_null_value (builder);
  return builder;
}

static gchar *
end_line (JsonBuilder *builder)
{
  gchar *line;

  json_builder_end_object (builder);
  line = to_line (builder);
  g_object_unref (builder);
  return line;
}

/**
 * probe_json_of_message:
 * @input: the input's name
 * @s: a `histogram` or `exposure` message's structure
 * @kind: (nullable): a name for the message, given as a member `message`
 *   after `pts` (`"exposure"`); %NULL for a `histogram` message, whose
 *   lines have no such member
 * @skip_field: (nullable): a field left out wherever it appears, at the
 *   top level and in nested structures (`counts` for statistics only)
 *
 * Returns: one line of JSON, no newline: `input` (@input), `pts` (the
 *   frame's timestamp, ns, null when unknown), then every field of @s
 *   under its own name (`duration` among them, null when unknown), nested
 *   structures as objects and arrays as arrays. Free with g_free().
 */
gchar *
probe_json_of_message (const gchar *input, const GstStructure *s,
    const gchar *kind, const gchar *skip_field)
{
  static GQuark timestamp, duration;
  static gsize quarks_done;
  JsonBuilder *builder = begin_line (input);

  if (g_once_init_enter (&quarks_done)) {
    timestamp = g_quark_from_static_string ("timestamp");
    duration = g_quark_from_static_string ("duration");
    g_once_init_leave (&quarks_done, 1);
  }
  add_time_field (builder, "pts", s, timestamp);
  if (kind) {
    json_builder_set_member_name (builder, "message");
    json_builder_add_string_value (builder, kind);
  }
  add_fields (builder, s, skip_field);
  if (!gst_structure_id_has_field (s, duration))
    add_time_field (builder, "duration", s, duration);
  return end_line (builder);
}

/**
 * probe_json_of_input_down:
 * @input: the input's name
 * @reason: why it went down, one line: the error, "end of stream", ...
 * @retry_in: seconds until it is tried again
 * @downs: the times it went down, this one included
 *
 * Returns: one line of JSON, no newline:
 *   `{"input":...,"message":"input-down","reason":...,"retry-in":...,
 *   "downs":...}`. Free with g_free().
 */
gchar *
probe_json_of_input_down (const gchar *input, const gchar *reason,
    guint retry_in, guint downs)
{
  JsonBuilder *builder = begin_line (input);

  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, "input-down");
  json_builder_set_member_name (builder, "reason");
  json_builder_add_string_value (builder, reason);
  json_builder_set_member_name (builder, "retry-in");
  json_builder_add_int_value (builder, retry_in);
  json_builder_set_member_name (builder, "downs");
  json_builder_add_int_value (builder, downs);
  return end_line (builder);
}

/**
 * probe_json_of_input_up:
 * @input: the input's name
 * @reconnects: the times it came back up after its first start
 *
 * Returns: one line of JSON, no newline:
 *   `{"input":...,"message":"input-up","reconnects":...}`. Free with
 *   g_free().
 */
gchar *
probe_json_of_input_up (const gchar *input, guint reconnects)
{
  JsonBuilder *builder = begin_line (input);

  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, "input-up");
  json_builder_set_member_name (builder, "reconnects");
  json_builder_add_int_value (builder, reconnects);
  return end_line (builder);
}

static void
add_names (JsonBuilder *builder, const gchar *member, GPtrArray *names)
{
  guint i;

  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (i = 0; i < names->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (names, i));
  json_builder_end_array (builder);
}

/**
 * probe_json_of_reload:
 * @file: the --inputs file read again
 * @added: (element-type utf8): the names of the inputs it added
 * @removed: (element-type utf8): ... removed
 * @changed: (element-type utf8): ... changed (restarted with their new
 *   settings)
 * @unchanged: (element-type utf8): ... that run on untouched
 *
 * Returns: one line of JSON, no newline: `{"input":null,"message":
 *   "inputs-reloaded","file":...,"added":[...],"removed":[...],
 *   "changed":[...],"unchanged":[...]}`. Free with g_free().
 */
gchar *
probe_json_of_reload (const gchar *file, GPtrArray *added, GPtrArray *removed,
    GPtrArray *changed, GPtrArray *unchanged)
{
  JsonBuilder *builder = begin_line (NULL);

  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, "inputs-reloaded");
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, file);
  add_names (builder, "added", added);
  add_names (builder, "removed", removed);
  add_names (builder, "changed", changed);
  add_names (builder, "unchanged", unchanged);
  return end_line (builder);
}

/**
 * probe_json_of_reload_failure:
 * @file: (nullable): the --inputs file, %NULL where there is none
 * @reason: why the inputs were not reloaded, one line
 *
 * Returns: one line of JSON, no newline: `{"input":null,"message":
 *   "reload-failed","file":...,"reason":...}`. Free with g_free().
 */
gchar *
probe_json_of_reload_failure (const gchar *file, const gchar *reason)
{
  JsonBuilder *builder = begin_line (NULL);

  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, "reload-failed");
  json_builder_set_member_name (builder, "file");
  if (file)
    json_builder_add_string_value (builder, file);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "reason");
  json_builder_add_string_value (builder, reason);
  return end_line (builder);
}
