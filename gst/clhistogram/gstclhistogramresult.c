/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `histogram` message (fields as the element's documentation lists
 * them) and the GstHistogramMeta of a counted frame. */
#include "gstclhistogramresult.h"

static void
append_value (GValue *array, GType type, gconstpointer v)
{
  GValue value = G_VALUE_INIT;

  g_value_init (&value, type);
  if (type == G_TYPE_STRING)
    g_value_set_static_string (&value, v);
  else if (type == G_TYPE_UINT)
    g_value_set_uint (&value, *(const guint *) v);
  else
    g_value_set_uint64 (&value, *(const guint64 *) v);
  gst_value_array_append_and_take_value (array, &value);
}

static void
take_array (GstStructure *s, const gchar *field, GType type,
    gconstpointer values, gsize elem_size, guint n)
{
  GValue array = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++)
    append_value (&array, type, type == G_TYPE_STRING ?
        ((const gchar * const *) values)[i] :
        (gconstpointer) ((const guint8 *) values + i * elem_size));
  gst_structure_take_value (s, field, &array);
}

static const gchar *
video_range_name (GstVideoColorRange range)
{
  switch (range) {
    case GST_VIDEO_COLOR_RANGE_0_255:
      return "full";
    case GST_VIDEO_COLOR_RANGE_16_235:
      return "limited";
    default:
      return "unknown";
  }
}

/* The histogram's shape: bins along each dimension. */
static guint
spec_shape (const ClhHistogramSpec *spec, guint shape[3])
{
  const guint n_dims = spec->count == CLH_COUNT_RGB ? 3 :
      spec->count == CLH_COUNT_HUE_SATURATION ? 2 : 1;
  guint d;

  for (d = 0; d < 3; d++)
    shape[d] = d < n_dims ? spec->bins : 0;
  return n_dims;
}

/* The binned range of the first axis. */
static void
spec_range (const ClhHistogramSpec *spec, guint *min, guint *max)
{
  *min = spec->range_min;
  *max = spec->range_max;
  if (spec->count == CLH_COUNT_HUE || spec->count == CLH_COUNT_HUE_SATURATION)
    *min = 0, *max = 179;
  else if (spec->count == CLH_COUNT_RGB)
    *min = 0, *max = 255;
}

/* The `histogram` element message of @buffer's frame, counted as
 * @request says into @histogram, from @src. */
GstMessage *
gst_cl_histogram_message_new (GstObject *src, GstBuffer *buffer,
    const GstClHistogramRequest *request, GstClockTime running_time,
    GstClockTime stream_time, const ClhHistogram *histogram)
{
  const ClhHistogramSpec *spec = &request->spec;
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  const guint n_bins = clh_histogram_spec_n_bins (spec);
  GValue counts = G_VALUE_INIT;
  guint shape[3], n_dims = spec_shape (spec, shape), range_min, range_max;
  GstStructure *s;
  guint c, b;

  spec_range (spec, &range_min, &range_max);

  s = gst_structure_new ("histogram",
      "timestamp", G_TYPE_UINT64, GST_BUFFER_PTS (buffer),
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer),
      "mode", G_TYPE_STRING,
      gst_histogram_mode_get_nick (request->settings.mode),
      "bins", G_TYPE_UINT, n_bins, NULL);
  take_array (s, "channels", G_TYPE_STRING, request->channel_names, 0,
      n_channels);

  g_value_init (&counts, GST_TYPE_ARRAY);
  for (c = 0; c < n_channels; c++) {
    GValue channel = G_VALUE_INIT;

    g_value_init (&channel, GST_TYPE_ARRAY);
    for (b = 0; b < n_bins; b++)
      append_value (&channel, G_TYPE_UINT, &histogram->counts[c * n_bins + b]);
    gst_value_array_append_and_take_value (&counts, &channel);
  }
  gst_structure_take_value (s, "counts", &counts);

  gst_structure_set (s, "pixels", G_TYPE_UINT64,
      (guint64) request->width * request->height, NULL);
  take_array (s, "samples", G_TYPE_UINT64, histogram->samples, sizeof (guint64),
      n_channels);
  take_array (s, "below", G_TYPE_UINT64, histogram->below, sizeof (guint64),
      n_channels);
  take_array (s, "above", G_TYPE_UINT64, histogram->above, sizeof (guint64),
      n_channels);
  take_array (s, "shape", G_TYPE_UINT, shape, sizeof (guint), n_dims);
  gst_structure_set (s,
      "depth", G_TYPE_UINT, request->depth,
      "video-range", G_TYPE_STRING, video_range_name (request->video_range),
      "range-min", G_TYPE_UINT, range_min,
      "range-max", G_TYPE_UINT, range_max, NULL);

  return gst_message_new_element (src, s);
}

/* Attaches @request's GstHistogramMeta of @histogram to @buffer, which is
 * writable. */
void
gst_cl_histogram_attach_meta (GstBuffer *buffer,
    const GstClHistogramRequest *request, const ClhHistogram *histogram)
{
  const ClhHistogramSpec *spec = &request->spec;
  guint shape[3], n_dims = spec_shape (spec, shape), range_min, range_max;

  spec_range (spec, &range_min, &range_max);
  gst_buffer_add_histogram_meta_full (buffer, request->settings.mode,
      clh_histogram_spec_n_channels (spec), request->channel_names,
      clh_histogram_spec_n_bins (spec), histogram->counts,
      histogram->samples, histogram->below, histogram->above, "frame", 0,
      0, 0, request->width, request->height, request->depth,
      request->video_range, range_min, range_max, n_dims, shape);
}
