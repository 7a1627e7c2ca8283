/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcloverlaychannel.h"

static const struct {
  const gchar *name;
  guint8 rgb[3];
} channel_colours[] = {
  {"Y", {255, 255, 255}},
  {"R", {255, 0, 0}},
  {"G", {0, 255, 0}},
  {"B", {0, 0, 255}},
  {"U", {0, 128, 255}},
  {"V", {255, 64, 0}},
  {"max", {255, 255, 0}},
  {"A", {160, 160, 160}},
};

static const guint8 other_colours[][3] = {
  {255, 0, 255}, {0, 255, 255}, {255, 160, 0}, {160, 96, 255},
};

static gboolean
name_is (const gchar *name, const gchar *const *names)
{
  for (; *names; names++)
    if (g_strcmp0 (name, *names) == 0)
      return TRUE;
  return FALSE;
}

/**
 * gst_cl_overlay_channel_style:
 * @name: the channel's name in the meta (`Y`, `R`, `U`, `hue`, ...)
 * @index: its place among the meta's channels, which picks the colour of
 *   a channel of no known name
 * @style: (out): how it is drawn
 *
 * Colours: `Y` white; `R`, `G`, `B` red, green, blue; `U` azure; `V`
 * orange-red; `max` yellow; `A` light gray; others magenta, cyan, orange,
 * violet in turn.
 */
void
gst_cl_overlay_channel_style (const gchar *name, guint index,
    GstClOverlayChannelStyle *style)
{
  static const gchar *const exposure[] = { "Y", "R", "G", "B", "max", NULL };
  static const gchar *const chroma[] = { "U", "V", NULL };
  const guint8 *rgb = other_colours[index % G_N_ELEMENTS (other_colours)];
  guint i;

  for (i = 0; i < G_N_ELEMENTS (channel_colours); i++)
    if (g_strcmp0 (name, channel_colours[i].name) == 0)
      rgb = channel_colours[i].rgb;
  memcpy (style->rgb, rgb, 3);
  style->hue = g_strcmp0 (name, "hue") == 0;
  style->sets_scale = g_strcmp0 (name, "A") != 0;
  style->exposure = name_is (name, exposure);
  style->chroma = name_is (name, chroma);
  style->clipping = style->exposure || style->chroma;
}

/**
 * gst_cl_overlay_channel_clipped:
 * @statistics: (nullable): a channel's statistics from its meta
 * @low_percent: (out): its `clipped_low` in percent of its `samples`
 * @high_percent: (out): its `clipped_high` in percent of its `samples`
 *
 * The shares are clamped to 100: a meta's counts are not trusted to be
 * consistent.
 *
 * Returns: whether the statistics hold the clipped counts (their summary
 *   was computed) over at least one sample
 */
gboolean
gst_cl_overlay_channel_clipped (const GstHistogramStatistics *statistics,
    gdouble *low_percent, gdouble *high_percent)
{
  if (!statistics
      || !(statistics->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY)
      || statistics->samples == 0)
    return FALSE;
  *low_percent = MIN (100.0, 100.0 * statistics->clipped_low
      / statistics->samples);
  *high_percent = MIN (100.0, 100.0 * statistics->clipped_high
      / statistics->samples);
  return TRUE;
}

/**
 * gst_cl_overlay_channel_format_percent:
 * @percent: a share, 0..100
 * @out: (out caller-allocates): the text
 * @size: @out's size in bytes
 *
 * Writes @percent as an operator reads it: `0%` for none, `<0.1%` for a
 * trace, one decimal under 10 % (`8.4%`), none above (`43%`).
 */
void
gst_cl_overlay_channel_format_percent (gdouble percent, gchar *out,
    gsize size)
{
  gchar number[G_ASCII_DTOSTR_BUF_SIZE];

  if (percent <= 0.0) {
    g_strlcpy (out, "0%", size);
    return;
  }
  if (percent < 0.05) {
    g_strlcpy (out, "<0.1%", size);
    return;
  }
  /* A point whatever the locale: the same picture everywhere. */
  g_ascii_formatd (number, sizeof (number), percent < 9.95 ? "%.1f" : "%.0f",
      percent);
  g_snprintf (out, size, "%s%%", number);
}
