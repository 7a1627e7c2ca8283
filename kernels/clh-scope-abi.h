/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The contract between the scope engine (engine/clh-scope.c) and
 * kernels/scope.cl: the constants both sides use and the tables the
 * kernels read, 32-bit fields only, as in clh-kernel-abi.h.
 */
#ifndef CLH_SCOPE_ABI_H
#define CLH_SCOPE_ABI_H

#include "clh-kernel-abi.h"

/* What a plot shows (ClhScopePlotKind). */
#define CLH_ABI_SCOPE_WAVEFORM 0
#define CLH_ABI_SCOPE_VECTORSCOPE 1
#define CLH_ABI_SCOPE_HISTOGRAM 2

/* Where a frame's luma and chroma come from (ClhScopeSource). */
#define CLH_ABI_SCOPE_GRAY 0
#define CLH_ABI_SCOPE_YUV 1
#define CLH_ABI_SCOPE_RGB 2

/* A waveform's or histogram's channel that is no component but the luma
 * of R, G, B (ClhScopePlot's channel). */
#define CLH_ABI_SCOPE_LUMA 15

/* Plots one picture has at most: a waveform, a parade and a histogram of
 * three channels each, and a vectorscope. */
#define CLH_ABI_SCOPE_MAX_PLOTS 8

/* Levels a cell's count is mapped to (a plot's threshold table has one
 * entry per level), and the tables per plot: a waveform's columns gather
 * n or n + 1 frame columns, each with its own table. */
#define CLH_ABI_SCOPE_LEVELS 256
#define CLH_ABI_SCOPE_TABLES 2

/* Counts a plot's level table gives directly (bytes, per threshold
 * table); larger ones are searched for in the thresholds. */
#define CLH_ABI_SCOPE_DIRECT 1024

/* A plot's column table entry: the column's bin across (low bits), and,
 * for a waveform, its threshold table (0: the bin gathers n_lo grid
 * columns, 1: n_lo + 1) from bit CLH_ABI_SCOPE_COLUMN_TABLE. */
#define CLH_ABI_SCOPE_COLUMN_BIN 0x3fffffffu
#define CLH_ABI_SCOPE_COLUMN_TABLE 30
/* A histogram's column beside its bars (flagged thus): its bin is 0 for
 * the clip-low indicator, 1 for the clip-high one, 2 for the gap between
 * an indicator and the bars. */
#define CLH_ABI_SCOPE_COLUMN_SIDE 0x80000000u

/* Counters a histogram has after its bins: its samples at or below its
 * clip-low level, then those at or above its clip-high level. */
#define CLH_ABI_SCOPE_CLIP_COUNTERS 2

/* The clip indicators' lamps, 0x00BBGGRR: clipped high red, crushed
 * azure (histogramoverlay's zone colours), unlit dark gray. */
#define CLH_ABI_SCOPE_CLIPPED_COLOUR 0x000000ffu
#define CLH_ABI_SCOPE_CRUSHED_COLOUR 0x00ffa000u
#define CLH_ABI_SCOPE_UNLIT_COLOUR 0x00404040u

/* The frame as scope_count reads it: for each of up to four components
 * its plane's byte offset in the source buffer (base), the plane's row
 * pitch, the component's byte offset in a row, its pixel stride and shift;
 * how a sample is stored (CLH_ABI_SAMPLE_*) and the mask of its depth;
 * the frame's size; what the components are (CLH_ABI_SCOPE_GRAY, _YUV,
 * _RGB); for RGB, the 16-bit fixed-point rows of the matrix from R, G, B
 * to luma and to the two colour differences (luma, Cb, Cr; R, G, B
 * coefficients each, two's complement). */
typedef struct {
  CLH_U32 bases[4];
  CLH_U32 pitches[4];
  CLH_U32 offsets[4];
  CLH_U32 pixel_strides[4];
  CLH_U32 shifts[4];
  CLH_U32 sample;
  CLH_U32 mask;
  CLH_U32 width;
  CLH_U32 height;
  CLH_U32 source;
  CLH_U32 matrix[9];
} ClhScopeFrameParams;

/* One count of scope_count: its work-groups [first_group, first_group +
 * n_tiles * n_slices); group first_group + s * n_tiles + t counts tile t
 * (bins [t * tile_bins, (t + 1) * tile_bins) of the job's tiled axis:
 * columns of a waveform, Cr rows of a vectorscope, bins of a histogram)
 * over rows [s * grid_height / n_slices, (s + 1) * grid_height / n_slices)
 * of the grid it reads (grid_width x grid_height samples: a component's,
 * or the frame's for values made of R, G, B). A value v goes to value
 * bin v >> shift. A waveform's sample in column x goes to column bin
 * x * cols / grid_width, which is (x * col_mul) >> 32 (col_mul = 0: x).
 * Its counters start count_base into the counts buffer: a waveform's
 * rows (values) x cols and a vectorscope's rows (Cr) x cols (Cb),
 * row-major, a histogram's cols. Work-item i of a group takes columns
 * i % 2^lx_bits apart by 2^lx_bits, rows i >> lx_bits apart by the rest.
 * The group counts into n_copies copies of its tile (a power of two), a
 * sample of column x into copy x % n_copies, so that neighbouring samples
 * of one value count into different counters (a CPU work-item's
 * increments of one counter wait for each other). A histogram's tiled
 * axis is its cols bins and its CLH_ABI_SCOPE_CLIP_COUNTERS counters
 * after them: of values v <= clip_low, of values v >= clip_high. */
typedef struct {
  CLH_U32 kind;
  CLH_U32 channel;
  CLH_U32 first_group;
  CLH_U32 n_tiles;
  CLH_U32 n_slices;
  CLH_U32 tile_bins;
  CLH_U32 grid_width;
  CLH_U32 grid_height;
  CLH_U32 cols;
  CLH_U32 rows;
  CLH_U32 shift;
  CLH_U32 col_mul;
  CLH_U32 count_base;
  CLH_U32 lx_bits;
  CLH_U32 n_copies;
  CLH_U32 clip_low;
  CLH_U32 clip_high;
} ClhScopeJob;

/* scope_count: n_jobs jobs at the start of the job buffer, sorted by
 * first_group. */
typedef struct {
  ClhScopeFrameParams frame;
  CLH_U32 n_jobs;
} ClhScopeCountParams;

/* One plot of the picture as scope_bars and scope_draw use it: kind
 * (CLH_ABI_SCOPE_*); the rectangle x, y, width, height in picture pixels;
 * its bins, cols across and rows up (a histogram's rows: 1), whose counters
 * start count_base (laid out as its job's); row r from the bottom shows
 * value bin r * rows / height = (r * row_mul) >> 32 (0: r), or, on a
 * vectorscope magnified zoom > 1 times about its centre, bin
 * (height * (zoom - 1) * rows / 2 + r * rows) / (height * zoom); its
 * picture columns' entries start columns into the column table; the
 * trace's colour as 0x00BBGGRR; a histogram's bars (log: on a log scale)
 * start bars into the bars buffer, cols of them and then its clip gauges'
 * heights (rows from the bottom), each `ceil (count * gauge / samples)` of
 * its clip counter's count. A histogram's clip indicators, clip_width
 * columns wide, lie side columns out from its rectangle (its indicator and
 * the gap), their lamps in the clip_width rows from row lamp up (0: none). */
typedef struct {
  CLH_U32 kind;
  CLH_U32 x;
  CLH_U32 y;
  CLH_U32 width;
  CLH_U32 height;
  CLH_U32 cols;
  CLH_U32 rows;
  CLH_U32 row_mul;
  CLH_U32 count_base;
  CLH_U32 columns;
  CLH_U32 colour;
  CLH_U32 log;
  CLH_U32 bars;
  CLH_U32 side;
  CLH_U32 clip_width;
  CLH_U32 lamp;
  CLH_U32 gauge;
  CLH_U32 samples;
  CLH_U32 zoom;
} ClhScopePlotParams;

/* scope_draw: a width x height RGBA picture, pitch bytes a row, of
 * n_plots plots (the plot table: ClhScopePlotParams each), their
 * CLH_ABI_SCOPE_TABLES x CLH_ABI_SCOPE_LEVELS thresholds each and the
 * same tables' levels of the counts below CLH_ABI_SCOPE_DIRECT; each
 * work-item composes span pixels of a row. */
typedef struct {
  CLH_U32 width;
  CLH_U32 height;
  CLH_U32 pitch;
  CLH_U32 n_plots;
  CLH_U32 span;
} ClhScopeDrawParams;

/* scope_blend: the picture (width x height RGBA, pitch bytes a row)
 * blended into component c of the frame (ClhScopeFrameParams) over the
 * frame's pixels [x, x + width) x [y, y + height), on the component's
 * grid (w_sub, h_sub: its subsampling; x, y, width and height are
 * multiples of its samples' size): each sample takes the mean R, G, B of
 * the picture pixels it covers, rounded, through its row of matrix
 * (coefficients in 1/65536, two's complement) and offset, clamped to
 * 0..mask, then (sample (255 - alpha) + value alpha + 127) / 255. */
typedef struct {
  CLH_U32 component;
  CLH_U32 w_sub;
  CLH_U32 h_sub;
  CLH_U32 x;
  CLH_U32 y;
  CLH_U32 width;
  CLH_U32 height;
  CLH_U32 pitch;
  CLH_U32 alpha;
  CLH_U32 matrix[3];
  CLH_U32 offset;
} ClhScopeBlendParams;

#endif
