/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Scopes: a waveform is a histogram of a channel's values per column, a
 * parade one waveform per channel, a vectorscope the joint histogram of
 * the two colour differences, a histogram a histogram. One frame is
 * counted by scope_count and drawn by scope_draw (after scope_bars, for
 * histograms) into one RGBA picture, the only thing read back (or blended
 * into the frame by scope_blend).
 *
 * scope_count privatizes as kernels/histogram.cl does: a work-group counts
 * a tile of a plot's bins in local memory (a waveform's columns of values,
 * a vectorscope's rows of Cr, a window of a histogram's bins) over a slice
 * of the frame's rows, then adds each non-zero counter to the plot's
 * counters with one global atomic. A waveform's tile gathers whole frame
 * columns, so its groups read a strip of the frame; a vectorscope's or
 * histogram's read every sample of their slice and count those whose bin
 * falls in their tile (the host makes tiles as large as local memory
 * holds, usually one).
 *
 * scope_draw turns a cell's count into a level through its plot's
 * threshold table (built on the host: the device compares integers only,
 * so that it draws what the golden reference draws to the bit), colours
 * the trace and lays the host's graticule over it.
 */

#include "clh-scope-abi.h"

/* The high 32 bits of @a * @b: one 64-bit product (PoCL builds mul_hi()
 * of 32-bit operands from four 16-bit ones). */
static uint
scope_mul_hi (uint a, uint b)
{
  return (uint) (((ulong) a * b) >> 32);
}

/* Adds one to a local counter: a work-group of one work-item owns its
 * counters alone (the CPU devices' choice). */
static void
scope_increment (local uint *counter)
{
  if (get_local_size (0) == 1)
    *counter += 1;
  else
    atomic_inc (counter);
}

/* Component c's value at (x, y) of its own sample grid. */
static uint
scope_component (global const uchar *src, const ClhScopeFrameParams *f,
    uint c, uint x, uint y)
{
  global const uchar *p = src + f->bases[c] + y * f->pitches[c]
      + f->offsets[c] + x * f->pixel_strides[c];
  uint stored;

  if (f->sample == CLH_ABI_SAMPLE_8)
    stored = p[0];
  else if (f->sample == CLH_ABI_SAMPLE_16LE)
    stored = p[0] | ((uint) p[1] << 8);
  else
    stored = ((uint) p[0] << 8) | p[1];
  return (stored >> f->shifts[c]) & f->mask;
}

/* Row @row (0 luma, 1 Cb, 2 Cr) of the matrix applied to 8-bit R, G, B at
 * pixel (x, y): (row . RGB + offset + 2^15) >> 16, clamped to 0..255, the
 * colour differences offset by 128. */
static uint
scope_rgb_row (global const uchar *src, const ClhScopeFrameParams *f,
    uint row, uint x, uint y)
{
  const int r = (int) scope_component (src, f, 0, x, y);
  const int g = (int) scope_component (src, f, 1, x, y);
  const int b = (int) scope_component (src, f, 2, x, y);
  const int dot = (int) f->matrix[3 * row] * r
      + (int) f->matrix[3 * row + 1] * g + (int) f->matrix[3 * row + 2] * b
      + (row ? 128 << 16 : 0) + 32768;

  return (uint) clamp (dot >> 16, 0, 255);
}

/* A waveform's or histogram's channel at (x, y) of its grid. */
static uint
scope_channel (global const uchar *src, const ClhScopeFrameParams *f,
    uint channel, uint x, uint y)
{
  if (channel == CLH_ABI_SCOPE_LUMA)
    return scope_rgb_row (src, f, 0, x, y);
  return scope_component (src, f, channel, x, y);
}

/* What a group of scope_count does: its tile of bins [b0, b1) of the
 * job's tiled axis, its rows [y0, y1) and columns [x0, x1) of the grid,
 * its work-item's first column and row and their steps. */
typedef struct {
  uint b0;
  uint b1;
  uint x0;
  uint x1;
  uint y0;
  uint y1;
  uint ix;
  uint iy;
  uint nx;
  uint ny;
} ScopeTile;

/* A component's row y of its grid: its first sample's byte. */
static global const uchar *
scope_row (global const uchar *src, const ClhScopeFrameParams *f, uint c,
    uint y)
{
  return src + f->bases[c] + y * f->pitches[c] + f->offsets[c];
}

/* The counter of the tile's local copy a sample goes to: @row of the
 * tile's @n rows of the job's cols (a vectorscope's or histogram's), or
 * value bin @row of the tile's @n columns (a waveform's). */
#define TILE_CELL(row, col, n) ((row) * (n) + (col))

/* count_waveform's 8-bit rows for a work-group of one work-item counting
 * one copy (a CPU device's launch): each sample's load, bin and
 * increment, with nothing else in the loop. */
static void
count_waveform_serial (global const uchar *src, const ClhScopeFrameParams *f,
    const ClhScopeJob *j, const ScopeTile *t, local uint *sub)
{
  const uint c = j->channel, n = t->b1 - t->b0, b0 = t->b0;
  const uint ps = f->pixel_strides[c], shift = f->shifts[c];
  const uint mask = f->mask, vshift = j->shift, col_mul = j->col_mul;
  const uint x0 = t->x0, x1 = t->x1, y1 = t->y1;

  /* The common case, a plane of whole bytes into 256 value bins. */
  const bool bytes = ps == 1 && shift == 0 && mask == 255 && vshift == 0;

  for (uint y = t->y0; y < y1; y++) {
    global const uchar *row = scope_row (src, f, c, y);

    if (bytes && col_mul)
      for (uint x = x0; x < x1; x++)
        sub[row[x] * n + scope_mul_hi (x, col_mul) - b0] += 1;
    else if (col_mul)
      for (uint x = x0; x < x1; x++)
        sub[(((row[x * ps] >> shift) & mask) >> vshift) * n
            + scope_mul_hi (x, col_mul) - b0] += 1;
    else
      for (uint x = x0; x < x1; x++)
        sub[(((row[x * ps] >> shift) & mask) >> vshift) * n + x - b0] += 1;
  }
}

/* A waveform's samples of the tile: value-major in local memory, so that
 * neighbouring work-items (neighbouring columns) count into neighbouring
 * banks. 8-bit components, the common case, are read a row at a time. */
static void
count_waveform (global const uchar *src, const ClhScopeFrameParams *f,
    const ClhScopeJob *j, const ScopeTile *t, local uint *sub)
{
  const uint n = t->b1 - t->b0, c = j->channel;
  const uint copy_mask = j->n_copies - 1, cells = n * j->rows;

  if (c != CLH_ABI_SCOPE_LUMA && f->sample == CLH_ABI_SAMPLE_8
      && get_local_size (0) == 1 && j->n_copies == 1) {
    count_waveform_serial (src, f, j, t, sub);
    return;
  }
  if (c != CLH_ABI_SCOPE_LUMA && f->sample == CLH_ABI_SAMPLE_8) {
    const uint ps = f->pixel_strides[c], mask = f->mask;
    const uint shift = f->shifts[c];

    for (uint y = t->y0 + t->iy; y < t->y1; y += t->ny) {
      global const uchar *row = scope_row (src, f, c, y);

      for (uint x = t->x0 + t->ix; x < t->x1; x += t->nx) {
        const uint b = j->col_mul ? scope_mul_hi (x, j->col_mul) : x;
        const uint v = (row[x * ps] >> shift) & mask;

        scope_increment (&sub[(x & copy_mask) * cells
                + TILE_CELL (v >> j->shift, b - t->b0, n)]);
      }
    }
    return;
  }
  for (uint y = t->y0 + t->iy; y < t->y1; y += t->ny)
    for (uint x = t->x0 + t->ix; x < t->x1; x += t->nx) {
      const uint b = j->col_mul ? scope_mul_hi (x, j->col_mul) : x;
      const uint v = scope_channel (src, f, c, x, y);

      scope_increment (&sub[(x & copy_mask) * cells
              + TILE_CELL (v >> j->shift, b - t->b0, n)]);
    }
}

/* count_vectorscope's 8-bit rows for a work-group of one work-item
 * counting one copy, as count_waveform_serial counts a waveform's. */
static void
count_vectorscope_serial (global const uchar *src,
    const ClhScopeFrameParams *f, const ClhScopeJob *j, const ScopeTile *t,
    local uint *sub)
{
  const uint n = t->b1 - t->b0, b0 = t->b0, cols = j->cols;
  const uint vshift = j->shift;
  const uint ps1 = f->pixel_strides[1], ps2 = f->pixel_strides[2];
  const uint x0 = t->x0, x1 = t->x1, y1 = t->y1;

  for (uint y = t->y0; y < y1; y++) {
    global const uchar *cb = scope_row (src, f, 1, y);
    global const uchar *cr = scope_row (src, f, 2, y);

    for (uint x = x0; x < x1; x++) {
      const uint row = (cr[x * ps2] >> vshift) - b0;

      if (row < n)
        sub[row * cols + (cb[x * ps1] >> vshift)] += 1;
    }
  }
}

static void
count_vectorscope (global const uchar *src, const ClhScopeFrameParams *f,
    const ClhScopeJob *j, const ScopeTile *t, local uint *sub)
{
  const uint n = t->b1 - t->b0, mid = (f->mask + 1) >> 1;
  const uint copy_mask = j->n_copies - 1, cells = n * j->cols;

  if (f->source == CLH_ABI_SCOPE_YUV && f->sample == CLH_ABI_SAMPLE_8
      && get_local_size (0) == 1 && j->n_copies == 1) {
    count_vectorscope_serial (src, f, j, t, sub);
    return;
  }
  if (f->source == CLH_ABI_SCOPE_YUV && f->sample == CLH_ABI_SAMPLE_8) {
    const uint ps1 = f->pixel_strides[1], ps2 = f->pixel_strides[2];

    for (uint y = t->y0 + t->iy; y < t->y1; y += t->ny) {
      global const uchar *cb = scope_row (src, f, 1, y);
      global const uchar *cr = scope_row (src, f, 2, y);

      for (uint x = t->x0 + t->ix; x < t->x1; x += t->nx) {
        const uint row = (cr[x * ps2] >> j->shift) - t->b0;

        if (row < n)
          scope_increment (&sub[(x & copy_mask) * cells
                  + TILE_CELL (row, cb[x * ps1] >> j->shift, j->cols)]);
      }
    }
    return;
  }
  for (uint y = t->y0 + t->iy; y < t->y1; y += t->ny)
    for (uint x = t->x0 + t->ix; x < t->x1; x += t->nx) {
      uint cb = mid, cr = mid;

      if (f->source == CLH_ABI_SCOPE_YUV) {
        cb = scope_component (src, f, 1, x, y);
        cr = scope_component (src, f, 2, x, y);
      } else if (f->source == CLH_ABI_SCOPE_RGB) {
        cb = scope_rgb_row (src, f, 1, x, y);
        cr = scope_rgb_row (src, f, 2, x, y);
      }
      const uint row = (cr >> j->shift) - t->b0;
      if (row < n)
        scope_increment (&sub[(x & copy_mask) * cells
                + TILE_CELL (row, cb >> j->shift, j->cols)]);
    }
}

/* A histogram's samples of the tile: each in its bin, and in the clip
 * counters after the bins when at or past a clip level. */
static void
count_histogram (global const uchar *src, const ClhScopeFrameParams *f,
    const ClhScopeJob *j, const ScopeTile *t, local uint *sub)
{
  const uint n = t->b1 - t->b0, copy_mask = j->n_copies - 1;
  const uint low = j->cols - t->b0, high = j->cols + 1 - t->b0;

  for (uint y = t->y0 + t->iy; y < t->y1; y += t->ny)
    for (uint x = t->x0 + t->ix; x < t->x1; x += t->nx) {
      const uint v = scope_channel (src, f, j->channel, x, y);
      const uint bin = (v >> j->shift) - t->b0;
      local uint *copy = sub + (x & copy_mask) * n;

      if (bin < n)
        scope_increment (&copy[bin]);
      if (v <= j->clip_low && low < n)
        scope_increment (&copy[low]);
      if (v >= j->clip_high && high < n)
        scope_increment (&copy[high]);
    }
}

/* The job of work-group g: the last whose first group is <= g. */
static ClhScopeJob
scope_job (global const ClhScopeJob *jobs, uint n_jobs, uint g)
{
  uint lo = 0, hi = n_jobs;

  while (hi - lo > 1) {
    const uint mid = (lo + hi) / 2;

    if (jobs[mid].first_group <= g)
      lo = mid;
    else
      hi = mid;
  }
  return jobs[lo];
}

/* Group @g's tile of job @j, and the counters a bin of its tiled axis
 * takes (@per_bin). */
static ScopeTile
scope_tile (const ClhScopeJob *j, uint g, uint *per_bin)
{
  const uint tile = g % j->n_tiles, slice = g / j->n_tiles;
  const uint axis = j->kind == CLH_ABI_SCOPE_VECTORSCOPE ? j->rows :
      j->kind == CLH_ABI_SCOPE_HISTOGRAM ? j->cols
      + CLH_ABI_SCOPE_CLIP_COUNTERS : j->cols;
  const uint lx = 1u << j->lx_bits;
  ScopeTile t;

  t.b0 = tile * j->tile_bins;
  t.b1 = min (axis, t.b0 + j->tile_bins);
  t.x0 = 0;
  t.x1 = j->grid_width;
  if (j->kind == CLH_ABI_SCOPE_WAVEFORM) {
    /* The grid columns whose bin x * cols / grid_width is in the tile. */
    t.x0 = (uint) (((ulong) t.b0 * j->grid_width + j->cols - 1) / j->cols);
    t.x1 = (uint) (((ulong) t.b1 * j->grid_width + j->cols - 1) / j->cols);
  }
  t.y0 = (uint) ((ulong) slice * j->grid_height / j->n_slices);
  t.y1 = (uint) ((ulong) (slice + 1) * j->grid_height / j->n_slices);
  t.ix = get_local_id (0) & (lx - 1);
  t.iy = get_local_id (0) >> j->lx_bits;
  t.nx = lx;
  t.ny = get_local_size (0) >> j->lx_bits;
  *per_bin = j->kind == CLH_ABI_SCOPE_WAVEFORM ? j->rows :
      j->kind == CLH_ABI_SCOPE_VECTORSCOPE ? j->cols : 1;
  return t;
}

/*
 * Every plot's counts of one frame in one launch: work-group g counts its
 * job's tile (ClhScopeJob) into local memory @sub, then stores it in
 * @counts if the tile is its alone (one slice), or adds it there, where
 * the host cleared the job's counters. @sub holds the largest tile's
 * counters.
 */
kernel void
scope_count (global const uchar *src, const ClhScopeCountParams p,
    global const ClhScopeJob *jobs, local uint *sub, global uint *counts)
{
  const ClhScopeJob j = scope_job (jobs, p.n_jobs, get_group_id (0));
  uint per_bin;
  const ScopeTile t = scope_tile (&j, get_group_id (0) - j.first_group,
      &per_bin);
  const uint n = (t.b1 - t.b0) * per_bin;
  global uint *dst = counts + j.count_base;

  for (uint i = get_local_id (0); i < n * j.n_copies;
      i += get_local_size (0))
    sub[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);

  if (j.kind == CLH_ABI_SCOPE_WAVEFORM)
    count_waveform (src, &p.frame, &j, &t, sub);
  else if (j.kind == CLH_ABI_SCOPE_VECTORSCOPE)
    count_vectorscope (src, &p.frame, &j, &t, sub);
  else
    count_histogram (src, &p.frame, &j, &t, sub);

  barrier (CLK_LOCAL_MEM_FENCE);

  /* Counter i of a copy goes to the plot's counters (rows x cols,
   * row-major) at row r, column b0 + k: a waveform's copy is value-major
   * over its tile's columns (r = i / tn, k = i % tn), a vectorscope's is
   * whole rows from row b0, a histogram's a run from bin b0 (r = 0, k =
   * i). Each work-item follows r and k from counter to counter, with no
   * division per counter. */
  const uint ls = get_local_size (0), cols = j.cols;
  const uint tn = j.kind == CLH_ABI_SCOPE_WAVEFORM ? t.b1 - t.b0 : n;
  const uint at = j.kind == CLH_ABI_SCOPE_VECTORSCOPE ? t.b0 * cols : t.b0;
  const uint r_step = ls / tn, k_step = ls % tn;
  uint r = get_local_id (0) / tn, k = get_local_id (0) % tn;

  for (uint i = get_local_id (0); i < n; i += ls) {
    global uint *counter = dst + at + r * cols + k;
    uint sum = sub[i];

    for (uint c = 1; c < j.n_copies; c++)
      sum += sub[c * n + i];
    /* The group's counters are its alone when its tile has one slice:
     * stored, zeros too; else added to. */
    if (j.n_slices == 1)
      *counter = sum;
    else if (sum)
      atomic_add (counter, sum);
    r += r_step;
    k += k_step;
    if (k >= tn) {
      k -= tn;
      r++;
    }
  }
}

/* A bar's log scale: 256 log2 (x) with the mantissa read as linear
 * between powers of two (256 e + the 8 bits after the leading one). */
static uint
scope_log2_fixed (uint x)
{
  const uint e = 31 - clz (x);

  return (e << 8) | (uint) ((((ulong) x << 8) >> e) & 255);
}

/* G(count), the scale a bar is drawn on: the count itself or
 * scope_log2_fixed (count + 1). G is 0 only for a count of 0. */
static uint
scope_bar_scale (uint count, uint log)
{
  return log ? scope_log2_fixed (count + 1) : count;
}

/* A histogram bin's bar, rows from the bottom: height * G(count) /
 * G(peak), given G(peak) as @peak_scale (0: an empty plot, no bars). */
static uint
scope_bar (uint count, uint peak_scale, uint height, uint log)
{
  return peak_scale ? (uint) ((ulong) scope_bar_scale (count, log) * height
      / peak_scale) : 0;
}

/* A clip gauge's height: ceil (count * gauge / samples) rows, at least
 * one for a single sample. */
static uint
scope_gauge (uint count, uint gauge, uint samples)
{
  return samples ? (uint) (((ulong) count * gauge + samples - 1) / samples)
      : 0;
}

/*
 * Each histogram plot's bars: work-group i for plot i (nothing for the
 * others) finds the plot's largest count, then each bin's bar height
 * (scope_bar) into @bars at the plot's bars offset, and after them its
 * clip gauges' (scope_gauge); @scratch one uint per work-item.
 */
kernel void
scope_bars (global const uint *counts,
    global const ClhScopePlotParams *plots, global uint *bars,
    local uint *scratch)
{
  const ClhScopePlotParams pl = plots[get_group_id (0)];
  const uint lid = get_local_id (0), ls = get_local_size (0);
  uint m = 0;

  if (pl.kind != CLH_ABI_SCOPE_HISTOGRAM)
    return;
  for (uint i = lid; i < pl.cols; i += ls)
    m = max (m, counts[pl.count_base + i]);
  scratch[lid] = m;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint s = ls / 2; s > 0; s /= 2) {
    if (lid < s)
      scratch[lid] = max (scratch[lid], scratch[lid + s]);
    barrier (CLK_LOCAL_MEM_FENCE);
  }
  /* G(peak) once per plot, not once per bin: besides the work, PoCL 6.0
   * with LLVM 18 (Debian 13) aborts in InstCombine ("did not reach a
   * fixpoint") on the per-bin form (pocl/pocl issue 1608's kind). */
  const uint peak_scale = scope_bar_scale (scratch[0], pl.log);
  for (uint i = lid; i < pl.cols; i += ls)
    bars[pl.bars + i] = scope_bar (counts[pl.count_base + i], peak_scale,
        pl.height, pl.log);
  for (uint i = pl.cols + lid; i < pl.cols + CLH_ABI_SCOPE_CLIP_COUNTERS;
      i += ls)
    bars[pl.bars + i] = scope_gauge (counts[pl.count_base + i], pl.gauge,
        pl.samples);
}

/* The level of a count: the largest l with table[l] <= count (table[0] is
 * 0 and the table never decreases), read from @direct, the same for each
 * count below CLH_ABI_SCOPE_DIRECT, or searched for without branches. */
static uint
scope_level (global const uint *table, global const uchar *direct,
    uint count)
{
  uint lo = 0;

  if (count < CLH_ABI_SCOPE_DIRECT)
    return direct[count];
#pragma unroll
  for (uint step = CLH_ABI_SCOPE_LEVELS / 2; step > 0; step >>= 1)
    lo += table[lo + step] <= count ? step : 0;
  return lo;
}

/* An 8-bit colour difference's offset from neutral, as a bin's centre
 * shows it: (2 bin + 1) * 128 / bins - 128. */
static int
scope_chroma_offset (uint bin, uint bins)
{
  return (int) ((2 * bin + 1) * 128 / bins) - 128;
}

/* (a * 2^-16 rounded) for signed a, kept clear of the implementation-
 * defined shift of negative numbers. */
static int
scope_fixed (int a)
{
  return ((a + 32768 + (1024 << 16)) >> 16) - 1024;
}

/* A vectorscope cell's colour, 0x00BBGGRR: the colour of its Cb, Cr at
 * luma 200, BT.601 full-range coefficients in 16-bit fixed point. */
static uint
scope_chroma_colour (uint cb_bin, uint cr_bin, uint bins)
{
  const int cb = scope_chroma_offset (cb_bin, bins);
  const int cr = scope_chroma_offset (cr_bin, bins);
  const int r = clamp (200 + scope_fixed (91881 * cr), 0, 255);
  const int g = clamp (200 + scope_fixed (-22554 * cb - 46802 * cr), 0, 255);
  const int b = clamp (200 + scope_fixed (116130 * cb), 0, 255);

  return (uint) r | ((uint) g << 8) | ((uint) b << 16);
}

/* What a row of the picture knows of a plot it crosses: its columns
 * [x0, x1) (a histogram's sides included), its kind, its first counter of
 * the row's value (or Cr) bin, that bin and its bins across, the row from
 * the plot's bottom, its column table, threshold tables and bars, its
 * colour; whether the row is a histogram's lamps'. */
typedef struct {
  uint x0;
  uint x1;
  uint kind;
  uint counts;
  uint bin;
  uint cols;
  uint up;
  uint columns;
  uint table;
  uint bars;
  uint colour;
  uint lamp;
} ScopeRow;

/* The plots row @y crosses, left to right (panels follow each other, and
 * a histogram's channels lie one above the other). */
static uint
scope_row_plots (global const ClhScopePlotParams *plots, uint n_plots,
    uint y, ScopeRow *rows)
{
  uint n = 0;

  for (uint i = 0; i < n_plots; i++) {
    const ClhScopePlotParams pl = plots[i];

    if (y - pl.y >= pl.height)
      continue;
    ScopeRow r;
    r.x0 = pl.x - pl.side;
    r.x1 = pl.x + pl.width + pl.side;
    r.kind = pl.kind;
    r.up = pl.y + pl.height - 1 - y;
    r.bin = pl.row_mul ? scope_mul_hi (r.up, pl.row_mul) : r.up;
    /* A zoomed vectorscope: the bin under the row about the centre, one
     * division a row. */
    if (pl.zoom > 1)
      r.bin = (uint) (((ulong) pl.height * (pl.zoom - 1) * (pl.rows / 2)
              + (ulong) r.up * pl.rows) / ((ulong) pl.height * pl.zoom));
    r.cols = pl.cols;
    r.counts = pl.count_base + r.bin * pl.cols;
    r.columns = pl.columns;
    r.table = i * CLH_ABI_SCOPE_TABLES;
    r.bars = pl.bars;
    r.colour = pl.colour;
    /* Rows [lamp, lamp + clip_width) from the bottom; none when 0 wide. */
    r.lamp = r.up - pl.lamp < pl.clip_width;
    rows[n++] = r;
  }
  return n;
}

/* @colour (0x00BBGGRR) scaled by @level of 255, each channel rounded. */
static uint
scope_scale (uint colour, uint level)
{
  uint out = 0;

  for (uint k = 0; k < 24; k += 8)
    out |= ((((colour >> k) & 255) * level + 127) / 255) << k;
  return out;
}

/* The opaque picture pixel of @trace (0x00BBGGRR) under the graticule
 * layer's pixel @g: each channel (trace (255 - alpha) + graticule alpha
 * + 127) / 255. */
static uchar4
scope_pixel (uint trace, uchar4 g)
{
#ifdef __ENDIAN_LITTLE__
  uchar4 o = as_uchar4 (trace | 0xff000000u);
#else
  uchar4 o = (uchar4) ((uchar) trace, (uchar) (trace >> 8),
      (uchar) (trace >> 16), 255);
#endif
  const uint a = g.w;

  /* Most pixels have no graticule. */
  if (a)
    o.xyz = convert_uchar3 ((convert_uint3 (o.xyz) * (255 - a)
            + convert_uint3 (g.xyz) * a + 127) / 255);
  return o;
}

/* A histogram's side column of @entry in row @r: its lamp near the top,
 * lit when its clip counter counted anything (its gauge is 0 only then),
 * its gauge in the trace's colour from the bottom; the gap between it
 * and the bars, and the rest, black. */
static uint
scope_side (const ScopeRow *r, uint entry, global const uint *bar)
{
  const uint side = entry & CLH_ABI_SCOPE_COLUMN_BIN;
  uint gauge;

  if (side > 1)
    return 0;
  gauge = bar[r->cols + side];
  if (r->lamp)
    return gauge == 0 ? CLH_ABI_SCOPE_UNLIT_COLOUR : side ?
        CLH_ABI_SCOPE_CLIPPED_COLOUR : CLH_ABI_SCOPE_CRUSHED_COLOUR;
  return r->up < gauge ? r->colour : 0;
}

/* Pixels [x0, x1) of picture row @y, which lie in plot row @r: its trace
 * at each column entry (the colour scaled by the cell's level) under the
 * graticule; a histogram's bar full, over the graticule, or nothing, and
 * its sides (scope_side). */
static void
scope_draw_run (const ScopeRow *r, uint x0, uint x1, uint y,
    global const uint *counts, global const uint *bars,
    global const uint *columns, global const uint *thresholds,
    global const uchar *direct, global const uchar4 *layer,
    const ClhScopeDrawParams *d, global uchar *out)
{
  global const uint *entries = columns + r->columns - r->x0;
  global const uchar4 *g = layer + y * d->width;
  global uchar4 *o = (global uchar4 *) (out + y * d->pitch);

  if (r->kind == CLH_ABI_SCOPE_HISTOGRAM) {
    global const uint *bar = bars + r->bars;
    const uchar4 none = (uchar4) (0, 0, 0, 0);

    for (uint x = x0; x < x1; x++) {
      const uint entry = entries[x];

      if (entry & CLH_ABI_SCOPE_COLUMN_SIDE)
        o[x] = scope_pixel (scope_side (r, entry, bar), none);
      else if (r->up < bar[entry & CLH_ABI_SCOPE_COLUMN_BIN])
        o[x] = scope_pixel (r->colour, none);
      else
        o[x] = scope_pixel (0, g[x]);
    }
    return;
  }

  global const uint *cells = counts + r->counts;
  global const uint *tables = thresholds + r->table * CLH_ABI_SCOPE_LEVELS;
  global const uchar *levels = direct + r->table * CLH_ABI_SCOPE_DIRECT;
  const uint vectorscope = r->kind == CLH_ABI_SCOPE_VECTORSCOPE;

  for (uint x = x0; x < x1; x++) {
    const uint entry = entries[x];
    const uint bin = entry & CLH_ABI_SCOPE_COLUMN_BIN;
    const uint count = cells[bin];
    uint trace = 0;

    /* Most cells are empty. */
    if (count) {
      const uint table = entry >> CLH_ABI_SCOPE_COLUMN_TABLE;
      const uint level = scope_level (tables + table * CLH_ABI_SCOPE_LEVELS,
          levels + table * CLH_ABI_SCOPE_DIRECT, count);

      trace = scope_scale (vectorscope ? scope_chroma_colour (bin, r->bin,
              r->cols) : r->colour, level);
    }
    o[x] = scope_pixel (trace, g[x]);
  }
}

/*
 * The picture: work-item (i, y) composes pixels [i * span, (i + 1) * span)
 * of row y, a run of pixels at a time: those of a plot (scope_draw_run)
 * and those between plots (black), under the graticule layer, opaque. A
 * plot's column table gives each of its columns its bin across and, for
 * a waveform, which of its two threshold tables (CLH_ABI_SCOPE_COLUMN_*);
 * scope_bars has made a histogram's bars.
 */
kernel void
scope_draw (global const uint *counts, global const uint *bars,
    global const ClhScopePlotParams *plots, global const uint *columns,
    global const uint *thresholds, global const uchar *direct,
    global const uchar4 *layer, const ClhScopeDrawParams d,
    global uchar *out)
{
  const uint x0 = get_global_id (0) * d.span, y = get_global_id (1);
  ScopeRow rows[CLH_ABI_SCOPE_MAX_PLOTS];
  uint k = 0;

  if (x0 >= d.width || y >= d.height)
    return;
  const uint n = scope_row_plots (plots, d.n_plots, y, rows);
  const uint x1 = min (d.width, x0 + d.span);

  for (uint x = x0; x < x1;) {
    while (k < n && x >= rows[k].x1)
      k++;
    if (k < n && x >= rows[k].x0) {
      const uint end = min (x1, rows[k].x1);

      scope_draw_run (&rows[k], x, end, y, counts, bars, columns,
          thresholds, direct, layer, &d, out);
      x = end;
    } else {
      const uint end = k < n ? min (x1, rows[k].x0) : x1;
      global const uchar4 *g = layer + y * d.width;
      global uchar4 *o = (global uchar4 *) (out + y * d.pitch);

      for (; x < end; x++)
        o[x] = scope_pixel (0, g[x]);
    }
  }
}

/* Stores @stored in a sample's bytes. */
static void
scope_store (global uchar *p, uint sample, uint stored)
{
  if (sample == CLH_ABI_SAMPLE_8) {
    p[0] = (uchar) stored;
  } else if (sample == CLH_ABI_SAMPLE_16LE) {
    p[0] = (uchar) stored;
    p[1] = (uchar) (stored >> 8);
  } else {
    p[0] = (uchar) (stored >> 8);
    p[1] = (uchar) stored;
  }
}

/*
 * The picture blended into one component of the frame, in place: work-item
 * (sx, sy) for the component's sample sx, sy of the rectangle
 * (ClhScopeBlendParams), from the mean colour of the picture pixels it
 * covers. The other bits of a sample's bytes (P010's low six) become 0.
 */
kernel void
scope_blend (global uchar *src, const ClhScopeFrameParams f,
    const ClhScopeBlendParams b, global const uchar4 *picture)
{
  const uint sx = get_global_id (0), sy = get_global_id (1);
  const uint bw = 1u << b.w_sub, bh = 1u << b.h_sub, c = b.component;
  uint r = 0, g = 0, bl = 0;

  if (sx >= b.width >> b.w_sub || sy >= b.height >> b.h_sub)
    return;
  for (uint j = 0; j < bh; j++)
    for (uint i = 0; i < bw; i++) {
      const uchar4 p = picture[(sy * bh + j) * (b.pitch / 4) + sx * bw + i];

      r += p.x;
      g += p.y;
      bl += p.z;
    }
  const uint n = bw * bh;
  const long v = ((long) (int) b.matrix[0] * ((r + n / 2) / n)
      + (long) (int) b.matrix[1] * ((g + n / 2) / n)
      + (long) (int) b.matrix[2] * ((bl + n / 2) / n)
      + (long) b.offset + 32768) >> 16;
  const uint value = (uint) clamp (v, 0L, (long) f.mask);
  global uchar *p = src + f.bases[c] + ((b.y >> b.h_sub) + sy) * f.pitches[c]
      + f.offsets[c] + ((b.x >> b.w_sub) + sx) * f.pixel_strides[c];
  uint old;

  if (f.sample == CLH_ABI_SAMPLE_8)
    old = p[0];
  else if (f.sample == CLH_ABI_SAMPLE_16LE)
    old = p[0] | ((uint) p[1] << 8);
  else
    old = ((uint) p[0] << 8) | p[1];
  old = (old >> f.shifts[c]) & f.mask;
  scope_store (p, f.sample, ((old * (255 - b.alpha) + value * b.alpha + 127)
          / 255) << f.shifts[c]);
}
