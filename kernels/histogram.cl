/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * clhistogram kernels (OpenCL C 1.2).
 *
 * Every kernel privatizes the histogram per work-group: local memory holds
 * n_copies replicated sub-histograms, and work-item i counts into copy
 * (i % n_copies). Replication spreads a frame of one value over several
 * addresses instead of serializing the whole work-group on one counter;
 * each copy is padded by one counter so that a bin of consecutive copies
 * lies in consecutive local-memory banks. Counters are 32-bit: a frame has
 * at most 2^28 samples per channel, so none can wrap (the 8-bit
 * per-work-item counters of the tutorials this grew from wrap on 256 equal
 * samples).
 *
 * A channel's counters are [window bins..., below, above]: a launch counts
 * the bins [window_lo, window_lo + window_n) of each channel, so that
 * histograms larger than local memory are counted in several passes, and
 * samples outside [range_min, range_min + range_size) into below and above
 * (in the first pass only). Once its samples are counted, a work-group sums
 * its copies and adds each non-zero counter to the global histogram with one
 * global atomic: the device merges the partial histograms in the same
 * launch. The device histogram is double-buffered: a frame's first launch
 * also zeroes the range of the other buffer the previous frame used
 * (zero_buf, n_zero; the host has already read it back), so the next frame
 * needs no separate clear command.
 *
 * Frames arrive as their planes, copied as they are (row padding included)
 * into one device buffer; kernels address samples by plane base, row pitch,
 * component offset and pixel stride.
 */

#define SAMPLE_8 0
#define SAMPLE_16LE 1
#define SAMPLE_16BE 2

#define COUNT_LUMA 1
#define COUNT_MAX 2
#define COUNT_HUE 3
#define COUNT_HUE_SATURATION 4
#define COUNT_RGB 5

#define COLOR_RGB 0
#define COLOR_YUV_BT601 1

/* The copy this work-item counts into. */
#define MY_COPY(sub, n_copies, n_counters) \
  ((sub) + (get_local_id (0) % (n_copies)) * ((n_counters) + 1))

/* Clears the other histogram buffer for the next frame. */
static void
zero_next_histogram (global uint *zero_buf, uint n_zero)
{
  for (uint i = get_global_id (0); i < n_zero; i += get_global_size (0))
    zero_buf[i] = 0;
}

static void
zero_sub_histograms (local uint *sub, uint n_copies, uint n_counters)
{
  const uint n = n_copies * (n_counters + 1);

  for (uint i = get_local_id (0); i < n; i += get_local_size (0))
    sub[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* Channel c's window is local counters [c * (window_n + 2), ...) and global
 * counters [c * channel_stride + window_lo, ...); its below and above
 * counters follow the window locally and sit at channel_stride - 2 and - 1
 * globally. */
static void
merge_sub_histograms (local const uint *sub, uint n_copies, uint n_channels,
    uint window_lo, uint window_n, uint channel_stride, global uint *hist)
{
  const uint per_channel = window_n + 2;
  const uint n_counters = n_channels * per_channel;

  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id (0); i < n_counters; i += get_local_size (0)) {
    const uint c = i / per_channel, j = i - c * per_channel;
    uint sum = 0;

    for (uint r = 0; r < n_copies; r++)
      sum += sub[r * (n_counters + 1) + i];
    if (sum == 0)
      continue;
    if (j < window_n)
      atomic_add (&hist[c * channel_stride + window_lo + j], sum);
    else
      atomic_add (&hist[c * channel_stride + channel_stride - 2 + j - window_n],
          sum);
  }
}

/* Counts value v of a channel whose local counters start at 'mine':
 * out-of-range values into below/above (first pass only), in-range ones
 * into their bin if the bin is in this pass's window. */
static void
count_value (local uint *mine, uint v, uint range_min, uint range_size,
    uint bins, uint window_lo, uint window_n)
{
  if (v < range_min) {
    if (window_lo == 0)
      atomic_inc (&mine[window_n]);
    return;
  }
  const uint d = v - range_min;
  if (d >= range_size) {
    if (window_lo == 0)
      atomic_inc (&mine[window_n + 1]);
    return;
  }
  const uint bin = (uint) (((ulong) d * bins) / range_size) - window_lo;
  if (bin < window_n)
    atomic_inc (&mine[bin]);
}

/*
 * 8-bit samples of up to four components sharing one plane, one pixel
 * stride and no subsampling (GRAY8, RGB, RGBA and their orders, a Y plane,
 * an NV12 UV plane): every pixel is read once for all its channels. Rows
 * are [0, rows) of the plane at 'base'; bins <= 256, one pass.
 */
kernel void
histogram_packed8 (global const uchar *src, uint base, uint pitch,
    uint width, uint rows, uint pixel_stride, uint n_channels,
    uint4 offsets, uint range_min, uint range_size, uint bins,
    uint hist_base, uint n_copies, local uint *sub, global uint *hist,
    global uint *zero_buf, uint n_zero)
{
  const uint per_channel = bins + 2;
  local uint *mine = MY_COPY (sub, n_copies, n_channels * per_channel);
  const uint n = width * rows;

  zero_next_histogram (zero_buf, n_zero);
  zero_sub_histograms (sub, n_copies, n_channels * per_channel);

  for (uint i = get_global_id (0); i < n; i += get_global_size (0)) {
    const uint y = i / width, x = i - y * width;
    global const uchar *p = src + base + y * pitch + x * pixel_stride;

    count_value (mine, p[offsets.s0], range_min, range_size, bins, 0, bins);
    if (n_channels > 1)
      count_value (mine + per_channel, p[offsets.s1], range_min, range_size,
          bins, 0, bins);
    if (n_channels > 2)
      count_value (mine + 2 * per_channel, p[offsets.s2], range_min,
          range_size, bins, 0, bins);
    if (n_channels > 3)
      count_value (mine + 3 * per_channel, p[offsets.s3], range_min,
          range_size, bins, 0, bins);
  }

  merge_sub_histograms (sub, n_copies, n_channels, 0, bins, per_channel,
      hist + hist_base);
}

static uint
load_sample (global const uchar *p, uint sample)
{
  if (sample == SAMPLE_8)
    return p[0];
  if (sample == SAMPLE_16LE)
    return p[0] | ((uint) p[1] << 8);
  return ((uint) p[0] << 8) | p[1];
}

/*
 * One component of any layout: 8- or 16-bit samples, any pixel stride
 * (YUY2's chroma, P010's 10 bits in 16), value (stored >> shift) & mask.
 * Rows are [0, rows) of the component's samples from 'base'; one window of
 * bins per launch.
 */
kernel void
histogram_component (global const uchar *src, uint base, uint pitch,
    uint width, uint rows, uint pixel_stride, uint offset, uint sample,
    uint shift, uint mask, uint range_min, uint range_size, uint bins,
    uint window_lo, uint window_n, uint channel_stride, uint hist_base,
    uint n_copies, local uint *sub, global uint *hist, global uint *zero_buf,
    uint n_zero)
{
  local uint *mine = MY_COPY (sub, n_copies, window_n + 2);
  const uint n = width * rows;

  zero_next_histogram (zero_buf, n_zero);
  zero_sub_histograms (sub, n_copies, window_n + 2);

  for (uint i = get_global_id (0); i < n; i += get_global_size (0)) {
    const uint y = i / width, x = i - y * width;
    const uint v = (load_sample (src + base + y * pitch + offset
            + x * pixel_stride, sample) >> shift) & mask;
    count_value (mine, v, range_min, range_size, bins, window_lo, window_n);
  }

  merge_sub_histograms (sub, n_copies, 1, window_lo, window_n,
      channel_stride, hist + hist_base);
}

/* OpenCV's 8-bit RGB->HSV (RGB2HSV_b): 12-bit fixed-point division tables
 * sdiv[i] = round (255 * 2^12 / i) and hdiv[i] = round (180 * 2^12 / 6i),
 * computed here exactly (no ratio is a tie). */
static void
rgb_to_hsv (int r, int g, int b, int *h, int *s, int *v)
{
  const int vmax = max (max (r, g), b), vmin = min (min (r, g), b);
  const int diff = vmax - vmin;
  const int sdiv = vmax ? (2 * (255 << 12) + vmax) / (2 * vmax) : 0;
  const int hdiv = diff ? (2 * (180 << 12) + 6 * diff) / (12 * diff) : 0;
  int hue;

  if (vmax == r)
    hue = g - b;
  else if (vmax == g)
    hue = b - r + 2 * diff;
  else
    hue = r - g + 4 * diff;
  hue = (hue * hdiv + (1 << 11)) >> 12;
  *h = hue < 0 ? hue + 180 : hue;
  *s = (diff * sdiv + (1 << 11)) >> 12;
  *v = vmax;
}

/* BT.601 limited range, OpenCV's COLOR_YUV2RGB_I420 20-bit coefficients. */
static void
yuv_to_rgb (int y, int u, int v, int *r, int *g, int *b)
{
  const int yy = max (0, y - 16) * 1220542, uu = u - 128, vv = v - 128;
  const int rounding = 1 << 19;

  *r = clamp ((yy + rounding + 1673527 * vv) >> 20, 0, 255);
  *g = clamp ((yy + rounding - 852492 * vv - 409993 * uu) >> 20, 0, 255);
  *b = clamp ((yy + rounding + 2116026 * uu) >> 20, 0, 255);
}

/* Byte of component c at frame pixel (x, y): bases, pitches, offsets and
 * pixel strides per component; subs packs w_sub | h_sub << 4; row0s is
 * the plane row at each base. */
#define COMPONENT_BYTE(c, x, y) \
  src[bases.s##c + (((y) >> (subs.s##c >> 4)) - row0s.s##c) * pitches.s##c \
      + offsets.s##c + ((x) >> (subs.s##c & 15)) * pstrides.s##c]

/*
 * A colour per pixel, from 8-bit R, G, B[, A] or Y, U, V (BT.601 to RGB),
 * counted as luma, max, hue, hue x saturation or joint RGB into one channel.
 * Frame rows [y0, y0 + rows); one window of bins per launch.
 */
kernel void
histogram_colour (global const uchar *src, uint y0, uint width, uint rows,
    uint4 bases, uint4 row0s, uint4 pitches, uint4 offsets, uint4 pstrides,
    uint4 subs, uint has_alpha, uint color, uint count, uint bins,
    uint range_min, uint range_size, uint min_saturation, uint min_value,
    uint window_lo, uint window_n, uint channel_stride, uint n_copies,
    local uint *sub, global uint *hist, global uint *zero_buf, uint n_zero)
{
  local uint *mine = MY_COPY (sub, n_copies, window_n + 2);
  const uint n = width * rows;

  zero_next_histogram (zero_buf, n_zero);
  zero_sub_histograms (sub, n_copies, window_n + 2);

  for (uint i = get_global_id (0); i < n; i += get_global_size (0)) {
    const uint dy = i / width, x = i - dy * width, y = y0 + dy;
    int r = COMPONENT_BYTE (0, x, y), g = COMPONENT_BYTE (1, x, y),
        b = COMPONENT_BYTE (2, x, y);
    int h, s, v;
    uint bin;

    if (color == COLOR_YUV_BT601)
      yuv_to_rgb (r, g, b, &r, &g, &b);

    if (count == COUNT_LUMA || count == COUNT_MAX) {
      uint value = count == COUNT_LUMA ?
          (9798u * r + 19235u * g + 3735u * b + 16384u) >> 15 :
          (uint) max (max (r, g), b);
      if (count == COUNT_MAX && has_alpha)
        value = max (value, (uint) COMPONENT_BYTE (3, x, y));
      count_value (mine, value, range_min, range_size, bins, window_lo,
          window_n);
      continue;
    }

    if (count == COUNT_RGB) {
      bin = (((uint) r * bins >> 8) * bins + ((uint) g * bins >> 8)) * bins
          + ((uint) b * bins >> 8);
    } else {
      rgb_to_hsv (r, g, b, &h, &s, &v);
      if (s < (int) min_saturation || v < (int) min_value)
        continue;
      bin = (uint) h * bins / 180;
      if (count == COUNT_HUE_SATURATION)
        bin = bin * bins + ((uint) s * bins >> 8);
    }
    bin -= window_lo;
    if (bin < window_n)
      atomic_inc (&mine[bin]);
  }

  merge_sub_histograms (sub, n_copies, 1, window_lo, window_n,
      channel_stride, hist);
}
