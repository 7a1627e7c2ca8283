/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every histogram meta of every frame (the whole frame's, each zone's,
 * fixed region's and ROI meta's), its counts and its statistics, against
 * the golden reference counted from the same buffer, with the settings
 * read back from the element, so that what is compared is what the
 * element was asked for, defaults included. */
#include "probe-check.h"

#include <stdio.h>
#include <string.h>
#include <gst/video/video.h>
#include <gst/clhistogram/clhistogram.h>

#include "clh-reference-frame.h"

/* Only the streaming thread that feeds the sink touches it while the
 * pipeline runs; the main thread reads it once the pipeline is down. */
struct _ProbeCheck
{
  GstHistogramMode mode;
  guint bins;
  guint range_min;
  gint range_max;
  gboolean roi_meta;
  /* The clip levels, percent of the nominal range. */
  gdouble clip_low_level;
  gdouble clip_high_level;
  /* The full frame, the zones and the fixed regions: the histograms of
   * every frame besides its ROI metas'. */
  guint fixed_histograms;
  guint frames;
  guint differing;
  gchar *caps;
};

static guint
n_regions_of (GstElement *histogram)
{
  GValue regions = G_VALUE_INIT;
  guint n;

  g_value_init (&regions, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (histogram), "regions", &regions);
  n = gst_value_array_get_size (&regions);
  g_value_unset (&regions);
  return n;
}

/**
 * probe_check_new:
 * @histogram: the clhistogram element, its properties set
 *
 * Returns: a check to free with probe_check_free().
 */
ProbeCheck *
probe_check_new (GstElement *histogram)
{
  ProbeCheck *check = g_new0 (ProbeCheck, 1);
  gboolean full_frame = TRUE;
  gchar *zones = NULL;
  guint cols = 0, rows = 0;

  g_object_get (histogram, "mode", &check->mode, "bins", &check->bins,
      "range-min", &check->range_min, "range-max", &check->range_max,
      "roi-meta", &check->roi_meta, "full-frame", &full_frame, "zones",
      &zones, "clip-low-level", &check->clip_low_level, "clip-high-level",
      &check->clip_high_level, NULL);
  if (!zones || sscanf (zones, "%ux%u", &cols, &rows) != 2)
    cols = rows = 0;
  g_free (zones);
  check->fixed_histograms = (full_frame ? 1 : 0) + cols * rows +
      n_regions_of (histogram);
  return check;
}

/* The statistics in @meta, where the element computed them, against the
 * reference's of the same rectangle at the meta's own percentile points
 * and the element's clip levels: exact, the mean bit for bit. The
 * legal-range tails are compared only when the meta has them
 * (limited-range caps). */
static gboolean
stats_equal_reference (const ProbeCheck *check, const GstVideoInfo *info,
    GstBuffer *buffer, const gchar *mode, const ClhRect *rect,
    GstHistogramMeta *meta)
{
  const GstHistogramStatistics *first =
      gst_histogram_meta_get_statistics (meta, 0);
  const gboolean legal =
      (first->flags & GST_HISTOGRAM_STATISTICS_FLAG_LEGAL_RANGE) != 0;
  ClhStats want[CLH_MAX_CHANNELS];
  guint c, i;
  gboolean equal;

  if (!(first->flags & GST_HISTOGRAM_STATISTICS_FLAG_SUMMARY))
    return TRUE;
  equal = meta->info.n_channels <= CLH_MAX_CHANNELS
      && clh_reference_stats_of_buffer_region_clipped (info, buffer, mode,
      rect, check->clip_low_level, check->clip_high_level,
      first->percentile_points, first->n_percentiles, want);
  for (c = 0; equal && c < meta->info.n_channels; c++) {
    const GstHistogramStatistics *st =
        gst_histogram_meta_get_statistics (meta, c);

    equal = st->min == want[c].min && st->max == want[c].max
        && st->mean == clh_stats_mean (&want[c])
        && st->clipped_low == want[c].clipped_low
        && st->clipped_high == want[c].clipped_high
        && (!legal || (st->below_legal == want[c].below_legal
                && st->above_legal == want[c].above_legal))
        && st->n_percentiles == first->n_percentiles;
    for (i = 0; equal && i < st->n_percentiles; i++)
      equal = st->percentiles[i] == want[c].percentiles[i];
  }
  return equal;
}

static gboolean
meta_equals_reference (const ProbeCheck *check, const GstVideoInfo *info,
    GstBuffer *buffer, GstHistogramMeta *meta)
{
  const ClhRect rect = { meta->region.x, meta->region.y,
    meta->region.width, meta->region.height
  };
  const gboolean whole = g_strcmp0 (meta->region.type,
      GST_HISTOGRAM_REGION_FRAME) == 0;
  ClhHistogramSpec spec;
  ClhHistogram want = { NULL };
  gboolean equal;
  guint c;

  equal = meta->info.mode == check->mode
      && clh_reference_histogram_of_buffer_region (info, buffer,
      gst_histogram_mode_get_nick (check->mode), check->bins,
      check->range_min, check->range_max, whole ? NULL : &rect, &spec, &want)
      && meta->info.n_channels == clh_histogram_spec_n_channels (&spec)
      && meta->info.n_bins == clh_histogram_spec_n_bins (&spec)
      && meta->pixels == (guint64) meta->region.width * meta->region.height
      && memcmp (meta->counts, want.counts,
      sizeof (guint32) * meta->info.n_channels * meta->info.n_bins) == 0;
  for (c = 0; equal && c < meta->info.n_channels; c++) {
    const GstHistogramStatistics *st =
        gst_histogram_meta_get_statistics (meta, c);

    equal = st->samples == want.samples[c] && st->below == want.below[c]
        && st->above == want.above[c];
  }
  g_free (want.counts);
  return equal && stats_equal_reference (check, info, buffer,
      gst_histogram_mode_get_nick (check->mode), whole ? NULL : &rect,
      meta);
}

/**
 * probe_check_sample:
 * @sample: a frame that went through the element
 *
 * Checks each of the frame's histogram metas, and that it has one for
 * every histogram asked for; says on stderr what differs.
 */
void
probe_check_sample (ProbeCheck *check, GstSample *sample)
{
  GstBuffer *buffer = gst_sample_get_buffer (sample);
  GString *why = g_string_new (NULL);
  GstVideoInfo info;
  GList *metas, *l;
  guint expected = check->fixed_histograms, n = 0;

  if (check->roi_meta)
    expected += gst_buffer_get_n_meta (buffer,
        GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);
  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)))
    g_string_append (why, "its caps are not raw video");
  else if (!check->caps)
    check->caps = g_strdup_printf ("%dx%d %s", GST_VIDEO_INFO_WIDTH (&info),
        GST_VIDEO_INFO_HEIGHT (&info), GST_VIDEO_INFO_NAME (&info));

  metas = why->len ? NULL : gst_buffer_get_histogram_metas (buffer);
  for (l = metas; l; l = l->next, n++) {
    const GstHistogramMeta *meta = l->data;

    if (!meta_equals_reference (check, &info, buffer, l->data))
      g_string_append_printf (why, "%sthe histogram of %s %d differs from "
          "the golden reference", why->len ? "; " : "", meta->region.type,
          meta->region.id);
  }
  g_list_free (metas);
  if (n != expected && !why->len)
    g_string_append_printf (why, "%u histogram metas, %u expected", n,
        expected);

  if (why->len) {
    g_printerr ("clhistogram-probe: frame %u: %s\n", check->frames, why->str);
    check->differing++;
  }
  check->frames++;
  g_string_free (why, TRUE);
}

guint
probe_check_get_frames (const ProbeCheck *check)
{
  return check->frames;
}

guint
probe_check_get_differing (const ProbeCheck *check)
{
  return check->differing;
}

/**
 * probe_check_summary:
 * @input: what the frames came from, as the user named it
 * @device_name: (nullable): the OpenCL device that counted them
 *
 * Returns: one line, no newline, e.g. "795 frames of data/vtest.avi as
 *   600x480 GRAY8, mode luma, 256 bins, on NVIDIA H200: 0 differ from the
 *   golden reference". Free with g_free().
 */
gchar *
probe_check_summary (const ProbeCheck *check, const gchar *input,
    const gchar *device_name)
{
  gchar *histograms = check->fixed_histograms == 1 ? g_strdup ("") :
      g_strdup_printf (", %u histograms a frame", check->fixed_histograms);
  gchar *line = g_strdup_printf ("%u frames of %s as %s, mode %s, %u bins%s, "
      "on %s: %u differ from the golden reference", check->frames, input,
      check->caps ? check->caps : "(no caps)",
      gst_histogram_mode_get_nick (check->mode), check->bins, histograms,
      device_name ? device_name : "(no device)", check->differing);

  g_free (histograms);
  return line;
}

void
probe_check_free (ProbeCheck *check)
{
  if (!check)
    return;
  g_free (check->caps);
  g_free (check);
}
