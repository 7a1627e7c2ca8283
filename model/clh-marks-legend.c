/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-marks-legend.h"

#include <string.h>

#include "clh-font.h"

/* @level in percent as the legend writes it: one decimal, none when it
 * is 0, within -999..9999 so that a text fits its row. */
static void
format_level (gdouble level, gchar *out, gsize size)
{
  gchar *dot;

  /* Not printf: a locale's decimal comma is no glyph of the font. */
  g_ascii_formatd (out, (gint) size, "%.1f", CLAMP (level, -999.0, 9999.0));
  dot = strchr (out, '.');
  if (dot && strcmp (dot, ".0") == 0)
    *dot = '\0';
}

/**
 * clh_marks_legend_text:
 * @spec: marks with a false-colour table of two or more bands
 * @band: a band of it
 * @text: (out): its range as the legend writes it: "<U%" for the first
 *   band (U the next band's level), "L-U%" for the ones between, and
 *   %CLH_FONT_AT_LEAST "L%" for the last; levels with one decimal, none
 *   when it is 0 (2.5, 97), clamped to -999..9999
 */
void
clh_marks_legend_text (const ClhMarksSpec *spec, guint band,
    gchar text[CLH_MARKS_LEGEND_TEXT])
{
  gchar low[12], high[12];

  format_level (spec->bands[band].level, low, sizeof (low));
  if (band + 1 < spec->n_bands)
    format_level (spec->bands[band + 1].level, high, sizeof (high));
  if (band == 0)
    g_snprintf (text, CLH_MARKS_LEGEND_TEXT, "<%s%%", high);
  else if (band + 1 == spec->n_bands)
    g_snprintf (text, CLH_MARKS_LEGEND_TEXT, "%c%s%%", CLH_FONT_AT_LEAST,
        low);
  else
    g_snprintf (text, CLH_MARKS_LEGEND_TEXT, "%s-%s%%", low, high);
}

/* Whether band @i is keyed: its pixels painted in its colour. */
static gboolean
keyed (const ClhMarksSpec *spec, guint i)
{
  return spec->bands[i].style == CLH_MARK_BAND_COLOUR;
}

/**
 * clh_marks_legend_place:
 * @spec: valid marks
 * @width: the frame's width
 * @height: its height
 * @legend: (out): where the legend lies, when there is one
 *
 * Lays the legend out: a row for each band painted in its colour (grey
 * and untouched bands have none), the highest band at the top; at scale
 * s = `max (1, height / 360)` and unit u = 4 s, a u border, each row a
 * swatch 3u x 2u, then u, then its text (clh_marks_legend_text()), rows
 * 3u apart; the width rounded up to a multiple of 4, 2u from the frame's
 * edges in the corner @spec->legend names (rounded down to a multiple of 4
 * from the right and bottom).
 *
 * Returns: %TRUE if @spec has a legend (false colour on, a corner, two or
 *   more bands, one of them painted) and it fits the frame with its
 *   margins; else %FALSE, no legend
 */
gboolean
clh_marks_legend_place (const ClhMarksSpec *spec, guint width, guint height,
    ClhMarksLegend *legend)
{
  gchar text[CLH_MARKS_LEGEND_TEXT];
  guint i, text_width = 0, u, margin;

  memset (legend, 0, sizeof (*legend));
  if (!(spec->marks & CLH_MARK_FALSE_COLOUR)
      || spec->legend == CLH_MARKS_LEGEND_NONE || spec->n_bands < 2)
    return FALSE;
  legend->scale = MAX (1, height / 360);
  for (i = 0; i < spec->n_bands; i++) {
    if (!keyed (spec, i))
      continue;
    clh_marks_legend_text (spec, i, text);
    text_width = MAX (text_width, clh_font_text_width (text,
            legend->scale));
    legend->n_rows++;
  }
  u = 4 * legend->scale;
  margin = 2 * u;
  legend->width = (6 * u + text_width + 3) / 4 * 4;
  legend->height = u + 3 * u * legend->n_rows;
  if (legend->n_rows == 0 || legend->width + 2 * margin > width
      || legend->height + 2 * margin > height)
    return FALSE;
  legend->x = spec->legend == CLH_MARKS_LEGEND_TOP_LEFT
      || spec->legend == CLH_MARKS_LEGEND_BOTTOM_LEFT ? margin :
      (width - legend->width - margin) / 4 * 4;
  legend->y = spec->legend == CLH_MARKS_LEGEND_TOP_LEFT
      || spec->legend == CLH_MARKS_LEGEND_TOP_RIGHT ? margin :
      (height - legend->height - margin) / 4 * 4;
  return TRUE;
}

/* Row @row's swatch (rank 1 + @band) and text, from @top. */
static void
draw_row (const ClhMarksSpec *spec, const ClhMarksLegend *legend,
    guint band, guint top, guint8 *ranks)
{
  const guint s = legend->scale, u = 4 * s;
  gchar text[CLH_MARKS_LEGEND_TEXT];
  guint x, y, w;

  for (y = top; y < top + 2 * u; y++)
    memset (ranks + (gsize) y * legend->width + u, 1 + band, 3 * u);
  clh_marks_legend_text (spec, band, text);
  w = clh_font_text_width (text, s);
  for (y = 0; y < CLH_FONT_HEIGHT * s; y++)
    for (x = 0; x < w; x++)
      if (clh_font_ink (text, s, x, y))
        ranks[(gsize) (top + s / 2 + y) * legend->width + 5 * u + x] =
            CLH_MARKS_RANK_INK;
}

/**
 * clh_marks_legend_draw:
 * @spec: the marks
 * @legend: their legend (clh_marks_legend_place())
 * @ranks: (out caller-allocates): `legend->width * legend->height` bytes,
 *   a row after the other
 *
 * The rank of each pixel of the legend: %CLH_MARKS_RANK_PAPER, a band's
 * 1 + band in its swatch (the band's colour), %CLH_MARKS_RANK_INK in its
 * text, `s / 2` rows under the swatch's top. The swatches' edges lie on
 * multiples of 4 pixels: a subsampled chroma sample of the legend covers
 * a swatch's pixels alone, or paper and text, which take the text's
 * chroma (the highest rank's; elements give both neutral colours).
 */
void
clh_marks_legend_draw (const ClhMarksSpec *spec,
    const ClhMarksLegend *legend, guint8 *ranks)
{
  const guint u = 4 * legend->scale;
  guint row = 0;
  gint i;

  memset (ranks, CLH_MARKS_RANK_PAPER, (gsize) legend->width
      * legend->height);
  for (i = (gint) spec->n_bands - 1; i >= 0; i--)
    if (keyed (spec, i))
      draw_row (spec, legend, i, u + 3 * u * row++, ranks);
}
