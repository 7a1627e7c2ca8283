/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The exposure marks the plain way: first a rank for every pixel, read
 * from the untouched frame (the false colour's legend's pixels, theirs in
 * the legend); then each chroma sample's rank, the highest of the pixels
 * it covers; then every sample of the copy written by its rank. Its own
 * arithmetic throughout (the stripes' modulo on signed numbers, the
 * levels as products, the stored bits by division, the legend's rows
 * found by division), none of it shared with the engine or the model but
 * the font's glyphs. */
#include "clh-reference-marks.h"

#include <string.h>

#include "clh-reference.h"
#include "clh-reference-text.h"

/* The ranks, as #ClhMarksSpec orders the marks. */
#define RANK_NONE 0
#define RANK_ZEBRA_LOW (CLH_MARKS_MAX_BANDS + 1)
#define RANK_ZEBRA (CLH_MARKS_MAX_BANDS + 2)
#define RANK_BRNG (CLH_MARKS_MAX_BANDS + 3)
#define RANK_PAPER (CLH_MARKS_MAX_BANDS + 4)
#define RANK_INK (CLH_MARKS_MAX_BANDS + 5)

typedef struct {
  const ClhFrame *frame;
  const ClhMarksSpec *spec;
  guint8 *const *dest;
  /* 2^(depth - 8): the broadcast range's scale */
  guint scale;
} Marking;

static guint
value (const Marking *mk, guint i, guint x, guint y)
{
  return clh_reference_sample (mk->frame, mk->spec->components[i], x, y);
}

/* Writes @v as component @i's value of its sample (@x, @y) in @dest: the
 * stored word with the component's old value taken out and @v put in. */
static void
write_value (const Marking *mk, guint i, guint x, guint y, guint v)
{
  const ClhFrame *f = mk->frame;
  const ClhComponent *comp = &f->components[mk->spec->components[i]];
  guint8 *p = mk->dest[comp->plane] + f->planes[comp->plane].stride * y
      + comp->offset + (gsize) comp->pixel_stride * x;
  const guint unit = 1u << comp->shift;
  const guint range = f->depth == 16 ? 65536u : 1u << f->depth;
  guint stored;

  if (f->sample == CLH_SAMPLE_8)
    stored = p[0];
  else if (f->sample == CLH_SAMPLE_16LE)
    stored = p[0] + 256u * p[1];
  else
    stored = 256u * p[0] + p[1];
  stored -= (stored / unit % range) * unit;
  stored += v * unit;
  if (f->sample == CLH_SAMPLE_8) {
    p[0] = (guint8) stored;
  } else if (f->sample == CLH_SAMPLE_16LE) {
    p[0] = (guint8) (stored % 256);
    p[1] = (guint8) (stored / 256);
  } else {
    p[0] = (guint8) (stored / 256);
    p[1] = (guint8) (stored % 256);
  }
}

static gboolean
out_of_range (guint v, guint low, guint high, guint scale)
{
  return v < low * scale || v > high * scale;
}

/* The pixel's luma, and whether one of its samples is outside the
 * broadcast range (chroma: the sample it takes its colour from). */
static guint
pixel_luma (const Marking *mk, guint x, guint y, gboolean *brng)
{
  const ClhMarksSpec *spec = mk->spec;
  const ClhFrame *f = mk->frame;
  guint r, g, b, luma, sx, sy;

  if (spec->layout == CLH_MARKS_RGB) {
    r = value (mk, 0, x, y);
    g = value (mk, 1, x, y);
    b = value (mk, 2, x, y);
    *brng = out_of_range (r, 16, 235, 1) || out_of_range (g, 16, 235, 1)
        || out_of_range (b, 16, 235, 1);
    return clh_reference_luma (r, g, b);
  }
  luma = value (mk, 0, x, y);
  *brng = out_of_range (luma, 16, 235, mk->scale);
  if (spec->layout == CLH_MARKS_YUV) {
    const ClhComponent *u = &f->components[spec->components[1]];

    sx = x / (1u << u->w_sub);
    sy = y / (1u << u->h_sub);
    *brng = *brng || out_of_range (value (mk, 1, sx, sy), 16, 240, mk->scale)
        || out_of_range (value (mk, 2, sx, sy), 16, 240, mk->scale);
  }
  return luma;
}

/* (x - y + phase) mod period, on signed numbers. */
static guint
falling (gint x, gint y, gint phase, gint period)
{
  gint d = (x - y + phase) % period;

  return d < 0 ? d + period : d;
}

static guint
pixel_rank (const Marking *mk, guint x, guint y, guint luma, gboolean brng)
{
  const ClhMarksSpec *spec = mk->spec;
  const guint half = spec->zebra_period / 2;
  guint rank = RANK_NONE;
  gint i;

  if (spec->marks & CLH_MARK_BRNG && brng)
    return RANK_BRNG;
  if (spec->marks & CLH_MARK_ZEBRA && luma >= spec->zebra_level
      && (x + y + spec->zebra_phase) % spec->zebra_period < half)
    return RANK_ZEBRA;
  if (spec->marks & CLH_MARK_ZEBRA_LOW && luma <= spec->zebra_low_level
      && falling (x, y, spec->zebra_phase, spec->zebra_period) < half)
    return RANK_ZEBRA_LOW;
  if (spec->marks & CLH_MARK_FALSE_COLOUR)
    for (i = spec->n_bands - 1; i >= 0 && rank == RANK_NONE; i--)
      if (luma >= spec->bands[i].first)
        rank = 1 + i;
  return rank;
}

/* The colour of @rank, or NULL for none; @grey: a grey band's. */
static const ClhMarkColour *
rank_colour (const ClhMarksSpec *spec, guint rank, gboolean *grey)
{
  *grey = FALSE;
  if (rank == RANK_BRNG)
    return &spec->brng_colour;
  if (rank == RANK_INK)
    return &spec->legend_ink;
  if (rank == RANK_PAPER)
    return &spec->legend_paper;
  if (rank == RANK_ZEBRA)
    return &spec->zebra_colour;
  if (rank == RANK_ZEBRA_LOW)
    return &spec->zebra_low_colour;
  if (rank == RANK_NONE)
    return NULL;
  if (spec->bands[rank - 1].style == CLH_MARK_BAND_NONE)
    return NULL;
  *grey = spec->bands[rank - 1].style == CLH_MARK_BAND_GREY;
  return &spec->bands[rank - 1].colour;
}

static void
draw_pixel (const Marking *mk, guint x, guint y, guint rank, guint luma)
{
  gboolean grey;
  const ClhMarkColour *colour = rank_colour (mk->spec, rank, &grey);
  guint c;

  if (!colour)
    return;
  if (mk->spec->layout != CLH_MARKS_RGB) {
    if (!grey)
      write_value (mk, 0, x, y, colour->values[0]);
    return;
  }
  for (c = 0; c < 3; c++)
    write_value (mk, c, x, y, grey ? luma : colour->values[c]);
}

static void
draw_chroma (const Marking *mk, guint sx, guint sy, guint rank)
{
  const guint neutral = 128 * mk->scale;
  gboolean grey;
  const ClhMarkColour *colour = rank_colour (mk->spec, rank, &grey);

  if (!colour)
    return;
  write_value (mk, 1, sx, sy, grey ? neutral : colour->values[1]);
  write_value (mk, 2, sx, sy, grey ? neutral : colour->values[2]);
}

/* The false colour's legend as the reference works it out: its bands'
 * rows, highest first, their texts, its font scale, unit and rectangle. */
typedef struct {
  guint n_rows;
  guint bands[CLH_MARKS_MAX_BANDS];
  gchar texts[CLH_MARKS_MAX_BANDS][32];
  gint scale;
  gint unit;
  gint x, y, width, height;
} Legend;

/* A level as the legend writes it: to a tenth, "2.5", or "97" for 97.0. */
static void
level_text (gdouble level, gchar *out, gsize size)
{
  gsize n;

  if (level < -999.0)
    level = -999.0;
  if (level > 9999.0)
    level = 9999.0;
  g_ascii_formatd (out, (gint) size, "%.1f", level);
  n = strlen (out);
  if (n >= 2 && out[n - 2] == '.' && out[n - 1] == '0')
    out[n - 2] = '\0';
}

/* The legend's text of band @b: "<U%", "L-U%" or at least "L%". */
static void
band_text (const ClhMarksSpec *spec, guint b, gchar *out, gsize size)
{
  gchar lower[16] = "", upper[16] = "";

  level_text (spec->bands[b].level, lower, sizeof (lower));
  if (b + 1 < spec->n_bands)
    level_text (spec->bands[b + 1].level, upper, sizeof (upper));
  if (b == 0)
    g_snprintf (out, size, "<%s%%", upper);
  else if (b == spec->n_bands - 1)
    g_snprintf (out, size, "%c%s%%", CLH_FONT_AT_LEAST, lower);
  else
    g_snprintf (out, size, "%s-%s%%", lower, upper);
}

/* The legend of @spec on a @w x @h frame; FALSE for none. */
static gboolean
find_legend (const ClhMarksSpec *spec, guint w, guint h, Legend *lg)
{
  gint widest = 0, margin;
  gint i;

  memset (lg, 0, sizeof (*lg));
  if (!(spec->marks & CLH_MARK_FALSE_COLOUR)
      || spec->legend == CLH_MARKS_LEGEND_NONE || spec->n_bands < 2)
    return FALSE;
  lg->scale = h / 360 > 1 ? (gint) (h / 360) : 1;
  lg->unit = 4 * lg->scale;
  for (i = (gint) spec->n_bands - 1; i >= 0; i--) {
    if (spec->bands[i].style != CLH_MARK_BAND_COLOUR)
      continue;
    lg->bands[lg->n_rows] = i;
    band_text (spec, i, lg->texts[lg->n_rows], sizeof (lg->texts[0]));
    widest = MAX (widest, clh_reference_text_width (lg->texts[lg->n_rows],
            lg->scale));
    lg->n_rows++;
  }
  if (lg->n_rows == 0)
    return FALSE;
  /* Border, swatch, gap, text, border; whole chroma samples. */
  lg->width = 6 * lg->unit + widest;
  while (lg->width % 4)
    lg->width++;
  lg->height = lg->unit * (1 + 3 * (gint) lg->n_rows);
  margin = 2 * lg->unit;
  if (lg->width + 2 * margin > (gint) w || lg->height + 2 * margin > (gint) h)
    return FALSE;
  if (spec->legend == CLH_MARKS_LEGEND_TOP_LEFT
      || spec->legend == CLH_MARKS_LEGEND_BOTTOM_LEFT)
    lg->x = margin;
  else
    lg->x = ((gint) w - lg->width - margin) / 4 * 4;
  if (spec->legend == CLH_MARKS_LEGEND_TOP_LEFT
      || spec->legend == CLH_MARKS_LEGEND_TOP_RIGHT)
    lg->y = margin;
  else
    lg->y = ((gint) h - lg->height - margin) / 4 * 4;
  return TRUE;
}

/* The rank the legend gives pixel (@x, @y), or @rank outside it. */
static guint
legend_rank (const Legend *lg, gint x, gint y, guint rank)
{
  const gint u = lg->unit, lx = x - lg->x, ly = y - lg->y;
  gint row, in_row;

  if (lx < 0 || ly < 0 || lx >= lg->width || ly >= lg->height)
    return rank;
  if (ly < u)
    return RANK_PAPER;
  row = (ly - u) / (3 * u);
  in_row = (ly - u) % (3 * u);
  if (in_row >= 2 * u)
    return RANK_PAPER;
  if (lx >= u && lx < 4 * u)
    return 1 + lg->bands[row];
  if (clh_reference_text_ink (lg->texts[row], lg->scale, lx - 5 * u,
          in_row - lg->scale / 2))
    return RANK_INK;
  return RANK_PAPER;
}

/* @dest starts as a copy of @frame's planes. */
static void
copy_planes (const ClhFrame *f, guint8 *const *dest)
{
  guint p;

  for (p = 0; p < f->n_planes; p++) {
    const gsize bytes_per_sample = f->sample == CLH_SAMPLE_8 ? 1 : 2;
    gsize last_row = 0, rows = f->height;
    guint c;

    /* The plane's span: every row but the last whole, the last as far as
     * its last sample's last byte. */
    for (c = 0; c < f->n_components; c++) {
      const ClhComponent *comp = &f->components[c];
      const guint h = 1u << comp->h_sub, w = 1u << comp->w_sub;
      const gsize samples = (f->width + w - 1) / w;

      if (comp->plane != p)
        continue;
      rows = (f->height + h - 1) / h;
      last_row = MAX (last_row, comp->offset + (samples - 1)
          * comp->pixel_stride + bytes_per_sample);
    }
    if (last_row)
      memmove (dest[p], f->planes[p].data, f->planes[p].stride * (rows - 1)
          + last_row);
  }
}

/**
 * clh_reference_marks:
 * @frame: a frame @spec is valid for (clh_marks_spec_is_valid())
 * @spec: the marks
 * @dest: (array fixed-size=4): for each plane of @frame, memory for its
 *   marked copy, rows @frame's stride apart; may be the plane itself
 *
 * Marks a copy of @frame as #ClhMarksSpec says.
 */
void
clh_reference_marks (const ClhFrame *frame, const ClhMarksSpec *spec,
    guint8 *const *dest)
{
  const guint w = frame->width, h = frame->height;
  Marking mk = { frame, spec, dest, 1u << (frame->depth - 8) };
  guint8 *ranks = g_malloc ((gsize) w * h);
  guint *lumas = g_new (guint, (gsize) w * h);
  guint8 *chroma = NULL;
  guint x, y, ws = 0, hs = 0, cw = 0, ch = 0;
  Legend legend;
  const gboolean keyed = find_legend (spec, w, h, &legend);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      gboolean brng;
      const guint luma = pixel_luma (&mk, x, y, &brng);

      lumas[y * w + x] = luma;
      ranks[y * w + x] = pixel_rank (&mk, x, y, luma, brng);
      if (keyed)
        ranks[y * w + x] = legend_rank (&legend, x, y, ranks[y * w + x]);
    }
  if (spec->layout == CLH_MARKS_YUV) {
    ws = frame->components[spec->components[1]].w_sub;
    hs = frame->components[spec->components[1]].h_sub;
    cw = (w + (1u << ws) - 1) >> ws;
    ch = (h + (1u << hs) - 1) >> hs;
    chroma = g_malloc0 ((gsize) cw * ch);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        guint8 *top = &chroma[(y >> hs) * cw + (x >> ws)];

        *top = MAX (*top, ranks[y * w + x]);
      }
  }

  copy_planes (frame, dest);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      draw_pixel (&mk, x, y, ranks[y * w + x], lumas[y * w + x]);
  for (y = 0; y < ch; y++)
    for (x = 0; x < cw; x++)
      draw_chroma (&mk, x, y, chroma[y * cw + x]);
  g_free (chroma);
  g_free (lumas);
  g_free (ranks);
}
