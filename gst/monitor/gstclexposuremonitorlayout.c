/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gstclexposuremonitorlayout.h"

#include <string.h>

/**
 * gst_cl_exposure_monitor_layout:
 * @width: the input frame's width, pixels
 * @height: its height, rows
 * @shares: the scopes' natural width in picture heights (clscope's
 *   shares: a waveform or histogram 2, a parade 1 a channel, a
 *   vectorscope 1), at least 1
 * @scopes_height: the scopes' height, rows; 0 for their natural height at
 *   the frame's width
 * @layout: (out): where the frame and the scopes lie
 *
 * The monitor's picture: the frame at the top left, as it came, and the
 * scopes under it, centred, as wide as the frame (clscope's largest,
 * 8192, at most). Left free, the scopes are as high as their panels'
 * natural shapes make them at that width (each share square, as clscope
 * sizes a picture left free), but no higher than the frame, so that a
 * wide, short frame is not dwarfed by its scopes; always an even number
 * of rows, so that 4:2:0 output splits no chroma row between the two.
 *
 * Returns: %FALSE if the frame is too small for clscope's smallest
 * picture (16x16) under it.
 */
gboolean
gst_cl_exposure_monitor_layout (guint width, guint height, guint shares,
    guint scopes_height, GstClExposureMonitorLayout *layout)
{
  guint sw, sh;

  memset (layout, 0, sizeof (*layout));
  if (width < GST_CL_EXPOSURE_MONITOR_MIN_SCOPES || height == 0
      || height > G_MAXUINT / 4)
    return FALSE;
  sw = MIN (width, GST_CL_EXPOSURE_MONITOR_MAX_SCOPES_WIDTH);
  sh = scopes_height ? scopes_height : MIN (sw / MAX (shares, 1), height);
  sh = CLAMP (sh, GST_CL_EXPOSURE_MONITOR_MIN_SCOPES,
      GST_CL_EXPOSURE_MONITOR_MAX_SCOPES_HEIGHT) & ~1u;

  layout->frame = (GstClExposureMonitorRect) {
  0, 0, width, height};
  layout->scopes = (GstClExposureMonitorRect) {
  (width - sw) / 2, height, sw, sh};
  layout->width = width;
  layout->height = height + sh;
  return TRUE;
}
