/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-font.h"

#include <string.h>

/**
 * clh_font_text_width:
 * @text: characters of the font (others are drawn blank)
 * @scale: pixels a font pixel takes either way, >= 1
 *
 * Returns: the pixels @text spans across: its characters
 *   %CLH_FONT_ADVANCE apart, less the space after the last one (0 for "")
 */
guint
clh_font_text_width (const gchar *text, guint scale)
{
  const gsize n = strlen (text);

  return n ? (guint) (n * CLH_FONT_ADVANCE - 1) * scale : 0;
}

/**
 * clh_font_ink:
 * @text: characters of the font
 * @scale: pixels a font pixel takes either way, >= 1
 * @x: a column of the text's box, under clh_font_text_width()
 * @y: a row of it, under `CLH_FONT_HEIGHT * scale`
 *
 * Returns: whether pixel (@x, @y) of @text drawn at @scale, its top-left
 *   corner at (0, 0), is one of a glyph's
 */
gboolean
clh_font_ink (const gchar *text, guint scale, guint x, guint y)
{
  const guint cell = CLH_FONT_ADVANCE * scale;
  const guchar c = (guchar) text[x / cell];
  const guint col = x % cell / scale, row = y / scale;

  if (c < 32 || c > 127 || col >= CLH_FONT_WIDTH || row >= CLH_FONT_HEIGHT)
    return FALSE;
  return (clh_font_glyphs[c - 32][row] >> (CLH_FONT_WIDTH - 1 - col)) & 1;
}
