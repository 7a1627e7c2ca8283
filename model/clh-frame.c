/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-frame.h"

G_DEFINE_QUARK (clh-spec-error-quark, clh_spec_error)

/**
 * clh_sub_scale:
 * @size: pixels along one axis, at most %CLH_MAX_DIMENSION
 * @sub: log2 of a component's subsampling along it (w_sub or h_sub)
 *
 * Returns: `ceil (size / 2^sub)`: the component's samples along that
 *   axis, or, for a region's edge, the first sample whose co-sited pixel
 *   is at or past it
 */
guint
clh_sub_scale (guint size, guint sub)
{
  return (size + (1u << sub) - 1) >> sub;
}

static gboolean
unsupported (GError **error, const gchar *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
unsupported (GError **error, const gchar *format, ...)
{
  va_list args;

  if (error) {
    va_start (args, format);
    g_propagate_error (error, g_error_new_valist (CLH_SPEC_ERROR,
            CLH_SPEC_ERROR_UNSUPPORTED, format, args));
    va_end (args);
  }
  return FALSE;
}

/**
 * clh_component_width:
 * @frame: a frame
 * @component: index into its components
 *
 * Returns: samples per row of the component, `ceil (width / 2^w_sub)`
 */
guint
clh_component_width (const ClhFrame *frame, guint component)
{
  return clh_sub_scale (frame->width, frame->components[component].w_sub);
}

/**
 * clh_component_height:
 * @frame: a frame
 * @component: index into its components
 *
 * Returns: rows of the component, `ceil (height / 2^h_sub)`
 */
guint
clh_component_height (const ClhFrame *frame, guint component)
{
  return clh_sub_scale (frame->height, frame->components[component].h_sub);
}

/**
 * clh_frame_sample_bytes:
 * @frame: a frame
 *
 * Returns: bytes of one stored sample, 1 or 2
 */
guint
clh_frame_sample_bytes (const ClhFrame *frame)
{
  return frame->sample == CLH_SAMPLE_8 ? 1 : 2;
}

/**
 * clh_frame_plane_row_bytes:
 * @frame: a frame
 * @plane: index of a plane
 *
 * Returns: bytes of a row of @plane that its components read: one past the
 *   last byte of the last sample
 */
gsize
clh_frame_plane_row_bytes (const ClhFrame *frame, guint plane)
{
  gsize bytes = 0;
  guint c;

  for (c = 0; c < frame->n_components; c++) {
    const ClhComponent *comp = &frame->components[c];
    gsize end;

    if (comp->plane != plane)
      continue;
    end = comp->offset + (gsize) comp->pixel_stride *
        (clh_component_width (frame, c) - 1) + clh_frame_sample_bytes (frame);
    bytes = MAX (bytes, end);
  }
  return bytes;
}

/**
 * clh_frame_plane_rows:
 * @frame: a frame
 * @plane: index of a plane
 *
 * Returns: rows of @plane (its components' height), 0 if no component
 *   lives there
 */
guint
clh_frame_plane_rows (const ClhFrame *frame, guint plane)
{
  guint c;

  for (c = 0; c < frame->n_components; c++)
    if (frame->components[c].plane == plane)
      return clh_component_height (frame, c);
  return 0;
}

/**
 * clh_frame_plane_h_sub:
 * @frame: a frame
 * @plane: index of a plane
 *
 * Returns: log2 of @plane's vertical subsampling (that of its components)
 */
guint
clh_frame_plane_h_sub (const ClhFrame *frame, guint plane)
{
  guint c;

  for (c = 0; c < frame->n_components; c++)
    if (frame->components[c].plane == plane)
      return frame->components[c].h_sub;
  return 0;
}

/**
 * clh_frame_plane_span:
 * @frame: a valid frame
 * @plane: index of a plane
 *
 * Returns: the bytes from the plane's first byte to one past the last
 *   byte any component reads: `stride * (rows - 1) + row bytes`
 */
gsize
clh_frame_plane_span (const ClhFrame *frame, guint plane)
{
  return frame->planes[plane].stride * (clh_frame_plane_rows (frame, plane) - 1)
      + clh_frame_plane_row_bytes (frame, plane);
}

/**
 * clh_frame_is_valid:
 * @frame: a frame
 *
 * Returns: %TRUE if @frame has a size within 1..%CLH_MAX_DIMENSION, a depth
 *   its sample type holds, components inside its planes and every plane's
 *   rows at least as long as what its components read. Samples need not be
 *   aligned: the kernels read them a byte at a time.
 */
gboolean
clh_frame_is_valid (const ClhFrame *frame)
{
  const guint bytes = clh_frame_sample_bytes (frame);
  guint c, p;

  if (frame->width < 1 || frame->width > CLH_MAX_DIMENSION
      || frame->height < 1 || frame->height > CLH_MAX_DIMENSION
      || frame->depth < 1 || frame->depth > 8 * bytes
      || frame->n_planes < 1 || frame->n_planes > CLH_MAX_PLANES
      || frame->n_components < 1 || frame->n_components > CLH_MAX_COMPONENTS)
    return FALSE;

  for (c = 0; c < frame->n_components; c++) {
    const ClhComponent *comp = &frame->components[c];

    if (comp->plane >= frame->n_planes || comp->pixel_stride < bytes
        || comp->w_sub > 2 || comp->h_sub > 2
        || comp->shift + frame->depth > 8 * bytes)
      return FALSE;
  }
  for (p = 0; p < frame->n_planes; p++) {
    const ClhPlane *plane = &frame->planes[p];

    if (!plane->data || clh_frame_plane_rows (frame, p) == 0
        || plane->stride < clh_frame_plane_row_bytes (frame, p))
      return FALSE;
  }
  return TRUE;
}

static gboolean
spec_reads (const ClhHistogramSpec *spec, guint c)
{
  guint i;

  for (i = 0; i < spec->n_components && i < CLH_MAX_COMPONENTS; i++)
    if (spec->components[i] == c)
      return TRUE;
  return FALSE;
}

/* Where component @c's sample for pixel (@x, @y) lies in its plane, in
 * bytes from the plane's first byte. */
static gsize
component_byte_offset (const ClhFrame *frame, guint c, guint x, guint y)
{
  const ClhComponent *comp = &frame->components[c];

  return (gsize) (y >> comp->h_sub) * frame->planes[comp->plane].stride
      + (gsize) (x >> comp->w_sub) * comp->pixel_stride;
}

/* How far @plane's first byte moves for a rectangle at (@x, @y): the move
 * of the components @spec reads there, or of the first component there if
 * it reads none; FALSE if two components it reads disagree (a packed group
 * of samples split). */
static gboolean
plane_crop_offset (const ClhFrame *frame, guint plane,
    const ClhHistogramSpec *spec, guint x, guint y, gsize *offset)
{
  gboolean found = FALSE, read_found = FALSE;
  guint c;

  for (c = 0; c < frame->n_components; c++) {
    const gsize off = component_byte_offset (frame, c, x, y);
    const gboolean read = spec_reads (spec, c);

    if (frame->components[c].plane != plane)
      continue;
    if (read && read_found && off != *offset)
      return FALSE;
    if (!found || (read && !read_found))
      *offset = off;
    found = TRUE;
    read_found = read_found || read;
  }
  return TRUE;
}

/* Whether every component @spec reads starts a sample at (@x, @y). */
static gboolean
on_sample_grid (const ClhFrame *frame, const ClhHistogramSpec *spec,
    guint x, guint y, guint *component)
{
  guint c;

  for (c = 0; c < frame->n_components; c++) {
    const ClhComponent *comp = &frame->components[c];

    if (spec_reads (spec, c) && ((x & ((1u << comp->w_sub) - 1))
            || (y & ((1u << comp->h_sub) - 1)))) {
      *component = c;
      return FALSE;
    }
  }
  return TRUE;
}

/**
 * clh_rect_clip:
 * @rect: (inout): a rectangle
 * @width: the frame's width, pixels
 * @height: the frame's height, rows
 *
 * Clips @rect to the frame. A rectangle wholly outside it, or empty,
 * becomes one of no pixels (width and height 0) with x and y clamped into
 * the frame, so that it still says where it was.
 */
void
clh_rect_clip (ClhRect *rect, guint width, guint height)
{
  const gint64 x0 = CLAMP ((gint64) rect->x, 0, (gint64) width);
  const gint64 y0 = CLAMP ((gint64) rect->y, 0, (gint64) height);
  const gint64 x1 = CLAMP ((gint64) rect->x + MAX (rect->width, 0), 0,
      (gint64) width);
  const gint64 y1 = CLAMP ((gint64) rect->y + MAX (rect->height, 0), 0,
      (gint64) height);

  if (x1 <= x0 || y1 <= y0) {
    rect->x = (gint) MIN (x0, (gint64) width - 1);
    rect->y = (gint) MIN (y0, (gint64) height - 1);
    rect->width = rect->height = 0;
    return;
  }
  rect->x = (gint) x0;
  rect->y = (gint) y0;
  rect->width = (gint) (x1 - x0);
  rect->height = (gint) (y1 - y0);
}

/**
 * clh_zone_rect:
 * @width: the frame's width, pixels
 * @height: the frame's height, rows
 * @cols: zones across, >= 1
 * @rows: zones down, >= 1
 * @i: the zone's column, 0..@cols - 1
 * @j: the zone's row, 0..@rows - 1
 * @rect: (out): the zone: columns `[i * width / cols, (i + 1) * width /
 *   cols)` and rows `[j * height / rows, (j + 1) * height / rows)`, in
 *   integer division, so that the zones tile the frame
 *
 * Zone (@i, @j) of a @cols x @rows grid over the frame; a grid finer than
 * the frame has empty zones.
 */
void
clh_zone_rect (guint width, guint height, guint cols, guint rows, guint i,
    guint j, ClhRect *rect)
{
  const guint64 x0 = (guint64) i * width / cols;
  const guint64 y0 = (guint64) j * height / rows;

  rect->x = (gint) x0;
  rect->y = (gint) y0;
  rect->width = (gint) ((guint64) (i + 1) * width / cols - x0);
  rect->height = (gint) ((guint64) (j + 1) * height / rows - y0);
}

/* The word for place @k of @n (at most 3) along one axis: @first for the
 * first, @last for the last; NULL where @n is 1 or @k the middle of 3. */
static const gchar *
axis_word (guint n, guint k, const gchar *first, const gchar *last)
{
  if (n == 1 || (n == 3 && k == 1))
    return NULL;
  return k == 0 ? first : last;
}

/**
 * clh_zone_position:
 * @cols: zones across, >= 1
 * @rows: zones down, >= 1
 * @i: the zone's column, 0..@cols - 1, 0 at the left
 * @j: the zone's row, 0..@rows - 1, 0 at the top
 * @position: (out): the name, at most @size bytes with its NUL
 *   (CLH_ZONE_POSITION_SIZE holds every name)
 * @size: bytes at @position
 *
 * The name an operator gives zone (@i, @j). In a grid of at most 3 x 3 it
 * is in words: the row's (`top`, `bottom`; none for the middle of 3 rows
 * or a single row) then the column's (`left`, `right`; none for the
 * middle of 3 columns or a single column), joined by `-`; one word where
 * the other is none; `centre` where both are ("top-left", "top",
 * "left", "centre" of 3x3; "top-left", "bottom-right" of 2x2; "left",
 * "centre", "right" of 3x1). Wider or taller grids, whose words would
 * name several zones, give `r<row>c<column>` with the same 0-based
 * numbers ("r0c0" at the top left, "r2c4" the third row's fifth zone).
 * Each name is one zone's within its grid.
 */
void
clh_zone_position (guint cols, guint rows, guint i, guint j,
    gchar *position, gsize size)
{
  const gchar *row, *column;

  if (cols > 3 || rows > 3) {
    g_snprintf (position, size, "r%uc%u", j, i);
    return;
  }
  row = axis_word (rows, j, "top", "bottom");
  column = axis_word (cols, i, "left", "right");
  if (row && column)
    g_snprintf (position, size, "%s-%s", row, column);
  else
    g_strlcpy (position, row ? row : column ? column : "centre", size);
}

/**
 * clh_frame_crop:
 * @frame: a valid frame, its planes set; narrowed in place
 * @x: the rectangle's left column, in pixels
 * @y: the rectangle's top row, in pixels
 * @width: the rectangle's width, in pixels, >= 1
 * @height: the rectangle's height, in pixels, >= 1
 * @spec: the request the narrowed frame will be counted with
 * @error: (out) (optional): %CLH_SPEC_ERROR_UNSUPPORTED if the rectangle
 *   is not inside the frame, or if a subsampled component @spec reads
 *   does not start a sample at (@x, @y) (4:2:0 chroma at an odd @x or @y)
 *
 * Narrows @frame to a rectangle of its pixels without copying: each plane
 * starts at the rectangle's first sample and the frame takes its size.
 * Since a component @spec reads starts on its subsampling grid, the
 * narrowed frame holds exactly the samples whose co-sited luma pixel
 * (`x << w_sub`, `y << h_sub`) lies in the rectangle. On failure @frame is
 * unchanged.
 *
 * Returns: %TRUE if @frame now describes the rectangle
 */
gboolean
clh_frame_crop (ClhFrame *frame, guint x, guint y, guint width, guint height,
    const ClhHistogramSpec *spec, GError **error)
{
  gsize offsets[CLH_MAX_PLANES];
  guint p, c;

  if (width < 1 || height < 1 || x > frame->width
      || width > frame->width - x || y > frame->height
      || height > frame->height - y)
    return unsupported (error, "the rectangle %ux%u at (%u, %u) is not "
        "inside the %ux%u frame", width, height, x, y, frame->width,
        frame->height);
  if (!on_sample_grid (frame, spec, x, y, &c))
    return unsupported (error, "the rectangle's corner (%u, %u) is not on "
        "component %u's %ux%u subsampling grid, so its samples cannot be "
        "told apart from its neighbours'", x, y, c,
        1u << frame->components[c].w_sub, 1u << frame->components[c].h_sub);
  for (p = 0; p < frame->n_planes; p++)
    if (!plane_crop_offset (frame, p, spec, x, y, &offsets[p]))
      return unsupported (error, "the rectangle's left edge x = %u splits "
          "a group of samples packed together in plane %u", x, p);

  for (p = 0; p < frame->n_planes; p++)
    frame->planes[p].data += offsets[p];
  frame->width = width;
  frame->height = height;
  return TRUE;
}

/**
 * clh_histogram_spec_set_first_components:
 * @spec: a request
 * @n: components, 1..%CLH_MAX_COMPONENTS
 *
 * Has @spec read the frame's first @n components in the format's order
 * (R, G, B[, A] or Y[, U, V]).
 */
void
clh_histogram_spec_set_first_components (ClhHistogramSpec *spec, guint n)
{
  guint i;

  g_return_if_fail (n >= 1 && n <= CLH_MAX_COMPONENTS);
  spec->n_components = n;
  for (i = 0; i < n; i++)
    spec->components[i] = i;
}

/**
 * clh_histogram_spec_n_channels:
 * @spec: a request
 *
 * Returns: histograms the request produces: one per component for
 *   %CLH_COUNT_COMPONENTS, else 1
 */
guint
clh_histogram_spec_n_channels (const ClhHistogramSpec *spec)
{
  return spec->count == CLH_COUNT_COMPONENTS ? spec->n_components : 1;
}

/**
 * clh_histogram_spec_n_bins:
 * @spec: a request
 *
 * Returns: counters per channel: @bins, or `bins^2` for
 *   %CLH_COUNT_HUE_SATURATION, `bins^3` for %CLH_COUNT_RGB
 */
guint
clh_histogram_spec_n_bins (const ClhHistogramSpec *spec)
{
  switch (spec->count) {
    case CLH_COUNT_HUE_SATURATION:
      return spec->bins * spec->bins;
    case CLH_COUNT_RGB:
      return spec->bins * spec->bins * spec->bins;
    default:
      return spec->bins;
  }
}

/* Most bins a channel of @depth-bit samples may have: 256 for 8-bit, 4096
 * up to 12-bit, 65536 for 16-bit. */
static guint
max_bins_for_depth (guint depth)
{
  if (depth <= 8)
    return 256;
  return depth <= 12 ? 4096 : 65536;
}

static gboolean
check_components_spec (const ClhHistogramSpec *spec, const ClhFrame *frame,
    GError **error)
{
  const guint max_value = (1u << frame->depth) - 1;
  const guint max_bins = max_bins_for_depth (frame->depth);

  if (spec->n_components < 1 || spec->n_components > CLH_MAX_CHANNELS)
    return unsupported (error, "%u components requested; 1 to %u can be "
        "counted", spec->n_components, CLH_MAX_CHANNELS);
  if (spec->bins > max_bins)
    return unsupported (error, "%u bins requested for %u-bit samples; at "
        "most %u", spec->bins, frame->depth, max_bins);
  if (spec->range_min > spec->range_max || spec->range_max > max_value)
    return unsupported (error, "range %u..%u does not fit %u-bit samples "
        "(0..%u)", spec->range_min, spec->range_max, frame->depth, max_value);
  return TRUE;
}

static gboolean
check_colour_spec (const ClhHistogramSpec *spec, const ClhFrame *frame,
    GError **error)
{
  if (frame->depth != 8 || frame->sample != CLH_SAMPLE_8)
    return unsupported (error, "colour counts need 8-bit samples, the "
        "format has %u-bit ones", frame->depth);
  if (spec->n_components < 3 || spec->n_components > 4
      || (spec->n_components == 4 && spec->count != CLH_COUNT_MAX))
    return unsupported (error, "colour counts read R, G, B (and A for max) "
        "or Y, U, V; %u components given", spec->n_components);
  if (spec->color == CLH_COLOR_YUV_BT601
      && (spec->count == CLH_COUNT_LUMA || spec->count == CLH_COUNT_MAX
          || spec->count == CLH_COUNT_RGB))
    return unsupported (error, "luma, max and rgb counts of YUV frames are "
        "not colour conversions: count the Y plane, or convert the frame");

  switch (spec->count) {
    case CLH_COUNT_LUMA:
    case CLH_COUNT_MAX:
      if (spec->bins > 256 || spec->range_min > spec->range_max
          || spec->range_max > 255)
        return unsupported (error, "%u bins over %u..%u do not fit 8-bit "
            "values", spec->bins, spec->range_min, spec->range_max);
      return TRUE;
    case CLH_COUNT_HUE:
    case CLH_COUNT_HUE_SATURATION:
      if (spec->bins > 180)
        return unsupported (error, "%u hue bins requested; hue has 180 "
            "values (0..179)", spec->bins);
      return TRUE;
    case CLH_COUNT_RGB:
      if (spec->bins > 40)
        return unsupported (error, "%u bins per axis make %u joint RGB bins; "
            "at most 40 per axis (%u bins)", spec->bins,
            spec->bins * spec->bins * spec->bins, 40 * 40 * 40);
      return TRUE;
    default:
      return unsupported (error, "unknown count %d", spec->count);
  }
}

/**
 * clh_histogram_spec_is_valid:
 * @spec: a request
 * @frame: a valid frame it will be applied to
 * @error: (out) (optional): %CLH_SPEC_ERROR_UNSUPPORTED, saying what does
 *   not fit and why
 *
 * Returns: %TRUE if @spec can be counted on @frame.
 */
gboolean
clh_histogram_spec_is_valid (const ClhHistogramSpec *spec,
    const ClhFrame *frame, GError **error)
{
  guint i;

  if (spec->bins < 1)
    return unsupported (error, "at least one bin is needed");
  for (i = 0; i < spec->n_components && i < CLH_MAX_COMPONENTS; i++)
    if (spec->components[i] >= frame->n_components)
      return unsupported (error, "component %u requested of a frame with %u",
          spec->components[i], frame->n_components);

  if (spec->count == CLH_COUNT_COMPONENTS)
    return check_components_spec (spec, frame, error);
  return check_colour_spec (spec, frame, error);
}

/**
 * clh_histogram_set_region_samples:
 * @histogram: a result
 * @spec: its request
 * @frame: its frame
 * @region: the rectangle counted, clipped to @frame (clh_rect_clip())
 *
 * Sets @histogram's samples for a region: its pixel count for colour
 * counts; for each component the samples whose co-sited pixel
 * (`x << w_sub`, `y << h_sub`) lies in @region, `(ceil (x1 / 2^w_sub) -
 * ceil (x0 / 2^w_sub)) x (ceil (y1 / 2^h_sub) - ceil (y0 / 2^h_sub))` for
 * the region's columns [x0, x1) and rows [y0, y1).
 */
void
clh_histogram_set_region_samples (ClhHistogram *histogram,
    const ClhHistogramSpec *spec, const ClhFrame *frame,
    const ClhRect *region)
{
  const guint x0 = region->x, y0 = region->y;
  const guint x1 = x0 + region->width, y1 = y0 + region->height;
  guint c;

  for (c = 0; c < CLH_MAX_CHANNELS; c++)
    histogram->samples[c] = 0;
  if (spec->count != CLH_COUNT_COMPONENTS) {
    histogram->samples[0] = (guint64) region->width * region->height;
    return;
  }
  for (c = 0; c < spec->n_components; c++) {
    const ClhComponent *comp = &frame->components[spec->components[c]];

    histogram->samples[c] = (guint64) (clh_sub_scale (x1, comp->w_sub)
        - clh_sub_scale (x0, comp->w_sub)) * (clh_sub_scale (y1, comp->h_sub)
        - clh_sub_scale (y0, comp->h_sub));
  }
}

/**
 * clh_histogram_set_samples:
 * @histogram: a result
 * @spec: its request
 * @frame: its frame
 *
 * Sets @histogram's samples: each component's sample count, or the frame's
 * pixel count for colour counts.
 */
void
clh_histogram_set_samples (ClhHistogram *histogram,
    const ClhHistogramSpec *spec, const ClhFrame *frame)
{
  const ClhRect whole = { 0, 0, (gint) frame->width, (gint) frame->height };

  clh_histogram_set_region_samples (histogram, spec, frame, &whole);
}
