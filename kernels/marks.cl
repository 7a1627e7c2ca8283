/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Exposure marks (OpenCL C 1.2), written into the frame in its own format:
 * zebra stripes over the samples at or above a level (and a low zebra at
 * or below one), false colour by luma bands, and pixels marks_outside the
 * broadcast range painted as FFmpeg's `signalstats=out=brng` paints them.
 *
 * One work-item owns one block of pixels, the pixels one chroma sample
 * covers (one pixel without subsampling): it reads the block's samples,
 * ranks each pixel's marks, writes each pixel's luma and then the block's
 * chroma in the colour of the highest rank among its pixels. No two
 * work-items touch the same byte, packed formats included, so the frame
 * is marked in place in one launch. Integer arithmetic only: the golden
 * reference gives the same bytes.
 */
#include "clh-marks-abi.h"

/* The stored sample (byte or 16-bit word) at byte @at. */
static uint
marks_load (global const uchar *frame, uint at, uint sample)
{
  if (sample == CLH_ABI_SAMPLE_8)
    return frame[at];
  if (sample == CLH_ABI_SAMPLE_16LE)
    return frame[at] | ((uint) frame[at + 1] << 8);
  return ((uint) frame[at] << 8) | frame[at + 1];
}

static void
marks_store (global uchar *frame, uint at, uint sample, uint stored)
{
  if (sample == CLH_ABI_SAMPLE_8) {
    frame[at] = (uchar) stored;
  } else if (sample == CLH_ABI_SAMPLE_16LE) {
    frame[at] = (uchar) stored;
    frame[at + 1] = (uchar) (stored >> 8);
  } else {
    frame[at] = (uchar) (stored >> 8);
    frame[at + 1] = (uchar) stored;
  }
}

/* Byte of component @c's sample (@sx, @sy), in its own sample grid. */
static uint
marks_at (const ClhParamsMarks *p, uint c, uint sx, uint sy)
{
  return p->bases[c] + sy * p->pitches[c] + p->offsets[c]
      + sx * p->pixel_strides[c];
}

static uint
marks_read (global const uchar *frame, const ClhParamsMarks *p, uint c,
    uint sx, uint sy)
{
  return (marks_load (frame, marks_at (p, c, sx, sy), p->sample)
      >> p->shifts[c]) & p->mask;
}

/* Writes @value into the component's bits of the stored sample, leaving
 * its other bits (a 10-bit sample's unused six) as they were. */
static void
marks_write (global uchar *frame, const ClhParamsMarks *p, uint c, uint sx,
    uint sy, uint value)
{
  const uint at = marks_at (p, c, sx, sy);
  const uint stored = marks_load (frame, at, p->sample);
  const uint bits = p->mask << p->shifts[c];

  marks_store (frame, at, p->sample,
      (stored & ~bits) | ((value << p->shifts[c]) & bits));
}

static int
marks_outside (uint v, uint low, uint high)
{
  return v < low || v > high;
}

/* The highest mark of a pixel of luma @luma at (@x, @y); @brng_out: one of
 * its samples lies marks_outside the broadcast range. */
static uint
marks_rank (const ClhParamsMarks *p, uint x, uint y, uint luma,
    int brng_out)
{
  const uint period = p->zebra_period, stripe = period / 2;
  uint rank = CLH_ABI_MARK_NONE;

  if (p->marks & CLH_ABI_MARKS_FALSE_COLOUR) {
    uint band = 0;

    for (uint i = 1; i < p->n_bands; i++)
      if (luma >= p->band_first[i])
        band = i;
    rank = 1 + band;
  }
  if ((p->marks & CLH_ABI_MARKS_ZEBRA_LOW) && luma <= p->zebra_low_level
      && (x + period - y % period + p->zebra_phase) % period < stripe)
    rank = CLH_ABI_MARK_ZEBRA_LOW;
  if ((p->marks & CLH_ABI_MARKS_ZEBRA) && luma >= p->zebra_level
      && (x + y + p->zebra_phase) % period < stripe)
    rank = CLH_ABI_MARK_ZEBRA;
  if ((p->marks & CLH_ABI_MARKS_BRNG) && brng_out)
    rank = CLH_ABI_MARK_BRNG;
  return rank;
}

/* @rank, or the legend's where pixel (@x, @y) lies in it (the unsigned
 * differences wrap above the legend and left of it). */
static uint
marks_legend (global const uchar *legend, const ClhParamsMarks *p, uint x,
    uint y, uint rank)
{
  const uint lx = x - p->legend_x, ly = y - p->legend_y;

  if (lx < p->legend_width && ly < p->legend_height)
    return legend[ly * p->legend_width + lx];
  return rank;
}

/* An RGB pixel: its luma, its rank, its three components drawn. */
static void
marks_rgb (global uchar *frame, global const uchar *legend,
    const ClhParamsMarks *p, uint x, uint y)
{
  const uint r = marks_read (frame, p, 0, x, y);
  const uint g = marks_read (frame, p, 1, x, y);
  const uint b = marks_read (frame, p, 2, x, y);
  const uint luma = (9798u * r + 19235u * g + 3735u * b + 16384u) >> 15;
  const int brng_out = marks_outside (r, p->legal_low, p->legal_high)
      || marks_outside (g, p->legal_low, p->legal_high)
      || marks_outside (b, p->legal_low, p->legal_high);
  const uint rank = marks_legend (legend, p, x, y,
      marks_rank (p, x, y, luma, brng_out));
  const uint mode = p->rank_modes[rank];

  for (uint c = 0; c < 3 && mode != CLH_ABI_MARK_KEEP; c++)
    marks_write (frame, p, c, x, y, mode == CLH_ABI_MARK_GREY ? luma :
        p->rank_colours[3 * rank + c]);
}

/*
 * A block: its pixels' luma marked one by one, then (YUV) the chroma
 * sample of the block in the highest rank's colour, or neutral for a grey
 * band. BRNG reads the block's chroma before anything is written. The
 * false-colour legend (@legend, one rank a pixel) covers whole blocks.
 */
kernel void
exposure_marks (global uchar *frame, const ClhParamsMarks p,
    global const uchar *legend)
{
  const uint bx = get_global_id (0), by = get_global_id (1);
  const uint yuv = p.layout == CLH_ABI_MARKS_YUV;
  uint x0, y0, x1, y1, top = CLH_ABI_MARK_NONE, mode;
  int chroma_out = 0;

  if (bx >= p.blocks_x || by >= p.blocks_y)
    return;
  if (p.layout == CLH_ABI_MARKS_RGB) {
    marks_rgb (frame, legend, &p, bx, by);
    return;
  }
  x0 = bx << p.block_w;
  y0 = by << p.block_h;
  x1 = min (x0 + (1u << p.block_w), p.width);
  y1 = min (y0 + (1u << p.block_h), p.height);
  if (yuv)
    chroma_out = marks_outside (marks_read (frame, &p, 1, bx, by), p.legal_low,
        p.chroma_high) || marks_outside (marks_read (frame, &p, 2, bx, by),
        p.legal_low, p.chroma_high);

  for (uint y = y0; y < y1; y++)
    for (uint x = x0; x < x1; x++) {
      const uint luma = marks_read (frame, &p, 0, x, y);
      const uint rank = marks_legend (legend, &p, x, y, marks_rank (&p, x,
              y, luma, chroma_out || marks_outside (luma, p.legal_low,
                  p.legal_high)));

      if (p.rank_modes[rank] == CLH_ABI_MARK_PAINT)
        marks_write (frame, &p, 0, x, y, p.rank_colours[3 * rank]);
      top = max (top, rank);
    }

  mode = p.rank_modes[top];
  if (!yuv || mode == CLH_ABI_MARK_KEEP)
    return;
  marks_write (frame, &p, 1, bx, by, mode == CLH_ABI_MARK_GREY ? p.neutral :
      p.rank_colours[3 * top + 1]);
  marks_write (frame, &p, 2, bx, by, mode == CLH_ABI_MARK_GREY ? p.neutral :
      p.rank_colours[3 * top + 2]);
}
