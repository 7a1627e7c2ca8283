/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcloverlaypanel.h"
#include "gstcloverlaychannel.h"
#include "gstcloverlaydraw.h"

#include "clh-levels.h"

/* The background box's opacity as a share of the bars' (as the graph's
 * own, gstcloverlaydraw.c). */
#define BACKGROUND_SHARE 0.75
/* The graticule's lines over the bars: there, but not hiding them. */
#define GRATICULE_SHARE 0.4
/* The smallest font that stays legible, and the font's size against the
 * box's height (a 1080p frame's default box gets 28 pixels). */
#define MIN_FONT_SIZE 10
#define BOX_HEIGHT_PER_FONT_SIZE 12
/* A channel's text colour is its colour this many percent of the way to
 * white. */
#define TEXT_LIGHTEN 40
/* Labels placed along the axis keep this much of the font's size apart. */
#define LABEL_GAP_SHARE 0.5

static const guint8 black[3] = { 0, 0, 0 };
static const guint8 white[3] = { 255, 255, 255 };
/* The legal marks: amber, as broadcast monitors draw limits. */
static const guint8 legal_colour[3] = { 255, 176, 0 };
/* The clip indicators' lamps: the zones' colours (gstcloverlayzones.c),
 * clipped red, crushed azure; unlit dark gray. */
static const guint8 clipped_colour[3] = { 255, 0, 0 };
static const guint8 crushed_colour[3] = { 0, 160, 255 };
static const guint8 unlit_colour[3] = { 64, 64, 64 };
/* A clip indicator's width (and its lamp's height): the plot's height
 * over this, at least MIN_CLIP_WIDTH; a quarter of it apart from the
 * bars. */
#define CLIP_WIDTH_PER_PLOT 10
#define MIN_CLIP_WIDTH 5
/* The bars keep at least this many columns beside the indicators, their
 * gauges this many rows below the lamps. */
#define MIN_PLOT_WIDTH 16
#define MIN_GAUGE_ROWS 4

#define MAX_TICKS 24

/* A value marked along the axis, and its label. */
typedef struct {
  guint value;
  gchar label[8];
  /* Whether the label is drawn (the minor lines have none). */
  gboolean labelled;
  /* Lower is placed first when labels would overlap. */
  guint priority;
} Tick;

/**
 * gst_cl_overlay_panel_value_column:
 * @value: a sample value, @range_min..@range_max
 * @range_min: the first bin's lowest value
 * @range_max: the last bin's highest value
 * @width: the plot's width in pixels
 *
 * The value axis is linear over the binned range, each value a slice of
 * @width / (@range_max - @range_min + 1) columns: a value is marked at the
 * column that holds its slice's centre. With as many columns as values,
 * value v is column v - @range_min, where its bin's bar stands.
 *
 * Returns: the column, counted from the plot's left edge
 */
gint64
gst_cl_overlay_panel_value_column (guint value, guint range_min,
    guint range_max, gint64 width)
{
  const gint64 values = (gint64) range_max - range_min + 1;

  return ((2 * ((gint64) value - range_min) + 1) * width) / (2 * values);
}

/**
 * gst_cl_overlay_panel_layout:
 * @panel: the panel
 * @text: the text renderer the labels are measured with
 * @layout: (out): where its parts go
 *
 * The font's size is the box's height over 12, at least 10 pixels; the
 * legend takes a line above the plot, the graticule's labels a line
 * below it. A box less than two lines of plot high beside its bands, or
 * narrower than 8 characters, gets no text at all: its plot is the box;
 * so does every box when text cannot be rendered (no font). The plot
 * spans the box's width until gst_cl_overlay_panel_layout_indicators()
 * makes room for the clip indicators.
 */
void
gst_cl_overlay_panel_layout (const GstClOverlayPanel *panel,
    GstClOverlayText *text, GstClOverlayPanelLayout *layout)
{
  guint font_size = MAX (MIN_FONT_SIZE,
      panel->height / BOX_HEIGHT_PER_FONT_SIZE);
  gboolean top = panel->legend;
  gboolean bottom = panel->graticule != GST_CL_OVERLAY_GRATICULE_NONE;
  gboolean any_text = top || bottom || panel->clipping_text;
  gint line = 0;

  memset (layout, 0, sizeof (*layout));
  layout->plot_x = panel->x;
  layout->plot_y = panel->y;
  layout->plot_width = panel->width;
  layout->plot_height = panel->height;
  /* A box past any font's size (set in pixels, up to G_MAXINT) gets
   * text no larger than a 4K frame's. */
  font_size = MIN (font_size, 256);
  if (any_text)
    line = gst_cl_overlay_text_line_height (text, font_size);
  if (line <= 0 || panel->height < (gint64) (2 + top + bottom) * line
      || panel->width < (gint64) 8 * font_size)
    return;
  layout->font_size = font_size;
  layout->line_height = line;
  layout->top_band = top;
  layout->bottom_band = bottom;
  layout->plot_y = panel->y + (top ? line : 0);
  layout->plot_height = panel->height - (gint64) (top + bottom) * line;
}

/**
 * gst_cl_overlay_panel_layout_indicators:
 * @panel: the panel
 * @layout: its layout (gst_cl_overlay_panel_layout()), narrowed
 *
 * Makes room for a clip indicator at each side of the plot: `k = max (5,
 * plot_height / 10)` columns wide, `max (1, k / 4)` columns from the
 * bars; none when turned off, or where the bars would keep fewer than 16
 * columns or the gauges fewer than 4 rows.
 */
void
gst_cl_overlay_panel_layout_indicators (const GstClOverlayPanel *panel,
    GstClOverlayPanelLayout *layout)
{
  const gint64 k = MAX (MIN_CLIP_WIDTH,
      layout->plot_height / CLIP_WIDTH_PER_PLOT);
  const gint64 gap = MAX (1, k / 4);

  if (!panel->clip_indicators
      || panel->width < 2 * (k + gap) + MIN_PLOT_WIDTH
      || layout->plot_height < k + 2 * gap + MIN_GAUGE_ROWS)
    return;
  layout->clip_width = k;
  layout->clip_gap = gap;
  layout->plot_x = panel->x + k + gap;
  layout->plot_width = panel->width - 2 * (k + gap);
}

static guint
depth_of (const GstHistogramInfo *info)
{
  return info->depth >= 1 && info->depth <= 16 ? info->depth : 8;
}

static void
add_tick (Tick *ticks, guint *n_ticks, guint value, gboolean labelled,
    guint priority)
{
  Tick *tick;

  if (*n_ticks >= MAX_TICKS)
    return;
  tick = &ticks[(*n_ticks)++];
  tick->value = value;
  tick->labelled = labelled;
  tick->priority = priority;
  g_snprintf (tick->label, sizeof (tick->label), "%u", value);
}

/* The graticule's values over the binned range. Codes: every eighth of
 * the depth's codes and its top code, labelled every quarter (0, 64,
 * 128, 192, 255 in 8 bits). IRE: every 10 % of the nominal range from
 * black (0 IRE) to white (100 IRE), labelled every 20 %. */
static guint
graticule_ticks (const GstClOverlayPanel *panel, const GstHistogramInfo *info,
    Tick *ticks)
{
  const guint depth = depth_of (info);
  const guint top = (1u << depth) - 1;
  GstClOverlayGraticule graticule = panel->graticule;
  guint n = 0;

  /* Hue has no levels: its axis is marked in codes. */
  if (graticule == GST_CL_OVERLAY_GRATICULE_IRE
      && info->mode == GST_HISTOGRAM_MODE_HUE)
    graticule = GST_CL_OVERLAY_GRATICULE_CODES;

  if (graticule == GST_CL_OVERLAY_GRATICULE_CODES) {
    const guint step = MAX (1u, (top + 1) / 8);
    guint k;

    for (k = 0; k <= 8; k++) {
      guint value = k < 8 ? k * step : top;
      /* 0 and the top first, then the middle, then the quarters. */
      guint priority = k == 0 || k == 8 ? 1 : k == 4 ? 2 : 3;

      if (k > 0 && value <= (k - 1) * step)
        continue;
      if (value >= info->range_min && value <= info->range_max)
        add_tick (ticks, &n, value, k % 2 == 0, priority);
    }
  } else if (graticule == GST_CL_OVERLAY_GRATICULE_IRE) {
    ClhLevels levels = clh_levels_nominal (depth, panel->limited, FALSE);
    guint ire;

    for (ire = 0; ire <= 100; ire += 10) {
      guint value = clh_levels_at_percent (&levels, ire);
      guint priority = ire == 0 || ire == 100 ? 1 : 3;

      if (value < info->range_min || value > info->range_max)
        continue;
      add_tick (ticks, &n, value, ire % 20 == 0, priority);
      g_snprintf (ticks[n - 1].label, sizeof (ticks[n - 1].label), "%u",
          ire);
    }
  }
  return n;
}

/* The legal marks: nominal black and white of the stream's limited range
 * for the channels drawn (luma's and R, G, B's white, 235 in 8 bits; a
 * colour difference's, 240, when one is drawn), labelled with their code
 * values beside a graticule of codes. */
static guint
legal_ticks (const GstClOverlayPanel *panel, GstHistogramMeta *meta,
    Tick *ticks)
{
  const GstHistogramInfo *info = &meta->info;
  const guint depth = depth_of (info);
  gboolean levels_drawn = FALSE, chroma_drawn = FALSE;
  guint n = 0, c;

  if (!panel->legal_marks || !panel->limited
      || info->mode == GST_HISTOGRAM_MODE_HUE)
    return 0;
  for (c = 0; c < MIN (info->n_channels, GST_CL_OVERLAY_MAX_CHANNELS);
      c++) {
    GstClOverlayChannelStyle style;

    gst_cl_overlay_channel_style (gst_histogram_meta_get_channel_name (meta,
            c), c, &style);
    levels_drawn |= style.exposure;
    chroma_drawn |= style.chroma;
  }
  if (levels_drawn || chroma_drawn) {
    ClhLevels luma = clh_levels_nominal (depth, TRUE, FALSE);
    ClhLevels chroma = clh_levels_nominal (depth, TRUE, TRUE);
    gboolean labelled = panel->graticule == GST_CL_OVERLAY_GRATICULE_CODES;

    if (luma.black >= info->range_min && luma.black <= info->range_max)
      add_tick (ticks, &n, luma.black, labelled, 0);
    if (levels_drawn && luma.white >= info->range_min
        && luma.white <= info->range_max)
      add_tick (ticks, &n, luma.white, labelled, 0);
    if (chroma_drawn && chroma.white >= info->range_min
        && chroma.white <= info->range_max)
      add_tick (ticks, &n, chroma.white, labelled, 0);
  }
  return n;
}

/* Line thickness: one pixel up to a box 200 high, then growing with it,
 * so that a 4K frame's graticule is as visible as a small one's. */
static gint
line_width (const GstClOverlayPanel *panel)
{
  return (gint) CLAMP (panel->height / 200, 1, 64);
}

/* The plot as its marks see it: where it lies, its value axis, and its
 * bars, which the marks stay under. */
typedef struct {
  const GstClOverlayPanelLayout *layout;
  const GstHistogramInfo *info;
  const GstClOverlayGraph *graph;
  guint64 scale_max;
} Plot;

/* The frame column that marks @value. */
static gint64
value_x (const Plot *plot, guint value)
{
  return plot->layout->plot_x + gst_cl_overlay_panel_value_column (value,
      plot->info->range_min, plot->info->range_max, plot->layout->plot_width);
}

/* The rows of frame column @x from the plot's top down to its tallest
 * bar: a mark is drawn there only, so that no mark hides a bar (a spike
 * at a legal level, whose mark stands in its column). */
static gint64
rows_over_bars (const Plot *plot, gint64 x)
{
  return plot->layout->plot_height - gst_cl_overlay_draw_graph_height
      (plot->graph, plot->scale_max, x - plot->layout->plot_x);
}

static void
draw_graticule_lines (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    const GstClOverlayPanel *panel, const Plot *plot, const Tick *ticks,
    guint n_ticks)
{
  const guint opacity = gst_cl_overlay_draw_opacity (panel->alpha
      * GRATICULE_SHARE);
  const gint t = line_width (panel);
  guint i;

  for (i = 0; i < n_ticks; i++) {
    gint64 left = value_x (plot, ticks[i].value) - (t - 1) / 2, x;

    for (x = left; x < left + t; x++)
      gst_cl_overlay_draw_rect (frame, painter, x, plot->layout->plot_y, 1,
          rows_over_bars (plot, x), white, opacity);
  }
}

/* Dashed lines: dashes and gaps of three line widths, the first dash at
 * the plot's top, down to the bars. On a frame of subsampled chroma a
 * line covers the whole chroma blocks its columns are in: a chroma
 * sample is drawn with the pixel it is co-sited with, and a line of one
 * pixel beside it would show no colour, only gray. */
static void
draw_legal_marks (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    const GstClOverlayPanel *panel, const Plot *plot, const Tick *ticks,
    guint n_ticks)
{
  const GstClOverlayPanelLayout *layout = plot->layout;
  const guint opacity = gst_cl_overlay_draw_opacity (panel->alpha);
  const gint t = line_width (panel);
  const gint64 dash = 3 * t;
  const gint64 block = gst_cl_overlay_draw_chroma_block (frame);
  /* Only the dashes that reach the part of the plot drawn in: a box set
   * in pixels may be 2^31 rows high, of which a frame shows a few. */
  const gint64 first = MAX (0, painter->clip.y - layout->plot_y)
      / (2 * dash) * (2 * dash);
  const gint64 end = MIN (layout->plot_height,
      painter->clip.y + painter->clip.h - layout->plot_y);
  guint i;

  for (i = 0; i < n_ticks; i++) {
    gint64 left = value_x (plot, ticks[i].value) - (t - 1) / 2;
    gint64 right = left + t, x, row;

    left -= ((left % block) + block) % block;
    right += (block - ((right % block) + block) % block) % block;
    for (x = left; x < right; x++) {
      const gint64 bottom = MIN (end, rows_over_bars (plot, x));

      for (row = first; row < bottom; row += 2 * dash)
        gst_cl_overlay_draw_rect (frame, painter, x, layout->plot_y + row,
            1, MIN (dash, bottom - row), legal_colour, opacity);
    }
  }
}

/* The labels of the graticule and of the legal marks in the band below
 * the plot, each centred under its line and kept inside the box; one
 * that would touch a label already placed is left out, in the order of
 * the ticks' priority. */
static void
draw_axis_labels (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    GstClOverlayText *text, const GstClOverlayPanel *panel, const Plot *plot,
    const Tick *ticks, guint n_ticks, const guint8 (*colours)[3])
{
  const GstClOverlayPanelLayout *layout = plot->layout;
  const guint opacity = gst_cl_overlay_draw_opacity (panel->alpha);
  const gint64 gap = (gint64) (layout->font_size * LABEL_GAP_SHARE);
  const gint64 band_y = layout->plot_y + layout->plot_height;
  gint64 placed[MAX_TICKS * 2][2];
  guint n_placed = 0, priority, i, j;

  for (priority = 0; priority <= 3; priority++) {
    for (i = 0; i < n_ticks; i++) {
      const GstClOverlayLabel *label;
      gint64 column, left, right;
      gboolean fits = TRUE;

      if (ticks[i].priority != priority || !ticks[i].labelled)
        continue;
      label = gst_cl_overlay_text_label (text, ticks[i].label,
          layout->font_size);
      column = value_x (plot, ticks[i].value);
      left = column - label->glyphs.width / 2;
      left = CLAMP (left, panel->x,
          panel->x + panel->width - label->glyphs.width);
      right = left + label->glyphs.width;
      for (j = 0; j < n_placed; j++)
        if (left < placed[j][1] + gap && placed[j][0] < right + gap)
          fits = FALSE;
      if (!fits || left < panel->x)
        continue;
      placed[n_placed][0] = left;
      placed[n_placed][1] = right;
      n_placed++;
      gst_cl_overlay_text_draw (frame, painter, label, left,
          band_y + (layout->line_height - label->glyphs.height) / 2,
          colours[i], opacity);
    }
  }
}

/* A channel's colour for its text: lightened towards white, as pure blue
 * or red strokes a few pixels wide are too dark to read over the box. */
static void
text_colour (const guint8 rgb[3], guint8 out[3])
{
  guint i;

  for (i = 0; i < 3; i++)
    out[i] = rgb[i] + (255 - rgb[i]) * TEXT_LIGHTEN / 100;
}

static const gchar *
graticule_unit (const GstClOverlayPanel *panel, const GstHistogramInfo *info)
{
  if (panel->graticule == GST_CL_OVERLAY_GRATICULE_IRE
      && info->mode != GST_HISTOGRAM_MODE_HUE)
    return panel->log_scale ? "IRE  log" : "IRE";
  if (panel->graticule != GST_CL_OVERLAY_GRATICULE_NONE)
    return panel->log_scale ? "code  log" : "code";
  return panel->log_scale ? "log" : NULL;
}

/* The legend: each channel's name in its colour, left to right, and at
 * the right the graticule's unit and the scale when logarithmic. */
static void
draw_legend (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    GstClOverlayText *text, const GstClOverlayPanel *panel,
    const GstClOverlayPanelLayout *layout, GstHistogramMeta *meta,
    guint n_channels)
{
  const guint opacity = gst_cl_overlay_draw_opacity (panel->alpha);
  const gint64 gap = (gint64) (layout->font_size * LABEL_GAP_SHARE);
  const gchar *unit = graticule_unit (panel, &meta->info);
  gint64 left = panel->x + gap / 2, right = panel->x + panel->width;
  guint c;

  if (unit) {
    const GstClOverlayLabel *label = gst_cl_overlay_text_label (text, unit,
        layout->font_size);

    if (label->glyphs.width <= panel->width) {
      right -= label->glyphs.width;
      gst_cl_overlay_text_draw (frame, painter, label, right, panel->y
          + (layout->line_height - label->glyphs.height) / 2, white,
          opacity);
    }
  }
  for (c = 0; c < n_channels; c++) {
    const gchar *name = gst_histogram_meta_get_channel_name (meta, c);
    GstClOverlayChannelStyle style;
    const GstClOverlayLabel *label;
    guint8 rgb[3];

    /* A meta's names are any string: Pango takes UTF-8 only. */
    if (!name || !g_utf8_validate (name, -1, NULL))
      continue;
    gst_cl_overlay_channel_style (name, c, &style);
    label = gst_cl_overlay_text_label (text, name, layout->font_size);
    if (left + label->glyphs.width > right - gap)
      break;
    text_colour (style.hue ? white : style.rgb, rgb);
    gst_cl_overlay_text_draw (frame, painter, label, left, panel->y
        + (layout->line_height - label->glyphs.height) / 2, rgb, opacity);
    left += label->glyphs.width + gap;
  }
}

/* Each channel's clipped shares at the plot's top, a line per channel:
 * crushed (at or below its clip-low level, "▼") at the left end of the
 * axis, where those samples are, clipped (at or above its clip-high
 * level, "▲") at the right end; in the channel's colour, lightened. */
static void
draw_clipping (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    GstClOverlayText *text, const GstClOverlayPanel *panel,
    const GstClOverlayPanelLayout *layout, GstHistogramMeta *meta,
    guint n_channels)
{
  const guint opacity = gst_cl_overlay_draw_opacity (panel->alpha);
  const gint64 margin = MAX (1, layout->font_size / 4);
  gint64 row = layout->plot_y + margin;
  guint c;

  for (c = 0; c < n_channels; c++) {
    const GstHistogramStatistics *statistics =
        gst_histogram_meta_get_statistics (meta, c);
    const GstClOverlayLabel *low, *high;
    GstClOverlayChannelStyle style;
    gchar share[16], line[32];
    gdouble low_percent, high_percent;
    gint64 high_x;
    guint8 rgb[3];

    gst_cl_overlay_channel_style (gst_histogram_meta_get_channel_name (meta,
            c), c, &style);
    if (!style.clipping || !gst_cl_overlay_channel_clipped (statistics,
            &low_percent, &high_percent))
      continue;
    gst_cl_overlay_channel_format_percent (low_percent, share, sizeof (share));
    g_snprintf (line, sizeof (line), "\u25bc%s", share);
    low = gst_cl_overlay_text_label (text, line, layout->font_size);
    gst_cl_overlay_channel_format_percent (high_percent, share,
        sizeof (share));
    g_snprintf (line, sizeof (line), "\u25b2%s", share);
    high = gst_cl_overlay_text_label (text, line, layout->font_size);
    if (row + MAX (low->glyphs.height, high->glyphs.height)
        > layout->plot_y + layout->plot_height)
      break;
    high_x = layout->plot_x + layout->plot_width - margin
        - high->glyphs.width;
    /* Side by side or not at all: a plot too narrow for both shows
     * neither rather than half of them. */
    if (layout->plot_x + margin + low->glyphs.width + layout->font_size
        > high_x)
      break;
    text_colour (style.rgb, rgb);
    gst_cl_overlay_text_draw (frame, painter, low, layout->plot_x + margin,
        row, rgb, opacity);
    gst_cl_overlay_text_draw (frame, painter, high, high_x, row, rgb,
        opacity);
    row += layout->line_height;
  }
}

/* The bar graph of the plot. */
static void
graph_of (const GstClOverlayPanel *panel,
    const GstClOverlayPanelLayout *layout, GstHistogramMeta *meta,
    guint n_channels, GstClOverlayGraph *graph)
{
  guint c;

  memset (graph, 0, sizeof (*graph));
  graph->x = layout->plot_x;
  graph->y = layout->plot_y;
  graph->width = layout->plot_width;
  graph->height = layout->plot_height;
  graph->alpha = panel->alpha;
  graph->log_scale = panel->log_scale;
  graph->n_bins = meta->info.n_bins;
  graph->n_channels = n_channels;
  for (c = 0; c < n_channels; c++) {
    GstClOverlayDrawChannel *channel = &graph->channels[c];
    GstClOverlayChannelStyle style;
    guint n_bins;

    gst_cl_overlay_channel_style (gst_histogram_meta_get_channel_name (meta,
            c), c, &style);
    channel->counts = gst_histogram_meta_get_counts (meta, c, &n_bins);
    memcpy (channel->rgb, style.rgb, 3);
    channel->hue = style.hue;
    channel->sets_scale = style.sets_scale;
  }
}

/* What the clip indicators show of the channels whose statistics hold
 * their clipped counts (gst_cl_overlay_channel_clipped()): each one's
 * colour and counts, the clipped-low ones in [0], the clipped-high in
 * [1]. */
typedef struct {
  guint n;
  guint8 rgb[GST_CL_OVERLAY_MAX_CHANNELS][3];
  guint64 clipped[GST_CL_OVERLAY_MAX_CHANNELS][2];
  guint64 samples[GST_CL_OVERLAY_MAX_CHANNELS];
} Clipping;

static void
clipping_of (GstHistogramMeta *meta, guint n_channels, Clipping *clipping)
{
  guint c;

  memset (clipping, 0, sizeof (*clipping));
  for (c = 0; c < n_channels; c++) {
    const GstHistogramStatistics *statistics =
        gst_histogram_meta_get_statistics (meta, c);
    GstClOverlayChannelStyle style;
    gdouble low, high;
    guint i = clipping->n;

    gst_cl_overlay_channel_style (gst_histogram_meta_get_channel_name (meta,
            c), c, &style);
    if (!style.clipping || !gst_cl_overlay_channel_clipped (statistics,
            &low, &high))
      continue;
    memcpy (clipping->rgb[i], style.rgb, 3);
    /* A meta's counts are not trusted: no share over the whole. */
    clipping->samples[i] = statistics->samples;
    clipping->clipped[i][0] = MIN (statistics->clipped_low,
        statistics->samples);
    clipping->clipped[i][1] = MIN (statistics->clipped_high,
        statistics->samples);
    clipping->n++;
  }
}

/* A gauge of clipped shares from the plot's bottom: each channel's bar
 * `ceil (clipped * rows / samples)` high, where bars overlap their
 * colours added, as the graph's are. */
static void
draw_gauge (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    const Clipping *clipping, guint side, gint64 x, gint64 width,
    gint64 bottom, gint64 rows, guint opacity)
{
  gint64 heights[GST_CL_OVERLAY_MAX_CHANNELS];
  gint64 low = 0;
  guint c;

  for (c = 0; c < clipping->n; c++)
    heights[c] = (gint64) gst_util_uint64_scale_ceil
        (clipping->clipped[c][side], rows, clipping->samples[c]);
  /* Run by run up the gauge, to the next height any bar ends at. */
  for (;;) {
    gint64 high = G_MAXINT64;
    guint sum[3] = { 0, 0, 0 };
    guint8 rgb[3];

    for (c = 0; c < clipping->n; c++)
      if (heights[c] > low) {
        high = MIN (high, heights[c]);
        sum[0] += clipping->rgb[c][0];
        sum[1] += clipping->rgb[c][1];
        sum[2] += clipping->rgb[c][2];
      }
    if (high == G_MAXINT64)
      return;
    rgb[0] = MIN (sum[0], 255);
    rgb[1] = MIN (sum[1], 255);
    rgb[2] = MIN (sum[2], 255);
    gst_cl_overlay_draw_rect (frame, painter, x, bottom - high, width,
        high - low, rgb, opacity);
    low = high;
  }
}

/* The clip indicators, left and right of the bars: from the plot's top,
 * a gap, a lamp of the indicator's width square, lit (crushed azure at
 * the left, clipped red at the right) when any channel's statistics
 * count a sample clipped there and dark gray otherwise, a gap, and the
 * gauge of the shares down to the plot's bottom. */
static void
draw_indicators (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    const GstClOverlayPanel *panel, const GstClOverlayPanelLayout *layout,
    const Clipping *clipping)
{
  const guint opacity = gst_cl_overlay_draw_opacity (panel->alpha);
  const gint64 k = layout->clip_width, gap = layout->clip_gap;
  const gint64 bottom = layout->plot_y + layout->plot_height;
  guint side, c;

  for (side = 0; side < 2; side++) {
    const gint64 x = side ? layout->plot_x + layout->plot_width + gap :
        panel->x;
    gboolean lit = FALSE;

    for (c = 0; c < clipping->n; c++)
      lit |= clipping->clipped[c][side] > 0;
    gst_cl_overlay_draw_rect (frame, painter, x, layout->plot_y + gap, k, k,
        !lit ? unlit_colour : side ? clipped_colour : crushed_colour,
        opacity);
    draw_gauge (frame, painter, clipping, side, x, k, bottom,
        layout->plot_height - k - 2 * gap, opacity);
  }
}

/* The box's black background beside the plot, where the clip
 * indicators stand (the graph draws its own under the bars). */
static void
draw_sides (GstVideoFrame *frame, const GstClOverlayPainter *painter,
    const GstClOverlayPanel *panel, const GstClOverlayPanelLayout *layout)
{
  const guint opacity = gst_cl_overlay_draw_opacity (panel->alpha
      * BACKGROUND_SHARE);
  const gint64 right = layout->plot_x + layout->plot_width;

  gst_cl_overlay_draw_rect (frame, painter, panel->x, layout->plot_y,
      layout->plot_x - panel->x, layout->plot_height, black, opacity);
  gst_cl_overlay_draw_rect (frame, painter, right, layout->plot_y,
      panel->x + panel->width - right, layout->plot_height, black, opacity);
}

/**
 * gst_cl_overlay_panel_draw:
 * @frame: a frame of 8-bit components, mapped for writing
 * @text: the renderer of the panel's labels
 * @panel: what to draw and where
 * @meta: the 1-D histogram drawn, with its statistics
 *
 * Draws, over a box of black at three quarters of the panel's opacity:
 * the bars of the first %GST_CL_OVERLAY_MAX_CHANNELS channels in the
 * plot; the graticule's lines (white, at 40 % of the opacity) and the
 * legal marks (dashed amber) above the bars, which hide them; the
 * legend in the band above the plot; the graticule's labels in the band
 * below; each channel's clipped shares at the plot's top, at the ends of
 * the axis where the clipped samples are; and, when a channel's
 * statistics hold its clipped counts, the clip indicators beside the
 * plot. Only the part of the box inside @frame is drawn.
 */
void
gst_cl_overlay_panel_draw (GstVideoFrame *frame, GstClOverlayText *text,
    const GstClOverlayPanel *panel, GstHistogramMeta *meta)
{
  const guint n_channels = MIN (meta->info.n_channels,
      GST_CL_OVERLAY_MAX_CHANNELS);
  const gboolean valid_range = meta->info.range_max >= meta->info.range_min;
  GstClOverlayPanelLayout layout;
  GstClOverlayPainter painter;
  GstClOverlayGraph graph;
  Clipping clipping;
  Plot plot;
  Tick ticks[MAX_TICKS], legal[MAX_TICKS];
  guint8 colours[2 * MAX_TICKS][3];
  Tick labelled[2 * MAX_TICKS];
  guint n_ticks = 0, n_legal = 0, n_labelled = 0, i;

  gst_cl_overlay_panel_layout (panel, text, &layout);
  clipping_of (meta, n_channels, &clipping);
  if (clipping.n > 0)
    gst_cl_overlay_panel_layout_indicators (panel, &layout);
  gst_cl_overlay_painter_init (&painter, &frame->info);
  /* Whatever a label's or a line's size, nothing strays out of the box. */
  gst_cl_overlay_painter_clip (&painter, panel->x, panel->y, panel->width,
      panel->height);
  if (layout.top_band)
    gst_cl_overlay_draw_rect (frame, &painter, panel->x, panel->y,
        panel->width, layout.plot_y - panel->y, black,
        gst_cl_overlay_draw_opacity (panel->alpha * BACKGROUND_SHARE));
  if (layout.bottom_band)
    gst_cl_overlay_draw_rect (frame, &painter, panel->x,
        layout.plot_y + layout.plot_height, panel->width,
        panel->y + panel->height - layout.plot_y - layout.plot_height, black,
        gst_cl_overlay_draw_opacity (panel->alpha * BACKGROUND_SHARE));
  graph_of (panel, &layout, meta, n_channels, &graph);
  gst_cl_overlay_draw_graph (frame, &graph);
  if (layout.clip_width > 0) {
    draw_sides (frame, &painter, panel, &layout);
    draw_indicators (frame, &painter, panel, &layout, &clipping);
  }

  plot.layout = &layout;
  plot.info = &meta->info;
  plot.graph = &graph;
  plot.scale_max = gst_cl_overlay_draw_graph_scale (&graph);
  if (valid_range) {
    n_ticks = graticule_ticks (panel, &meta->info, ticks);
    n_legal = legal_ticks (panel, meta, legal);
  }
  draw_graticule_lines (frame, &painter, panel, &plot, ticks, n_ticks);
  draw_legal_marks (frame, &painter, panel, &plot, legal, n_legal);
  if (layout.font_size == 0)
    return;

  if (layout.bottom_band) {
    for (i = 0; i < n_legal; i++) {
      labelled[n_labelled] = legal[i];
      memcpy (colours[n_labelled++], legal_colour, 3);
    }
    for (i = 0; i < n_ticks; i++) {
      labelled[n_labelled] = ticks[i];
      memcpy (colours[n_labelled++], white, 3);
    }
    draw_axis_labels (frame, &painter, text, panel, &plot, labelled,
        n_labelled, (const guint8 (*)[3]) colours);
  }
  if (layout.top_band)
    draw_legend (frame, &painter, text, panel, &layout, meta, n_channels);
  if (panel->clipping_text)
    draw_clipping (frame, &painter, text, panel, &layout, meta, n_channels);
}
