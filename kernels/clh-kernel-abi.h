/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The contract between the engine and kernels/histogram.cl: the constants
 * both sides use, and each kernel's per-launch parameters as one struct
 * passed by value. The kernels include it (kernels/embed.py inlines it into
 * the embedded source, with #line markers); on the host it is C over GLib,
 * included by model/clh-frame.h and engine/clh-engine-dispatch.c.
 *
 * The structs hold 32-bit unsigned fields only, so that they have one
 * layout on the host and on every device: OpenCL C 1.2 (section 6.9) lets
 * a kernel take a struct argument, and its layout follows the host's C
 * rules for such members.
 */
#ifndef CLH_KERNEL_ABI_H
#define CLH_KERNEL_ABI_H

#ifdef __OPENCL_VERSION__
#define CLH_U32 uint
#else
#include <glib.h>
#define CLH_U32 guint32
#endif

/* How a sample is stored (ClhSampleType). */
#define CLH_ABI_SAMPLE_8 0
#define CLH_ABI_SAMPLE_16LE 1
#define CLH_ABI_SAMPLE_16BE 2

/* What a colour kernel counts per pixel (ClhCount). */
#define CLH_ABI_COUNT_COMPONENTS 0
#define CLH_ABI_COUNT_LUMA 1
#define CLH_ABI_COUNT_MAX 2
#define CLH_ABI_COUNT_HUE 3
#define CLH_ABI_COUNT_HUE_SATURATION 4
#define CLH_ABI_COUNT_RGB 5

/* What a colour frame's components are (ClhColor). */
#define CLH_ABI_COLOR_RGB 0
#define CLH_ABI_COLOR_YUV_BT601 1

/* Bytes of the 8-bit kernels' local table of bins (fill_bin_table): a
 * ushort for each of the 256 values, passed as a local argument. */
#define CLH_ABI_BIN_TABLE_BYTES 512

/* byte_channels of ClhParams8bit when the plane is read a byte a sample. */
#define CLH_ABI_NO_WORDS 0xffffffffu

/* What every launch says of the privatized sub-histograms in local memory
 * and of the other histogram buffer, cleared for the next frame: n_copies
 * copies of the bins copy_stride counters apart, and n_zero counters of
 * the other buffer to clear. Its work-groups [0, whole_groups) count the
 * whole band into the counters at the kernel's hist_base; the others count
 * the n_regions entries of the region table (ClhRegion), group
 * whole_groups + g being the table's group g. The histogram buffer's 16-bit
 * counters start narrow_base 32-bit counters into it. */
typedef struct {
  CLH_U32 n_copies;
  CLH_U32 copy_stride;
  CLH_U32 n_zero;
  CLH_U32 whole_groups;
  CLH_U32 n_regions;
  CLH_U32 narrow_base;
} ClhLaunchParams;

/* One entry of a launch's region table: the frame's pixels [x0, x1) x
 * [y0, y1) (clipped; empty when x0 == x1), counted by the launch's
 * work-groups [first_group, first_group + n_groups) into counters offset
 * hist_base from the launch's own; narrow (1 or 0): into 16-bit counters
 * instead, hist_base from the launch's first 16-bit counter, which only a
 * region of one work-group and at most 65535 samples per channel may have
 * (its group is then the only one to touch them, and no count can pass
 * 65535). A subsampled component's sample (sx, sy) is the region's iff its
 * co-sited pixel (sx << w_sub, sy << h_sub) lies in it: sx in
 * [ceil (x0 / 2^w_sub), ceil (x1 / 2^w_sub)). The table's n_regions entries
 * are followed by one uint per work-group: the entry it counts. */
typedef struct {
  CLH_U32 x0;
  CLH_U32 y0;
  CLH_U32 x1;
  CLH_U32 y1;
  CLH_U32 first_group;
  CLH_U32 n_groups;
  CLH_U32 hist_base;
  CLH_U32 narrow;
} ClhRegion;

/* What the two component kernels read: rows [0, rows) of a plane at byte
 * base, pitch bytes apart, width samples of pixel_stride bytes each; the
 * first is the component's row row0 (its band's first), and a sample's
 * co-sited pixel is (x << w_sub, y << h_sub). */
typedef struct {
  CLH_U32 base;
  CLH_U32 pitch;
  CLH_U32 width;
  CLH_U32 rows;
  CLH_U32 pixel_stride;
  CLH_U32 row0;
  CLH_U32 w_sub;
  CLH_U32 h_sub;
} ClhPlaneRows;

/* histogram_8bit: n_channels components of the plane's pixels at offsets
 * within a pixel; values binned over [range_min, range_min + range_size)
 * into bins, by v >> bin_shift when bin_shift < 8, else by a table;
 * byte_channels maps each byte of a 32-bit word to its channel
 * (CLH_ABI_NO_WORDS: read a byte a sample); the channels' counters start
 * at hist_base. */
typedef struct {
  ClhLaunchParams launch;
  ClhPlaneRows plane;
  CLH_U32 n_channels;
  CLH_U32 offsets[4];
  CLH_U32 byte_channels;
  CLH_U32 range_min;
  CLH_U32 range_size;
  CLH_U32 bins;
  CLH_U32 bin_shift;
  CLH_U32 hist_base;
} ClhParams8bit;

/* histogram_8bit_batch: one launch over the frames of many streams, staged
 * one after the other into one device buffer. Each entry is one
 * histogram_8bit launch's parameters (launch.whole_groups its work-groups,
 * no regions, nothing to clear; plane.base and hist_base already offset to
 * its frame's rows and counters in the batch's buffers), and the first of
 * the batch's work-groups it takes; entries are sorted by first_group. */
typedef struct {
  ClhParams8bit params;
  CLH_U32 first_group;
} ClhBatchEntry;

/* What a batched launch says of its entries: n_entries of them at the
 * start of the batch buffer, whose counters start counters_base 32-bit
 * words into it. */
typedef struct {
  CLH_U32 n_entries;
  CLH_U32 counters_base;
} ClhBatchParams;

/* histogram_component: one component of the plane's rows, its first sample
 * offset bytes into a row; a sample is stored as sample says, its value
 * (stored >> shift) & mask; bins [window_lo, window_lo + window_n) of bins
 * over [range_min, range_min + range_size) counted in this launch into the
 * channel at hist_base, whose counters are channel_stride apart from the
 * next channel's. */
typedef struct {
  ClhLaunchParams launch;
  ClhPlaneRows plane;
  CLH_U32 offset;
  CLH_U32 sample;
  CLH_U32 shift;
  CLH_U32 mask;
  CLH_U32 range_min;
  CLH_U32 range_size;
  CLH_U32 bins;
  CLH_U32 window_lo;
  CLH_U32 window_n;
  CLH_U32 channel_stride;
  CLH_U32 hist_base;
} ClhParamsComponent;

/* histogram_colour: frame rows [y0, y0 + rows), width pixels; for each of
 * up to four 8-bit components its plane's base and the plane row there
 * (row0), pitch, byte offset, pixel stride and subsampling (w_sub |
 * h_sub << 4); has_alpha: the fourth is alpha (count = max); color and
 * count as CLH_ABI_COLOR_* and CLH_ABI_COUNT_*; pixels under
 * min_saturation or min_value (HSV) are skipped by the hue counts; bins
 * [window_lo, window_lo + window_n) counted in this launch. */
typedef struct {
  ClhLaunchParams launch;
  CLH_U32 y0;
  CLH_U32 width;
  CLH_U32 rows;
  CLH_U32 bases[4];
  CLH_U32 row0s[4];
  CLH_U32 pitches[4];
  CLH_U32 offsets[4];
  CLH_U32 pixel_strides[4];
  CLH_U32 subs[4];
  CLH_U32 has_alpha;
  CLH_U32 color;
  CLH_U32 count;
  CLH_U32 bins;
  CLH_U32 range_min;
  CLH_U32 range_size;
  CLH_U32 min_saturation;
  CLH_U32 min_value;
  CLH_U32 window_lo;
  CLH_U32 window_n;
  CLH_U32 channel_stride;
} ClhParamsColour;

#endif
