/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's options as the element's properties. What is valid comes
 * from the element itself (its property specs, its enum, its pad
 * template, the warning it posts when it ignores a value), so that the
 * probe's errors name what the element accepts today. */
#include "probe-options.h"

#include <math.h>
#include <string.h>
#include <gst/video/video.h>

#define BAD_VALUE(error, ...) \
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, __VA_ARGS__)

static GParamSpec *
find_property (GstElement *element, const gchar *property, GError **error)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (element), property);

  if (!pspec)
    BAD_VALUE (error, "--%s: this %s has no \"%s\" property (the plugin is "
        "older than the probe)", property,
        GST_OBJECT_NAME (gst_element_get_factory (element)), property);
  return pspec;
}

/* The bus an application reads: a bin's children post on a bus of the
 * bin's that hands their messages on at once. */
static GstBus *
top_bus (GstElement *element)
{
  GstObject *top = gst_object_ref (GST_OBJECT (element));
  GstObject *parent;
  GstBus *bus;

  while ((parent = gst_object_get_parent (top))) {
    gst_object_unref (top);
    top = parent;
  }
  bus = GST_IS_ELEMENT (top) ? gst_element_get_bus (GST_ELEMENT (top)) : NULL;
  gst_object_unref (top);
  return bus;
}

/* The element keeps the old value of a property it cannot use and posts
 * a warning saying why, at once, when it is in a pipeline. */
static gboolean
take_rejection (GstElement *element, const gchar *property, GError **error)
{
  GstBus *bus = top_bus (element);
  GstMessage *msg;
  gboolean ok = TRUE;

  if (!bus)
    return TRUE;
  while (ok && (msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (element)) {
      GError *warning = NULL;

      gst_message_parse_warning (msg, &warning, NULL);
      BAD_VALUE (error, "--%s: %s", property, warning->message);
      g_error_free (warning);
      ok = FALSE;
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return ok;
}

static gchar *
enum_nicks (GEnumClass *klass)
{
  GString *nicks = g_string_new (NULL);
  guint i;

  for (i = 0; i < klass->n_values; i++)
    g_string_append_printf (nicks, "%s%s", i ? ", " : "",
        klass->values[i].value_nick);
  return g_string_free (nicks, FALSE);
}

/* @text into @value, initialized to @pspec's type, within its range. */
static gboolean
parse_value (GParamSpec *pspec, const gchar *text, GValue *value,
    GError **error)
{
  const gchar *name = g_param_spec_get_name (pspec);
  guint64 u;
  gint64 i;

  if (G_IS_PARAM_SPEC_UINT (pspec)) {
    const GParamSpecUInt *p = G_PARAM_SPEC_UINT (pspec);

    if (g_ascii_string_to_unsigned (text, 10, p->minimum, p->maximum, &u,
            NULL)) {
      g_value_set_uint (value, (guint) u);
      return TRUE;
    }
    BAD_VALUE (error, "--%s: \"%s\" is not an integer from %u to %u", name,
        text, p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_INT (pspec)) {
    const GParamSpecInt *p = G_PARAM_SPEC_INT (pspec);

    if (g_ascii_string_to_signed (text, 10, p->minimum, p->maximum, &i,
            NULL)) {
      g_value_set_int (value, (gint) i);
      return TRUE;
    }
    BAD_VALUE (error, "--%s: \"%s\" is not an integer from %d to %d", name,
        text, p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_UINT64 (pspec)) {
    const GParamSpecUInt64 *p = G_PARAM_SPEC_UINT64 (pspec);

    if (g_ascii_string_to_unsigned (text, 10, p->minimum, p->maximum, &u,
            NULL)) {
      g_value_set_uint64 (value, u);
      return TRUE;
    }
    BAD_VALUE (error, "--%s: \"%s\" is not an integer from %" G_GUINT64_FORMAT
        " to %" G_GUINT64_FORMAT, name, text, p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_DOUBLE (pspec)) {
    const GParamSpecDouble *p = G_PARAM_SPEC_DOUBLE (pspec);
    gchar *end = NULL;
    const gdouble d = g_ascii_strtod (text, &end);

    if (*text && end && *end == '\0' && isfinite (d) && d >= p->minimum
        && d <= p->maximum) {
      g_value_set_double (value, d);
      return TRUE;
    }
    BAD_VALUE (error, "--%s: \"%s\" is not a number from %g to %g", name,
        text, p->minimum, p->maximum);
  } else if (G_IS_PARAM_SPEC_ENUM (pspec)) {
    GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    const GEnumValue *v = g_enum_get_value_by_nick (klass, text);
    gchar *nicks;

    if (v) {
      g_value_set_enum (value, v->value);
      return TRUE;
    }
    nicks = enum_nicks (klass);
    BAD_VALUE (error, "--%s: unknown %s \"%s\"; valid: %s", name, name, text,
        nicks);
    g_free (nicks);
  } else if (G_IS_PARAM_SPEC_STRING (pspec)) {
    g_value_set_string (value, text);
    return TRUE;
  } else {
    BAD_VALUE (error, "--%s: the property cannot be set from text", name);
  }
  return FALSE;
}

/**
 * probe_set_property:
 * @element: an element in a bin
 * @property: the property, which is also the option's name
 * @text: the option's value
 *
 * Returns: %FALSE with @error naming what is valid if the element lacks
 *   @property, @text is not a value of it, or the element ignores it.
 */
gboolean
probe_set_property (GstElement *element, const gchar *property,
    const gchar *text, GError **error)
{
  GParamSpec *pspec = find_property (element, property, error);
  GValue value = G_VALUE_INIT;
  gboolean ok;

  if (!pspec)
    return FALSE;
  g_value_init (&value, G_PARAM_SPEC_VALUE_TYPE (pspec));
  ok = parse_value (pspec, text, &value, error);
  if (ok)
    g_object_set_property (G_OBJECT (element), property, &value);
  g_value_unset (&value);
  return ok && take_rejection (element, property, error);
}

gboolean
probe_set_boolean (GstElement *element, const gchar *property,
    gboolean value, GError **error)
{
  if (!find_property (element, property, error))
    return FALSE;
  g_object_set (element, property, value, NULL);
  return take_rejection (element, property, error);
}

static void
append_double (GValue *array, gdouble v)
{
  GValue item = G_VALUE_INIT;

  g_value_init (&item, G_TYPE_DOUBLE);
  g_value_set_double (&item, v);
  gst_value_array_append_and_take_value (array, &item);
}

/* Whether @v is one of @array's values so far. */
static gboolean
holds_double (const GValue *array, gdouble v)
{
  guint i;

  for (i = 0; i < gst_value_array_get_size (array); i++)
    if (g_value_get_double (gst_value_array_get_value (array, i)) == v)
      return TRUE;
  return FALSE;
}

/* @property's numbers from @text; with @distinct, a number given twice is
 * refused too. */
static gboolean
set_doubles (GstElement *element, const gchar *property, const gchar *text,
    const gchar *example, gboolean distinct, GError **error)
{
  GParamSpec *pspec = find_property (element, property, error);
  gdouble lo = 0.0, hi = G_MAXDOUBLE;
  GValue array = G_VALUE_INIT;
  gchar **parts;
  gboolean ok = TRUE;
  guint i;

  if (!pspec)
    return FALSE;
  if (GST_IS_PARAM_SPEC_ARRAY_LIST (pspec)) {
    GParamSpec *item = GST_PARAM_SPEC_ARRAY_LIST (pspec)->element_spec;

    if (item && G_IS_PARAM_SPEC_DOUBLE (item)) {
      lo = G_PARAM_SPEC_DOUBLE (item)->minimum;
      hi = G_PARAM_SPEC_DOUBLE (item)->maximum;
    }
  }
  g_value_init (&array, GST_TYPE_ARRAY);
  parts = g_strsplit (text, ",", -1);
  for (i = 0; ok && parts[i]; i++) {
    gchar *part = g_strstrip (parts[i]);
    gchar *end = NULL;
    gdouble v = g_ascii_strtod (part, &end);

    ok = *part && end && *end == '\0' && isfinite (v) && v >= lo && v <= hi;
    if (ok && distinct && holds_double (&array, v)) {
      BAD_VALUE (error, "--%s: %s is given twice; give each point once, "
          "e.g. %s", property, part, example);
      ok = FALSE;
    } else if (ok)
      append_double (&array, v);
    else if (hi >= G_MAXFLOAT)
      BAD_VALUE (error, "--%s: \"%s\" is not a number of %g or more; "
          "give a comma list, e.g. %s", property, part, lo, example);
    else
      BAD_VALUE (error, "--%s: \"%s\" is not a number from %g to %g; "
          "give a comma list, e.g. %s", property, part, lo, hi, example);
  }
  g_strfreev (parts);
  if (ok)
    g_object_set_property (G_OBJECT (element), property, &array);
  g_value_unset (&array);
  return ok && take_rejection (element, property, error);
}

/**
 * probe_set_doubles:
 * @property: a #GstValueArray of gdouble property, which is also the
 *   option's name
 * @text: a comma list of numbers
 * @example: a valid list, for the error
 *
 * Sets @property to the numbers of @text, each in the range its element
 * spec gives.
 */
gboolean
probe_set_doubles (GstElement *element, const gchar *property,
    const gchar *text, const gchar *example, GError **error)
{
  return set_doubles (element, property, text, example, FALSE, error);
}

/**
 * probe_set_percentiles:
 * @text: a comma list of numbers, e.g. `1,10,50,90,99`
 *
 * Sets the `percentiles` property, a #GstValueArray of gdouble, each in
 * the range its element spec gives and none given twice: twice the same
 * point would be two series of one name for Prometheus, and twice the
 * same column for anyone reading the JSON.
 */
gboolean
probe_set_percentiles (GstElement *element, const gchar *text,
    GError **error)
{
  return set_doubles (element, "percentiles", text, "1,10,50,90,99", TRUE,
      error);
}

static gboolean
append_rect (GValue *regions, gchar *text)
{
  gchar **parts = g_strsplit (text, ",", -1);
  GValue rect = G_VALUE_INIT;
  gboolean ok = g_strv_length (parts) == 4;
  guint i;

  g_value_init (&rect, GST_TYPE_ARRAY);
  for (i = 0; ok && i < 4; i++) {
    GValue item = G_VALUE_INIT;
    gint64 v;

    ok = g_ascii_string_to_signed (g_strstrip (parts[i]), 10, G_MININT,
        G_MAXINT, &v, NULL);
    if (!ok)
      break;
    g_value_init (&item, G_TYPE_INT);
    g_value_set_int (&item, (gint) v);
    gst_value_array_append_and_take_value (&rect, &item);
  }
  if (ok)
    gst_value_array_append_and_take_value (regions, &rect);
  else
    g_value_unset (&rect);
  g_strfreev (parts);
  return ok;
}

/* "x,y,w,h;x,y,w,h" (a trailing ';' allowed) into @regions. */
static gboolean
parse_rect_list (const gchar *text, GValue *regions)
{
  gchar **items = g_strsplit (text, ";", -1);
  gboolean ok = TRUE;
  guint i;

  for (i = 0; ok && items[i]; i++) {
    gchar *item = g_strstrip (items[i]);

    if (*item || items[i + 1])
      ok = append_rect (regions, item);
  }
  g_strfreev (items);
  return ok;
}

/* The regions' text is bounded before GStreamer's value parser reads it:
 * the parser recurses once per nesting level (a text nested 100,000 deep
 * overflowed the stack) and the text may come from a key file. The
 * property's form needs two levels, <<x,y,w,h>,...>. */
#define MAX_REGIONS_TEXT 65536
#define MAX_REGIONS_DEPTH 2

static gboolean
check_regions_text (const gchar *text, GError **error)
{
  gsize length = strlen (text);
  gint depth = 0, deepest = 0;
  const gchar *p;

  for (p = text; *p; p++) {
    if (strchr ("<{[", *p)) {
      depth++;
      deepest = MAX (deepest, depth);
    } else if (strchr (">}]", *p)) {
      depth--;
    }
  }
  if (deepest > MAX_REGIONS_DEPTH) {
    BAD_VALUE (error, "--regions: nested %d deep: give <<x,y,width,height>,"
        "...>, nested %d deep at most", deepest, MAX_REGIONS_DEPTH);
    return FALSE;
  }
  if (length > MAX_REGIONS_TEXT) {
    BAD_VALUE (error, "--regions: %" G_GSIZE_FORMAT " characters: give at "
        "most %d", length, MAX_REGIONS_TEXT);
    return FALSE;
  }
  return TRUE;
}

/**
 * probe_set_regions:
 * @text: `x,y,w,h;x,y,w,h...`, or the property's own form
 *   `<<x,y,w,h>,...>`; empty for none
 *
 * Sets the `regions` property; the element checks the rectangles.
 */
gboolean
probe_set_regions (GstElement *element, const gchar *text, GError **error)
{
  GValue regions = G_VALUE_INIT;
  const gchar *start = text + strspn (text, " \t");
  gboolean ok;

  if (!find_property (element, "regions", error)
      || !check_regions_text (text, error))
    return FALSE;
  g_value_init (&regions, GST_TYPE_ARRAY);
  ok = *start == '<' ? gst_value_deserialize (&regions, start) :
      parse_rect_list (text, &regions);
  if (ok)
    g_object_set_property (G_OBJECT (element), "regions", &regions);
  else
    BAD_VALUE (error, "--regions: \"%s\" is not a list of rectangles; give "
        "x,y,width,height;x,y,width,height... (integers) or "
        "<<x,y,width,height>,...>", text);
  g_value_unset (&regions);
  return ok && take_rejection (element, "regions", error);
}

/* The formats of clhistogram's sink template, "GRAY8, GRAY16_LE, ...". */
static gchar *
counted_formats (GstElementFactory *factory, const gchar *format,
    gboolean *found)
{
  GString *names = g_string_new (NULL);
  const GList *l;

  *found = FALSE;
  for (l = gst_element_factory_get_static_pad_templates (factory); l;
      l = l->next) {
    GstStaticPadTemplate *templ = l->data;
    GstCaps *caps;
    const GValue *formats;
    guint i, n;

    if (templ->direction != GST_PAD_SINK)
      continue;
    caps = gst_static_pad_template_get_caps (templ);
    formats = gst_caps_get_size (caps) > 0 ?
        gst_structure_get_value (gst_caps_get_structure (caps, 0),
        "format") : NULL;
    n = formats && GST_VALUE_HOLDS_LIST (formats) ?
        gst_value_list_get_size (formats) : 0;
    for (i = 0; i < n; i++) {
      const GValue *v = gst_value_list_get_value (formats, i);
      const gchar *name = G_VALUE_HOLDS_STRING (v) ?
          g_value_get_string (v) : NULL;

      if (!name)
        continue;
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", name);
      if (g_strcmp0 (name, format) == 0)
        *found = TRUE;
    }
    gst_caps_unref (caps);
  }
  return g_string_free (names, FALSE);
}

/**
 * probe_check_format:
 * @format: a #GstVideoFormat name
 *
 * Returns: %FALSE with @error listing the formats clhistogram counts if
 *   it counts no @format.
 */
gboolean
probe_check_format (const gchar *format, GError **error)
{
  GstElementFactory *factory = gst_element_factory_find ("clhistogram");
  gboolean found = FALSE, refused;
  gchar *names;

  if (!factory)
    return TRUE;
  names = counted_formats (factory, format, &found);
  /* No names read from the template: nothing to check against. */
  refused = !found && *names;
  if (refused)
    BAD_VALUE (error, "--format: %s \"%s\"; clhistogram counts %s",
        gst_video_format_from_string (format) == GST_VIDEO_FORMAT_UNKNOWN ?
        "unknown format" : "clhistogram cannot count", format, names);
  g_free (names);
  gst_object_unref (factory);
  return !refused;
}

/* The largest @field (width, height) clhistogram's sink template takes,
 * or 0 if it names no range. */
static gint
largest_size (GstElementFactory *factory, const gchar *field)
{
  const GList *l;
  gint largest = 0;

  for (l = gst_element_factory_get_static_pad_templates (factory); l;
      l = l->next) {
    GstStaticPadTemplate *templ = l->data;
    GstCaps *caps;
    const GValue *range;

    if (templ->direction != GST_PAD_SINK)
      continue;
    caps = gst_static_pad_template_get_caps (templ);
    range = gst_caps_get_size (caps) > 0 ?
        gst_structure_get_value (gst_caps_get_structure (caps, 0), field) :
        NULL;
    if (range && GST_VALUE_HOLDS_INT_RANGE (range))
      largest = MAX (largest, gst_value_get_int_range_max (range));
    gst_caps_unref (caps);
  }
  return largest;
}

/**
 * probe_check_size:
 * @option: the option's long name, "width" or "height"
 * @pixels: the size asked for
 *
 * Returns: %FALSE with @error saying the largest size if clhistogram
 *   takes no frame of @pixels (its sink template's range).
 */
gboolean
probe_check_size (const gchar *option, gint pixels, GError **error)
{
  GstElementFactory *factory = gst_element_factory_find ("clhistogram");
  gint largest;

  if (!factory)
    return TRUE;
  largest = largest_size (factory, option);
  gst_object_unref (factory);
  if (largest > 0 && pixels > largest) {
    BAD_VALUE (error, "--%s: %d pixels is more than clhistogram counts: "
        "give 1 to %d", option, pixels, largest);
    return FALSE;
  }
  return TRUE;
}
