/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The marks engine against the golden reference, byte for byte over every
 * plane: every format clhistogram reads and every depth, random, one-value,
 * gradient and luma-ramp frames, odd sizes, padded strides, each mark alone
 * and all together with random levels, stripes and band tables, with
 * the false colour's legend in random corners; marking in place; the
 * legend worked out by hand, present and absent; requests the engine refuses; the same through the device's
 * submission thread. A few frames worked out by hand check the reference
 * itself. */
#include <string.h>

#include "clh-engine-tuning.h"
#include "clh-marks-legend.h"
#include "clh-reference-marks.h"
#include "clh-test-frame.h"
#include "clh-test-run.h"

static ClhContext *context;
static ClhMarks *marks;

static const struct {
  guint width, height;
} sizes[] = {
  {1, 1}, {2, 2}, {7, 5}, {33, 17}, {64, 48}, {97, 61},
};

static guint
top_of (const ClhFrame *f)
{
  return f->depth == 16 ? 0xffffu : (1u << f->depth) - 1;
}

static ClhMarksLayout
layout_of (ClhFormatClass klass)
{
  return klass == CLH_FORMAT_GRAY ? CLH_MARKS_GRAY :
      klass == CLH_FORMAT_RGB ? CLH_MARKS_RGB : CLH_MARKS_YUV;
}

static void
random_colour (GRand *rand, guint top, ClhMarkColour *colour)
{
  guint c;

  for (c = 0; c < 3; c++)
    colour->values[c] = g_rand_int_range (rand, 0, top + 1);
}

/* Marks @flags with random levels, stripes, colours and bands, and a
 * legend in a random corner (or none) with bands' levels in percent. */
static void
random_spec (const ClhTestFrame *tf, guint flags, GRand *rand,
    ClhMarksSpec *spec)
{
  const guint top = top_of (&tf->frame);
  guint i, first = 0;

  memset (spec, 0, sizeof (*spec));
  spec->marks = flags;
  spec->layout = layout_of (tf->klass);
  for (i = 0; i < 3; i++)
    spec->components[i] = i;
  spec->zebra_level = g_rand_int_range (rand, 0, top + 2);
  spec->zebra_low_level = g_rand_int_range (rand, 0, top + 1);
  spec->zebra_period = g_rand_int_range (rand, 2, 41);
  spec->zebra_phase = g_rand_int_range (rand, 0, spec->zebra_period);
  random_colour (rand, top, &spec->zebra_colour);
  random_colour (rand, top, &spec->zebra_low_colour);
  random_colour (rand, top, &spec->brng_colour);
  spec->n_bands = g_rand_int_range (rand, 1, CLH_MARKS_MAX_BANDS + 1);
  for (i = 0; i < spec->n_bands; i++) {
    spec->bands[i].first = first;
    spec->bands[i].style = g_rand_int_range (rand, 0, 3);
    random_colour (rand, top, &spec->bands[i].colour);
    spec->bands[i].level = (gint) first * 100.0 / top
        + g_rand_int_range (rand, -5, 6) / 10.0;
    /* Sometimes an empty band (two of one first). */
    first += g_rand_int_range (rand, 0, top / 8 + 2);
  }
  spec->legend = g_rand_int_range (rand, CLH_MARKS_LEGEND_NONE,
      CLH_MARKS_LEGEND_BOTTOM_RIGHT + 1);
  random_colour (rand, top, &spec->legend_ink);
  random_colour (rand, top, &spec->legend_paper);
}

/* Sets every sample of component @c to @v, its other bits left. */
static void
set_component (ClhTestFrame *tf, guint c, guint v)
{
  ClhFrame *f = &tf->frame;
  const ClhComponent *comp = &f->components[c];
  const guint w = clh_component_width (f, c), h = clh_component_height (f, c);
  guint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      guint8 *p = tf->memory[comp->plane] + f->planes[comp->plane].stride * y
          + comp->offset + (gsize) comp->pixel_stride * x;
      const guint mask = top_of (f) << comp->shift;
      guint stored = f->sample == CLH_SAMPLE_8 ? p[0] :
          f->sample == CLH_SAMPLE_16LE ? (guint) (p[0] | p[1] << 8) :
          (guint) (p[0] << 8 | p[1]);

      stored = (stored & ~mask) | ((v << comp->shift) & mask);
      if (f->sample == CLH_SAMPLE_8) {
        p[0] = stored;
      } else if (f->sample == CLH_SAMPLE_16LE) {
        p[0] = stored & 0xff;
        p[1] = stored >> 8;
      } else {
        p[0] = stored >> 8;
        p[1] = stored & 0xff;
      }
    }
}

/* Luma (or R, G, B) rising from 0 to the top across the frame, chroma
 * across its rows: every band, both zebras and BRNG on one frame. */
static void
luma_ramp (ClhTestFrame *tf)
{
  ClhFrame *f = &tf->frame;
  guint c, x, y;

  for (c = 0; c < f->n_components; c++) {
    const ClhComponent *comp = &f->components[c];
    const guint w = clh_component_width (f, c);
    const guint h = clh_component_height (f, c);

    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        const guint64 t = c == 0 || tf->klass == CLH_FORMAT_RGB ?
            (guint64) x * top_of (f) / MAX (w - 1, 1) :
            (guint64) y * top_of (f) / MAX (h - 1, 1);
        guint8 *p = tf->memory[comp->plane] + f->planes[comp->plane].stride
            * y + comp->offset + (gsize) comp->pixel_stride * x;
        const guint stored = (guint) t << comp->shift;

        if (f->sample == CLH_SAMPLE_8) {
          p[0] = stored;
        } else if (f->sample == CLH_SAMPLE_16LE) {
          p[0] = stored & 0xff;
          p[1] = stored >> 8;
        } else {
          p[0] = stored >> 8;
          p[1] = stored & 0xff;
        }
      }
  }
}

/* A frame's planes copied into fresh memory (their padding kept). */
static void
alloc_dest (const ClhFrame *f, guint8 *dest[CLH_MAX_PLANES], guint8 fill)
{
  guint p;

  memset (dest, 0, sizeof (guint8 *) * CLH_MAX_PLANES);
  for (p = 0; p < f->n_planes; p++) {
    dest[p] = g_malloc (clh_frame_plane_span (f, p));
    memset (dest[p], fill, clh_frame_plane_span (f, p));
  }
}

static void
free_dest (guint8 *dest[CLH_MAX_PLANES])
{
  guint p;

  for (p = 0; p < CLH_MAX_PLANES; p++)
    g_free (dest[p]);
}

/* The engine's marked copy equals the reference's, every byte of every
 * plane's span. */
static void
assert_marks_equal (const ClhFrame *f, const ClhMarksSpec *spec,
    const gchar *what)
{
  guint8 *got[CLH_MAX_PLANES], *want[CLH_MAX_PLANES];
  GError *err = NULL;
  guint p;

  alloc_dest (f, got, 0x11);
  alloc_dest (f, want, 0x22);
  if (!clh_marks_draw (marks, f, spec, got, &err))
    g_error ("%s: %s", what, err->message);
  clh_reference_marks (f, spec, want);
  for (p = 0; p < f->n_planes; p++) {
    const gsize n = clh_frame_plane_span (f, p);
    gsize i;

    for (i = 0; i < n && got[p][i] == want[p][i]; i++);
    if (i < n)
      g_error ("%s: plane %u byte %" G_GSIZE_FORMAT " (row %" G_GSIZE_FORMAT
          ") is %u, the reference's %u", what, p, i, i / f->planes[p].stride,
          got[p][i], want[p][i]);
  }
  free_dest (got);
  free_dest (want);
}

static const guint flag_sets[] = {
  CLH_MARK_ZEBRA, CLH_MARK_ZEBRA_LOW, CLH_MARK_FALSE_COLOUR, CLH_MARK_BRNG,
  CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW | CLH_MARK_FALSE_COLOUR
      | CLH_MARK_BRNG, CLH_MARK_ZEBRA | CLH_MARK_FALSE_COLOUR, 0,
};

/* Kinds of frame content beyond clh_test_fill()'s. */
enum {
  ONE_VALUE = CLH_TEST_N_CONTENTS,
  LUMA_RAMP,
  N_KINDS,
};

static ClhTestFrame *
make_frame (const gchar *format, guint w, guint h, guint extra, guint kind,
    guint32 seed, GRand *rand)
{
  ClhTestFrame *tf = clh_test_frame_new (format, w, h, extra,
      kind < CLH_TEST_N_CONTENTS ? kind : CLH_TEST_RANDOM, seed);
  const guint top = top_of (&tf->frame);
  guint c;

  if (kind == LUMA_RAMP)
    luma_ramp (tf);
  /* One value per component, around the broadcast range's edges or
   * anywhere. */
  for (c = 0; kind == ONE_VALUE && c < tf->frame.n_components; c++) {
    const guint scale = 1u << (tf->frame.depth - 8);
    const guint edges[] = { 15 * scale, 16 * scale, 235 * scale,
      236 * scale, 240 * scale, 241 * scale,
      g_rand_int_range (rand, 0, top + 1)
    };

    set_component (tf, c, edges[g_rand_int_range (rand, 0,
                G_N_ELEMENTS (edges))]);
  }
  return tf;
}

static void
test_format (gconstpointer data)
{
  const gchar *format = data;
  GRand *rand = g_rand_new_with_seed (g_str_hash (format));
  guint s, kind, extra, f, n = 0;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (kind = 0; kind < N_KINDS; kind++)
      for (extra = 0; extra <= 5; extra += 5)
        for (f = 0; f < G_N_ELEMENTS (flag_sets); f++) {
          ClhTestFrame *tf = make_frame (format, sizes[s].width,
              sizes[s].height, extra, kind, n, rand);
          ClhMarksSpec spec;
          gchar *what = g_strdup_printf ("%s %ux%u +%u kind %u marks 0x%x",
              format, sizes[s].width, sizes[s].height, extra, kind,
              flag_sets[f]);

          random_spec (tf, flag_sets[f], rand, &spec);
          assert_marks_equal (&tf->frame, &spec, what);
          g_free (what);
          clh_test_frame_free (tf);
          n++;
        }
  g_test_message ("%s: %u frames", format, n);
  g_rand_free (rand);
}

/* Marking in place: @dest the frame's own planes. */
static void
test_in_place (void)
{
  static const gchar *formats[] = { "I420", "YUY2", "P010_10LE", "RGBA" };
  GRand *rand = g_rand_new_with_seed (7);
  guint i, p;

  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    ClhTestFrame *tf = make_frame (formats[i], 45, 31, 3, CLH_TEST_RANDOM,
        i, rand);
    ClhMarksSpec spec;
    guint8 *want[CLH_MAX_PLANES];
    GError *err = NULL;

    random_spec (tf, CLH_MARK_ZEBRA | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG,
        rand, &spec);
    alloc_dest (&tf->frame, want, 0);
    clh_reference_marks (&tf->frame, &spec, want);
    g_assert_true (clh_marks_draw (marks, &tf->frame, &spec, tf->memory,
            &err));
    g_assert_no_error (err);
    for (p = 0; p < tf->frame.n_planes; p++)
      g_assert_cmpmem (tf->memory[p], clh_frame_plane_span (&tf->frame, p),
          want[p], clh_frame_plane_span (&tf->frame, p));
    free_dest (want);
    clh_test_frame_free (tf);
  }
  g_rand_free (rand);
}

/* An I420 frame of 5 x 3 pixels worked out by hand: BRNG over zebra over
 * false colour; each chroma sample the highest rank of its block, the
 * right-hand blocks clipped to one column. */
static void
test_by_hand_i420 (void)
{
  static const guint8 luma[3][5] = {
    {100, 240, 100, 100, 100},
    {100, 100, 230, 230, 50},
    {100, 100, 100, 100, 50},
  };
  /* (1, 0): 240 > 235, BRNG; so are (4, 0) and (4, 1), whose chroma
   * sample's V is 250 > 240. (3, 1): 230 >= 200 on a stripe, (3 + 1) % 4
   * < 2; (2, 1) is not, (2 + 1) % 4 = 3: the grey band, as 100 is.
   * (4, 2): 50, band 0. */
  static const guint8 want_luma[3][5] = {
    {100, 210, 100, 100, 210},
    {100, 100, 230, 1, 210},
    {100, 100, 100, 100, 40},
  };
  static const guint8 want_u[2][3] = { {16, 2, 16}, {128, 128, 50} };
  static const guint8 want_v[2][3] = { {146, 3, 146}, {128, 128, 60} };
  ClhTestFrame *tf = clh_test_frame_new ("I420", 5, 3, 0, CLH_TEST_ZERO, 0);
  const ClhFrame *f = &tf->frame;
  ClhMarksSpec spec = { 0 };
  guint8 *dest[CLH_MAX_PLANES];
  guint x, y;

  for (y = 0; y < 3; y++)
    memcpy (tf->memory[0] + y * f->planes[0].stride, luma[y], 5);
  memset (tf->memory[1], 128, clh_frame_plane_span (f, 1));
  memset (tf->memory[2], 128, clh_frame_plane_span (f, 2));
  tf->memory[2][2] = 250;
  spec.marks = CLH_MARK_ZEBRA | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG;
  spec.layout = CLH_MARKS_YUV;
  spec.components[1] = 1;
  spec.components[2] = 2;
  spec.zebra_level = 200;
  spec.zebra_period = 4;
  spec.zebra_colour = (ClhMarkColour) { {1, 2, 3} };
  spec.brng_colour = (ClhMarkColour) { {210, 16, 146} };
  spec.n_bands = 2;
  spec.bands[0] = (ClhMarkBand) { 0, CLH_MARK_BAND_COLOUR, { {40, 50, 60} } };
  spec.bands[1] = (ClhMarkBand) { 90, CLH_MARK_BAND_GREY, { {0, 0, 0} } };

  alloc_dest (f, dest, 0);
  g_assert_true (clh_marks_draw (marks, f, &spec, dest, NULL));
  for (y = 0; y < 3; y++)
    for (x = 0; x < 5; x++)
      g_assert_cmpuint (dest[0][y * f->planes[0].stride + x], ==,
          want_luma[y][x]);
  for (y = 0; y < 2; y++)
    for (x = 0; x < 3; x++) {
      g_assert_cmpuint (dest[1][y * f->planes[1].stride + x], ==,
          want_u[y][x]);
      g_assert_cmpuint (dest[2][y * f->planes[2].stride + x], ==,
          want_v[y][x]);
    }
  /* The reference agrees. */
  assert_marks_equal (f, &spec, "I420 by hand");
  free_dest (dest);
  clh_test_frame_free (tf);
}

/* A legend worked out by hand on an I420 frame of 200 x 150 of one grey
 * (the grey band's): bands red from 0, grey from 10%, yellow from 90%;
 * in the top-left corner, scale 1, unit 4, 8 pixels in: the yellow row
 * first, "≥90%", then red's, "<10%" (23 pixels each: the legend 24 + 23
 * wide, rounded to 48, and 4 + 2 * 12 = 28 high). Paper at its corner,
 * the swatches' pixels and chroma samples in the bands' colours, the
 * first glyph's first ink pixel (the ≥'s row 0, column 1) in the ink's
 * colour at (8 + 20 + 1, 8 + 4); the frame's own grey beside it. Without
 * a legend, or on a frame too small for it, none. */
static void
test_by_hand_legend (void)
{
  static const ClhMarkColour red = { {81, 90, 240} };
  static const ClhMarkColour yellow = { {210, 16, 146} };
  static const ClhMarkColour ink = { {235, 128, 128} };
  static const ClhMarkColour paper = { {16, 128, 128} };
  ClhTestFrame *tf = clh_test_frame_new ("I420", 200, 150, 0,
      CLH_TEST_ZERO, 0);
  const ClhFrame *f = &tf->frame;
  ClhMarksSpec spec = { 0 };
  ClhMarksLegend legend;
  guint8 *dest[CLH_MAX_PLANES];
  const guint8 *y, *u, *v;
  gsize ys, cs;

  memset (tf->memory[0], 128, clh_frame_plane_span (f, 0));
  memset (tf->memory[1], 128, clh_frame_plane_span (f, 1));
  memset (tf->memory[2], 128, clh_frame_plane_span (f, 2));
  spec.marks = CLH_MARK_FALSE_COLOUR;
  spec.layout = CLH_MARKS_YUV;
  spec.components[1] = 1;
  spec.components[2] = 2;
  spec.zebra_period = 4;
  spec.n_bands = 3;
  spec.bands[0] = (ClhMarkBand) { 0, CLH_MARK_BAND_COLOUR, red, 0.0 };
  spec.bands[1] = (ClhMarkBand) { 38, CLH_MARK_BAND_GREY, red, 10.0 };
  spec.bands[2] = (ClhMarkBand) { 213, CLH_MARK_BAND_COLOUR, yellow, 90.0 };
  spec.legend = CLH_MARKS_LEGEND_TOP_LEFT;
  spec.legend_ink = ink;
  spec.legend_paper = paper;

  g_assert_true (clh_marks_legend_place (&spec, 200, 150, &legend));
  g_assert_cmpuint (legend.x, ==, 8);
  g_assert_cmpuint (legend.y, ==, 8);
  g_assert_cmpuint (legend.width, ==, 48);
  g_assert_cmpuint (legend.height, ==, 28);
  alloc_dest (f, dest, 0);
  g_assert_true (clh_marks_draw (marks, f, &spec, dest, NULL));
  y = dest[0];
  u = dest[1];
  v = dest[2];
  ys = f->planes[0].stride;
  cs = f->planes[1].stride;
  g_assert_cmpuint (y[8 * ys + 8], ==, paper.values[0]);
  g_assert_cmpuint (y[12 * ys + 12], ==, yellow.values[0]);
  g_assert_cmpuint (u[6 * cs + 6], ==, yellow.values[1]);
  g_assert_cmpuint (v[6 * cs + 6], ==, yellow.values[2]);
  g_assert_cmpuint (y[24 * ys + 15], ==, red.values[0]);
  g_assert_cmpuint (v[12 * cs + 7], ==, red.values[2]);
  g_assert_cmpuint (y[12 * ys + 29], ==, ink.values[0]);
  g_assert_cmpuint (y[12 * ys + 28], ==, paper.values[0]);
  g_assert_cmpuint (y[12 * ys + 56], ==, 128);
  assert_marks_equal (f, &spec, "a legend by hand");

  spec.legend = CLH_MARKS_LEGEND_NONE;
  g_assert_true (clh_marks_draw (marks, f, &spec, dest, NULL));
  g_assert_cmpuint (dest[0][8 * ys + 8], ==, 128);
  g_assert_cmpuint (dest[0][12 * ys + 12], ==, 128);
  assert_marks_equal (f, &spec, "no legend");
  free_dest (dest);
  clh_test_frame_free (tf);

  /* 48 + 16 columns do not fit 63. */
  tf = clh_test_frame_new ("I420", 63, 150, 0, CLH_TEST_RANDOM, 0);
  spec.legend = CLH_MARKS_LEGEND_BOTTOM_RIGHT;
  g_assert_false (clh_marks_legend_place (&spec, 63, 150, &legend));
  assert_marks_equal (&tf->frame, &spec, "a frame too narrow");
  clh_test_frame_free (tf);
}

/* Legends in every corner of frames of each layout, at scales 1 and 2
 * (frames from 720 rows), against the reference. */
static void
test_legend (void)
{
  static const struct {
    const gchar *format;
    guint width, height;
  } cases[] = {
    {"I420", 201, 151}, {"YUV9", 203, 149}, {"Y41B", 150, 90},
    {"NV12", 96, 64}, {"YUY2", 130, 97}, {"RGBA", 200, 100},
    {"GRAY8", 120, 121}, {"P010_10LE", 160, 120}, {"Y444_16LE", 161, 91},
    {"I420", 400, 722}, {"UYVY", 250, 730},
  };
  GRand *rand = g_rand_new_with_seed (11);
  guint i, corner, n = 0;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    for (corner = CLH_MARKS_LEGEND_TOP_LEFT;
        corner <= CLH_MARKS_LEGEND_BOTTOM_RIGHT; corner++) {
      ClhTestFrame *tf = make_frame (cases[i].format, cases[i].width,
          cases[i].height, 3, LUMA_RAMP, i, rand);
      ClhMarksLegend legend;
      ClhMarksSpec spec;
      gchar *what = g_strdup_printf ("%s %ux%u, legend in corner %u",
          cases[i].format, cases[i].width, cases[i].height, corner);

      random_spec (tf, CLH_MARK_FALSE_COLOUR | (corner % 2 ? CLH_MARK_ZEBRA
              | CLH_MARK_BRNG : 0), rand, &spec);
      spec.n_bands = MIN (spec.n_bands, 5);
      spec.bands[spec.n_bands - 1].style = CLH_MARK_BAND_COLOUR;
      spec.legend = corner;
      n += clh_marks_legend_place (&spec, cases[i].width, cases[i].height,
          &legend);
      assert_marks_equal (&tf->frame, &spec, what);
      g_free (what);
      clh_test_frame_free (tf);
    }
  /* Most fit. */
  g_assert_cmpuint (n, >=, 3 * G_N_ELEMENTS (cases));
  g_rand_free (rand);
}

/* Zebra stripes on a GRAY16 frame by hand: rising and falling diagonals,
 * an odd period (stripes of period / 2 rounded down), the phase. */
static void
test_by_hand_stripes (void)
{
  ClhTestFrame *tf = clh_test_frame_new ("GRAY16_LE", 7, 2, 0, CLH_TEST_ZERO,
      0);
  ClhMarksSpec spec = { 0 };
  guint8 *dest[CLH_MAX_PLANES];
  guint x, y;

  for (y = 0; y < 2; y++)
    for (x = 0; x < 7; x++) {
      tf->memory[0][y * tf->frame.planes[0].stride + 2 * x] = 0;
      tf->memory[0][y * tf->frame.planes[0].stride + 2 * x + 1] = y ? 0 :
          0xff;
    }
  spec.marks = CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW;
  spec.layout = CLH_MARKS_GRAY;
  spec.zebra_level = 0xff00;
  spec.zebra_low_level = 0;
  spec.zebra_period = 5;
  spec.zebra_phase = 1;
  spec.zebra_colour = (ClhMarkColour) { {0x1234} };
  spec.zebra_low_colour = (ClhMarkColour) { {0xabcd} };
  alloc_dest (&tf->frame, dest, 0);
  g_assert_true (clh_marks_draw (marks, &tf->frame, &spec, dest, NULL));
  for (x = 0; x < 7; x++) {
    const guint8 *top = dest[0] + 2 * x;
    const guint8 *bottom = dest[0] + tf->frame.planes[0].stride + 2 * x;
    /* Row 0 white: (x + 0 + 1) % 5 < 2 at x = 0, 4, 5. Row 1 black:
     * (x - 1 + 1) mod 5 < 2 at x = 0, 1, 5, 6. */
    const gboolean rising = x == 0 || x == 4 || x == 5;
    const gboolean falling = x == 0 || x == 1 || x == 5 || x == 6;

    g_assert_cmpuint (top[0] | top[1] << 8, ==, rising ? 0x1234 : 0xff00);
    g_assert_cmpuint (bottom[0] | bottom[1] << 8, ==, falling ? 0xabcd : 0);
  }
  free_dest (dest);
  clh_test_frame_free (tf);
}

/* What the engine refuses, with the destination untouched. */
static void
test_invalid (void)
{
  ClhTestFrame *tf = clh_test_frame_new ("I420", 16, 8, 0, CLH_TEST_RANDOM,
      1);
  ClhTestFrame *p010 = clh_test_frame_new ("P010_10LE", 16, 8, 0,
      CLH_TEST_RANDOM, 1);
  ClhTestFrame *yuv16 = clh_test_frame_new ("Y444_16LE", 16, 8, 0,
      CLH_TEST_RANDOM, 1);
  GRand *rand = g_rand_new_with_seed (3);
  ClhMarksSpec good, bad;
  guint8 *dest[CLH_MAX_PLANES];
  GError *err = NULL;
  guint i;

  random_spec (tf, CLH_MARK_ZEBRA | CLH_MARK_FALSE_COLOUR, rand, &good);
  for (i = 0; i < 11; i++) {
    const ClhFrame *frame = &tf->frame;

    bad = good;
    switch (i) {
      case 0:
        bad.zebra_period = 1;
        break;
      case 1:
        bad.zebra_phase = bad.zebra_period;
        break;
      case 2:
        bad.n_bands = 0;
        break;
      case 3:
        bad.bands[0].first = 1;
        break;
      case 4:
        bad.n_bands = 3;
        bad.bands[1].first = 7;
        bad.bands[2].first = 5;
        break;
      case 5:
        bad.zebra_colour.values[1] = 256;
        break;
      case 6:
        bad.components[2] = 1;
        break;
      case 7:
        bad.marks |= 0x100;
        break;
      case 10:
        bad.legend = CLH_MARKS_LEGEND_BOTTOM_RIGHT + 1;
        break;
      case 8:
        /* RGB marks of 16-bit samples. */
        bad.layout = CLH_MARKS_RGB;
        frame = &yuv16->frame;
        break;
      default:
        /* A subsampled component as the luma. */
        bad.components[0] = 1;
        bad.components[1] = 0;
        frame = &p010->frame;
        break;
    }
    alloc_dest (frame, dest, 0x5a);
    g_assert_false (clh_marks_draw (marks, frame, &bad, dest, &err));
    g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
    g_test_message ("refused: %s", err->message);
    g_clear_error (&err);
    g_assert_cmpuint (dest[0][0], ==, 0x5a);
    free_dest (dest);
  }
  /* Refused, then the next request is drawn as ever. */
  assert_marks_equal (&tf->frame, &good, "after refusals");
  g_rand_free (rand);
  clh_test_frame_free (yuv16);
  clh_test_frame_free (p010);
  clh_test_frame_free (tf);
}

/* Through the device's submission thread: the same bytes. */
static void
test_thread (void)
{
  clh_marks_set_submission (marks, CLH_SUBMISSION_THREAD);
  test_format ("NV12");
  test_format ("I422_10LE");
  clh_marks_set_submission (marks, CLH_SUBMISSION_AUTO);
}

int
main (int argc, char **argv)
{
  const gchar *const *formats = clh_reference_formats ();
  GError *err = NULL;
  guint i;
  int ret;

  g_test_init (&argc, &argv, NULL);
  context = clh_context_new (g_getenv ("CLH_TEST_DEVICE"), &err);
  g_assert_no_error (err);
  marks = clh_marks_new (context, &err);
  g_assert_no_error (err);
  for (i = 0; formats[i]; i++) {
    gchar *path;

    if (!clh_test_format_in_run (formats[i]))
      continue;
    path = g_strdup_printf ("/marks/format/%s", formats[i]);
    g_test_add_data_func (path, formats[i], test_format);
    g_free (path);
  }
  g_test_add_func ("/marks/in-place", test_in_place);
  g_test_add_func ("/marks/by-hand/i420", test_by_hand_i420);
  g_test_add_func ("/marks/by-hand/stripes", test_by_hand_stripes);
  g_test_add_func ("/marks/by-hand/legend", test_by_hand_legend);
  g_test_add_func ("/marks/legend", test_legend);
  g_test_add_func ("/marks/invalid", test_invalid);
  g_test_add_func ("/marks/thread", test_thread);
  ret = g_test_run ();
  clh_marks_free (marks);
  clh_context_unref (context);
  return ret;
}
