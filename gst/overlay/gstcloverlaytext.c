/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstcloverlaytext.h"

#include <pango/pangocairo.h>

/* The typeface of every label: fontconfig's sans-serif (DejaVu Sans on
 * Debian), bold, which stays legible small and over moving video. */
#define FONT_FAMILY "Sans"

/* Labels kept between frames before the cache starts again: the graph's
 * own labels are a few dozen; the percentages vary, and a long stream
 * would otherwise keep every value it ever showed. */
#define MAX_CACHED_LABELS 512
/* The widest label the overlay writes, in ems: a legend of 8 channels. */
#define MAX_LABEL_EMS 64

struct _GstClOverlayText {
  PangoFontMap *font_map;
  PangoContext *context;
  /* "size:string" -> GstClOverlayLabel, freed with the table. */
  GHashTable *labels;
  /* A label could not be rendered (no usable font, a cairo error): from
   * then on every label is empty. */
  gboolean failed;
  GstClOverlayLabel empty;
};

static void
label_free (gpointer data)
{
  GstClOverlayLabel *label = data;

  g_free ((gpointer) label->glyphs.data);
  g_free ((gpointer) label->halo.data);
  g_free (label);
}

/**
 * gst_cl_overlay_text_new:
 *
 * Makes a text renderer of its own font map, so that streaming threads of
 * several overlays never share Pango state.
 *
 * Returns: (transfer full): the renderer; free it with
 *   gst_cl_overlay_text_free()
 */
static PangoFontDescription *
font_new (guint pixel_size)
{
  PangoFontDescription *font = pango_font_description_new ();

  pango_font_description_set_family_static (font, FONT_FAMILY);
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_font_description_set_absolute_size (font,
      (gdouble) pixel_size * PANGO_SCALE);
  return font;
}

/* Whether fontconfig gives Pango a font with digits: a machine without
 * any font (or without fontconfig's configuration) has none, and Pango
 * would draw each character as a box of its code. */
static gboolean
font_found (GstClOverlayText *text)
{
  PangoFontDescription *description = font_new (16);
  PangoFont *font = pango_font_map_load_font (text->font_map, text->context,
      description);
  gboolean found = font && pango_font_has_char (font, '0');

  g_clear_object (&font);
  pango_font_description_free (description);
  return found;
}

GstClOverlayText *
gst_cl_overlay_text_new (void)
{
  GstClOverlayText *text = g_new0 (GstClOverlayText, 1);
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
  text->empty.pad = 0;
  text->failed = !font_found (text);
  return text;
}

void
gst_cl_overlay_text_free (GstClOverlayText *text)
{
  if (!text)
    return;
  g_hash_table_unref (text->labels);
  g_object_unref (text->context);
  g_object_unref (text->font_map);
  g_free (text);
}

/**
 * gst_cl_overlay_text_trim:
 * @text: a text renderer
 *
 * Forgets the labels rendered so far when they have grown many; call it
 * between frames only, as the labels gst_cl_overlay_text_label() returned
 * are freed.
 */
void
gst_cl_overlay_text_trim (GstClOverlayText *text)
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

static GstClOverlayLabel *
render (GstClOverlayText *text, const gchar *string, guint pixel_size)
{
  GstClOverlayLabel *label = g_new0 (GstClOverlayLabel, 1);
  PangoLayout *layout = pango_layout_new (text->context);
  PangoFontDescription *font = font_new (pixel_size);
  PangoRectangle ink, logical, box;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint8 *glyphs;
  const guint8 *data;
  gint width, height, y;

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
  /* A one-line label of the overlay's is a few dozen ems wide and about
   * one high; extents far past that (a font that did not load) are not
   * rendered, and neither is a surface cairo could not make. */
  if (box.width > MAX_LABEL_EMS * (gint) pixel_size
      || box.height > 4 * (gint) pixel_size) {
    box.width = box.height = 0;
    text->failed = TRUE;
  }
  width = MAX (box.width, 1) + 2 * label->pad;
  height = MAX (box.height, 1) + 2 * label->pad;
  label->glyphs.stride = width;
  label->glyphs.width = width;
  label->glyphs.height = height;
  label->halo = label->glyphs;
  if (box.width > 0) {
    surface = cairo_image_surface_create (CAIRO_FORMAT_A8, width, height);
    cr = cairo_create (surface);
    cairo_move_to (cr, label->pad - box.x, label->pad - box.y);
    pango_cairo_show_layout (cr, layout);
    if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
      text->failed = TRUE;
    cairo_destroy (cr);
    cairo_surface_flush (surface);
    data = cairo_image_surface_get_data (surface);
    if (data && cairo_surface_status (surface) == CAIRO_STATUS_SUCCESS) {
      glyphs = g_malloc ((gsize) width * height);
      for (y = 0; y < height; y++)
        memcpy (glyphs + (gsize) y * width, data + (gsize) y
            * cairo_image_surface_get_stride (surface), width);
      label->glyphs.data = glyphs;
      label->halo.data = dilate (glyphs, width, height, label->pad);
    } else {
      text->failed = TRUE;
    }
    cairo_surface_destroy (surface);
  }
  g_object_unref (layout);
  return label;
}

/**
 * gst_cl_overlay_text_label:
 * @text: a text renderer
 * @string: the text, UTF-8, one line
 * @pixel_size: the font's size (its em), in pixels of the frame
 *
 * Returns: (transfer none): @string rendered in bold sans-serif, valid
 *   until gst_cl_overlay_text_trim() or gst_cl_overlay_text_free(); once a
 *   label could not be rendered (gst_cl_overlay_text_failed()), every label
 *   is empty: no size, no masks' data, drawing nothing
 */
const GstClOverlayLabel *
gst_cl_overlay_text_label (GstClOverlayText *text, const gchar *string,
    guint pixel_size)
{
  gchar *key;
  GstClOverlayLabel *label;

  if (text->failed)
    return &text->empty;
  key = g_strdup_printf ("%u:%s", pixel_size, string);
  label = g_hash_table_lookup (text->labels, key);

  if (label) {
    g_free (key);
    return label;
  }
  label = render (text, string, pixel_size);
  g_hash_table_insert (text->labels, key, label);
  return label;
}

/**
 * gst_cl_overlay_text_failed:
 * @text: a text renderer
 *
 * Returns: whether text cannot be rendered: fontconfig gives no font
 *   with digits, or one could not be loaded, or cairo failed
 */
gboolean
gst_cl_overlay_text_failed (GstClOverlayText *text)
{
  return text->failed;
}

/**
 * gst_cl_overlay_text_line_height:
 * @text: a text renderer
 * @pixel_size: the font's size, in pixels
 *
 * Returns: the height in pixels of a label of digits at @pixel_size,
 *   halo included: the height of a line of labels; 0 when text cannot be
 *   rendered
 */
gint
gst_cl_overlay_text_line_height (GstClOverlayText *text, guint pixel_size)
{
  const GstClOverlayLabel *label = gst_cl_overlay_text_label (text,
      "0123456789%", pixel_size);

  /* The label that found the failure is not empty, but the next are. */
  return text->failed ? 0 : label->glyphs.height;
}

/**
 * gst_cl_overlay_text_draw:
 * @frame: a frame of 8-bit components, mapped for writing
 * @painter: the frame's colour terms
 * @label: a label from gst_cl_overlay_text_label()
 * @x: the left edge of the label's mask, in pixels of the frame
 * @y: its top edge
 * @rgb: the text's colour
 * @opacity: the text's opacity, 0..255; its halo, black, has three
 *   quarters of it
 *
 * Blends the halo and then the text into @frame.
 */
void
gst_cl_overlay_text_draw (GstVideoFrame *frame,
    const GstClOverlayPainter *painter, const GstClOverlayLabel *label,
    gint64 x, gint64 y, const guint8 rgb[3], guint opacity)
{
  static const guint8 black[3] = { 0, 0, 0 };

  gst_cl_overlay_draw_mask (frame, painter, x, y, &label->halo, black,
      opacity * 3 / 4);
  gst_cl_overlay_draw_mask (frame, painter, x, y, &label->glyphs, rgb,
      opacity);
}
