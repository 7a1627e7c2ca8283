/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-levels.h"

#include <math.h>

/**
 * clh_levels_nominal:
 * @depth: bits per sample value, 1..16
 * @limited: whether the stream is limited ("studio", 16-235) range, as
 *   its caps' colorimetry says
 * @chroma: whether the channel is a colour difference (U, V, Cb, Cr)
 *
 * Limited range puts black at 16 and white at 235 (luma, and R, G, B) or
 * the colour differences at 16..240 (ITU-R BT.601 section 2.5.3,
 * BT.709 item 6.10), scaled by 2^(depth - 8) for 10, 12 and 16 bits as
 * BT.2100 table 9 scales them. Full range puts them at the extreme codes,
 * 0 and 2^@depth - 1.
 *
 * Returns: the channel's nominal black and white
 */
ClhLevels
clh_levels_nominal (guint depth, gboolean limited, gboolean chroma)
{
  const guint shift = depth > 8 ? depth - 8 : 0;
  ClhLevels levels;

  g_return_val_if_fail (depth >= 1 && depth <= 16, ((ClhLevels) { 0, 0, 0 }));

  levels.top = (1u << depth) - 1;
  if (limited && depth >= 8) {
    levels.black = 16u << shift;
    levels.white = (chroma ? 240u : 235u) << shift;
  } else {
    levels.black = 0;
    levels.white = levels.top;
  }
  return levels;
}

/**
 * clh_levels_at_percent:
 * @levels: a channel's nominal range
 * @percent: a level in percent of it: 0 is black, 100 white; values
 *   outside 0..100 reach into the footroom and headroom
 *
 * Returns: the code value nearest to `black + percent / 100 * (white -
 *   black)` (halves rounded up), clamped to 0..top: 95% of 8-bit
 *   limited luma is 224, of full range 242
 */
guint
clh_levels_at_percent (const ClhLevels *levels, gdouble percent)
{
  const gdouble span = (gdouble) levels->white - levels->black;
  const gdouble code = floor (levels->black + percent * span / 100.0 + 0.5);

  if (!(code > 0.0))
    return 0;
  if (code > levels->top)
    return levels->top;
  return (guint) code;
}
