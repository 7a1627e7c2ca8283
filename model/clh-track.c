/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The shape of a back-projection request. */
#include "clh-track.h"

/**
 * clh_backproject_spec_n_axes:
 *
 * Returns: the axes @spec bins a pixel along: 3 for %CLH_COUNT_RGB, 2 for
 *   %CLH_COUNT_HUE_SATURATION, else 1.
 */
guint
clh_backproject_spec_n_axes (const ClhBackprojectSpec *spec)
{
  switch (spec->count) {
    case CLH_COUNT_RGB:
      return 3;
    case CLH_COUNT_HUE_SATURATION:
      return 2;
    default:
      return 1;
  }
}

/**
 * clh_backproject_spec_n_bins:
 *
 * Returns: the entries of @spec's model, `bins^axes`.
 */
guint
clh_backproject_spec_n_bins (const ClhBackprojectSpec *spec)
{
  guint n = 1, a;

  for (a = 0; a < clh_backproject_spec_n_axes (spec); a++)
    n *= spec->bins;
  return n;
}
