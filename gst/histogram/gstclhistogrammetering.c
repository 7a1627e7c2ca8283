/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A metering value as a camera's auto-exposure reads one: the luma of
 * each zone weighted, as libcamera's AGC weighs its zones with the
 * weights of its metering mode (centre-weighted, spot, matrix), over
 * the samples they hold:
 *
 *   metering = sum (w_z * S_z) / sum (w_z * N_z)
 *
 * S_z the sum of zone z's luma samples, N_z their number. Equal weights
 * give the frame's mean, whatever the zones' sizes, since the zones tile
 * the frame. */
#include "gstclhistogrammetering.h"

#include <stdlib.h>
#include <string.h>

#include "clh-levels.h"
#include "gstclhistogramregions.h"

GType
gst_cl_histogram_metering_get_type (void)
{
  static const GEnumValue values[] = {
    {GST_CL_HISTOGRAM_METERING_NONE, "No metering value", "none"},
    {GST_CL_HISTOGRAM_METERING_AVERAGE, "The mean luma of the frame",
        "average"},
    {GST_CL_HISTOGRAM_METERING_CENTRE_WEIGHTED,
        "The zones weighted by a tent peaking at the frame's centre",
        "centre-weighted"},
    {GST_CL_HISTOGRAM_METERING_SPOT, "The zone or zones at the centre",
        "spot"},
    {GST_CL_HISTOGRAM_METERING_ZONES,
        "The zones weighted by metering-weights", "zones"},
    {0, NULL, NULL},
  };
  static gsize id = 0;

  if (g_once_init_enter (&id)) {
    GType type = g_enum_register_static ("GstClHistogramMetering", values);
    g_once_init_leave (&id, type);
  }
  return (GType) id;
}

/* Half-zones from zone @i's centre to the frame's across @n zones: 0 for
 * the middle zone of an odd count, 1 for the two of an even one. */
static guint
from_centre (guint i, guint n)
{
  return (guint) abs ((gint) (2 * i + 1) - (gint) n);
}

/**
 * gst_cl_histogram_metering_zone_weight:
 * @metering: average, centre-weighted or spot
 * @cols: zones across
 * @rows: zones down
 * @id: the zone, `j * cols + i`
 *
 * The weight of zone (i, j). `centre-weighted`: a separable tent,
 * `(cols - |2i + 1 - cols|) * (rows - |2j + 1 - rows|)`, 1 in the corners
 * and highest at the centre (3x3: 1, 3, 1 by 1, 3, 1; 5x5: 1, 3, 5, 3, 1
 * by the same). `spot`: 1 for the zone at the centre (the two or four
 * nearest it for an even grid), else 0. `average`: 1.
 *
 * Returns: the weight, 0 or more
 */
gdouble
gst_cl_histogram_metering_zone_weight (GstClHistogramMetering metering,
    guint cols, guint rows, guint id)
{
  const guint i = id % cols, j = id / cols;
  const guint dx = from_centre (i, cols), dy = from_centre (j, rows);

  switch (metering) {
    case GST_CL_HISTOGRAM_METERING_CENTRE_WEIGHTED:
      return (gdouble) (cols - dx) * (gdouble) (rows - dy);
    case GST_CL_HISTOGRAM_METERING_SPOT:
      return dx <= 1 && dy <= 1 ? 1.0 : 0.0;
    default:
      return 1.0;
  }
}

/* Whether the zones can be weighed as @settings ask; FALSE with @error
 * saying what to set. */
static gboolean
zones_weighable (const GstClHistogramSettings *settings, GError **error)
{
  const guint n_zones = settings->zone_cols * settings->zone_rows;
  const GArray *weights = settings->metering_weights;
  GEnumValue *nick = g_enum_get_value (g_type_class_peek
      (GST_TYPE_CL_HISTOGRAM_METERING), (gint) settings->metering);
  gdouble total = 0.0;
  guint i;

  if (n_zones == 0) {
    g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
        "metering=%s weighs the zones, and zones is not set: set zones "
        "(e.g. zones=5x5)", nick ? nick->value_nick : "?");
    return FALSE;
  }
  if (settings->metering != GST_CL_HISTOGRAM_METERING_ZONES)
    return TRUE;
  if (!weights || weights->len != n_zones) {
    g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
        "metering-weights has %u values for the %u zones of zones=%ux%u: "
        "give one weight per zone, row by row", weights ? weights->len : 0,
        n_zones, settings->zone_cols, settings->zone_rows);
    return FALSE;
  }
  for (i = 0; i < weights->len; i++)
    total += g_array_index (weights, gdouble, i);
  if (!(total > 0.0)) {
    g_set_error (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
        "metering-weights are all 0: give at least one zone a weight");
    return FALSE;
  }
  return TRUE;
}

/* The weighted sums of the zones of @regions (with @stats, the full
 * frame's first if @first): zone z is region z, the zones coming first. */
static void
weigh_zones (const GstClHistogramSettings *settings, const GArray *regions,
    const ClhStats *stats, guint first, gdouble *sum, gdouble *samples)
{
  const guint n_zones = settings->zone_cols * settings->zone_rows;
  guint z;

  *sum = *samples = 0.0;
  for (z = 0; regions && z < MIN (n_zones, regions->len); z++) {
    const GstClHistogramRegion *region =
        &g_array_index (regions, GstClHistogramRegion, z);
    const ClhStats *luma = &stats[(gsize) (first + z) * CLH_MAX_CHANNELS];
    gdouble w;

    if (g_strcmp0 (region->type, "zone") != 0 || region->id != (gint) z)
      break;
    w = settings->metering == GST_CL_HISTOGRAM_METERING_ZONES ?
        g_array_index (settings->metering_weights, gdouble, z) :
        gst_cl_histogram_metering_zone_weight (settings->metering,
        settings->zone_cols, settings->zone_rows, z);
    *sum += w * (gdouble) luma->sum;
    *samples += w * (gdouble) luma->samples;
  }
}

/**
 * gst_cl_histogram_meter:
 * @request: what was counted; its settings give the metering mode, the
 *   zones and the weights
 * @regions: (element-type GstClHistogramRegion) (nullable): the regions
 *   of @stats, zones first
 * @stats: the statistics of each histogram, CLH_MAX_CHANNELS each, the
 *   full frame's first if counted
 * @value: (out): the metering value, in luma code values
 * @percent: (out): the same in percent of the nominal range for the
 *   stream's range (clh_levels_nominal()): 0 at nominal black, 100 at
 *   nominal white
 * @error: why the settings give no value, for the user to fix
 *
 * The weighted mean luma (see above): `average` is the full frame's mean
 * (or, without it, that of the zones together); the other modes weigh
 * the zones. There is no value, and no error, without metering, for
 * histograms without luma (RGB channels, max, the colour modes), without
 * statistics, and when the weighted zones hold no sample.
 *
 * Returns: whether @value and @percent were set
 */
gboolean
gst_cl_histogram_meter (const GstClHistogramRequest *request,
    const GArray *regions, const ClhStats *stats, gdouble *value,
    gdouble *percent, GError **error)
{
  const GstClHistogramSettings *settings = &request->settings;
  const guint first = settings->full_frame ? 1 : 0;
  ClhLevels nominal;
  gdouble sum, samples;

  if (settings->metering == GST_CL_HISTOGRAM_METERING_NONE || !stats
      || !request->statistics
      || g_strcmp0 (request->channel_names[0], "Y") != 0)
    return FALSE;
  if (settings->metering == GST_CL_HISTOGRAM_METERING_AVERAGE && first) {
    sum = (gdouble) stats[0].sum;
    samples = (gdouble) stats[0].samples;
  } else if (settings->metering == GST_CL_HISTOGRAM_METERING_AVERAGE
      && settings->zone_cols == 0) {
    return FALSE;
  } else {
    if (!zones_weighable (settings, error))
      return FALSE;
    weigh_zones (settings, regions, stats, first, &sum, &samples);
  }
  if (!(samples > 0.0))
    return FALSE;

  *value = sum / samples;
  nominal = clh_levels_nominal (request->stats[0].depth,
      request->video_range == GST_VIDEO_COLOR_RANGE_16_235, FALSE);
  *percent = (*value - nominal.black) * 100.0
      / (gdouble) (nominal.white - nominal.black);
  return TRUE;
}
