/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-scope-picture.h"

#include <math.h>
#include <string.h>

#include "clh-levels.h"
#include "clh-scope-labels.h"

/* The skin-tone line's angle from the +Cb axis, degrees: the +I axis of
 * NTSC's YIQ, along which skin tones of every complexion fall (SMPTE
 * EG 1, the "flesh line" of broadcast vectorscopes). */
#define SKIN_TONE_DEGREES 123.0

/* How much denser than the frame's samples spread over every cell of the
 * square a vectorscope cell must be to reach the waveform's brightness:
 * a picture's colours fill a small part of the square. */
#define VECTORSCOPE_SPREAD 16.0

/* Graticule colours, R, G, B, alpha. */
static const guint8 line_colour[4] = { 110, 190, 110, 120 };
static const guint8 legal_colour[4] = { 255, 170, 40, 200 };
static const guint8 axis_colour[4] = { 110, 190, 110, 70 };
static const guint8 skin_colour[4] = { 255, 200, 160, 170 };

static gboolean
unsupported (GError **error, const gchar *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
unsupported (GError **error, const gchar *format, ...)
{
  va_list args;

  if (error) {
    va_start (args, format);
    g_propagate_error (error, g_error_new_valist (CLH_SPEC_ERROR,
            CLH_SPEC_ERROR_UNSUPPORTED, format, args));
    va_end (args);
  }
  return FALSE;
}

static guint
n_channels (ClhScopeSource source)
{
  return source == CLH_SCOPE_SOURCE_GRAY ? 1 : 3;
}

/* A panel's share of the picture's width, in picture heights: a waveform
 * two, a parade one per channel (two for one), a vectorscope one (it is
 * square), a histogram two. */
static guint
panel_weight (guint kind, ClhScopeSource source)
{
  switch (kind) {
    case CLH_SCOPE_PARADE:
      return MAX (n_channels (source), 2);
    case CLH_SCOPE_VECTORSCOPE:
      return 1;
    default:
      return 2;
  }
}

/**
 * clh_scope_shares:
 * @kinds: #ClhScopeKind flags
 * @source: what the frames' components are
 *
 * Returns: the picture's width in picture heights at which each panel of
 *   @kinds gets its natural shape (a square vectorscope): the sum of the
 *   panels' shares, as clh_scope_layout() lays them out
 */
guint
clh_scope_shares (guint kinds, ClhScopeSource source)
{
  guint total = 0, k;

  for (k = CLH_SCOPE_WAVEFORM; k <= CLH_SCOPE_HISTOGRAM; k <<= 1)
    if (kinds & k)
      total += panel_weight (k, source);
  return total;
}

/* The largest power of two <= @n (>= 1), and its log2. */
static guint
floor_log2 (guint n)
{
  guint k = 0;

  while (n >> (k + 1))
    k++;
  return k;
}

/* Bins of @depth-bit values on an axis of @pixels, at most 2^@max_log2:
 * the shift that makes them. */
static guint
value_shift (guint depth, guint pixels, guint max_log2)
{
  const guint bins_log2 = MIN (MIN (depth, floor_log2 (pixels)), max_log2);

  return depth - bins_log2;
}

static const guint32 channel_colours[3][3] = {
  /* gray */
  {0x00e6e6e6},
  /* Y, Cb, Cr */
  {0x00e6e6e6, 0x00ff8c64, 0x008c64ff},
  /* R, G, B */
  {0x004040ff, 0x0040ff40, 0x00ff8060},
};

#define LUMA_COLOUR 0x00d2ffd2u

/* The grid a channel's values are read on. */
static void
channel_grid (const ClhFrame *frame, guint channel, ClhScopePlot *p)
{
  if (channel == CLH_SCOPE_LUMA) {
    p->grid_width = frame->width;
    p->grid_height = frame->height;
  } else {
    p->grid_width = clh_component_width (frame, channel);
    p->grid_height = clh_component_height (frame, channel);
  }
}

static void
add_channel_plot (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *l, ClhScopePlotKind kind, guint channel, guint32 colour,
    guint x, guint y, guint width, guint height)
{
  ClhScopePlot *p = &l->plots[l->n_plots++];
  const guint depth = spec->source == CLH_SCOPE_SOURCE_RGB ? 8 :
      frame->depth;

  memset (p, 0, sizeof (*p));
  p->kind = kind;
  p->channel = channel;
  p->chroma = spec->source == CLH_SCOPE_SOURCE_YUV && channel != 0
      && channel != CLH_SCOPE_LUMA;
  p->x = x;
  p->y = y;
  p->width = width;
  p->height = height;
  p->depth = depth;
  p->zoom = 1;
  channel_grid (frame, channel, p);
  if (kind == CLH_SCOPE_PLOT_WAVEFORM) {
    p->cols = MIN (width, p->grid_width);
    p->shift = value_shift (depth, height, 10);
    p->rows = (1u << depth) >> p->shift;
  } else {
    p->shift = value_shift (depth, width, 12);
    p->cols = (1u << depth) >> p->shift;
    p->rows = 1;
  }
  p->colour = colour;
}

static void
add_vectorscope (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *l, guint x0, guint x1)
{
  ClhScopePlot *p = &l->plots[l->n_plots++];
  const guint side = MIN (x1 - x0, spec->height);

  memset (p, 0, sizeof (*p));
  p->kind = CLH_SCOPE_PLOT_VECTORSCOPE;
  p->channel = 1;
  p->chroma = TRUE;
  p->x = x0 + (x1 - x0 - side) / 2;
  p->y = (spec->height - side) / 2;
  p->width = p->height = side;
  p->depth = spec->source == CLH_SCOPE_SOURCE_RGB ? 8 : frame->depth;
  p->zoom = MAX (spec->vectorscope_zoom, 1);
  channel_grid (frame, spec->source == CLH_SCOPE_SOURCE_YUV ? 1 :
      CLH_SCOPE_LUMA, p);
  /* Zoomed, a pixel shows a zoom-th of the values: bins as many as
   * side * zoom pixels hold. */
  p->shift = value_shift (p->depth, side * p->zoom, 9);
  p->cols = p->rows = (1u << p->depth) >> p->shift;
}

/* A histogram panel's clip indicators: @width wide (0: none) and @gap
 * columns from the bars on each side, for a panel @panel_width wide of
 * @n channels stacked: `k = max (2, min (panel_width / 64, spec->height /
 * n / 4))`, so that a lamp of k x k fits a quarter of the lowest plot,
 * and `g = max (1, k / 4)`; none where the bars would keep fewer than
 * %CLH_SCOPE_MIN_PLOT columns. */
static void
clip_sides (const ClhScopeSpec *spec, guint panel_width, guint n,
    guint *width, guint *gap)
{
  guint k = MIN (panel_width / 64, spec->height / n / 4);

  k = MAX (2, k);
  *width = k;
  *gap = MAX (1, k / 4);
  if (panel_width < 2 * (k + *gap) + CLH_SCOPE_MIN_PLOT)
    *width = *gap = 0;
}

static void
add_histograms (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *l, guint x0, guint w)
{
  const guint n = n_channels (spec->source);
  guint k, g, c;

  clip_sides (spec, w, n, &k, &g);
  for (c = 0; c < n; c++) {
    ClhScopePlot *p = &l->plots[l->n_plots];
    ClhLevels levels;

    add_channel_plot (spec, frame, l, CLH_SCOPE_PLOT_HISTOGRAM, c,
        channel_colours[spec->source][c], x0 + k + g,
        spec->height * c / n, w - 2 * (k + g),
        spec->height * (c + 1) / n - spec->height * c / n);
    levels = clh_levels_nominal (p->depth, spec->limited, p->chroma);
    p->clip_width = k;
    p->clip_gap = g;
    p->clip_low = levels.black;
    p->clip_high = levels.white;
  }
}

/* The plots of one panel, columns [@x0, @x1). */
static void
add_panel (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *l, guint kind, guint x0, guint x1)
{
  const guint n = n_channels (spec->source), w = x1 - x0;
  const guint luma = spec->source == CLH_SCOPE_SOURCE_RGB ? CLH_SCOPE_LUMA :
      0;
  guint c;

  switch (kind) {
    case CLH_SCOPE_WAVEFORM:
      add_channel_plot (spec, frame, l, CLH_SCOPE_PLOT_WAVEFORM, luma,
          LUMA_COLOUR, x0, 0, w, spec->height);
      break;
    case CLH_SCOPE_PARADE:
      for (c = 0; c < n; c++)
        add_channel_plot (spec, frame, l, CLH_SCOPE_PLOT_WAVEFORM, c,
            n == 1 ? LUMA_COLOUR : channel_colours[spec->source][c],
            x0 + w * c / n, 0, w * (c + 1) / n - w * c / n, spec->height);
      break;
    case CLH_SCOPE_VECTORSCOPE:
      add_vectorscope (spec, frame, l, x0, x1);
      break;
    default:
      add_histograms (spec, frame, l, x0, w);
      break;
  }
}

/**
 * clh_scope_layout:
 * @spec: a valid spec (clh_scope_spec_is_valid())
 * @frame: the frames' format and size
 * @layout: (out): the picture's plots
 *
 * Lays the picture out: one panel per scope of @spec->kinds, in the order
 * of #ClhScopeKind, panel widths in proportion to their shares (a waveform
 * or histogram two picture heights, a parade one per channel, a
 * vectorscope one), with integer boundaries `width * share_before / total`.
 * A parade's channels split its panel's width, a histogram's its height,
 * in the same way; the vectorscope is the largest square centred in its
 * panel. A histogram's bars leave room at each side of its panel for its
 * clip indicators (#ClhScopePlot's @clip_width, @clip_gap).
 */
void
clh_scope_layout (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *layout)
{
  const guint total = clh_scope_shares (spec->kinds, spec->source);
  guint before = 0, k, i;

  memset (layout, 0, sizeof (*layout));
  for (k = CLH_SCOPE_WAVEFORM; k <= CLH_SCOPE_HISTOGRAM; k <<= 1) {
    guint w;

    if (!(spec->kinds & k))
      continue;
    w = panel_weight (k, spec->source);
    add_panel (spec, frame, layout, k, spec->width * before / total,
        spec->width * (before + w) / total);
    before += w;
  }
  for (i = 0; i < layout->n_plots; i++) {
    ClhScopePlot *p = &layout->plots[i];

    p->count_base = layout->n_counts;
    layout->n_counts += (gsize) p->cols * p->rows;
    if (p->kind == CLH_SCOPE_PLOT_HISTOGRAM)
      layout->n_counts += CLH_SCOPE_CLIP_COUNTERS;
  }
}

static gboolean
check_source (const ClhScopeSpec *spec, const ClhFrame *frame,
    GError **error)
{
  switch (spec->source) {
    case CLH_SCOPE_SOURCE_GRAY:
      return TRUE;
    case CLH_SCOPE_SOURCE_YUV:
      if (frame->n_components < 3)
        return unsupported (error, "a YUV frame needs three components, "
            "this one has %u", frame->n_components);
      if (frame->components[1].w_sub != frame->components[2].w_sub
          || frame->components[1].h_sub != frame->components[2].h_sub)
        return unsupported (error, "Cb and Cr are subsampled differently");
      return TRUE;
    case CLH_SCOPE_SOURCE_RGB:
      if (frame->n_components < 3 || frame->depth != 8
          || frame->sample != CLH_SAMPLE_8)
        return unsupported (error, "RGB sources are 8-bit R, G, B");
      return TRUE;
    default:
      return unsupported (error, "unknown source %d", spec->source);
  }
}

static gboolean
check_plots (const ClhScopeSpec *spec, const ClhFrame *frame,
    GError **error)
{
  ClhScopeLayout layout;
  guint i;

  clh_scope_layout (spec, frame, &layout);
  for (i = 0; i < layout.n_plots; i++) {
    const ClhScopePlot *p = &layout.plots[i];

    if (p->width < CLH_SCOPE_MIN_PLOT || p->height < CLH_SCOPE_MIN_PLOT)
      return unsupported (error, "a %ux%u picture is too small for these "
          "scopes side by side: a plot would be %ux%u pixels, at least "
          "%ux%u are needed", spec->width, spec->height, p->width,
          p->height, CLH_SCOPE_MIN_PLOT, CLH_SCOPE_MIN_PLOT);
  }
  return TRUE;
}

/**
 * clh_scope_spec_is_valid:
 * @spec: a spec
 * @frame: a valid frame it will be drawn of
 * @error: (out) (optional): %CLH_SPEC_ERROR_UNSUPPORTED, saying what does
 *   not fit and why
 *
 * Returns: %TRUE if @spec can be drawn of @frame: known scopes, a picture
 *   size in range with every plot at least %CLH_SCOPE_MIN_PLOT pixels
 *   either way, a source the frame's components fit, a matrix with
 *   0 < Kr, Kb and Kr + Kb < 1, 0 < intensity <= 1 and a vectorscope
 *   zoom of at most %CLH_SCOPE_MAX_ZOOM
 */
gboolean
clh_scope_spec_is_valid (const ClhScopeSpec *spec, const ClhFrame *frame,
    GError **error)
{
  if (spec->kinds == 0 || (spec->kinds & ~CLH_SCOPE_ALL_KINDS))
    return unsupported (error, "scopes 0x%x: choose one or more of "
        "waveform, parade, vectorscope and histogram", spec->kinds);
  if (spec->width < CLH_SCOPE_MIN_SIZE || spec->width > CLH_SCOPE_MAX_WIDTH
      || spec->height < CLH_SCOPE_MIN_SIZE
      || spec->height > CLH_SCOPE_MAX_HEIGHT)
    return unsupported (error, "a %ux%u picture: the width must be %u to "
        "%u, the height %u to %u", spec->width, spec->height,
        CLH_SCOPE_MIN_SIZE, CLH_SCOPE_MAX_WIDTH, CLH_SCOPE_MIN_SIZE,
        CLH_SCOPE_MAX_HEIGHT);
  if (spec->kr == 0 || spec->kb == 0 || spec->kr + spec->kb >= 10000)
    return unsupported (error, "a matrix of Kr = %u, Kb = %u (in 1/10000) "
        "is no luma matrix", spec->kr, spec->kb);
  if (!(spec->intensity > 0.0 && spec->intensity <= 1.0))
    return unsupported (error, "intensity %g is outside (0, 1]",
        spec->intensity);
  if (spec->scale != CLH_SCOPE_LINEAR && spec->scale != CLH_SCOPE_LOG)
    return unsupported (error, "unknown scale %d", spec->scale);
  if (spec->graticule > CLH_SCOPE_GRATICULE_NONE)
    return unsupported (error, "unknown graticule %d", spec->graticule);
  if (spec->vectorscope_zoom > CLH_SCOPE_MAX_ZOOM)
    return unsupported (error, "a vectorscope zoom of %u: it is 1 to %u",
        spec->vectorscope_zoom, CLH_SCOPE_MAX_ZOOM);
  return check_source (spec, frame, error)
      && check_plots (spec, frame, error);
}

/* round (@num / @den) for positive operands, halves up. */
static gint32
div_round (gint64 num, gint64 den)
{
  return (gint32) ((2 * num + den) / (2 * den));
}

/**
 * clh_scope_matrix:
 * @kr: Kr in 1/10000
 * @kb: Kb in 1/10000
 * @matrix: (out) (array fixed-size=9): the rows luma, Cb, Cr of R, G, B
 *   coefficients in 1/65536
 *
 * The Y'CbCr matrix of ITU-R BT.601 section 2.5.2 (and BT.709, BT.2020
 * with their Kr, Kb) in 16-bit fixed point: `Y = Kr R + Kg G + Kb B`,
 * `Cb = (B - Y) / (2 (1 - Kb))`, `Cr = (R - Y) / (2 (1 - Kr))`. Each
 * coefficient is rounded, halves up, but the green ones, which make the
 * luma row sum to exactly 65536 and the colour-difference rows to 0, so
 * that white has the top luma and grey no colour. The kernels apply it as
 * `(row . RGB + offset + 32768) >> 16` with offset 0 for luma and 128 << 16
 * for Cb and Cr, clamped to 0..255.
 */
void
clh_scope_matrix (guint kr, guint kb, gint32 matrix[9])
{
  matrix[0] = div_round ((gint64) kr * 65536, 10000);
  matrix[2] = div_round ((gint64) kb * 65536, 10000);
  matrix[1] = 65536 - matrix[0] - matrix[2];
  matrix[3] = -div_round ((gint64) kr * 32768, 10000 - kb);
  matrix[5] = 32768;
  matrix[4] = -32768 - matrix[3];
  matrix[6] = 32768;
  matrix[8] = -div_round ((gint64) kb * 32768, 10000 - kr);
  matrix[7] = -32768 - matrix[8];
}

/**
 * clh_scope_full_count:
 * @spec: the spec
 * @plot: a waveform or vectorscope plot of its layout
 * @n: a waveform's grid columns per column bin (@plot's bins gather
 *   `grid_width / cols` or one more); 1 for a vectorscope
 *
 * The count at which a cell reaches full brightness on a linear scale:
 * `1 / intensity` times the cell's average density, the samples of its
 * column bin spread evenly over the plot's value bins for a waveform,
 * `n * grid_height / rows / intensity`; for a vectorscope %VECTORSCOPE_SPREAD
 * times the grid's samples spread over its cells, `grid_width *
 * grid_height * 16 / (cols * rows) / intensity`, in double precision.
 *
 * Returns: the count, > 0
 */
gdouble
clh_scope_full_count (const ClhScopeSpec *spec, const ClhScopePlot *plot,
    guint n)
{
  if (plot->kind == CLH_SCOPE_PLOT_VECTORSCOPE)
    return (gdouble) plot->grid_width * plot->grid_height
        * VECTORSCOPE_SPREAD / ((gdouble) plot->cols * plot->rows
        * spec->intensity);
  return (gdouble) n * plot->grid_height / ((gdouble) plot->rows
      * spec->intensity);
}

/**
 * clh_scope_output_matrix:
 * @spec: the spec (its source, range and matrix)
 * @depth: bits of the frame's samples
 * @matrix: (out) (array fixed-size=9): for each component written (R, G, B
 *   or Y, Cb, Cr), its coefficients of the picture's 8-bit R, G, B, in
 *   1/65536
 * @offsets: (out) (array fixed-size=3): each component's offset, in
 *   1/65536
 *
 * How the scope picture's colours become a frame's samples: component
 * value `clamp ((row . RGB + offset + 2^15) >> 16, 0, 2^depth - 1)`, in
 * 64-bit arithmetic. RGB sources take R, G, B as they are. YUV and gray
 * ones take ITU-R BT.601 section 2.5.2's Y'CbCr with the spec's Kr, Kb,
 * at limited range `Y = 16 s + 219 s Y'`, `C = 128 s + 224 s C'` (s =
 * 2^(depth - 8), as BT.2100 table 9 scales 8-bit levels) or full range
 * `Y = (2^depth - 1) Y'`, `C = 2^(depth - 1) + (2^depth - 1) C'`, for
 * Y' in 0..1 and C' in -0.5..0.5 of R, G, B / 255; each coefficient and
 * offset rounded to the nearest 1/65536 (lround()).
 */
void
clh_scope_output_matrix (const ClhScopeSpec *spec, guint depth,
    gint32 matrix[9], guint32 offsets[3])
{
  const gdouble kr = spec->kr / 10000.0, kb = spec->kb / 10000.0;
  const gdouble kg = 1.0 - kr - kb, top = (gdouble) ((1u << depth) - 1);
  const gdouble s = (gdouble) (1u << depth) / 256.0;
  const gdouble y_scale = (spec->limited ? 219.0 * s : top) / 255.0;
  const gdouble c_scale = (spec->limited ? 224.0 * s : top) / 255.0;
  const gdouble rows[9] = { kr, kg, kb,
    -kr / (2.0 * (1.0 - kb)), -kg / (2.0 * (1.0 - kb)), 0.5,
    0.5, -kg / (2.0 * (1.0 - kr)), -kb / (2.0 * (1.0 - kr)),
  };
  const gdouble base[3] = { spec->limited ? 16.0 * s : 0.0,
    spec->limited ? 128.0 * s : (gdouble) (1u << (depth - 1)),
    spec->limited ? 128.0 * s : (gdouble) (1u << (depth - 1)),
  };
  guint i;

  for (i = 0; i < 9; i++) {
    if (spec->source == CLH_SCOPE_SOURCE_RGB)
      matrix[i] = i % 4 == 0 ? 65536 : 0;
    else
      matrix[i] = (gint32) lround (rows[i] * (i < 3 ? y_scale : c_scale)
          * 65536.0);
  }
  for (i = 0; i < 3; i++)
    offsets[i] = spec->source == CLH_SCOPE_SOURCE_RGB ? 0 :
        (guint32) lround (base[i] * 65536.0);
}

/* A cell's brightness before it is cut to 0..255: `255 count / full`
 * (linear) or `255 log (1 + count) / log (1 + full)` (log). */
static gdouble
brightness (ClhScopeScale scale, guint64 count, gdouble full)
{
  if (scale == CLH_SCOPE_LOG)
    return 255.0 * log1p ((gdouble) count) / log1p (full);
  return 255.0 * (gdouble) count / full;
}

/* Counts no cell can pass: a frame has at most 2^28 samples. */
#define COUNT_LIMIT ((guint64) 1 << 31)

/* The smallest count of brightness >= @level, from a guess near it. */
static guint32
threshold (ClhScopeScale scale, gdouble full, guint level)
{
  gdouble guess = scale == CLH_SCOPE_LOG ?
      expm1 (level * log1p (full) / 255.0) : level * full / 255.0;
  guint64 c;

  guess = ceil (guess);
  c = guess < 1.0 ? 1 : guess > (gdouble) COUNT_LIMIT ? COUNT_LIMIT :
      (guint64) guess;
  while (c > 1 && brightness (scale, c - 1, full) >= level)
    c--;
  while (c < COUNT_LIMIT && brightness (scale, c, full) < level)
    c++;
  return c >= COUNT_LIMIT ? G_MAXUINT32 : (guint32) c;
}

/**
 * clh_scope_thresholds:
 * @spec: the spec
 * @plot: a waveform or vectorscope plot of its layout
 * @n: as for clh_scope_full_count()
 * @thresholds: (out) (array fixed-size=256): for each level l, the
 *   smallest count drawn at l or brighter (thresholds[0] = 0;
 *   %G_MAXUINT32 for a level no count reaches)
 *
 * The table the device draws a cell with: a cell of count c is drawn at
 * the largest level l with `thresholds[l] <= c`, which is `min (255,
 * floor (b))` of its brightness b, `255 c / full` on a linear scale,
 * `255 log (1 + c) / log (1 + full)` on a log one (full from
 * clh_scope_full_count()), for c >= 1, and 0 for c = 0. The table is made
 * in double precision here, so that the device compares integers only.
 */
void
clh_scope_thresholds (const ClhScopeSpec *spec, const ClhScopePlot *plot,
    guint n, guint32 thresholds[CLH_SCOPE_LEVELS])
{
  const gdouble full = clh_scope_full_count (spec, plot, n);
  guint l;

  thresholds[0] = 0;
  for (l = 1; l < CLH_SCOPE_LEVELS; l++)
    thresholds[l] = threshold (spec->scale, full, l);
}

/* The graticule, drawn into a picture-sized RGBA layer. */
typedef struct {
  guint8 *rgba;
  gsize stride;
  const ClhScopePlot *plot;
} Layer;

/* Sets pixel (@x, @y) of the plot, plot coordinates, if inside it. */
static void
put (const Layer *l, gint x, gint y, const guint8 colour[4])
{
  guint8 *px;

  if (x < 0 || y < 0 || x >= (gint) l->plot->width
      || y >= (gint) l->plot->height)
    return;
  px = l->rgba + (gsize) (l->plot->y + y) * l->stride
      + (gsize) (l->plot->x + x) * 4;
  memcpy (px, colour, 4);
}

/* Line @line of a plot's graticule: value @value, @legal, labelled @text,
 * in the label subsets @sets (ClhScopeLine). */
static void
set_line (ClhScopeLine *line, guint value, gboolean legal,
    const gchar *text, guint sets)
{
  line->value = value;
  line->legal = legal;
  line->sets = sets;
  g_strlcpy (line->text, text, sizeof (line->text));
}

/* A line at code value @value, labelled with it. */
static void
set_code_line (ClhScopeLine *line, guint value, gboolean legal, guint sets)
{
  gchar text[sizeof (line->text)];

  g_snprintf (text, sizeof (text), "%u", value);
  set_line (line, value, legal, text, sets);
}

/* The plot's lines of constant value, and their labels: IRE lines in
 * IRE (a colour difference's in percent of its nominal range, -50 to
 * +50), code lines in code values. The label subsets, densest first:
 * every line; IRE luma in 20s, 50s, then 0 and 100; code values in
 * quarters, halves, then the ends. */
static guint
level_lines (const ClhScopeSpec *spec, const ClhScopePlot *plot,
    ClhScopeLine lines[CLH_SCOPE_MAX_LINES])
{
  const gboolean limited = spec->limited;
  const ClhLevels nominal = clh_levels_nominal (plot->depth, limited,
      plot->chroma);
  guint n = 0, k;

  if (spec->graticule == CLH_SCOPE_GRATICULE_IRE && !plot->chroma) {
    for (k = 0; k <= 10; k++) {
      gchar text[8];

      g_snprintf (text, sizeof (text), "%u", 10 * k);
      set_line (&lines[n++], clh_levels_at_percent (&nominal, 10.0 * k),
          k == 0 || k == 10, text, 1 | (k % 2 == 0 ? 2 : 0)
          | (k % 5 == 0 ? 4 : 0) | (k % 10 == 0 ? 8 : 0));
    }
  } else if (spec->graticule == CLH_SCOPE_GRATICULE_IRE) {
    set_line (&lines[n++], 1u << (plot->depth - 1), FALSE, "0", 1);
    set_line (&lines[n++], nominal.black, TRUE, "-50", 1);
    set_line (&lines[n++], nominal.white, TRUE, "+50", 1);
  } else if (spec->graticule == CLH_SCOPE_GRATICULE_CODES) {
    for (k = 0; k <= 4; k++)
      set_code_line (&lines[n++], k == 4 ? nominal.top : k << (plot->depth
              - 2), FALSE, 3 | (k % 2 == 0 ? 4 : 0) | (k % 4 == 0 ? 8 : 0));
    if (limited) {
      set_code_line (&lines[n++], nominal.black, TRUE, 1);
      set_code_line (&lines[n++], nominal.white, TRUE, 1);
    }
  }
  return n;
}

/* Lines across a waveform at its values, labelled, or up a histogram. */
static void
draw_level_lines (const ClhScopeSpec *spec, const Layer *l)
{
  const ClhScopePlot *p = l->plot;
  ClhScopeLine lines[CLH_SCOPE_MAX_LINES];
  const guint n = level_lines (spec, p, lines);
  guint i;

  for (i = 0; i < n; i++) {
    const guint64 bin = lines[i].value >> p->shift;
    const guint8 *colour = lines[i].legal ? legal_colour : line_colour;
    guint j;

    if (p->kind == CLH_SCOPE_PLOT_WAVEFORM) {
      const guint up = (guint) ((bin * p->height + p->rows - 1) / p->rows);

      lines[i].row = p->height - 1 - up;
      for (j = 0; j < p->width; j++)
        put (l, j, lines[i].row, colour);
    } else {
      const guint across = (guint) ((bin * p->width + p->cols - 1) /
          p->cols);

      for (j = 0; j < p->height; j++)
        put (l, across, j, colour);
    }
  }
  if (p->kind == CLH_SCOPE_PLOT_WAVEFORM)
    clh_scope_label_lines (p, lines, n, l->rgba, l->stride);
}

/* The code value of colour difference @c (-0.5..0.5) in @depth bits,
 * limited range (BT.601's 128 + 224 c at 8 bits, scaled) or full
 * (2^(depth - 1) + (2^depth - 1) c), rounded, clamped. */
static guint
chroma_code (gdouble c, guint depth, gboolean limited)
{
  const gdouble top = (gdouble) ((1u << depth) - 1);
  gdouble v = limited ? (128.0 + 224.0 * c) * (gdouble) (1u << depth) /
      256.0 : (gdouble) (1u << (depth - 1)) + top * c;

  v = floor (v + 0.5);
  return (guint) CLAMP (v, 0.0, top);
}

/* Where value @v's centre falls along a vectorscope's side of @side
 * pixels magnified @zoom times about the middle: `floor (((2 v + 1) zoom
 * side - (zoom - 1) side 2^depth) / 2^(depth + 1))`, unzoomed `floor
 * ((2 v + 1) side / 2^(depth + 1))`; FALSE if that lies beyond the
 * side. */
static gboolean
zoomed_pixel (guint v, guint side, guint depth, guint zoom, gint *pixel)
{
  const gint64 num = ((gint64) 2 * v + 1) * zoom * side
      - (gint64) (zoom - 1) * side * ((gint64) 1 << depth);

  if (num < 0 || (num >> (depth + 1)) >= side)
    return FALSE;
  *pixel = (gint) (num >> (depth + 1));
  return TRUE;
}

/* The six colour-bar colours, as R, G, B on/off, and their names. */
static const guint8 bars[6][3] = {
  {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 1, 1}, {0, 0, 1}, {1, 0, 1},
};

static const gchar *const bar_names[6] = { "R", "Yl", "G", "Cy", "B", "Mg" };

/* The target of bar @i at @fraction of full amplitude: its pixel at the
 * plot's zoom; FALSE if it lies beyond the plot. */
static gboolean
target_pixel (const ClhScopeSpec *spec, const ClhScopePlot *p, guint i,
    gdouble fraction, gint *x, gint *y)
{
  const gdouble kr = spec->kr / 10000.0, kb = spec->kb / 10000.0;
  const gdouble r = bars[i][0] * fraction, g = bars[i][1] * fraction;
  const gdouble b = bars[i][2] * fraction;
  const gdouble luma = kr * r + (1.0 - kr - kb) * g + kb * b;
  const gboolean limited = spec->limited
      && spec->source == CLH_SCOPE_SOURCE_YUV;
  const guint cb = chroma_code (0.5 * (b - luma) / (1.0 - kb), p->depth,
      limited);
  const guint cr = chroma_code (0.5 * (r - luma) / (1.0 - kr), p->depth,
      limited);

  if (!zoomed_pixel (cb, p->width, p->depth, p->zoom, x)
      || !zoomed_pixel (cr, p->height, p->depth, p->zoom, y))
    return FALSE;
  *y = (gint) p->height - 1 - *y;
  return TRUE;
}

/* The skin-tone line from the centre (@cx, @cy) to 7/16 of the side out:
 * the pixels whose centres lie within half a pixel of the segment. */
static void
draw_skin_line (const Layer *l, gint cx, gint cy)
{
  const gdouble radius = l->plot->width * 7.0 / 16.0;
  const gdouble angle = SKIN_TONE_DEGREES * G_PI / 180.0;
  const gint64 dx = lround (radius * cos (angle));
  const gint64 dy = -lround (radius * sin (angle));
  const gint64 len2 = dx * dx + dy * dy;
  gint x, y;

  for (y = MIN (cy, cy + dy); y <= MAX (cy, cy + dy); y++)
    for (x = MIN (cx, cx + dx); x <= MAX (cx, cx + dx); x++) {
      const gint64 cross = (x - cx) * dy - (y - cy) * dx;

      if (4 * cross * cross <= len2)
        put (l, x, y, skin_colour);
    }
}

static void
draw_vectorscope (const ClhScopeSpec *spec, const Layer *l)
{
  const ClhScopePlot *p = l->plot;
  gint mid = 0, cx, cy;
  const gint half = MAX (2, (gint) p->width / 64);
  gint i, j, k, x, y;

  /* The neutral value lies inside at every zoom. */
  zoomed_pixel (1u << (p->depth - 1), p->width, p->depth, p->zoom, &mid);
  cx = mid;
  cy = (gint) p->height - 1 - mid;
  for (j = 0; j < (gint) p->width; j++) {
    put (l, j, cy, axis_colour);
    put (l, cx, j, axis_colour);
  }
  draw_skin_line (l, cx, cy);
  for (k = 0; k < 6; k++) {
    guint8 colour[4];

    for (i = 0; i < 3; i++)
      colour[i] = bars[k][i] ? 255 : 40;
    colour[3] = 150;
    if (target_pixel (spec, p, k, 1.0, &x, &y))
      for (j = -1; j <= 1; j++)
        for (i = -1; i <= 1; i++)
          put (l, x + i, y + j, colour);
    colour[3] = 230;
    if (!target_pixel (spec, p, k, 0.75, &x, &y))
      continue;
    for (j = -half; j <= half; j++)
      for (i = -half; i <= half; i++)
        if (ABS (i) == half || ABS (j) == half)
          put (l, x + i, y + j, colour);
    clh_scope_label_target (p, bar_names[k], x, y, cx, cy, half, colour,
        l->rgba, l->stride);
  }
  clh_scope_label_zoom (p, l->rgba, l->stride);
}

/**
 * clh_scope_draw_graticule:
 * @spec: a valid spec
 * @layout: its layout
 * @rgba: (out caller-allocates): `spec->height` rows of `spec->width`
 *   RGBA pixels (R, G, B, alpha bytes), @stride bytes apart
 * @stride: bytes from one row to the next, at least `4 * spec->width`
 *
 * Draws the static graticule, transparent elsewhere, plot by plot; later
 * lines replace earlier ones where they cross. Waveforms get lines across
 * at the values of the graticule (#ClhScopeGraticule; a colour
 * difference's at its nominal ends, highlighted, and its centre), and
 * their numbers (clh_scope_label_lines()); histograms the same lines up;
 * in the row (column) where the value's bin starts. A vectorscope gets
 * its axes through the neutral point, the skin-tone line at 123 degrees
 * from +Cb, a 3x3 dot at each 100% bar colour and a square outline at
 * each 75% one (its half side `max (2, side / 64)`) with its name
 * (clh_scope_label_target()), its targets at the spec's matrix and range,
 * rounded to code values, each at the pixel `floor (((2 v + 1) zoom side
 * - (zoom - 1) side 2^depth) / 2^(depth + 1))` of its code value v (the
 * axes at the neutral value's; targets beyond the plot left out); zoomed,
 * its magnification (clh_scope_label_zoom()).
 */
void
clh_scope_draw_graticule (const ClhScopeSpec *spec,
    const ClhScopeLayout *layout, guint8 *rgba, gsize stride)
{
  guint i;

  for (i = 0; i < spec->height; i++)
    memset (rgba + i * stride, 0, (gsize) spec->width * 4);
  if (spec->graticule == CLH_SCOPE_GRATICULE_NONE)
    return;
  for (i = 0; i < layout->n_plots; i++) {
    const Layer l = { rgba, stride, &layout->plots[i] };

    if (l.plot->kind == CLH_SCOPE_PLOT_VECTORSCOPE)
      draw_vectorscope (spec, &l);
    else
      draw_level_lines (spec, &l);
  }
}
