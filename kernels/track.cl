/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tracking kernels (OpenCL C 1.2): OpenCV's calcBackProject() and the
 * mean-shift part of CamShift() (modules/imgproc/src/histogram.cpp,
 * modules/video/src/camshift.cpp).
 *
 * A frame is back-projected once: each pixel's bin, found through one
 * table per axis that the host fills with OpenCV's own bin arithmetic
 * (calcHistLookupTables_8u: cvFloor (v * bins / range) in doubles, which
 * the integer v * bins / 180 does not always equal), then mapped through an
 * output table: the model's rounded values for clbackproject, or the bin
 * itself for CamShift, whose tracks each read that bin image through their
 * own model's table. One work-group per track then runs the whole
 * mean-shift loop on the window's moments in local memory, so that a
 * frame's tracking is one launch whatever the iterations. The moments are
 * exact 64-bit integer sums, as OpenCV's double sums of integers are, and
 * the window's shift cvRound (m10 / m00 - width / 2) is rounded exactly in
 * integers: the double quotient OpenCV rounds lies nearer to it than to any
 * other half-integer for every window of a 16384 x 16384 frame.
 */
#include "clh-track-abi.h"
#include "colour.cl"

/* Byte of component c at frame pixel (x, y). */
static uint
pixel_byte (global const uchar *src, const ClhParamsBackproject *p, uint c,
    uint x, uint y)
{
  return src[p->bases[c] + (y >> (p->subs[c] >> 4)) * p->pitches[c]
      + p->offsets[c] + (x >> (p->subs[c] & 15)) * p->pixel_strides[c]];
}

/* The bin of a pixel's colour, or CLH_ABI_BIN_OUT. */
static uint
colour_bin (const ClhParamsBackproject *p, global const ushort *axes,
    uint stored_y, int r, int g, int b, int h, int s)
{
  uint a0, a1, a2;

  switch (p->count) {
    case CLH_ABI_COUNT_LUMA:
      return axes[p->plain_luma ? stored_y :
          (9798u * r + 19235u * g + 3735u * b + 16384u) >> 15];
    case CLH_ABI_COUNT_HUE:
      return axes[h];
    case CLH_ABI_COUNT_HUE_SATURATION:
      a0 = axes[h];
      a1 = axes[256 + s];
      return a0 == CLH_ABI_BIN_OUT || a1 == CLH_ABI_BIN_OUT ?
          CLH_ABI_BIN_OUT : a0 * p->bins + a1;
    default:
      a0 = axes[r];
      a1 = axes[256 + g];
      a2 = axes[512 + b];
      return a0 == CLH_ABI_BIN_OUT || a1 == CLH_ABI_BIN_OUT
          || a2 == CLH_ABI_BIN_OUT ? CLH_ABI_BIN_OUT :
          (a0 * p->bins + a1) * p->bins + a2;
  }
}

/*
 * One pixel: its colour (YUV converted with BT.601 as histogram_colour
 * converts it), the mask, its bin, the output table's entry.
 */
kernel void
backproject (global const uchar *src, const ClhParamsBackproject p,
    global const ushort *axes, global const uchar *table, global uchar *dst)
{
  const uint x = get_global_id (0), y = get_global_id (1);
  uint out = p.outside, bin, stored_y;
  int r, g, b, h = 0, s = 0, v = 0;

  if (x >= p.width || y >= p.height)
    return;
  r = pixel_byte (src, &p, 0, x, y);
  g = pixel_byte (src, &p, 1, x, y);
  b = pixel_byte (src, &p, 2, x, y);
  stored_y = r;
  if (p.color == CLH_ABI_COLOR_YUV_BT601)
    yuv_to_rgb (r, g, b, &r, &g, &b);
  if (p.mask || p.count == CLH_ABI_COUNT_HUE
      || p.count == CLH_ABI_COUNT_HUE_SATURATION)
    rgb_to_hsv (r, g, b, &h, &s, &v);
  if (!p.mask || (s >= (int) p.min_saturation && v >= (int) p.min_value
          && v <= (int) p.max_value)) {
    bin = colour_bin (&p, axes, stored_y, r, g, b, h, s);
    if (bin != CLH_ABI_BIN_OUT)
      out = table[bin];
  }
  dst[y * p.dst_pitch + x] = (uchar) out;
}

/*
 * The histogram of each track's window (clipped on the host: x, y, width,
 * height) of the bin image: a CamShift model before its normalization.
 */
kernel void
window_histograms (global const uchar *image, const ClhParamsTrack p,
    global const int4 *windows, global uint *counts)
{
  local uint hist[256];
  const uint track = get_group_id (0), lid = get_local_id (0);
  const int4 w = windows[track];
  const uint n = (uint) w.z * (uint) w.w;

  for (uint i = lid; i < 256; i += CLH_ABI_TRACK_GROUP)
    hist[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < n; i += CLH_ABI_TRACK_GROUP) {
    const uint dy = i / (uint) w.z, dx = i - dy * (uint) w.z;
    const uint v = image[(w.y + dy) * p.pitch + w.x + dx];

    if (v < p.bins)
      atomic_inc (&hist[v]);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < p.bins; i += CLH_ABI_TRACK_GROUP)
    counts[track * p.bins + i] = hist[i];
}

/* OpenCV's Rect intersection with the frame: empty gives all zero. */
static int4
clip_to_frame (int4 r, int width, int height)
{
  const int x0 = max (r.x, 0), y0 = max (r.y, 0);
  const int x1 = min (r.x + r.z, width), y1 = min (r.y + r.w, height);

  if (r.z <= 0 || r.w <= 0 || x1 - x0 <= 0 || y1 - y0 <= 0)
    return (int4) (0);
  return (int4) (x0, y0, x1 - x0, y1 - y0);
}

/* cvRound (num / den) for den > 0: to nearest, ties to even, exactly. */
static long
round_ratio (long num, long den)
{
  long q = num / den, r = num - q * den;

  if (r < 0) {
    q--;
    r += den;
  }
  if (2 * r > den || (2 * r == den && (q & 1)))
    q++;
  return q;
}

/*
 * The first @n_moments of m00, m10, m01, m20, m11, m02 of window @w of the
 * bin image read through @table, in window coordinates, summed by the
 * group into sums[k * CLH_ABI_TRACK_GROUP].
 */
static void
window_moments (global const uchar *image, uint pitch,
    local const uchar *table, int4 w, local ulong *sums, uint n_moments)
{
  const uint lid = get_local_id (0), n = (uint) w.z * (uint) w.w;
  /* Each work-item's pixel, stepped on without a division per pixel. */
  const uint step_y = CLH_ABI_TRACK_GROUP / (uint) w.z;
  const uint step_x = CLH_ABI_TRACK_GROUP - step_y * (uint) w.z;
  uint dy = lid / (uint) w.z, dx = lid - dy * (uint) w.z;
  ulong m00 = 0, m10 = 0, m01 = 0, m20 = 0, m11 = 0, m02 = 0;

  for (uint i = lid; i < n; i += CLH_ABI_TRACK_GROUP) {
    const ulong v = table[image[(w.y + dy) * pitch + w.x + dx]];

    m00 += v;
    m10 += dx * v;
    m01 += dy * v;
    /* The search needs the first three only: half the multiplications. */
    if (n_moments > 3) {
      m20 += (ulong) (dx * dx) * v;
      m11 += (ulong) (dx * dy) * v;
      m02 += (ulong) (dy * dy) * v;
    }
    dx += step_x;
    dy += step_y;
    if (dx >= (uint) w.z) {
      dx -= w.z;
      dy++;
    }
  }
  sums[lid] = m00;
  sums[CLH_ABI_TRACK_GROUP + lid] = m10;
  sums[2 * CLH_ABI_TRACK_GROUP + lid] = m01;
  sums[3 * CLH_ABI_TRACK_GROUP + lid] = m20;
  sums[4 * CLH_ABI_TRACK_GROUP + lid] = m11;
  sums[5 * CLH_ABI_TRACK_GROUP + lid] = m02;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint step = CLH_ABI_TRACK_GROUP / 2; step > 0; step >>= 1) {
    if (lid < step)
      for (uint k = 0; k < n_moments; k++)
        sums[k * CLH_ABI_TRACK_GROUP + lid] +=
            sums[k * CLH_ABI_TRACK_GROUP + lid + step];
    barrier (CLK_LOCAL_MEM_FENCE);
  }
}

/* One step of cv::meanShift on @cur; FALSE once it stops. */
static bool
shift_window (local int4 *cur, int4 start, ulong m00, ulong m10, ulong m01,
    int width, int height, uint eps2)
{
  int4 c = *cur;
  int dx, dy, nx, ny;

  if (m00 == 0)
    return false;
  dx = (int) round_ratio (2 * (long) m10 - (long) start.z * (long) m00,
      2 * (long) m00);
  dy = (int) round_ratio (2 * (long) m01 - (long) start.w * (long) m00,
      2 * (long) m00);
  nx = min (max (c.x + dx, 0), width - c.z);
  ny = min (max (c.y + dy, 0), height - c.w);
  dx = nx - c.x;
  dy = ny - c.y;
  c.x = nx;
  c.y = ny;
  *cur = c;
  return (uint) (dx * dx + dy * dy) >= eps2;
}

/* The window of a mean-shift iteration: clipped, an empty one moved to
 * the frame's centre, at least one pixel each way. */
static int4
iteration_window (int4 cur, int width, int height)
{
  int4 c = clip_to_frame (cur, width, height);

  if (c.x == 0 && c.y == 0 && c.z == 0 && c.w == 0) {
    c.x = width / 2;
    c.y = height / 2;
  }
  c.z = max (c.z, 1);
  c.w = max (c.w, 1);
  return c;
}

/* CamShift's window for the box: the mean-shift window grown by 10
 * pixels each way and cut at the frame's far edges. */
static int4
grown_window (int4 w, int width, int height)
{
  w.x = max (w.x - 10, 0);
  w.y = max (w.y - 10, 0);
  w.z += 20;
  if (w.x + w.z > width)
    w.z = width - w.x;
  w.w += 20;
  if (w.y + w.w > height)
    w.w = height - w.y;
  return w;
}

enum { TRACK_SEARCHING, TRACK_MEASURING, TRACK_DONE };

/*
 * After a pass's moments: a mean-shift step while searching (then the
 * next iteration's window, or the grown window once the search stops),
 * or the grown window's moments written out.
 */
static int
next_state (int state, local int4 *cur, local uint *done, int4 start,
    local const ulong *sums, int width, int height, ClhParamsTrack p,
    global int4 *out_window, global ulong *out_moments)
{
  if (state == TRACK_MEASURING) {
    *out_window = *cur;
    for (uint k = 0; k < 6; k++)
      out_moments[k] = sums[k * CLH_ABI_TRACK_GROUP];
    return TRACK_DONE;
  }
  /* cv::meanShift counts the iterations that moved on. */
  if (shift_window (cur, start, sums[0], sums[CLH_ABI_TRACK_GROUP],
          sums[2 * CLH_ABI_TRACK_GROUP], width, height, p.eps2)
      && ++*done < p.max_iterations) {
    *cur = iteration_window (*cur, width, height);
    return TRACK_SEARCHING;
  }
  *cur = grown_window (*cur, width, height);
  return TRACK_MEASURING;
}

/*
 * One work-group per track: cv::meanShift from windows[track], then the
 * six raw moments of CamShift's grown window, which the host turns into
 * the box and the next window. tables: 256 bytes per track, the track's
 * probability of each bin image value. Out: windows[track] = the grown
 * window, moments[6 * track ...], iterations[track] as meanShift returns
 * it.
 */
kernel void
camshift (global const uchar *image, const ClhParamsTrack p,
    global const uchar *tables, global int4 *windows, global ulong *moments,
    global uint *iterations)
{
  local uchar table[256];
  local ulong sums[6 * CLH_ABI_TRACK_GROUP];
  local int4 cur;
  local int state;
  const uint track = get_group_id (0), lid = get_local_id (0);
  const int width = p.width, height = p.height;
  const int4 start = clip_to_frame (windows[track], width, height);
  local uint iterations_done;

  for (uint i = lid; i < 256; i += CLH_ABI_TRACK_GROUP)
    table[i] = tables[track * 256 + i];
  if (lid == 0) {
    cur = iteration_window (windows[track], width, height);
    state = TRACK_SEARCHING;
    iterations_done = 0;
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  /* One pass per mean-shift iteration and a last one for the grown
   * window, so that every barrier is in one loop: with a second moments
   * pass after a loop of barriers, PoCL 3.1 returned zero moments. */
  while (state != TRACK_DONE) {
    const int4 window = cur;

    window_moments (image, p.pitch, table, window, sums,
        state == TRACK_SEARCHING ? 3 : 6);
    if (lid == 0)
      state = next_state (state, &cur, &iterations_done, start, sums, width,
          height, p, windows + track, moments + 6 * track);
    barrier (CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    iterations[track] = iterations_done;
}

