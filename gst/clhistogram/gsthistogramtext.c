/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gsthistogramtext.h"

#include <pango/pangocairo.h>

/* The typeface of every label: fontconfig's sans-serif (DejaVu Sans on
 * Debian), bold, which stays legible small and over moving video. */
#define FONT_FAMILY "Sans"

/* Labels kept between frames before the cache starts again: the graph's
 * own labels are a few dozen; the percentages vary, and a long stream
 * would otherwise keep every value it ever showed. */
#define MAX_CACHED_LABELS 512

struct _GstHistogramText {
  PangoFontMap *font_map;
  PangoContext *context;
  /* "size:string" -> GstHistogramLabel, freed with the table. */
  GHashTable *labels;
};

static void
label_free (gpointer data)
{
  GstHistogramLabel *label = data;

  g_free ((gpointer) label->glyphs.data);
  g_free ((gpointer) label->halo.data);
  g_free (label);
}

/**
 * gst_histogram_text_new:
 *
 * Makes a text renderer of its own font map, so that streaming threads of
 * several overlays never share Pango state.
 *
 * Returns: (transfer full): the renderer; free it with
 *   gst_histogram_text_free()
 */
GstHistogramText *
gst_histogram_text_new (void)
{
  GstHistogramText *text = g_new0 (GstHistogramText, 1);
  cairo_font_options_t *options = cairo_font_options_create ();

  text->font_map = pango_cairo_font_map_new ();
  text->context = pango_font_map_create_context (text->font_map);
  /* Gray antialiasing: subpixel (coloured) fringes would be wrong on a
   * video frame, whose pixels have no fixed RGB stripe order. */
  cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_SLIGHT);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_ON);
  pango_cairo_context_set_font_options (text->context, options);
  cairo_font_options_destroy (options);
  text->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      label_free);
  return text;
}

void
gst_histogram_text_free (GstHistogramText *text)
{
  if (!text)
    return;
  g_hash_table_unref (text->labels);
  g_object_unref (text->context);
  g_object_unref (text->font_map);
  g_free (text);
}

/**
 * gst_histogram_text_trim:
 * @text: a text renderer
 *
 * Forgets the labels rendered so far when they have grown many; call it
 * between frames only, as the labels gst_histogram_text_label() returned
 * are freed.
 */
void
gst_histogram_text_trim (GstHistogramText *text)
{
  if (g_hash_table_size (text->labels) > MAX_CACHED_LABELS)
    g_hash_table_remove_all (text->labels);
}

/* The coverage of @glyphs spread by @radius pixels each way (a square
 * maximum filter, rows then columns): the halo drawn under the text. */
static guint8 *
dilate (const guint8 *glyphs, gint width, gint height, gint radius)
{
  guint8 *across = g_malloc0 ((gsize) width * height);
  guint8 *halo = g_malloc0 ((gsize) width * height);
  gint x, y, k;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      guint8 m = 0;

      for (k = MAX (0, x - radius); k <= MIN (width - 1, x + radius); k++)
        m = MAX (m, glyphs[(gsize) y * width + k]);
      across[(gsize) y * width + x] = m;
    }
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      guint8 m = 0;

      for (k = MAX (0, y - radius); k <= MIN (height - 1, y + radius); k++)
        m = MAX (m, across[(gsize) k * width + x]);
      halo[(gsize) y * width + x] = m;
    }
  g_free (across);
  return halo;
}

static GstHistogramLabel *
render (GstHistogramText *text, const gchar *string, guint pixel_size)
{
  GstHistogramLabel *label = g_new0 (GstHistogramLabel, 1);
  PangoLayout *layout = pango_layout_new (text->context);
  PangoFontDescription *font = pango_font_description_new ();
  PangoRectangle ink, logical, box;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint8 *glyphs;
  gint width, height, y;

  pango_font_description_set_family_static (font, FONT_FAMILY);
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_font_description_set_absolute_size (font,
      (gdouble) pixel_size * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_text (layout, string, -1);
  pango_layout_get_pixel_extents (layout, &ink, &logical);
  /* The ink may stand out of the logical box (a glyph's overhang): the
   * mask takes both. */
  box = logical;
  if (ink.width > 0 && ink.height > 0) {
    box.x = MIN (ink.x, logical.x);
    box.y = MIN (ink.y, logical.y);
    box.width = MAX (ink.x + ink.width, logical.x + logical.width) - box.x;
    box.height = MAX (ink.y + ink.height, logical.y + logical.height)
        - box.y;
  }

  label->pad = MAX (1, (gint) pixel_size / 10);
  width = MAX (box.width, 1) + 2 * label->pad;
  height = MAX (box.height, 1) + 2 * label->pad;
  surface = cairo_image_surface_create (CAIRO_FORMAT_A8, width, height);
  cr = cairo_create (surface);
  cairo_move_to (cr, label->pad - box.x, label->pad - box.y);
  pango_cairo_show_layout (cr, layout);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  glyphs = g_malloc ((gsize) width * height);
  for (y = 0; y < height; y++)
    memcpy (glyphs + (gsize) y * width, cairo_image_surface_get_data (surface)
        + (gsize) y * cairo_image_surface_get_stride (surface), width);
  cairo_surface_destroy (surface);
  g_object_unref (layout);

  label->glyphs.data = glyphs;
  label->glyphs.stride = width;
  label->glyphs.width = width;
  label->glyphs.height = height;
  label->halo = label->glyphs;
  label->halo.data = dilate (glyphs, width, height, label->pad);
  return label;
}

/**
 * gst_histogram_text_label:
 * @text: a text renderer
 * @string: the text, UTF-8, one line
 * @pixel_size: the font's size (its em), in pixels of the frame
 *
 * Returns: (transfer none): @string rendered in bold sans-serif, valid
 *   until gst_histogram_text_trim() or gst_histogram_text_free()
 */
const GstHistogramLabel *
gst_histogram_text_label (GstHistogramText *text, const gchar *string,
    guint pixel_size)
{
  gchar *key = g_strdup_printf ("%u:%s", pixel_size, string);
  GstHistogramLabel *label = g_hash_table_lookup (text->labels, key);

  if (label) {
    g_free (key);
    return label;
  }
  label = render (text, string, pixel_size);
  g_hash_table_insert (text->labels, key, label);
  return label;
}

/**
 * gst_histogram_text_line_height:
 * @text: a text renderer
 * @pixel_size: the font's size, in pixels
 *
 * Returns: the height in pixels of a label of digits at @pixel_size,
 *   halo included: the height of a line of labels
 */
gint
gst_histogram_text_line_height (GstHistogramText *text, guint pixel_size)
{
  return gst_histogram_text_label (text, "0123456789%", pixel_size)->
      glyphs.height;
}

/**
 * gst_histogram_text_draw:
 * @frame: a frame of 8-bit components, mapped for writing
 * @painter: the frame's colour terms
 * @label: a label from gst_histogram_text_label()
 * @x: the left edge of the label's mask, in pixels of the frame
 * @y: its top edge
 * @rgb: the text's colour
 * @opacity: the text's opacity, 0..255; its halo, black, has three
 *   quarters of it
 *
 * Blends the halo and then the text into @frame.
 */
void
gst_histogram_text_draw (GstVideoFrame *frame,
    const GstHistogramPainter *painter, const GstHistogramLabel *label,
    gint64 x, gint64 y, const guint8 rgb[3], guint opacity)
{
  static const guint8 black[3] = { 0, 0, 0 };

  gst_histogram_draw_mask (frame, painter, x, y, &label->halo, black,
      opacity * 3 / 4);
  gst_histogram_draw_mask (frame, painter, x, y, &label->glyphs, rgb,
      opacity);
}
