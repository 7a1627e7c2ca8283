/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-marks-spec.h"

static gboolean
unsupported (GError **error, const gchar *why)
{
  g_set_error_literal (error, CLH_SPEC_ERROR, CLH_SPEC_ERROR_UNSUPPORTED,
      why);
  return FALSE;
}

static guint
layout_components (ClhMarksLayout layout)
{
  return layout == CLH_MARKS_GRAY ? 1 : 3;
}

/* The components' places: each listed once, the luma (and RGB's three)
 * not subsampled, U and V subsampled alike, at most 4 x 4 pixels a chroma
 * sample. */
static gboolean
check_components (const ClhMarksSpec *spec, const ClhFrame *frame,
    GError **error)
{
  const guint n = layout_components (spec->layout);
  guint i, j;

  for (i = 0; i < n; i++) {
    const ClhComponent *c;

    if (spec->components[i] >= frame->n_components)
      return unsupported (error, "a component the frame does not have");
    for (j = 0; j < i; j++)
      if (spec->components[j] == spec->components[i])
        return unsupported (error, "a component listed twice");
    c = &frame->components[spec->components[i]];
    if ((i == 0 || spec->layout == CLH_MARKS_RGB) && (c->w_sub || c->h_sub))
      return unsupported (error, "a subsampled luma or RGB component");
    if (c->w_sub > 2 || c->h_sub > 2)
      return unsupported (error, "chroma subsampled more than 4 x 4");
  }
  if (spec->layout == CLH_MARKS_YUV) {
    const ClhComponent *u = &frame->components[spec->components[1]];
    const ClhComponent *v = &frame->components[spec->components[2]];

    if (u->w_sub != v->w_sub || u->h_sub != v->h_sub)
      return unsupported (error, "U and V subsampled differently");
  }
  if (spec->layout == CLH_MARKS_RGB && frame->sample != CLH_SAMPLE_8)
    return unsupported (error, "RGB marks read 8-bit samples");
  return TRUE;
}

static gboolean
colour_fits (const ClhMarkColour *colour, guint top)
{
  return colour->values[0] <= top && colour->values[1] <= top
      && colour->values[2] <= top;
}

static gboolean
check_bands (const ClhMarksSpec *spec, guint top, GError **error)
{
  guint i;

  if (spec->n_bands < 1 || spec->n_bands > CLH_MARKS_MAX_BANDS)
    return unsupported (error, "1 to 16 false-colour bands");
  if (spec->bands[0].first != 0)
    return unsupported (error, "the first false-colour band starts at 0");
  for (i = 0; i < spec->n_bands; i++) {
    if (i > 0 && spec->bands[i].first < spec->bands[i - 1].first)
      return unsupported (error, "false-colour bands out of order");
    if (spec->bands[i].style > CLH_MARK_BAND_NONE)
      return unsupported (error, "an unknown band style");
    if (spec->bands[i].style == CLH_MARK_BAND_COLOUR
        && !colour_fits (&spec->bands[i].colour, top))
      return unsupported (error, "a band colour beyond the frame's depth");
  }
  return TRUE;
}

/**
 * clh_marks_spec_is_valid:
 * @spec: the marks
 * @frame: the frame they are drawn on (its format; the planes are not
 *   read)
 * @error: %CLH_SPEC_ERROR_UNSUPPORTED, saying what does not fit
 *
 * Whether @spec can be drawn on @frame: the components are the layout's
 * and placed as #ClhMarksLayout says, the zebra's period and phase and the
 * false-colour table (when on) as #ClhMarksSpec says, a known legend
 * corner, every colour within the frame's depth.
 *
 * Returns: %TRUE if it can
 */
gboolean
clh_marks_spec_is_valid (const ClhMarksSpec *spec, const ClhFrame *frame,
    GError **error)
{
  const guint all = CLH_MARK_ZEBRA | CLH_MARK_ZEBRA_LOW
      | CLH_MARK_FALSE_COLOUR | CLH_MARK_BRNG;
  guint top;

  if (!clh_frame_is_valid (frame))
    return unsupported (error, "not a valid frame");
  top = frame->depth >= 16 ? 0xffffu : (1u << frame->depth) - 1;
  if (spec->marks & ~all)
    return unsupported (error, "an unknown mark");
  if (spec->layout != CLH_MARKS_GRAY && spec->layout != CLH_MARKS_RGB
      && spec->layout != CLH_MARKS_YUV)
    return unsupported (error, "an unknown layout");
  if (frame->depth < 8)
    return unsupported (error, "samples of fewer than 8 bits");
  if (!check_components (spec, frame, error))
    return FALSE;
  if (spec->zebra_period < 2 || spec->zebra_period > CLH_MARKS_MAX_PERIOD
      || spec->zebra_phase >= spec->zebra_period)
    return unsupported (error, "a zebra period of 2 to 1024 pixels, and a "
        "phase under it");
  if (!colour_fits (&spec->zebra_colour, top)
      || !colour_fits (&spec->zebra_low_colour, top)
      || !colour_fits (&spec->brng_colour, top))
    return unsupported (error, "a mark colour beyond the frame's depth");
  if ((spec->marks & CLH_MARK_FALSE_COLOUR) && !check_bands (spec, top,
          error))
    return FALSE;
  if (spec->legend > CLH_MARKS_LEGEND_BOTTOM_RIGHT)
    return unsupported (error, "an unknown legend corner");
  if (spec->legend != CLH_MARKS_LEGEND_NONE
      && (!colour_fits (&spec->legend_ink, top)
          || !colour_fits (&spec->legend_paper, top)))
    return unsupported (error, "a legend colour beyond the frame's depth");
  return TRUE;
}
