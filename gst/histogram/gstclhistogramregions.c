/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rectangles of a frame's histograms besides the whole frame's, in the
 * message's order: zones, fixed regions, ROI metas (in the buffer's meta
 * order), then analytics boxes (in their relation meta's order). Property
 * values, ROI metas and boxes are input from outside: bounded, and
 * reported in words when they cannot be used. */
#include "gstclhistogramregions.h"
#include "base/gstclbaserect.h"
#ifdef HAVE_GST_ANALYTICS
#include "base/gstclbaseanalytics.h"
#endif

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

/* The `regions` property's value, `<<x, y, width, height>, ...>`, as a new
 * array of ClhRect; NULL with @error saying which entry is wrong. */
GArray *
gst_cl_histogram_rects_from_value (const GValue *value, GError **error)
{
  const guint n = value && GST_VALUE_HOLDS_ARRAY (value) ?
      gst_value_array_get_size (value) : 0;
  GArray *rects;
  guint i;

  if (value && !GST_VALUE_HOLDS_ARRAY (value)) {
    g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
        "regions must be an array of <x, y, width, height> arrays");
    return NULL;
  }
  if (n > CLH_MAX_REGIONS) {
    g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
        "%u regions given; at most %u", n, CLH_MAX_REGIONS);
    return NULL;
  }
  rects = g_array_sized_new (FALSE, FALSE, sizeof (ClhRect), n);
  for (i = 0; i < n; i++) {
    ClhRect rect;

    if (!gst_cl_rect_from_value (gst_value_array_get_value (value, i), &rect)) {
      gchar *text = gst_value_serialize (gst_value_array_get_value (value, i));

      g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
          "region %u is %s, not <x, y, width, height> (four integers, width "
          "and height >= 0)", i, text ? text : "(unprintable)");
      g_free (text);
      g_array_unref (rects);
      return NULL;
    }
    g_array_append_val (rects, rect);
  }
  return rects;
}

/* @rects (ClhRect; NULL: none) as the `regions` property's value into
 * @value, initialized to GST_TYPE_ARRAY. */
void
gst_cl_histogram_rects_to_value (const GArray *rects, GValue *value)
{
  guint i;

  for (i = 0; rects && i < rects->len; i++) {
    GValue rect = G_VALUE_INIT;

    g_value_init (&rect, GST_TYPE_ARRAY);
    gst_cl_rect_to_value (&g_array_index (rects, ClhRect, i), &rect);
    gst_value_array_append_and_take_value (value, &rect);
  }
}

/* One decimal count of 1..GST_CL_HISTOGRAM_MAX_ZONES at @text, or 0. */
static guint
parse_count (const gchar *text, const gchar **end)
{
  gchar *stop = NULL;
  guint64 v;

  if (!g_ascii_isdigit (*text))
    return 0;
  v = g_ascii_strtoull (text, &stop, 10);
  *end = stop;
  return v >= 1 && v <= GST_CL_HISTOGRAM_MAX_ZONES ? (guint) v : 0;
}

/* The `zones` property, "CxR" (or "" and NULL: none, 0 x 0); FALSE with
 * @error saying what is valid. */
gboolean
gst_cl_histogram_parse_zones (const gchar *text, guint *cols, guint *rows,
    GError **error)
{
  const gchar *p = text;

  *cols = *rows = 0;
  if (!text || !*text)
    return TRUE;
  *cols = parse_count (p, &p);
  if (*cols && (*p == 'x' || *p == 'X'))
    *rows = parse_count (p + 1, &p);
  if (*cols && *rows && *p == '\0')
    return TRUE;
  *cols = *rows = 0;
  g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
      "zones=\"%s\" is not a grid: give columns x rows, each 1..%u (e.g. "
      "\"5x5\"), or \"\" for none", text, GST_CL_HISTOGRAM_MAX_ZONES);
  return FALSE;
}

/* Says once per zone or fixed region (@index, zones first) that it lies
 * outside the frame. */
static void
report_outside (GstElement *element, GstClRegionReports *reports,
    const GstClHistogramRegion *region, guint index, guint width,
    guint height)
{
  gboolean first = FALSE;

  GST_OBJECT_LOCK (element);
  if (reports->outside_reported) {
    const guint len = reports->outside_reported->len;

    /* g_byte_array_set_size() leaves the new bytes as they were in
     * memory: unless cleared, most read as already reported. */
    if (len <= index) {
      g_byte_array_set_size (reports->outside_reported, index + 1);
      memset (reports->outside_reported->data + len, 0, index + 1 - len);
    }
    first = !reports->outside_reported->data[index];
    reports->outside_reported->data[index] = 1;
  }
  GST_OBJECT_UNLOCK (element);
  if (first)
    GST_WARNING_OBJECT (element, "%s %d lies outside the %ux%u frame: its "
        "histogram counts no pixels", region->type, region->id, width,
        height);
}

/* Appends @region, its rectangle clipped to the frame, unless the frame
 * has its most regions already. */
static gboolean
add_region (GstElement *element, GstClRegionReports *reports, GArray *regions,
    GstClHistogramRegion *region, gint index, guint width, guint height,
    guint max_regions)
{
  gboolean first = FALSE;

  if (regions->len >= max_regions) {
    GST_OBJECT_LOCK (element);
    first = !reports->too_many_reported;
    reports->too_many_reported = TRUE;
    GST_OBJECT_UNLOCK (element);
    if (first)
      GST_ELEMENT_WARNING (element, STREAM, FAILED,
          ("A frame has more than %u regions (zones, regions, ROI metas and "
              "analytics boxes); only the first %u are counted.",
              max_regions, max_regions),
          ("%s %d and the ones after it are left out", region->type,
              region->id));
    return FALSE;
  }
  clh_rect_clip (&region->rect, width, height);
  if (index >= 0 && region->rect.width == 0)
    report_outside (element, reports, region, index, width, height);
  g_array_append_val (regions, *region);
  return TRUE;
}

/* A ROI meta's rectangle as a region (its guint fields bounded to gint, so
 * that a hostile meta only moves it further outside). */
static void
roi_region (const GstVideoRegionOfInterestMeta *roi,
    GstClHistogramRegion *region)
{
  const gchar *type = g_quark_to_string (roi->roi_type);

  region->type = type ? type : "";
  region->id = roi->id;
  region->rect.x = (gint) MIN (roi->x, (guint) G_MAXINT);
  region->rect.y = (gint) MIN (roi->y, (guint) G_MAXINT);
  region->rect.width = (gint) MIN (roi->w, (guint) G_MAXINT);
  region->rect.height = (gint) MIN (roi->h, (guint) G_MAXINT);
}

#ifdef HAVE_GST_ANALYTICS
/* Appends a region per GstAnalyticsODMtd box of @buffer: type its label,
 * id the tracking id of the track it relates to or else its mtd id
 * (gst_cl_analytics_boxes()), bounded to gint as ROI metas' are. */
static void
add_analytics_regions (GstElement *element, GstClRegionReports *reports,
    GArray *regions, GstBuffer *buffer, guint width, guint height,
    guint max_regions)
{
  GArray *boxes = gst_cl_analytics_boxes (buffer, 0);
  guint i;

  for (i = 0; i < boxes->len; i++) {
    const GstClAnalyticsBox *b = &g_array_index (boxes, GstClAnalyticsBox, i);
    const gchar *label = g_quark_to_string (b->label);
    GstClHistogramRegion region = { label ? label : "",
      (gint) MIN (b->id, (guint64) G_MAXINT), b->rect, 0, 0, ""
    };

    if (!add_region (element, reports, regions, &region, -1, width, height,
            max_regions))
      break;
  }
  g_array_unref (boxes);
}
#endif

/* The histograms of @buffer's frame of @width x @height (the counted frame,
 * after any crop) besides the whole frame's, at most @max_regions: the
 * @zone_cols x @zone_rows zones, the @fixed rectangles (ClhRect; NULL:
 * none) and, if @roi_meta, each GstVideoRegionOfInterestMeta then (built
 * with GStreamer's analytics library) each GstAnalyticsODMtd box. A new
 * array of GstClHistogramRegion. */
GArray *
gst_cl_histogram_frame_regions (GstElement *element,
    GstClRegionReports *reports, guint zone_cols, guint zone_rows,
    const GArray *fixed, gboolean roi_meta, GstBuffer *buffer, guint width,
    guint height, guint max_regions)
{
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (GstClHistogramRegion));
  GstClHistogramRegion region = { NULL };
  guint i, j, index = 0;

  for (j = 0; j < zone_rows; j++)
    for (i = 0; i < zone_cols; i++, index++) {
      region.type = "zone";
      region.id = (gint) (j * zone_cols + i);
      region.row = j;
      region.column = i;
      clh_zone_position (zone_cols, zone_rows, i, j, region.position,
          sizeof region.position);
      clh_zone_rect (width, height, zone_cols, zone_rows, i, j, &region.rect);
      if (!add_region (element, reports, regions, &region, index, width,
              height, max_regions))
        return regions;
    }
  region.row = region.column = 0;
  region.position[0] = '\0';
  for (i = 0; fixed && i < fixed->len; i++, index++) {
    region.type = "region";
    region.id = (gint) i;
    region.rect = g_array_index (fixed, ClhRect, i);
    if (!add_region (element, reports, regions, &region, index, width,
            height, max_regions))
      return regions;
  }
  if (roi_meta) {
    gpointer state = NULL;
    GstMeta *meta;

    while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
      roi_region ((GstVideoRegionOfInterestMeta *) meta, &region);
      if (!add_region (element, reports, regions, &region, -1, width,
              height, max_regions))
        return regions;
    }
#ifdef HAVE_GST_ANALYTICS
    add_analytics_regions (element, reports, regions, buffer, width, height,
        max_regions);
#endif
  }
  return regions;
}
