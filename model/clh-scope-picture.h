/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a scope picture is: waveform, parade, vectorscope and histogram
 * panels side by side, the bins each plot counts, the levels a cell's
 * count is drawn at and the static graticule. Shared by the scope engine
 * (engine/clh-scope.c) and the element; plain C, no OpenCL, no GStreamer. */
#pragma once

#include "clh-frame.h"
#include "clh-scope-abi.h"

G_BEGIN_DECLS

/**
 * ClhScopeKind:
 * @CLH_SCOPE_WAVEFORM: luma waveform: a histogram of the luma per column
 * @CLH_SCOPE_PARADE: a waveform per channel (Y, Cb, Cr or R, G, B), side
 *   by side
 * @CLH_SCOPE_VECTORSCOPE: the joint histogram of the two colour
 *   differences (Cb across, Cr up), with the 75% colour-bar targets and
 *   the skin-tone line
 * @CLH_SCOPE_HISTOGRAM: a histogram per channel, stacked
 *
 * The scopes a picture shows, as flags; panels appear in this order, left
 * to right.
 */
typedef enum {
  CLH_SCOPE_WAVEFORM = 1 << 0,
  CLH_SCOPE_PARADE = 1 << 1,
  CLH_SCOPE_VECTORSCOPE = 1 << 2,
  CLH_SCOPE_HISTOGRAM = 1 << 3,
} ClhScopeKind;

#define CLH_SCOPE_ALL_KINDS 0xfu

/**
 * ClhScopeScale:
 * @CLH_SCOPE_LINEAR: a cell's brightness grows with its count
 * @CLH_SCOPE_LOG: with the logarithm of its count, so that single samples
 *   show beside dense ones
 *
 * How counts become brightness (and a histogram's bars, height).
 */
typedef enum {
  CLH_SCOPE_LINEAR,
  CLH_SCOPE_LOG,
} ClhScopeScale;

/**
 * ClhScopeGraticule:
 * @CLH_SCOPE_GRATICULE_IRE: lines at 0, 10, ..., 100 IRE of the channel's
 *   nominal range (0 and 100: its black and white, 16 and 235 at 8 bits
 *   limited range), highlighted
 * @CLH_SCOPE_GRATICULE_CODES: lines at a quarter of the code values apart,
 *   and the nominal black and white of limited range, highlighted
 * @CLH_SCOPE_GRATICULE_NONE: no lines, targets or skin-tone line
 *
 * The static lines drawn under the traces.
 */
typedef enum {
  CLH_SCOPE_GRATICULE_IRE,
  CLH_SCOPE_GRATICULE_CODES,
  CLH_SCOPE_GRATICULE_NONE,
} ClhScopeGraticule;

/**
 * ClhScopeSource:
 * @CLH_SCOPE_SOURCE_GRAY: component 0 is luma; no colour (the
 *   vectorscope counts every pixel at its centre)
 * @CLH_SCOPE_SOURCE_YUV: components 0, 1, 2 are Y, Cb, Cr, the two colour
 *   differences on one subsampling grid
 * @CLH_SCOPE_SOURCE_RGB: components 0, 1, 2 are 8-bit R, G, B; luma and the
 *   colour differences are computed with the spec's matrix in 16-bit
 *   fixed point (clh_scope_matrix()), full range
 *
 * What a frame's components are.
 */
typedef enum {
  CLH_SCOPE_SOURCE_GRAY = CLH_ABI_SCOPE_GRAY,
  CLH_SCOPE_SOURCE_YUV = CLH_ABI_SCOPE_YUV,
  CLH_SCOPE_SOURCE_RGB = CLH_ABI_SCOPE_RGB,
} ClhScopeSource;

/* Picture sizes a spec may ask for, pixels. */
#define CLH_SCOPE_MIN_SIZE 16
#define CLH_SCOPE_MAX_WIDTH 8192
#define CLH_SCOPE_MAX_HEIGHT 4096
/* The smallest plot, pixels either way. */
#define CLH_SCOPE_MIN_PLOT 8
/* The vectorscope's largest magnification. */
#define CLH_SCOPE_MAX_ZOOM 10

/**
 * ClhScopeSpec:
 * @kinds: the scopes, #ClhScopeKind flags, at least one
 * @width: the picture's width, %CLH_SCOPE_MIN_SIZE..%CLH_SCOPE_MAX_WIDTH
 * @height: its height, %CLH_SCOPE_MIN_SIZE..%CLH_SCOPE_MAX_HEIGHT
 * @source: what the frame's components are
 * @limited: whether the stream is limited range (its caps'
 *   %GST_VIDEO_COLOR_RANGE_16_235): where the graticule's black and white
 *   and the vectorscope's targets lie. RGB sources' colour differences
 *   are full range whatever it says.
 * @kr: the matrix's Kr in 1/10000 (BT.601: 2990, BT.709: 2126, BT.2020:
 *   2627), for RGB sources and the vectorscope's targets
 * @kb: its Kb in 1/10000 (BT.601: 1140, BT.709: 722, BT.2020: 593)
 * @scale: linear or log
 * @graticule: the lines drawn
 * @intensity: the brightness of a waveform or vectorscope cell holding the
 *   average density of samples, 0 < @intensity <= 1: a cell is at full
 *   brightness (linear scale) at 1 / @intensity times that density
 * @vectorscope_zoom: the vectorscope's magnification about its centre,
 *   1 to %CLH_SCOPE_MAX_ZOOM (0 is taken as 1): a colour difference's
 *   offset from neutral is drawn that many times as far out; the samples
 *   that fall beyond the plot are not drawn
 *
 * A scope picture to draw of frames.
 */
typedef struct {
  guint kinds;
  guint width;
  guint height;
  ClhScopeSource source;
  gboolean limited;
  guint kr;
  guint kb;
  ClhScopeScale scale;
  ClhScopeGraticule graticule;
  gdouble intensity;
  guint vectorscope_zoom;
} ClhScopeSpec;

/**
 * ClhScopePlotKind:
 * @CLH_SCOPE_PLOT_WAVEFORM: a histogram of a channel's values per column
 * @CLH_SCOPE_PLOT_VECTORSCOPE: the joint Cb x Cr histogram
 * @CLH_SCOPE_PLOT_HISTOGRAM: a channel's histogram, as bars
 *
 * What one plot of a picture shows.
 */
typedef enum {
  CLH_SCOPE_PLOT_WAVEFORM = CLH_ABI_SCOPE_WAVEFORM,
  CLH_SCOPE_PLOT_VECTORSCOPE = CLH_ABI_SCOPE_VECTORSCOPE,
  CLH_SCOPE_PLOT_HISTOGRAM = CLH_ABI_SCOPE_HISTOGRAM,
} ClhScopePlotKind;

/* A plot's channel that is the luma of R, G, B. */
#define CLH_SCOPE_LUMA CLH_ABI_SCOPE_LUMA
#define CLH_SCOPE_MAX_PLOTS CLH_ABI_SCOPE_MAX_PLOTS
#define CLH_SCOPE_LEVELS CLH_ABI_SCOPE_LEVELS
#define CLH_SCOPE_CLIP_COUNTERS CLH_ABI_SCOPE_CLIP_COUNTERS

/**
 * ClhScopePlot:
 * @kind: what it shows
 * @channel: a waveform's or histogram's channel: a component index, or
 *   %CLH_SCOPE_LUMA
 * @chroma: whether the channel is a colour difference (Cb, Cr)
 * @x: the plot's left column in the picture
 * @y: its top row
 * @width: its width, pixels
 * @height: its height, rows
 * @grid_width: samples across the grid it counts (its component's, the
 *   frame's for values made of R, G, B or for gray's vectorscope)
 * @grid_height: rows of that grid
 * @depth: bits of the values it bins (8 for values made of R, G, B)
 * @cols: bins across: a waveform's column bins, `min (width,
 *   grid_width)`, sample column x in bin `x * cols / grid_width`; a
 *   vectorscope's Cb bins; a histogram's value bins
 * @rows: bins up: a waveform's value bins, the vectorscope's Cr bins; 1
 *   for a histogram
 * @shift: value v goes to value bin `v >> shift`. Value bins (a
 *   waveform's rows, a vectorscope's rows and cols, a histogram's cols)
 *   number `2^depth >> shift`: the largest power of two no larger than
 *   the plot's pixels along their axis, nor 2^depth, nor 1024 for a
 *   waveform, 512 for a vectorscope, 4096 for a histogram (a
 *   vectorscope's pixels times its zoom)
 * @count_base: the plot's first counter in the picture's counts
 * @colour: the trace's colour, 0x00BBGGRR (a vectorscope colours each
 *   cell by its own Cb, Cr)
 * @clip_width: a histogram's clip indicators' width, pixels (0: none):
 *   one left of its bars, one right, each @clip_gap columns from them,
 *   outside the plot's rectangle
 * @clip_gap: columns between an indicator and the bars
 * @clip_low: a histogram's clip-low level: samples at or below it are
 *   crushed (its channel's nominal black for the spec's range, as
 *   `clhistogram`'s clip-low-level 0 puts it)
 * @clip_high: its clip-high level: samples at or above it are clipped
 *   (nominal white, as clip-high-level 100)
 * @zoom: a vectorscope's magnification about its centre,
 *   1..%CLH_SCOPE_MAX_ZOOM (1 for other plots): its pixel u across (up)
 *   shows bin `(side (zoom - 1) bins / 2 + u bins) / (side zoom)`, the
 *   middle zoom-th of its bins, which are as many as `side * zoom`
 *   pixels hold
 *
 * One plot of a picture, and how its counters lie: a waveform's and a
 * vectorscope's `rows x cols`, row-major (`count_base + value_bin * cols +
 * col`, Cr bin * cols + Cb bin); a histogram's `cols`, then
 * %CLH_SCOPE_CLIP_COUNTERS more: its samples at or below @clip_low, and
 * those at or above @clip_high.
 */
typedef struct {
  ClhScopePlotKind kind;
  guint channel;
  gboolean chroma;
  guint x;
  guint y;
  guint width;
  guint height;
  guint grid_width;
  guint grid_height;
  guint depth;
  guint cols;
  guint rows;
  guint shift;
  gsize count_base;
  guint32 colour;
  guint clip_width;
  guint clip_gap;
  guint clip_low;
  guint clip_high;
  guint zoom;
} ClhScopePlot;

/**
 * ClhScopeLayout:
 * @n_plots: plots in @plots
 * @plots: the plots, panel by panel left to right
 * @n_counts: counters of all plots
 *
 * Where each plot of a picture lies and what it counts.
 */
typedef struct {
  guint n_plots;
  ClhScopePlot plots[CLH_SCOPE_MAX_PLOTS];
  gsize n_counts;
} ClhScopeLayout;

gboolean clh_scope_spec_is_valid (const ClhScopeSpec *spec,
    const ClhFrame *frame, GError **error);
guint clh_scope_shares (guint kinds, ClhScopeSource source);
void clh_scope_layout (const ClhScopeSpec *spec, const ClhFrame *frame,
    ClhScopeLayout *layout);
void clh_scope_matrix (guint kr, guint kb, gint32 matrix[9]);
gdouble clh_scope_full_count (const ClhScopeSpec *spec,
    const ClhScopePlot *plot, guint n);
void clh_scope_thresholds (const ClhScopeSpec *spec,
    const ClhScopePlot *plot, guint n, guint32 thresholds[CLH_SCOPE_LEVELS]);
void clh_scope_output_matrix (const ClhScopeSpec *spec, guint depth,
    gint32 matrix[9], guint32 offsets[3]);
void clh_scope_draw_graticule (const ClhScopeSpec *spec,
    const ClhScopeLayout *layout, guint8 *rgba, gsize stride);

G_END_DECLS
