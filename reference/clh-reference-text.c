/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-reference-text.h"

/**
 * clh_reference_text_width:
 * @text: a string of the font's characters
 * @scale: pixels a font pixel takes either way
 *
 * Returns: the columns @text takes: each character 5 font pixels and a
 *   space, but the last one's space
 */
gint
clh_reference_text_width (const gchar *text, gint scale)
{
  gint n = 0;

  while (text[n])
    n++;
  return n == 0 ? 0 : (n * (CLH_FONT_WIDTH + 1) - 1) * scale;
}

/**
 * clh_reference_text_ink:
 * @text: a string of the font's characters
 * @scale: pixels a font pixel takes either way
 * @x: a column, from the text's left
 * @y: a row, from its top
 *
 * Returns: whether (@x, @y) is a glyph's pixel; FALSE outside the text
 */
gboolean
clh_reference_text_ink (const gchar *text, gint scale, gint x, gint y)
{
  const gint fx = x < 0 ? -1 : x / scale, fy = y < 0 ? -1 : y / scale;
  gint i;

  if (fx < 0 || fy < 0 || fy >= CLH_FONT_HEIGHT
      || x >= clh_reference_text_width (text, scale))
    return FALSE;
  /* Character i's font columns are 6 i .. 6 i + 4. */
  for (i = 0; text[i]; i++) {
    const gint c = (guchar) text[i], col = fx - i * (CLH_FONT_WIDTH + 1);

    if (col < 0 || col >= CLH_FONT_WIDTH)
      continue;
    if (c < 32 || c > 127)
      return FALSE;
    return (clh_font_glyphs[c - 32][fy] & (1 << (CLH_FONT_WIDTH - 1 - col)))
        != 0;
  }
  return FALSE;
}
