/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The OpenCL engine against the golden reference, without GStreamer: every
 * kernel, odd sizes, padded strides, uploads in bands, the largest frame,
 * all 2^24 colours, device selection and invalid requests. */
#include <string.h>

#include "clh-engine.h"
#include "clh-reference.h"
#include "clh-test-util.h"

static ClhEngine *engine;

typedef struct {
  guint width, height;
  gsize stride;                 /* 0: packed */
} Size;

static void
check_image (const ClhImage *image, const ClhHistogramSpec *spec,
    const gchar *what)
{
  const gsize n = (gsize) spec->n_channels * spec->bins;
  guint32 *got = g_new0 (guint32, n), *want = g_new0 (guint32, n);
  GError *err = NULL;
  gsize i;

  clh_reference_histogram (image, spec, want);
  g_assert_true (clh_engine_histogram (engine, image, spec, got, &err));
  g_assert_no_error (err);
  for (i = 0; i < n; i++)
    if (got[i] != want[i])
      g_error ("%s: counter %" G_GSIZE_FORMAT " (channel %u, bin %u) is %u, "
          "the reference says %u", what, i, (guint) (i / spec->bins),
          (guint) (i % spec->bins), got[i], want[i]);
  g_free (got);
  g_free (want);
}

/* Counts @size filled with every content, in every counting mode of
 * @pixel_stride and every bin count given. */
static void
check_size (const Size *size, guint pixel_stride, const guint *bins,
    guint n_bins)
{
  const gsize row_bytes = (gsize) size->width * pixel_stride;
  const gsize stride = size->stride ? size->stride : row_bytes;
  const gsize bytes = stride * (size->height - 1) + row_bytes;
  guint8 *data = g_malloc (bytes);
  ClhImage image = { data, stride, size->width, size->height, pixel_stride };
  ClhTestContent content;
  guint b, k;
  /* GRAY8; RGBA channels; RGBA luma; ARGB's R, G, B; BGRA's luma */
  const ClhHistogramSpec specs1[] = { {CLH_COUNT_SAMPLES, 1, {0}} };
  const ClhHistogramSpec specs4[] = {
    {CLH_COUNT_SAMPLES, 4, {0, 1, 2, 3}},
    {CLH_COUNT_LUMA_RGB, 1, {0, 1, 2}},
    {CLH_COUNT_SAMPLES, 3, {1, 2, 3}},
    {CLH_COUNT_LUMA_RGB, 1, {2, 1, 0}},
    {CLH_COUNT_SAMPLES, 1, {2}},
  };
  const ClhHistogramSpec *specs = pixel_stride == 1 ? specs1 : specs4;
  const guint n_specs = pixel_stride == 1 ? 1 : G_N_ELEMENTS (specs4);

  for (content = 0; content < CLH_TEST_N_CONTENTS; content++) {
    clh_test_fill (data, bytes, 0, stride, row_bytes, size->height, content,
        size->width * 7919 + size->height);
    for (k = 0; k < n_specs; k++)
      for (b = 0; b < n_bins; b++) {
        ClhHistogramSpec spec = specs[k];
        gchar *what = g_strdup_printf ("%ux%u stride %" G_GSIZE_FORMAT
            " %u-byte pixels, spec %u, %u bins, %s", size->width,
            size->height, stride, pixel_stride, k, bins[b],
            clh_test_content_name (content));

        spec.bins = bins[b];
        check_image (&image, &spec, what);
        g_free (what);
      }
  }
  g_free (data);
}

static const guint some_bins[] = { 1, 7, 16, 64, 112, 256 };

static const Size sizes[] = {
  {1, 1}, {3, 5}, {5, 3}, {600, 480}, {601, 479}, {1920, 1080},
  {7, 13, 64}, {601, 479, 2411}, {1, 300, 8},
};

static void
test_gray8 (void)
{
  guint i;
  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    check_size (&sizes[i], 1, some_bins, G_N_ELEMENTS (some_bins));
}

static void
test_packed32 (void)
{
  guint i;
  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    Size s = sizes[i];
    if (s.stride)
      s.stride *= 4;
    check_size (&s, 4, some_bins, G_N_ELEMENTS (some_bins));
  }
}

/* Frames larger than the staging buffer are counted in bands of rows, and
 * a staging buffer smaller than one row still holds one. */
static void
test_bands (void)
{
  static const guint bins[] = { 7, 256 };
  const Size odd = { 601, 479, 613 };
  Size odd4 = { 601, 479, 613 * 4 };
  const gsize limits[] = { 1, 1000, 613 * 10 + 5, 601 * 4 * 100 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (limits); i++) {
    clh_engine_set_staging_limit (engine, limits[i]);
    check_size (&odd, 1, bins, G_N_ELEMENTS (bins));
    check_size (&odd4, 4, bins, G_N_ELEMENTS (bins));
  }
  clh_engine_set_staging_limit (engine, 64u << 20);
}

/* Every 24-bit colour once, so the kernel's luma equals the reference's on
 * all of them. */
static void
test_all_colours_luma (void)
{
  guint8 *data = g_malloc ((gsize) 4096 * 4096 * 4);
  ClhImage image = { data, 4096 * 4, 4096, 4096, 4 };
  ClhHistogramSpec spec = { CLH_COUNT_LUMA_RGB, 1, {0, 1, 2}, 256 };
  guint32 c;

  for (c = 0; c < (1u << 24); c++) {
    data[4 * c] = c >> 16;
    data[4 * c + 1] = (c >> 8) & 0xff;
    data[4 * c + 2] = c & 0xff;
    data[4 * c + 3] = 0x5A;
  }
  check_image (&image, &spec, "all 2^24 colours, luma");
  g_free (data);
}

/* The largest frame, all one value: 2^28 samples in one bin. The seeds'
 * 8-bit counters gave 0 here. */
static void
test_largest_degenerate (void)
{
  const gsize n = (gsize) CLH_MAX_DIMENSION * CLH_MAX_DIMENSION;
  guint8 *data = g_malloc (n);
  ClhImage image = { data, CLH_MAX_DIMENSION, CLH_MAX_DIMENSION,
    CLH_MAX_DIMENSION, 1
  };
  ClhHistogramSpec spec = { CLH_COUNT_SAMPLES, 1, {0}, 256 };
  guint32 counts[256];
  GError *err = NULL;
  guint b;

  memset (data, 0xff, n);
  g_assert_true (clh_engine_histogram (engine, &image, &spec, counts, &err));
  g_assert_no_error (err);
  for (b = 0; b < 255; b++)
    g_assert_cmpuint (counts[b], ==, 0);
  g_assert_cmpuint (counts[255], ==, 1u << 28);
  g_free (data);
}

static void
test_thin (void)
{
  static const guint bins[] = { 256 };
  const Size wide = { CLH_MAX_DIMENSION, 1 }, tall = { 1, CLH_MAX_DIMENSION };

  check_size (&wide, 1, bins, 1);
  check_size (&wide, 4, bins, 1);
  check_size (&tall, 1, bins, 1);
  check_size (&tall, 4, bins, 1);
}

static void
expect_invalid (const ClhImage *image, const ClhHistogramSpec *spec)
{
  guint32 counts[CLH_MAX_CHANNELS * 256];
  GError *err = NULL;

  g_assert_false (clh_engine_histogram (engine, image, spec, counts, &err));
  g_assert_error (err, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID);
  g_clear_error (&err);
}

static void
test_invalid_requests (void)
{
  guint8 data[64] = { 0 };
  const ClhImage ok = { data, 16, 4, 4, 1 };
  const ClhHistogramSpec gray = { CLH_COUNT_SAMPLES, 1, {0}, 16 };
  ClhImage image;
  ClhHistogramSpec spec;

  image = ok, image.width = 0;
  expect_invalid (&image, &gray);
  image = ok, image.height = CLH_MAX_DIMENSION + 1;
  expect_invalid (&image, &gray);
  image = ok, image.stride = 3;
  expect_invalid (&image, &gray);
  image = ok, image.pixel_stride = 3;
  expect_invalid (&image, &gray);
  spec = gray, spec.bins = 0;
  expect_invalid (&ok, &spec);
  spec = gray, spec.bins = 257;
  expect_invalid (&ok, &spec);
  spec = gray, spec.offsets[0] = 1;
  expect_invalid (&ok, &spec);
  spec = gray, spec.count = CLH_COUNT_LUMA_RGB;
  expect_invalid (&ok, &spec);
  image = ok, image.pixel_stride = 4, image.width = 2;
  spec = gray, spec.n_channels = 5;
  expect_invalid (&image, &spec);
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

int
main (int argc, char **argv)
{
  GError *err = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  engine = clh_engine_new (g_getenv ("CLH_TEST_DEVICE"), &err);
  g_assert_no_error (err);
  g_test_message ("device: %s (%s)", clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine));

  g_test_add_func ("/engine/gray8", test_gray8);
  g_test_add_func ("/engine/packed32", test_packed32);
  g_test_add_func ("/engine/bands", test_bands);
  g_test_add_func ("/engine/thin", test_thin);
  g_test_add_func ("/engine/all-colours-luma", test_all_colours_luma);
  g_test_add_func ("/engine/largest-degenerate", test_largest_degenerate);
  g_test_add_func ("/engine/invalid-requests", test_invalid_requests);
  g_test_add_func ("/engine/device-selection", test_device_selection);

  ret = g_test_run ();
  clh_engine_free (engine);
  return ret;
}
