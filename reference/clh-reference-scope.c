/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The scopes' golden reference. It works out on its own what the model
 * (model/clh-scope-picture.c) and the kernels (kernels/scope.cl) compute:
 * the panels, the bins, the matrix, the levels, the graticule and the
 * composed pixels, one sample and one pixel at a time, so that a slip on
 * either side shows up as a mismatch. */
#include "clh-reference-scope.h"
#include "clh-reference.h"
#include "clh-reference-text.h"

#include <math.h>
#include <string.h>

/* Samples along an axis of @size pixels subsampled by 2^@sub. */
static guint
samples_along (guint size, guint sub)
{
  const guint step = 1u << sub;

  return size / step + (size % step != 0);
}

/* 2^k for the largest k with 2^k <= @n, and at most 2^@limit. */
static guint
power_below (guint n, guint limit)
{
  guint p = 1, k = 0;

  while (p * 2 <= n && k < limit) {
    p *= 2;
    k++;
  }
  return p;
}

static guint
log2_exact (guint p)
{
  guint k = 0;

  while ((1u << k) < p)
    k++;
  return k;
}

static guint
channels_of (ClhScopeSource source)
{
  return source == CLH_SCOPE_SOURCE_GRAY ? 1 : 3;
}

/* The trace colours of the model's documentation, 0x00BBGGRR. */
static guint32
trace_colour (const ClhScopeSpec *spec, gboolean waveform_panel,
    gboolean parade, guint c)
{
  static const guint32 gray = 0x00e6e6e6, luma = 0x00d2ffd2;
  static const guint32 yuv[3] = { 0x00e6e6e6, 0x00ff8c64, 0x008c64ff };
  static const guint32 rgb[3] = { 0x004040ff, 0x0040ff40, 0x00ff8060 };

  if (waveform_panel || (parade && spec->source == CLH_SCOPE_SOURCE_GRAY))
    return luma;
  if (spec->source == CLH_SCOPE_SOURCE_GRAY)
    return gray;
  return spec->source == CLH_SCOPE_SOURCE_YUV ? yuv[c] : rgb[c];
}

static void
reference_plot (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *l, ClhScopePlotKind kind, guint channel, guint x,
    guint y, guint w, guint h, guint32 colour)
{
  ClhScopePlot *p = &l->plots[l->n_plots++];
  const guint depth = spec->source == CLH_SCOPE_SOURCE_RGB ? 8 :
      frame->depth;
  guint bins;

  memset (p, 0, sizeof (*p));
  p->kind = kind;
  p->channel = channel;
  p->chroma = kind == CLH_SCOPE_PLOT_VECTORSCOPE
      || (spec->source == CLH_SCOPE_SOURCE_YUV
      && (channel == 1 || channel == 2));
  p->x = x;
  p->y = y;
  p->width = w;
  p->height = h;
  p->depth = depth;
  p->colour = colour;
  p->zoom = kind == CLH_SCOPE_PLOT_VECTORSCOPE && spec->vectorscope_zoom > 1 ?
      spec->vectorscope_zoom : 1;
  if (channel == CLH_SCOPE_LUMA) {
    p->grid_width = frame->width;
    p->grid_height = frame->height;
  } else {
    p->grid_width = samples_along (frame->width,
        frame->components[channel].w_sub);
    p->grid_height = samples_along (frame->height,
        frame->components[channel].h_sub);
  }
  switch (kind) {
    case CLH_SCOPE_PLOT_WAVEFORM:
      p->cols = w < p->grid_width ? w : p->grid_width;
      bins = power_below (MIN (h, 1u << depth), 10);
      p->rows = bins;
      break;
    case CLH_SCOPE_PLOT_VECTORSCOPE:
      /* A zoomed pixel shows a zoom-th of the values. */
      bins = power_below (MIN (w * p->zoom, 1u << depth), 9);
      p->cols = p->rows = bins;
      break;
    default:
      bins = power_below (MIN (w, 1u << depth), 12);
      p->cols = bins;
      p->rows = 1;
      break;
  }
  p->shift = depth - log2_exact (bins);
}

static void nominal (const ClhScopeSpec *spec, const ClhScopePlot *p,
    guint *black, guint *white);

/* A histogram panel's clip indicators, @lamp wide and @gap from the bars:
 * the panel's width over 64 or a quarter of its lowest plot's height,
 * whichever is smaller, and at least 2; the gap a quarter of that, at
 * least 1; neither where fewer than 8 columns of bars would be left. */
static void
clip_sides (const ClhScopeSpec *spec, guint w, guint n, guint *lamp,
    guint *gap)
{
  const guint lowest = spec->height / n;

  *lamp = w / 64 < lowest / 4 ? w / 64 : lowest / 4;
  if (*lamp < 2)
    *lamp = 2;
  *gap = *lamp / 4 < 1 ? 1 : *lamp / 4;
  if (w < 2 * (*lamp + *gap) + 8)
    *lamp = *gap = 0;
}

/**
 * clh_reference_scope_layout:
 * @spec: a valid spec
 * @frame: the frames' format and size
 * @layout: (out): the plots, as clh_scope_layout() documents them
 */
void
clh_reference_scope_layout (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *layout)
{
  const guint n = channels_of (spec->source);
  const guint shares[4] = { 2, n == 1 ? 2 : n, 1, 2 };
  const guint luma = spec->source == CLH_SCOPE_SOURCE_RGB ? CLH_SCOPE_LUMA :
      0;
  guint total = 0, done = 0, k, c, i;
  gsize at = 0;

  memset (layout, 0, sizeof (*layout));
  for (k = 0; k < 4; k++)
    if (spec->kinds & (1u << k))
      total += shares[k];
  for (k = 0; k < 4; k++) {
    guint left, right, w;

    if (!(spec->kinds & (1u << k)))
      continue;
    left = (guint) ((guint64) spec->width * done / total);
    done += shares[k];
    right = (guint) ((guint64) spec->width * done / total);
    w = right - left;
    if (k == 0) {
      reference_plot (spec, frame, layout, CLH_SCOPE_PLOT_WAVEFORM, luma,
          left, 0, w, spec->height, trace_colour (spec, TRUE, FALSE, 0));
    } else if (k == 1) {
      for (c = 0; c < n; c++) {
        const guint a = left + w * c / n, b = left + w * (c + 1) / n;

        reference_plot (spec, frame, layout, CLH_SCOPE_PLOT_WAVEFORM, c, a,
            0, b - a, spec->height, trace_colour (spec, FALSE, TRUE, c));
      }
    } else if (k == 2) {
      const guint side = w < spec->height ? w : spec->height;

      reference_plot (spec, frame, layout, CLH_SCOPE_PLOT_VECTORSCOPE,
          spec->source == CLH_SCOPE_SOURCE_YUV ? 1 : CLH_SCOPE_LUMA,
          left + (w - side) / 2, (spec->height - side) / 2, side, side, 0);
      layout->plots[layout->n_plots - 1].channel = 1;
    } else {
      guint lamp, gap;

      clip_sides (spec, w, n, &lamp, &gap);
      for (c = 0; c < n; c++) {
        const guint a = spec->height * c / n, b = spec->height * (c + 1) / n;
        ClhScopePlot *p = &layout->plots[layout->n_plots];

        reference_plot (spec, frame, layout, CLH_SCOPE_PLOT_HISTOGRAM, c,
            left + lamp + gap, a, w - 2 * (lamp + gap), b - a,
            trace_colour (spec, FALSE, FALSE, c));
        p->clip_width = lamp;
        p->clip_gap = gap;
        nominal (spec, p, &p->clip_low, &p->clip_high);
      }
    }
  }
  for (i = 0; i < layout->n_plots; i++) {
    layout->plots[i].count_base = at;
    at += (gsize) layout->plots[i].cols * layout->plots[i].rows;
    /* A histogram's crushed and clipped samples after its bins. */
    if (layout->plots[i].kind == CLH_SCOPE_PLOT_HISTOGRAM)
      at += 2;
  }
  layout->n_counts = at;
}

/* round (@num / @den), halves up, for @den > 0 and @num >= 0. */
static gint64
rounded (gint64 num, gint64 den)
{
  const gint64 q = num / den, r = num % den;

  return 2 * r >= den ? q + 1 : q;
}

/* The matrix rows luma, Cb, Cr in 1/65536, its green coefficients making
 * each row's sum exact (ITU-R BT.601 2.5.2 with Kr, Kb in 1/10000). */
static void
reference_matrix (guint kr, guint kb, gint64 m[9])
{
  m[0] = rounded ((gint64) kr << 16, 10000);
  m[2] = rounded ((gint64) kb << 16, 10000);
  m[1] = 65536 - m[0] - m[2];
  m[3] = -rounded ((gint64) kr << 15, 10000 - kb);
  m[5] = 32768;
  m[4] = -(m[3] + m[5]);
  m[6] = 32768;
  m[8] = -rounded ((gint64) kb << 15, 10000 - kr);
  m[7] = -(m[6] + m[8]);
}

/* floor (a / 65536 + 1/2). */
static gint64
fixed_round (gint64 a)
{
  return (gint64) floor ((gdouble) (a + 32768) / 65536.0);
}

/* Row @row of the matrix at pixel (x, y) of an RGB frame. */
static guint
rgb_value (const ClhFrame *frame, const ClhScopeSpec *spec, guint row,
    guint x, guint y)
{
  gint64 m[9], v;

  reference_matrix (spec->kr, spec->kb, m);
  v = fixed_round (m[3 * row] * clh_reference_sample (frame, 0, x, y)
      + m[3 * row + 1] * clh_reference_sample (frame, 1, x, y)
      + m[3 * row + 2] * clh_reference_sample (frame, 2, x, y));
  if (row > 0)
    v += 128;
  return (guint) CLAMP (v, 0, 255);
}

static guint
channel_value (const ClhFrame *frame, const ClhScopeSpec *spec,
    guint channel, guint x, guint y)
{
  if (channel == CLH_SCOPE_LUMA)
    return rgb_value (frame, spec, 0, x, y);
  return clh_reference_sample (frame, channel, x, y);
}

/**
 * clh_reference_scope_counts:
 * @frame: a valid frame
 * @spec: a spec valid for it
 * @layout: its layout (clh_reference_scope_layout())
 * @counts: (out caller-allocates): `layout->n_counts` counters
 *
 * Every plot's counts, one sample at a time.
 */
void
clh_reference_scope_counts (const ClhFrame *frame, const ClhScopeSpec *spec,
    const ClhScopeLayout *layout, guint32 *counts)
{
  const guint neutral = 1u << (frame->depth - 1);
  guint i, x, y;

  memset (counts, 0, layout->n_counts * sizeof (guint32));
  for (i = 0; i < layout->n_plots; i++) {
    const ClhScopePlot *p = &layout->plots[i];
    guint32 *c = counts + p->count_base;

    for (y = 0; y < p->grid_height; y++)
      for (x = 0; x < p->grid_width; x++) {
        guint cb = neutral, cr = neutral, v;

        if (p->kind == CLH_SCOPE_PLOT_WAVEFORM) {
          v = channel_value (frame, spec, p->channel, x, y);
          c[(v >> p->shift) * p->cols
              + (guint64) x * p->cols / p->grid_width]++;
        } else if (p->kind == CLH_SCOPE_PLOT_HISTOGRAM) {
          v = channel_value (frame, spec, p->channel, x, y);
          c[v >> p->shift]++;
          if (v <= p->clip_low)
            c[p->cols]++;
          if (v >= p->clip_high)
            c[p->cols + 1]++;
        } else {
          if (spec->source == CLH_SCOPE_SOURCE_YUV) {
            cb = clh_reference_sample (frame, 1, x, y);
            cr = clh_reference_sample (frame, 2, x, y);
          } else if (spec->source == CLH_SCOPE_SOURCE_RGB) {
            cb = rgb_value (frame, spec, 1, x, y);
            cr = rgb_value (frame, spec, 2, x, y);
          }
          c[(cr >> p->shift) * p->cols + (cb >> p->shift)]++;
        }
      }
  }
}

/**
 * clh_reference_scope_level:
 * @spec: the spec
 * @plot: a waveform or vectorscope plot
 * @columns: grid columns the cell's column bin gathers (1 for a
 *   vectorscope)
 * @count: the cell's count
 *
 * Returns: the level the model documents (clh_scope_thresholds()), from
 *   the brightness formula directly
 */
guint
clh_reference_scope_level (const ClhScopeSpec *spec,
    const ClhScopePlot *plot, guint columns, guint32 count)
{
  gdouble full, b;

  if (count == 0)
    return 0;
  if (plot->kind == CLH_SCOPE_PLOT_VECTORSCOPE)
    full = (gdouble) plot->grid_width * plot->grid_height * 16.0
        / ((gdouble) plot->cols * plot->rows * spec->intensity);
  else
    full = (gdouble) columns * plot->grid_height / ((gdouble) plot->rows
        * spec->intensity);
  if (spec->scale == CLH_SCOPE_LOG)
    b = 255.0 * log1p ((gdouble) count) / log1p (full);
  else
    b = 255.0 * (gdouble) count / full;
  return b >= 255.0 ? 255 : (guint) floor (b);
}

/* The graticule's colours: R, G, B, alpha. */
static const guint8 ink_line[4] = { 110, 190, 110, 120 };
static const guint8 ink_legal[4] = { 255, 170, 40, 200 };
static const guint8 ink_axis[4] = { 110, 190, 110, 70 };
static const guint8 ink_skin[4] = { 255, 200, 160, 170 };
static const guint8 ink_label[4] = { 150, 220, 150, 210 };
static const guint8 ink_legal_label[4] = { 255, 190, 80, 230 };

static void
ink (guint8 *rgba, gsize stride, const ClhScopePlot *p, gint64 x, gint64 y,
    const guint8 colour[4])
{
  if (x >= 0 && y >= 0 && x < p->width && y < p->height)
    memcpy (rgba + (p->y + y) * stride + (p->x + x) * 4, colour, 4);
}

/* The pixels of a label's font pixels: one below 360 rows of the plot's
 * height (side), then one for every 180. */
static gint
text_scale (guint pixels)
{
  return pixels < 360 ? 1 : (gint) (pixels / 180);
}

/* @text with its top-left corner at (@left, @top) of the plot. */
static void
ink_text (guint8 *rgba, gsize stride, const ClhScopePlot *p,
    const gchar *text, gint scale, gint64 left, gint64 top,
    const guint8 colour[4])
{
  const gint w = clh_reference_text_width (text, scale);
  gint i, j;

  for (j = 0; j < CLH_FONT_HEIGHT * scale; j++)
    for (i = 0; i < w; i++)
      if (clh_reference_text_ink (text, scale, i, j))
        ink (rgba, stride, p, left + i, top + j, colour);
}

/* The channel's nominal black and white code values. */
static void
nominal (const ClhScopeSpec *spec, const ClhScopePlot *p, guint *black,
    guint *white)
{
  const guint scale = p->depth > 8 ? 1u << (p->depth - 8) : 1;

  if (spec->limited && p->depth >= 8) {
    *black = 16 * scale;
    *white = (p->chroma ? 240 : 235) * scale;
  } else {
    *black = 0;
    *white = (1u << p->depth) - 1;
  }
}

/* A waveform's or histogram's line: its value, whether it is highlighted,
 * its label, and which of the label choices (every line; IRE in 20s,
 * 50s, then 0 and 100; codes in quarters, halves, the ends) show it. */
typedef struct {
  guint value;
  gboolean legal;
  gchar label[8];
  gboolean shown[4];
} Line;

static void
line (Line *l, guint value, gboolean legal, const gchar *label,
    gboolean in_20s, gboolean in_50s, gboolean at_ends)
{
  l->value = value;
  l->legal = legal;
  g_snprintf (l->label, sizeof (l->label), "%s", label);
  l->shown[0] = TRUE;
  l->shown[1] = in_20s;
  l->shown[2] = in_50s;
  l->shown[3] = at_ends;
}

/* The lines a waveform or histogram has. */
static guint
line_values (const ClhScopeSpec *spec, const ClhScopePlot *p, Line *lines)
{
  const guint top = (1u << p->depth) - 1;
  guint black, white, n = 0, k;
  gchar label[8];

  nominal (spec, p, &black, &white);
  if (spec->graticule == CLH_SCOPE_GRATICULE_IRE && !p->chroma) {
    for (k = 0; k <= 100; k += 10) {
      g_snprintf (label, sizeof (label), "%u", k);
      line (&lines[n++], black + (guint) rounded ((gint64) k * (white -
                  black), 100), k == 0 || k == 100, label, k % 20 == 0,
          k % 50 == 0, k == 0 || k == 100);
    }
  } else if (spec->graticule == CLH_SCOPE_GRATICULE_IRE) {
    line (&lines[n++], (top + 1) / 2, FALSE, "0", FALSE, FALSE, FALSE);
    line (&lines[n++], black, TRUE, "-50", FALSE, FALSE, FALSE);
    line (&lines[n++], white, TRUE, "+50", FALSE, FALSE, FALSE);
  } else if (spec->graticule == CLH_SCOPE_GRATICULE_CODES) {
    for (k = 0; k < 4; k++) {
      g_snprintf (label, sizeof (label), "%u", (top + 1) / 4 * k);
      line (&lines[n++], (top + 1) / 4 * k, FALSE, label, TRUE,
          k == 0 || k == 2, k == 0);
    }
    g_snprintf (label, sizeof (label), "%u", top);
    line (&lines[n++], top, FALSE, label, TRUE, TRUE, TRUE);
    if (spec->limited) {
      g_snprintf (label, sizeof (label), "%u", black);
      line (&lines[n++], black, TRUE, label, FALSE, FALSE, FALSE);
      g_snprintf (label, sizeof (label), "%u", white);
      line (&lines[n++], white, TRUE, label, FALSE, FALSE, FALSE);
    }
  }
  return n;
}

/* A waveform's labels: the first choice whose labels all fit the plot
 * (2 scale pixels from its left, a scale pixel from its right; scale
 * rows over their line, under it if that leaves the plot) and are a scale
 * row or more apart. */
static void
label_lines (const ClhScopePlot *p, const Line *lines, const gint64 *rows,
    guint n, guint8 *rgba, gsize stride)
{
  const gint s = text_scale (p->height), h = CLH_FONT_HEIGHT * s;
  gint64 tops[16];
  guint choice, i, j;

  for (choice = 0; choice < 4; choice++) {
    gboolean fits = TRUE, any = FALSE;

    for (i = 0; i < n; i++) {
      if (!lines[i].shown[choice])
        continue;
      any = TRUE;
      if (clh_reference_text_width (lines[i].label, s) + 3 * s > (gint) p->width)
        fits = FALSE;
      tops[i] = rows[i] - s - h;
      if (tops[i] < 0)
        tops[i] = rows[i] + 1 + s;
      if (tops[i] + h > p->height)
        fits = FALSE;
    }
    for (i = 0; i < n; i++)
      for (j = i + 1; j < n; j++)
        if (lines[i].shown[choice] && lines[j].shown[choice]
            && ABS (tops[i] - tops[j]) < h + s)
          fits = FALSE;
    if (!fits || !any)
      continue;
    for (i = 0; i < n; i++)
      if (lines[i].shown[choice])
        ink_text (rgba, stride, p, lines[i].label, s, 2 * s, tops[i],
            lines[i].legal ? ink_legal_label : ink_label);
    return;
  }
}

static void
reference_lines (const ClhScopeSpec *spec, const ClhScopePlot *p,
    guint8 *rgba, gsize stride)
{
  Line lines[16];
  gint64 rows[16];
  guint n, i, j;

  n = line_values (spec, p, lines);
  for (i = 0; i < n; i++) {
    const guint bin = lines[i].value >> p->shift;
    const guint8 *colour = lines[i].legal ? ink_legal : ink_line;
    guint first = 0;

    /* The first pixel from the bottom (left) showing the value's bin. */
    if (p->kind == CLH_SCOPE_PLOT_WAVEFORM) {
      while ((guint64) first * p->rows / p->height < bin)
        first++;
      rows[i] = (gint64) p->height - 1 - first;
      for (j = 0; j < p->width; j++)
        ink (rgba, stride, p, j, rows[i], colour);
    } else {
      while ((guint64) first * p->cols / p->width < bin)
        first++;
      for (j = 0; j < p->height; j++)
        ink (rgba, stride, p, first, j, colour);
    }
  }
  if (p->kind == CLH_SCOPE_PLOT_WAVEFORM)
    label_lines (p, lines, rows, n, rgba, stride);
}

/* The pixel of code value @v along a vectorscope side: the one its centre
 * (v + 1/2 of 2^depth values over the side) falls in, its distance from
 * the side's middle times the zoom. */
static gint64
centre_pixel (guint v, const ClhScopePlot *p, guint side)
{
  const gdouble codes = (gdouble) (1u << p->depth);

  return (gint64) floor (side / 2.0 + ((v + 0.5) / codes - 0.5) * p->zoom
      * side);
}

/* Where the target of bar colour @on at @amplitude lies, magnified by
 * the plot's zoom; FALSE if beyond its edge. */
static gboolean
target (const ClhScopeSpec *spec, const ClhScopePlot *p, const guint8 on[3],
    gdouble amplitude, gint64 *x, gint64 *y)
{
  const gdouble kr = spec->kr / 10000.0, kb = spec->kb / 10000.0;
  const gdouble r = on[0] * amplitude, g = on[1] * amplitude;
  const gdouble b = on[2] * amplitude;
  const gdouble luma = kr * r + (1.0 - kr - kb) * g + kb * b;
  const gdouble diff[2] = { 0.5 * (b - luma) / (1.0 - kb),
    0.5 * (r - luma) / (1.0 - kr)
  };
  const gdouble top = (gdouble) ((1u << p->depth) - 1);
  gint64 at[2];
  guint k;

  for (k = 0; k < 2; k++) {
    gdouble v;

    if (spec->limited && spec->source == CLH_SCOPE_SOURCE_YUV)
      v = (128.0 + 224.0 * diff[k]) * (gdouble) (1u << p->depth) / 256.0;
    else
      v = (gdouble) (1u << (p->depth - 1)) + top * diff[k];
    v = floor (v + 0.5);
    at[k] = centre_pixel ((guint) (v < 0.0 ? 0.0 : v > top ? top : v), p,
        p->width);
    if (at[k] < 0 || at[k] >= p->width)
      return FALSE;
  }
  *x = at[0];
  *y = (gint64) p->height - 1 - at[1];
  return TRUE;
}

/* A target's name beside its square, away from the centre along the
 * axis it lies further out on, 2 scale pixels from the square. */
static void
name_target (const ClhScopePlot *p, const gchar *name, gint64 x, gint64 y,
    gint64 cx, gint64 cy, gint64 half, const guint8 colour[4],
    guint8 *rgba, gsize stride)
{
  const gint s = text_scale (p->width), h = CLH_FONT_HEIGHT * s;
  const gint w = clh_reference_text_width (name, s);
  gint64 left, top;

  if (p->width < 128)
    return;
  if (ABS (x - cx) >= ABS (y - cy)) {
    top = y - h / 2;
    left = x < cx ? x - half - 2 * s - w : x + half + 2 * s + 1;
  } else {
    left = x - w / 2;
    top = y < cy ? y - half - 2 * s - h : y + half + 2 * s + 1;
  }
  ink_text (rgba, stride, p, name, s, left, top, colour);
}

static void
reference_vectorscope (const ClhScopeSpec *spec, const ClhScopePlot *p,
    guint8 *rgba, gsize stride)
{
  static const guint8 bars[6][3] = {
    {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 1, 1}, {0, 0, 1}, {1, 0, 1},
  };
  static const gchar *const names[6] = { "R", "Yl", "G", "Cy", "B", "Mg" };
  const gint64 cx = centre_pixel (1u << (p->depth - 1), p, p->width);
  const gint64 cy = (gint64) p->height - 1 - cx;
  const gint64 half = p->width / 64 > 2 ? p->width / 64 : 2;
  const gdouble radius = p->width * 7.0 / 16.0;
  const gdouble angle = 123.0 * G_PI / 180.0;
  const gint64 ex = lround (radius * cos (angle));
  const gint64 ey = -lround (radius * sin (angle));
  gint64 i, j, x, y;
  guint k;

  for (i = 0; i < p->width; i++) {
    ink (rgba, stride, p, i, cy, ink_axis);
    ink (rgba, stride, p, cx, i, ink_axis);
  }
  /* Pixels whose centre is within half a pixel of the skin-tone segment
   * (distance = |cross product| / length). */
  for (y = 0; y < p->height; y++)
    for (x = 0; x < p->width; x++) {
      const gint64 cross = (x - cx) * ey - (y - cy) * ex;

      if (x >= MIN (cx, cx + ex) && x <= MAX (cx, cx + ex)
          && y >= MIN (cy, cy + ey) && y <= MAX (cy, cy + ey)
          && (gdouble) cross * cross * 4.0 <= (gdouble) (ex * ex + ey * ey))
        ink (rgba, stride, p, x, y, ink_skin);
    }
  for (k = 0; k < 6; k++) {
    guint8 colour[4];

    for (i = 0; i < 3; i++)
      colour[i] = bars[k][i] ? 255 : 40;
    colour[3] = 150;
    if (target (spec, p, bars[k], 1.0, &x, &y))
      for (j = y - 1; j <= y + 1; j++)
        for (i = x - 1; i <= x + 1; i++)
          ink (rgba, stride, p, i, j, colour);
    colour[3] = 230;
    if (!target (spec, p, bars[k], 0.75, &x, &y))
      continue;
    for (j = y - half; j <= y + half; j++)
      for (i = x - half; i <= x + half; i++)
        if (i == x - half || i == x + half || j == y - half || j == y + half)
          ink (rgba, stride, p, i, j, colour);
    name_target (p, names[k], x, y, cx, cy, half, colour, rgba, stride);
  }
  if (p->zoom > 1 && p->width >= 128) {
    const gint s = text_scale (p->width);
    gchar text[8];

    g_snprintf (text, sizeof (text), "%ux", p->zoom);
    ink_text (rgba, stride, p, text, s, p->width - 2 * s
        - clh_reference_text_width (text, s), p->height - 2 * s
        - CLH_FONT_HEIGHT * s, ink_label);
  }
}

/**
 * clh_reference_scope_graticule:
 * @spec: a valid spec
 * @layout: its layout
 * @rgba: (out caller-allocates): the picture's RGBA layer
 * @stride: bytes a row
 *
 * The graticule as clh_scope_draw_graticule() documents it.
 */
void
clh_reference_scope_graticule (const ClhScopeSpec *spec,
    const ClhScopeLayout *layout, guint8 *rgba, gsize stride)
{
  guint i;

  for (i = 0; i < spec->height; i++)
    memset (rgba + i * stride, 0, spec->width * 4);
  if (spec->graticule == CLH_SCOPE_GRATICULE_NONE)
    return;
  for (i = 0; i < layout->n_plots; i++) {
    if (layout->plots[i].kind == CLH_SCOPE_PLOT_VECTORSCOPE)
      reference_vectorscope (spec, &layout->plots[i], rgba, stride);
    else
      reference_lines (spec, &layout->plots[i], rgba, stride);
  }
}

/* A vectorscope cell's colour: its bin centres' Cb, Cr as 8-bit offsets
 * from 128, turned to R, G, B at luma 200 with BT.601 full-range
 * coefficients in 1/65536. */
static void
chroma_colour (guint cb_bin, guint cr_bin, guint bins, guint8 rgb[3])
{
  const gint64 cb = (gint64) ((cb_bin + 0.5) * 256.0 / bins) - 128;
  const gint64 cr = (gint64) ((cr_bin + 0.5) * 256.0 / bins) - 128;
  const gint64 v[3] = { 200 + fixed_round (91881 * cr),
    200 + fixed_round (-22554 * cb - 46802 * cr),
    200 + fixed_round (116130 * cb)
  };
  guint k;

  for (k = 0; k < 3; k++)
    rgb[k] = (guint8) CLAMP (v[k], 0, 255);
}

/* 256 log2 (x), the mantissa linear between powers of two. */
static guint64
bar_log (guint64 x)
{
  guint64 e = 0;

  while ((x >> (e + 1)) > 0)
    e++;
  return 256 * e + (x * 256 / ((guint64) 1 << e) - 256);
}

/* What the reference knows of a plot before drawing it: the grid columns
 * each of a waveform's column bins gathers, counted one by one; a
 * histogram's largest count. */
typedef struct {
  guint *columns;
  guint32 peak;
} PlotFacts;

static void
plot_facts (const ClhScopePlot *p, const guint32 *c, PlotFacts *f)
{
  guint x;

  f->columns = g_new0 (guint, p->cols);
  f->peak = 0;
  if (p->kind == CLH_SCOPE_PLOT_WAVEFORM)
    for (x = 0; x < p->grid_width; x++)
      f->columns[(guint64) x * p->cols / p->grid_width]++;
  if (p->kind == CLH_SCOPE_PLOT_HISTOGRAM)
    for (x = 0; x < p->cols; x++)
      f->peak = MAX (f->peak, c[x]);
}

/* A histogram's clip indicator lamps: crushed azure, clipped red, unlit
 * dark gray. */
static const guint8 lamp_crushed[3] = { 0, 160, 255 };
static const guint8 lamp_clipped[3] = { 255, 0, 0 };
static const guint8 lamp_unlit[3] = { 64, 64, 64 };

/* Whether column @col of a histogram (from its bars' left edge, negative
 * to their left) is one of an indicator's, and which: 0 crushed (left),
 * 1 clipped (right); -1 for the gaps and the bars. */
static gint
indicator_of (const ClhScopePlot *p, gint64 col)
{
  const gint64 gap = p->clip_gap, lamp = p->clip_width;

  if (col < -gap && col >= -gap - lamp)
    return 0;
  if (col >= (gint64) p->width + gap && col < (gint64) p->width + gap + lamp)
    return 1;
  return -1;
}

/* The bin of @n along a side of @side pixels showing @pixel: the one its
 * left (bottom) edge falls in, `n pixel / side` bins from the start; on
 * a vectorscope magnified @zoom times about its middle, a zoom-th of that
 * from the middle bin n / 2. */
static guint
pixel_bin (guint pixel, guint side, guint n, guint zoom)
{
  const guint64 half = (guint64) n / 2 * side * zoom;

  /* n / 2 + (n pixel / side - n / 2) / zoom, over side zoom. */
  return (guint) ((half + (guint64) n * pixel - (guint64) n / 2 * side)
      / ((guint64) side * zoom));
}

/* A histogram's indicator @side at row @up from the bottom: from the
 * top, a gap, the lamp, lit for any sample at or past the clip level, a
 * gap, then the gauge, the share of the grid's samples of the rows left,
 * rounded up, in the trace's colour. */
static void
indicator (const ClhScopePlot *p, const guint32 *c, gint side, guint up,
    guint8 rgb[3])
{
  const guint32 count = c[p->cols + side];
  const guint64 samples = (guint64) p->grid_width * p->grid_height;
  const guint64 rows = p->height - p->clip_width - 2 * p->clip_gap;
  guint k;

  memset (rgb, 0, 3);
  if (up < p->height - p->clip_gap && up >= rows + p->clip_gap) {
    memcpy (rgb, count == 0 ? lamp_unlit : side ? lamp_clipped :
        lamp_crushed, 3);
  } else if (up < (count * rows + samples - 1) / samples) {
    for (k = 0; k < 3; k++)
      rgb[k] = (p->colour >> (8 * k)) & 255;
  }
}

/* The trace of plot @p at (@col, @up): its colour and level. Returns
 * whether it is a histogram's bar, which hides the graticule. */
static gboolean
trace (const ClhScopeSpec *spec, const ClhScopePlot *p, const guint32 *c,
    const PlotFacts *f, guint col, guint up, guint8 rgb[3])
{
  const guint bin = pixel_bin (col, p->width, p->cols, p->zoom);
  const guint row = pixel_bin (up, p->height, p->rows, p->zoom);
  guint level, k;
  guint8 colour[3];

  for (k = 0; k < 3; k++)
    colour[k] = (p->colour >> (8 * k)) & 255;
  if (p->kind == CLH_SCOPE_PLOT_WAVEFORM) {
    level = clh_reference_scope_level (spec, p, f->columns[bin],
        c[row * p->cols + bin]);
  } else if (p->kind == CLH_SCOPE_PLOT_VECTORSCOPE) {
    level = clh_reference_scope_level (spec, p, 1, c[row * p->cols + bin]);
    chroma_colour (bin, row, p->cols, colour);
  } else {
    guint64 bar = 0;

    if (f->peak && spec->scale == CLH_SCOPE_LOG)
      bar = bar_log ((guint64) c[bin] + 1) * p->height / bar_log ((guint64)
          f->peak + 1);
    else if (f->peak)
      bar = (guint64) c[bin] * p->height / f->peak;
    level = up < bar ? 255 : 0;
  }
  for (k = 0; k < 3; k++)
    rgb[k] = (guint8) ((colour[k] * level + 127) / 255);
  return p->kind == CLH_SCOPE_PLOT_HISTOGRAM && level == 255;
}

/**
 * clh_reference_scope_picture:
 * @spec: a valid spec
 * @layout: its layout
 * @counts: its counts (clh_reference_scope_counts())
 * @rgba: (out caller-allocates): `spec->height` rows of `spec->width`
 *   RGBA pixels
 * @stride: bytes a row
 *
 * The picture as clh_scope_draw() documents it, one pixel at a time.
 */
void
clh_reference_scope_picture (const ClhScopeSpec *spec,
    const ClhScopeLayout *layout, const guint32 *counts, guint8 *rgba,
    gsize stride)
{
  const gsize gstride = (gsize) spec->width * 4;
  guint8 *graticule = g_malloc (gstride * spec->height);
  PlotFacts facts[CLH_SCOPE_MAX_PLOTS];
  guint x, y, i, k;

  clh_reference_scope_graticule (spec, layout, graticule, gstride);
  for (i = 0; i < layout->n_plots; i++)
    plot_facts (&layout->plots[i], counts + layout->plots[i].count_base,
        &facts[i]);
  for (y = 0; y < spec->height; y++)
    for (x = 0; x < spec->width; x++) {
      const guint8 *g = graticule + y * gstride + x * 4;
      guint8 *o = rgba + y * stride + x * 4;
      guint8 rgb[3] = { 0, 0, 0 };
      guint alpha = g[3];

      for (i = 0; i < layout->n_plots; i++) {
        const ClhScopePlot *p = &layout->plots[i];
        const gint64 col = (gint64) x - p->x;

        if (y < p->y || y >= p->y + p->height)
          continue;
        if (col >= 0 && col < p->width) {
          if (trace (spec, p, counts + p->count_base, &facts[i],
                  (guint) col, p->y + p->height - 1 - y, rgb))
            alpha = 0;
          break;
        }
        if (p->kind == CLH_SCOPE_PLOT_HISTOGRAM && p->clip_width
            && indicator_of (p, col) >= 0) {
          indicator (p, counts + p->count_base, indicator_of (p, col),
              p->y + p->height - 1 - y, rgb);
          break;
        }
      }
      for (k = 0; k < 3; k++)
        o[k] = (guint8) ((rgb[k] * (255 - alpha) + g[k] * alpha + 127)
            / 255);
      o[3] = 255;
    }
  for (i = 0; i < layout->n_plots; i++)
    g_free (facts[i].columns);
  g_free (graticule);
}

/* The coefficients turning the picture's 8-bit R, G, B into a frame's
 * component @c at @depth bits, in 1/65536, and its offset, as
 * clh_scope_output_matrix() documents them. */
static void
output_row (const ClhScopeSpec *spec, guint depth, guint c, gint64 row[3],
    gint64 *offset)
{
  const gdouble kr = spec->kr / 10000.0, kb = spec->kb / 10000.0;
  const gdouble kg = 1.0 - kr - kb, top = (gdouble) ((1u << depth) - 1);
  const gdouble s = (gdouble) (1u << depth) / 256.0;
  gdouble scale, coef[3], base;
  guint k;

  if (spec->source == CLH_SCOPE_SOURCE_RGB) {
    for (k = 0; k < 3; k++)
      row[k] = k == c ? 65536 : 0;
    *offset = 0;
    return;
  }
  if (c == 0) {
    scale = (spec->limited ? 219.0 * s : top) / 255.0;
    coef[0] = kr;
    coef[1] = kg;
    coef[2] = kb;
    base = spec->limited ? 16.0 * s : 0.0;
  } else {
    const gdouble d = c == 1 ? 2.0 * (1.0 - kb) : 2.0 * (1.0 - kr);

    scale = (spec->limited ? 224.0 * s : top) / 255.0;
    coef[0] = c == 1 ? -kr / d : 0.5;
    coef[1] = -kg / d;
    coef[2] = c == 1 ? 0.5 : -kb / d;
    base = spec->limited ? 128.0 * s : (gdouble) (1u << (depth - 1));
  }
  for (k = 0; k < 3; k++)
    row[k] = lround (coef[k] * scale * 65536.0);
  *offset = lround (base * 65536.0);
}

/* Writes @value (@depth bits, shifted) into a sample's bytes. */
static void
write_sample (const ClhFrame *frame, guint c, guint x, guint y, guint value)
{
  const ClhComponent *comp = &frame->components[c];
  guint8 *p = (guint8 *) frame->planes[comp->plane].data
      + frame->planes[comp->plane].stride * y + comp->offset
      + (gsize) comp->pixel_stride * x;
  const guint stored = value << comp->shift;

  if (frame->sample == CLH_SAMPLE_8) {
    p[0] = (guint8) stored;
  } else if (frame->sample == CLH_SAMPLE_16LE) {
    p[0] = stored & 255;
    p[1] = stored >> 8;
  } else {
    p[0] = stored >> 8;
    p[1] = stored & 255;
  }
}

/**
 * clh_reference_scope_overlay:
 * @frame: a valid frame whose planes are writable
 * @spec: a spec valid for it
 * @picture: its picture (clh_reference_scope_picture()), `spec->width * 4`
 *   bytes a row
 * @x: the picture's left column in the frame
 * @y: its top row
 * @alpha: its opacity, 0..255
 *
 * The picture blended into @frame as clh_scope_overlay() documents it,
 * one sample at a time.
 */
void
clh_reference_scope_overlay (const ClhFrame *frame, const ClhScopeSpec *spec,
    const guint8 *picture, guint x, guint y, guint alpha)
{
  const guint n = spec->source == CLH_SCOPE_SOURCE_GRAY ? 1 : 3;
  const guint top = (1u << frame->depth) - 1;
  guint c, sx, sy, i, j, k;

  for (c = 0; c < n; c++) {
    const guint bw = 1u << frame->components[c].w_sub;
    const guint bh = 1u << frame->components[c].h_sub;
    gint64 row[3], offset;

    output_row (spec, frame->depth, c, row, &offset);
    for (sy = y / bh; sy < (y + spec->height) / bh; sy++)
      for (sx = x / bw; sx < (x + spec->width) / bw; sx++) {
        guint sum[3] = { 0, 0, 0 };
        gint64 v = offset;
        guint old, value;

        /* The mean colour of the pixels the sample covers, rounded. */
        for (j = 0; j < bh; j++)
          for (i = 0; i < bw; i++)
            for (k = 0; k < 3; k++)
              sum[k] += picture[((sy * bh + j - y) * spec->width + sx * bw
                      + i - x) * 4 + k];
        for (k = 0; k < 3; k++)
          v += row[k] * (gint64) ((sum[k] + bw * bh / 2) / (bw * bh));
        v = (gint64) floor ((gdouble) (v + 32768) / 65536.0);
        value = (guint) CLAMP (v, 0, (gint64) top);
        old = clh_reference_sample (frame, c, sx, sy);
        write_sample (frame, c, sx, sy, (old * (255 - alpha) + value * alpha
                + 127) / 255);
      }
  }
}
