/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-scope-labels.h"

#include <string.h>

#include "clh-font.h"

/* Label colours, R, G, B, alpha: the lines' own, more opaque. */
static const guint8 label_colour[4] = { 150, 220, 150, 210 };
static const guint8 legal_label_colour[4] = { 255, 190, 80, 230 };

/**
 * clh_scope_label_scale:
 * @pixels: a plot's height (a vectorscope's side)
 *
 * Returns: the pixels a font pixel of its labels takes either way,
 *   `max (1, pixels / 180)`: 1 up to 359 rows (clscope's 256 left free), 2
 *   from 360 (a 1280-wide monitor's scopes), 3 from 540, so that the text
 *   keeps its share of the plot and reads from a monitor's distance
 */
guint
clh_scope_label_scale (guint pixels)
{
  return MAX (1, pixels / 180);
}

/* Draws @text at @scale with its top-left corner at (@left, @top) of the
 * plot, the pixels outside the plot left out. */
static void
draw_text (const ClhScopePlot *p, const gchar *text, guint scale,
    gint left, gint top, const guint8 colour[4], guint8 *rgba, gsize stride)
{
  const guint w = clh_font_text_width (text, scale);
  const guint h = CLH_FONT_HEIGHT * scale;
  guint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const gint px = left + (gint) x, py = top + (gint) y;

      if (px < 0 || py < 0 || px >= (gint) p->width
          || py >= (gint) p->height || !clh_font_ink (text, scale, x, y))
        continue;
      memcpy (rgba + (gsize) (p->y + py) * stride + (gsize) (p->x + px) * 4,
          colour, 4);
    }
}

/* The tops of subset @set's labels (@tops[i] for line i in it), each
 * `scale` rows above its line, or below it where the plot's top cuts it,
 * 2 `scale` columns in from the plot's left; FALSE if the subset is
 * empty, a label does not fit the plot or two are less than a `scale`
 * row apart. */
static gboolean
place_labels (const ClhScopePlot *p, const ClhScopeLine *lines, guint n,
    guint set, guint scale, gint tops[CLH_SCOPE_MAX_LINES])
{
  const gint s = (gint) scale, h = CLH_FONT_HEIGHT * s;
  guint i, j, placed = 0;

  for (i = 0; i < n; i++) {
    if (!((lines[i].sets >> set) & 1))
      continue;
    if (3 * s + (gint) clh_font_text_width (lines[i].text, scale)
        > (gint) p->width)
      return FALSE;
    tops[i] = (gint) lines[i].row - h - s;
    if (tops[i] < 0)
      tops[i] = (gint) lines[i].row + s + 1;
    if (tops[i] + h > (gint) p->height)
      return FALSE;
    for (j = 0; j < i; j++)
      if (((lines[j].sets >> set) & 1) && ABS (tops[i] - tops[j]) < h + s)
        return FALSE;
    placed++;
  }
  return placed > 0;
}

/**
 * clh_scope_label_lines:
 * @plot: a waveform plot
 * @lines: (array length=n): its graticule's lines, their rows set
 * @n: lines in @lines, at most %CLH_SCOPE_MAX_LINES
 * @rgba: the graticule layer (clh_scope_draw_graticule())
 * @stride: its bytes a row
 *
 * Labels the lines of the densest subset (#ClhScopeLine's sets) whose
 * labels all fit: each label `scale` rows above its line (below it if the
 * plot's top is nearer), 2 `scale` columns from the plot's left, a
 * `scale` row or more between two labels, at clh_scope_label_scale() of
 * the plot's height, in the line's colour; none if no subset fits (a plot
 * too small for them).
 */
void
clh_scope_label_lines (const ClhScopePlot *plot, const ClhScopeLine *lines,
    guint n, guint8 *rgba, gsize stride)
{
  const guint s = clh_scope_label_scale (plot->height);
  gint tops[CLH_SCOPE_MAX_LINES];
  guint set, i;

  for (set = 0; set < CLH_SCOPE_LABEL_SETS; set++) {
    if (!place_labels (plot, lines, n, set, s, tops))
      continue;
    for (i = 0; i < n; i++)
      if ((lines[i].sets >> set) & 1)
        draw_text (plot, lines[i].text, s, 2 * (gint) s, tops[i],
            lines[i].legal ? legal_label_colour : label_colour, rgba,
            stride);
    return;
  }
}

/**
 * clh_scope_label_target:
 * @plot: a vectorscope plot
 * @name: the target's name
 * @x: the target's column in the plot
 * @y: its row
 * @cx: the neutral point's column
 * @cy: its row
 * @half: the target square's half side
 * @colour: the name's colour, R, G, B, alpha
 * @rgba: the graticule layer
 * @stride: its bytes a row
 *
 * Writes @name beside the target square, on its side away from the
 * neutral point along the axis it lies further out on: left or right of
 * it, centred on its row (`y - height / 2` the top), or above or below
 * it, centred on its column (`x - width / 2` the left), 2 `scale` pixels
 * from its edge, at clh_scope_label_scale() of the side; nothing on a
 * vectorscope under %CLH_SCOPE_NAMES_MIN pixels.
 */
void
clh_scope_label_target (const ClhScopePlot *plot, const gchar *name,
    gint x, gint y, gint cx, gint cy, gint half, const guint8 colour[4],
    guint8 *rgba, gsize stride)
{
  const guint s = clh_scope_label_scale (plot->width);
  const gint w = (gint) clh_font_text_width (name, s);
  const gint h = CLH_FONT_HEIGHT * (gint) s, gap = 2 * (gint) s;
  gint left, top;

  if (plot->width < CLH_SCOPE_NAMES_MIN)
    return;
  if (ABS (x - cx) >= ABS (y - cy)) {
    top = y - h / 2;
    left = x >= cx ? x + half + gap + 1 : x - half - gap - w;
  } else {
    left = x - w / 2;
    top = y >= cy ? y + half + gap + 1 : y - half - gap - h;
  }
  draw_text (plot, name, s, left, top, colour, rgba, stride);
}

/**
 * clh_scope_label_zoom:
 * @plot: a vectorscope plot
 * @rgba: the graticule layer
 * @stride: its bytes a row
 *
 * Writes a zoomed vectorscope's magnification ("2x") in its bottom-right
 * corner, 2 `scale` pixels in from both edges; nothing unzoomed or under
 * %CLH_SCOPE_NAMES_MIN pixels.
 */
void
clh_scope_label_zoom (const ClhScopePlot *plot, guint8 *rgba, gsize stride)
{
  const guint s = clh_scope_label_scale (plot->width);
  gchar text[8];

  if (plot->zoom <= 1 || plot->width < CLH_SCOPE_NAMES_MIN)
    return;
  g_snprintf (text, sizeof (text), "%ux", plot->zoom);
  draw_text (plot, text, s, (gint) plot->width - (gint)
      clh_font_text_width (text, s) - 2 * (gint) s, (gint) plot->height
      - CLH_FONT_HEIGHT * (gint) s - 2 * (gint) s, label_colour, rgba,
      stride);
}
