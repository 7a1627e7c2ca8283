/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The host's part of the statistics: O(values) per channel, after the
 * device counted one bin per sample value in the frame's submission. */
#include "gstclhistogramstats.h"

#include <string.h>

/* @n histograms of @spec's shape, their counts in @set's memory. */
ClhHistogram *
gst_cl_histogram_set_prepare (GstClHistogramSet *set,
    const ClhHistogramSpec *spec, guint n)
{
  const gsize each = (gsize) clh_histogram_spec_n_channels (spec)
      * clh_histogram_spec_n_bins (spec);
  guint i;

  if (set->counts_size < each * MAX (n, 1)) {
    g_free (set->counts);
    set->counts_size = each * MAX (n, 1);
    set->counts = g_new (guint32, set->counts_size);
  }
  if (set->histograms_size < MAX (n, 1)) {
    g_free (set->histograms);
    set->histograms_size = MAX (n, 1);
    set->histograms = g_new0 (ClhHistogram, set->histograms_size);
  }
  for (i = 0; i < n; i++)
    set->histograms[i].counts = set->counts + i * each;
  return set->histograms;
}

/* Room for the statistics of @n histograms' channels, CLH_MAX_CHANNELS
 * each. */
ClhStats *
gst_cl_histogram_set_prepare_stats (GstClHistogramSet *set, guint n)
{
  if (set->stats_size < MAX (n, 1)) {
    g_free (set->stats);
    set->stats_size = MAX (n, 1);
    set->stats = g_new (ClhStats, (gsize) set->stats_size * CLH_MAX_CHANNELS);
  }
  return set->stats;
}

void
gst_cl_histogram_set_clear (GstClHistogramSet *set)
{
  g_free (set->histograms);
  g_free (set->counts);
  g_free (set->stats);
  memset (set, 0, sizeof (*set));
}

/* The @n histograms of a request with statistics in the request's bins,
 * and their statistics (CLH_MAX_CHANNELS per histogram) in @stats, from
 * the value histograms the engine counted (@request->count): @values
 * themselves when each requested bin is one value (8-bit samples in 256
 * bins), else re-binned into @set's memory. */
const ClhHistogram *
gst_cl_histogram_read_values (const GstClHistogramRequest *request,
    GstClHistogramSet *set, const ClhHistogram *values, guint n,
    const ClhStats **stats)
{
  const ClhHistogramSpec *spec = &request->spec;
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  const guint n_values = request->count.bins;
  const guint depth = request->stats[0].depth;
  const gboolean rebin = memcmp (spec, &request->count, sizeof (*spec)) != 0;
  ClhHistogram *histograms = NULL;
  ClhStats *out = gst_cl_histogram_set_prepare_stats (set, n);
  guint i, c;

  g_return_val_if_fail (request->statistics, values);
  if (rebin)
    histograms = gst_cl_histogram_set_prepare (set, spec, n);
  for (i = 0; i < n; i++) {
    for (c = 0; c < n_channels; c++) {
      const guint32 *v = values[i].counts + (gsize) c * n_values;

      clh_stats_from_values (&request->stats[c], v,
          &out[(gsize) i * CLH_MAX_CHANNELS + c]);
      if (!rebin)
        continue;
      clh_values_rebin (v, depth, spec->bins, spec->range_min,
          spec->range_max, histograms[i].counts + (gsize) c * spec->bins,
          &histograms[i].below[c], &histograms[i].above[c]);
      histograms[i].samples[c] = values[i].samples[c];
    }
  }
  *stats = out;
  return rebin ? histograms : values;
}
