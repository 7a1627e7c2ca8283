/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram's regions through GStreamer: zones, fixed regions and ROI
 * metas with and without the whole frame, on every format x mode, each
 * histogram's meta and message entry against the golden reference; crop
 * metas; the message without the whole frame; the properties' values,
 * bad ones included; ROI metas added in a pad probe of a real pipeline;
 * more ROI metas than a frame may have; an interval's regions bounded
 * under ROI metas whose ids change every frame. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-check-util.h"
#include "clh-reference-frame.h"

static const gchar *const modes[] = {
  "luma", "channels", "max", "hue", "hue-saturation", "rgb",
};

/* What one histogram of a frame should be: its name and the rectangle the
 * reference counts (in the buffer's own pixels) and the meta reports (in
 * the counted frame's). */
typedef struct {
  const gchar *type;
  gint id;
  ClhRect reported;
  ClhRect counted;
} Expected;

static GstBuffer *
random_frame (const GstVideoInfo *info, guint32 seed)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buffer, &map);
  g_rand_free (rand);
  GST_BUFFER_PTS (buffer) = 0;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 30;
  return buffer;
}

static GValue *
rects_value (const ClhRect *rects, guint n)
{
  GValue *value = g_new0 (GValue, 1);
  guint i, k;

  g_value_init (value, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    const gint v[4] = { rects[i].x, rects[i].y, rects[i].width,
      rects[i].height
    };
    GValue rect = G_VALUE_INIT;

    g_value_init (&rect, GST_TYPE_ARRAY);
    for (k = 0; k < 4; k++) {
      GValue item = G_VALUE_INIT;

      g_value_init (&item, G_TYPE_INT);
      g_value_set_int (&item, v[k]);
      gst_value_array_append_and_take_value (&rect, &item);
    }
    gst_value_array_append_and_take_value (value, &rect);
  }
  return value;
}

/* Sets the regions of @h's clhistogram (in a bin, for a parsed
 * harness). */
static void
set_regions (GstHarness *h, const ClhRect *rects, guint n)
{
  GstElement *element = gst_harness_find_element (h, "clhistogram");
  GValue *value = rects_value (rects, n);

  g_object_set_property (G_OBJECT (element), "regions", value);
  gst_object_unref (element);
  g_value_unset (value);
  g_free (value);
}

/* The reference's histogram of @e on @buffer, against @meta's and (when
 * @entry is not NULL) the message entry's counts. */
static void
check_histogram (const GstVideoInfo *info, GstBuffer *buffer,
    const gchar *mode, guint bins, const Expected *e, GstHistogramMeta *meta,
    const GstStructure *entry, const gchar *what)
{
  ClhHistogramSpec spec;
  ClhHistogram want;
  const GstHistogramStatistics *st;
  guint c, b;

  fail_unless (meta != NULL, "%s: no meta for %s %d", what, e->type, e->id);
  fail_unless (clh_reference_histogram_of_buffer_region (info, buffer, mode,
          bins, 0, -1, &e->counted, &spec, &want));
  fail_unless_equals_string (meta->region.type, e->type);
  fail_unless_equals_int (meta->region.id, e->id);
  fail_unless (meta->region.x == (guint) e->reported.x
      && meta->region.y == (guint) e->reported.y
      && meta->region.width == (guint) e->reported.width
      && meta->region.height == (guint) e->reported.height,
      "%s: %s %d reports %ux%u at (%u, %u), not %dx%d at (%d, %d)", what,
      e->type, e->id, meta->region.width, meta->region.height,
      meta->region.x, meta->region.y, e->reported.width, e->reported.height,
      e->reported.x, e->reported.y);
  fail_unless_equals_uint64 (meta->pixels,
      (guint64) e->reported.width * e->reported.height);
  for (c = 0; c < meta->info.n_channels; c++) {
    guint n_bins;
    const guint32 *counts = gst_histogram_meta_get_counts (meta, c, &n_bins);
    const GValue *row = entry ? gst_value_array_get_value
        (gst_structure_get_value (entry, "counts"), c) : NULL;

    for (b = 0; b < n_bins; b++) {
      fail_unless (counts[b] == want.counts[c * n_bins + b],
          "%s: %s %d channel %u bin %u is %u, the reference says %u", what,
          e->type, e->id, c, b, counts[b], want.counts[c * n_bins + b]);
      if (row)
        fail_unless (g_value_get_uint (gst_value_array_get_value (row, b))
            == counts[b]);
    }
    st = gst_histogram_meta_get_statistics (meta, c);
    fail_unless_equals_uint64 (st->samples, want.samples[c]);
    fail_unless_equals_uint64 (st->below, want.below[c]);
    fail_unless_equals_uint64 (st->above, want.above[c]);
  }
  g_free (want.counts);
}

/* The `histogram` message's entry @index of `regions`. */
static const GstStructure *
message_region (const GstStructure *s, guint index)
{
  const GValue *regions = gst_structure_get_value (s, "regions");

  fail_unless (regions != NULL && GST_VALUE_HOLDS_ARRAY (regions));
  fail_unless (index < gst_value_array_get_size (regions));
  return gst_value_get_structure (gst_value_array_get_value (regions, index));
}

/* Pushes @buffer through @h and checks every histogram of @expected (the
 * whole frame's first if @full_frame): the metas in order, and the
 * message. */
static void
check_frame (GstHarness *h, GstBus *bus, const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, guint bins, gboolean full_frame,
    const Expected *expected, guint n, const gchar *what)
{
  GstBuffer *out;
  GstMessage *msg;
  const GstStructure *s;
  GList *metas, *l;
  guint i;

  fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buffer)),
      GST_FLOW_OK);
  out = gst_harness_pull (h);
  metas = gst_buffer_get_histogram_metas (out);
  fail_unless_equals_int (g_list_length (metas), n);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "%s: no message", what);
  s = gst_message_get_structure (msg);
  fail_unless_equals_int (gst_structure_has_field (s, "counts"), full_frame);
  fail_unless_equals_int (gst_structure_has_field (s, "samples"), full_frame);
  fail_unless_equals_int (gst_value_array_get_size (gst_structure_get_value
          (s, "regions")), n - (full_frame ? 1 : 0));

  for (i = 0, l = metas; i < n; i++, l = l->next) {
    const GstStructure *entry = NULL;

    if (!full_frame || i > 0) {
      guint x, y, width, height;
      gint id;

      entry = message_region (s, i - (full_frame ? 1 : 0));
      fail_unless_equals_string (gst_structure_get_name (entry), "region");
      fail_unless_equals_string (gst_structure_get_string (entry, "type"),
          expected[i].type);
      fail_unless (gst_structure_get (entry, "id", G_TYPE_INT, &id, "x",
              G_TYPE_UINT, &x, "y", G_TYPE_UINT, &y, "width", G_TYPE_UINT,
              &width, "height", G_TYPE_UINT, &height, NULL));
      fail_unless_equals_int (id, expected[i].id);
      fail_unless (x == (guint) expected[i].reported.x
          && y == (guint) expected[i].reported.y
          && width == (guint) expected[i].reported.width
          && height == (guint) expected[i].reported.height);
    }
    check_histogram (info, out, mode, bins, &expected[i], l->data, entry,
        what);
    fail_unless (gst_buffer_get_histogram_meta_for_region (out,
            expected[i].type, expected[i].id) != NULL);
  }
  g_list_free (metas);
  gst_message_unref (msg);
  gst_buffer_unref (out);
}

static void
add_roi (GstBuffer *buffer, const gchar *type, gint id, guint x, guint y,
    guint w, guint h)
{
  GstVideoRegionOfInterestMeta *roi =
      gst_buffer_add_video_region_of_interest_meta (buffer, type, x, y, w, h);
  roi->id = id;
}

/* Expected's counted and reported rectangle: @rect clipped to the
 * frame. */
static Expected
expect (const gchar *type, gint id, ClhRect rect, guint width, guint height)
{
  Expected e = { type, id, rect, rect };

  clh_rect_clip (&e.reported, width, height);
  e.counted = e.reported;
  return e;
}

/* Zones 3x2, 12 fixed regions (edges, 1x1, outside, overlapping) and two
 * ROI metas, with and without the whole frame; FALSE if the mode does not
 * apply to the format. */
static gboolean
check_format_mode (const gchar *format, const gchar *mode, gboolean full_frame)
{
  const guint width = 61, height = 37, bins = 7;
  const ClhRect fixed[] = {
    {0, 0, 61, 37}, {0, 0, 1, 1}, {60, 36, 1, 1}, {-3, -2, 9, 7},
    {55, 30, 20, 20}, {70, 2, 4, 4}, {13, 5, 17, 11}, {14, 6, 17, 11},
    {1, 1, 0, 0}, {31, 0, 3, 37}, {0, 17, 61, 3}, {7, 9, 30, 20},
  };
  Expected expected[1 + 6 + G_N_ELEMENTS (fixed) + 2];
  GstHarness *h;
  GstBus *bus;
  GstVideoInfo info;
  GstBuffer *buffer;
  ClhHistogramSpec spec;
  ClhHistogram probe;
  gchar *what, *desc;
  guint n = 0, i, j;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  buffer = random_frame (&info, g_str_hash (format) ^ g_str_hash (mode));
  /* Modes the format has no meaning for are the negotiation tests'. */
  if (!clh_reference_histogram_of_buffer (&info, buffer, mode, bins, 0, -1,
          &spec, &probe)) {
    gst_buffer_unref (buffer);
    return FALSE;
  }
  g_free (probe.counts);
  add_roi (buffer, "face", 7, 20, 10, 8, 9);
  add_roi (buffer, "car", 9, 50, 30, 40, 40);

  desc = g_strdup_printf ("clhistogram mode=%s bins=%u zones=3x2 "
      "full-frame=%s", mode, bins, full_frame ? "true" : "false");
  h = gst_harness_new_parse (desc);
  g_free (desc);
  set_regions (h, fixed, G_N_ELEMENTS (fixed));
  bus = clh_check_harness_bus (h->element);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));

  if (full_frame)
    expected[n++] = expect ("frame", 0, (ClhRect) { 0, 0, width, height },
        width, height);
  for (j = 0; j < 2; j++)
    for (i = 0; i < 3; i++) {
      ClhRect zone;

      clh_zone_rect (width, height, 3, 2, i, j, &zone);
      expected[n++] = expect ("zone", j * 3 + i, zone, width, height);
    }
  for (i = 0; i < G_N_ELEMENTS (fixed); i++)
    expected[n++] = expect ("region", i, fixed[i], width, height);
  expected[n++] = expect ("face", 7, (ClhRect) { 20, 10, 8, 9 }, width,
      height);
  expected[n++] = expect ("car", 9, (ClhRect) { 50, 30, 40, 40 }, width,
      height);

  what = g_strdup_printf ("%s %s%s", format, mode,
      full_frame ? "" : ", no whole frame");
  check_frame (h, bus, &info, buffer, mode, bins, full_frame, expected, n,
      what);
  g_free (what);
  gst_buffer_unref (buffer);
  clh_check_harness_teardown (h, bus);
  return TRUE;
}

GST_START_TEST (test_every_format_and_mode)
{
  const gchar *const *formats;
  guint m, run = 0, checked = 0;

  for (formats = clh_reference_formats (); *formats; formats++)
    for (m = 0; m < G_N_ELEMENTS (modes); m++)
      checked += check_format_mode (*formats, modes[m], run++ % 2 == 0);
  /* 41 formats: channels and luma everywhere, hue on the colour ones. */
  GST_INFO ("%u formats x modes checked", checked);
  fail_unless (checked >= 150, "only %u format x mode pairs ran", checked);
}
GST_END_TEST;

/* A cropped buffer: the regions are in the crop's pixels, clipped to it,
 * and count the buffer's pixels shifted by the crop's offset. */
GST_START_TEST (test_crop_meta)
{
  const ClhRect fixed[] = { {0, 0, 40, 30}, {10, 4, 8, 6}, {36, 26, 10, 10},
  {41, 0, 3, 3}
  };
  const guint cx = 4, cy = 2, cw = 40, ch = 30;
  Expected expected[1 + G_N_ELEMENTS (fixed)];
  GstHarness *h = gst_harness_new_parse ("clhistogram mode=channels bins=16");
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info, cropped;
  GstVideoCropMeta *crop;
  GstBuffer *buffer;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  gst_video_info_set_format (&cropped, GST_VIDEO_FORMAT_I420, cw, ch);
  buffer = random_frame (&info, 3);
  gst_buffer_add_video_meta (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 64, 48);
  crop = gst_buffer_add_video_crop_meta (buffer);
  crop->x = cx;
  crop->y = cy;
  crop->width = cw;
  crop->height = ch;
  set_regions (h, fixed, G_N_ELEMENTS (fixed));
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&cropped));

  expected[0] = expect ("frame", 0, (ClhRect) { 0, 0, cw, ch }, cw, ch);
  for (i = 0; i < G_N_ELEMENTS (fixed); i++)
    expected[i + 1] = expect ("region", i, fixed[i], cw, ch);
  for (i = 0; i < G_N_ELEMENTS (expected); i++)
    if (expected[i].counted.width > 0) {
      expected[i].counted.x += cx;
      expected[i].counted.y += cy;
    }
  /* Checked against the whole 64x48 buffer's pixels. */
  check_frame (h, bus, &info, buffer, "channels", 16, TRUE, expected,
      G_N_ELEMENTS (expected), "I420 cropped");
  gst_buffer_unref (buffer);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Zones 1x1 are the whole frame; 5x5 and 15x15 sum to it. */
GST_START_TEST (test_zones_tile_the_frame)
{
  const gchar *const grids[] = { "1x1", "5x5", "15x15" };
  GstVideoInfo info;
  GstBuffer *buffer;
  guint g;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 601, 479);
  buffer = random_frame (&info, 11);
  for (g = 0; g < G_N_ELEMENTS (grids); g++) {
    GstHarness *h = gst_harness_new ("clhistogram");
    GstHistogramMeta *whole;
    GstBuffer *out;
    GList *metas, *l;
    guint32 sum[256] = { 0 };
    guint64 pixels = 0;
    guint b, n_bins;

    g_object_set (h->element, "zones", grids[g], "post-messages", FALSE,
        NULL);
    gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (buffer)),
        GST_FLOW_OK);
    out = gst_harness_pull (h);
    whole = gst_buffer_get_histogram_meta_for_region (out, "frame", 0);
    metas = gst_buffer_get_histogram_metas (out);
    for (l = metas->next; l; l = l->next) {
      GstHistogramMeta *zone = l->data;
      const guint32 *counts = gst_histogram_meta_get_counts (zone, 0, &n_bins);

      fail_unless_equals_string (zone->region.type, "zone");
      for (b = 0; b < n_bins; b++)
        sum[b] += counts[b];
      pixels += zone->pixels;
    }
    fail_unless_equals_uint64 (pixels, whole->pixels);
    fail_unless (memcmp (sum, gst_histogram_meta_get_counts (whole, 0,
                &n_bins), sizeof (guint32) * n_bins) == 0, "zones %s",
        grids[g]);
    g_list_free (metas);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
  gst_buffer_unref (buffer);
}
GST_END_TEST;

/* The properties' values: regions and zones read back as set; bad values
 * are kept out with a warning that says what is valid; roi-meta=false
 * ignores ROI metas. */
GST_START_TEST (test_properties)
{
  const ClhRect rects[] = { {-5, 3, 10, 20}, {0, 0, 1, 1} };
  GstHarness *h = gst_harness_new ("clhistogram");
  GstBus *bus = clh_check_harness_bus (h->element);
  GValue value = G_VALUE_INIT;
  GstVideoInfo info;
  GstBuffer *buffer, *out;
  GstMessage *msg;
  GError *err = NULL;
  gchar *zones, *text;
  GList *metas;

  set_regions (h, rects, 2);
  g_value_init (&value, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (h->element), "regions", &value);
  text = gst_value_serialize (&value);
  fail_unless_equals_string (text, "< (array)< (int)-5, (int)3, (int)10, "
      "(int)20 >, (array)< (int)0, (int)0, (int)1, (int)1 > >");
  g_free (text);
  g_value_unset (&value);

  g_object_set (h->element, "zones", "4x3", NULL);
  g_object_get (h->element, "zones", &zones, NULL);
  fail_unless_equals_string (zones, "4x3");
  g_free (zones);
  /* A bad grid is ignored, and said so on the bus. */
  g_object_set (h->element, "zones", "0x3", NULL);
  g_object_get (h->element, "zones", &zones, NULL);
  fail_unless_equals_string (zones, "4x3");
  g_free (zones);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "zones") && strstr (err->message, "5x5"),
      "%s", err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  {
    const ClhRect negative[] = { {0, 0, -1, 4} };

    set_regions (h, negative, 1);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
    fail_unless (msg != NULL);
    gst_message_unref (msg);
  }
  g_object_set (h->element, "zones", "", "roi-meta", FALSE, NULL);

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  buffer = random_frame (&info, 1);
  add_roi (buffer, "ignored", 1, 0, 0, 4, 4);
  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_OK);
  out = gst_harness_pull (h);
  metas = gst_buffer_get_histogram_metas (out);
  /* The whole frame and the two regions; no zones, no ROI meta. */
  fail_unless_equals_int (g_list_length (metas), 3);
  fail_unless (gst_buffer_get_histogram_meta_for_region (out, "ignored",
          1) == NULL);
  g_list_free (metas);
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* More ROI metas than a frame may have: the first CLH_MAX_REGIONS are
 * counted, and a warning says the rest were not. */
GST_START_TEST (test_too_many_roi_metas)
{
  GstHarness *h = gst_harness_new_parse ("clhistogram bins=16");
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstBuffer *buffer, *out;
  GstMessage *msg;
  GList *metas;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 16);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  buffer = random_frame (&info, 2);
  for (i = 0; i < CLH_MAX_REGIONS + 5; i++)
    add_roi (buffer, "many", i, i % 32, i % 16, 3, 3);
  fail_unless_equals_int (gst_harness_push (h, buffer), GST_FLOW_OK);
  out = gst_harness_pull (h);
  metas = gst_buffer_get_histogram_metas (out);
  fail_unless_equals_int (g_list_length (metas), 1 + CLH_MAX_REGIONS);
  g_list_free (metas);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning for the ROI metas left out");
  gst_message_unref (msg);
  gst_buffer_unref (out);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* ------------------------------------------------------------------ */
/* The interval's bound */

#define BOUND_FRAMES 100000
#define BOUND_INTERVAL_FRAMES 50000
/* Resident memory is compared from a frame after the first interval's
 * message (whose 4096 regions' GValues raise the heap's high-water mark
 * by some 25 MiB) to the end: an interval that kept every region (1 KiB
 * each for luma's 256 bins, 40 MiB over those frames) cannot stay under
 * the growth allowed. */
#define BOUND_RSS_CHECK_AT 60000
/* AddressSanitizer keeps freed memory in quarantine (256 MiB), so resident
 * memory grows there whatever the code does: the messages' exact regions
 * and its leak check judge instead. */
#ifdef __SANITIZE_ADDRESS__
#define BOUND_RSS_GROWTH G_MAXSIZE
#else
#define BOUND_RSS_GROWTH (4 << 20)
#endif

static gsize
resident_bytes (void)
{
  gchar *text = NULL;
  guint64 pages = 0;

  if (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL))
    sscanf (text, "%*u %" G_GUINT64_FORMAT, &pages);
  g_free (text);
  return (gsize) pages * (gsize) sysconf (_SC_PAGESIZE);
}

/* Frame @k of 16x16 GRAY8 (1 ms each) with a ROI meta of id @k. */
static GstBuffer *
changing_id_frame (guint k)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, 16 * 16, NULL);

  gst_buffer_memset (buffer, 0, (guint8) k, 16 * 16);
  add_roi (buffer, "blob", (gint) k, k % 12, (k / 12) % 12, 4, 4);
  GST_BUFFER_PTS (buffer) = k * GST_MSECOND;
  GST_BUFFER_DURATION (buffer) = GST_MSECOND;
  return buffer;
}

/* An interval's message: its frames and regions, each region of type
 * blob with the ids from @first_id on in order, and 16 pixels (one
 * frame's 4x4). */
static void
check_bounded_message (GstMessage *msg, guint first_id)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const GValue *regions = gst_structure_get_value (s, "regions");
  guint frames = 0, i;

  fail_unless (gst_structure_has_name (s, "histogram"));
  fail_unless (gst_structure_get_uint (s, "frames", &frames));
  fail_unless_equals_int (frames, BOUND_INTERVAL_FRAMES);
  fail_unless (regions != NULL && GST_VALUE_HOLDS_ARRAY (regions));
  fail_unless_equals_int (gst_value_array_get_size (regions),
      CLH_MAX_REGIONS);
  for (i = 0; i < CLH_MAX_REGIONS; i++) {
    const GstStructure *r = gst_value_get_structure
        (gst_value_array_get_value (regions, i));
    guint64 pixels = 0;
    gint id = -1;

    fail_unless_equals_string (gst_structure_get_string (r, "type"), "blob");
    fail_unless (gst_structure_get_int (r, "id", &id));
    fail_unless_equals_int (id, first_id + i);
    fail_unless (gst_structure_get_uint64 (r, "pixels", &pixels));
    fail_unless_equals_uint64 (pixels, 16);
  }
}

/* 100,000 frames, each with a ROI meta of a new id, in two intervals of
 * 50,000: each interval's message holds the first 4096 regions it met
 * (a frame's limit) and no more, one warning per interval says the rest
 * are left out, and resident memory stays flat from frame 60,000 (past
 * the bound of the second interval) to the end. Before the bound an interval kept every region:
 * memory and each frame's search grew with the frames. */
GST_START_TEST (test_interval_bound)
{
  GstHarness *h = gst_harness_new_parse ("clhistogram attach-meta=false "
      "interval=50000000000");
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstMessage *msg;
  gsize rss_at_check = 0, rss_end;
  guint k, warnings = 0;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  for (k = 0; k < BOUND_FRAMES; k++) {
    GstBuffer *out = gst_harness_push_and_pull (h, changing_id_frame (k));

    fail_unless (out != NULL, "frame %u did not come out", k);
    gst_buffer_unref (out);
    if (k == BOUND_INTERVAL_FRAMES) {
      msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
      fail_unless (msg != NULL, "no message at frame %u", k);
      check_bounded_message (msg, 0);
      gst_message_unref (msg);
    }
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING))) {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      fail_unless (strstr (err->message, "4096 regions") != NULL, "%s",
          err->message);
      fail_unless (k == CLH_MAX_REGIONS
          || k == BOUND_INTERVAL_FRAMES + CLH_MAX_REGIONS,
          "a warning at frame %u: %s", k, err->message);
      g_error_free (err);
      gst_message_unref (msg);
      warnings++;
    }
    if (k == BOUND_RSS_CHECK_AT)
      rss_at_check = resident_bytes ();
  }
  rss_end = resident_bytes ();
  GST_INFO ("resident memory at frame %u: %" G_GSIZE_FORMAT " bytes, at "
      "the end: %" G_GSIZE_FORMAT, BOUND_RSS_CHECK_AT, rss_at_check, rss_end);
  fail_unless (rss_at_check > 0, "no resident memory in /proc/self/statm");
  fail_unless (rss_end - MIN (rss_end, rss_at_check) < BOUND_RSS_GROWTH,
      "resident memory grew from %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT
      " bytes", rss_at_check, rss_end);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no message at EOS");
  check_bounded_message (msg, BOUND_INTERVAL_FRAMES);
  gst_message_unref (msg);
  fail_unless_equals_int (warnings, 2);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

static GstPadProbeReturn
add_rois (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  GstBuffer *buffer = gst_pad_probe_info_get_buffer (info);

  buffer = gst_buffer_make_writable (buffer);
  add_roi (buffer, "face", 1, 10, 12, 30, 20);
  add_roi (buffer, "face", 2, 70, 50, 40, 40);
  GST_PAD_PROBE_INFO_DATA (info) = buffer;
  return GST_PAD_PROBE_OK;
}

/* A real pipeline: ROI metas added in a pad probe upstream of the element,
 * as a detector would, are each counted. */
GST_START_TEST (test_roi_metas_from_probe)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 "
      "pattern=ball ! video/x-raw,format=NV12,width=96,height=72 ! "
      "identity name=detector ! clhistogram mode=channels bins=32 ! "
      "appsink name=sink sync=false", NULL);
  GstElement *detector = gst_bin_get_by_name (GST_BIN (pipeline), "detector");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (detector, "src");
  GstVideoInfo info;
  GstSample *sample;
  guint frames = 0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, add_rois, NULL, NULL);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 96, 72);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while ((sample = gst_app_sink_pull_sample (GST_APP_SINK (sink)))) {
    GstBuffer *buffer = gst_sample_get_buffer (sample);
    const Expected faces[] = {
      expect ("face", 1, (ClhRect) { 10, 12, 30, 20 }, 96, 72),
      expect ("face", 2, (ClhRect) { 70, 50, 40, 40 }, 96, 72),
    };
    guint i;

    for (i = 0; i < G_N_ELEMENTS (faces); i++)
      check_histogram (&info, buffer, "channels", 32, &faces[i],
          gst_buffer_get_histogram_meta_for_region (buffer, "face",
              faces[i].id), NULL, "NV12 from a probe");
    gst_sample_unref (sample);
    frames++;
  }
  fail_unless_equals_int (frames, 3);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (detector);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
}
GST_END_TEST;

static Suite *
clhistogram_regions_suite (void)
{
  Suite *s = suite_create ("clhistogram-regions");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format_and_mode);
  tcase_add_test (tc, test_crop_meta);
  tcase_add_test (tc, test_zones_tile_the_frame);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_too_many_roi_metas);
  tcase_add_test (tc, test_roi_metas_from_probe);
  tcase_add_test (tc, test_interval_bound);
  return s;
}

CLH_CHECK_MAIN (clhistogram_regions);
