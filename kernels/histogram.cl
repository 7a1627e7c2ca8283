/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * clhistogram kernels (OpenCL C 1.2).
 *
 * Every kernel privatizes the histogram per work-group: local memory holds
 * n_copies sub-histograms copy_stride counters apart, and work-item i
 * counts into copy (i % n_copies). One copy is the OpenCL tutorials'
 * local histogram; a few replicate it, so that a frame of one value spreads
 * over several addresses instead of serializing the work-group on one
 * counter; one copy per work-item needs no atomics at all. A copy_stride
 * of the copy's length + 1 puts the same bin of consecutive copies in
 * different local-memory banks (the paper's padding); with 16 x k bins and
 * no padding they fall in one or two of the 32 banks. Counters are 32-bit:
 * a frame has at most 2^28 samples per channel, so none can wrap (the 8-bit
 * per-work-item counters of the tutorials this grew from wrap on 256 equal
 * samples).
 *
 * A channel's global counters are [bins..., below, above]: a launch counts
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
 * into one device buffer, or read where they lie in host memory; kernels
 * address samples by plane base, row pitch, component offset and pixel
 * stride. Each kernel takes the frame's buffer, its parameters as one
 * struct (kernels/clh-kernel-abi.h), its local memory for the copies, the
 * frame's histogram, the buffer to clear for the next frame and the region
 * table.
 *
 * Regions: one launch counts the whole band and every region of the frame.
 * Its first work-groups count the band, as a launch without regions does;
 * the region table gives each of the others its region. The groups of a
 * region share its samples as the whole-band groups share the band's, each
 * group privatizing the region's bins in local memory, and merge into the
 * region's own counters. A pixel inside several regions is read once for
 * each. The region groups run beside the band's instead of after them, so
 * a few small regions cost the device little more than the whole frame;
 * with a second launch for them, as a first version had, a frame's kernels
 * took several times the whole frame's alone (measured: see
 * docs/performance.md, "Why the defaults are what they are").
 */

/* The constants and per-launch parameter structs shared with the engine. */
#include "clh-kernel-abi.h"
#include "colour.cl"

/* The copy this work-item counts into. */
#define MY_COPY(sub, n_copies, copy_stride) \
  ((sub) + (get_local_id (0) % (n_copies)) * (copy_stride))

/* Adds one to a counter of this work-item's copy: atomically unless the copy
 * is the work-item's own. */
static void
increment (local uint *counter, uint n_copies)
{
  if (n_copies == get_local_size (0))
    *counter += 1;
  else
    atomic_inc (counter);
}

/* Clears the other histogram buffer for the next frame. */
static void
zero_next_histogram (global uint *zero_buf, uint n_zero)
{
  for (uint i = get_global_id (0); i < n_zero; i += get_global_size (0))
    zero_buf[i] = 0;
}

/* What a work-item counts: samples [x0, x0 + width) x [y0, y0 + height) of
 * a grid whose rows are the band's, from item 'item' on, n_items apart;
 * into the counters at hist_base past the launch's, or, if narrow, into
 * the 16-bit ones at hist_base past the launch's narrow ones. */
typedef struct {
  uint x0;
  uint y0;
  uint width;
  uint height;
  uint item;
  uint n_items;
  uint hist_base;
  uint narrow;
} Span;

static uint
ceil_shift (uint v, uint shift)
{
  return (v + (1u << shift) - 1) >> shift;
}

/* This work-item's span of a grid of width x rows samples (the grid's rows
 * row0.. of a component subsampled by w_sub, h_sub), for the launch's
 * work-group g: all of it, shared by the launch's whole-band work-groups,
 * for those; else the part of its work-group's region, by the co-sited
 * rule, in the band. */
static Span
my_span (global const ClhRegion *table, const ClhLaunchParams *l, uint g,
    uint width, uint rows, uint row0, uint w_sub, uint h_sub)
{
  Span s = { 0, 0, width, rows, g * get_local_size (0) + get_local_id (0),
    l->whole_groups * get_local_size (0), 0, 0
  };

  if (g < l->whole_groups)
    return s;

  global const uint *group_region = (global const uint *) (table +
      l->n_regions);
  const uint t = g - l->whole_groups;
  const ClhRegion e = table[group_region[t]];
  const uint x0 = ceil_shift (e.x0, w_sub), x1 = ceil_shift (e.x1, w_sub);
  const uint y0 = clamp (ceil_shift (e.y0, h_sub), row0, row0 + rows);
  const uint y1 = clamp (ceil_shift (e.y1, h_sub), row0, row0 + rows);

  s.x0 = x0;
  s.width = x1 - x0;
  s.y0 = y0 - row0;
  s.height = y1 - y0;
  s.item = (t - e.first_group) * get_local_size (0) + get_local_id (0);
  s.n_items = e.n_groups * get_local_size (0);
  s.hist_base = e.hist_base;
  s.narrow = e.narrow;
  return s;
}

/* Local memory: n_copies copies of n_channels x window_n bins, copy_stride
 * counters apart, then the below and above counters of each channel,
 * shared by all copies (out-of-range samples are rare, and keeping them
 * out of the copies keeps a copy exactly as long as its bins, the layout
 * of the paper's padding study). */
#define OUTSIDE(sub, n_copies, copy_stride) \
  ((sub) + (n_copies) * (copy_stride))

static void
zero_sub_histograms (local uint *sub, uint n_copies, uint copy_stride,
    uint n_channels)
{
  const uint n = n_copies * copy_stride + 2 * n_channels;

  for (uint i = get_local_id (0); i < n; i += get_local_size (0))
    sub[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* Sums the copies and adds each non-zero counter to the span's histogram,
 * base counters past the span's own (hist_base), where channel c's window
 * is counters [c * channel_stride + window_lo, ...) and its below and above
 * counters sit at channel_stride - 2 and - 1. The counters are 32-bit, and
 * added to with one global atomic each, as every work-group of the span
 * adds its own; or, for a narrow span (a region of one work-group and at
 * most 65535 samples per channel, kernels/clh-kernel-abi.h), 16-bit and
 * the group's alone, added to with a plain store: half the bytes to read
 * back, no atomics. */
static void
merge_sub_histograms (local const uint *sub, uint n_copies, uint copy_stride,
    uint n_channels, uint window_lo, uint window_n, uint channel_stride,
    global uint *hist, uint base, const ClhLaunchParams *l, const Span *s)
{
  const uint n_counters = n_channels * window_n;
  local const uint *outside = OUTSIDE (sub, n_copies, copy_stride);
  global uint *wide = hist + base + s->hist_base;
  global ushort *narrow = (global ushort *) (hist + l->narrow_base) + base
      + s->hist_base;

  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id (0); i < n_counters + 2 * n_channels;
      i += get_local_size (0)) {
    uint sum = 0, at;

    if (i < n_counters) {
      const uint c = i / window_n;

      for (uint r = 0; r < n_copies; r++)
        sum += sub[r * copy_stride + i];
      at = c * channel_stride + window_lo + i - c * window_n;
    } else {
      const uint e = i - n_counters;

      sum = outside[e];
      at = (e / 2) * channel_stride + channel_stride - 2 + (e & 1);
    }
    if (sum == 0)
      continue;
    if (s->narrow)
      narrow[at] += (ushort) sum;
    else
      atomic_add (&wide[at], sum);
  }
}

/* Counts value v of a channel whose bins start at 'mine' and whose below
 * and above counters are outside[0] and [1]: out-of-range values in the
 * first pass only, in-range ones if their bin is in this pass's window. */
static void
count_value (local uint *mine, local uint *outside, uint v, uint range_min,
    uint range_size, uint bins, uint window_lo, uint window_n, uint n_copies)
{
  if (v < range_min) {
    if (window_lo == 0)
      atomic_inc (&outside[0]);
    return;
  }
  const uint d = v - range_min;
  if (d >= range_size) {
    if (window_lo == 0)
      atomic_inc (&outside[1]);
    return;
  }
  const uint bin = (uint) (((ulong) d * bins) / range_size) - window_lo;
  if (bin < window_n)
    increment (&mine[bin], n_copies);
}

/* Bins of the 256 8-bit values for a range and a number of bins: the bin,
 * or bins for values below the range and bins + 1 above it. */
static void
fill_bin_table (local ushort *table, uint range_min, uint range_size,
    uint bins)
{
  for (uint v = get_local_id (0); v < 256; v += get_local_size (0)) {
    uint bin = bins + 1;

    if (v < range_min)
      bin = bins;
    else if (v - range_min < range_size)
      bin = (v - range_min) * bins / range_size;
    table[v] = (ushort) bin;
  }
}

/* What the 8-bit kernel's loops share. */
typedef struct {
  local uint *mine;
  local uint *outside;
  local const ushort *table;
  uint bins;
  uint bin_shift;
  uint byte_channels;
  uint n_copies;
} Counter8;

/* Counts 8-bit value v of channel c: its bin is v >> bin_shift when
 * bin_shift < 8 (bins a power of two over the full range), else the
 * table's. */
static void
count8 (const Counter8 *k, uint c, uint v)
{
  const uint bin = k->bin_shift < 8 ? v >> k->bin_shift : k->table[v];

  if (bin < k->bins)
    increment (&k->mine[c * k->bins + bin], k->n_copies);
  else
    atomic_inc (&k->outside[2 * c + bin - k->bins]);
}

/* Counts the four bytes of a 32-bit word (byte j = bits 8j.., the device
 * is little-endian): byte j belongs to the channel in byte j of
 * byte_channels, or to none (0xff). */
static void
count_word (const Counter8 *k, uint word)
{
#pragma unroll
  for (uint j = 0; j < 4; j++) {
    const uint c = (k->byte_channels >> (8 * j)) & 0xff;

    if (c < 4)
      count8 (k, c, (word >> (8 * j)) & 0xff);
  }
}

/* The words [0, n) of a plane whose rows are contiguous, four at a time,
 * shared by the span's work-items. */
static void
count_words_contiguous (const Counter8 *k, const Span *s,
    global const uint *words, uint n)
{
  const uint n4 = n / 4;
  uint i;

  for (i = s->item; i < n4; i += s->n_items) {
    const uint4 q = vload4 (i, words);

    count_word (k, q.s0);
    count_word (k, q.s1);
    count_word (k, q.s2);
    count_word (k, q.s3);
  }
  for (i = n4 * 4 + s->item; i < n; i += s->n_items)
    count_word (k, words[i]);
}

/* Pixels a work-item loads before it counts them. */
#define PIXEL_BATCH 4

/* The span's pixels of a plane at 'plane', a byte per sample of each of
 * n_channels components at offsets within a pixel. A work-item loads
 * PIXEL_BATCH pixels before it counts any: a region's work-group has few
 * pixels per work-item and nothing else in flight, so loads issued one
 * after the other would make it wait for memory once per pixel. */
static void
count_pixels_8bit (const Counter8 *k, const Span *s, global const uchar *plane,
    uint pitch, uint pixel_stride, const uint offsets[4], uint n_channels)
{
  const uint n = s->width * s->height;

  for (uint i0 = s->item; i0 < n; i0 += PIXEL_BATCH * s->n_items) {
    uint v[PIXEL_BATCH][4];

#pragma unroll
    for (uint b = 0; b < PIXEL_BATCH; b++) {
      const uint i = min (i0 + b * s->n_items, n - 1);
      const uint dy = i / s->width, x = s->x0 + i - dy * s->width;
      global const uchar *px = plane + (s->y0 + dy) * pitch
          + x * pixel_stride;

#pragma unroll
      for (uint c = 0; c < 4; c++)
        v[b][c] = c < n_channels ? px[offsets[c]] : 0;
    }
#pragma unroll
    for (uint b = 0; b < PIXEL_BATCH; b++) {
      if (i0 + b * s->n_items >= n)
        break;
#pragma unroll
      for (uint c = 0; c < 4; c++)
        if (c < n_channels)
          count8 (k, c, v[b][c]);
    }
  }
}

/* The 8-bit count of work-group g of a histogram_8bit launch with
 * parameters p, whose histogram is hist. */
static void
count_8bit (global const uchar *src, const ClhParams8bit *p, uint g,
    local uint *sub, global uint *hist, global const ClhRegion *regions,
    local ushort *table)
{
  const ClhLaunchParams l = p->launch;
  const ClhPlaneRows r = p->plane;
  const Span s = my_span (regions, &l, g, r.width, r.rows, r.row0,
      r.w_sub, r.h_sub);
  const Counter8 k = {
    MY_COPY (sub, l.n_copies, l.copy_stride), OUTSIDE (sub, l.n_copies,
        l.copy_stride), table, p->bins, p->bin_shift, p->byte_channels,
    l.n_copies
  };

  if (p->bin_shift >= 8)
    fill_bin_table (table, p->range_min, p->range_size, p->bins);
  zero_sub_histograms (sub, l.n_copies, l.copy_stride, p->n_channels);

  if (g < l.whole_groups && p->byte_channels != CLH_ABI_NO_WORDS) {
    global const uint *words = (global const uint *) (src + r.base);
    const uint row_words = r.width * r.pixel_stride / 4;
    const uint pitch_words = r.pitch / 4, n = row_words * r.rows;

    if (pitch_words == row_words) {
      count_words_contiguous (&k, &s, words, n);
    } else {
      for (uint i = s.item; i < n; i += s.n_items) {
        const uint y = i / row_words, x = i - y * row_words;
        count_word (&k, words[y * pitch_words + x]);
      }
    }
  } else {
    count_pixels_8bit (&k, &s, src + r.base, r.pitch, r.pixel_stride,
        p->offsets, p->n_channels);
  }

  merge_sub_histograms (sub, l.n_copies, l.copy_stride, p->n_channels, 0,
      p->bins, p->bins + 2, hist, p->hist_base, &l, &s);
}

/*
 * 8-bit samples of up to four components sharing one plane, one pixel
 * stride and no subsampling (GRAY8, RGB, RGBA and their orders, a Y plane,
 * an NV12 UV plane): every pixel is read once for all its channels. Rows
 * are [0, rows) of the plane at 'base'; bins <= 256, one pass.
 *
 * With byte_channels != ~0 (the host has checked that rows are whole 32-bit
 * words at 4-byte aligned addresses, and a pixel stride of 1, 2 or 4) the
 * plane is read a word at a time, four words per load where rows are
 * contiguous; otherwise a byte per sample with the frame's offsets. table
 * is local memory for 256 bins, a kernel argument: as a kernel-scope local
 * array passed to a function it read as zeros on PoCL 3.1.
 */
kernel void
histogram_8bit (global const uchar *src, const ClhParams8bit p,
    local uint *sub, global uint *hist, global uint *zero_buf,
    global const ClhRegion *regions, local ushort *table)
{
  zero_next_histogram (zero_buf, p.launch.n_zero);
  count_8bit (src, &p, get_group_id (0), sub, hist, regions, table);
}

/*
 * The 8-bit counts of many frames in one launch (clh-batch.c): the
 * frames of a batch of streams lie one after the other in src, and each of
 * its entries (ClhBatchEntry, at the start of batch) is one histogram_8bit
 * launch without regions, into counters from counters_base in batch. A
 * work-group finds its entry by binary search over their first groups, and
 * counts as that launch's work-group would. One launch and one readback for
 * a batch instead of one of each per frame: each command costs the host
 * driver time that does not shrink with the frame.
 */
kernel void
histogram_8bit_batch (global const uchar *src, const ClhBatchParams b,
    local uint *sub, global uint *batch, local ushort *table)
{
  global const ClhBatchEntry *entries = (global const ClhBatchEntry *) batch;
  const uint g = get_group_id (0);
  uint lo = 0, hi = b.n_entries;

  while (hi - lo > 1) {
    const uint mid = (lo + hi) / 2;

    if (entries[mid].first_group <= g)
      lo = mid;
    else
      hi = mid;
  }
  const ClhParams8bit p = entries[lo].params;
  count_8bit (src, &p, g - entries[lo].first_group, sub,
      batch + b.counters_base, 0, table);
}

static uint
load_sample (global const uchar *p, uint sample)
{
  if (sample == CLH_ABI_SAMPLE_8)
    return p[0];
  if (sample == CLH_ABI_SAMPLE_16LE)
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
histogram_component (global const uchar *src, const ClhParamsComponent p,
    local uint *sub, global uint *hist, global uint *zero_buf,
    global const ClhRegion *regions)
{
  const ClhLaunchParams l = p.launch;
  const ClhPlaneRows r = p.plane;
  const Span s = my_span (regions, &l, get_group_id (0), r.width, r.rows,
      r.row0, r.w_sub, r.h_sub);
  local uint *mine = MY_COPY (sub, l.n_copies, l.copy_stride);
  local uint *outside = OUTSIDE (sub, l.n_copies, l.copy_stride);
  const uint n = s.width * s.height;

  zero_next_histogram (zero_buf, l.n_zero);
  zero_sub_histograms (sub, l.n_copies, l.copy_stride, 1);

  for (uint i = s.item; i < n; i += s.n_items) {
    const uint dy = i / s.width, x = s.x0 + i - dy * s.width;
    const uint v = (load_sample (src + r.base + (s.y0 + dy) * r.pitch
            + p.offset + x * r.pixel_stride, p.sample) >> p.shift) & p.mask;
    count_value (mine, outside, v, p.range_min, p.range_size, p.bins,
        p.window_lo, p.window_n, l.n_copies);
  }

  merge_sub_histograms (sub, l.n_copies, l.copy_stride, 1, p.window_lo,
      p.window_n, p.channel_stride, hist, p.hist_base, &l, &s);
}

/* Byte of component c at frame pixel (x, y), as ClhParamsColour @p
 * places it. */
static uchar
component_byte (global const uchar *src, const ClhParamsColour *p, uint c,
    uint x, uint y)
{
  const uint row = (y >> (p->subs[c] >> 4)) - p->row0s[c];

  return src[p->bases[c] + row * p->pitches[c] + p->offsets[c]
      + (x >> (p->subs[c] & 15)) * p->pixel_strides[c]];
}

/*
 * A colour per pixel, from 8-bit R, G, B[, A] or Y, U, V (BT.601 to RGB),
 * counted as luma, max, hue, hue x saturation or joint RGB into one channel.
 * Frame rows [y0, y0 + rows); one window of bins per launch.
 */
kernel void
histogram_colour (global const uchar *src, const ClhParamsColour p,
    local uint *sub, global uint *hist, global uint *zero_buf,
    global const ClhRegion *regions)
{
  const ClhLaunchParams l = p.launch;
  const Span sp = my_span (regions, &l, get_group_id (0), p.width, p.rows,
      p.y0, 0, 0);
  local uint *mine = MY_COPY (sub, l.n_copies, l.copy_stride);
  local uint *outside = OUTSIDE (sub, l.n_copies, l.copy_stride);
  const uint n = sp.width * sp.height;

  zero_next_histogram (zero_buf, l.n_zero);
  zero_sub_histograms (sub, l.n_copies, l.copy_stride, 1);

  for (uint i = sp.item; i < n; i += sp.n_items) {
    const uint dy = i / sp.width, x = sp.x0 + i - dy * sp.width;
    const uint y = p.y0 + sp.y0 + dy;
    int r = component_byte (src, &p, 0, x, y);
    int g = component_byte (src, &p, 1, x, y);
    int b = component_byte (src, &p, 2, x, y);
    int h, s, v;
    uint bin;

    if (p.color == CLH_ABI_COLOR_YUV_BT601)
      yuv_to_rgb (r, g, b, &r, &g, &b);

    if (p.count == CLH_ABI_COUNT_LUMA || p.count == CLH_ABI_COUNT_MAX) {
      uint value = p.count == CLH_ABI_COUNT_LUMA ?
          (9798u * r + 19235u * g + 3735u * b + 16384u) >> 15 :
          (uint) max (max (r, g), b);
      if (p.count == CLH_ABI_COUNT_MAX && p.has_alpha)
        value = max (value, (uint) component_byte (src, &p, 3, x, y));
      count_value (mine, outside, value, p.range_min, p.range_size, p.bins,
          p.window_lo, p.window_n, l.n_copies);
      continue;
    }

    if (p.count == CLH_ABI_COUNT_RGB) {
      bin = (((uint) r * p.bins >> 8) * p.bins + ((uint) g * p.bins >> 8))
          * p.bins + ((uint) b * p.bins >> 8);
    } else {
      rgb_to_hsv (r, g, b, &h, &s, &v);
      if (s < (int) p.min_saturation || v < (int) p.min_value)
        continue;
      bin = (uint) h * p.bins / 180;
      if (p.count == CLH_ABI_COUNT_HUE_SATURATION)
        bin = bin * p.bins + ((uint) s * p.bins >> 8);
    }
    bin -= p.window_lo;
    if (bin < p.window_n)
      increment (&mine[bin], l.n_copies);
  }

  merge_sub_histograms (sub, l.n_copies, l.copy_stride, 1, p.window_lo,
      p.window_n, p.channel_stride, hist, 0, &l, &sp);
}
