/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-reference.h"

#include <string.h>

/**
 * clh_reference_luma:
 * @r: red sample
 * @g: green sample
 * @b: blue sample
 *
 * BT.601 luma with the fixed-point rounding of OpenCV 4's RGB->GRAY
 * (`cv::cvtColor (..., COLOR_RGB2GRAY)`, 15-bit coefficients).
 *
 * Returns: `(9798 R + 19235 G + 3735 B + 16384) >> 15`
 */
guint8
clh_reference_luma (guint8 r, guint8 g, guint8 b)
{
  return (guint8) ((9798u * r + 19235u * g + 3735u * b + 16384u) >> 15);
}

/* round (n / d) for the positive ratios of OpenCV's HSV tables; none of
 * them is a tie, so the rounding direction of cvRound does not matter. */
static gint
div_round (gint n, gint d)
{
  return (2 * n + d) / (2 * d);
}

/**
 * clh_reference_hsv:
 * @r: red
 * @g: green
 * @b: blue
 * @h: (out): hue, 0..179
 * @s: (out): saturation, 0..255
 * @v: (out): value, max (R, G, B)
 *
 * OpenCV's 8-bit RGB->HSV (`cv::cvtColor (..., COLOR_RGB2HSV)`, the scalar
 * RGB2HSV_b with 12-bit fixed-point division tables
 * `sdiv[i] = round (255 * 2^12 / i)`, `hdiv[i] = round (180 * 2^12 / (6 i))`).
 */
void
clh_reference_hsv (guint8 r, guint8 g, guint8 b, guint8 *h, guint8 *s,
    guint8 *v)
{
  const gint shift = 12, half = 1 << (shift - 1);
  gint vmax = MAX (MAX (r, g), b), vmin = MIN (MIN (r, g), b);
  gint diff = vmax - vmin, hue;
  gint sdiv = vmax ? div_round (255 << shift, vmax) : 0;
  gint hdiv = diff ? div_round (180 << shift, 6 * diff) : 0;

  if (vmax == r)
    hue = g - b;
  else if (vmax == g)
    hue = b - r + 2 * diff;
  else
    hue = r - g + 4 * diff;
  hue = (hue * hdiv + half) >> shift;
  if (hue < 0)
    hue += 180;

  *h = (guint8) hue;
  *s = (guint8) ((diff * sdiv + half) >> shift);
  *v = (guint8) vmax;
}

/**
 * clh_reference_yuv_to_rgb:
 * @y: luma, limited range
 * @u: Cb
 * @v: Cr
 * @r: (out): red
 * @g: (out): green
 * @b: (out): blue
 *
 * BT.601 limited-range Y'CbCr to R'G'B' with OpenCV's 20-bit fixed-point
 * coefficients (`COLOR_YUV2RGB_I420`, `ITUR_BT_601_C*`), saturated to 0..255.
 */
void
clh_reference_yuv_to_rgb (guint8 y, guint8 u, guint8 v, guint8 *r,
    guint8 *g, guint8 *b)
{
  const gint shift = 20, half = 1 << (shift - 1);
  const gint cy = 1220542, cub = 2116026, cug = -409993, cvg = -852492,
      cvr = 1673527;
  gint yy = MAX (0, (gint) y - 16) * cy, uu = (gint) u - 128,
      vv = (gint) v - 128;

  *r = CLAMP ((yy + half + cvr * vv) >> shift, 0, 255);
  *g = CLAMP ((yy + half + cvg * vv + cug * uu) >> shift, 0, 255);
  *b = CLAMP ((yy + half + cub * uu) >> shift, 0, 255);
}

/**
 * clh_reference_sample:
 * @frame: a valid frame
 * @component: index of a component
 * @x: column in the component's own (subsampled) grid
 * @y: row in the component's own grid
 *
 * Returns: the sample's value, `(stored >> shift) & (2^depth - 1)`
 */
guint
clh_reference_sample (const ClhFrame *frame, guint component, guint x,
    guint y)
{
  const ClhComponent *comp = &frame->components[component];
  const ClhPlane *plane = &frame->planes[comp->plane];
  const guint8 *p = plane->data + plane->stride * y + comp->offset
      + (gsize) comp->pixel_stride * x;
  guint stored;

  switch (frame->sample) {
    case CLH_SAMPLE_8:
      stored = p[0];
      break;
    case CLH_SAMPLE_16LE:
      stored = p[0] | (p[1] << 8);
      break;
    default:
      stored = (p[0] << 8) | p[1];
      break;
  }
  return (stored >> comp->shift) & ((1u << frame->depth) - 1);
}

/* The reference's own geometry. It works out on its own what the model's
 * functions (clh-frame.c) also compute, so that a slip there shows up as a
 * mismatch, not as the same wrong answer on both sides. */

/**
 * clh_reference_clip:
 * @region: a rectangle of pixels, anywhere, of any size
 * @width: the frame's width, pixels
 * @height: the frame's height, rows
 * @clipped: (out): the pixels of @region that lie in the frame: x in
 *   `[clipped.x, clipped.x + clipped.width)`, likewise y; an empty
 *   rectangle (width or height 0) if none do
 */
void
clh_reference_clip (const ClhRect *region, guint width, guint height,
    ClhRect *clipped)
{
  /* The first and one-past-last pixel on each axis, in 64 bits so that
   * x + width cannot wrap; then intersected with [0, size). */
  gint64 left = region->x, top = region->y;
  gint64 right = region->width > 0 ? left + region->width : left;
  gint64 bottom = region->height > 0 ? top + region->height : top;

  left = left < 0 ? 0 : left;
  top = top < 0 ? 0 : top;
  right = right > (gint64) width ? (gint64) width : right;
  bottom = bottom > (gint64) height ? (gint64) height : bottom;
  if (left >= right || top >= bottom) {
    *clipped = (ClhRect) { 0, 0, 0, 0 };
    return;
  }
  *clipped = (ClhRect) { (gint) left, (gint) top, (gint) (right - left),
    (gint) (bottom - top) };
}

/**
 * clh_reference_n_channels:
 * @spec: a request
 *
 * Returns: the histograms @spec gives: one per listed component for
 *   %CLH_COUNT_COMPONENTS, one for a colour count
 */
guint
clh_reference_n_channels (const ClhHistogramSpec *spec)
{
  if (spec->count != CLH_COUNT_COMPONENTS)
    return 1;
  return spec->n_components;
}

/**
 * clh_reference_n_bins:
 * @spec: a request
 *
 * Returns: the counters of one of @spec's histograms: @bins per axis, over
 *   two axes for hue x saturation and three for joint RGB
 */
guint
clh_reference_n_bins (const ClhHistogramSpec *spec)
{
  guint axes = 1, n = 1, a;

  if (spec->count == CLH_COUNT_HUE_SATURATION)
    axes = 2;
  else if (spec->count == CLH_COUNT_RGB)
    axes = 3;
  for (a = 0; a < axes; a++)
    n *= spec->bins;
  return n;
}

/* Samples of a component along an axis of @size pixels subsampled by
 * 2^@sub: every pixel whose index is a multiple of 2^@sub has one. */
static guint
samples_along (guint size, guint sub)
{
  const guint step = 1u << sub;

  return size / step + (size % step != 0);
}

static guint
component_width (const ClhFrame *frame, guint comp)
{
  return samples_along (frame->width, frame->components[comp].w_sub);
}

static guint
component_height (const ClhFrame *frame, guint comp)
{
  return samples_along (frame->height, frame->components[comp].h_sub);
}

/* Counts @value into @counts over [range_min, range_max], or below/above. */
static void
count_ranged (const ClhHistogramSpec *spec, guint value, guint32 *counts,
    guint64 *below, guint64 *above)
{
  const guint64 size = (guint64) spec->range_max - spec->range_min + 1;

  if (value < spec->range_min)
    (*below)++;
  else if (value > spec->range_max)
    (*above)++;
  else
    counts[(value - spec->range_min) * (guint64) spec->bins / size]++;
}

/* Whether pixel (x, y) lies in @r. */
static gboolean
inside (const ClhRect *r, guint64 x, guint64 y)
{
  return x >= (guint64) r->x && x < (guint64) r->x + r->width
      && y >= (guint64) r->y && y < (guint64) r->y + r->height;
}

/* Each component's samples whose co-sited pixel (x << w_sub, y << h_sub)
 * lies in @r. */
static void
count_components (const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ClhRect *r, ClhHistogram *hist)
{
  const guint n_bins = spec->bins;
  guint c, x, y;

  for (c = 0; c < spec->n_components; c++) {
    const guint comp = spec->components[c];
    const ClhComponent *info = &frame->components[comp];
    const guint w = component_width (frame, comp);
    const guint h = component_height (frame, comp);

    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        if (!inside (r, (guint64) x << info->w_sub,
                (guint64) y << info->h_sub))
          continue;
        hist->samples[c]++;
        count_ranged (spec, clh_reference_sample (frame, comp, x, y),
            hist->counts + (gsize) c * n_bins, &hist->below[c],
            &hist->above[c]);
      }
  }
}

/* R, G, B and A (255 without alpha) of pixel (x, y). */
static void
pixel_rgba (const ClhFrame *frame, const ClhHistogramSpec *spec, guint x,
    guint y, guint8 rgba[4])
{
  const guint *c = spec->components;

  if (spec->color == CLH_COLOR_YUV_BT601) {
    const ClhComponent *u = &frame->components[c[1]];
    const ClhComponent *v = &frame->components[c[2]];

    clh_reference_yuv_to_rgb (clh_reference_sample (frame, c[0], x, y),
        clh_reference_sample (frame, c[1], x >> u->w_sub, y >> u->h_sub),
        clh_reference_sample (frame, c[2], x >> v->w_sub, y >> v->h_sub),
        &rgba[0], &rgba[1], &rgba[2]);
    rgba[3] = 255;
    return;
  }
  rgba[0] = clh_reference_sample (frame, c[0], x, y);
  rgba[1] = clh_reference_sample (frame, c[1], x, y);
  rgba[2] = clh_reference_sample (frame, c[2], x, y);
  rgba[3] = spec->n_components > 3 ?
      clh_reference_sample (frame, c[3], x, y) : 0;
}

/* The value a luma or max count takes of a pixel's R, G, B and A. */
static guint
value_1d (const ClhHistogramSpec *spec, const guint8 p[4])
{
  return spec->count == CLH_COUNT_LUMA ? clh_reference_luma (p[0], p[1],
      p[2]) : MAX (MAX (p[0], p[1]), MAX (p[2], p[3]));
}

/* Each pixel of @r, its chroma from the sample that covers it. */
static void
count_colour (const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ClhRect *r, ClhHistogram *hist)
{
  const guint bins = spec->bins;
  guint x, y;

  hist->samples[0] = (guint64) r->width * r->height;
  for (y = r->y; y < (guint) (r->y + r->height); y++)
    for (x = r->x; x < (guint) (r->x + r->width); x++) {
      guint8 p[4], h, s, v;

      pixel_rgba (frame, spec, x, y, p);
      switch (spec->count) {
        case CLH_COUNT_LUMA:
        case CLH_COUNT_MAX:
          count_ranged (spec, value_1d (spec, p), hist->counts,
              &hist->below[0], &hist->above[0]);
          break;
        case CLH_COUNT_HUE:
        case CLH_COUNT_HUE_SATURATION:
          clh_reference_hsv (p[0], p[1], p[2], &h, &s, &v);
          if (s < spec->min_saturation || v < spec->min_value)
            break;
          if (spec->count == CLH_COUNT_HUE)
            hist->counts[h * bins / 180]++;
          else
            hist->counts[(h * bins / 180) * bins + s * bins / 256]++;
          break;
        default:
          hist->counts[((p[0] * bins / 256) * bins + p[1] * bins / 256)
              * bins + p[2] * bins / 256]++;
          break;
      }
    }
}

/**
 * clh_reference_channel_values:
 * @frame: a valid frame (clh_frame_is_valid())
 * @spec: a 1-D request valid for @frame: its components, luma or max
 * @region: a rectangle of @frame's pixels, clipped here with
 *   clh_reference_clip()
 * @channel: the request's channel
 * @values: (element-type guint): where each value the channel examines in
 *   the region is appended, in raster order
 *
 * The sample values a channel of a 1-D request counts, whatever its bins
 * and range: a component's samples whose co-sited pixel lies in the
 * region; a pixel's luma or maximum for those modes.
 *
 * Returns: %FALSE for a colour count with no values per channel (hue,
 *   hue-saturation, rgb)
 */
gboolean
clh_reference_channel_values (const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *region, guint channel,
    GArray *values)
{
  ClhRect r;
  guint x, y, v;

  clh_reference_clip (region, frame->width, frame->height, &r);
  if (spec->count == CLH_COUNT_COMPONENTS) {
    const guint comp = spec->components[channel];
    const ClhComponent *info = &frame->components[comp];

    for (y = 0; y < component_height (frame, comp); y++)
      for (x = 0; x < component_width (frame, comp); x++)
        if (inside (&r, (guint64) x << info->w_sub,
                (guint64) y << info->h_sub)) {
          v = clh_reference_sample (frame, comp, x, y);
          g_array_append_val (values, v);
        }
    return TRUE;
  }
  if (spec->count != CLH_COUNT_LUMA && spec->count != CLH_COUNT_MAX)
    return FALSE;
  for (y = r.y; y < (guint) (r.y + r.height); y++)
    for (x = r.x; x < (guint) (r.x + r.width); x++) {
      guint8 p[4];

      pixel_rgba (frame, spec, x, y, p);
      v = value_1d (spec, p);
      g_array_append_val (values, v);
    }
  return TRUE;
}

/**
 * clh_reference_histogram_region:
 * @frame: a valid frame (clh_frame_is_valid())
 * @spec: a request valid for @frame (clh_histogram_spec_is_valid())
 * @region: a rectangle of @frame's pixels, clipped here with
 *   clh_reference_clip()
 * @histogram: (out caller-allocates): the result; its counts must hold
 *   `clh_histogram_spec_n_channels () * clh_histogram_spec_n_bins ()`
 *
 * Counts the region one sample at a time: a colour count every pixel in
 * it; a component count every sample whose co-sited pixel, `(x << w_sub,
 * y << h_sub)` for a subsampled component, lies in it. The samples each
 * channel examined are counted too.
 */
void
clh_reference_histogram_region (const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *region,
    ClhHistogram *histogram)
{
  ClhRect r;

  clh_reference_clip (region, frame->width, frame->height, &r);
  memset (histogram->counts, 0, sizeof (guint32)
      * clh_reference_n_channels (spec) * clh_reference_n_bins (spec));
  memset (histogram->samples, 0, sizeof (histogram->samples));
  memset (histogram->below, 0, sizeof (histogram->below));
  memset (histogram->above, 0, sizeof (histogram->above));

  if (spec->count == CLH_COUNT_COMPONENTS)
    count_components (frame, spec, &r, histogram);
  else
    count_colour (frame, spec, &r, histogram);
}

/**
 * clh_reference_histogram:
 * @frame: a valid frame (clh_frame_is_valid())
 * @spec: a request valid for @frame (clh_histogram_spec_is_valid())
 * @histogram: (out caller-allocates): the result; its counts must hold
 *   `clh_histogram_spec_n_channels () * clh_histogram_spec_n_bins ()`
 *
 * Counts @frame one sample at a time: the region of the whole frame.
 */
void
clh_reference_histogram (const ClhFrame *frame, const ClhHistogramSpec *spec,
    ClhHistogram *histogram)
{
  const ClhRect whole = { 0, 0, (gint) frame->width, (gint) frame->height };

  clh_reference_histogram_region (frame, spec, &whole, histogram);
}
