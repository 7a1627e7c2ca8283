/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The contract between the marks engine (engine/clh-marks.c) and
 * kernels/marks.cl: the marks' ranks and how each is drawn, and the
 * kernel's parameters as one struct of 32-bit fields passed by value, as
 * in clh-kernel-abi.h.
 */
#ifndef CLH_MARKS_ABI_H
#define CLH_MARKS_ABI_H

#include "clh-kernel-abi.h"

/* False-colour bands a table may have. */
#define CLH_ABI_MARKS_MAX_BANDS 16

/* A pixel's mark is a rank: 0 none, 1 + i false-colour band i, then the
 * low zebra's stripe, the zebra's stripe, BRNG; a higher rank is drawn
 * over a lower one, and a subsampled chroma sample takes the highest rank
 * of the pixels it covers. The false-colour legend's pixels take the
 * legend's ranks whatever else they are: a band's own (its swatch), its
 * paper or its ink. */
#define CLH_ABI_MARK_NONE 0u
#define CLH_ABI_MARK_ZEBRA_LOW (CLH_ABI_MARKS_MAX_BANDS + 1u)
#define CLH_ABI_MARK_ZEBRA (CLH_ABI_MARKS_MAX_BANDS + 2u)
#define CLH_ABI_MARK_BRNG (CLH_ABI_MARKS_MAX_BANDS + 3u)
#define CLH_ABI_MARK_LEGEND_PAPER (CLH_ABI_MARKS_MAX_BANDS + 4u)
#define CLH_ABI_MARK_LEGEND_INK (CLH_ABI_MARKS_MAX_BANDS + 5u)
#define CLH_ABI_MARK_RANKS (CLH_ABI_MARKS_MAX_BANDS + 6u)

/* What a rank does to a pixel: nothing; paint its colour; show the
 * pixel's luma as grey (luma kept, chroma neutral; RGB: R = G = B =
 * luma). */
#define CLH_ABI_MARK_KEEP 0u
#define CLH_ABI_MARK_PAINT 1u
#define CLH_ABI_MARK_GREY 2u

/* Which marks are on (ClhMarkFlags). */
#define CLH_ABI_MARKS_ZEBRA 1u
#define CLH_ABI_MARKS_ZEBRA_LOW 2u
#define CLH_ABI_MARKS_FALSE_COLOUR 4u
#define CLH_ABI_MARKS_BRNG 8u

/* How a pixel's components are laid out (ClhMarksLayout). */
#define CLH_ABI_MARKS_GRAY 0u
#define CLH_ABI_MARKS_RGB 1u
#define CLH_ABI_MARKS_YUV 2u

/* exposure_marks: one work-item per block of (1 << block_w) x
 * (1 << block_h) pixels (a chroma sample's; 1 x 1 without subsampling),
 * blocks_x x blocks_y of them over width x height pixels. For each of up
 * to three components (Y, U, V or R, G, B; Y alone for gray): its plane's
 * byte base in the buffer, pitch, the sample's byte offset in a row and
 * pixel stride, and the shift of its value in the stored sample; samples
 * stored as sample says (CLH_ABI_SAMPLE_*), values masked by mask. marks:
 * CLH_ABI_MARKS_* bits. A pixel's luma L is the Y sample, or for RGB
 * (9798 R + 19235 G + 3735 B + 16384) >> 15. The zebra stripes pixels with
 * L >= zebra_level where (x + y + zebra_phase) % zebra_period <
 * zebra_period / 2; the low zebra those with L <= zebra_low_level where
 * (x + zebra_period - y % zebra_period + zebra_phase) % zebra_period <
 * zebra_period / 2. Band i holds L >= band_first[i] up to the next band's
 * first (n_bands of them, ascending, the first from 0). BRNG marks pixels
 * with a luma (or R, G, B) sample outside [legal_low, legal_high] or a
 * chroma sample of theirs outside [legal_low, chroma_high]. rank_modes and
 * rank_colours[3 * rank + c] say how each rank is drawn; neutral is the
 * grey's chroma. The pixels [legend_x, legend_x + legend_width) x
 * [legend_y, legend_y + legend_height) (none for a width of 0) take the
 * rank of the legend table's byte (legend_width a row) instead of
 * their own. */
typedef struct {
  CLH_U32 width;
  CLH_U32 height;
  CLH_U32 blocks_x;
  CLH_U32 blocks_y;
  CLH_U32 block_w;
  CLH_U32 block_h;
  CLH_U32 layout;
  CLH_U32 sample;
  CLH_U32 mask;
  CLH_U32 bases[3];
  CLH_U32 pitches[3];
  CLH_U32 offsets[3];
  CLH_U32 pixel_strides[3];
  CLH_U32 shifts[3];
  CLH_U32 marks;
  CLH_U32 zebra_level;
  CLH_U32 zebra_low_level;
  CLH_U32 zebra_period;
  CLH_U32 zebra_phase;
  CLH_U32 legal_low;
  CLH_U32 legal_high;
  CLH_U32 chroma_high;
  CLH_U32 neutral;
  CLH_U32 n_bands;
  CLH_U32 band_first[CLH_ABI_MARKS_MAX_BANDS];
  CLH_U32 rank_modes[CLH_ABI_MARK_RANKS];
  CLH_U32 rank_colours[3 * CLH_ABI_MARK_RANKS];
  CLH_U32 legend_x;
  CLH_U32 legend_y;
  CLH_U32 legend_width;
  CLH_U32 legend_height;
} ClhParamsMarks;

#endif
