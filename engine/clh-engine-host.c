/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Counting on the host CPU, for CPU OpenCL devices.
 *
 * On a CPU device the kernels run on the same cores as this code, behind a
 * launch: starting PoCL's worker threads, waiting for them and mapping
 * the counters back, on top of counting, costs more than counting a small
 * frame in a plain loop. Counted here, a GRAY8 frame in a pipeline takes a
 * fraction of its time through PoCL's kernels (measured: see
 * docs/performance.md, "CPU-only hosts"). So the frames of the common
 * requests, 8-bit components (GRAY8, a Y plane, the channels of RGB
 * formats, chroma planes) and the luma or maximum of 8-bit RGB, are
 * counted here, where they lie, into the slot's
 * host counters, in the layout the kernels read back: per channel [bins...,
 * below, above], the whole frame's then each region's. Colour counts
 * (hue, hue-saturation, rgb), YUV-derived colours and 16-bit samples still
 * run the kernels.
 *
 * Samples are counted by their stored byte, 256 counters per channel, and
 * the 256 counts then added to the bins, below and above (a table of each
 * byte's counter): a sample costs one load and one increment, with no
 * lookup between them; the table is read 256 times a channel, not once a
 * sample.
 * Pixels go round-robin into COPIES sub-histograms: consecutive samples of
 * one value then increment different counters, and a frame of one value
 * does not serialize every increment on the previous one's store (the
 * replicated sub-histograms of the GPU kernels, for the same reason).
 * Counters are 32-bit: a channel has at most 2^28 samples. */
#include "clh-engine-host.h"

#include <string.h>

#define COPIES 4

/* A channel's counter index for each stored byte: its bin, or n_bins for
 * values below the range and n_bins + 1 above it. */
typedef struct {
  guint16 index[256];
} ByteBins;

static void
byte_bins_init (ByteBins *t, const ClhHistogramSpec *spec, guint shift,
    guint depth)
{
  const guint64 size = (guint64) spec->range_max - spec->range_min + 1;
  const guint mask = (1u << depth) - 1;
  guint v;

  for (v = 0; v < 256; v++) {
    const guint value = (v >> shift) & mask;

    if (value < spec->range_min)
      t->index[v] = spec->bins;
    else if (value > spec->range_max)
      t->index[v] = spec->bins + 1;
    else
      t->index[v] = (guint16) ((value - spec->range_min) * (guint64)
          spec->bins / size);
  }
}

/* The rectangle of a component's own grid whose samples' co-sited pixels
 * lie in pixels [x0, x1) x [y0, y1). */
typedef struct {
  guint x0, x1, y0, y1;
} Grid;

static Grid
component_grid (const ClhComponent *comp, const ClhRegion *e)
{
  Grid g = { clh_sub_scale (e->x0, comp->w_sub), clh_sub_scale (e->x1,
        comp->w_sub), clh_sub_scale (e->y0, comp->h_sub),
    clh_sub_scale (e->y1, comp->h_sub)
  };

  return g;
}

/* Adds @n_ch channels' COPIES sub-histograms of 256 byte counters to the
 * output's counters, channel c's at out + c * stride, through each
 * channel's table. */
static void
fold_copies (const guint32 *sub, guint n_ch, const ByteBins *t,
    gsize stride, guint32 *out)
{
  guint c, j, v;

  for (c = 0; c < n_ch; c++) {
    const guint32 *mine = sub + c * COPIES * 256;

    for (v = 0; v < 256; v++) {
      guint32 sum = 0;

      for (j = 0; j < COPIES; j++)
        sum += mine[j * 256 + v];
      out[c * stride + t[c].index[v]] += sum;
    }
  }
}

/* One 8-bit channel, a byte per pixel: GRAY8 and planar formats' planes,
 * the common case, four pixels at a time. */
static void
count_bytes (const guint8 *base, gsize pitch, const Grid *g, guint32 *sub)
{
  guint x, y;

  for (y = g->y0; y < g->y1; y++) {
    const guint8 *row = base + y * pitch;

    for (x = g->x0; x + COPIES <= g->x1; x += COPIES) {
      sub[row[x]]++;
      sub[256 + row[x + 1]]++;
      sub[512 + row[x + 2]]++;
      sub[768 + row[x + 3]]++;
    }
    for (; x < g->x1; x++)
      sub[row[x]]++;
  }
}

/* Channels that share a plane, a pixel stride and a grid (RGBA's four, an
 * NV12 UV plane's two), every pixel read once for all of them; pixel x
 * goes to copy x % COPIES. */
static void
count_pixels (const guint8 *base, gsize pitch, guint pixel_stride,
    const guint *offsets, guint n_ch, const Grid *g, guint32 *sub)
{
  guint x, y, c;

  for (y = g->y0; y < g->y1; y++) {
    const guint8 *row = base + y * pitch;

    for (x = g->x0; x < g->x1; x++) {
      const guint8 *px = row + (gsize) x * pixel_stride;
      guint32 *copy = sub + (x % COPIES) * 256;

      for (c = 0; c < n_ch; c++)
        copy[c * COPIES * 256 + px[offsets[c]]]++;
    }
  }
}

/* Whether the request's channels lie in one plane with one pixel stride
 * and one subsampling. */
static gboolean
channels_share_pixels (const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  const ClhComponent *first = &frame->components[spec->components[0]];
  guint c;

  for (c = 1; c < spec->n_components; c++) {
    const ClhComponent *o = &frame->components[spec->components[c]];

    if (o->plane != first->plane || o->pixel_stride != first->pixel_stride
        || o->w_sub != first->w_sub || o->h_sub != first->h_sub)
      return FALSE;
  }
  return TRUE;
}

/* Every component channel's samples in @e, into @out (channel c at
 * out + c * stride). */
static void
count_components (const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ByteBins *tables, const ClhRegion *e, guint32 *sub, guint32 *out)
{
  const gsize stride = spec->bins + 2;
  const guint n = spec->n_components;
  /* All in one pass, or one channel a pass. */
  const guint n_ch = channels_share_pixels (frame, spec) ? n : 1;
  guint c, first;

  for (first = 0; first < n; first += n_ch) {
    const ClhComponent *comp = &frame->components[spec->components[first]];
    const ClhPlane *plane = &frame->planes[comp->plane];
    const Grid g = component_grid (comp, e);
    guint offsets[CLH_MAX_CHANNELS];

    memset (sub, 0, sizeof (guint32) * n_ch * COPIES * 256);
    for (c = 0; c < n_ch; c++)
      offsets[c] = frame->components[spec->components[first + c]].offset;
    if (n_ch == 1 && comp->pixel_stride == 1)
      count_bytes (plane->data + comp->offset, plane->stride, &g, sub);
    else
      count_pixels (plane->data, plane->stride, comp->pixel_stride, offsets,
          n_ch, &g, sub);
    fold_copies (sub, n_ch, &tables[first], stride, out + first * stride);
  }
}

/* The luma (OpenCV's RGB->GRAY rounding, BT.601) or maximum of each 8-bit
 * RGB pixel in @e, into @out. */
static void
count_rgb_values (const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ByteBins *t, const ClhRegion *e, guint32 *sub, guint32 *out)
{
  const gsize stride = spec->bins + 2;
  const gboolean luma = spec->count == CLH_COUNT_LUMA;
  const guint n = luma ? 3 : spec->n_components;
  const guint8 *rows[CLH_MAX_COMPONENTS];
  gsize pitch[CLH_MAX_COMPONENTS], step[CLH_MAX_COMPONENTS];
  guint c, x, y;

  for (c = 0; c < n; c++) {
    const ClhComponent *comp = &frame->components[spec->components[c]];
    const ClhPlane *plane = &frame->planes[comp->plane];

    rows[c] = plane->data + comp->offset;
    pitch[c] = plane->stride;
    step[c] = comp->pixel_stride;
  }
  memset (sub, 0, sizeof (guint32) * COPIES * 256);
  for (y = e->y0; y < e->y1; y++) {
    for (x = e->x0; x < e->x1; x++) {
      guint v[CLH_MAX_COMPONENTS] = { 0 }, value;

      for (c = 0; c < n; c++)
        v[c] = rows[c][y * pitch[c] + x * step[c]];
      value = luma ? (9798u * v[0] + 19235u * v[1] + 3735u * v[2]
          + 16384u) >> 15 : MAX (MAX (v[0], v[1]), MAX (v[2], v[3]));
      sub[(x % COPIES) * 256 + value]++;
    }
  }
  fold_copies (sub, 1, t, stride, out);
}

/**
 * clh_engine_counts_on_host:
 * @engine: an engine
 * @frame: a valid frame
 * @spec: a request valid for @frame
 *
 * Whether this frame is counted by the host CPU rather than by the
 * kernels: with %CLH_COUNTING_AUTO on a CPU device, or
 * %CLH_COUNTING_HOST, for 8-bit frames counted by component, or by the
 * luma or maximum of RGB.
 *
 * Returns: %TRUE to count on the host
 */
gboolean
clh_engine_counts_on_host (ClhCounting counting, const ClhDeviceInfo *device,
    const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  if (counting == CLH_COUNTING_DEVICE
      || (counting == CLH_COUNTING_AUTO
          && !(device->type & CL_DEVICE_TYPE_CPU)))
    return FALSE;
  if (frame->sample != CLH_SAMPLE_8)
    return FALSE;
  return spec->count == CLH_COUNT_COMPONENTS
      || ((spec->count == CLH_COUNT_LUMA || spec->count == CLH_COUNT_MAX)
      && spec->color == CLH_COLOR_RGB);
}

/* The region of histogram @h of the slot: the whole frame, or a clipped
 * entry of its table. */
static ClhRegion
histogram_region (const ClhSlot *slot, const ClhFrame *frame, guint h)
{
  const ClhRegion whole = { 0, 0, frame->width, frame->height, 0, 0, 0, 0 };

  if (h < (guint) slot->full_frame)
    return whole;
  return ((const ClhRegion *) (gconstpointer) slot->table->data)[h -
      slot->full_frame];
}

/**
 * clh_engine_count_on_host:
 * @engine: an engine submitting a frame whose slot's regions are prepared
 *   with wide counters only
 * @frame: the frame
 * @spec: a request clh_engine_counts_on_host() accepts
 * @error: %CLH_ENGINE_ERROR_OPENCL if the host counters cannot be
 *   allocated
 *
 * Counts every histogram of the slot's frame into its host counters, now;
 * the device is not involved.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_engine_count_on_host (ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, GError **error)
{
  ClhSlot *slot = q->slot;
  ByteBins tables[CLH_MAX_CHANNELS];
  /* 16 KiB: each channel's copies of the 256 byte counters. */
  guint32 sub[CLH_MAX_CHANNELS * COPIES * 256];
  guint32 *all;
  guint c, h;

  if (!clh_queues_prepare_host_counters (q, slot->n_counters_used,
          error))
    return FALSE;
  all = (guint32 *) (gpointer) clh_host_block_get_data (slot->readback);
  memset (all, 0, sizeof (guint32) * slot->n_counters_used);
  for (c = 0; c < clh_histogram_spec_n_channels (spec); c++) {
    const ClhComponent *comp = spec->count == CLH_COUNT_COMPONENTS ?
        &frame->components[spec->components[c]] : NULL;

    byte_bins_init (&tables[c], spec, comp ? comp->shift : 0,
        comp ? frame->depth : 8);
  }
  for (h = 0; h < slot->n_histograms; h++) {
    const ClhRegion e = histogram_region (slot, frame, h);
    guint32 *out = all + (h < (guint) slot->full_frame ? 0 : e.hist_base);

    if (spec->count == CLH_COUNT_COMPONENTS)
      count_components (frame, spec, tables, &e, sub, out);
    else
      count_rgb_values (frame, spec, tables, &e, sub, out);
  }
  return TRUE;
}
