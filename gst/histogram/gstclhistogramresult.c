/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `histogram` message (fields as the element's documentation lists
 * them) and the GstHistogramMeta of a counted frame. */
#include "gstclhistogramresult.h"

#include <string.h>

/* The message's names as quarks, looked up once: g_quark_from_string()
 * takes GLib's one process-wide quark lock, and a message of a few dozen
 * fields named by strings took it a few dozen times a frame, which with
 * 64 streams kept their posting threads waiting on each other (measured:
 * docs/performance.md, "Messages at many streams"). */
typedef struct {
  GQuark histogram;
  GQuark timestamp;
  GQuark stream_time;
  GQuark running_time;
  GQuark duration;
  GQuark mode;
  GQuark bins;
  GQuark frames;
  GQuark channels;
  GQuark pixels;
  GQuark shape;
  GQuark depth;
  GQuark video_range;
  GQuark range_min;
  GQuark range_max;
  GQuark percentile_points;
  GQuark metering;
  GQuark metering_percent;
  GQuark regions;
  GQuark region;
  GQuark type;
  GQuark id;
  GQuark row;
  GQuark column;
  GQuark position;
  GQuark x;
  GQuark y;
  GQuark width;
  GQuark height;
  GQuark counts;
  GQuark samples;
  GQuark below;
  GQuark above;
  GQuark min;
  GQuark max;
  GQuark mean;
  GQuark percentiles;
  GQuark clipped_low;
  GQuark clipped_high;
  GQuark clip_low_level;
  GQuark clip_high_level;
  GQuark below_legal;
  GQuark above_legal;
} Fields;

static const Fields *
fields (void)
{
  static Fields f;
  static gsize done;

  if (g_once_init_enter (&done)) {
    f.histogram = g_quark_from_static_string ("histogram");
    f.timestamp = g_quark_from_static_string ("timestamp");
    f.stream_time = g_quark_from_static_string ("stream-time");
    f.running_time = g_quark_from_static_string ("running-time");
    f.duration = g_quark_from_static_string ("duration");
    f.mode = g_quark_from_static_string ("mode");
    f.bins = g_quark_from_static_string ("bins");
    f.frames = g_quark_from_static_string ("frames");
    f.channels = g_quark_from_static_string ("channels");
    f.pixels = g_quark_from_static_string ("pixels");
    f.shape = g_quark_from_static_string ("shape");
    f.depth = g_quark_from_static_string ("depth");
    f.video_range = g_quark_from_static_string ("video-range");
    f.range_min = g_quark_from_static_string ("range-min");
    f.range_max = g_quark_from_static_string ("range-max");
    f.percentile_points = g_quark_from_static_string ("percentile-points");
    f.metering = g_quark_from_static_string ("metering");
    f.metering_percent = g_quark_from_static_string ("metering-percent");
    f.regions = g_quark_from_static_string ("regions");
    f.region = g_quark_from_static_string ("region");
    f.type = g_quark_from_static_string ("type");
    f.id = g_quark_from_static_string ("id");
    f.row = g_quark_from_static_string ("row");
    f.column = g_quark_from_static_string ("column");
    f.position = g_quark_from_static_string ("position");
    f.x = g_quark_from_static_string ("x");
    f.y = g_quark_from_static_string ("y");
    f.width = g_quark_from_static_string ("width");
    f.height = g_quark_from_static_string ("height");
    f.counts = g_quark_from_static_string ("counts");
    f.samples = g_quark_from_static_string ("samples");
    f.below = g_quark_from_static_string ("below");
    f.above = g_quark_from_static_string ("above");
    f.min = g_quark_from_static_string ("min");
    f.max = g_quark_from_static_string ("max");
    f.mean = g_quark_from_static_string ("mean");
    f.percentiles = g_quark_from_static_string ("percentiles");
    f.clipped_low = g_quark_from_static_string ("clipped-low");
    f.clipped_high = g_quark_from_static_string ("clipped-high");
    f.clip_low_level = g_quark_from_static_string ("clip-low-level");
    f.clip_high_level = g_quark_from_static_string ("clip-high-level");
    f.below_legal = g_quark_from_static_string ("below-legal");
    f.above_legal = g_quark_from_static_string ("above-legal");
    g_once_init_leave (&done, 1);
  }
  return &f;
}

static void
append_value (GValue *array, GType type, gconstpointer v)
{
  GValue value = G_VALUE_INIT;

  g_value_init (&value, type);
  if (type == G_TYPE_STRING)
    g_value_set_static_string (&value, v);
  else if (type == G_TYPE_UINT)
    g_value_set_uint (&value, *(const guint *) v);
  else if (type == G_TYPE_DOUBLE)
    g_value_set_double (&value, *(const gdouble *) v);
  else
    g_value_set_uint64 (&value, *(const guint64 *) v);
  gst_value_array_append_and_take_value (array, &value);
}

/* One channel's bins as an array of guint. A GValue of a fundamental type
 * holds no pointer, so a copy of one initialised once stands for a
 * g_value_init() per bin, of which a 4 x 256-bin message would make 1024
 * every frame. */
static void
init_bins_array (GValue *array, const guint32 *counts, guint n_bins)
{
  GValue bin = G_VALUE_INIT;
  guint b;

  g_value_init (array, GST_TYPE_ARRAY);
  g_value_init (&bin, G_TYPE_UINT);
  for (b = 0; b < n_bins; b++) {
    GValue value = bin;

    g_value_set_uint (&value, counts[b]);
    gst_value_array_append_and_take_value (array, &value);
  }
}

static void
take_array (GstStructure *s, GQuark field, GType type,
    gconstpointer values, gsize elem_size, guint n)
{
  GValue array = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++)
    append_value (&array, type, type == G_TYPE_STRING ?
        ((const gchar * const *) values)[i] :
        (gconstpointer) ((const guint8 *) values + i * elem_size));
  gst_structure_id_take_value (s, field, &array);
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

/* A statistic of every channel, one field. */
#define TAKE_STAT(s, field, gtype, ctype, stats, member, n) \
  G_STMT_START { \
    ctype values_[CLH_MAX_CHANNELS]; \
    guint c_; \
    for (c_ = 0; c_ < (n); c_++) \
      values_[c_] = (stats)[c_].member; \
    take_array ((s), (field), (gtype), values_, sizeof (ctype), (n)); \
  } G_STMT_END

/* The statistics fields of one histogram's channels. */
static void
set_statistics_fields (GstStructure *s, const GstClHistogramRequest *request,
    const ClhStats *stats)
{
  const guint n = clh_histogram_spec_n_channels (&request->spec);
  const guint n_ps = request->settings.n_percentiles;
  const Fields *q = fields ();
  GValue percentiles = G_VALUE_INIT;
  gdouble mean[CLH_MAX_CHANNELS];
  guint c;

  TAKE_STAT (s, q->min, G_TYPE_UINT, guint, stats, min, n);
  TAKE_STAT (s, q->max, G_TYPE_UINT, guint, stats, max, n);
  for (c = 0; c < n; c++)
    mean[c] = clh_stats_mean (&stats[c]);
  take_array (s, q->mean, G_TYPE_DOUBLE, mean, sizeof (gdouble), n);
  g_value_init (&percentiles, GST_TYPE_ARRAY);
  for (c = 0; c < n; c++) {
    GValue channel = G_VALUE_INIT;
    guint i;

    g_value_init (&channel, GST_TYPE_ARRAY);
    for (i = 0; i < n_ps; i++)
      append_value (&channel, G_TYPE_UINT, &stats[c].percentiles[i]);
    gst_value_array_append_and_take_value (&percentiles, &channel);
  }
  gst_structure_id_take_value (s, q->percentiles, &percentiles);
  TAKE_STAT (s, q->clipped_low, G_TYPE_UINT64, guint64, stats, clipped_low, n);
  TAKE_STAT (s, q->clipped_high, G_TYPE_UINT64, guint64, stats, clipped_high,
      n);
  TAKE_STAT (s, q->clip_low_level, G_TYPE_UINT, guint, request->stats,
      clip_low, n);
  TAKE_STAT (s, q->clip_high_level, G_TYPE_UINT, guint, request->stats,
      clip_high, n);
  if (request->legal) {
    TAKE_STAT (s, q->below_legal, G_TYPE_UINT64, guint64, stats, below_legal,
        n);
    TAKE_STAT (s, q->above_legal, G_TYPE_UINT64, guint64, stats, above_legal,
        n);
  }
}

/* The `counts` field: one array of bins per channel. */
static void
set_counts (GstStructure *s, const ClhHistogramSpec *spec,
    const ClhHistogram *histogram)
{
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  const guint n_bins = clh_histogram_spec_n_bins (spec);
  GValue counts = G_VALUE_INIT;
  guint c;

  g_value_init (&counts, GST_TYPE_ARRAY);
  for (c = 0; c < n_channels; c++) {
    GValue channel = G_VALUE_INIT;

    init_bins_array (&channel, &histogram->counts[(gsize) c * n_bins], n_bins);
    gst_value_array_append_and_take_value (&counts, &channel);
  }
  gst_structure_id_take_value (s, fields ()->counts, &counts);
}

/* One histogram's per-channel fields: `counts` (unless the settings leave
 * them out), `samples`, `below`, `above`, and the statistics when @stats
 * has them. */
static void
set_channel_fields (GstStructure *s, const GstClHistogramRequest *request,
    const ClhHistogram *histogram, const ClhStats *stats)
{
  const ClhHistogramSpec *spec = &request->spec;
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  const Fields *q = fields ();

  if (request->settings.message_counts)
    set_counts (s, spec, histogram);
  take_array (s, q->samples, G_TYPE_UINT64, histogram->samples,
      sizeof (guint64), n_channels);
  take_array (s, q->below, G_TYPE_UINT64, histogram->below, sizeof (guint64),
      n_channels);
  take_array (s, q->above, G_TYPE_UINT64, histogram->above, sizeof (guint64),
      n_channels);
  if (stats)
    set_statistics_fields (s, request, stats);
}

/* The statistics of histogram @i of a report, or NULL. */
static const ClhStats *
stats_of (const GstClHistogramReport *report, guint i)
{
  return report->stats ? report->stats + (gsize) i * CLH_MAX_CHANNELS : NULL;
}

/* The `regions` field: a `region` structure per region of @report, in
 * order, its histogram following the full frame's; a zone's place in its
 * grid beside its id. */
static void
set_regions (GstStructure *s, const GstClHistogramRequest *request,
    const GstClHistogramReport *report)
{
  const guint first = request->settings.full_frame ? 1 : 0;
  const Fields *q = fields ();
  GValue regions = G_VALUE_INIT;
  guint i;

  g_value_init (&regions, GST_TYPE_ARRAY);
  for (i = 0; report->regions && i < report->regions->len; i++) {
    const GstClHistogramRegion *region =
        &g_array_index (report->regions, GstClHistogramRegion, i);
    const ClhRect *r = &region->rect;
    GstStructure *entry = gst_structure_new_id (q->region,
        q->type, G_TYPE_STRING, region->type,
        q->id, G_TYPE_INT, region->id, NULL);
    GValue value = G_VALUE_INIT;

    if (region->position[0])
      gst_structure_id_set (entry,
          q->row, G_TYPE_UINT, region->row,
          q->column, G_TYPE_UINT, region->column,
          q->position, G_TYPE_STRING, region->position, NULL);
    gst_structure_id_set (entry,
        q->x, G_TYPE_UINT, (guint) r->x,
        q->y, G_TYPE_UINT, (guint) r->y,
        q->width, G_TYPE_UINT, (guint) r->width,
        q->height, G_TYPE_UINT, (guint) r->height,
        q->pixels, G_TYPE_UINT64, report->region_pixels ?
        report->region_pixels[i] : (guint64) r->width * r->height, NULL);
    set_channel_fields (entry, request, &report->histograms[first + i],
        stats_of (report, first + i));
    g_value_init (&value, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&value, entry);
    gst_value_array_append_and_take_value (&regions, &value);
  }
  gst_structure_id_take_value (s, q->regions, &regions);
}

/* The `histogram` element message of @report, from @src. Without the
 * whole frame the top level has no per-channel fields. */
GstMessage *
gst_cl_histogram_message_new (GstObject *src,
    const GstClHistogramRequest *request, const GstClHistogramReport *report)
{
  const ClhHistogramSpec *spec = &request->spec;
  const Fields *q = fields ();
  guint shape[3], n_dims = spec_shape (spec, shape), range_min, range_max;
  GstStructure *s;

  spec_range (spec, &range_min, &range_max);

  s = gst_structure_new_id (q->histogram,
      q->timestamp, G_TYPE_UINT64, report->timestamp,
      q->stream_time, G_TYPE_UINT64, report->stream_time,
      q->running_time, G_TYPE_UINT64, report->running_time,
      q->duration, G_TYPE_UINT64, report->duration,
      q->mode, G_TYPE_STRING,
      gst_histogram_mode_get_nick (request->settings.mode),
      q->bins, G_TYPE_UINT, clh_histogram_spec_n_bins (spec), NULL);
  if (report->frames)
    gst_structure_id_set (s, q->frames, G_TYPE_UINT, report->frames, NULL);
  take_array (s, q->channels, G_TYPE_STRING, request->channel_names, 0,
      clh_histogram_spec_n_channels (spec));
  gst_structure_id_set (s, q->pixels, G_TYPE_UINT64, report->pixels, NULL);
  if (request->settings.full_frame)
    set_channel_fields (s, request, &report->histograms[0],
        stats_of (report, 0));
  take_array (s, q->shape, G_TYPE_UINT, shape, sizeof (guint), n_dims);
  gst_structure_id_set (s,
      q->depth, G_TYPE_UINT, request->depth,
      q->video_range, G_TYPE_STRING, video_range_name (request->video_range),
      q->range_min, G_TYPE_UINT, range_min,
      q->range_max, G_TYPE_UINT, range_max, NULL);
  if (request->statistics)
    take_array (s, q->percentile_points, G_TYPE_DOUBLE,
        request->settings.percentiles, sizeof (gdouble),
        request->settings.n_percentiles);
  if (report->metering.known)
    gst_structure_id_set (s,
        q->metering, G_TYPE_DOUBLE, report->metering.value,
        q->metering_percent, G_TYPE_DOUBLE, report->metering.percent, NULL);
  set_regions (s, request, report);

  return gst_message_new_element (src, s);
}

static void
append_int (GValue *array, gint v)
{
  GValue value = G_VALUE_INIT;

  g_value_init (&value, G_TYPE_INT);
  g_value_set_int (&value, v);
  gst_value_array_append_and_take_value (array, &value);
}

/* Zones named in an `exposure` message: their ids and, in the same
 * order, their rows, columns and positions. */
typedef struct {
  GValue ids;
  GValue rows;
  GValue columns;
  GValue positions;
} ZoneList;

static void
zone_list_init (ZoneList *list)
{
  memset (list, 0, sizeof (*list));
  g_value_init (&list->ids, GST_TYPE_ARRAY);
  g_value_init (&list->rows, GST_TYPE_ARRAY);
  g_value_init (&list->columns, GST_TYPE_ARRAY);
  g_value_init (&list->positions, GST_TYPE_ARRAY);
}

/* Appends zone @id of a @cols x @rows grid (zone (i, j) is `j * cols +
 * i`). */
static void
zone_list_append (ZoneList *list, gint id, guint cols, guint rows)
{
  const guint n = (guint) MAX (id, 0), c = MAX (cols, 1);
  const guint row = n / c, column = n % c;
  gchar position[CLH_ZONE_POSITION_SIZE];
  GValue value = G_VALUE_INIT;

  g_warn_if_fail (id >= 0 && n < c * rows);
  clh_zone_position (c, rows, column, row, position, sizeof position);
  append_int (&list->ids, id);
  append_value (&list->rows, G_TYPE_UINT, &row);
  append_value (&list->columns, G_TYPE_UINT, &column);
  g_value_init (&value, G_TYPE_STRING);
  g_value_set_string (&value, position);
  gst_value_array_append_and_take_value (&list->positions, &value);
}

/* Moves @list into @s: the ids as @ids, the rest as @ids' singular with
 * `-row`, `-column` and `-position` (`zones`: `zone-row`, ...). */
static void
zone_list_take (ZoneList *list, GstStructure *s, const gchar *ids,
    const gchar *stem)
{
  gchar *name;

  gst_structure_take_value (s, ids, &list->ids);
  name = g_strconcat (stem, "-row", NULL);
  gst_structure_take_value (s, name, &list->rows);
  g_free (name);
  name = g_strconcat (stem, "-column", NULL);
  gst_structure_take_value (s, name, &list->columns);
  g_free (name);
  name = g_strconcat (stem, "-position", NULL);
  gst_structure_take_value (s, name, &list->positions);
  g_free (name);
}

/* Whether @ids (gint) hold the frame's id; the zones' of a @cols x @rows
 * grid, in order, into @zones. */
static gboolean
split_ids (const GArray *ids, guint cols, guint rows, ZoneList *zones)
{
  gboolean frame = FALSE;
  guint i;

  zone_list_init (zones);
  for (i = 0; ids && i < ids->len; i++) {
    const gint id = g_array_index (ids, gint, i);

    if (id == GST_CL_EXPOSURE_FRAME)
      frame = TRUE;
    else
      zone_list_append (zones, id, cols, rows);
  }
  return frame;
}

/* The `exposure` element message of @report, from @src: which alert
 * (`clipped` or `crushed`) started or cleared (`event`), on the frame
 * (`frame`, with its share `frame-percent`) and on which zones (`zones`,
 * their places `zone-row`, `zone-column`, `zone-position` and shares
 * `zone-percent`), and which are on afterwards (`active`,
 * `frame-active`, `active-zones` and their places). */
GstMessage *
gst_cl_exposure_message_new (GstObject *src,
    const GstClExposureReport *report)
{
  GValue percents = G_VALUE_INIT;
  ZoneList zones, active;
  gboolean frame = FALSE, frame_active;
  gdouble frame_percent = 0.0;
  GstStructure *s;
  guint i;

  zone_list_init (&zones);
  g_value_init (&percents, GST_TYPE_ARRAY);
  for (i = 0; i < report->areas->len; i++) {
    const GstClExposureArea *area =
        &g_array_index (report->areas, GstClExposureArea, i);

    if (area->id == GST_CL_EXPOSURE_FRAME) {
      frame = TRUE;
      frame_percent = area->percent;
      continue;
    }
    zone_list_append (&zones, area->id, report->zone_cols,
        report->zone_rows);
    append_value (&percents, G_TYPE_DOUBLE, &area->percent);
  }
  frame_active = split_ids (report->active, report->active_cols,
      report->active_rows, &active);

  s = gst_structure_new ("exposure",
      "timestamp", G_TYPE_UINT64, report->timestamp,
      "stream-time", G_TYPE_UINT64, report->stream_time,
      "running-time", G_TYPE_UINT64, report->running_time,
      "alert", G_TYPE_STRING,
      report->kind == GST_CL_EXPOSURE_CLIPPED ? "clipped" : "crushed",
      "event", G_TYPE_STRING, report->started ? "start" : "clear",
      "threshold", G_TYPE_DOUBLE, report->threshold,
      "frame", G_TYPE_BOOLEAN, frame, NULL);
  if (frame)
    gst_structure_set (s, "frame-percent", G_TYPE_DOUBLE, frame_percent,
        NULL);
  zone_list_take (&zones, s, "zones", "zone");
  gst_structure_take_value (s, "zone-percent", &percents);
  gst_structure_set (s,
      "active", G_TYPE_BOOLEAN, frame_active
      || gst_value_array_get_size (&active.ids) > 0,
      "frame-active", G_TYPE_BOOLEAN, frame_active, NULL);
  zone_list_take (&active, s, "active-zones", "active-zone");
  return gst_message_new_element (src, s);
}

/* The layout of @request's histograms, the same for each region; FALSE
 * if the meta library refuses it. */
static gboolean
request_info (const GstClHistogramRequest *request, GstHistogramInfo *info)
{
  const ClhHistogramSpec *spec = &request->spec;
  guint shape[3], n_dims = spec_shape (spec, shape);

  gst_histogram_info_init (info);
  if (!gst_histogram_info_set_format (info, request->settings.mode,
          clh_histogram_spec_n_channels (spec), request->channel_names,
          n_dims, shape))
    return FALSE;
  info->depth = request->depth;
  info->video_range = request->video_range;
  spec_range (spec, &info->range_min, &info->range_max);
  return TRUE;
}

/* Channel @c's samples outside the bins and, with @stats, the summary of
 * its values, as the meta holds them; the percentiles are borrowed. */
static void
meta_statistics (GstHistogramStatistics *out,
    const GstClHistogramRequest *request, const ClhHistogram *histogram,
    const ClhStats *stats, guint c)
{
  memset (out, 0, sizeof (*out));
  out->samples = histogram->samples[c];
  out->below = histogram->below[c];
  out->above = histogram->above[c];
  if (!stats)
    return;
  out->flags = GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY;
  out->min = stats[c].min;
  out->max = stats[c].max;
  out->mean = clh_stats_mean (&stats[c]);
  out->clipped_low = stats[c].clipped_low;
  out->clipped_high = stats[c].clipped_high;
  out->clip_low_level = request->stats[c].clip_low;
  out->clip_high_level = request->stats[c].clip_high;
  out->n_percentiles = request->settings.n_percentiles;
  out->percentile_points = (gdouble *) request->settings.percentiles;
  out->percentiles = (guint *) stats[c].percentiles;
  if (request->legal) {
    out->flags |= GST_HISTOGRAM_STATISTICS_FLAG_LEGAL_RANGE;
    out->below_legal = stats[c].below_legal;
    out->above_legal = stats[c].above_legal;
  }
}

static GstHistogramMeta *
add_meta (GstBuffer *buffer, const GstClHistogramRequest *request,
    const GstHistogramInfo *info, const ClhHistogram *histogram,
    const ClhStats *stats, const gchar *type, gint id, const ClhRect *r)
{
  const GstHistogramRegion region = { type, id, (guint) r->x, (guint) r->y,
    (guint) r->width, (guint) r->height
  };
  GstHistogramMeta *meta;
  guint c;

  meta = gst_buffer_add_histogram_meta (buffer, info, &region,
      histogram->counts, (gsize) info->n_channels * info->n_bins);
  for (c = 0; meta && c < info->n_channels; c++) {
    GstHistogramStatistics statistics;

    meta_statistics (&statistics, request, histogram, stats, c);
    gst_histogram_meta_set_statistics (meta, c, &statistics);
  }
  return meta;
}

/* Attaches a GstHistogramMeta per histogram of @request to @buffer, which
 * is writable: the whole frame's ("frame", 0) first if counted, then each
 * region's, from @histograms in the same order, with @stats
 * (CLH_MAX_CHANNELS per histogram) if not NULL. The first meta, which
 * gst_buffer_get_histogram_meta() returns, carries the frame's @metering
 * value if it has one. */
void
gst_cl_histogram_attach_metas (GstBuffer *buffer,
    const GstClHistogramRequest *request, const ClhHistogram *histograms,
    const ClhStats *stats, const GstClMeteringValue *metering)
{
  const ClhRect whole = { 0, 0, (gint) request->width,
    (gint) request->height };
  const guint first = request->settings.full_frame ? 1 : 0;
  GstHistogramMeta *meta, *head = NULL;
  GstHistogramInfo info;
  guint i;

  if (!request_info (request, &info))
    return;
  if (first)
    head = add_meta (buffer, request, &info, &histograms[0], stats,
        GST_HISTOGRAM_REGION_FRAME, 0, &whole);
  for (i = 0; request->regions && i < request->regions->len; i++) {
    const GstClHistogramRegion *region =
        &g_array_index (request->regions, GstClHistogramRegion, i);

    meta = add_meta (buffer, request, &info, &histograms[first + i], stats ?
        stats + (gsize) (first + i) * CLH_MAX_CHANNELS : NULL, region->type,
        region->id, &region->rect);
    if (!head)
      head = meta;
  }
  if (head && metering && metering->known)
    gst_histogram_meta_set_metering (head, metering->value,
        metering->percent);
}
