/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one place the elements' mode enum meets the engine's: the public
 * enum is frozen with the meta library's ABI, the engine's may change. */
#include "gstclbasemode.h"

/* What the engine counts for @mode. Luma is BT.601 luma of R, G, B; a
 * caller counting a GRAY or YUV format's stored Y plane counts it as a
 * component instead. */
ClhCount
gst_cl_histogram_mode_count (GstHistogramMode mode)
{
  switch (mode) {
    case GST_HISTOGRAM_MODE_CHANNELS:
      return CLH_COUNT_COMPONENTS;
    case GST_HISTOGRAM_MODE_MAX:
      return CLH_COUNT_MAX;
    case GST_HISTOGRAM_MODE_HUE:
      return CLH_COUNT_HUE;
    case GST_HISTOGRAM_MODE_HUE_SATURATION:
      return CLH_COUNT_HUE_SATURATION;
    case GST_HISTOGRAM_MODE_RGB:
      return CLH_COUNT_RGB;
    case GST_HISTOGRAM_MODE_LUMA:
      return CLH_COUNT_LUMA;
    default:
      g_return_val_if_reached (CLH_COUNT_LUMA);
  }
}
