/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The scope engine against the golden reference: the layout, every plot's
 * counts bit for bit and the drawn picture pixel for pixel, for every
 * format the reference's table knows (one of each layout in the quick
 * run), odd sizes, padded strides, random, one-value and gradient frames,
 * each scope alone and together, both scales, every graticule, limited
 * and full range, three matrices, vectorscopes zoomed, the device's own
 * launch and a GPU's; the graticule's numbers and names where they fit and
 * not where they do not; a zoomed vectorscope's samples where the zoom
 * puts them; the threshold tables against the reference's brightness
 * formula; a histogram's clip indicators lit at its clip levels and dark a
 * code inside them, its end bin's bar over the graticule; the
 * picture blended into frames of each format, every byte of every plane;
 * frames in a host block of the context (a buffer pool's memory), read
 * and blended without a host copy, and blocks the engine must not use;
 * requests the engine refuses. */
#include <string.h>

#include "clh-host-copy.h"
#include "clh-reference-scope.h"
#include "clh-scope.h"
#include "clh-test-frame.h"
#include "clh-test-run.h"

static ClhContext *context;
static ClhScope *scope;

/* The device's own launch, then a GPU's on whatever device runs the
 * tests: work-groups of 256 and 64 work-items counting with local
 * atomics into small tiles (several per plot) and copies, row slices
 * merged with global atomics; a pixel a work-item, and spans that end
 * inside plots. */
static const ClhScopeTuning tunings[] = {
  {0, 0, 0, 0, 0},
  {256, 32 * 1024, 1, 0, 1},
  {64, 4 * 1024, 2, 3, 7},
};

typedef struct {
  guint kinds;
  guint width;
  guint height;
  ClhScopeScale scale;
  ClhScopeGraticule graticule;
  gboolean limited;
  guint kr;
  guint kb;
  gdouble intensity;
  guint zoom;
} Picture;

static const Picture pictures[] = {
  {CLH_SCOPE_WAVEFORM | CLH_SCOPE_VECTORSCOPE, 384, 128, CLH_SCOPE_LINEAR,
      CLH_SCOPE_GRATICULE_IRE, TRUE, 2126, 722, 0.1},
  {CLH_SCOPE_ALL_KINDS, 403, 97, CLH_SCOPE_LOG, CLH_SCOPE_GRATICULE_CODES,
      FALSE, 2990, 1140, 0.05, 3},
  {CLH_SCOPE_PARADE | CLH_SCOPE_HISTOGRAM, 251, 61, CLH_SCOPE_LINEAR,
      CLH_SCOPE_GRATICULE_CODES, TRUE, 2627, 593, 1.0},
  {CLH_SCOPE_VECTORSCOPE, 77, 300, CLH_SCOPE_LOG, CLH_SCOPE_GRATICULE_IRE,
      TRUE, 2126, 722, 0.3, CLH_SCOPE_MAX_ZOOM},
  {CLH_SCOPE_HISTOGRAM, 1030, 40, CLH_SCOPE_LOG, CLH_SCOPE_GRATICULE_NONE,
      FALSE, 2126, 722, 0.1},
  {CLH_SCOPE_WAVEFORM, 16, 1100, CLH_SCOPE_LINEAR, CLH_SCOPE_GRATICULE_IRE,
      FALSE, 2990, 1140, 0.001},
  /* Labels and target names two pixels a font pixel (plots of 362). */
  {CLH_SCOPE_WAVEFORM | CLH_SCOPE_VECTORSCOPE, 1086, 362, CLH_SCOPE_LINEAR,
      CLH_SCOPE_GRATICULE_IRE, TRUE, 2126, 722, 0.15},
};

static ClhScopeSource
source_of (ClhFormatClass klass)
{
  return klass == CLH_FORMAT_GRAY ? CLH_SCOPE_SOURCE_GRAY :
      klass == CLH_FORMAT_RGB ? CLH_SCOPE_SOURCE_RGB : CLH_SCOPE_SOURCE_YUV;
}

static void
spec_for (const Picture *pic, ClhFormatClass klass, ClhScopeSpec *spec)
{
  memset (spec, 0, sizeof (*spec));
  spec->kinds = pic->kinds;
  spec->width = pic->width;
  spec->height = pic->height;
  spec->source = source_of (klass);
  spec->limited = pic->limited;
  spec->kr = pic->kr;
  spec->kb = pic->kb;
  spec->scale = pic->scale;
  spec->graticule = pic->graticule;
  spec->intensity = pic->intensity;
  spec->vectorscope_zoom = pic->zoom;
}

static void
assert_layouts_equal (const ClhScopeLayout *got, const ClhScopeLayout *want)
{
  guint i;

  g_assert_cmpuint (got->n_plots, ==, want->n_plots);
  g_assert_cmpuint (got->n_counts, ==, want->n_counts);
  for (i = 0; i < got->n_plots; i++) {
    const ClhScopePlot *a = &got->plots[i], *b = &want->plots[i];

    g_assert_cmpint (a->kind, ==, b->kind);
    g_assert_cmpuint (a->channel, ==, b->channel);
    g_assert_cmpint (a->chroma, ==, b->chroma);
    g_assert_cmpuint (a->x, ==, b->x);
    g_assert_cmpuint (a->y, ==, b->y);
    g_assert_cmpuint (a->width, ==, b->width);
    g_assert_cmpuint (a->height, ==, b->height);
    g_assert_cmpuint (a->grid_width, ==, b->grid_width);
    g_assert_cmpuint (a->grid_height, ==, b->grid_height);
    g_assert_cmpuint (a->depth, ==, b->depth);
    g_assert_cmpuint (a->cols, ==, b->cols);
    g_assert_cmpuint (a->rows, ==, b->rows);
    g_assert_cmpuint (a->shift, ==, b->shift);
    g_assert_cmpuint (a->count_base, ==, b->count_base);
    g_assert_cmphex (a->colour, ==, b->colour);
    g_assert_cmpuint (a->clip_width, ==, b->clip_width);
    g_assert_cmpuint (a->clip_gap, ==, b->clip_gap);
    g_assert_cmpuint (a->clip_low, ==, b->clip_low);
    g_assert_cmpuint (a->clip_high, ==, b->clip_high);
    g_assert_cmpuint (a->zoom, ==, b->zoom);
  }
}

/* The first differing pixel, for the failure message. */
static void
assert_pictures_equal (const guint8 *got, const guint8 *want, guint width,
    guint height, gsize stride, const gchar *what)
{
  guint x, y;

  for (y = 0; y < height; y++) {
    if (memcmp (got + y * stride, want + y * stride, (gsize) width * 4) == 0)
      continue;
    for (x = 0; x < width; x++) {
      const guint8 *a = got + y * stride + x * 4, *b = want + y * stride
          + x * 4;

      if (memcmp (a, b, 4) != 0)
        g_error ("%s: pixel (%u, %u) is %02x%02x%02x%02x, the reference's "
            "%02x%02x%02x%02x", what, x, y, a[0], a[1], a[2], a[3], b[0],
            b[1], b[2], b[3]);
    }
  }
}

static void
assert_counts_equal (const guint32 *got, const guint32 *want,
    const ClhScopeLayout *layout, const gchar *what)
{
  gsize i;

  for (i = 0; i < layout->n_counts; i++)
    if (got[i] != want[i])
      g_error ("%s: counter %" G_GSIZE_FORMAT " is %u, the reference's %u",
          what, i, got[i], want[i]);
}

/* The engine's picture and counts of @frame, which lies in @block (or
 * not, NULL), equal the reference's. */
static void
check_scope_in (const ClhFrame *frame, const ClhHostBlock *block,
    const ClhScopeSpec *spec, const gchar *what)
{
  const gsize stride = (gsize) spec->width * 4 + 12;
  ClhScopeLayout layout, reference;
  guint8 *got, *want;
  guint32 *counts, *expected;
  GError *err = NULL;

  clh_scope_layout (spec, frame, &layout);
  clh_reference_scope_layout (spec, frame, &reference);
  assert_layouts_equal (&layout, &reference);
  got = g_malloc0 (stride * spec->height);
  want = g_malloc0 (stride * spec->height);
  counts = g_new (guint32, layout.n_counts);
  expected = g_new (guint32, layout.n_counts);
  g_assert_true (clh_scope_draw (scope, frame, spec, block, got, stride,
          counts, &err));
  g_assert_no_error (err);
  clh_reference_scope_counts (frame, spec, &reference, expected);
  assert_counts_equal (counts, expected, &layout, what);
  clh_reference_scope_picture (spec, &reference, expected, want, stride);
  assert_pictures_equal (got, want, spec->width, spec->height, stride, what);
  g_free (got);
  g_free (want);
  g_free (counts);
  g_free (expected);
}

static void
check_scope (const ClhFrame *frame, const ClhScopeSpec *spec,
    const gchar *what)
{
  check_scope_in (frame, NULL, spec, what);
}

static void
test_format (gconstpointer data)
{
  const gchar *format = data;
  static const guint sizes[][3] = {
    {37, 23, 0}, {64, 48, 13}, {1, 1, 3}, {201, 5, 0}, {8, 130, 7},
  };
  guint s, c, p, t;

  for (t = 0; t < G_N_ELEMENTS (tunings); t++) {
    clh_scope_set_tuning (scope, &tunings[t]);
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (c = 0; c < CLH_TEST_N_CONTENTS; c++) {
        ClhTestFrame *tf = clh_test_frame_new (format, sizes[s][0],
            sizes[s][1], sizes[s][2], c, 7 * s + c);

        for (p = 0; p < G_N_ELEMENTS (pictures); p++) {
          ClhScopeSpec spec;
          gchar *what = g_strdup_printf ("%s %ux%u (+%u) %s, picture %u, "
              "tuning %u", format, sizes[s][0], sizes[s][1], sizes[s][2],
              clh_test_content_name (c), p, t);

          spec_for (&pictures[p], tf->klass, &spec);
          check_scope (&tf->frame, &spec, what);
          g_free (what);
        }
        clh_test_frame_free (tf);
      }
  }
  clh_scope_set_tuning (scope, NULL);
}

/* A frame wider and taller than the picture, so that column bins gather
 * two or three frame columns and value bins several values, at the size
 * of the bench. */
static void
test_large (void)
{
  const gchar *const formats[] = { "I420", "RGBx", "P010_10LE", "YUY2" };
  const ClhTestContent contents[] = { CLH_TEST_RANDOM, CLH_TEST_MAX };
  guint f, c, t;

  for (t = 0; t < G_N_ELEMENTS (tunings); t++) {
    clh_scope_set_tuning (scope, &tunings[t]);
    for (f = 0; f < G_N_ELEMENTS (formats); f++)
      for (c = 0; c < G_N_ELEMENTS (contents); c++) {
        ClhTestFrame *tf = clh_test_frame_new (formats[f], 1920, 1080, 0,
            contents[c], 11);
        ClhScopeSpec spec;
        gchar *what = g_strdup_printf ("%s %s, tuning %u", formats[f],
            clh_test_content_name (contents[c]), t);

        /* A one-value frame's cells pass the direct level table. */
        spec_for (&pictures[c], tf->klass, &spec);
        spec.width = 1080;
        spec.height = 200;
        check_scope (&tf->frame, &spec, what);
        /* The bench's waveform: 256 value bins, a bin for every 2.5
         * columns. */
        spec_for (&pictures[5], tf->klass, &spec);
        spec.width = 768;
        spec.height = 256;
        check_scope (&tf->frame, &spec, what);
        g_free (what);
        clh_test_frame_free (tf);
      }
  }
  clh_scope_set_tuning (scope, NULL);
}

/* The same engine, frame after frame of other formats and pictures: the
 * configuration it keeps follows each change. */
static void
test_changes (void)
{
  const gchar *const formats[] = { "I420", "I420", "GRAY8", "I420",
    "Y444_16LE", "BGR"
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    ClhTestFrame *tf = clh_test_frame_new (formats[f], 50 + f, 40, f,
        CLH_TEST_GRADIENT, f);
    ClhScopeSpec spec;

    spec_for (&pictures[f % G_N_ELEMENTS (pictures)], tf->klass, &spec);
    check_scope (&tf->frame, &spec, formats[f]);
    clh_test_frame_free (tf);
  }
}

/* The tables the device draws with give the reference's level at every
 * count up to well past saturation, and at each threshold and one under. */
static void
test_thresholds (void)
{
  const gdouble intensities[] = { 1.0, 0.1, 0.0037, 0.5 };
  ClhTestFrame *tf = clh_test_frame_new ("I420", 1000, 700, 0,
      CLH_TEST_ZERO, 0);
  guint i, k, n, l;

  for (i = 0; i < G_N_ELEMENTS (intensities); i++)
    for (k = 0; k < 2; k++) {
      ClhScopeSpec spec;
      ClhScopeLayout layout;

      spec_for (&pictures[1], tf->klass, &spec);
      spec.scale = k ? CLH_SCOPE_LOG : CLH_SCOPE_LINEAR;
      spec.intensity = intensities[i];
      clh_scope_layout (&spec, &tf->frame, &layout);
      for (n = 0; n < layout.n_plots; n++) {
        const ClhScopePlot *p = &layout.plots[n];
        guint32 table[CLH_SCOPE_LEVELS];
        guint32 c;

        if (p->kind == CLH_SCOPE_PLOT_HISTOGRAM)
          continue;
        clh_scope_thresholds (&spec, p, 3, table);
        for (l = 1; l < CLH_SCOPE_LEVELS; l++) {
          g_assert_cmpuint (table[l], >=, table[l - 1]);
          if (table[l] == G_MAXUINT32)
            continue;
          g_assert_cmpuint (clh_reference_scope_level (&spec, p, 3,
                  table[l]), >=, l);
          g_assert_cmpuint (clh_reference_scope_level (&spec, p, 3,
                  table[l] - 1), <, l);
        }
        for (c = 0; c < 5000; c++) {
          guint level = 0;

          while (level + 1 < CLH_SCOPE_LEVELS && table[level + 1] <= c)
            level++;
          g_assert_cmpuint (level, ==, clh_reference_scope_level (&spec, p,
                  3, c));
        }
      }
    }
  clh_test_frame_free (tf);
}

/* A gray frame of 100 x 100 at 128 but for its first @n samples, at
 * @value. */
static ClhTestFrame *
gray_frame_with (guint n, guint8 value)
{
  ClhTestFrame *tf = clh_test_frame_new ("GRAY8", 100, 100, 0,
      CLH_TEST_ZERO, 0);
  guint i;

  for (i = 0; i < 100 * 100; i++)
    tf->memory[0][(i / 100) * tf->frame.planes[0].stride + i % 100] =
        i < n ? value : 128;
  return tf;
}

/* The picture's pixel (@x, @y) is @rgb (0x00BBGGRR), opaque. */
static void
assert_pixel (const guint8 *picture, gsize stride, guint x, guint y,
    guint32 rgb, const gchar *what)
{
  const guint8 *px = picture + y * stride + x * 4;
  const guint32 got = px[0] | (px[1] << 8) | (px[2] << 16);

  if (got != rgb || px[3] != 255)
    g_error ("%s: pixel (%u, %u) is %06x (alpha %u), want %06x", what, x,
        y, got, px[3], rgb);
}

/* A histogram's clip indicators: the lamp at the right lit red for a
 * frame with 1 % of its samples at the clip-high level (255 in full
 * range, 235 in limited), unlit for one with as many a code below it;
 * the lamp at the left lit azure for 1 % at the clip-low level (0, 16);
 * each gauge ceil (1 % of its rows) high; the end bin's bar over the
 * graticule's line at the top code, whole. Each picture also equals the
 * reference's. */
static void
test_clip_indicators (void)
{
  static const struct {
    gboolean limited;
    guint8 value;
    gint lit;                   /* -1: none, 0: crushed, 1: clipped */
  } cases[] = {
    {FALSE, 255, 1}, {FALSE, 254, -1}, {FALSE, 0, 0}, {FALSE, 1, -1},
    {TRUE, 235, 1}, {TRUE, 234, -1}, {TRUE, 16, 0}, {TRUE, 17, -1},
    {TRUE, 255, 1}, {TRUE, 3, 0},
  };
  const gsize stride = 512 * 4;
  guint8 *picture = g_malloc (stride * 256);
  GError *err = NULL;
  guint i, side, row;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    ClhTestFrame *tf = gray_frame_with (100, cases[i].value);
    ClhScopeSpec spec = { CLH_SCOPE_HISTOGRAM, 512, 256,
      CLH_SCOPE_SOURCE_GRAY, cases[i].limited, 2990, 1140,
      CLH_SCOPE_LINEAR, CLH_SCOPE_GRATICULE_CODES, 0.1
    };
    ClhScopeLayout layout;
    const ClhScopePlot *p;
    gchar *what = g_strdup_printf ("1%% at %u, %s range", cases[i].value,
        cases[i].limited ? "limited" : "full");
    guint gauge, rows;

    clh_scope_layout (&spec, &tf->frame, &layout);
    p = &layout.plots[0];
    /* 512 / 64 columns, a quarter of them apart from the bars. */
    g_assert_cmpuint (p->clip_width, ==, 8);
    g_assert_cmpuint (p->clip_gap, ==, 2);
    g_assert_cmpuint (p->x, ==, 10);
    g_assert_cmpuint (p->width, ==, 492);
    g_assert_true (clh_scope_draw (scope, &tf->frame, &spec, NULL, picture,
            stride, NULL, &err));
    g_assert_no_error (err);
    rows = p->height - p->clip_width - 2 * p->clip_gap;
    gauge = (rows + 99) / 100;
    for (side = 0; side < 2; side++) {
      const gboolean lit = cases[i].lit == (gint) side;
      const guint x0 = side ? p->x + p->width + p->clip_gap : 0;
      const guint32 lamp = !lit ? 0x404040 : side ? 0x0000ff : 0xffa000;
      guint x;

      for (x = x0; x < x0 + p->clip_width; x++) {
        for (row = 0; row < p->clip_width; row++)
          assert_pixel (picture, stride, x, p->y + p->clip_gap + row, lamp,
              what);
        for (row = 0; row < p->height - p->clip_width - p->clip_gap;
            row++) {
          const guint up = p->height - 1 - (p->clip_gap + p->clip_width
              + row);

          assert_pixel (picture, stride, x, p->y + p->clip_gap
              + p->clip_width + row, lit && up < gauge ? p->colour : 0,
              what);
        }
        for (row = 0; row < p->clip_gap; row++)
          assert_pixel (picture, stride, x, p->y + row, 0, what);
      }
      /* The gap to the bars is black. */
      for (x = 0; x < p->clip_gap; x++)
        assert_pixel (picture, stride, side ? p->x + p->width + x :
            p->x - p->clip_gap + x, p->y + p->height - 1, 0, what);
    }
    /* The bin of 255 (or 0) ends the bars; its bar, whole where it
     * stands, hides the graticule's line at the top code (or at 0). */
    if (cases[i].value == 255 || cases[i].value == 0) {
      const guint x = cases[i].value ? p->x + p->width - 1 : p->x;

      assert_pixel (picture, stride, x, p->y + p->height - 1, p->colour,
          what);
      g_assert_cmpuint (picture[p->y * stride + x * 4], !=, 0);
    }
    check_scope (&tf->frame, &spec, what);
    g_free (what);
    clh_test_frame_free (tf);
  }
  g_free (picture);
}

/* Both frames' planes, padding included, byte for byte. */
static void
assert_frames_equal (const ClhTestFrame *got, const ClhTestFrame *want,
    const gchar *what)
{
  guint p;

  for (p = 0; p < got->frame.n_planes; p++) {
    const gsize size = got->frame.planes[p].stride
        * clh_frame_plane_rows (&got->frame, p);
    gsize i;

    for (i = 0; i < size; i++)
      if (got->memory[p][i] != want->memory[p][i])
        g_error ("%s: plane %u byte %" G_GSIZE_FORMAT " (row %"
            G_GSIZE_FORMAT ") is %u, the reference's %u", what, p, i,
            i / got->frame.planes[p].stride, got->memory[p][i],
            want->memory[p][i]);
  }
}

/* The picture blended into frames of each format on the device, against
 * the reference's picture blended by the reference: every byte of every
 * plane, those outside the picture and the rows' padding included. */
static void
test_overlay (gconstpointer data)
{
  const gchar *format = data;
  const guint alphas[] = { 255, 0, 77, 200 };
  guint k, t;

  for (t = 0; t < G_N_ELEMENTS (tunings); t++) {
    clh_scope_set_tuning (scope, &tunings[t]);
    for (k = 0; k < G_N_ELEMENTS (alphas); k++) {
      ClhTestFrame *got = clh_test_frame_new (format, 101, 67, 5 * k,
          k % 2 ? CLH_TEST_GRADIENT : CLH_TEST_RANDOM, k);
      ClhTestFrame *want = clh_test_frame_new (format, 101, 67, 5 * k,
          k % 2 ? CLH_TEST_GRADIENT : CLH_TEST_RANDOM, k);
      const guint x = k % 2 ? 0 : 36, y = k < 2 ? 0 : 32;
      ClhScopeSpec spec;
      ClhScopeLayout layout;
      guint32 *counts;
      guint8 *picture;
      GError *err = NULL;
      gchar *what = g_strdup_printf ("%s overlay at (%u, %u), alpha %u, "
          "tuning %u", format, x, y, alphas[k], t);

      spec_for (&pictures[k % 2 ? 2 : 0], got->klass, &spec);
      spec.width = 64;
      spec.height = 32;
      g_assert_true (clh_scope_overlay (scope, &got->frame, &spec, NULL, x, y,
              alphas[k], &err));
      g_assert_no_error (err);
      clh_reference_scope_layout (&spec, &want->frame, &layout);
      counts = g_new (guint32, layout.n_counts);
      picture = g_malloc ((gsize) spec.width * 4 * spec.height);
      clh_reference_scope_counts (&want->frame, &spec, &layout, counts);
      clh_reference_scope_picture (&spec, &layout, counts, picture,
          (gsize) spec.width * 4);
      clh_reference_scope_overlay (&want->frame, &spec, picture, x, y,
          alphas[k]);
      assert_frames_equal (got, want, what);
      g_free (what);
      g_free (picture);
      g_free (counts);
      clh_test_frame_free (got);
      clh_test_frame_free (want);
    }
  }
  clh_scope_set_tuning (scope, NULL);
}

/* Where frame_in_block() puts plane @p of @tf, and the block's size. */
static gsize
block_layout (const ClhTestFrame *tf, gsize offsets[CLH_MAX_PLANES])
{
  gsize size = 128;
  guint p;

  for (p = 0; p < tf->frame.n_planes; p++) {
    offsets[p] = size;
    size += tf->frame.planes[p].stride * clh_frame_plane_rows (&tf->frame, p)
        + 64 + 8 * p;
  }
  return size;
}

/* A host block of @ctx holding a copy of @tf's planes, as a buffer pool's
 * memory holds a frame: the first plane 128 bytes in, each after a gap
 * (not all at multiples of 64), the gaps 0x5a; @frame points into it. */
static ClhHostBlock *
frame_in_block (ClhContext *ctx, const ClhTestFrame *tf, ClhFrame *frame)
{
  gsize offsets[CLH_MAX_PLANES];
  const gsize size = block_layout (tf, offsets);
  ClhHostBlock *block;
  GError *err = NULL;
  guint8 *data;
  guint p;

  block = clh_context_alloc_host (ctx, size, &err);
  g_assert_no_error (err);
  data = clh_host_block_get_data (block);
  memset (data, 0x5a, size);
  *frame = tf->frame;
  for (p = 0; p < tf->frame.n_planes; p++) {
    memcpy (data + offsets[p], tf->memory[p], tf->frame.planes[p].stride
        * clh_frame_plane_rows (&tf->frame, p));
    frame->planes[p].data = data + offsets[p];
  }
  return block;
}

/* @block, laid out by frame_in_block() for @tf's format, holds @want's
 * planes byte for byte, padding included, and its gaps are untouched. */
static void
assert_block_holds (const ClhHostBlock *block, const ClhTestFrame *want,
    const gchar *what)
{
  gsize offsets[CLH_MAX_PLANES], at = 0, i;
  const gsize size = block_layout (want, offsets);
  const guint8 *data = clh_host_block_get_data (block);
  guint p;

  for (p = 0; p <= want->frame.n_planes; p++) {
    const gsize end = p < want->frame.n_planes ? offsets[p] : size;

    for (i = at; i < end; i++)
      if (data[i] != 0x5a)
        g_error ("%s: byte %" G_GSIZE_FORMAT " between planes is %u", what,
            i, data[i]);
    if (p == want->frame.n_planes)
      break;
    at = offsets[p] + want->frame.planes[p].stride
        * clh_frame_plane_rows (&want->frame, p);
    for (i = offsets[p]; i < at; i++)
      if (data[i] != want->memory[p][i - offsets[p]])
        g_error ("%s: plane %u byte %" G_GSIZE_FORMAT " is %u, the "
            "reference's %u", what, p, i - offsets[p], data[i],
            want->memory[p][i - offsets[p]]);
  }
}

/* Frames in a host block of the engine's context, as from a buffer pool,
 * of each layout, at odd sizes and the bench's: the picture and counts
 * against the reference, with each launch; the frame in the block is the
 * host's, unchanged, afterwards. */
static void
test_host_block (void)
{
  static const struct {
    const gchar *format;
    guint width, height, extra;
  } cases[] = {
    {"I420", 1920, 1080, 0}, {"I420", 37, 23, 13}, {"NV12", 64, 48, 5},
    {"YV12", 65, 33, 0}, {"Y41B", 64, 9, 3}, {"YUY2", 41, 17, 2},
    {"RGBA", 50, 31, 0}, {"BGR", 33, 20, 1}, {"GRAY8", 30, 7, 9},
    {"GRAY16_BE", 30, 7, 0}, {"P010_10LE", 66, 40, 4},
    {"Y444_16LE", 19, 12, 0},
  };
  guint i, t, k;

  for (t = 0; t < G_N_ELEMENTS (tunings); t++) {
    clh_scope_set_tuning (scope, &tunings[t]);
    for (i = 0; i < G_N_ELEMENTS (cases); i++) {
      ClhTestFrame *tf = clh_test_frame_new (cases[i].format,
          cases[i].width, cases[i].height, cases[i].extra,
          i % 2 ? CLH_TEST_GRADIENT : CLH_TEST_RANDOM, i);
      ClhFrame frame;
      ClhHostBlock *block = frame_in_block (context, tf, &frame);

      /* The bench's size once, with the first picture. */
      for (k = 0; k < (cases[i].width > 1000 ? 1 : 3); k++) {
        ClhScopeSpec spec;
        gchar *what = g_strdup_printf ("%s %ux%u (+%u) in a host block, "
            "picture %u, tuning %u", cases[i].format, cases[i].width,
            cases[i].height, cases[i].extra, k, t);

        spec_for (&pictures[k], tf->klass, &spec);
        check_scope_in (&frame, block, &spec, what);
        assert_block_holds (block, tf, what);
        g_free (what);
      }
      clh_host_block_free (block);
      clh_test_frame_free (tf);
    }
  }
  clh_scope_set_tuning (scope, NULL);
}

/* The engine's picture of @frame (in @block, or not) read back into a host
 * block of @ctx, @offset bytes in, its rows 12 bytes longer than the
 * picture's and the block's other bytes 0x5a: the picture equals the
 * reference's, and the bytes before, after and between its rows are
 * untouched. With @elsewhere the picture goes into ordinary memory and
 * the block, which it does not lie in, is passed all the same. */
static void
check_picture_in_block (ClhContext *ctx, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhScopeSpec *spec, gsize offset,
    gboolean elsewhere, const gchar *what)
{
  const gsize stride = (gsize) spec->width * 4 + 12;
  const gsize size = offset + stride * spec->height + 64;
  const gsize row = (gsize) spec->width * 4;
  ClhHostBlock *dest_block;
  ClhScopeLayout layout;
  guint8 *data, *dest, *want, *own = NULL;
  guint32 *counts;
  GError *err = NULL;
  gsize i;

  dest_block = clh_context_alloc_host (ctx, size, &err);
  g_assert_no_error (err);
  data = clh_host_block_get_data (dest_block);
  memset (data, 0x5a, size);
  dest = elsewhere ? (own = g_malloc0 (size)) + offset : data + offset;
  g_assert_true (clh_scope_draw (scope, frame, spec, block, dest, stride,
          NULL, &err));
  g_assert_no_error (err);
  clh_reference_scope_layout (spec, frame, &layout);
  counts = g_new (guint32, layout.n_counts);
  clh_reference_scope_counts (frame, spec, &layout, counts);
  want = g_malloc0 (stride * spec->height);
  clh_reference_scope_picture (spec, &layout, counts, want, stride);
  assert_pictures_equal (dest, want, spec->width, spec->height, stride, what);
  for (i = 0; i < size; i++) {
    const gboolean in_picture = !elsewhere && i >= offset
        && i < offset + stride * spec->height && (i - offset) % stride < row;

    if (!in_picture && data[i] != 0x5a)
      g_error ("%s: byte %" G_GSIZE_FORMAT " of the block, outside the "
          "picture, is %u", what, i, data[i]);
  }
  g_free (want);
  g_free (counts);
  g_free (own);
  clh_host_block_free (dest_block);
}

/* Pictures read back into pinned memory, a host block of the engine's
 * context as clscope's pool gives: frames in a host block and in ordinary
 * memory, at odd sizes and the bench's (a 4K frame into FFmpeg's 4096x256
 * picture), the picture at the block's start and further in, with each
 * launch; and into a block of another context and into ordinary memory.
 * The rows' gaps stay untouched. */
static void
test_picture_host_block (void)
{
  static const struct {
    const gchar *format;
    guint width, height, extra, picture, picture_width;
  } cases[] = {
    {"I420", 3840, 2160, 0, 0, 4096}, {"I420", 1920, 1080, 0, 5, 768},
    {"I420", 37, 23, 13, 0, 0}, {"NV12", 64, 48, 5, 1, 0},
    {"RGBA", 50, 31, 0, 2, 0}, {"GRAY8", 30, 7, 9, 4, 0},
    {"P010_10LE", 66, 40, 4, 3, 0},
  };
  ClhContext *other;
  GError *err = NULL;
  guint i, t;

  /* The copy helpers a host of 16 CPUs gets, as a GPU's host has: a
   * staged 4K frame's planes are then copied in the most chunks. */
  clh_host_copy_set_helpers (7);
  for (t = 0; t < G_N_ELEMENTS (tunings); t++) {
    clh_scope_set_tuning (scope, &tunings[t]);
    for (i = 0; i < G_N_ELEMENTS (cases); i++) {
      ClhTestFrame *tf;
      ClhHostBlock *block;
      ClhFrame frame;
      ClhScopeSpec spec;
      gchar *what;

      /* The 4K frame once, with the device's own launch. */
      if (t > 0 && cases[i].width > 2000)
        continue;
      tf = clh_test_frame_new (cases[i].format, cases[i].width,
          cases[i].height, cases[i].extra, CLH_TEST_RANDOM, i);
      block = frame_in_block (context, tf, &frame);
      spec_for (&pictures[cases[i].picture], tf->klass, &spec);
      if (cases[i].picture_width) {
        spec.width = cases[i].picture_width;
        spec.height = 256;
      }
      what = g_strdup_printf ("%s %ux%u (+%u), picture %ux%u into a host "
          "block, tuning %u", cases[i].format, cases[i].width,
          cases[i].height, cases[i].extra, spec.width, spec.height, t);
      check_picture_in_block (context, &frame, block, &spec, 0, FALSE, what);
      assert_block_holds (block, tf, what);
      check_picture_in_block (context, &tf->frame, NULL, &spec, 4 * 37,
          FALSE, what);
      g_free (what);
      clh_host_block_free (block);
      clh_test_frame_free (tf);
    }
  }
  clh_scope_set_tuning (scope, NULL);

  other = clh_context_new (g_getenv ("CLH_TEST_DEVICE"), &err);
  g_assert_no_error (err);
  {
    ClhTestFrame *tf = clh_test_frame_new ("I420", 64, 48, 7,
        CLH_TEST_RANDOM, 3);
    ClhScopeSpec spec;

    spec_for (&pictures[0], tf->klass, &spec);
    check_picture_in_block (other, &tf->frame, NULL, &spec, 64, FALSE,
        "a picture into a block of another context");
    check_picture_in_block (context, &tf->frame, NULL, &spec, 64, TRUE,
        "a picture into memory outside the block passed");
    clh_test_frame_free (tf);
  }
  clh_context_unref (other);
}

/* Blocks the engine must not read the frame from, which it reads as a
 * frame in ordinary memory: one of another context, one the frame does
 * not lie in, one holding only the frame's first plane. */
static void
test_host_block_unused (void)
{
  ClhContext *other;
  ClhTestFrame *tf = clh_test_frame_new ("I420", 64, 48, 7,
      CLH_TEST_RANDOM, 3);
  ClhFrame frame, split;
  ClhHostBlock *foreign, *block;
  ClhScopeSpec spec;
  GError *err = NULL;

  other = clh_context_new (g_getenv ("CLH_TEST_DEVICE"), &err);
  g_assert_no_error (err);
  spec_for (&pictures[0], tf->klass, &spec);
  foreign = frame_in_block (other, tf, &frame);
  check_scope_in (&frame, foreign, &spec, "a block of another context");
  assert_block_holds (foreign, tf, "a block of another context");
  block = frame_in_block (context, tf, &frame);
  check_scope_in (&tf->frame, block, &spec, "a block the frame is not in");
  split = frame;
  split.planes[1] = tf->frame.planes[1];
  split.planes[2] = tf->frame.planes[2];
  check_scope_in (&split, block, &spec, "a block holding the luma only");
  assert_block_holds (block, tf, "a block holding the luma only");
  clh_host_block_free (block);
  clh_host_block_free (foreign);
  clh_context_unref (other);
  clh_test_frame_free (tf);
}

/* The picture blended into frames in a host block: every byte of every
 * plane against the reference's blend, the gaps between planes
 * untouched, with each launch. */
static void
test_overlay_host_block (void)
{
  const gchar *const formats[] = { "I420", "NV12", "YUY2", "RGBx",
    "P010_10LE", "GRAY8"
  };
  guint f, t;

  for (t = 0; t < G_N_ELEMENTS (tunings); t++) {
    clh_scope_set_tuning (scope, &tunings[t]);
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      ClhTestFrame *tf = clh_test_frame_new (formats[f], 101, 67, f,
          CLH_TEST_RANDOM, f);
      ClhTestFrame *want = clh_test_frame_new (formats[f], 101, 67, f,
          CLH_TEST_RANDOM, f);
      const guint x = 36, y = f % 2 ? 0 : 32, alpha = 40 * f + 30;
      ClhFrame frame;
      ClhHostBlock *block = frame_in_block (context, tf, &frame);
      ClhScopeSpec spec;
      ClhScopeLayout layout;
      guint32 *counts;
      guint8 *picture;
      GError *err = NULL;
      gchar *what = g_strdup_printf ("%s in a host block, overlay at (%u, "
          "%u), alpha %u, tuning %u", formats[f], x, y, alpha, t);

      spec_for (&pictures[f % 2 ? 2 : 0], tf->klass, &spec);
      spec.width = 64;
      spec.height = 32;
      g_assert_true (clh_scope_overlay (scope, &frame, &spec, block, x, y,
              alpha, &err));
      g_assert_no_error (err);
      clh_reference_scope_layout (&spec, &want->frame, &layout);
      counts = g_new (guint32, layout.n_counts);
      picture = g_malloc ((gsize) spec.width * 4 * spec.height);
      clh_reference_scope_counts (&want->frame, &spec, &layout, counts);
      clh_reference_scope_picture (&spec, &layout, counts, picture,
          (gsize) spec.width * 4);
      clh_reference_scope_overlay (&want->frame, &spec, picture, x, y,
          alpha);
      assert_block_holds (block, want, what);
      g_free (what);
      g_free (picture);
      g_free (counts);
      clh_host_block_free (block);
      clh_test_frame_free (tf);
      clh_test_frame_free (want);
    }
  }
  clh_scope_set_tuning (scope, NULL);
}

/* Overlays the engine refuses: outside the frame, off the chroma grid. */
static void
test_overlay_invalid (void)
{
  ClhTestFrame *tf = clh_test_frame_new ("I420", 100, 60, 0,
      CLH_TEST_RANDOM, 1);
  ClhScopeSpec spec;
  GError *err = NULL;

  spec_for (&pictures[0], tf->klass, &spec);
  spec.width = 64;
  spec.height = 32;
  g_assert_false (clh_scope_overlay (scope, &tf->frame, &spec, NULL, 40, 0, 255,
          &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_assert_nonnull (strstr (err->message, "inside the frame"));
  g_clear_error (&err);
  g_assert_false (clh_scope_overlay (scope, &tf->frame, &spec, NULL, 1, 2, 255,
          &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_assert_nonnull (strstr (err->message, "subsampling"));
  g_clear_error (&err);
  g_assert_false (clh_scope_overlay (scope, &tf->frame, &spec, NULL, 0, 0, 256,
          &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  clh_test_frame_free (tf);
}

/* Requests the engine refuses, saying why; none leaves it unusable. */
static void
test_invalid (void)
{
  ClhTestFrame *tf = clh_test_frame_new ("I420", 64, 48, 0, CLH_TEST_RANDOM,
      1);
  ClhTestFrame *gray = clh_test_frame_new ("GRAY8", 64, 48, 0,
      CLH_TEST_RANDOM, 1);
  ClhScopeSpec spec, bad;
  guint8 *dest = g_malloc (4096 * 16 * 4);
  GError *err = NULL;

  spec_for (&pictures[0], tf->klass, &spec);
  bad = spec;
  bad.kinds = 0;
  g_assert_false (clh_scope_draw (scope, &tf->frame, &bad, NULL, dest, 4 * 384,
          NULL, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_assert_nonnull (strstr (err->message, "waveform"));
  g_clear_error (&err);
  bad = spec;
  bad.width = 20;
  bad.kinds = CLH_SCOPE_ALL_KINDS;
  g_assert_false (clh_scope_draw (scope, &tf->frame, &bad, NULL, dest, 4 * 20,
          NULL, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_assert_nonnull (strstr (err->message, "too small"));
  g_clear_error (&err);
  bad = spec;
  bad.intensity = 0.0;
  g_assert_false (clh_scope_draw (scope, &tf->frame, &bad, NULL, dest, 4 * 384,
          NULL, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  g_assert_false (clh_scope_draw (scope, &gray->frame, &spec, NULL, dest, 4 * 384,
          NULL, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_assert_nonnull (strstr (err->message, "three components"));
  g_clear_error (&err);
  g_assert_false (clh_scope_draw (scope, &tf->frame, &spec, NULL, dest, 4 * 383,
          NULL, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  check_scope (&tf->frame, &spec, "after the refusals");
  g_free (dest);
  clh_test_frame_free (gray);
  clh_test_frame_free (tf);
}

/* The engine's picture of @tf with @spec, after checking it against the
 * reference's; the caller frees it. */
static guint8 *
engine_picture (const ClhTestFrame *tf, const ClhScopeSpec *spec,
    const gchar *what)
{
  guint8 *got = g_malloc0 ((gsize) spec->width * 4 * spec->height);
  GError *err = NULL;

  check_scope (&tf->frame, spec, what);
  g_assert_true (clh_scope_draw (scope, &tf->frame, spec, NULL, got,
          (gsize) spec->width * 4, NULL, &err));
  g_assert_no_error (err);
  return got;
}

/* Pixel (@x, @y) of @picture is @colour (R, G, B, alpha) laid over no
 * trace. */
static void
assert_over_black (const guint8 *picture, const ClhScopeSpec *spec, guint x,
    guint y, const guint8 colour[4], const gchar *what)
{
  const guint8 *px = picture + ((gsize) y * spec->width + x) * 4;
  guint k;

  for (k = 0; k < 3; k++)
    if (px[k] != (colour[k] * colour[3] + 127) / 255)
      g_error ("%s: pixel (%u, %u) is %02x%02x%02x, not the label's", what,
          x, y, px[0], px[1], px[2]);
}

/* The model's graticule layer of @spec, after checking it against the
 * reference's; the caller frees it. */
static guint8 *
graticule_of (const ClhTestFrame *tf, const ClhScopeSpec *spec)
{
  const gsize stride = (gsize) spec->width * 4;
  guint8 *got = g_malloc (stride * spec->height);
  guint8 *want = g_malloc (stride * spec->height);
  ClhScopeLayout layout, reference;

  clh_scope_layout (spec, &tf->frame, &layout);
  clh_reference_scope_layout (spec, &tf->frame, &reference);
  clh_scope_draw_graticule (spec, &layout, got, stride);
  clh_reference_scope_graticule (spec, &reference, want, stride);
  assert_pictures_equal (got, want, spec->width, spec->height, stride,
      "the graticule layer");
  g_free (want);
  return got;
}

/* Pixels of @layer of exactly @colour. */
static guint
count_colour (const guint8 *layer, const ClhScopeSpec *spec,
    const guint8 colour[4])
{
  const gsize n = (gsize) spec->width * spec->height;
  guint count = 0;
  gsize i;

  for (i = 0; i < n; i++)
    count += memcmp (layer + 4 * i, colour, 4) == 0;
  return count;
}

/* The waveform's numbers where its lines are, on the device as in the
 * model: picture 0's 256x128 waveform (IRE, 8-bit limited range, 128
 * value bins) has 100 IRE (code 235, bin 117) in row 10 and its label 8
 * rows over it, so the 1 of "100" (font column 2) lights (4, 2); 0 IRE
 * (bin 8, row 119) its 0 at (3, 111); 10 IRE (code 38, bin 19, row 108)
 * its 1 at (4, 100), in the lines' colours. Full-range codes: 255's line
 * is the top row, so its label lies 2 rows under it, the 2's top at (3,
 * 2). None without a graticule, none on a plot too low for two labels
 * apart (only lines' colours in its layer). */
static void
test_labels (void)
{
  static const guint8 legal_label[4] = { 255, 190, 80, 230 };
  static const guint8 label[4] = { 150, 220, 150, 210 };
  ClhTestFrame *tf = clh_test_frame_new ("I420", 64, 48, 0, CLH_TEST_ZERO,
      0);
  ClhScopeSpec spec;
  guint8 *got;
  gsize i;

  spec_for (&pictures[0], tf->klass, &spec);
  got = engine_picture (tf, &spec, "IRE labels");
  assert_over_black (got, &spec, 4, 2, legal_label, "the 1 of 100 IRE");
  assert_over_black (got, &spec, 3, 111, legal_label, "the 0 of 0 IRE");
  assert_over_black (got, &spec, 4, 100, label, "the 1 of 10 IRE");
  g_free (got);

  spec.graticule = CLH_SCOPE_GRATICULE_NONE;
  got = engine_picture (tf, &spec, "no graticule");
  g_assert_cmpuint (got[(2 * spec.width + 4) * 4], ==, 0);
  g_assert_cmpuint (got[(100 * spec.width + 4) * 4 + 1], ==, 0);
  g_free (got);

  spec.kinds = CLH_SCOPE_WAVEFORM;
  spec.graticule = CLH_SCOPE_GRATICULE_CODES;
  spec.limited = FALSE;
  spec.width = 256;
  got = engine_picture (tf, &spec, "code labels");
  assert_over_black (got, &spec, 3, 2, label, "the 2 of 255");
  g_free (got);

  /* 16 rows: 0 and 100 IRE's labels would overlap. */
  spec.graticule = CLH_SCOPE_GRATICULE_IRE;
  spec.width = 64;
  spec.height = 16;
  got = graticule_of (tf, &spec);
  for (i = 0; i < (gsize) spec.width * spec.height; i++)
    if (got[4 * i + 3] != 0 && got[4 * i + 3] != 120
        && got[4 * i + 3] != 200)
      g_error ("a label's pixel (%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
          ") on a plot of 16 rows", i % spec.width, i / spec.width);
  g_free (got);
  g_free (engine_picture (tf, &spec, "16 rows, no labels"));
  clh_test_frame_free (tf);
}

/* The vectorscope's targets named: a 256-pixel square's red target is its
 * outline (half side 4: 32 pixels) and its R (18 pixels) in the target's
 * colour; a 127-pixel square's the outline alone (half side 2: 16); at
 * zoom 2 the 75% targets lie beyond the square, left out. */
static void
test_target_names (void)
{
  static const guint8 red[4] = { 255, 40, 40, 230 };
  ClhTestFrame *tf = clh_test_frame_new ("I420", 64, 48, 0,
      CLH_TEST_RANDOM, 2);
  ClhScopeSpec spec;
  guint8 *layer;

  spec_for (&pictures[3], tf->klass, &spec);
  spec.vectorscope_zoom = 0;
  spec.width = spec.height = 256;
  layer = graticule_of (tf, &spec);
  g_assert_cmpuint (count_colour (layer, &spec, red), ==, 32 + 18);
  g_free (layer);
  g_free (engine_picture (tf, &spec, "named targets"));
  spec.width = spec.height = 127;
  layer = graticule_of (tf, &spec);
  g_assert_cmpuint (count_colour (layer, &spec, red), ==, 16);
  g_free (layer);
  spec.width = spec.height = 256;
  spec.vectorscope_zoom = 2;
  layer = graticule_of (tf, &spec);
  g_assert_cmpuint (count_colour (layer, &spec, red), ==, 0);
  g_free (layer);
  g_free (engine_picture (tf, &spec, "zoomed targets"));
  clh_test_frame_free (tf);
}

/* Sets every sample of 8-bit component @c to @v. */
static void
fill_component (ClhTestFrame *tf, guint c, guint8 v)
{
  const ClhComponent *comp = &tf->frame.components[c];
  guint x, y;

  for (y = 0; y < clh_component_height (&tf->frame, c); y++)
    for (x = 0; x < clh_component_width (&tf->frame, c); x++)
      tf->memory[comp->plane][tf->frame.planes[comp->plane].stride * y
          + comp->offset + (gsize) comp->pixel_stride * x] = v;
}

/* A frame of one colour, Cb 128 + d and Cr 128, in a 256-pixel
 * vectorscope of 256 bins: unzoomed, the one pixel (128 + d, 127) lights;
 * at zoom 2 (a pixel a half bin) the 2x2 pixels from (128 + 2 d, 126),
 * twice as far out; where that lies beyond the square, none (the samples
 * are not drawn on its edge). */
static void
test_zoom (void)
{
  const gint offsets[] = { 20, -30, 63, 64, 70, -64, -65 };
  guint i, zoom;

  for (i = 0; i < G_N_ELEMENTS (offsets); i++)
    for (zoom = 1; zoom <= 2; zoom++) {
      const gint d = offsets[i];
      ClhTestFrame *tf = clh_test_frame_new ("I420", 32, 16, 0,
          CLH_TEST_ZERO, 0);
      const gint x0 = 128 + (gint) zoom * d;
      const gint y0 = zoom == 1 ? 127 : 126;
      ClhScopeSpec spec;
      gchar *what = g_strdup_printf ("Cb offset %d, zoom %u", d, zoom);
      guint8 *got;
      gint x, y;

      fill_component (tf, 0, 100);
      fill_component (tf, 1, (guint8) (128 + d));
      fill_component (tf, 2, 128);
      spec_for (&pictures[3], tf->klass, &spec);
      spec.width = spec.height = 256;
      spec.graticule = CLH_SCOPE_GRATICULE_NONE;
      spec.scale = CLH_SCOPE_LINEAR;
      spec.intensity = 1.0;
      spec.vectorscope_zoom = zoom;
      got = engine_picture (tf, &spec, what);
      for (y = 0; y < 256; y++)
        for (x = 0; x < 256; x++) {
          const guint8 *px = got + ((gsize) y * 256 + x) * 4;
          const gboolean lit = px[0] || px[1] || px[2];
          const gboolean want = x >= x0 && x < x0 + (gint) zoom && y >= y0
              && y < y0 + (gint) zoom;

          if (lit != want)
            g_error ("%s: pixel (%d, %d) is %s", what, x, y, lit ? "lit" :
                "dark");
        }
      g_free (got);
      g_free (what);
      clh_test_frame_free (tf);
    }
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
  scope = clh_scope_new (context, &err);
  g_assert_no_error (err);
  for (i = 0; formats[i]; i++) {
    gchar *path;

    if (!clh_test_format_in_run (formats[i]))
      continue;
    path = g_strdup_printf ("/scope/format/%s", formats[i]);
    g_test_add_data_func (path, formats[i], test_format);
    g_free (path);
    path = g_strdup_printf ("/scope/overlay/%s", formats[i]);
    g_test_add_data_func (path, formats[i], test_overlay);
    g_free (path);
  }
  g_test_add_func ("/scope/large", test_large);
  g_test_add_func ("/scope/changes", test_changes);
  g_test_add_func ("/scope/thresholds", test_thresholds);
  g_test_add_func ("/scope/clip-indicators", test_clip_indicators);
  g_test_add_func ("/scope/labels", test_labels);
  g_test_add_func ("/scope/target-names", test_target_names);
  g_test_add_func ("/scope/zoom", test_zoom);
  g_test_add_func ("/scope/host-block", test_host_block);
  g_test_add_func ("/scope/host-block-unused", test_host_block_unused);
  g_test_add_func ("/scope/overlay-host-block", test_overlay_host_block);
  g_test_add_func ("/scope/picture-host-block", test_picture_host_block);
  g_test_add_func ("/scope/invalid", test_invalid);
  g_test_add_func ("/scope/overlay-invalid", test_overlay_invalid);
  ret = g_test_run ();
  clh_scope_free (scope);
  clh_context_unref (context);
  return ret;
}
