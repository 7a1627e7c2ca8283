/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram: what exposure marks on a frame are (zebra stripes, false
 * colour, BRNG), shared by the OpenCL engine and the golden reference.
 * Plain C over GLib types: no OpenCL, no GStreamer. */
#pragma once

#include "clh-frame.h"
#include "clh-marks-abi.h"

G_BEGIN_DECLS

/* False-colour bands a table may have. */
#define CLH_MARKS_MAX_BANDS CLH_ABI_MARKS_MAX_BANDS

/* The zebra's longest period, in pixels. */
#define CLH_MARKS_MAX_PERIOD 1024

/**
 * ClhMarkFlags:
 * @CLH_MARK_ZEBRA: diagonal stripes (rising to the right) over the pixels
 *   whose luma is at or above the zebra level
 * @CLH_MARK_ZEBRA_LOW: stripes the other way over the pixels whose luma is
 *   at or below the low zebra level
 * @CLH_MARK_FALSE_COLOUR: every pixel in the colour of its luma's band
 * @CLH_MARK_BRNG: the pixels FFmpeg's `signalstats` counts as BRNG (a
 *   sample outside the broadcast range) in the BRNG colour
 *
 * Which marks a frame gets. Where several mark one pixel, BRNG is drawn
 * over the zebra, the zebra over the low zebra, and those over the false
 * colour.
 */
typedef enum {
  CLH_MARK_ZEBRA = CLH_ABI_MARKS_ZEBRA,
  CLH_MARK_ZEBRA_LOW = CLH_ABI_MARKS_ZEBRA_LOW,
  CLH_MARK_FALSE_COLOUR = CLH_ABI_MARKS_FALSE_COLOUR,
  CLH_MARK_BRNG = CLH_ABI_MARKS_BRNG,
} ClhMarkFlags;

/**
 * ClhMarksLayout:
 * @CLH_MARKS_GRAY: one component, Y
 * @CLH_MARKS_RGB: R, G, B (8-bit); a pixel's luma is BT.601's with OpenCV's
 *   RGB->GRAY rounding, `(9798 R + 19235 G + 3735 B + 16384) >> 15`, the
 *   luma clhistogram counts for RGB
 * @CLH_MARKS_YUV: Y, U, V; U and V subsampled alike (or not at all)
 *
 * What a frame's components are, for the marks.
 */
typedef enum {
  CLH_MARKS_GRAY = CLH_ABI_MARKS_GRAY,
  CLH_MARKS_RGB = CLH_ABI_MARKS_RGB,
  CLH_MARKS_YUV = CLH_ABI_MARKS_YUV,
} ClhMarksLayout;

/**
 * ClhMarkColour:
 * @values: the colour's code values at the frame's depth, in the order of
 *   #ClhMarksSpec's components: Y, U, V or R, G, B (gray: Y alone)
 *
 * A mark's colour as the frame stores it.
 */
typedef struct {
  guint values[3];
} ClhMarkColour;

/**
 * ClhMarkBandStyle:
 * @CLH_MARK_BAND_COLOUR: the band's pixels in its colour
 * @CLH_MARK_BAND_GREY: the band's pixels as grey: their luma kept, chroma
 *   neutral (2^(depth - 1)); RGB: R = G = B = the luma
 * @CLH_MARK_BAND_NONE: the band's pixels as they are
 *
 * How a false-colour band shows its pixels.
 */
typedef enum {
  CLH_MARK_BAND_COLOUR,
  CLH_MARK_BAND_GREY,
  CLH_MARK_BAND_NONE,
} ClhMarkBandStyle;

/**
 * ClhMarkBand:
 * @first: the smallest luma code value in the band; it reaches up to the
 *   next band's @first (the last band, to the top code)
 * @style: how the band shows its pixels
 * @colour: the band's colour, for %CLH_MARK_BAND_COLOUR
 * @level: the band's lower edge in percent of the nominal range, as the
 *   user gave it, which the legend writes (the first band's is not read)
 *
 * One band of a false-colour table.
 */
typedef struct {
  guint first;
  ClhMarkBandStyle style;
  ClhMarkColour colour;
  gdouble level;
} ClhMarkBand;

/**
 * ClhMarksLegendCorner:
 * @CLH_MARKS_LEGEND_NONE: no legend
 * @CLH_MARKS_LEGEND_TOP_LEFT: in the frame's top-left corner
 * @CLH_MARKS_LEGEND_TOP_RIGHT: top-right
 * @CLH_MARKS_LEGEND_BOTTOM_LEFT: bottom-left
 * @CLH_MARKS_LEGEND_BOTTOM_RIGHT: bottom-right
 *
 * Where the false colour's legend is drawn (model/clh-marks-legend.h).
 */
typedef enum {
  CLH_MARKS_LEGEND_NONE,
  CLH_MARKS_LEGEND_TOP_LEFT,
  CLH_MARKS_LEGEND_TOP_RIGHT,
  CLH_MARKS_LEGEND_BOTTOM_LEFT,
  CLH_MARKS_LEGEND_BOTTOM_RIGHT,
} ClhMarksLegendCorner;

/**
 * ClhMarksSpec:
 * @marks: #ClhMarkFlags
 * @layout: what the components are
 * @components: indices into the frame's components: Y, U, V or R, G, B
 *   (gray: Y in [0]); others (alpha, padding) are never written
 * @zebra_level: luma code value from which the zebra stripes pixels
 * @zebra_low_level: luma code value up to which the low zebra stripes
 * @zebra_period: the stripes' period in pixels, 2..%CLH_MARKS_MAX_PERIOD:
 *   pixel (x, y) lies on a zebra stripe when
 *   `(x + y + zebra_phase) % zebra_period < zebra_period / 2`, on a low
 *   zebra stripe when `(x - y + zebra_phase) mod zebra_period` is
 * @zebra_phase: 0..@zebra_period - 1; stepping it moves the stripes
 * @zebra_colour: the zebra's stripes
 * @zebra_low_colour: the low zebra's stripes
 * @n_bands: bands in @bands, 1..%CLH_MARKS_MAX_BANDS (read with
 *   %CLH_MARK_FALSE_COLOUR)
 * @bands: the false-colour bands, by ascending @first, the first's 0
 * @brng_colour: the BRNG pixels'
 * @legend: where the false colour's legend goes, with
 *   %CLH_MARK_FALSE_COLOUR (clh_marks_legend_place())
 * @legend_ink: the legend's text
 * @legend_paper: the legend's ground
 *
 * The marks a frame gets. Pixels outside the broadcast range (BRNG) are
 * those with a luma, R, G or B sample under 16 or over 235, or whose
 * chroma sample is under 16 or over 240, each scaled by 2^(depth - 8)
 * (FFmpeg's `signalstats`, whatever the stream's range). A marked pixel's
 * samples are replaced by its mark's colour; a subsampled chroma sample
 * takes the colour of the highest mark among the pixels it covers (see
 * #ClhMarkFlags: a chroma sample is BRNG's if any of its pixels is, as
 * `signalstats=out=brng` paints it), and without marks is left as it
 * was. Only a component's bits of a stored sample change.
 */
typedef struct {
  guint marks;
  ClhMarksLayout layout;
  guint components[3];
  guint zebra_level;
  guint zebra_low_level;
  guint zebra_period;
  guint zebra_phase;
  ClhMarkColour zebra_colour;
  ClhMarkColour zebra_low_colour;
  guint n_bands;
  ClhMarkBand bands[CLH_MARKS_MAX_BANDS];
  ClhMarkColour brng_colour;
  ClhMarksLegendCorner legend;
  ClhMarkColour legend_ink;
  ClhMarkColour legend_paper;
} ClhMarksSpec;

gboolean clh_marks_spec_is_valid (const ClhMarksSpec *spec,
    const ClhFrame *frame, GError **error);

G_END_DECLS
