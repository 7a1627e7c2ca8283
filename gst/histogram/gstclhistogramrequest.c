/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* From caps and properties to what the engine counts. */
#include "gstclhistogramrequest.h"

#include "base/gstclbasemode.h"

#include <string.h>

static const gchar *const rgba_names[] = { "R", "G", "B", "A" };
static const gchar *const yuv_names[] = { "Y", "U", "V" };

/* Bins when the property was left alone: 180 hue bins (OpenCV's range),
 * 32 x 32 hue x saturation, the classic 16 x 16 x 16 RGB target model. */
guint
gst_cl_histogram_settings_bins (const GstClHistogramSettings *settings)
{
  if (settings->bins_set)
    return settings->bins;
  switch (settings->mode) {
    case GST_HISTOGRAM_MODE_HUE:
      return 180;
    case GST_HISTOGRAM_MODE_HUE_SATURATION:
      return 32;
    case GST_HISTOGRAM_MODE_RGB:
      return 16;
    default:
      return settings->bins;
  }
}

/* Takes a reference on the arrays @settings shares (the fixed regions,
 * the metering weights), for a copy of them made by assignment. */
void
gst_cl_histogram_settings_ref_arrays (GstClHistogramSettings *settings)
{
  if (settings->regions)
    g_array_ref (settings->regions);
  if (settings->metering_weights)
    g_array_ref (settings->metering_weights);
}

/* Drops the arrays @settings holds. */
void
gst_cl_histogram_settings_clear (GstClHistogramSettings *settings)
{
  g_clear_pointer (&settings->regions, g_array_unref);
  g_clear_pointer (&settings->metering_weights, g_array_unref);
}

/* What @settings count in @info's format, and the channels' names; FALSE
 * with @error saying which combination does not work and why. */
static gboolean
build_spec (const GstClHistogramSettings *settings, const GstVideoInfo *info,
    const ClhFrame *format, ClhHistogramSpec *spec,
    const gchar *const **names, GError **error)
{
  const gboolean rgb = GST_VIDEO_INFO_IS_RGB (info);
  const gboolean yuv = GST_VIDEO_INFO_IS_YUV (info);
  const gchar *mode = gst_histogram_mode_get_nick (settings->mode);
  static const gchar *mode_names[][1] = {
    {"Y"}, {NULL}, {"max"}, {"hue"}, {"hue-saturation"}, {"rgb"},
  };
  GError *why = NULL;

  memset (spec, 0, sizeof (*spec));
  spec->bins = gst_cl_histogram_settings_bins (settings);
  spec->range_min = settings->range_min;
  spec->range_max = settings->range_max >= 0 ? (guint) settings->range_max :
      (1u << format->depth) - 1;
  spec->min_saturation = settings->min_saturation;
  spec->min_value = settings->min_value;
  spec->color = yuv ? CLH_COLOR_YUV_BT601 : CLH_COLOR_RGB;
  *names = mode_names[settings->mode];
  spec->count = gst_cl_histogram_mode_count (settings->mode);

  switch (settings->mode) {
    case GST_HISTOGRAM_MODE_LUMA:
      /* A GRAY or YUV format's luma is its stored Y plane. */
      if (!rgb)
        spec->count = CLH_COUNT_COMPONENTS;
      clh_histogram_spec_set_first_components (spec, rgb ? 3 : 1);
      break;
    case GST_HISTOGRAM_MODE_CHANNELS:
      clh_histogram_spec_set_first_components (spec, format->n_components);
      *names = rgb ? rgba_names : yuv ? yuv_names : mode_names[0];
      break;
    case GST_HISTOGRAM_MODE_MAX:
    case GST_HISTOGRAM_MODE_RGB:
      if (!rgb) {
        g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
            "mode=%s counts R, G and B and needs an RGB format, not %s",
            mode, GST_VIDEO_INFO_NAME (info));
        return FALSE;
      }
      clh_histogram_spec_set_first_components (spec,
          settings->mode == GST_HISTOGRAM_MODE_MAX ?
          format->n_components : 3);
      break;
    default:
      if (!rgb && !yuv) {
        g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
            "mode=%s needs colour and %s is gray: use an RGB or 8-bit YUV "
            "format", mode, GST_VIDEO_INFO_NAME (info));
        return FALSE;
      }
      clh_histogram_spec_set_first_components (spec, 3);
      break;
  }

  if (!clh_histogram_spec_is_valid (spec, format, &why)) {
    g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
        "mode=%s bins=%u range %u..%u cannot count %s: %s", mode, spec->bins,
        spec->range_min, spec->range_max, GST_VIDEO_INFO_NAME (info),
        why->message);
    g_error_free (why);
    return FALSE;
  }
  return TRUE;
}

/* Statistics of the 1-D modes come from a histogram of one bin per sample
 * value, counted in @spec's place: its bins and every statistic are then
 * read off exactly, whatever @spec's bins and range. For 8-bit samples in
 * 256 bins that is @spec itself. The clip levels follow the stream's
 * range, as its caps give it. */
static void
set_statistics (GstClHistogramRequest *request, const GstVideoInfo *info,
    const ClhFrame *format)
{
  const GstClHistogramSettings *settings = &request->settings;
  const ClhHistogramSpec *spec = &request->spec;
  const gboolean yuv = GST_VIDEO_INFO_IS_YUV (info);
  guint depth, c;

  request->count = *spec;
  request->statistics = settings->statistics
      && (settings->mode == GST_HISTOGRAM_MODE_LUMA
      || settings->mode == GST_HISTOGRAM_MODE_CHANNELS
      || settings->mode == GST_HISTOGRAM_MODE_MAX);
  request->legal = request->statistics
      && request->video_range == GST_VIDEO_COLOR_RANGE_16_235;
  if (!request->statistics)
    return;

  /* Luma and max of RGB are 8-bit whatever the format's depth. */
  depth = spec->count == CLH_COUNT_COMPONENTS ? format->depth : 8;
  request->count.bins = 1u << depth;
  request->count.range_min = 0;
  request->count.range_max = (1u << depth) - 1;
  for (c = 0; c < clh_histogram_spec_n_channels (spec); c++) {
    ClhStatsSpec *stats = &request->stats[c];
    const gboolean chroma = yuv && c > 0
        && settings->mode == GST_HISTOGRAM_MODE_CHANNELS;

    clh_stats_spec_set_legal (stats, depth, chroma);
    clh_stats_spec_set_clip_levels (stats,
        request->video_range == GST_VIDEO_COLOR_RANGE_16_235, chroma,
        settings->clip_low_level, settings->clip_high_level);
    stats->n_percentiles = settings->n_percentiles;
    memcpy (stats->percentiles, settings->percentiles,
        sizeof (gdouble) * settings->n_percentiles);
  }
}

/* The request for one frame of @info's format (@format, from
 * gst_cl_frame_format()) under @settings; FALSE with @error if
 * they cannot count this format. */
gboolean
gst_cl_histogram_request_init (GstClHistogramRequest *request,
    const GstClHistogramSettings *settings, const GstVideoInfo *info,
    const ClhFrame *format, GError **error)
{
  request->settings = *settings;
  gst_cl_histogram_settings_ref_arrays (&request->settings);
  request->regions = NULL;
  request->width = GST_VIDEO_INFO_WIDTH (info);
  request->height = GST_VIDEO_INFO_HEIGHT (info);
  request->depth = format->depth;
  request->video_range = GST_VIDEO_INFO_COLORIMETRY (info).range;
  if (!build_spec (settings, info, format, &request->spec,
          &request->channel_names, error))
    return FALSE;
  set_statistics (request, info, format);
  return TRUE;
}

/* Drops what gst_cl_histogram_request_init() and the frame's mapping
 * took. */
void
gst_cl_histogram_request_clear (GstClHistogramRequest *request)
{
  gst_cl_histogram_settings_clear (&request->settings);
  g_clear_pointer (&request->regions, g_array_unref);
}

/* The frame's histograms: the whole frame's, if counted, and its
 * regions'. */
guint
gst_cl_histogram_request_n_histograms (const GstClHistogramRequest *request)
{
  return (request->settings.full_frame ? 1 : 0)
      + (request->regions ? request->regions->len : 0);
}

/* The most regions a frame of this request may have: CLH_MAX_REGIONS, or
 * fewer for histograms so large that their counters would pass
 * CLH_MAX_FRAME_COUNTERS. */
guint
gst_cl_histogram_request_max_regions (const GstClHistogramRequest *request)
{
  const gsize block = (gsize) clh_histogram_spec_n_channels (&request->count)
      * (clh_histogram_spec_n_bins (&request->count) + 2);
  const gsize most = CLH_MAX_FRAME_COUNTERS / block
      - (request->settings.full_frame ? 1 : 0);

  return (guint) MIN (most, CLH_MAX_REGIONS);
}
