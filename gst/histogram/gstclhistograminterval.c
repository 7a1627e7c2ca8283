/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Intervals as GStreamer's `level` keeps them (gst/level/gstlevel.c): the
 * first starts at the first frame's running time, each lasts `interval`
 * ns, and a frame belongs to the interval its running time falls in. A
 * frame past the current interval ends it: its message goes out with that
 * frame, so a message never waits for a timer.
 *
 * Regions are summed by type and id. An interval sums at most as many as
 * one frame may have (gst_cl_histogram_request_max_regions()): ROI metas
 * whose ids change every frame would otherwise grow its memory, its
 * message and the cost of each frame without bound. Regions met after
 * that are left out of the interval's message, with one warning. */
#include "gstclhistograminterval.h"
#include "gstclhistogrammetering.h"

#include <string.h>

/* A region's place among those an interval sums; its type is static or
 * interned (GstClHistogramRegion), so the key need not copy it. */
typedef struct {
  const gchar *type;
  gint id;
} RegionKey;

#define NOT_SUMMED G_MAXUINT

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

struct _GstClHistogramInterval {
  /* The request of the interval's first frame (its own regions unset),
   * which every frame summed shares. */
  gboolean active;
  GstClHistogramRequest request;
  GstClockTime start;
  GstClockTime first_timestamp;
  GstClockTime first_stream_time;
  GstClockTime first_running_time;
  /* Where the last frame summed ends in running time. */
  GstClockTime covered;
  guint frames;
  guint64 pixels;
  /* Each region met so far (GstClHistogramRegion, the rectangle of its
   * last frame) and the pixels it summed; the index of each by its type
   * and id (RegionKey); at most max_regions of them. Regions met past the
   * bound are counted in left_out, and warned of once. */
  GArray *regions;
  GArray *region_pixels;
  GHashTable *region_index;
  guint max_regions;
  guint64 left_out;
  gboolean warned;
  /* The sums: guint32 counters of @request->count's shape, and samples,
   * below and above (ClhHistogram, counts unset), one per histogram, the
   * full frame's first if counted. No counter passes a channel's samples,
   * which the interval keeps within 32 bits. */
  GArray *counts;
  GArray *tallies;
  GstClHistogramSet results;
};

static guint
region_key_hash (gconstpointer key)
{
  const RegionKey *k = key;

  return (k->type ? g_str_hash (k->type) : 0) * 31 + (guint) k->id;
}

static gboolean
region_key_equal (gconstpointer a, gconstpointer b)
{
  const RegionKey *ka = a, *kb = b;

  return ka->id == kb->id && g_strcmp0 (ka->type, kb->type) == 0;
}

GstClHistogramInterval *
gst_cl_histogram_interval_new (void)
{
  GstClHistogramInterval *interval = g_new0 (GstClHistogramInterval, 1);

  interval->region_index = g_hash_table_new_full (region_key_hash,
      region_key_equal, g_free, NULL);
  interval->regions = g_array_new (FALSE, FALSE,
      sizeof (GstClHistogramRegion));
  interval->region_pixels = g_array_new (FALSE, TRUE, sizeof (guint64));
  interval->counts = g_array_new (FALSE, TRUE, sizeof (guint32));
  interval->tallies = g_array_new (FALSE, TRUE, sizeof (ClhHistogram));
  return interval;
}

/* Forgets what the interval summed. */
void
gst_cl_histogram_interval_drop (GstClHistogramInterval *interval)
{
  if (interval->active)
    gst_cl_histogram_request_clear (&interval->request);
  interval->active = FALSE;
  interval->frames = 0;
  interval->pixels = 0;
  g_array_set_size (interval->regions, 0);
  g_array_set_size (interval->region_pixels, 0);
  g_hash_table_remove_all (interval->region_index);
  interval->left_out = 0;
  interval->warned = FALSE;
  g_array_set_size (interval->counts, 0);
  g_array_set_size (interval->tallies, 0);
}

void
gst_cl_histogram_interval_free (GstClHistogramInterval *interval)
{
  gst_cl_histogram_interval_drop (interval);
  g_array_unref (interval->regions);
  g_array_unref (interval->region_pixels);
  g_hash_table_unref (interval->region_index);
  g_array_unref (interval->counts);
  g_array_unref (interval->tallies);
  gst_cl_histogram_set_clear (&interval->results);
  g_free (interval);
}

static gsize
histogram_size (const GstClHistogramRequest *request)
{
  return (gsize) clh_histogram_spec_n_channels (&request->count)
      * clh_histogram_spec_n_bins (&request->count);
}

/* Whether @b's frame can be summed with @a's: the same counts of the same
 * samples, reported alike. */
static gboolean
requests_match (const GstClHistogramRequest *a,
    const GstClHistogramRequest *b)
{
  return memcmp (&a->spec, &b->spec, sizeof (a->spec)) == 0
      && memcmp (&a->count, &b->count, sizeof (a->count)) == 0
      && a->statistics == b->statistics && a->legal == b->legal
      && a->settings.mode == b->settings.mode
      && a->settings.full_frame == b->settings.full_frame
      && a->settings.interval == b->settings.interval
      && a->settings.clip_low_level == b->settings.clip_low_level
      && a->settings.clip_high_level == b->settings.clip_high_level
      && a->settings.n_percentiles == b->settings.n_percentiles
      && memcmp (a->settings.percentiles, b->settings.percentiles,
      sizeof (gdouble) * a->settings.n_percentiles) == 0
      && a->channel_names == b->channel_names && a->depth == b->depth
      && a->video_range == b->video_range;
}

static void
start (GstClHistogramInterval *interval, const GstClHistogramFrame *frame)
{
  interval->request = *frame->request;
  gst_cl_histogram_settings_ref_arrays (&interval->request.settings);
  interval->request.regions = NULL;
  interval->active = TRUE;
  interval->start = frame->running_time;
  interval->first_timestamp = frame->timestamp;
  interval->first_stream_time = frame->stream_time;
  interval->first_running_time = frame->running_time;
  interval->max_regions =
      gst_cl_histogram_request_max_regions (&interval->request);
  if (interval->request.settings.full_frame) {
    g_array_set_size (interval->counts, histogram_size (&interval->request));
    g_array_set_size (interval->tallies, 1);
  }
}

/* The index of the region (@type, @id) among those summed, added if new;
 * NOT_SUMMED for a new one past the bound. */
static guint
find_region (GstClHistogramInterval *interval,
    const GstClHistogramRegion *region)
{
  const guint first = interval->request.settings.full_frame ? 1 : 0;
  RegionKey key = { region->type, region->id }, *added;
  gpointer at;

  if (g_hash_table_lookup_extended (interval->region_index, &key, NULL, &at))
    return GPOINTER_TO_UINT (at);
  if (interval->regions->len >= interval->max_regions) {
    interval->left_out++;
    return NOT_SUMMED;
  }
  added = g_new (RegionKey, 1);
  *added = key;
  g_hash_table_insert (interval->region_index, added,
      GUINT_TO_POINTER (interval->regions->len));
  g_array_append_val (interval->regions, *region);
  g_array_set_size (interval->region_pixels, interval->regions->len);
  g_array_set_size (interval->counts,
      (first + interval->regions->len) * histogram_size (&interval->request));
  g_array_set_size (interval->tallies, first + interval->regions->len);
  return interval->regions->len - 1;
}

/* Adds @counted to the sums' histogram @at. */
static void
add_histogram (GstClHistogramInterval *interval, guint at,
    const ClhHistogram *counted)
{
  const gsize size = histogram_size (&interval->request);
  const guint n_channels =
      clh_histogram_spec_n_channels (&interval->request.count);
  guint32 *sum = &g_array_index (interval->counts, guint32, at * size);
  ClhHistogram *tally = &g_array_index (interval->tallies, ClhHistogram, at);
  gsize i;
  guint c;

  for (i = 0; i < size; i++)
    sum[i] += counted->counts[i];
  for (c = 0; c < n_channels; c++) {
    tally->samples[c] += counted->samples[c];
    tally->below[c] += counted->below[c];
    tally->above[c] += counted->above[c];
  }
}

/* Whether @counted's samples would take a channel of histogram @at past
 * 32-bit counters. */
static gboolean
would_overflow (const GstClHistogramInterval *interval, guint at,
    const ClhHistogram *counted)
{
  const guint n_channels =
      clh_histogram_spec_n_channels (&interval->request.count);
  const ClhHistogram *tally;
  guint c;

  if (at == NOT_SUMMED || at >= interval->tallies->len)
    return FALSE;
  tally = &g_array_index (interval->tallies, ClhHistogram, at);
  for (c = 0; c < n_channels; c++)
    if (tally->samples[c] + counted->samples[c] > G_MAXUINT32)
      return TRUE;
  return FALSE;
}

/* The index of each of the frame's histograms among the sums (regions
 * added as met; NOT_SUMMED for those past the bound), in @at; FALSE if a
 * sum would overflow. */
static gboolean
place_frame (GstClHistogramInterval *interval,
    const GstClHistogramFrame *frame, guint *at)
{
  const GstClHistogramRequest *request = frame->request;
  const guint first = request->settings.full_frame ? 1 : 0;
  const guint n = gst_cl_histogram_request_n_histograms (request);
  guint i;

  if (first)
    at[0] = 0;
  for (i = first; i < n; i++) {
    const guint r = find_region (interval, &g_array_index (request->regions,
            GstClHistogramRegion, i - first));

    at[i] = r == NOT_SUMMED ? NOT_SUMMED : first + r;
  }
  for (i = 0; i < n; i++)
    if (would_overflow (interval, at[i], &frame->counted[i]))
      return FALSE;
  return TRUE;
}

static void
add_frame (GstClHistogramInterval *interval, const GstClHistogramFrame *frame,
    const guint *at)
{
  const GstClHistogramRequest *request = frame->request;
  const guint first = request->settings.full_frame ? 1 : 0;
  const guint n = gst_cl_histogram_request_n_histograms (request);
  guint i;

  for (i = 0; i < n; i++)
    if (at[i] != NOT_SUMMED)
      add_histogram (interval, at[i], &frame->counted[i]);
  for (i = first; i < n; i++) {
    const GstClHistogramRegion *region = &g_array_index (request->regions,
        GstClHistogramRegion, i - first);
    guint r;

    if (at[i] == NOT_SUMMED)
      continue;
    r = at[i] - first;
    /* The last frame's rectangle, and (a zone's) place in its grid. */
    g_array_index (interval->regions, GstClHistogramRegion, r) = *region;
    g_array_index (interval->region_pixels, guint64, r) +=
        (guint64) region->rect.width * region->rect.height;
  }
  interval->frames++;
  interval->pixels += (guint64) request->width * request->height;
  interval->covered = frame->running_time
      + (GST_CLOCK_TIME_IS_VALID (frame->duration) ? frame->duration : 0);
}

/* The message of what the interval summed, lasting @duration, and a fresh
 * interval. */
static GstMessage *
finish (GstClHistogramInterval *interval, GstObject *src,
    GstClockTime duration)
{
  const GstClHistogramRequest *request = &interval->request;
  const guint n = interval->tallies->len;
  const gsize size = histogram_size (request);
  ClhHistogram *sums = (ClhHistogram *) (gpointer) interval->tallies->data;
  GstClHistogramReport report = {
    .timestamp = interval->first_timestamp,
    .stream_time = interval->first_stream_time,
    .running_time = interval->first_running_time,
    .duration = duration,
    .frames = interval->frames,
    .pixels = interval->pixels,
    .regions = interval->regions,
    .region_pixels = (const guint64 *) (gpointer) interval->region_pixels->data,
    .histograms = sums,
  };
  GstMessage *message;
  guint i;

  for (i = 0; i < n; i++)
    sums[i].counts = &g_array_index (interval->counts, guint32, i * size);
  if (request->statistics) {
    report.histograms = gst_cl_histogram_read_values (request,
        &interval->results, sums, n, &report.stats);
    /* The frames' own messages said why a value cannot be had. */
    report.metering.known = gst_cl_histogram_meter (request,
        interval->regions, report.stats, &report.metering.value,
        &report.metering.percent, NULL);
  }
  GST_LOG_OBJECT (src, "interval of %u frames from %" GST_TIME_FORMAT
      ", %u regions, %" G_GUINT64_FORMAT " left out", interval->frames,
      GST_TIME_ARGS (interval->start), interval->regions->len,
      interval->left_out);
  message = gst_cl_histogram_message_new (src, request, &report);
  gst_cl_histogram_interval_drop (interval);
  return message;
}

/**
 * Ends the interval now (EOS, a flush, new caps): the message of the
 * frames it summed, lasting the running time they cover, or NULL if it
 * summed none.
 */
GstMessage *
gst_cl_histogram_interval_end (GstClHistogramInterval *interval,
    GstObject *src)
{
  if (!interval->active || interval->frames == 0) {
    gst_cl_histogram_interval_drop (interval);
    return NULL;
  }
  return finish (interval, src, interval->covered
      - interval->first_running_time);
}

/* One warning per interval whose regions reached the bound. */
static void
warn_left_out (GstClHistogramInterval *interval, GstObject *src)
{
  if (interval->left_out == 0 || interval->warned)
    return;
  interval->warned = TRUE;
  GST_ELEMENT_WARNING (GST_ELEMENT_CAST (src), STREAM, FAILED,
      ("An interval met more than %u regions (types and ids): the regions "
          "after those are left out of its message.",
          interval->max_regions),
      ("An interval sums at most as many regions as one frame may have. "
          "ROI metas whose ids change every frame make a new region each: "
          "give an object the same id on every frame, or set a shorter "
          "interval."));
}

/* Where the interval holding running time @t starts, on the grid of the
 * current one; @t is at or past its end. */
static GstClockTime
grid_start (const GstClHistogramInterval *interval, GstClockTime t)
{
  const guint64 length = interval->request.settings.interval;

  return interval->start + (t - interval->start) / length * length;
}

/**
 * Sums @frame into the interval. Returns the message of an interval it
 * ended (the frame starts the next), or NULL. A frame of another request
 * (properties or caps changed), a frame before the interval (a new
 * segment), and a frame whose samples would take a sum past 32 bits end
 * the interval early, with the running time its frames cover.
 */
GstMessage *
gst_cl_histogram_interval_add (GstClHistogramInterval *interval,
    GstObject *src, const GstClHistogramFrame *frame)
{
  const guint64 length = frame->request->settings.interval;
  guint *at = g_newa (guint, MAX (1,
          gst_cl_histogram_request_n_histograms (frame->request)));
  GstMessage *message = NULL;
  GstClockTime next = frame->running_time;

  g_return_val_if_fail (length > 0, NULL);
  g_return_val_if_fail (GST_CLOCK_TIME_IS_VALID (frame->running_time), NULL);

  if (interval->active) {
    if (!requests_match (&interval->request, frame->request)
        || frame->running_time < interval->start) {
      message = gst_cl_histogram_interval_end (interval, src);
    } else if (frame->running_time - interval->start >= length) {
      next = grid_start (interval, frame->running_time);
      message = finish (interval, src, length);
    } else if (!place_frame (interval, frame, at)) {
      GST_DEBUG_OBJECT (src, "ending an interval early: one more frame "
          "would take its counts past 32 bits");
      message = gst_cl_histogram_interval_end (interval, src);
    }
  }
  if (!interval->active) {
    start (interval, frame);
    interval->start = next;
    place_frame (interval, frame, at);
  }
  add_frame (interval, frame, at);
  warn_left_out (interval, src);
  return message;
}
