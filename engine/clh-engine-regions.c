/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A frame's histograms: the whole frame's and one per region, all counted
 * in the frame's launches. Each region gets work-groups in proportion to
 * its pixels; the region table (kernels/clh-kernel-abi.h, ClhRegion) tells
 * each of them which region it counts and where its counters are, so that
 * the number of launches does not grow with the number of regions. The
 * counters come back in one readback, and are split here into each
 * histogram's. */
#include "clh-engine-regions.h"

#include <string.h>

/* Pixels a region's work-group aims at: a 64 x 64 window is one group,
 * whose work-items count 16 pixels each before the group merges its bins,
 * a merge whose cost grows with the bins, not with the pixels counted. */
#define REGION_PIXELS_PER_GROUP_DEFAULT 4096

/* Work-groups for a region of @pixels: none for an empty one, at most one
 * per compute unit for a large one. */
static guint
groups_for (const ClhDispatch *d, guint64 pixels)
{
  const guint per_group = d->region_pixels ? d->region_pixels :
      REGION_PIXELS_PER_GROUP_DEFAULT;
  const guint64 most = MAX (1, d->limits[CLH_KERNEL_8BIT].compute_units);

  if (pixels == 0)
    return 0;
  return (guint) MIN ((pixels + per_group - 1) / per_group, most);
}

/* Forgets the slot's region table on the device and in pinned memory. */
static void
clear_table_memory (ClhSlot *slot)
{
  g_clear_pointer (&slot->table_mem, clReleaseMemObject);
  g_clear_pointer (&slot->table_host, clh_host_block_free);
  slot->table_mem_size = slot->table_uploaded = 0;
}

void
clh_engine_clear_regions (ClhSlot *slot)
{
  g_clear_pointer (&slot->samples, g_free);
  g_clear_pointer (&slot->table, g_array_unref);
  clear_table_memory (slot);
  slot->n_histograms = slot->n_table_regions = slot->table_groups = 0;
  slot->narrow_base = slot->n_counters_used = 0;
}

/* Whether region @i's counters can be 16-bit: one work-group counts it,
 * and no channel has more samples than a 16-bit counter holds. */
static gboolean
region_is_narrow (const ClhDispatch *d, const ClhSlot *slot,
    const ClhRegion *e, guint i)
{
  const guint64 *samples = slot->samples + (slot->full_frame + i)
      * CLH_MAX_CHANNELS;
  guint c;

  if (d->wide_only || slot->on_host || e->n_groups != 1)
    return FALSE;
  for (c = 0; c < CLH_MAX_CHANNELS; c++)
    if (samples[c] > G_MAXUINT16)
      return FALSE;
  return TRUE;
}

/* Fills the slot's table: @n_regions entries (clipped), then each
 * work-group's entry. The whole frame's counters, if counted, come first,
 * then the 32-bit counters of the other regions, in order; then, from
 * narrow_base, the 16-bit counters of the narrow ones, @block each rounded
 * up to whole 32-bit words, in order. */
static void
build_table (const ClhDispatch *d, ClhSlot *slot, const ClhFrame *frame,
    const ClhRect *regions, guint n_regions, gsize block)
{
  const gsize narrow_block = block + (block & 1);
  ClhRegion *table;
  guint32 *group_region;
  guint i, g, groups = 0, n_wide = slot->full_frame, n_narrow = 0;

  if (!slot->table)
    slot->table = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_set_size (slot->table, n_regions * sizeof (ClhRegion) / 4);
  table = (ClhRegion *) (gpointer) slot->table->data;
  for (i = 0; i < n_regions; i++) {
    ClhRegion *e = &table[i];
    ClhRect r = regions[i];

    clh_rect_clip (&r, frame->width, frame->height);
    e->x0 = r.x;
    e->y0 = r.y;
    e->x1 = r.x + r.width;
    e->y1 = r.y + r.height;
    e->first_group = groups;
    e->n_groups = groups_for (d, (guint64) r.width * r.height);
    e->narrow = region_is_narrow (d, slot, e, i);
    e->hist_base = (guint32) (e->narrow ? n_narrow++ * narrow_block :
        n_wide++ * block);
    groups += e->n_groups;
  }
  /* Each work-group's entry; growing the array moves it. */
  g_array_set_size (slot->table, n_regions * sizeof (ClhRegion) / 4 + groups);
  table = (ClhRegion *) (gpointer) slot->table->data;
  group_region = (guint32 *) (table + n_regions);
  for (i = 0; i < n_regions; i++)
    for (g = 0; g < table[i].n_groups; g++)
      group_region[table[i].first_group + g] = i;
  slot->n_table_regions = n_regions;
  slot->table_groups = groups;
  slot->narrow_base = n_wide * block;
  slot->n_counters_used = slot->narrow_base + n_narrow * narrow_block / 2;
}

/* 16-bit counters widened into @n 32-bit ones, 16 at a time: a loop of a
 * fixed count is one the compiler turns into vector instructions at -O2
 * (GCC 12's cheap vectorizer model), which a loop of @n is not. Even
 * vectorized, the widening costs about what the shorter readback saves
 * (measured: see docs/performance.md, "Why the defaults are what they
 * are"), so a slower loop would make the 16-bit counters a loss. */
static void
widen_counters (guint32 *restrict counts, const guint16 *restrict narrow,
    gsize n)
{
  gsize i = 0, j;

  for (; i + 16 <= n; i += 16) {
    guint16 block[16];

    memcpy (block, narrow + i, sizeof (block));
    for (j = 0; j < 16; j++)
      counts[i + j] = block[j];
  }
  for (; i < n; i++)
    counts[i] = narrow[i];
}

/* Histogram @h of the slot's frame from its counters, @all as read
 * back. */
static void
split_histogram (const ClhSlot *slot, const guint32 *all, guint h,
    ClhHistogram *histogram)
{
  const gsize stride = slot->n_bins + 2;
  const ClhRegion *e = h < (guint) slot->full_frame ? NULL :
      &((const ClhRegion *) (gconstpointer) slot->table->data)[h -
      slot->full_frame];
  const guint16 *narrow = e && e->narrow ?
      (const guint16 *) (all + slot->narrow_base) + e->hist_base : NULL;
  const guint32 *wide = all + (e ? e->hist_base : 0);
  guint c;

  memcpy (histogram->samples, slot->samples + h * CLH_MAX_CHANNELS,
      sizeof (histogram->samples));
  for (c = 0; c < slot->n_channels; c++) {
    guint32 *counts = histogram->counts + c * slot->n_bins;

    if (narrow) {
      widen_counters (counts, narrow + c * stride, slot->n_bins);
      histogram->below[c] = narrow[c * stride + slot->n_bins];
      histogram->above[c] = narrow[c * stride + slot->n_bins + 1];
    } else {
      const guint32 *mine = wide + c * stride;

      memcpy (counts, mine, sizeof (guint32) * slot->n_bins);
      histogram->below[c] = mine[slot->n_bins];
      histogram->above[c] = mine[slot->n_bins + 1];
    }
  }
  for (; c < CLH_MAX_CHANNELS; c++)
    histogram->below[c] = histogram->above[c] = 0;
}

/* Splits the slot's counters, read back into its host memory, into each of
 * its histograms' channels' bins, below and above. */
void
clh_engine_split_histograms (const ClhSlot *slot, ClhHistogram *histograms)
{
  const guint32 *all;
  guint h;

  if (slot->n_histograms == 0)
    return;
  all = (const guint32 *) clh_host_block_get_data (slot->readback);
  for (h = 0; h < slot->n_histograms; h++)
    split_histogram (slot, all, h, &histograms[h]);
}

/* Grows the slot's region table on the device and its pinned host copy
 * to @size bytes; what they held is forgotten. */
static gboolean
ensure_table_memory (ClhQueues *q, ClhSlot *slot, gsize size,
    GError **error)
{
  cl_int ret;

  if (slot->table_mem_size >= size)
    return TRUE;
  clear_table_memory (slot);
  slot->table_mem = clCreateBuffer (clh_context_get_cl_context
      (q->ctx), CL_MEM_READ_ONLY, size, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (region table)", error))
    return FALSE;
  slot->table_host = clh_context_alloc_host (q->ctx, size, error);
  if (!slot->table_host) {
    g_clear_pointer (&slot->table_mem, clReleaseMemObject);
    return FALSE;
  }
  slot->table_mem_size = size;
  return TRUE;
}

/* Queues the table's copy to the device, ahead of the frame's launches in
 * the counting queue, from pinned memory the slot keeps until its next
 * frame; skipped when the device already holds the same table, as it does
 * every frame for zones and fixed regions. */
static gboolean
upload_table (ClhQueues *q, ClhSlot *slot, GError **error)
{
  const gsize size = slot->table->len * sizeof (guint32);
  guint8 *host;
  cl_event ev;
  cl_int ret;

  if (slot->table_uploaded == size && memcmp (clh_host_block_get_data
          (slot->table_host), slot->table->data, size) == 0)
    return TRUE;
  if (!ensure_table_memory (q, slot, size, error))
    return FALSE;
  host = clh_host_block_get_data (slot->table_host);
  memcpy (host, slot->table->data, size);
  slot->table_uploaded = 0;
  ret = clEnqueueWriteBuffer (q->queue, slot->table_mem, CL_FALSE, 0,
      size, host, 0, NULL, clh_queues_want_event (q, &ev, NULL));
  clh_queues_note_event (q, CLH_PHASE_UPLOAD, ev, NULL);
  if (!clh_cl_check (ret, "clEnqueueWriteBuffer (region table)", error))
    return FALSE;
  slot->table_uploaded = size;
  return TRUE;
}

/* Each histogram's samples per channel, from its clipped rectangle. */
static void
set_samples (ClhSlot *slot, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhRect *regions, guint n_regions)
{
  ClhHistogram h = { NULL };
  guint i;

  slot->samples = g_renew (guint64, slot->samples,
      (gsize) MAX (slot->n_histograms, 1) * CLH_MAX_CHANNELS);
  if (slot->full_frame) {
    clh_histogram_set_samples (&h, spec, frame);
    memcpy (slot->samples, h.samples, sizeof (h.samples));
  }
  for (i = 0; i < n_regions; i++) {
    ClhRect r = regions[i];

    clh_rect_clip (&r, frame->width, frame->height);
    clh_histogram_set_region_samples (&h, spec, frame, &r);
    memcpy (slot->samples + (slot->full_frame + i) * CLH_MAX_CHANNELS,
        h.samples, sizeof (h.samples));
  }
}

/* Whether a frame may have @n_regions histograms of @spec beside the
 * whole frame's (if @full_frame). */
gboolean
clh_engine_check_regions (const ClhHistogramSpec *spec, gboolean full_frame,
    guint n_regions, GError **error)
{
  const gsize block = (gsize) clh_histogram_spec_n_channels (spec)
      * (clh_histogram_spec_n_bins (spec) + 2);

  if (n_regions > CLH_MAX_REGIONS
      || (full_frame + n_regions) * block > CLH_MAX_FRAME_COUNTERS) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%u regions of %" G_GSIZE_FORMAT " counters each are too many: at "
        "most %u regions and %" G_GSIZE_FORMAT " counters in all", n_regions,
        block, CLH_MAX_REGIONS, CLH_MAX_FRAME_COUNTERS);
    return FALSE;
  }
  return TRUE;
}

/* Readies the slot of the frame being submitted for its histograms: the
 * whole frame's if @full_frame, then one for each of @regions
 * (clh_engine_check_regions() allows them); their samples, and the region
 * table on its way to the device. */
gboolean
clh_engine_prepare_regions (const ClhDispatch *d, ClhQueues *q,
    const ClhFrame *frame, const ClhHistogramSpec *spec, gboolean full_frame,
    const ClhRect *regions, guint n_regions, GError **error)
{
  ClhSlot *slot = q->slot;
  const gsize block = (gsize) slot->n_channels * (slot->n_bins + 2);

  slot->full_frame = full_frame;
  slot->n_histograms = full_frame + n_regions;
  set_samples (slot, frame, spec, regions, n_regions);
  build_table (d, slot, frame, regions, n_regions, block);
  return slot->table_groups == 0 || slot->on_host
      || upload_table (q, slot, error);
}
