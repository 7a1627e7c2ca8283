/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclexposuremarksstyle.h"

#include <math.h>
#include <string.h>

#include "clh-levels.h"

/* The colours a band or a property may name. */
static const struct {
  const gchar *name;
  guint32 rgb;
} named_colours[] = {
  {"black", 0x000000}, {"white", 0xffffff}, {"red", 0xff0000},
  {"green", 0x00ff00}, {"blue", 0x0000ff}, {"yellow", 0xffff00},
  {"cyan", 0x00ffff}, {"magenta", 0xff00ff}, {"purple", 0x8000ff},
  {"pink", 0xff80c0}, {"orange", 0xff8000},
};

static gboolean
settings_error (GError **error, const gchar *format, ...) G_GNUC_PRINTF (2, 3);

/* Sets @error to a LIBRARY SETTINGS error for the user; FALSE. */
static gboolean
settings_error (GError **error, const gchar *format, ...)
{
  va_list args;
  gchar *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS,
      message);
  g_free (message);
  return FALSE;
}

/* A band's look: `grey`, `none`, a colour's name, or its number as
 * #RRGGBB or 0xRRGGBB. */
static gboolean
parse_look (const gchar *text, ClhMarkBandStyle *style, guint32 *rgb)
{
  const gchar *digits = NULL;
  gchar *end;
  guint i;

  *rgb = 0;
  *style = CLH_MARK_BAND_COLOUR;
  if (g_ascii_strcasecmp (text, "grey") == 0
      || g_ascii_strcasecmp (text, "gray") == 0) {
    *style = CLH_MARK_BAND_GREY;
    return TRUE;
  }
  if (g_ascii_strcasecmp (text, "none") == 0) {
    *style = CLH_MARK_BAND_NONE;
    return TRUE;
  }
  for (i = 0; i < G_N_ELEMENTS (named_colours); i++)
    if (g_ascii_strcasecmp (text, named_colours[i].name) == 0) {
      *rgb = named_colours[i].rgb;
      return TRUE;
    }
  if (text[0] == '#')
    digits = text + 1;
  else if (g_str_has_prefix (text, "0x") || g_str_has_prefix (text, "0X"))
    digits = text + 2;
  if (!digits || strlen (digits) != 6 || !g_ascii_isxdigit (digits[0]))
    return FALSE;
  *rgb = (guint32) g_ascii_strtoull (digits, &end, 16);
  return *end == '\0';
}

/* One `LEVEL:LOOK` (or, first, `LOOK`) entry of the table. */
static gboolean
parse_band (const gchar *entry, guint i, GstClMarkBands *bands,
    GError **error)
{
  const gchar *colon = strchr (entry, ':');
  gchar *look, *end;

  if (i == 0 && colon)
    return settings_error (error, "The first false-colour band, \"%s\", has "
        "a level: the first band starts at the lowest code; give it as its "
        "colour alone (e.g. \"purple, 2.5:blue\").", entry);
  if (i > 0 && !colon)
    return settings_error (error, "False-colour band %u, \"%s\", has no "
        "level: give it as LEVEL:COLOUR, the level in percent of the nominal "
        "range (e.g. \"97:yellow\").", i + 1, entry);
  if (colon) {
    gchar *level = g_strndup (entry, colon - entry);

    bands->levels[i] = g_ascii_strtod (g_strstrip (level), &end);
    if (*level == '\0' || *end != '\0' || !isfinite (bands->levels[i])) {
      settings_error (error, "False-colour band %u, \"%s\", has no number "
          "before the colon: give its level in percent of the nominal range "
          "(e.g. \"97:yellow\").", i + 1, entry);
      g_free (level);
      return FALSE;
    }
    g_free (level);
  }
  look = g_strstrip (g_strdup (colon ? colon + 1 : entry));
  if (!parse_look (look, &bands->styles[i], &bands->rgb[i])) {
    settings_error (error, "False-colour band %u has the colour \"%s\": use "
        "a name (black, white, red, green, blue, yellow, cyan, magenta, "
        "purple, pink, orange), grey, none, or #RRGGBB.", i + 1, look);
    g_free (look);
    return FALSE;
  }
  g_free (look);
  if (i > 1 && bands->levels[i] < bands->levels[i - 1])
    return settings_error (error, "False-colour band %u starts at %g%%, "
        "under band %u's %g%%: list the bands from the lowest level up.",
        i + 1, bands->levels[i], i, bands->levels[i - 1]);
  return TRUE;
}

/**
 * gst_cl_mark_bands_parse:
 * @text: the table: comma-separated bands from the lowest up, the first a
 *   colour alone, the others `LEVEL:COLOUR` with LEVEL the band's lower
 *   edge in percent of the nominal range; a colour is a name, `grey` (the
 *   luma as grey), `none` (the picture as it is) or `#RRGGBB`
 * @bands: (out): the table
 * @error: %GST_LIBRARY_ERROR_SETTINGS, a sentence saying what is wrong and
 *   what to write
 *
 * Returns: %TRUE if @text is a table of 1 to %CLH_MARKS_MAX_BANDS bands
 */
gboolean
gst_cl_mark_bands_parse (const gchar *text, GstClMarkBands *bands,
    GError **error)
{
  gchar **entries = g_strsplit (text ? text : "", ",", -1);
  const guint n = g_strv_length (entries);
  gboolean ok = TRUE;
  guint i;

  memset (bands, 0, sizeof (*bands));
  if (n < 1 || n > CLH_MARKS_MAX_BANDS) {
    settings_error (error, "The false-colour table has %u bands: give 1 to "
        "%u, separated by commas.", n, CLH_MARKS_MAX_BANDS);
    ok = FALSE;
  }
  for (i = 0; ok && i < n; i++)
    ok = parse_band (g_strstrip (entries[i]), i, bands, error);
  bands->n_bands = ok ? n : 0;
  g_strfreev (entries);
  return ok;
}

/**
 * gst_cl_mark_layout:
 * @info: a format clexposuremarks takes
 *
 * Returns: how the marks read its components
 */
ClhMarksLayout
gst_cl_mark_layout (const GstVideoInfo *info)
{
  if (GST_VIDEO_INFO_IS_GRAY (info))
    return CLH_MARKS_GRAY;
  return GST_VIDEO_INFO_IS_RGB (info) ? CLH_MARKS_RGB : CLH_MARKS_YUV;
}

static guint
round_code (gdouble v)
{
  return (guint) CLAMP (floor (v + 0.5), 0.0, 255.0);
}

/**
 * gst_cl_mark_colour:
 * @info: the negotiated format
 * @rgb: a colour, 0xRRGGBB, as full-range 8-bit R'G'B'
 * @colour: (out): its code values in @info's components (R, G, B or Y, U,
 *   V; gray: Y)
 *
 * Converts with the caps' matrix (BT.601 when they name none, as for
 * gray) and range: limited range puts Y' at 16 + 219 Y' and the colour
 * differences at 128 + 224 Pb, Pr (ITU-R BT.601 section 2.5.3); full range
 * at 255 Y' and 128 + 255 Pb, Pr; each rounded to the nearest 8-bit code,
 * then scaled by 2^(depth - 8), as FFmpeg's `signalstats` scales its BRNG
 * colour, so that marks agree with it at every depth.
 */
void
gst_cl_mark_colour (const GstVideoInfo *info, guint32 rgb,
    ClhMarkColour *colour)
{
  const gboolean limited =
      GST_VIDEO_INFO_COLORIMETRY (info).range == GST_VIDEO_COLOR_RANGE_16_235;
  const guint shift = GST_VIDEO_INFO_COMP_DEPTH (info, 0) - 8;
  const gdouble r = ((rgb >> 16) & 0xff) / 255.0;
  const gdouble g = ((rgb >> 8) & 0xff) / 255.0;
  const gdouble b = (rgb & 0xff) / 255.0;
  gdouble kr, kb, y, pb, pr;
  guint c;

  if (gst_cl_mark_layout (info) == CLH_MARKS_RGB) {
    colour->values[0] = round_code (limited ? 16 + 219 * r : 255 * r);
    colour->values[1] = round_code (limited ? 16 + 219 * g : 255 * g);
    colour->values[2] = round_code (limited ? 16 + 219 * b : 255 * b);
  } else {
    if (!gst_video_color_matrix_get_Kr_Kb (GST_VIDEO_INFO_COLORIMETRY
            (info).matrix, &kr, &kb) || GST_VIDEO_INFO_COLORIMETRY
        (info).matrix == GST_VIDEO_COLOR_MATRIX_RGB) {
      kr = 0.299;
      kb = 0.114;
    }
    y = kr * r + (1.0 - kr - kb) * g + kb * b;
    pb = (b - y) / (2.0 * (1.0 - kb));
    pr = (r - y) / (2.0 * (1.0 - kr));
    colour->values[0] = round_code (limited ? 16 + 219 * y : 255 * y);
    colour->values[1] = round_code (128 + (limited ? 224 : 255) * pb);
    colour->values[2] = round_code (128 + (limited ? 224 : 255) * pr);
  }
  for (c = 0; c < 3; c++)
    colour->values[c] <<= shift;
}

/**
 * gst_cl_mark_bands_apply:
 * @bands: a parsed table
 * @info: the negotiated format
 * @spec: (inout): gets the table's bands, their edges as luma code values
 *   (clh_levels_at_percent() of the luma's nominal range for the caps'
 *   range) and in percent, for the legend, and colours in the format's
 *   code values
 */
void
gst_cl_mark_bands_apply (const GstClMarkBands *bands,
    const GstVideoInfo *info, ClhMarksSpec *spec)
{
  const ClhLevels levels = clh_levels_nominal (GST_VIDEO_INFO_COMP_DEPTH
      (info, 0), GST_VIDEO_INFO_COLORIMETRY (info).range ==
      GST_VIDEO_COLOR_RANGE_16_235, FALSE);
  guint i;

  spec->n_bands = bands->n_bands;
  for (i = 0; i < bands->n_bands; i++) {
    ClhMarkBand *band = &spec->bands[i];

    band->first = i == 0 ? 0 : clh_levels_at_percent (&levels,
        bands->levels[i]);
    band->level = i == 0 ? 0.0 : bands->levels[i];
    band->style = bands->styles[i];
    gst_cl_mark_colour (info, bands->rgb[i], &band->colour);
  }
}
