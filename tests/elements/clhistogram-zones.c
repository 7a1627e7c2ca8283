/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram's zones named by their place: each zone entry of the
 * `histogram` message carries its row, column and position beside its id
 * (5x5, 3x2, 3x3, 1x1 and an interval's message), fixed regions and ROI
 * metas none of them; the names of every grid up to 8x8 and of the
 * largest ones are distinct within their grid. */
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "clh-check-util.h"
#include "clh-frame.h"

/* One zone's place as the message must give it: written out here, not
 * computed as the element does. */
typedef struct {
  gint id;
  guint row;
  guint column;
  const gchar *position;
} Place;

static GstBuffer *
grey_frame (const GstVideoInfo *info, GstClockTime pts)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);

  gst_buffer_memset (buffer, 0, 100, GST_VIDEO_INFO_SIZE (info));
  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = GST_SECOND / 10;
  return buffer;
}

/* The next `histogram` message of @bus; fails the test if there is
 * none. */
static GstMessage *
pop_histogram (GstBus *bus)
{
  GstMessage *msg = clh_check_pop_element_message (bus, "histogram");

  fail_unless (msg != NULL, "no histogram message");
  return msg;
}

static const GstStructure *
region_at (const GstStructure *s, guint i)
{
  const GValue *regions = gst_structure_get_value (s, "regions");

  fail_unless (regions && i < gst_value_array_get_size (regions));
  return gst_value_get_structure (gst_value_array_get_value (regions, i));
}

/* The zone entries of @s, the first @n regions: each zone's row and
 * column follow from its id (`j * cols + i`), in the message's order, and
 * those of @places have their positions. */
static void
check_zones (const GstStructure *s, guint cols, guint rows,
    const Place *places, guint n_places)
{
  guint z, p;

  for (z = 0; z < cols * rows; z++) {
    const GstStructure *zone = region_at (s, z);
    guint row = G_MAXUINT, column = G_MAXUINT;
    gint id = -1;

    fail_unless_equals_string (gst_structure_get_string (zone, "type"),
        "zone");
    fail_unless (gst_structure_get (zone, "id", G_TYPE_INT, &id, "row",
            G_TYPE_UINT, &row, "column", G_TYPE_UINT, &column, NULL),
        "zone %u of %ux%u has no id, row or column", z, cols, rows);
    fail_unless_equals_int (id, z);
    fail_unless_equals_int (row, z / cols);
    fail_unless_equals_int (column, z % cols);
    fail_unless (gst_structure_get_string (zone, "position") != NULL);
  }
  for (p = 0; p < n_places; p++) {
    const GstStructure *zone = region_at (s, places[p].id);
    guint row, column;

    fail_unless (gst_structure_get (zone, "row", G_TYPE_UINT, &row,
            "column", G_TYPE_UINT, &column, NULL));
    fail_unless_equals_int (row, places[p].row);
    fail_unless_equals_int (column, places[p].column);
    fail_unless_equals_string (gst_structure_get_string (zone, "position"),
        places[p].position);
  }
}

/* One frame of 40x30 GRAY8 through `clhistogram zones=@grid`; the
 * message's zones checked against @places. */
static void
check_grid (const gchar *grid, guint cols, guint rows, const Place *places,
    guint n_places)
{
  GstHarness *h = gst_harness_new ("clhistogram");
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstMessage *msg;
  const GstStructure *s;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 40, 30);
  g_object_set (h->element, "zones", grid, "message-counts", FALSE, NULL);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  gst_buffer_unref (gst_harness_push_and_pull (h, grey_frame (&info, 0)));
  msg = pop_histogram (bus);
  s = gst_message_get_structure (msg);
  fail_unless_equals_int (gst_value_array_get_size (gst_structure_get_value
          (s, "regions")), cols * rows);
  check_zones (s, cols, rows, places, n_places);
  gst_message_unref (msg);
  clh_check_harness_teardown (h, bus);
}

/* 5x5: numbered places, "r<row>c<column>", the corners and the centre. */
GST_START_TEST (test_grid_5x5)
{
  const Place places[] = {
    {0, 0, 0, "r0c0"}, {4, 0, 4, "r0c4"}, {12, 2, 2, "r2c2"},
    {14, 2, 4, "r2c4"}, {20, 4, 0, "r4c0"}, {24, 4, 4, "r4c4"},
  };

  check_grid ("5x5", 5, 5, places, G_N_ELEMENTS (places));
}
GST_END_TEST;

/* 3x2 (3 columns, 2 rows): words, the middle column by its row alone. */
GST_START_TEST (test_grid_3x2)
{
  const Place places[] = {
    {0, 0, 0, "top-left"}, {1, 0, 1, "top"}, {2, 0, 2, "top-right"},
    {3, 1, 0, "bottom-left"}, {4, 1, 1, "bottom"}, {5, 1, 2, "bottom-right"},
  };

  check_grid ("3x2", 3, 2, places, G_N_ELEMENTS (places));
}
GST_END_TEST;

/* 3x3 and 1x1: every word, "centre" where neither row nor column has one;
 * 2x3 (2 columns, 3 rows): the middle row by its column alone. */
GST_START_TEST (test_grid_words)
{
  const Place nine[] = {
    {0, 0, 0, "top-left"}, {1, 0, 1, "top"}, {2, 0, 2, "top-right"},
    {3, 1, 0, "left"}, {4, 1, 1, "centre"}, {5, 1, 2, "right"},
    {6, 2, 0, "bottom-left"}, {7, 2, 1, "bottom"}, {8, 2, 2, "bottom-right"},
  };
  const Place one[] = { {0, 0, 0, "centre"} };
  const Place tall[] = {
    {0, 0, 0, "top-left"}, {1, 0, 1, "top-right"}, {2, 1, 0, "left"},
    {3, 1, 1, "right"}, {4, 2, 0, "bottom-left"}, {5, 2, 1, "bottom-right"},
  };

  check_grid ("3x3", 3, 3, nine, G_N_ELEMENTS (nine));
  check_grid ("1x1", 1, 1, one, G_N_ELEMENTS (one));
  check_grid ("2x3", 2, 3, tall, G_N_ELEMENTS (tall));
}
GST_END_TEST;

/* Fixed regions and ROI metas are in no grid: no row, column or
 * position, while the zones before them have theirs. */
GST_START_TEST (test_other_regions_unplaced)
{
  const Place places[] = { {0, 0, 0, "left"}, {1, 0, 1, "right"} };
  GstHarness *h = gst_harness_new_parse ("clhistogram zones=2x1 "
      "message-counts=false regions=\"<<0,0,4,4>>\"");
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoRegionOfInterestMeta *roi;
  GstVideoInfo info;
  GstBuffer *buffer;
  GstMessage *msg;
  const GstStructure *s;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 40, 30);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  buffer = grey_frame (&info, 0);
  roi = gst_buffer_add_video_region_of_interest_meta (buffer, "face", 2, 2,
      8, 8);
  roi->id = 0;
  gst_buffer_unref (gst_harness_push_and_pull (h, buffer));
  msg = pop_histogram (bus);
  s = gst_message_get_structure (msg);
  fail_unless_equals_int (gst_value_array_get_size (gst_structure_get_value
          (s, "regions")), 4);
  check_zones (s, 2, 1, places, G_N_ELEMENTS (places));
  for (i = 2; i < 4; i++) {
    const GstStructure *region = region_at (s, i);

    fail_unless_equals_string (gst_structure_get_string (region, "type"),
        i == 2 ? "region" : "face");
    fail_if (gst_structure_has_field (region, "row"));
    fail_if (gst_structure_has_field (region, "column"));
    fail_if (gst_structure_has_field (region, "position"));
  }
  gst_message_unref (msg);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* An interval's message names its zones as a frame's does. */
GST_START_TEST (test_interval_places)
{
  const Place places[] = {
    {0, 0, 0, "top-left"}, {4, 1, 1, "bottom"}, {5, 1, 2, "bottom-right"},
  };
  GstHarness *h = gst_harness_new_parse ("clhistogram zones=3x2 "
      "message-counts=false interval=300000000");
  GstBus *bus = clh_check_harness_bus (h->element);
  GstVideoInfo info;
  GstMessage *msg;
  const GstStructure *s;
  guint frames = 0, i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 40, 30);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  for (i = 0; i < 4; i++)
    gst_buffer_unref (gst_harness_push_and_pull (h, grey_frame (&info,
                i * GST_SECOND / 10)));
  msg = pop_histogram (bus);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_get_uint (s, "frames", &frames));
  fail_unless_equals_int (frames, 3);
  check_zones (s, 3, 2, places, G_N_ELEMENTS (places));
  gst_message_unref (msg);
  clh_check_harness_teardown (h, bus);
}
GST_END_TEST;

/* Within each grid, each zone's name is its own: every grid up to 8x8,
 * and the strips and square of 64. */
GST_START_TEST (test_names_distinct)
{
  const guint large[][2] = { {64, 64}, {64, 1}, {1, 64}, {4, 3}, {3, 4} };
  guint g, n = 0;

  for (g = 0; g < 8 * 8 + G_N_ELEMENTS (large); g++) {
    const guint cols = g < 64 ? g % 8 + 1 : large[g - 64][0];
    const guint rows = g < 64 ? g / 8 + 1 : large[g - 64][1];
    GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal,
        g_free, NULL);
    guint i, j;

    for (j = 0; j < rows; j++)
      for (i = 0; i < cols; i++) {
        gchar name[CLH_ZONE_POSITION_SIZE];

        clh_zone_position (cols, rows, i, j, name, sizeof name);
        fail_unless (name[0] != '\0' && strlen (name) < sizeof name - 1);
        fail_unless (g_hash_table_add (seen, g_strdup (name)),
            "%ux%u: zone (%u, %u) is %s, as another is", cols, rows, i, j,
            name);
        n++;
      }
    g_hash_table_unref (seen);
  }
  fail_unless (n > 4096);
}
GST_END_TEST;

static Suite *
clhistogram_zones_suite (void)
{
  Suite *s = suite_create ("clhistogram-zones");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_grid_5x5);
  tcase_add_test (tc, test_grid_3x2);
  tcase_add_test (tc, test_grid_words);
  tcase_add_test (tc, test_other_regions_unplaced);
  tcase_add_test (tc, test_interval_places);
  tcase_add_test (tc, test_names_distinct);
  return s;
}

CLH_CHECK_MAIN (clhistogram_zones);
