/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The OpenCL engine against the golden reference, without GStreamer: every
 * format x mode x {1, odd, maximum bins} x odd sizes x contents, padded
 * strides, ranges with samples below and above, hue masks, uploads in
 * bands, the largest frame, all 2^24 colours, device selection and invalid
 * requests; every kernel strategy and launch configuration, the launch
 * model, frames in engine host memory, and the compiled program's cache. */
#include <string.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clh-build-log.h"
#include "clh-context-private.h"
#include "clh-engine-profiling.h"
#include "clh-engine-tuning.h"
#include "clh-program-cache.h"
#include "clh-test-hold.h"
#include "clh-reference.h"
#include "clh-test-counting.h"
#include "clh-test-frame.h"
#include "clh-test-run.h"

/* kernels/histogram.cl, as the engine embeds it. */
extern const char clh_program_cl_source[];

static ClhEngine *engine;

static const gchar *const modes[] = {
  "luma", "channels", "max", "hue", "hue-saturation", "rgb",
};

/* Fails unless @got equals @want, counter for counter. */
static void
check_equal (const ClhHistogramSpec *spec, const ClhHistogram *got,
    const ClhHistogram *want, const gchar *what)
{
  const gsize n = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);
  guint c;
  gsize i;

  for (i = 0; i < n; i++)
    if (got->counts[i] != want->counts[i])
      g_error ("%s: counter %" G_GSIZE_FORMAT " (channel %u, bin %u) is %u, "
          "the reference says %u", what, i,
          (guint) (i / clh_histogram_spec_n_bins (spec)),
          (guint) (i % clh_histogram_spec_n_bins (spec)), got->counts[i],
          want->counts[i]);
  for (c = 0; c < CLH_MAX_CHANNELS; c++) {
    if (got->below[c] != want->below[c] || got->above[c] != want->above[c]
        || got->samples[c] != want->samples[c])
      g_error ("%s: channel %u has %" G_GUINT64_FORMAT " samples, %"
          G_GUINT64_FORMAT " below, %" G_GUINT64_FORMAT " above; the "
          "reference says %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ", %"
          G_GUINT64_FORMAT, what, c, got->samples[c], got->below[c],
          got->above[c], want->samples[c], want->below[c], want->above[c]);
  }
}

static void
check_spec_on (ClhEngine *counter, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const gchar *what)
{
  const gsize n = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);
  ClhHistogram got = { g_new0 (guint32, n) }, want = { g_new0 (guint32, n) };
  GError *err = NULL;

  clh_reference_histogram (frame, spec, &want);
  if (!clh_engine_histogram (counter, frame, spec, &got, &err))
    g_error ("%s: %s", what, err->message);
  check_equal (spec, &got, &want, what);
  g_free (got.counts);
  g_free (want.counts);
}

/* Who counts with the engine: the kernels, or for the /engine/host/ tests
 * the host CPU where it can. */
static ClhCounting counting = CLH_COUNTING_DEVICE;

static gboolean
expect_on_host (const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  return counting == CLH_COUNTING_HOST
      && clh_test_host_can_count (frame, spec);
}

/* The engine against the reference, and counted where @counting says. */
static void
check_spec (const ClhFrame *frame, const ClhHistogramSpec *spec,
    const gchar *what)
{
  const gsize n = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);
  ClhHistogram got = { g_new0 (guint32, n) }, want = { g_new0 (guint32, n) };
  GError *err = NULL;

  clh_reference_histogram (frame, spec, &want);
  if (!clh_engine_submit (engine, frame, spec, NULL, &err))
    g_error ("%s: %s", what, err->message);
  if (clh_engine_next_counts_on_host (engine) != expect_on_host (frame, spec))
    g_error ("%s: counted by the %s", what,
        clh_engine_next_counts_on_host (engine) ? "host" : "kernels");
  if (!clh_engine_collect (engine, &got, &err))
    g_error ("%s: %s", what, err->message);
  check_equal (spec, &got, &want, what);
  g_free (got.counts);
  g_free (want.counts);
}

/* Adds @plain, or @func with @data, as /engine/host/@name, run with the
 * host counting what it can. */
static void
add_host_test (const gchar *name, GTestFunc plain, GTestDataFunc func,
    gconstpointer data)
{
  gchar *path = g_strdup_printf ("/engine/host/%s", name);

  clh_test_add_on_host (path, &engine, &counting, plain, func, data);
  g_free (path);
}

/* The engine and the reference on @frame (narrowed in place) against the
 * reference on @copy, the same pixels copied out. */
static void
check_spec_on_reference (const ClhFrame *frame, const ClhFrame *copy,
    const ClhHistogramSpec *spec, const gchar *what)
{
  const gsize n = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);
  ClhHistogram in_place = { g_new0 (guint32, n) },
      want = { g_new0 (guint32, n) };

  clh_reference_histogram (copy, spec, &want);
  clh_reference_histogram (frame, spec, &in_place);
  check_equal (spec, &in_place, &want, what);
  check_spec (frame, spec, what);
  g_free (in_place.counts);
  g_free (want.counts);
}


/* Every mode that applies to @format, with 1, 7 and the most bins, on each
 * content. */
static void
check_format (const gchar *format, guint width, guint height,
    guint extra_stride)
{
  ClhTestContent content;
  guint m, b;

  for (content = 0; content < CLH_TEST_N_CONTENTS; content++) {
    ClhTestFrame *t = clh_test_frame_new (format, width, height,
        extra_stride, content, width + height);

    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      const guint bins[] = { 1, 7,
        clh_test_max_bins (modes[m], t->frame.depth) };

      for (b = 0; b < G_N_ELEMENTS (bins); b++) {
        ClhHistogramSpec spec;
        gchar *what;

        if (!clh_reference_spec (t->klass, &t->frame, modes[m], bins[b],
                &spec))
          continue;
        what = g_strdup_printf ("%s %ux%u stride +%u %s, %s, %u bins",
            format, width, height, extra_stride,
            clh_test_content_name (content), modes[m], bins[b]);
        check_spec (&t->frame, &spec, what);
        g_free (what);
      }
    }
    clh_test_frame_free (t);
  }
}

static void
test_format (gconstpointer data)
{
  const gchar *format = data;
  static const guint sizes[][3] = {
    {1, 1, 0}, {3, 5, 0}, {5, 3, 7}, {601, 479, 0}, {601, 479, 61},
  };
  guint s;

  /* Alternately read where the frame lies (on a CPU device) and copied. */
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    clh_engine_set_transfer (engine, s % 2 ? CLH_TRANSFER_COPY :
        CLH_TRANSFER_AUTO);
    check_format (format, sizes[s][0], sizes[s][1], sizes[s][2]);
  }
  clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);
}

/* range-min/range-max: uniform bins over the range, samples outside it
 * counted as below and above, for 8-, 10- and 16-bit samples. */
static void
test_ranges (void)
{
  static const struct {
    const gchar *format;
    guint min, max, bins;
  } cases[] = {
    {"GRAY8", 16, 235, 220}, {"GRAY8", 100, 100, 1}, {"RGBA", 10, 200, 7},
    {"I420_10LE", 64, 940, 877}, {"P010_10LE", 0, 511, 512},
    {"GRAY16_BE", 1000, 60000, 4099}, {"Y444_16LE", 256, 65535, 65280},
  };
  guint i;
  ClhTestContent content;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    for (content = 0; content < CLH_TEST_N_CONTENTS; content++) {
      ClhTestFrame *t = clh_test_frame_new (cases[i].format, 97, 31, 3,
          content, i);
      ClhHistogramSpec spec;
      gchar *what = g_strdup_printf ("%s range %u..%u, %u bins, %s",
          cases[i].format, cases[i].min, cases[i].max, cases[i].bins,
          clh_test_content_name (content));

      g_assert_true (clh_reference_spec (t->klass, &t->frame, "channels",
              cases[i].bins, &spec));
      spec.range_min = cases[i].min;
      spec.range_max = cases[i].max;
      check_spec (&t->frame, &spec, what);
      spec.count = t->klass == CLH_FORMAT_RGB ? CLH_COUNT_LUMA : spec.count;
      if (t->klass == CLH_FORMAT_RGB) {
        spec.n_components = 3;
        check_spec (&t->frame, &spec, what);
        spec.count = CLH_COUNT_MAX;
        check_spec (&t->frame, &spec, what);
      }
      g_free (what);
      clh_test_frame_free (t);
    }
}

/* min-saturation and min-value leave pixels out of hue histograms. */
static void
test_hue_masks (void)
{
  static const gchar *const formats[] = { "RGB", "BGRx", "I420", "YUY2" };
  guint f, m;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    ClhTestFrame *t = clh_test_frame_new (formats[f], 64, 47, 0,
        CLH_TEST_RANDOM, f);

    for (m = 0; m < 2; m++) {
      ClhHistogramSpec spec;
      gchar *what = g_strdup_printf ("%s masked %s", formats[f], modes[3 + m]);

      g_assert_true (clh_reference_spec (t->klass, &t->frame, modes[3 + m],
              30, &spec));
      spec.min_saturation = 60;
      spec.min_value = 32;
      check_spec (&t->frame, &spec, what);
      g_free (what);
    }
    clh_test_frame_free (t);
  }
}

/* Frames larger than the staging buffer are counted in bands of rows, also
 * with subsampled planes and a limit smaller than one row. */
static void
test_bands (void)
{
  static const gchar *const formats[] = {
    "GRAY8", "RGBA", "NV12", "YUV9", "YUY2", "I420_10LE", "Y444_16LE",
  };
  static const gsize limits[] = { 1, 5000, 100000 };
  guint f, l;

  /* Frames read in place are not banded. */
  clh_engine_set_transfer (engine, CLH_TRANSFER_COPY);
  for (l = 0; l < G_N_ELEMENTS (limits); l++) {
    clh_engine_set_staging_limit (engine, limits[l]);
    for (f = 0; f < G_N_ELEMENTS (formats); f++)
      check_format (formats[f], 601, 479, 13);
  }
  clh_engine_set_staging_limit (engine, 64u << 20);
  clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);
}

/* Frames that exercise each way the kernels read samples: whole 32-bit
 * words of contiguous rows (GRAY8, RGBA, NV12's planes), of padded rows,
 * and of 2-byte pixels (YUY2); bytes (RGB, odd widths); colours (I420);
 * 16-bit components. */
static const struct {
  const gchar *format;
  const gchar *mode;
  guint width, height, extra_stride;
} read_cases[] = {
  {"GRAY8", "luma", 64, 37, 0}, {"GRAY8", "luma", 61, 37, 0},
  {"GRAY8", "luma", 64, 37, 12}, {"RGBA", "channels", 40, 33, 0},
  {"BGRx", "channels", 40, 33, 8}, {"NV12", "channels", 48, 30, 0},
  {"YUY2", "channels", 48, 30, 0}, {"RGB", "channels", 41, 29, 0},
  {"I420", "hue", 48, 30, 0}, {"GRAY16_LE", "channels", 40, 30, 4},
};

/* Each read case, on every content, with @bins bins, and with a range
 * that leaves samples below and above when @ranged. */
static void
check_read_cases (guint bins, gboolean ranged, const gchar *what)
{
  ClhTestContent content;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (read_cases); i++)
    for (content = 0; content < CLH_TEST_N_CONTENTS; content++) {
      ClhTestFrame *t = clh_test_frame_new (read_cases[i].format,
          read_cases[i].width, read_cases[i].height,
          read_cases[i].extra_stride, content, i);
      const gboolean hue = g_str_equal (read_cases[i].mode, "hue");
      ClhHistogramSpec spec;
      gchar *name = g_strdup_printf ("%s: %s %ux%u+%u %s, %u bins%s", what,
          read_cases[i].format, read_cases[i].width, read_cases[i].height,
          read_cases[i].extra_stride, clh_test_content_name (content),
          bins, ranged ? ", ranged" : "");

      g_assert_true (clh_reference_spec (t->klass, &t->frame,
              read_cases[i].mode, hue ? MIN (bins, 180) : bins, &spec));
      if (ranged && !hue) {
        spec.range_min = 1;
        spec.range_max = t->frame.depth > 8 ? 40000 : 200;
      }
      check_spec (&t->frame, &spec, name);
      g_free (name);
      clh_test_frame_free (t);
    }
}

/* Every kernel strategy, padded or not, at the model's configuration and
 * at fixed ones that give work-items many samples each (one group) or
 * leave some idle, is bit-exact. */
static void
test_variants (void)
{
  static const ClhVariant variants[] = {
    CLH_VARIANT_LOCAL_ATOMICS, CLH_VARIANT_REPLICATED,
    CLH_VARIANT_PER_WORK_ITEM,
  };
  static const guint configs[][2] = { {0, 0}, {32, 1}, {64, 3} };
  static const guint bins[] = { 1, 7, 16, 256 };
  guint v, pad, c, b;

  for (v = 0; v < G_N_ELEMENTS (variants); v++)
    for (pad = 0; pad < 2; pad++)
      for (c = 0; c < G_N_ELEMENTS (configs); c++) {
        const ClhLaunch launch = { variants[v], configs[c][0],
          configs[c][1], 0, pad
        };
        ClhLaunch used;
        gchar *what = g_strdup_printf ("%s, padding %u, K %u L %u",
            clh_variant_name (variants[v]), pad, configs[c][0],
            configs[c][1]);

        clh_engine_set_launch (engine, &launch);
        for (b = 0; b < G_N_ELEMENTS (bins); b++)
          check_read_cases (bins[b], b % 2 == 1, what);
        g_assert_true (clh_engine_get_last_launch (engine, &used));
        g_assert_cmpint (used.variant, ==, variants[v]);
        g_assert_cmpint (used.padding, ==, pad);
        if (configs[c][0])
          g_assert_cmpuint (used.work_group_size, ==, configs[c][0]);
        g_free (what);
      }
  clh_engine_set_launch (engine, NULL);
}

/* The paper's model picks what the paper picked: on a Tesla C1060 (30
 * SMs, 16 KiB of shared memory, 8 blocks and 1024 threads per SM),
 * per-thread padded sub-histograms of 16 bins, K = 224 threads in L = 30
 * blocks (table 2's last row). */
static void
test_launch_model (void)
{
  const ClhDeviceLimits c1060 = { 30, 512, 32, 16384, 16384, 0, 8, 1024 };
  ClhLaunch launch = { CLH_VARIANT_PER_WORK_ITEM, 0, 0, 0, 1 };

  clh_launch_model (&c1060, CLH_VARIANT_PER_WORK_ITEM, 16, 0, &launch);
  g_assert_cmpuint (launch.work_group_size, ==, 224);
  g_assert_cmpuint (launch.n_groups, ==, 30);
  g_assert_cmpuint (launch.n_copies, ==, 224);
  /* (224 x 17 x 4 bytes): one block per SM; 64 threads would let three
   * blocks share it, 192 active threads, not more than 192. */
  g_assert_cmpuint (clh_launch_groups_per_unit (&c1060, 224,
          clh_launch_local_bytes (224, clh_launch_copy_stride (16, TRUE))),
      ==, 1);
  g_assert_cmpuint (clh_launch_groups_per_unit (&c1060, 64,
          clh_launch_local_bytes (64, clh_launch_copy_stride (16, TRUE))),
      ==, 3);
  /* Fixed parts are kept; copies that do not fit local memory shrink. */
  launch = (ClhLaunch) { CLH_VARIANT_PER_WORK_ITEM, 512, 7, 0, 0 };
  clh_launch_model (&c1060, CLH_VARIANT_PER_WORK_ITEM, 256, 0, &launch);
  g_assert_cmpuint (launch.work_group_size, ==, 512);
  g_assert_cmpuint (launch.n_groups, ==, 7);
  g_assert_cmpuint (launch.n_copies, ==, 16);
}

/* Frames in engine host memory are read where they lie (or copied, or a
 * frame in ordinary memory staged through it), bit-exact, and the host
 * gets its memory back unchanged and writable: a frame rewritten in place
 * is counted afresh. */
static void
test_host_memory (void)
{
  static const ClhTransfer transfers[] = {
    CLH_TRANSFER_AUTO, CLH_TRANSFER_COPY, CLH_TRANSFER_STAGE,
    CLH_TRANSFER_IN_PLACE,
  };
  static const gchar *const formats[][2] = {
    {"GRAY8", "luma"}, {"RGBA", "channels"}, {"NV12", "channels"},
    {"I420", "hue"}, {"GRAY16_LE", "channels"},
  };
  GError *err = NULL;
  guint f, t, p, round;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (t = 0; t < G_N_ELEMENTS (transfers); t++) {
      ClhTestFrame *src = clh_test_frame_new (formats[f][0], 123, 45, 5,
          CLH_TEST_RANDOM, f);
      ClhFrame frame = src->frame;
      ClhHistogramSpec spec;
      gsize offset[CLH_MAX_PLANES], size = 0;
      guint8 *block, *copy;
      gchar *what;

      /* The planes one after the other in one block, as a pool lays them. */
      for (p = 0; p < frame.n_planes; p++) {
        offset[p] = size;
        size += frame.planes[p].stride * (clh_frame_plane_rows (&frame,
                p) + 1);
      }
      block = clh_engine_alloc_host (engine, size, &err);
      g_assert_no_error (err);
      for (p = 0; p < frame.n_planes; p++) {
        memcpy (block + offset[p], src->frame.planes[p].data,
            frame.planes[p].stride * clh_frame_plane_rows (&frame, p));
        frame.planes[p].data = block + offset[p];
      }
      copy = g_memdup2 (block, size);
      g_assert_true (clh_reference_spec (src->klass, &frame, formats[f][1],
              64, &spec));
      clh_engine_set_transfer (engine, transfers[t]);
      for (round = 0; round < 3; round++) {
        what = g_strdup_printf ("%s in host memory, transfer %u, round %u",
            formats[f][0], transfers[t], round);
        check_spec (&frame, &spec, what);
        g_assert_cmpmem (block, size, copy, size);
        /* Rewrite the frame where it lies: the next count must see it. */
        for (p = 0; p < size; p++)
          block[p] = copy[p] = (guint8) (copy[p] * 7 + round + 1);
        g_free (what);
      }
      what = g_strdup_printf ("%s in ordinary memory, transfer %u",
          formats[f][0], transfers[t]);
      check_spec (&src->frame, &spec, what);
      g_free (what);
      clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);
      g_free (copy);
      clh_engine_free_host (engine, block);
      clh_test_frame_free (src);
    }
}

/* Every 24-bit colour once through each colour count, so the kernels'
 * luma, max, HSV and joint bins equal the reference on all of them. */
static void
test_all_colours (void)
{
  ClhTestFrame *t = clh_test_frame_new ("RGBx", 4096, 4096, 0,
      CLH_TEST_ZERO, 0);
  const gsize stride = t->frame.planes[0].stride;
  static const gchar *const colour_modes[] = {
    "luma", "max", "hue", "hue-saturation", "rgb",
  };
  static const guint bins[] = { 256, 256, 180, 180, 40 };
  guint32 c;
  guint m;

  for (c = 0; c < (1u << 24); c++) {
    guint8 *px = t->memory[0] + (c / 4096) * stride + (c % 4096) * 4;
    px[0] = c >> 16;
    px[1] = (c >> 8) & 0xff;
    px[2] = c & 0xff;
  }
  for (m = 0; m < G_N_ELEMENTS (colour_modes); m++) {
    ClhHistogramSpec spec;
    gchar *what = g_strdup_printf ("all 2^24 colours, %s", colour_modes[m]);

    g_assert_true (clh_reference_spec (t->klass, &t->frame, colour_modes[m],
            bins[m], &spec));
    check_spec (&t->frame, &spec, what);
    g_free (what);
  }
  clh_test_frame_free (t);
}

/* OpenCV's hue is 0..179 for every colour, so h * bins / 180 < bins. */
static void
test_reference_hue_range (void)
{
  guint32 c;

  for (c = 0; c < (1u << 24); c++) {
    guint8 h, s, v;
    clh_reference_hsv (c >> 16, (c >> 8) & 0xff, c & 0xff, &h, &s, &v);
    g_assert_cmpuint (h, <, 180);
  }
}

/* The largest frame, all one value: 2^28 samples in one bin. The 8-bit
 * per-work-item counters of the OpenCL tutorials gave 0 here. */
/* Under add_host_test(), a GRAY8 frame is counted by the host: the
 * /engine/host/ tests do test the host path. */
static void
test_counted_on_host (void)
{
  ClhTestFrame *t = clh_test_frame_new ("GRAY8", 16, 8, 0, CLH_TEST_RANDOM,
      1);
  ClhHistogramSpec spec;
  GError *err = NULL;

  g_assert_cmpint (counting, ==, CLH_COUNTING_HOST);
  g_assert_true (clh_reference_spec (t->klass, &t->frame, "luma", 256,
          &spec));
  g_assert_true (clh_engine_submit (engine, &t->frame, &spec, NULL, &err));
  g_assert_true (clh_engine_next_counts_on_host (engine));
  clh_engine_discard (engine);
  clh_test_frame_free (t);
}

static void
test_largest_degenerate (void)
{
  ClhTestFrame *t = clh_test_frame_new ("GRAY8", CLH_MAX_DIMENSION,
      CLH_MAX_DIMENSION, 0, CLH_TEST_MAX, 0);
  ClhHistogramSpec spec;
  guint32 counts[256];
  ClhHistogram hist = { counts };
  GError *err = NULL;
  guint b;

  g_assert_true (clh_reference_spec (t->klass, &t->frame, "luma", 256,
          &spec));
  g_assert_true (clh_engine_histogram (engine, &t->frame, &spec, &hist,
          &err));
  g_assert_no_error (err);
  for (b = 0; b < 255; b++)
    g_assert_cmpuint (counts[b], ==, 0);
  g_assert_cmpuint (counts[255], ==, 1u << 28);
  g_assert_cmpuint (hist.samples[0], ==, 1u << 28);
  clh_test_frame_free (t);
}

static void
test_thin (void)
{
  static const gchar *const formats[] = { "GRAY8", "RGBA", "I420", "YUY2" };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++) {
    check_format (formats[f], CLH_MAX_DIMENSION, 1, 0);
    check_format (formats[f], 1, CLH_MAX_DIMENSION, 0);
  }
}

static void
expect_invalid (const ClhFrame *frame, const ClhHistogramSpec *spec,
    const gchar *in_message)
{
  guint32 counts[CLH_MAX_CHANNELS * 256];
  ClhHistogram hist = { counts };
  GError *err = NULL;

  g_assert_false (clh_engine_histogram (engine, frame, spec, &hist, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  if (in_message && !strstr (err->message, in_message))
    g_error ("'%s' not in '%s'", in_message, err->message);
  g_clear_error (&err);
}

static void
test_invalid_requests (void)
{
  ClhTestFrame *gray = clh_test_frame_new ("GRAY8", 4, 4, 0, CLH_TEST_ZERO, 0);
  ClhTestFrame *yuv = clh_test_frame_new ("I420_10LE", 4, 4, 0,
      CLH_TEST_ZERO, 0);
  ClhTestFrame *rgb = clh_test_frame_new ("RGB", 4, 4, 0, CLH_TEST_ZERO, 0);
  ClhHistogramSpec spec, ok;
  ClhFrame frame;

  g_assert_true (clh_reference_spec (gray->klass, &gray->frame, "luma", 16,
          &ok));
  frame = gray->frame, frame.width = 0;
  expect_invalid (&frame, &ok, "frame");
  frame = gray->frame, frame.height = CLH_MAX_DIMENSION + 1;
  expect_invalid (&frame, &ok, "frame");
  frame = gray->frame, frame.planes[0].stride = 3;
  expect_invalid (&frame, &ok, "frame");

  spec = ok, spec.bins = 0;
  expect_invalid (&gray->frame, &spec, "bin");
  spec = ok, spec.bins = 257;
  expect_invalid (&gray->frame, &spec, "257 bins");
  spec = ok, spec.range_max = 256;
  expect_invalid (&gray->frame, &spec, "range");
  spec = ok, spec.range_min = 10, spec.range_max = 9;
  expect_invalid (&gray->frame, &spec, "range");
  spec = ok, spec.components[0] = 1;
  expect_invalid (&gray->frame, &spec, "component");

  g_assert_true (clh_reference_spec (yuv->klass, &yuv->frame, "channels",
          4097, &spec));
  expect_invalid (&yuv->frame, &spec, "4097 bins");
  g_assert_false (clh_reference_spec (yuv->klass, &yuv->frame, "hue", 30,
          &spec));
  spec.count = CLH_COUNT_HUE;
  expect_invalid (&yuv->frame, &spec, "8-bit");

  g_assert_true (clh_reference_spec (rgb->klass, &rgb->frame, "rgb", 41,
          &spec));
  expect_invalid (&rgb->frame, &spec, "40 per axis");
  g_assert_true (clh_reference_spec (rgb->klass, &rgb->frame, "hue", 181,
          &spec));
  expect_invalid (&rgb->frame, &spec, "180");

  clh_test_frame_free (gray);
  clh_test_frame_free (yuv);
  clh_test_frame_free (rgb);
}

/* With profiling on, the engine says where the device time went, and
 * counts the same. */
static void
test_profiling (void)
{
  ClhTimings timings;
  GError *err = NULL;

  g_assert_false (clh_engine_get_timings (engine, &timings));
  g_assert_true (clh_engine_set_profiling (engine, TRUE, &err));
  g_assert_no_error (err);
  check_format ("NV12", 601, 479, 0);
  g_assert_true (clh_engine_get_timings (engine, &timings));
  g_assert_cmpuint (timings.kernel_ns, >, 0);
  g_assert_cmpuint (timings.span_ns, >=, timings.kernel_ns);
  g_assert_true (clh_engine_set_profiling (engine, FALSE, &err));
  g_assert_false (clh_engine_get_timings (engine, &timings));
}

/* A device's UUID is there exactly where cl_khr_device_uuid is (PoCL's
 * CPU device may lack it), the same on every call; without it, zeros.
 * Extensions are matched by whole name, never by a name's beginning. */
static void
test_device_uuid (void)
{
  ClhContext *ctx = clh_engine_get_context (engine);
  cl_device_id device = clh_context_get_device (ctx)->device;
  const gboolean offered = clh_device_has_extension (device,
      "cl_khr_device_uuid");
  guint8 uuid[CLH_DEVICE_UUID_SIZE], again[CLH_DEVICE_UUID_SIZE];
  guint8 zeros[CLH_DEVICE_UUID_SIZE] = { 0 };
  gchar *list = clh_device_string (device, CL_DEVICE_EXTENSIONS);
  gchar **names = g_strsplit (list, " ", -1);

  memset (uuid, 0xa5, sizeof (uuid));
  g_assert_cmpint (clh_context_get_device_uuid (ctx, uuid), ==, offered);
  if (offered) {
    g_assert_true (clh_context_get_device_uuid (ctx, again));
    g_assert_cmpmem (uuid, sizeof (uuid), again, sizeof (again));
    g_assert_true (memcmp (uuid, zeros, sizeof (uuid)) != 0);
  } else {
    g_test_message ("%s offers no cl_khr_device_uuid",
        clh_context_get_device_name (ctx));
    g_assert_cmpmem (uuid, sizeof (uuid), zeros, sizeof (zeros));
  }

  /* Every listed extension is found; its name less its last character,
   * unless that too is listed, is not. */
  g_assert_nonnull (names[0]);
  for (guint i = 0; names[i]; i++) {
    gsize len = strlen (names[i]);
    gchar *prefix;

    if (len < 2)
      continue;
    g_assert_true (clh_device_has_extension (device, names[i]));
    prefix = g_strndup (names[i], len - 1);
    if (!g_strv_contains ((const gchar * const *) names, prefix))
      g_assert_false (clh_device_has_extension (device, prefix));
    g_free (prefix);
  }
  g_assert_false (clh_device_has_extension (device, "cl_clh_no_such"));
  g_strfreev (names);
  g_free (list);
}

/* Importing external memory: refused with a message where the device has
 * no cl_khr_external_memory_opaque_fd (PoCL), or for a descriptor that is
 * not exported device memory (a pipe); a refused descriptor stays the
 * caller's, open. The import of CUDA's memory itself is checked on the GPU
 * machine (tests/elements/cuda-device-check.c, bench/clh-cuda-bench.c). */
static void
test_external_memory_refused (void)
{
  ClhContext *ctx = clh_engine_get_context (engine);
  const gboolean offered = clh_context_can_import_opaque_fd (ctx);
  ClhHostBlock *block;
  GError *err = NULL;
  gint fds[2];

  g_assert_cmpint (offered, ==, clh_device_has_extension (
          clh_context_get_device (ctx)->device,
          "cl_khr_external_memory_opaque_fd"));
  g_assert_cmpint (pipe (fds), ==, 0);
  block = clh_context_import_opaque_fd (ctx, fds[0], 1 << 20, 0x10000,
      &err);
  g_assert_null (block);
  g_assert_nonnull (err);
  g_test_message ("import of a pipe: %s", err->message);
  if (!offered)
    g_assert_true (g_error_matches (err, CLH_ENGINE_ERROR,
            CLH_ENGINE_ERROR_INVALID));
  g_clear_error (&err);
  g_assert_cmpint (fcntl (fds[0], F_GETFD), !=, -1);

  g_assert_null (clh_context_import_opaque_fd (ctx, fds[0], 0, 0x10000,
          &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  g_assert_null (clh_context_import_opaque_fd (ctx, -1, 4096, 0x10000,
          &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  g_assert_null (clh_context_import_opaque_fd (ctx, fds[0], 4096,
          G_MAXUINT64 - 100, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
  close (fds[0]);
  close (fds[1]);
}

static void
test_device_selection (void)
{
  const gchar *name = clh_engine_get_device_name (engine);
  gchar *upper = g_ascii_strup (name, -1);
  ClhEngine *other;
  GError *err = NULL;

  /* Part of the name, in any case, and P:D. */
  upper[MIN (strlen (upper), 6)] = '\0';
  other = clh_engine_new (upper, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (clh_engine_get_device_name (other), ==, name);
  clh_engine_free (other);

  other = clh_engine_new ("0:0", &err);
  g_assert_no_error (err);
  clh_engine_free (other);

  other = clh_engine_new ("no such device anywhere", &err);
  g_assert_null (other);
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_DEVICE_NOT_FOUND);
  g_assert_nonnull (strstr (err->message, name));
  g_assert_nonnull (strstr (err->message, "0:0"));
  g_clear_error (&err);

  other = clh_engine_new ("99:0", &err);
  g_assert_null (other);
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_DEVICE_NOT_FOUND);
  g_clear_error (&err);
  g_free (upper);
}

/* The program cache's file format (engine/runtime/clh-program-cache.c): magic,
 * 64-bit little-endian length, SHA-256 of the binary, the binary. */
#define CACHE_MAGIC "CLHPRG01"
#define CACHE_HEADER (8 + 8 + 32)

/* A new context on @cache_dir: an engine on it counts a random frame
 * bit-exactly, whatever the program's origin. */
static ClhProgramOrigin
count_on_new_context (const gchar *cache_dir, const gchar *what)
{
  ClhTestFrame *t = clh_test_frame_new ("RGBA", 123, 45, 4,
      CLH_TEST_RANDOM, 11);
  ClhHistogramSpec spec;
  ClhContext *ctx;
  ClhEngine *counter;
  ClhProgramOrigin origin;
  GError *err = NULL;

  ctx = clh_context_new_full (g_getenv ("CLH_TEST_DEVICE"), cache_dir, &err);
  g_assert_no_error (err);
  origin = clh_context_get_program_origin (ctx);
  counter = clh_engine_new_for_context (ctx, &err);
  g_assert_no_error (err);
  g_assert_true (clh_reference_spec (t->klass, &t->frame, "channels", 64,
          &spec));
  check_spec_on (counter, &t->frame, &spec, what);
  clh_engine_free (counter);
  clh_context_unref (ctx);
  clh_test_frame_free (t);
  return origin;
}

/* One byte in the middle of the binary flipped: only the digest sees it. */
static void
corrupt_flip (guint8 *file, gsize *size)
{
  file[CACHE_HEADER + (*size - CACHE_HEADER) / 2] ^= 0x5a;
}

/* A write cut short. */
static void
corrupt_truncate (guint8 *file, gsize *size)
{
  *size /= 2;
}

/* Random bytes under a header that describes them correctly, so that only
 * the driver can refuse them. */
static void
corrupt_garbage (guint8 *file, gsize *size)
{
  const guint64 length = GUINT64_TO_LE (*size - CACHE_HEADER);
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize digest_size = 32, i;

  for (i = CACHE_HEADER; i < *size; i++)
    file[i] = g_test_rand_int_range (0, 256);
  memcpy (file, CACHE_MAGIC, 8);
  memcpy (file + 8, &length, 8);
  g_checksum_update (sum, file + CACHE_HEADER, *size - CACHE_HEADER);
  g_checksum_get_digest (sum, file + 16, &digest_size);
  g_checksum_free (sum);
}

static void
remove_dir (const gchar *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir))) {
    gchar *file = g_build_filename (path, name, NULL);
    g_assert_cmpint (g_remove (file), ==, 0);
    g_free (file);
  }
  g_dir_close (dir);
  g_assert_cmpint (g_rmdir (path), ==, 0);
}

static gboolean
dir_is_empty (const gchar *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  gboolean empty = dir && !g_dir_read_name (dir);

  g_dir_close (dir);
  return empty;
}

/* The kernels' program is compiled once and then loaded from the cache;
 * a cache file that is damaged, truncated or refused by the driver is
 * never used but rebuilt; "" turns the cache off and NULL means
 * $CLHISTOGRAM_CACHE_DIR. */
static void
test_program_cache (void)
{
  static void (*const corrupt[]) (guint8 *, gsize *) = {
    corrupt_flip, corrupt_truncate, corrupt_garbage,
  };
  static const gchar *const corruption[] = {
    "flipped byte", "truncated", "garbage binary",
  };
  const gchar *saved_env = g_getenv ("CLHISTOGRAM_CACHE_DIR");
  gchar *saved = g_strdup (saved_env);
  gchar *dir, *path, *what;
  ClhContext *ctx;
  GError *err = NULL;
  guint c;

  dir = g_dir_make_tmp ("clhistogram-cache-XXXXXX", &err);
  g_assert_no_error (err);

  ctx = clh_context_new_full (g_getenv ("CLH_TEST_DEVICE"), dir, &err);
  g_assert_no_error (err);
  g_assert_cmpint (clh_context_get_program_origin (ctx), ==,
      CLH_PROGRAM_BUILT);
  path = clh_program_cache_file (dir, clh_context_get_device (ctx),
      clh_program_cl_source, "-cl-std=CL1.2");
  clh_context_unref (ctx);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (count_on_new_context (dir, "from the cache"), ==,
      CLH_PROGRAM_CACHED);

  for (c = 0; c < G_N_ELEMENTS (corrupt); c++) {
    gchar *file;
    gsize size;

    g_assert_true (g_file_get_contents (path, &file, &size, &err));
    corrupt[c] ((guint8 *) file, &size);
    g_assert_true (g_file_set_contents_full (path, file, size,
            G_FILE_SET_CONTENTS_CONSISTENT, 0600, &err));
    g_free (file);
    what = g_strdup_printf ("rebuilt after a %s", corruption[c]);
    g_assert_cmpint (count_on_new_context (dir, what), ==,
        CLH_PROGRAM_REBUILT);
    g_free (what);
    what = g_strdup_printf ("cached after a %s", corruption[c]);
    g_assert_cmpint (count_on_new_context (dir, what), ==,
        CLH_PROGRAM_CACHED);
    g_free (what);
  }

  /* "" writes nothing, even where the environment points; NULL follows
   * the environment. */
  g_assert_cmpint (g_remove (path), ==, 0);
  g_setenv ("CLHISTOGRAM_CACHE_DIR", dir, TRUE);
  g_assert_cmpint (count_on_new_context ("", "no cache"), ==,
      CLH_PROGRAM_BUILT);
  g_assert_true (dir_is_empty (dir));
  g_assert_cmpint (count_on_new_context (NULL, "default cache"), ==,
      CLH_PROGRAM_BUILT);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  if (saved)
    g_setenv ("CLHISTOGRAM_CACHE_DIR", saved, TRUE);
  else
    g_unsetenv ("CLHISTOGRAM_CACHE_DIR");

  remove_dir (dir);
  g_free (path);
  g_free (dir);
  g_free (saved);
}

/* A frame submitted and its reference result, computed before submission
 * (the frame may live in memory the device holds until collected). */
typedef struct {
  ClhTestFrame *src;
  ClhFrame frame;
  ClhHistogramSpec spec;
  ClhHistogram want;
  ClhHostBlock *block;
  gchar *what;
} Flight;

static const gchar *const flight_formats[][2] = {
  {"GRAY8", "luma"}, {"RGBA", "channels"}, {"NV12", "channels"},
  {"I420", "hue"}, {"GRAY16_LE", "channels"}, {"RGBx", "rgb"},
};

/* Frame @i of a stream: formats, contents and sizes change every frame;
 * every third lies in a host block of @context, planes one after the
 * other as a buffer pool lays them. */
static Flight *
flight_new (ClhContext *context, guint i, const gchar *what)
{
  const gchar *const *f = flight_formats[i % G_N_ELEMENTS (flight_formats)];
  Flight *fl = g_new0 (Flight, 1);
  GError *err = NULL;
  gsize n, offset = 0;
  guint p;

  fl->src = clh_test_frame_new (f[0], i % 2 ? 601 : 64, i % 2 ? 479 : 33,
      i % 3 ? 0 : 7, i % CLH_TEST_N_CONTENTS, i);
  fl->frame = fl->src->frame;
  g_assert_true (clh_reference_spec (fl->src->klass, &fl->frame, f[1],
          i % 2 ? 16 : 64, &fl->spec));
  if (i % 3 == 0) {
    for (p = 0; p < fl->frame.n_planes; p++)
      offset += clh_frame_plane_span (&fl->frame, p) + 100;
    fl->block = clh_context_alloc_host (context, offset, &err);
    g_assert_no_error (err);
    offset = 0;
    for (p = 0; p < fl->frame.n_planes; p++) {
      guint8 *data = clh_host_block_get_data (fl->block) + offset;

      memcpy (data, fl->frame.planes[p].data,
          clh_frame_plane_span (&fl->frame, p));
      fl->frame.planes[p].data = data;
      offset += clh_frame_plane_span (&fl->frame, p) + 100;
    }
  }
  n = (gsize) clh_histogram_spec_n_channels (&fl->spec)
      * clh_histogram_spec_n_bins (&fl->spec);
  fl->want.counts = g_new0 (guint32, n);
  clh_reference_histogram (&fl->frame, &fl->spec, &fl->want);
  fl->what = g_strdup_printf ("%s, frame %u (%s %s)", what, i, f[0], f[1]);
  return fl;
}

static void
flight_free (Flight *fl)
{
  clh_host_block_free (fl->block);
  clh_test_frame_free (fl->src);
  g_free (fl->want.counts);
  g_free (fl->what);
  g_free (fl);
}

/* Collects the oldest pending frame and checks it. */
static void
collect_and_check (ClhEngine *counter, GQueue *pending)
{
  Flight *fl = g_queue_pop_head (pending);
  const gsize n = (gsize) clh_histogram_spec_n_channels (&fl->spec)
      * clh_histogram_spec_n_bins (&fl->spec);
  ClhHistogram got = { g_new0 (guint32, n) };
  GError *err = NULL;

  if (!clh_engine_collect (counter, &got, &err))
    g_error ("%s: %s", fl->what, err->message);
  check_equal (&fl->spec, &got, &fl->want, fl->what);
  g_free (got.counts);
  flight_free (fl);
}

/* @n_frames frames through @counter with up to @max in flight. */
static void
run_stream (ClhEngine *counter, guint max, guint n_frames, const gchar *what)
{
  GQueue pending = G_QUEUE_INIT;
  GError *err = NULL;
  guint i;

  g_assert_true (clh_engine_set_max_in_flight (counter, max, &err));
  g_assert_no_error (err);
  for (i = 0; i < n_frames; i++) {
    Flight *fl = flight_new (clh_engine_get_context (counter), i, what);

    if (clh_engine_get_n_pending (counter) == max)
      collect_and_check (counter, &pending);
    if (!clh_engine_submit (counter, &fl->frame, &fl->spec, fl->block, &err))
      g_error ("%s: %s", fl->what, err->message);
    g_queue_push_tail (&pending, fl);
  }
  while (!g_queue_is_empty (&pending))
    collect_and_check (counter, &pending);
  g_assert_cmpuint (clh_engine_get_n_pending (counter), ==, 0);
}

static void
test_in_flight (void)
{
  static const ClhTransfer transfers[] = {
    CLH_TRANSFER_AUTO, CLH_TRANSFER_COPY, CLH_TRANSFER_STAGE,
  };
  static const guint maxes[] = { 1, 2, 4 };
  g_autoptr (ClhEngine) counter =
      clh_engine_new_for_context (clh_engine_get_context (engine), NULL);
  GError *err = NULL;
  guint t, m, banded;

  g_assert_nonnull (counter);
  for (t = 0; t < G_N_ELEMENTS (transfers); t++)
    for (m = 0; m < G_N_ELEMENTS (maxes); m++)
      for (banded = 0; banded < 2; banded++) {
        gchar *what = g_strdup_printf ("transfer %u, %u in flight%s",
            transfers[t], maxes[m], banded ? ", in bands" : "");

        clh_engine_set_transfer (counter, transfers[t]);
        clh_engine_set_staging_limit (counter, banded ? 5000 : 64u << 20);
        run_stream (counter, maxes[m], 13, what);
        g_free (what);
      }

  /* Full, and changing the depth with frames pending, are refused. */
  {
    Flight *a = flight_new (clh_engine_get_context (counter), 1, "full");
    Flight *b = flight_new (clh_engine_get_context (counter), 2, "full");

    g_assert_true (clh_engine_set_max_in_flight (counter, 1, &err));
    g_assert_true (clh_engine_submit (counter, &a->frame, &a->spec, NULL,
            &err));
    g_assert_false (clh_engine_submit (counter, &b->frame, &b->spec, NULL,
            &err));
    g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
    g_clear_error (&err);
    g_assert_false (clh_engine_set_max_in_flight (counter, 3, &err));
    g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
    g_clear_error (&err);
    g_assert_false (clh_engine_histogram (counter, &b->frame, &b->spec,
            &b->want, &err));
    g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
    g_clear_error (&err);
    clh_engine_discard (counter);
    flight_free (a);
    flight_free (b);
  }
}

/* Frames dropped with clh_engine_discard() leave no trace on the next. */
static void
test_discard (void)
{
  g_autoptr (ClhEngine) counter =
      clh_engine_new_for_context (clh_engine_get_context (engine), NULL);
  GError *err = NULL;
  guint i, round;

  g_assert_true (clh_engine_set_max_in_flight (counter, 3, &err));
  for (round = 0; round < 3; round++) {
    GQueue pending = G_QUEUE_INIT;

    for (i = 0; i < 3; i++) {
      Flight *fl = flight_new (clh_engine_get_context (counter), i + round,
          "discarded");

      g_assert_true (clh_engine_submit (counter, &fl->frame, &fl->spec,
              fl->block, &err));
      g_queue_push_tail (&pending, fl);
    }
    clh_engine_discard (counter);
    g_assert_cmpuint (clh_engine_get_n_pending (counter), ==, 0);
    g_queue_clear_full (&pending, (GDestroyNotify) flight_free);
    run_stream (counter, 3, 4, "after a discard");
  }
}

static gpointer
count_in_thread (gpointer data)
{
  ClhEngine *counter = data;

  run_stream (counter, 2, 12, "one of two threads");
  return NULL;
}

/* The engines of test_shared_submission, and their meeting point. */
#define N_SHARING 8

typedef struct {
  ClhEngine *engines[N_SHARING];
  GMutex lock;
  GCond cond;
  guint arrived[2];
} Sharing;

/* Waits until every engine's thread has reached meeting @m. */
static void
meet (Sharing *sh, guint m)
{
  g_mutex_lock (&sh->lock);
  sh->arrived[m]++;
  g_cond_broadcast (&sh->cond);
  while (sh->arrived[m] < N_SHARING)
    g_cond_wait (&sh->cond, &sh->lock);
  g_mutex_unlock (&sh->lock);
}

typedef struct {
  Sharing *sharing;
  guint index;
} Sharer;

/* One engine of several: a frame of its own format and mode in flight
 * while every other engine has one, then a stream of its own. Engine 3
 * drops its frames in flight and is freed mid-stream; engine 5's request
 * of too many regions fails alone; engine 6 submits on its own thread
 * after the first two frames, beside the others' submission thread. */
static gpointer
share_in_thread (gpointer data)
{
  const Sharer *me = data;
  ClhEngine *counter = me->sharing->engines[me->index];
  Flight *first = flight_new (clh_engine_get_context (counter), me->index,
      "first of many engines");
  Flight *second = flight_new (clh_engine_get_context (counter),
      me->index + 1, "second of many engines");
  GQueue pending = G_QUEUE_INIT;
  GError *err = NULL;

  g_assert_true (clh_engine_set_max_in_flight (counter, 2 + me->index % 3,
          &err));
  g_assert_true (clh_engine_submit (counter, &first->frame, &first->spec,
          first->block, &err));
  g_queue_push_tail (&pending, first);
  meet (me->sharing, 0);
  g_assert_true (clh_engine_submit (counter, &second->frame, &second->spec,
          second->block, &err));
  g_queue_push_tail (&pending, second);
  g_assert_cmpuint (clh_engine_get_n_on_thread (counter), >=, 1);
  meet (me->sharing, 1);

  if (me->index == 3) {
    clh_engine_discard (counter);
    g_queue_clear_full (&pending, (GDestroyNotify) flight_free);
    clh_engine_free (counter);
    me->sharing->engines[me->index] = NULL;
    return NULL;
  }
  if (me->index == 5) {
    ClhRect many[CLH_MAX_REGIONS + 1] = { {0, 0, 1, 1} };

    g_assert_false (clh_engine_submit_regions (counter, &first->frame,
            &first->spec, TRUE, many, G_N_ELEMENTS (many), NULL, &err));
    g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
    g_clear_error (&err);
  }
  while (!g_queue_is_empty (&pending))
    collect_and_check (counter, &pending);
  if (me->index == 6)
    clh_engine_set_submission (counter, CLH_SUBMISSION_CALLER);
  run_stream (counter, 1 + me->index % 4, 10, "one of many engines");
  return NULL;
}

/* Engines of one context counting at once, each its own format and mode
 * (every kernel), through the device's submission thread: none sees
 * another's counts or errors, and one stopping mid-stream leaves the
 * others' frames as they were. */
static void
test_shared_submission (void)
{
  Sharing sh = { { NULL } };
  Sharer me[N_SHARING];
  GThread *threads[N_SHARING];
  guint i;

  g_mutex_init (&sh.lock);
  g_cond_init (&sh.cond);
  for (i = 0; i < N_SHARING; i++) {
    sh.engines[i] = clh_engine_new_for_context (clh_engine_get_context
        (engine), NULL);
    g_assert_nonnull (sh.engines[i]);
    /* The kernels, also on a CPU device; through the submission thread
     * (by default only while other engines submit within 2 ms, which a
     * loaded machine may not). */
    clh_engine_set_counting (sh.engines[i], CLH_COUNTING_DEVICE);
    clh_engine_set_submission (sh.engines[i], CLH_SUBMISSION_THREAD);
    me[i].sharing = &sh;
    me[i].index = i;
  }
  for (i = 0; i < N_SHARING; i++)
    threads[i] = g_thread_new ("sharer", share_in_thread, &me[i]);
  for (i = 0; i < N_SHARING; i++) {
    g_thread_join (threads[i]);
    clh_engine_free (sh.engines[i]);
  }
  g_mutex_clear (&sh.lock);
  g_cond_clear (&sh.cond);
}

static gpointer
free_in_thread (gpointer data)
{
  clh_engine_free (data);
  return NULL;
}

#define N_BATCHED 6
#define BATCH_STOPS 2
#define BATCH_FAILS 4

/* One batch of the submission thread holds two frames of each of six
 * engines, every format and mode of flight_formats, and one engine's
 * discard and free (it stops mid-batch); one engine's frames fail as they
 * are enqueued (a work-group larger than the device allows). The failure
 * reaches that engine's collection only, which then counts again; every
 * other frame of the batch is counted right. With @transfer
 * CLH_TRANSFER_COPY, frames are copied to the device also on a CPU device,
 * and the 8-bit ones (GRAY8, RGBA, NV12) are counted in batched launches
 * (engine/runtime/clh-batch.c), the stopping engine's among them. */
static void
batch_round (ClhTransfer transfer)
{
  ClhContext *ctx = clh_engine_get_context (engine);
  ClhSubmitter *s = clh_context_get_submitter (ctx);
  const ClhLaunch too_wide = { CLH_VARIANT_LOCAL_ATOMICS, 1u << 20, 0, 0,
    -1
  };
  ClhEngine *engines[N_BATCHED];
  GQueue pending[N_BATCHED];
  ClhSubmitterStats before, after;
  ClhTestHold *hold;
  GThread *stopper;
  GError *err = NULL;
  guint64 batched[2], launches[2];
  guint i, r;

  for (i = 0; i < N_BATCHED; i++) {
    engines[i] = clh_engine_new_for_context (ctx, NULL);
    clh_engine_set_counting (engines[i], CLH_COUNTING_DEVICE);
    clh_engine_set_transfer (engines[i], transfer);
    clh_engine_set_submission (engines[i], CLH_SUBMISSION_THREAD);
    g_assert_true (clh_engine_set_max_in_flight (engines[i], 2, &err));
    g_queue_init (&pending[i]);
  }
  clh_engine_set_launch (engines[BATCH_FAILS], &too_wide);
  clh_submitter_get_stats (s, &before);
  clh_engine_get_batch_stats (engines[0], &batched[0], &launches[0]);

  hold = clh_test_hold (s);
  for (r = 0; r < 2; r++) {
    for (i = 0; i < N_BATCHED; i++) {
      Flight *fl = flight_new (ctx, i + r * N_BATCHED, "in one batch");

      /* Returns at once: the thread is held. */
      g_assert_true (clh_engine_submit (engines[i], &fl->frame, &fl->spec,
              fl->block, &err));
      g_queue_push_tail (&pending[i], fl);
      g_assert_cmpuint (clh_engine_get_n_on_thread (engines[i]), ==, r + 1);
      g_assert_false (clh_engine_next_is_ready (engines[i]));
    }
  }
  clh_test_hold_wait_for (hold, 2 * N_BATCHED);
  stopper = g_thread_new ("stopper", free_in_thread, engines[BATCH_STOPS]);
  clh_test_hold_wait_for (hold, 2 * N_BATCHED + 1);
  clh_test_hold_release (hold);
  g_thread_join (stopper);
  g_queue_clear_full (&pending[BATCH_STOPS], (GDestroyNotify) flight_free);

  for (i = 0; i < N_BATCHED; i++) {
    while (i == BATCH_FAILS && !g_queue_is_empty (&pending[i])) {
      Flight *fl = g_queue_pop_head (&pending[i]);
      guint32 counts[4 * 256];
      ClhHistogram got = { counts };

      g_assert_false (clh_engine_collect (engines[i], &got, &err));
      g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL);
      /* The error of the enqueue that failed, not a generic one. */
      g_test_message ("%s", err->message);
      g_assert_nonnull (strstr (err->message, "clEnqueueNDRangeKernel"));
      g_clear_error (&err);
      flight_free (fl);
    }
    while (!g_queue_is_empty (&pending[i]))
      collect_and_check (engines[i], &pending[i]);
  }
  clh_submitter_get_stats (s, &after);
  g_assert_cmpuint (after.max_batch, >=, 2 * N_BATCHED + 1);
  /* The frames, the hold, the discard and the first read of the batcher's
   * stats. */
  g_assert_cmpuint (after.n_jobs - before.n_jobs, ==, 2 * N_BATCHED + 3);
  clh_engine_get_batch_stats (engines[0], &batched[1], &launches[1]);
  g_test_message ("%" G_GUINT64_FORMAT " frames batched in %"
      G_GUINT64_FORMAT " launches", batched[1] - batched[0],
      launches[1] - launches[0]);
  if (transfer == CLH_TRANSFER_COPY
      || !clh_context_reads_host_in_place (ctx)) {
    /* GRAY8, RGBA and NV12, two frames each, in fewer launches. */
    g_assert_cmpuint (batched[1] - batched[0], >=, 6);
    g_assert_cmpuint (launches[1] - launches[0], >=, 1);
    g_assert_cmpuint (launches[1] - launches[0], <, batched[1] - batched[0]);
  } else {
    g_assert_cmpuint (batched[1] - batched[0], ==, 0);
  }

  clh_engine_set_launch (engines[BATCH_FAILS], NULL);
  run_stream (engines[BATCH_FAILS], 2, 6, "after failing in a batch");
  for (i = 0; i < N_BATCHED; i++)
    if (i != BATCH_STOPS)
      clh_engine_free (engines[i]);
}

static void
test_batch (void)
{
  batch_round (CLH_TRANSFER_AUTO);
  batch_round (CLH_TRANSFER_COPY);
}

/* By default an engine submits through the submission thread only while
 * another engine of its context submits too: alone, on its own thread. */
static void
test_submission_auto (void)
{
  ClhEngine *a = clh_engine_new_for_context (clh_engine_get_context (engine),
      NULL);
  ClhEngine *b = clh_engine_new_for_context (clh_engine_get_context (engine),
      NULL);
  Flight *fl = flight_new (clh_engine_get_context (a), 1, "alone");
  Flight *f2 = flight_new (clh_engine_get_context (a), 2, "beside another");
  GQueue pending = G_QUEUE_INIT;
  GError *err = NULL;

  clh_engine_set_counting (a, CLH_COUNTING_DEVICE);
  clh_engine_set_counting (b, CLH_COUNTING_DEVICE);
  g_assert_true (clh_engine_set_max_in_flight (a, 2, &err));
  /* Earlier tests' submissions are older than the 2 ms. */
  g_usleep (5000);
  g_assert_true (clh_engine_submit (a, &fl->frame, &fl->spec, fl->block,
          &err));
  g_assert_true (clh_engine_submit (a, &fl->frame, &fl->spec, fl->block,
          &err));
  g_assert_cmpuint (clh_engine_get_n_on_thread (a), ==, 0);
  clh_engine_discard (a);
  /* b submits, then a at once: a is not alone. */
  g_assert_true (clh_engine_submit (b, &f2->frame, &f2->spec, f2->block,
          &err));
  g_assert_true (clh_engine_submit (a, &fl->frame, &fl->spec, fl->block,
          &err));
  g_queue_push_tail (&pending, fl);
  g_assert_no_error (err);
  if (clh_engine_get_n_on_thread (a) == 0)
    g_test_message ("a was not seen beside b: more than 2 ms between them");
  collect_and_check (a, &pending);
  g_queue_push_tail (&pending, f2);
  collect_and_check (b, &pending);
  clh_engine_free (a);
  clh_engine_free (b);
}

/* Two engines of one context count at once in two threads. */
static void
test_shared_context_threads (void)
{
  ClhContext *context = clh_engine_get_context (engine);
  ClhEngine *a = clh_engine_new_for_context (context, NULL);
  ClhEngine *b = clh_engine_new_for_context (context, NULL);
  GThread *ta, *tb;

  g_assert_true (clh_engine_get_context (a) == clh_engine_get_context (b));
  ta = g_thread_new ("a", count_in_thread, a);
  tb = g_thread_new ("b", count_in_thread, b);
  g_thread_join (ta);
  g_thread_join (tb);
  clh_engine_free (a);
  clh_engine_free (b);
}

/* The rectangle of @src copied sample by sample into a frame of its own:
 * component c's sample (sx, sy) of the copy is its sample
 * (sx + (x >> w_sub), sy + (y >> h_sub)) of @src. */
static ClhTestFrame *
copy_rect (const gchar *format, const ClhFrame *src, guint x, guint y,
    guint width, guint height)
{
  ClhTestFrame *t = clh_test_frame_new (format, width, height, 0,
      CLH_TEST_ZERO, 0);
  ClhFrame *dst = &t->frame;
  const guint bytes = clh_frame_sample_bytes (src);
  guint c, sx, sy, b;

  for (c = 0; c < src->n_components; c++) {
    const ClhComponent *comp = &src->components[c];
    const ClhPlane *from = &src->planes[comp->plane];
    guint8 *to = (guint8 *) dst->planes[comp->plane].data;

    for (sy = 0; sy < clh_component_height (dst, c); sy++)
      for (sx = 0; sx < clh_component_width (dst, c); sx++)
        for (b = 0; b < bytes; b++)
          to[sy * dst->planes[comp->plane].stride + comp->offset
              + sx * comp->pixel_stride + b] =
              from->data[(sy + (y >> comp->h_sub)) * from->stride
              + comp->offset + (sx + (x >> comp->w_sub)) * comp->pixel_stride
              + b];
  }
  return t;
}

/* The cache as someone else may have left it: each case sets up a cache
 * directory holding a good binary (@path is its file), then breaks it; the
 * next context must not block, read without bound, follow a link or trust
 * what others can write, and must count bit-exactly. */
typedef struct {
  const gchar *name;
  /* Breaks the cache; returns the directory to use then. */
  gchar *(*setup) (const gchar *dir, const gchar *path);
  ClhProgramOrigin origin;
} HostileCache;

static gchar *
hostile_fifo (const gchar *dir, const gchar *path)
{
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  return g_strdup (dir);
}

static gchar *
hostile_dev_zero (const gchar *dir, const gchar *path)
{
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
  return g_strdup (dir);
}

/* 3 GB of holes: only reading it would take time and memory. */
static gchar *
hostile_huge (const gchar *dir, const gchar *path)
{
  int fd = open (path, O_WRONLY | O_TRUNC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 3 << 30), ==, 0);
  close (fd);
  return g_strdup (dir);
}

static gchar *
hostile_file_mode (const gchar *dir, const gchar *path)
{
  g_assert_cmpint (chmod (path, 0644), ==, 0);
  return g_strdup (dir);
}

static gchar *
hostile_file_owner (const gchar *dir, const gchar *path)
{
  g_assert_cmpint (chown (path, 65534, (gid_t) -1), ==, 0);
  return g_strdup (dir);
}

static gchar *
hostile_dir_mode (const gchar *dir, const gchar *path)
{
  g_assert_cmpint (chmod (dir, 0777), ==, 0);
  return g_strdup (dir);
}

static gchar *
hostile_dir_link (const gchar *dir, const gchar *path)
{
  gchar *link = g_strconcat (dir, "-link", NULL);

  g_assert_cmpint (symlink (dir, link), ==, 0);
  return link;
}

/* A symbolic link on the way to the cache that another user owns (as one
 * left in /tmp): its owner could point it elsewhere at any time. */
static gchar *
hostile_ancestor_link (const gchar *dir, const gchar *path)
{
  gchar *top = g_path_get_dirname (dir);
  gchar *link = g_strconcat (top, "-theirs", NULL);
  gchar *use = g_build_filename (link, "cache", NULL);

  g_assert_cmpint (symlink (top, link), ==, 0);
  g_assert_cmpint (lchown (link, 65534, (gid_t) -1), ==, 0);
  g_free (link);
  g_free (top);
  return use;
}

/* The cache's parent writable by anyone (and not sticky): someone could
 * rename the cache away and put their own in its place. */
static gchar *
hostile_parent_mode (const gchar *dir, const gchar *path)
{
  gchar *parent = g_path_get_dirname (dir);

  g_assert_cmpint (chmod (parent, 0777), ==, 0);
  g_free (parent);
  return g_strdup (dir);
}

static const HostileCache hostile_caches[] = {
  {"fifo", hostile_fifo, CLH_PROGRAM_REBUILT},
  {"dev-zero-link", hostile_dev_zero, CLH_PROGRAM_REBUILT},
  {"huge", hostile_huge, CLH_PROGRAM_REBUILT},
  {"file-mode", hostile_file_mode, CLH_PROGRAM_REBUILT},
  {"file-owner", hostile_file_owner, CLH_PROGRAM_REBUILT},
  {"dir-mode", hostile_dir_mode, CLH_PROGRAM_BUILT},
  {"dir-link", hostile_dir_link, CLH_PROGRAM_BUILT},
  {"parent-mode", hostile_parent_mode, CLH_PROGRAM_BUILT},
  {"ancestor-link-owner", hostile_ancestor_link, CLH_PROGRAM_BUILT},
};

/* Bytes this process has read so far (/proc/self/io's rchar). */
static guint64
bytes_read (void)
{
  gchar *io = NULL, *at;
  guint64 n = 0;

  if (g_file_get_contents ("/proc/self/io", &io, NULL, NULL)
      && (at = strstr (io, "rchar: ")))
    n = g_ascii_strtoull (at + 7, NULL, 10);
  g_free (io);
  return n;
}

static void
run_hostile_cache (const HostileCache *hc)
{
  gchar *top = g_dir_make_tmp ("clhistogram-hostile-XXXXXX", NULL);
  gchar *dir = g_build_filename (top, "cache", NULL), *use, *path;
  struct stat st;
  ClhContext *ctx;
  GError *err = NULL;
  guint64 before;

  /* A good cache made by a first context: directory 0700, file 0600. */
  ctx = clh_context_new_full (g_getenv ("CLH_TEST_DEVICE"), dir, &err);
  g_assert_no_error (err);
  path = clh_program_cache_file (dir, clh_context_get_device (ctx),
      clh_program_cl_source, "-cl-std=CL1.2");
  clh_context_unref (ctx);
  g_assert_cmpint (stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0700);
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);

  use = hc->setup (dir, path);
  before = bytes_read ();
  g_assert_cmpint (count_on_new_context (use, hc->name), ==, hc->origin);
  g_assert_cmpuint (bytes_read () - before, <, 256 << 20);
  if (hc->origin == CLH_PROGRAM_REBUILT) {
    /* Replaced by a file of our own, not written through a link. */
    g_assert_cmpint (lstat (path, &st), ==, 0);
    g_assert_true (S_ISREG (st.st_mode));
    g_assert_cmpint (st.st_mode & 07777, ==, 0600);
    g_assert_cmpint (st.st_uid, ==, geteuid ());
    g_assert_cmpint (st.st_size, <, 64 << 20);
  }
  g_free (use);
  g_free (path);
  g_free (dir);
  g_free (top);
}

/* Each case in a child process with a time limit: reading a FIFO blocks
 * and /dev/zero never ends, which must fail the test, not hang it. The
 * temporary directories are left for the system's /tmp cleaning: a case
 * that fails may leave them in any state. */
static void
test_program_cache_hostile (gconstpointer data)
{
  const HostileCache *hc = data;

  if (g_test_subprocess ()) {
    run_hostile_cache (hc);
    return;
  }
  if ((hc->setup == hostile_file_owner || hc->setup == hostile_ancestor_link)
      && geteuid () != 0) {
    g_test_skip ("giving a file to another user needs root");
    return;
  }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC,
      G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The subsampling grid of @frame's most subsampled component. */
static void
sample_grid (const ClhFrame *frame, guint *gx, guint *gy)
{
  guint c;

  *gx = *gy = 1;
  for (c = 0; c < frame->n_components; c++) {
    *gx = MAX (*gx, 1u << frame->components[c].w_sub);
    *gy = MAX (*gy, 1u << frame->components[c].h_sub);
  }
}

/* Every mode of @format on rectangles of a padded frame narrowed in place
 * against the reference on the same rectangles copied out. */
static void
check_crops (const gchar *format, ClhTestContent content)
{
  ClhTestFrame *t = clh_test_frame_new (format, 37, 23, 5, content, 3);
  guint gx, gy, r, m;

  sample_grid (&t->frame, &gx, &gy);
  {
    const guint rects[][4] = {
      {0, 0, 37, 23}, {gx, gy, 37 - gx, 23 - gy}, {3 * gx, 2 * gy, 1, 1},
      {2 * gx, gy, 13, 7}, {0, 2 * gy, 37, 5}, {4 * gx, 0, 3, 23},
    };

    for (r = 0; r < G_N_ELEMENTS (rects); r++) {
      ClhTestFrame *copy = copy_rect (format, &t->frame, rects[r][0],
          rects[r][1], rects[r][2], rects[r][3]);

      for (m = 0; m < G_N_ELEMENTS (modes); m++) {
        ClhFrame cropped = t->frame;
        ClhHistogramSpec spec;
        GError *err = NULL;
        gchar *what;

        if (!clh_reference_spec (t->klass, &t->frame, modes[m], 7, &spec))
          continue;
        what = g_strdup_printf ("%s %s %s, %ux%u at (%u, %u)", format,
            clh_test_content_name (content), modes[m], rects[r][2],
            rects[r][3], rects[r][0], rects[r][1]);
        if (!clh_frame_crop (&cropped, rects[r][0], rects[r][1], rects[r][2],
                rects[r][3], &spec, &err))
          g_error ("%s: %s", what, err->message);
        g_assert_true (clh_frame_is_valid (&cropped));
        check_spec_on_reference (&cropped, &copy->frame, &spec, what);
        g_free (what);
      }
      clh_test_frame_free (copy);
    }
  }
  clh_test_frame_free (t);
}

static void
test_crop (gconstpointer data)
{
  check_crops (data, CLH_TEST_RANDOM);
  check_crops (data, CLH_TEST_GRADIENT);
}

/* A rectangle off a subsampled component's grid, or outside the frame, is
 * refused when that component is read and leaves the frame as it was;
 * luma alone reads at any pixel. */
static void
test_crop_refused (void)
{
  ClhTestFrame *t = clh_test_frame_new ("I420", 16, 16, 0, CLH_TEST_RANDOM, 1);
  ClhTestFrame *yuy2 = clh_test_frame_new ("YUY2", 16, 4, 0,
      CLH_TEST_RANDOM, 1);
  ClhFrame frame = t->frame;
  ClhHistogramSpec spec;
  GError *err = NULL;

  g_assert_true (clh_reference_spec (t->klass, &t->frame, "channels", 16,
          &spec));
  g_assert_false (clh_frame_crop (&frame, 1, 0, 4, 4, &spec, &err));
  g_assert_error (err, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (err->message, "subsampling grid"));
  g_clear_error (&err);
  g_assert_false (clh_frame_crop (&frame, 0, 3, 4, 4, &spec, &err));
  g_clear_error (&err);
  g_assert_false (clh_frame_crop (&frame, 8, 8, 9, 2, &spec, &err));
  g_assert_nonnull (strstr (err->message, "not inside"));
  g_clear_error (&err);
  g_assert_false (clh_frame_crop (&frame, G_MAXUINT, 0, 2, 2, &spec, &err));
  g_clear_error (&err);
  g_assert_false (clh_frame_crop (&frame, 0, 0, 0, 2, &spec, &err));
  g_clear_error (&err);
  g_assert_true (memcmp (&frame, &t->frame, sizeof (frame)) == 0);

  g_assert_true (clh_reference_spec (t->klass, &t->frame, "hue", 16, &spec));
  g_assert_false (clh_frame_crop (&frame, 1, 1, 4, 4, &spec, NULL));

  /* Luma of I420 and of packed YUY2 at odd pixels. */
  g_assert_true (clh_reference_spec (t->klass, &t->frame, "luma", 16,
          &spec));
  g_assert_true (clh_frame_crop (&frame, 3, 5, 7, 9, &spec, &err));
  g_assert_no_error (err);
  {
    ClhTestFrame *copy = copy_rect ("I420", &t->frame, 3, 5, 7, 9);
    check_spec_on_reference (&frame, &copy->frame, &spec, "I420 luma at odd");
    clh_test_frame_free (copy);
  }
  frame = yuy2->frame;
  g_assert_true (clh_reference_spec (yuy2->klass, &yuy2->frame, "luma", 16,
          &spec));
  g_assert_true (clh_frame_crop (&frame, 3, 1, 9, 2, &spec, &err));
  {
    ClhFrame y_only = yuy2->frame;
    ClhTestFrame *copy;

    /* The copy's chroma is that of x = 2: luma alone is compared. */
    copy = copy_rect ("YUY2", &y_only, 3, 1, 9, 2);
    check_spec_on_reference (&frame, &copy->frame, &spec, "YUY2 luma at odd");
    clh_test_frame_free (copy);
  }
  g_assert_true (clh_reference_spec (yuy2->klass, &yuy2->frame, "channels",
          16, &spec));
  frame = yuy2->frame;
  g_assert_false (clh_frame_crop (&frame, 3, 1, 9, 2, &spec, NULL));
  clh_test_frame_free (yuy2);
  clh_test_frame_free (t);
}

/* The reference's regions (the co-sited rule: a subsampled sample is
 * counted iff the pixel at (x << w_sub, y << h_sub) lies in the region),
 * checked without the engine. */

static ClhHistogram
region_histogram (const ClhFrame *frame, const ClhHistogramSpec *spec,
    gint x, gint y, gint width, gint height)
{
  const ClhRect rect = { x, y, width, height };
  ClhHistogram h = { g_new0 (guint32, clh_histogram_spec_n_channels (spec)
          * clh_histogram_spec_n_bins (spec)) };

  clh_reference_histogram_region (frame, spec, &rect, &h);
  return h;
}

static void
assert_histograms_equal (const ClhHistogramSpec *spec, const ClhHistogram *a,
    const ClhHistogram *b, const gchar *what)
{
  const gsize n = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);

  if (memcmp (a->counts, b->counts, n * sizeof (guint32)) != 0
      || memcmp (a->samples, b->samples, sizeof (a->samples)) != 0
      || memcmp (a->below, b->below, sizeof (a->below)) != 0
      || memcmp (a->above, b->above, sizeof (a->above)) != 0)
    g_error ("%s: histograms differ", what);
}

/* Four tiles of any split point, odd ones included, sum to the whole
 * frame: each sample's co-sited pixel lies in exactly one tile. Regions
 * reaching outside the frame are clipped; one wholly outside counts
 * nothing; one on the chroma grid equals the frame cropped there. */
static void
test_reference_regions (gconstpointer data)
{
  const gchar *format = data;
  ClhTestFrame *t = clh_test_frame_new (format, 37, 23, 3, CLH_TEST_RANDOM,
      11);
  const ClhFrame *f = &t->frame;
  const guint splits[][2] = { {1, 1}, {17, 12}, {18, 11}, {36, 22} };
  guint m, i, gx, gy;

  sample_grid (f, &gx, &gy);
  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    ClhHistogramSpec spec;
    ClhHistogram whole, h;
    gchar *what;

    if (!clh_reference_spec (t->klass, f, modes[m], 7, &spec))
      continue;
    what = g_strdup_printf ("%s %s", format, modes[m]);
    whole = region_histogram (f, &spec, 0, 0, 37, 23);
    for (i = 0; i < G_N_ELEMENTS (splits); i++) {
      const gint sx = splits[i][0], sy = splits[i][1];
      const gint tiles[4][4] = {
        {0, 0, sx, sy}, {sx, 0, 37 - sx, sy}, {0, sy, sx, 23 - sy},
        {sx, sy, 37 - sx, 23 - sy},
      };
      const gsize n = (gsize) clh_histogram_spec_n_channels (&spec)
          * clh_histogram_spec_n_bins (&spec);
      ClhHistogram sum = { g_new0 (guint32, n) };
      guint k, c;
      gsize b;

      for (k = 0; k < 4; k++) {
        h = region_histogram (f, &spec, tiles[k][0], tiles[k][1],
            tiles[k][2], tiles[k][3]);
        for (b = 0; b < n; b++)
          sum.counts[b] += h.counts[b];
        for (c = 0; c < CLH_MAX_CHANNELS; c++) {
          sum.samples[c] += h.samples[c];
          sum.below[c] += h.below[c];
          sum.above[c] += h.above[c];
        }
        g_free (h.counts);
      }
      assert_histograms_equal (&spec, &sum, &whole, what);
      g_free (sum.counts);
    }

    /* Clipped to the frame, and wholly outside. */
    h = region_histogram (f, &spec, -5, -9, 100, 100);
    assert_histograms_equal (&spec, &h, &whole, what);
    g_free (h.counts);
    h = region_histogram (f, &spec, 40, 2, 3, 3);
    g_assert_cmpuint (h.samples[0], ==, 0);
    g_assert_cmpuint (h.below[0] + h.above[0], ==, 0);
    g_free (h.counts);

    /* On the chroma grid, a region is the frame cropped there. */
    {
      ClhFrame cropped = *f;
      ClhHistogram crop = { g_new0 (guint32,
              clh_histogram_spec_n_channels (&spec)
              * clh_histogram_spec_n_bins (&spec)) };

      g_assert_true (clh_frame_crop (&cropped, 2 * gx, gy, 13, 7, &spec,
              NULL));
      clh_reference_histogram (&cropped, &spec, &crop);
      h = region_histogram (f, &spec, 2 * gx, gy, 13, 7);
      assert_histograms_equal (&spec, &h, &crop, what);
      g_free (h.counts);
      g_free (crop.counts);
    }
    g_free (whole.counts);
    g_free (what);
  }
  clh_test_frame_free (t);
}

static void
test_rect_clip (void)
{
  const struct {
    ClhRect in, out;
  } cases[] = {
    { {0, 0, 10, 5}, {0, 0, 10, 5} },
    { {-3, -2, 5, 4}, {0, 0, 2, 2} },
    { {8, 3, 10, 10}, {8, 3, 2, 2} },
    { {12, 1, 2, 2}, {9, 1, 0, 0} },
    { {-8, -8, 2, 2}, {0, 0, 0, 0} },
    { {3, 2, 0, 4}, {3, 2, 0, 0} },
    { {3, 2, -4, 4}, {3, 2, 0, 0} },
    { {G_MAXINT, G_MAXINT, G_MAXINT, G_MAXINT}, {9, 4, 0, 0} },
    { {G_MININT, 0, G_MAXINT, 5}, {0, 0, 0, 0} },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    ClhRect r = cases[i].in;

    clh_rect_clip (&r, 10, 5);
    g_assert_cmpint (r.x, ==, cases[i].out.x);
    g_assert_cmpint (r.y, ==, cases[i].out.y);
    g_assert_cmpint (r.width, ==, cases[i].out.width);
    g_assert_cmpint (r.height, ==, cases[i].out.height);
  }
}

/* kernels/embed.py's #line markers, applied to a log that numbers the lines
 * of the string built (NVIDIA's); names already given are kept. */
static void
test_build_log_locate (void)
{
  const gchar *source = "#line 1 \"kernels/a.cl\"\nx\n"
      "#line 1 \"kernels/h.h\"\ny\nz\n#line 3 \"kernels/a.cl\"\nw\n";
  gchar *out = clh_build_log_locate ("<kernel>:7:8: error: w\n"
      "<kernel>:4:1: note: y\n<kernel>:99:1: past the end\n"
      "kernels/a.cl:1:2: named", source);

  g_assert_cmpstr (out, ==, "kernels/a.cl:3:8: error: w\n"
      "kernels/h.h:1:1: note: y\n<kernel>:99:1: past the end\n"
      "kernels/a.cl:1:2: named");
  g_free (out);
}

extern const char clh_program_cl_source[];

/* In the embedded source, each kernel's line maps to the line of
 * kernels/histogram.cl that holds it. */
static void
test_build_log_embedded (void)
{
  gchar *text = NULL, **file_lines, **lines;
  guint physical, found = 0;

  g_assert_true (g_file_get_contents (CLH_KERNELS_DIR "/histogram.cl", &text,
          NULL, NULL));
  file_lines = g_strsplit (text, "\n", -1);
  lines = g_strsplit (clh_program_cl_source, "\n", -1);
  for (physical = 1; lines[physical - 1]; physical++) {
    gchar *log, *out, *expected;
    guint line;

    if (!g_str_has_prefix (lines[physical - 1], "histogram_"))
      continue;
    log = g_strdup_printf ("<kernel>:%u:1: here", physical);
    out = clh_build_log_locate (log, clh_program_cl_source);
    g_assert_true (sscanf (out, "kernels/histogram.cl:%u:", &line) == 1);
    g_assert_cmpuint (line, <=, g_strv_length (file_lines));
    g_assert_cmpstr (file_lines[line - 1], ==, lines[physical - 1]);
    expected = g_strdup_printf ("kernels/histogram.cl:%u:1: here", line);
    g_assert_cmpstr (out, ==, expected);
    g_free (expected);
    g_free (out);
    g_free (log);
    found++;
  }
  g_assert_cmpuint (found, ==, 4);
  g_strfreev (lines);
  g_strfreev (file_lines);
  g_free (text);
}

int
main (int argc, char **argv)
{
  const gchar *const *formats = clh_reference_formats ();
  GError *err = NULL;
  guint i;
  int ret;

  g_test_init (&argc, &argv, NULL);

  engine = clh_engine_new (g_getenv ("CLH_TEST_DEVICE"), &err);
  g_assert_no_error (err);
  g_test_message ("device: %s (%s)", clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine));
  clh_engine_set_counting (engine, counting);

  for (; *formats; formats++) {
    gchar *path;

    if (!clh_test_format_in_run (*formats))
      continue;
    path = g_strdup_printf ("/engine/format/%s", *formats);
    g_test_add_data_func (path, *formats, test_format);
    g_free (path);
  }
  for (formats = clh_reference_formats (); *formats; formats++) {
    gchar *path;

    if (!clh_test_format_in_run (*formats))
      continue;
    path = g_strdup_printf ("/engine/crop/%s", *formats);
    g_test_add_data_func (path, *formats, test_crop);
    g_free (path);
    path = g_strdup_printf ("/reference/regions/%s", *formats);
    g_test_add_data_func (path, *formats, test_reference_regions);
    g_free (path);
  }
  for (formats = clh_reference_formats (); *formats; formats++) {
    gchar *name;

    if (!clh_test_format_in_run (*formats))
      continue;
    name = g_strdup_printf ("format/%s", *formats);
    add_host_test (name, NULL, test_format, *formats);
    g_free (name);
    name = g_strdup_printf ("crop/%s", *formats);
    add_host_test (name, NULL, test_crop, *formats);
    g_free (name);
  }
  add_host_test ("counted-on-host", test_counted_on_host, NULL, NULL);
  add_host_test ("ranges", test_ranges, NULL, NULL);
  add_host_test ("thin", test_thin, NULL, NULL);
  add_host_test ("host-memory", test_host_memory, NULL, NULL);
  add_host_test ("largest-degenerate", test_largest_degenerate, NULL, NULL);
  g_test_add_func ("/engine/crop-refused", test_crop_refused);
  g_test_add_func ("/engine/ranges", test_ranges);
  g_test_add_func ("/engine/hue-masks", test_hue_masks);
  /* Frames over the device's largest buffer, in bands: the longest test. */
  if (clh_test_thorough ())
    g_test_add_func ("/engine/bands", test_bands);
  g_test_add_func ("/engine/variants", test_variants);
  g_test_add_func ("/engine/launch-model", test_launch_model);
  g_test_add_func ("/engine/host-memory", test_host_memory);
  g_test_add_func ("/engine/thin", test_thin);
  g_test_add_func ("/engine/reference-hue-range", test_reference_hue_range);
  g_test_add_func ("/engine/all-colours", test_all_colours);
  g_test_add_func ("/engine/largest-degenerate", test_largest_degenerate);
  g_test_add_func ("/engine/invalid-requests", test_invalid_requests);
  g_test_add_func ("/engine/device-selection", test_device_selection);
  g_test_add_func ("/engine/device-uuid", test_device_uuid);
  g_test_add_func ("/engine/external-memory-refused",
      test_external_memory_refused);
  g_test_add_func ("/engine/profiling", test_profiling);
  g_test_add_func ("/engine/program-cache", test_program_cache);
  g_test_add_func ("/engine/build-log/locate", test_build_log_locate);
  g_test_add_func ("/reference/rect-clip", test_rect_clip);
  g_test_add_func ("/engine/build-log/embedded", test_build_log_embedded);
  for (i = 0; i < G_N_ELEMENTS (hostile_caches); i++) {
    gchar *path = g_strdup_printf ("/engine/program-cache-hostile/%s",
        hostile_caches[i].name);
    g_test_add_data_func (path, &hostile_caches[i],
        test_program_cache_hostile);
    g_free (path);
  }
  g_test_add_func ("/engine/in-flight", test_in_flight);
  g_test_add_func ("/engine/discard", test_discard);
  g_test_add_func ("/engine/shared-context-threads",
      test_shared_context_threads);
  g_test_add_func ("/engine/shared-submission", test_shared_submission);
  g_test_add_func ("/engine/submission-auto", test_submission_auto);
  g_test_add_func ("/engine/batch", test_batch);

  ret = g_test_run ();
  clh_engine_free (engine);
  return ret;
}
