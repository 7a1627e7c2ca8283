/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The engine's regions against the golden reference, bit for bit: random
 * sets of 1..256 rectangles (the frame's edges, odd offsets, 1x1, outside
 * it, overlapping) on every format x mode x {1, 7, most} bins, with and
 * without the whole frame, read in place and copied; degenerate and
 * gradient contents; uploads in bands; frames in flight with different
 * regions; tables kept on the device from frame to frame; zones 1x1 (the whole frame), 5x5 and 15x15; too many
 * regions. */
#include <string.h>

#include "clh-engine-tuning.h"
#include "clh-reference.h"
#include "clh-test-counting.h"
#include "clh-test-frame.h"

static ClhEngine *engine;

/* Who counts: the kernels, or for the /regions/host/ tests the host CPU
 * where it can. */
static ClhCounting counting = CLH_COUNTING_DEVICE;

static const gchar *const modes[] = {
  "luma", "channels", "max", "hue", "hue-saturation", "rgb",
};


static gsize
n_counters (const ClhHistogramSpec *spec)
{
  return (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);
}

static ClhHistogram *
histograms_new (const ClhHistogramSpec *spec, guint n)
{
  ClhHistogram *h = g_new0 (ClhHistogram, MAX (n, 1));
  guint i;

  for (i = 0; i < n; i++)
    h[i].counts = g_new0 (guint32, n_counters (spec));
  return h;
}

static void
histograms_free (ClhHistogram *h, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    g_free (h[i].counts);
  g_free (h);
}

/* Fails unless @got equals @want, counter for counter. */
static void
check_equal (const ClhHistogramSpec *spec, const ClhHistogram *got,
    const ClhHistogram *want, const gchar *what, guint index)
{
  gsize i;
  guint c;

  for (i = 0; i < n_counters (spec); i++)
    if (got->counts[i] != want->counts[i])
      g_error ("%s, histogram %u: counter %" G_GSIZE_FORMAT " is %u, the "
          "reference says %u", what, index, i, got->counts[i],
          want->counts[i]);
  for (c = 0; c < CLH_MAX_CHANNELS; c++)
    if (got->samples[c] != want->samples[c] || got->below[c] != want->below[c]
        || got->above[c] != want->above[c])
      g_error ("%s, histogram %u: channel %u has %" G_GUINT64_FORMAT
          " samples, %" G_GUINT64_FORMAT " below, %" G_GUINT64_FORMAT
          " above; the reference says %" G_GUINT64_FORMAT ", %"
          G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT, what, index, c,
          got->samples[c], got->below[c], got->above[c], want->samples[c],
          want->below[c], want->above[c]);
}

/* The reference's histograms of a submission: the whole frame's first if
 * @full_frame, then each region's. */
static ClhHistogram *
reference_histograms (const ClhFrame *frame, const ClhHistogramSpec *spec,
    gboolean full_frame, const ClhRect *rects, guint n)
{
  const ClhRect whole = { 0, 0, (gint) frame->width, (gint) frame->height };
  ClhHistogram *want = histograms_new (spec, full_frame + n);
  guint i;

  for (i = 0; i < full_frame + n; i++)
    clh_reference_histogram_region (frame, spec, full_frame && i == 0 ?
        &whole : &rects[i - full_frame], &want[i]);
  return want;
}

static void
check_collected (const ClhFrame *frame, const ClhHistogramSpec *spec,
    gboolean full_frame, const ClhRect *rects, guint n, const gchar *what)
{
  ClhHistogram *want = reference_histograms (frame, spec, full_frame, rects,
      n);
  ClhHistogram *got = histograms_new (spec, full_frame + n);
  GError *err = NULL;
  guint i;

  g_assert_cmpuint (clh_engine_get_next_n_histograms (engine), ==,
      full_frame + n);
  if (!clh_engine_collect_regions (engine, got, full_frame + n, &err))
    g_error ("%s: %s", what, err->message);
  for (i = 0; i < full_frame + n; i++)
    check_equal (spec, &got[i], &want[i], what, i);
  histograms_free (got, full_frame + n);
  histograms_free (want, full_frame + n);
}

/* Counts @n regions of @frame (and the whole frame if @full_frame) in one
 * submission and compares each with the reference. */
static void
check_regions (const ClhFrame *frame, const ClhHistogramSpec *spec,
    gboolean full_frame, const ClhRect *rects, guint n, const gchar *what)
{
  GError *err = NULL;

  if (!clh_engine_submit_regions (engine, frame, spec, full_frame, rects, n,
          NULL, &err))
    g_error ("%s: %s", what, err->message);
  if (clh_engine_next_counts_on_host (engine) != (counting
          == CLH_COUNTING_HOST && clh_test_host_can_count (frame, spec)))
    g_error ("%s: counted by the %s", what,
        clh_engine_next_counts_on_host (engine) ? "host" : "kernels");
  check_collected (frame, spec, full_frame, rects, n, what);
}

/* @n rectangles of a @width x @height frame: the whole frame, 1x1 at two
 * corners, ones crossing each edge, wholly outside, empty and of negative
 * size first; then random ones, many overlapping, at odd offsets. */
static void
random_rects (GRand *rand, guint width, guint height, ClhRect *rects,
    guint n)
{
  const gint w = width, h = height;
  const ClhRect special[] = {
    {0, 0, w, h}, {0, 0, 1, 1}, {w - 1, h - 1, 1, 1}, {-3, -2, 7, 5},
    {w - 2, h / 2, 9, 3}, {w / 3, -5, 3, h + 10}, {w + 4, 1, 5, 5},
    {2, -9, 4, 3}, {1, 1, 0, 4}, {3, 2, -4, 5}, {G_MININT / 2, 0, 10, 10},
    {1, 1, G_MAXINT / 2, G_MAXINT / 2},
  };
  guint i;

  for (i = 0; i < n; i++) {
    if (i < G_N_ELEMENTS (special)) {
      rects[i] = special[i];
      continue;
    }
    rects[i].x = g_rand_int_range (rand, -w / 4, w + 2);
    rects[i].y = g_rand_int_range (rand, -h / 4, h + 2);
    rects[i].width = g_rand_int_range (rand, 1, w / 2 + 3);
    rects[i].height = g_rand_int_range (rand, 1, h / 2 + 3);
  }
  /* Shuffled, so that the special ones sit anywhere in the table. */
  for (i = n; i > 1; i--) {
    const guint j = g_rand_int_range (rand, 0, i);
    const ClhRect t = rects[i - 1];

    rects[i - 1] = rects[j];
    rects[j] = t;
  }
}

/* Every mode of @format with 1, 7 and the most bins, on random region
 * sets of 1..256 rectangles, with and without the whole frame. */
static void
check_format (const gchar *format, guint width, guint height,
    guint extra_stride, ClhTestContent content, guint32 seed)
{
  ClhTestFrame *t = clh_test_frame_new (format, width, height, extra_stride,
      content, seed);
  GRand *rand = g_rand_new_with_seed (seed);
  ClhRect rects[256];
  guint m, b, run = 0;

  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    const guint bins[] = { 1, 7,
      clh_test_max_bins (modes[m], t->frame.depth) };

    for (b = 0; b < G_N_ELEMENTS (bins); b++, run++) {
      const guint n = run % 3 == 0 ? 1 + g_rand_int_range (rand, 0, 8) :
          run % 3 == 1 ? 256 : g_rand_int_range (rand, 1, 257);
      ClhHistogramSpec spec;
      gchar *what;

      if (!clh_reference_spec (t->klass, &t->frame, modes[m], bins[b],
              &spec))
        continue;
      random_rects (rand, width, height, rects, n);
      what = g_strdup_printf ("%s %ux%u stride +%u %s, %s, %u bins, %u "
          "regions%s", format, width, height, extra_stride,
          clh_test_content_name (content), modes[m], bins[b], n,
          run % 2 ? ", no whole frame" : "");
      clh_engine_set_transfer (engine, run % 4 < 2 ? CLH_TRANSFER_AUTO :
          CLH_TRANSFER_COPY);
      /* Work-groups of 64 pixels give most regions several, and 32-bit
       * counters; the default gives these small frames' regions one, and
       * 16-bit counters. */
      clh_engine_set_region_pixels_per_group (engine, run % 3 == 2 ? 64 : 0);
      check_regions (&t->frame, &spec, run % 2 == 0, rects, n, what);
      g_free (what);
    }
  }
  clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);
  clh_engine_set_region_pixels_per_group (engine, 0);
  g_rand_free (rand);
  clh_test_frame_free (t);
}

static void
test_format (gconstpointer data)
{
  const gchar *format = data;

  check_format (format, 61, 37, 5, CLH_TEST_RANDOM, 7);
  check_format (format, 24, 9, 0, CLH_TEST_GRADIENT, 8);
  check_format (format, 5, 3, 3, CLH_TEST_MAX, 9);
}

/* Frames uploaded in bands of a few rows (regions crossing band
 * boundaries, subsampled rows), copied from a padded frame. */
static void
test_bands (void)
{
  const gchar *const formats[] = {
    "GRAY8", "RGBA", "I420", "YUV9", "NV12", "YUY2", "P010_10LE", "RGB",
  };
  guint f, m;

  clh_engine_set_transfer (engine, CLH_TRANSFER_COPY);
  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    ClhTestFrame *t = clh_test_frame_new (formats[f], 45, 41, 3,
        CLH_TEST_RANDOM, f);
    GRand *rand = g_rand_new_with_seed (f);
    ClhRect rects[40];

    clh_engine_set_staging_limit (engine, 3 * t->frame.planes[0].stride);
    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      ClhHistogramSpec spec;
      gchar *what;

      if (!clh_reference_spec (t->klass, &t->frame, modes[m], 7, &spec))
        continue;
      random_rects (rand, 45, 41, rects, G_N_ELEMENTS (rects));
      clh_engine_set_region_pixels_per_group (engine, m % 2 ? 64 : 0);
      what = g_strdup_printf ("%s %s in bands", formats[f], modes[m]);
      check_regions (&t->frame, &spec, TRUE, rects, G_N_ELEMENTS (rects),
          what);
      g_free (what);
    }
    g_rand_free (rand);
    clh_test_frame_free (t);
  }
  clh_engine_set_staging_limit (engine, 64u << 20);
  clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);
  clh_engine_set_region_pixels_per_group (engine, 0);
}

/* A region counted by one work-group has 16-bit counters if no channel has
 * more than 65535 samples, else 32-bit ones: 255 x 257 = 65535 pixels of
 * one value fill one 16-bit counter, 256 x 256 would wrap it; beside them
 * a region of several work-groups, one across the frame's edge, and the
 * whole frame, on one value and on random frames, in bands and whole, and
 * with 32-bit counters only. */
static void
test_counter_widths (void)
{
  const ClhRect rects[] = {
    {0, 0, 255, 257}, {0, 0, 256, 256}, {1, 2, 255, 257}, {40, 30, 20, 20},
    {200, 100, 200, 200}, {3, 5, 1, 1}, {-5, -5, 400, 400},
  };
  const ClhTestContent contents[] = { CLH_TEST_MAX, CLH_TEST_RANDOM };
  const gchar *const formats[] = { "GRAY8", "RGBA", "I420" };
  guint f, c, bands;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (c = 0; c < G_N_ELEMENTS (contents); c++)
      for (bands = 0; bands < 3; bands++) {
        ClhTestFrame *t = clh_test_frame_new (formats[f], 301, 283, 2,
            contents[c], 12 + f);
        ClhHistogramSpec spec;
        gchar *what = g_strdup_printf ("%s, %s, %s", formats[f],
            clh_test_content_name (contents[c]), bands == 1 ? "in bands" :
            bands == 2 ? "32-bit counters only" : "whole");

        g_assert_true (clh_reference_spec (t->klass, &t->frame, "channels",
                256, &spec));
        clh_engine_set_transfer (engine, bands == 1 ? CLH_TRANSFER_COPY :
            CLH_TRANSFER_AUTO);
        clh_engine_set_narrow_counters (engine, bands != 2);
        clh_engine_set_staging_limit (engine, bands == 1 ?
            40 * t->frame.planes[0].stride : 64u << 20);
        /* One work-group per region up to 65536 pixels. */
        clh_engine_set_region_pixels_per_group (engine, 65536);
        check_regions (&t->frame, &spec, TRUE, rects, G_N_ELEMENTS (rects),
            what);
        g_free (what);
        clh_test_frame_free (t);
      }
  clh_engine_set_region_pixels_per_group (engine, 0);
  clh_engine_set_narrow_counters (engine, TRUE);
  clh_engine_set_staging_limit (engine, 64u << 20);
  clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);
}

/* Zones of a C x R grid: 1x1 is the whole frame; every grid's zones
 * tile the frame (their histograms sum to the whole frame's) and each
 * equals the reference. */
static void
check_zones (const gchar *format, const gchar *mode, guint cols, guint rows)
{
  ClhTestFrame *t = clh_test_frame_new (format, 601, 479, 7,
      CLH_TEST_RANDOM, cols * rows);
  const guint n = cols * rows;
  ClhRect *rects = g_new (ClhRect, n);
  ClhHistogram *got, *want;
  ClhHistogramSpec spec;
  GError *err = NULL;
  gchar *what;
  guint i, j, c;
  gsize k;

  g_assert_true (clh_reference_spec (t->klass, &t->frame, mode, 64, &spec));
  for (j = 0; j < rows; j++)
    for (i = 0; i < cols; i++)
      clh_zone_rect (601, 479, cols, rows, i, j, &rects[j * cols + i]);
  what = g_strdup_printf ("%s %s, zones %ux%u", format, mode, cols, rows);
  g_assert_true (clh_engine_submit_regions (engine, &t->frame, &spec, TRUE,
          rects, n, NULL, &err));
  g_assert_no_error (err);
  got = histograms_new (&spec, n + 1);
  g_assert_true (clh_engine_collect_regions (engine, got, n + 1, &err));
  want = reference_histograms (&t->frame, &spec, TRUE, rects, n);
  for (i = 0; i <= n; i++)
    check_equal (&spec, &got[i], &want[i], what, i);
  /* The zones' sum is the whole frame's. */
  for (i = 2; i <= n; i++) {
    for (k = 0; k < n_counters (&spec); k++)
      got[1].counts[k] += got[i].counts[k];
    for (c = 0; c < CLH_MAX_CHANNELS; c++) {
      got[1].samples[c] += got[i].samples[c];
      got[1].below[c] += got[i].below[c];
      got[1].above[c] += got[i].above[c];
    }
  }
  check_equal (&spec, &got[1], &got[0], what, 0);
  histograms_free (got, n + 1);
  histograms_free (want, n + 1);
  g_free (rects);
  g_free (what);
  clh_test_frame_free (t);
}

static void
test_zones (void)
{
  static const guint grids[][2] = { {1, 1}, {5, 5}, {15, 15}, {7, 3} };
  guint g;

  for (g = 0; g < G_N_ELEMENTS (grids); g++) {
    check_zones ("GRAY8", "luma", grids[g][0], grids[g][1]);
    check_zones ("RGBA", "luma", grids[g][0], grids[g][1]);
    check_zones ("I420", "channels", grids[g][0], grids[g][1]);
    check_zones ("I420", "hue", grids[g][0], grids[g][1]);
  }
}

/* Frames in flight, each with its own regions: none at all, only empty
 * ones, many; collected in order. */
static void
test_in_flight (void)
{
  ClhTestFrame *t = clh_test_frame_new ("NV12", 64, 48, 0, CLH_TEST_RANDOM,
      5);
  const ClhRect empty[] = { {70, 0, 4, 4}, {0, 0, 0, 0} };
  const ClhRect some[] = { {1, 1, 13, 17}, {0, 0, 64, 48}, {63, 47, 1, 1} };
  ClhHistogramSpec spec;
  GError *err = NULL;
  guint round;

  g_assert_true (clh_reference_spec (t->klass, &t->frame, "channels", 16,
          &spec));
  g_assert_true (clh_engine_set_max_in_flight (engine, 4, &err));
  for (round = 0; round < 3; round++) {
    g_assert_true (clh_engine_submit_regions (engine, &t->frame, &spec,
            FALSE, NULL, 0, NULL, &err));
    g_assert_true (clh_engine_submit_regions (engine, &t->frame, &spec,
            round == 1, empty, G_N_ELEMENTS (empty), NULL, &err));
    g_assert_true (clh_engine_submit_regions (engine, &t->frame, &spec,
            TRUE, some, G_N_ELEMENTS (some), NULL, &err));
    g_assert_true (clh_engine_submit (engine, &t->frame, &spec, NULL, &err));
    g_assert_no_error (err);
    check_collected (&t->frame, &spec, FALSE, NULL, 0, "nothing");
    check_collected (&t->frame, &spec, round == 1, empty,
        G_N_ELEMENTS (empty), "empty regions");
    check_collected (&t->frame, &spec, TRUE, some, G_N_ELEMENTS (some),
        "some regions");
    check_collected (&t->frame, &spec, TRUE, NULL, 0, "whole frame");
  }
  g_assert_true (clh_engine_set_max_in_flight (engine, 1, &err));
  clh_test_frame_free (t);
}

/* Frames in flight counted alternately by the host CPU and the kernels,
 * with and without regions, in one engine: a host frame leaves the
 * device's counters, and the clearing of the next slot's that a launch
 * does, as they were. Hue is always the kernels'. */
static void
test_mixed_counting (void)
{
  ClhTestFrame *t = clh_test_frame_new ("NV12", 64, 48, 3, CLH_TEST_RANDOM,
      13);
  const ClhRect some[] = { {1, 1, 13, 17}, {0, 0, 64, 48}, {63, 47, 1, 1} };
  const gchar *const specs[] = { "channels", "hue" };
  const guint in_flight[] = { 1, 3, 4 };
  ClhHistogramSpec spec[2];
  GError *err = NULL;
  guint f, i, k;

  for (k = 0; k < 2; k++)
    g_assert_true (clh_reference_spec (t->klass, &t->frame, specs[k], 16,
            &spec[k]));
  for (f = 0; f < G_N_ELEMENTS (in_flight); f++) {
    g_assert_true (clh_engine_set_max_in_flight (engine, in_flight[f],
            &err));
    for (i = 0; i < 24; i += in_flight[f]) {
      gboolean on_host[4];
      guint j;

      for (j = 0; j < in_flight[f]; j++) {
        const guint n = i + j, which = n % 5 == 4;
        const gboolean host = n % 3 != 1;

        clh_engine_set_counting (engine, host ? CLH_COUNTING_HOST :
            CLH_COUNTING_DEVICE);
        g_assert_true (clh_engine_submit_regions (engine, &t->frame,
                &spec[which], n % 2 == 0, some, n % 4, NULL, &err));
        g_assert_no_error (err);
        on_host[j] = host && !which;
      }
      for (j = 0; j < in_flight[f]; j++) {
        const guint n = i + j;

        g_assert_cmpint (clh_engine_next_counts_on_host (engine), ==,
            on_host[j]);
        check_collected (&t->frame, &spec[n % 5 == 4], n % 2 == 0, some,
            n % 4, on_host[j] ? "host" : "kernels");
      }
    }
  }
  clh_engine_set_counting (engine, counting);
  g_assert_true (clh_engine_set_max_in_flight (engine, 1, &err));
  clh_test_frame_free (t);
}

/* Adds @plain, or @func with @data, as /regions/host/@name, run with the
 * host counting what it can. */
static void
add_host_test (const gchar *name, GTestFunc plain, GTestDataFunc func,
    gconstpointer data)
{
  gchar *path = g_strdup_printf ("/regions/host/%s", name);

  clh_test_add_on_host (path, &engine, &counting, plain, func, data);
  g_free (path);
}

/* The device keeps each slot's region table from frame to frame: a table
 * equal to the one before is not written again, one of the same size with
 * one rectangle moved by a pixel is. Every slot of the ring sees each case,
 * one and three frames in flight. */
static void
test_table_reuse (void)
{
  ClhTestFrame *t = clh_test_frame_new ("RGBA", 48, 40, 4, CLH_TEST_RANDOM,
      11);
  const ClhRect a[] = { {0, 0, 16, 16}, {5, 7, 9, 3}, {40, 30, 20, 20} };
  const ClhRect b[] = { {0, 0, 16, 16}, {6, 7, 9, 3}, {40, 30, 20, 20} };
  const ClhRect *const sets[] = { a, a, a, a, b, b, a, b, a, a, b };
  const guint n_in_flight[] = { 1, 3 };
  ClhHistogramSpec spec;
  GError *err = NULL;
  guint f, i;

  g_assert_true (clh_reference_spec (t->klass, &t->frame, "channels", 64,
          &spec));
  for (f = 0; f < G_N_ELEMENTS (n_in_flight); f++) {
    const guint depth = n_in_flight[f];

    g_assert_true (clh_engine_set_max_in_flight (engine, depth, &err));
    for (i = 0; i < G_N_ELEMENTS (sets) + depth; i++) {
      if (i >= depth)
        check_collected (&t->frame, &spec, (i - depth) % 2 == 0,
            sets[i - depth], G_N_ELEMENTS (a), sets[i - depth] == a ?
            "table a" : "table b");
      if (i < G_N_ELEMENTS (sets)
          && !clh_engine_submit_regions (engine, &t->frame, &spec, i % 2 == 0,
              sets[i], G_N_ELEMENTS (a), NULL, &err))
        g_error ("frame %u: %s", i, err->message);
    }
  }
  g_assert_true (clh_engine_set_max_in_flight (engine, 1, &err));
  clh_test_frame_free (t);
}

/* More than CLH_MAX_REGIONS regions, or a collect of the wrong number of
 * histograms, is refused; the engine goes on. */
static void
test_limits (void)
{
  ClhTestFrame *t = clh_test_frame_new ("GRAY8", 16, 16, 0, CLH_TEST_RANDOM,
      6);
  ClhRect *rects = g_new0 (ClhRect, CLH_MAX_REGIONS + 1);
  ClhHistogram *got;
  ClhHistogramSpec spec;
  GError *err = NULL;

  g_assert_true (clh_reference_spec (t->klass, &t->frame, "luma", 256,
          &spec));
  g_assert_false (clh_engine_submit_regions (engine, &t->frame, &spec, TRUE,
          rects, CLH_MAX_REGIONS + 1, NULL, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  g_assert_cmpuint (clh_engine_get_n_pending (engine), ==, 0);

  g_assert_true (clh_engine_submit_regions (engine, &t->frame, &spec, TRUE,
          rects, 2, NULL, &err));
  got = histograms_new (&spec, 3);
  g_assert_false (clh_engine_collect_regions (engine, got, 2, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  histograms_free (got, 3);
  g_assert_cmpuint (clh_engine_get_n_pending (engine), ==, 0);

  /* The most regions there may be, each the whole frame. */
  {
    guint i;

    for (i = 0; i < CLH_MAX_REGIONS; i++)
      rects[i] = (ClhRect) { i % 3, i % 5, 16, 16 };
    check_regions (&t->frame, &spec, TRUE, rects, CLH_MAX_REGIONS,
        "the most regions");
  }
  g_free (rects);
  clh_test_frame_free (t);
}

int
main (int argc, char **argv)
{
  const gchar *const *formats;
  GError *err = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  engine = clh_engine_new (g_getenv ("CLH_TEST_DEVICE"), &err);
  g_assert_no_error (err);
  g_test_message ("device: %s (%s)", clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine));
  clh_engine_set_counting (engine, counting);

  for (formats = clh_reference_formats (); *formats; formats++) {
    gchar *path = g_strdup_printf ("/regions/format/%s", *formats);
    g_test_add_data_func (path, *formats, test_format);
    g_free (path);
  }
  for (formats = clh_reference_formats (); *formats; formats++) {
    gchar *name = g_strdup_printf ("format/%s", *formats);
    add_host_test (name, NULL, test_format, *formats);
    g_free (name);
  }
  add_host_test ("zones", test_zones, NULL, NULL);
  add_host_test ("in-flight", test_in_flight, NULL, NULL);
  g_test_add_func ("/regions/mixed-counting", test_mixed_counting);
  g_test_add_func ("/regions/bands", test_bands);
  g_test_add_func ("/regions/zones", test_zones);
  g_test_add_func ("/regions/in-flight", test_in_flight);
  g_test_add_func ("/regions/table-reuse", test_table_reuse);
  g_test_add_func ("/regions/counter-widths", test_counter_widths);
  g_test_add_func ("/regions/limits", test_limits);

  ret = g_test_run ();
  clh_engine_free (engine);
  return ret;
}
