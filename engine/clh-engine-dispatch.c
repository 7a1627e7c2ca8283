/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Counting a band of a frame on the device: which kernel counts which
 * channels, their arguments, and the launch configuration (the model of
 * clh-launch.c, fitted to what the measurements found fastest). The
 * arguments follow the kernels' signatures in kernels/histogram.cl. */
#include "clh-engine-dispatch.h"

#include <string.h>

static const gchar *const kernel_names[CLH_N_KERNELS] = {
  "histogram_8bit", "histogram_component", "histogram_colour",
};

/* Local memory of each channel's below and above counters, which follow
 * the copies. */
static gsize
outside_bytes (guint n_channels)
{
  return 2 * n_channels * sizeof (cl_uint);
}

/* Local memory kernel @id takes besides its copies: the counters outside
 * the bins, and the 8-bit kernel's table of bins. */
gsize
clh_dispatch_extra_local_bytes (ClhKernelId id, guint n_channels)
{
  return outside_bytes (n_channels)
      + (id == CLH_KERNEL_8BIT ? CLH_ABI_BIN_TABLE_BYTES : 0);
}

gboolean
clh_dispatch_create_kernels (ClhDispatch *d, const ClhQueues *q,
    GError **error)
{
  cl_program program = clh_context_get_program (q->ctx);
  guint k;
  cl_int ret;

  for (k = 0; k < CLH_N_KERNELS; k++) {
    d->kernels[k] = clCreateKernel (program, kernel_names[k], &ret);
    if (!clh_cl_check (ret, "clCreateKernel", error)
        || !clh_device_limits_query (q->device->device,
            d->kernels[k], &d->limits[k], error))
      return FALSE;
  }
  return TRUE;
}

/* Releases the kernels. */
void
clh_dispatch_clear (ClhDispatch *d)
{
  guint k;

  for (k = 0; k < CLH_N_KERNELS; k++)
    g_clear_pointer (&d->kernels[k], clReleaseKernel);
}

/* The arguments every kernel takes, in kernels/histogram.cl's order: the
 * frame's buffer, the parameters, the copies' local memory, this frame's
 * histogram, the other buffer to clear, the region table. The 8-bit
 * kernel's table of bins follows. */
enum {
  ARG_SRC,
  ARG_PARAMS,
  ARG_SUB,
  ARG_HIST,
  ARG_ZERO_BUF,
  ARG_REGIONS,
  ARG_TABLE,
};

/* Bins one pass of a single-channel kernel can count: one copy of them,
 * padded, and the below and above counters fill at most a group's local
 * memory. */
static guint
window_for (const ClhDispatch *d, ClhKernelId id, guint n_bins)
{
  const gsize counters = d->limits[id].local_mem_per_group
      / sizeof (cl_uint);
  return (guint) MIN ((gsize) n_bins, counters - 16);
}

/* Work units (loads) per work-item the engine aims at when it picks L. */
#define UNITS_PER_WORK_ITEM 2

/* The model's configuration for kernel @id with copies of @window bins of
 * @n_channels, given what the caller fixed; remembered, since a stream asks
 * the same every frame. */
static void
model_launch (ClhDispatch *d, ClhKernelId id, guint n_channels,
    guint window, ClhLaunch *launch)
{
  ClhModelMemo *memo = &d->memo[id];

  if (!memo->valid || memo->n_channels != n_channels
      || memo->window != window
      || memcmp (&memo->requested, &d->requested,
          sizeof (ClhLaunch)) != 0) {
    memo->requested = memo->result = d->requested;
    clh_launch_model (&d->limits[id], d->requested.variant ==
        CLH_VARIANT_AUTO ? CLH_DEFAULT_VARIANT : d->requested.variant,
        n_channels * window, clh_dispatch_extra_local_bytes (id, n_channels),
        &memo->result);
    memo->n_channels = n_channels;
    memo->window = window;
    memo->valid = TRUE;
  }
  *launch = memo->result;
}

/* The configuration of kernel @id over @units (samples, or words): the
 * model's K for what the caller did not fix, but fewer groups than the
 * model's L = B x compute units: every group merges its copies into the
 * global bins with one atomic per non-zero counter, so each group more is
 * a merge more, and on a GPU the model's L was slower than fewer groups.
 * The K x L sweep (measured: see docs/performance.md, "Why the defaults
 * are what they are") was fastest with about UNITS_PER_WORK_ITEM loads per
 * work-item, at least one group per compute unit and at most half the
 * model's L; and never more groups than give each work-item a load. */
static void
plan_launch (ClhDispatch *d, ClhKernelId id, guint n_channels, guint window,
    gsize units, ClhLaunch *launch)
{
  model_launch (d, id, n_channels, window, launch);
  if (d->requested.n_groups == 0) {
    const gsize group = launch->work_group_size;
    const gsize lo = MIN (d->limits[id].compute_units, launch->n_groups);
    const gsize hi = MAX (launch->n_groups / 2, lo);
    const gsize wanted = (units + group * UNITS_PER_WORK_ITEM - 1)
        / (group * UNITS_PER_WORK_ITEM);

    launch->n_groups = (guint) MAX (1, MIN (CLAMP (wanted, lo, hi),
            (units + group - 1) / group));
  }
}

/* Launches kernel @id with @params (@params_size bytes, holding @common,
 * which this fills: the copies' layout, the counters to clear, the
 * work-groups of each kind): work-groups over @units work units of @band if
 * the frame's own histogram is counted, and the slot's region table's
 * groups beside them, each region's on its samples; one launch whatever the
 * number of regions. A copy holds @window bins of each of @n_channels;
 * their below and above counters follow the copies. */
static gboolean
launch (ClhDispatch *d, ClhQueues *q, ClhKernelId id, const ClhBand *band,
    gconstpointer params, gsize params_size, ClhLaunchParams *common,
    guint n_channels, guint window, gsize units, GError **error)
{
  const ClhSlot *slot = q->slot;
  const cl_kernel kernel = d->kernels[id];
  cl_mem zero_buf = q->zero_next ?
      q->next->counters : slot->counters;
  cl_mem table = slot->table_groups ? slot->table_mem : NULL;
  ClhLaunch cfg;
  size_t local, global;
  cl_event ev;
  cl_int ret;

  plan_launch (d, id, n_channels, window, units, &cfg);
  common->whole_groups = slot->full_frame ? cfg.n_groups : 0;
  common->n_regions = slot->table_groups ? slot->n_table_regions : 0;
  common->narrow_base = (guint32) slot->narrow_base;
  cfg.n_groups = common->whole_groups + slot->table_groups;
  if (cfg.n_groups == 0)
    return TRUE;
  common->n_copies = cfg.n_copies;
  common->copy_stride = clh_launch_copy_stride (n_channels * window,
      cfg.padding);
  common->n_zero = q->zero_next;
  ret = clSetKernelArg (kernel, ARG_SRC, sizeof (cl_mem), &band->mem);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (kernel, ARG_PARAMS, params_size, params);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (kernel, ARG_SUB, clh_launch_local_bytes
        (cfg.n_copies, common->copy_stride) + outside_bytes (n_channels),
        NULL);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (kernel, ARG_HIST, sizeof (cl_mem),
        &slot->counters);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (kernel, ARG_ZERO_BUF, sizeof (cl_mem), &zero_buf);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (kernel, ARG_REGIONS, sizeof (cl_mem), &table);
  if (!clh_cl_check (ret, "clSetKernelArg", error))
    return FALSE;
  d->last_launch = cfg;

  local = cfg.work_group_size;
  global = (size_t) cfg.n_groups * local;
  ret = clEnqueueNDRangeKernel (q->queue, kernel, 1, NULL,
      &global, &local, q->upload_done ? 1 : 0,
      q->upload_done ? &q->upload_done : NULL,
      clh_queues_want_event (q, &ev, NULL));
  clh_queues_note_event (q, CLH_PHASE_KERNEL, ev, NULL);
  if (!clh_cl_check (ret, "clEnqueueNDRangeKernel", error))
    return FALSE;
  /* Cleared, and what followed the upload waits in order behind this. */
  q->zero_next = 0;
  g_clear_pointer (&q->upload_done, clReleaseEvent);
  return TRUE;
}

static guint
range_size (const ClhHistogramSpec *spec)
{
  return spec->range_max - spec->range_min + 1;
}

/* Where component @c's rows of @band lie in the band's buffer, as both
 * component kernels take them. Returns the samples. */
static gsize
component_rows (const ClhFrame *frame, const ClhBand *band, guint c,
    ClhPlaneRows *rows)
{
  const ClhComponent *comp = &frame->components[c];

  rows->base = band->base[comp->plane];
  rows->pitch = frame->planes[comp->plane].stride;
  rows->width = clh_component_width (frame, c);
  rows->rows = band->n_rows[comp->plane];
  rows->pixel_stride = comp->pixel_stride;
  rows->row0 = band->row0[comp->plane];
  rows->w_sub = comp->w_sub;
  rows->h_sub = comp->h_sub;
  return (gsize) rows->width * rows->rows;
}

/* Which channel of an 8-bit run each byte of a little-endian 32-bit word
 * of its plane's rows holds (byte j in bits 8j.., 0xff: none), or
 * CLH_ABI_NO_WORDS when the rows cannot be read a word at a time: the words
 * must be aligned, the rows whole words, and a pixel a divisor of a
 * word. */
static guint
byte_channels_8bit (const ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, guint first, guint n)
{
  const guint c0 = spec->components[first];
  const ClhComponent *comp = &frame->components[c0];
  const gsize row = (gsize) clh_component_width (frame, c0)
      * comp->pixel_stride;
  guint map = 0xffffffffu, i, j;

  if (!clh_context_is_little_endian (q->ctx)
      || band->base[comp->plane] % 4 != 0
      || frame->planes[comp->plane].stride % 4 != 0 || row % 4 != 0
      || row > clh_frame_plane_row_bytes (frame, comp->plane)
      || (comp->pixel_stride != 1 && comp->pixel_stride != 2
          && comp->pixel_stride != 4))
    return CLH_ABI_NO_WORDS;
  for (i = 0; i < n; i++) {
    const guint offset = frame->components[spec->components[first + i]].offset;

    if (offset >= comp->pixel_stride)
      return CLH_ABI_NO_WORDS;
    for (j = offset; j < 4; j += comp->pixel_stride) {
      if (((map >> (8 * j)) & 0xff) != 0xff)
        return CLH_ABI_NO_WORDS;
      map &= ~(0xffu << (8 * j));
      map |= i << (8 * j);
    }
  }
  return map;
}

/* The shift that maps an 8-bit value to its bin (bins a power of two over
 * the full range), or 8: look the bin up in a table. */
static guint
bin_shift_8bit (const ClhHistogramSpec *spec)
{
  guint shift = 0;

  if (spec->range_min != 0 || range_size (spec) != 256)
    return 8;
  while ((256u >> shift) > spec->bins)
    shift++;
  return (256u >> shift) == spec->bins ? shift : 8;
}

/* The histogram_8bit parameters of channels [first, first + n) of the
 * request, 8-bit components sharing a plane, pixel stride and subsampling:
 * one pass over the plane; all but the launch's. Returns the work units
 * (loads) the pass makes. */
static gsize
params_8bit (const ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, guint first, guint n,
    ClhParams8bit *p)
{
  const guint c0 = spec->components[first];
  const ClhComponent *comp = &frame->components[c0];
  gsize units;
  guint i;

  memset (p, 0, sizeof (*p));
  units = component_rows (frame, band, c0, &p->plane);
  p->n_channels = n;
  for (i = 0; i < n; i++)
    p->offsets[i] = frame->components[spec->components[first + i]].offset;
  p->byte_channels = byte_channels_8bit (q, frame, spec, band, first, n);
  p->range_min = spec->range_min;
  p->range_size = range_size (spec);
  p->bins = spec->bins;
  p->bin_shift = bin_shift_8bit (spec);
  p->hist_base = first * (spec->bins + 2);
  if (p->byte_channels != CLH_ABI_NO_WORDS) {
    /* Words; four per load where rows are contiguous. */
    units = units * comp->pixel_stride / 4;
    if (p->plane.pitch == p->plane.width * comp->pixel_stride)
      units = (units + 3) / 4;
  }
  return units;
}

/* Channels [first, first + n) of the request (params_8bit()). */
static gboolean
count_8bit (ClhDispatch *d, ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, guint first, guint n,
    GError **error)
{
  ClhParams8bit p;
  const gsize units = params_8bit (q, frame, spec, band, first, n, &p);
  cl_int ret;

  ret = clSetKernelArg (d->kernels[CLH_KERNEL_8BIT], ARG_TABLE,
      CLH_ABI_BIN_TABLE_BYTES, NULL);
  return clh_cl_check (ret, "clSetKernelArg", error)
      && launch (d, q, CLH_KERNEL_8BIT, band, &p, sizeof (p), &p.launch, n,
      spec->bins, units, error);
}

/* Channel @channel of the request, one component of any storage, counted
 * in windows of bins that fit local memory. */
static gboolean
count_component (ClhDispatch *d, ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, guint channel,
    GError **error)
{
  const guint c = spec->components[channel];
  const ClhComponent *comp = &frame->components[c];
  const guint window = window_for (d, CLH_KERNEL_COMPONENT, spec->bins);
  ClhParamsComponent p = { { 0 } };
  gsize samples;

  samples = component_rows (frame, band, c, &p.plane);
  p.offset = comp->offset;
  p.sample = frame->sample;
  p.shift = comp->shift;
  p.mask = (1u << frame->depth) - 1;
  p.range_min = spec->range_min;
  p.range_size = range_size (spec);
  p.bins = spec->bins;
  p.channel_stride = spec->bins + 2;
  p.hist_base = channel * (spec->bins + 2);
  for (p.window_lo = 0; p.window_lo < spec->bins; p.window_lo += window) {
    p.window_n = MIN (window, spec->bins - p.window_lo);
    if (!launch (d, q, CLH_KERNEL_COMPONENT, band, &p, sizeof (p),
            &p.launch, 1, p.window_n, samples, error))
      return FALSE;
  }
  return TRUE;
}

/* Number of request channels from @first that one 8-bit pass can count:
 * 8-bit samples in the same plane with the same stride and subsampling. */
static guint
run_8bit (const ClhFrame *frame, const ClhHistogramSpec *spec,
    guint first)
{
  const ClhComponent *head = &frame->components[spec->components[first]];
  guint n = 1;

  if (frame->sample != CLH_SAMPLE_8 || head->shift != 0)
    return 0;
  while (first + n < spec->n_components) {
    const ClhComponent *next =
        &frame->components[spec->components[first + n]];

    if (next->plane != head->plane || next->pixel_stride != head->pixel_stride
        || next->w_sub != head->w_sub || next->h_sub != head->h_sub
        || next->shift != 0)
      break;
    n++;
  }
  return n;
}

static gboolean
count_components_band (ClhDispatch *d, ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, GError **error)
{
  guint c = 0;

  while (c < spec->n_components) {
    const guint n = run_8bit (frame, spec, c);

    if (n > 0) {
      if (!count_8bit (d, q, frame, spec, band, c, n, error))
        return FALSE;
      c += n;
    } else {
      if (!count_component (d, q, frame, spec, band, c, error))
        return FALSE;
      c++;
    }
  }
  return TRUE;
}

static gboolean
count_colour_band (ClhDispatch *d, ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, GError **error)
{
  const guint n_bins = clh_histogram_spec_n_bins (spec);
  const guint window = window_for (d, CLH_KERNEL_COLOUR, n_bins);
  ClhParamsColour p = { { 0 } };
  guint i;

  p.y0 = band->y0;
  p.width = frame->width;
  p.rows = band->rows;
  for (i = 0; i < spec->n_components; i++) {
    const ClhComponent *comp = &frame->components[spec->components[i]];

    p.bases[i] = band->base[comp->plane];
    p.row0s[i] = band->row0[comp->plane];
    p.pitches[i] = frame->planes[comp->plane].stride;
    p.offsets[i] = comp->offset;
    p.pixel_strides[i] = comp->pixel_stride;
    p.subs[i] = comp->w_sub | (comp->h_sub << 4);
  }
  p.has_alpha = spec->count == CLH_COUNT_MAX && spec->n_components > 3;
  p.color = spec->color;
  p.count = spec->count;
  p.bins = spec->bins;
  p.range_min = spec->range_min;
  p.range_size = range_size (spec);
  p.min_saturation = spec->min_saturation;
  p.min_value = spec->min_value;
  p.channel_stride = n_bins + 2;
  for (p.window_lo = 0; p.window_lo < n_bins; p.window_lo += window) {
    p.window_n = MIN (window, n_bins - p.window_lo);
    if (!launch (d, q, CLH_KERNEL_COLOUR, band, &p, sizeof (p), &p.launch,
            1, p.window_n, (gsize) frame->width * band->rows, error))
      return FALSE;
  }
  return TRUE;
}

gboolean
clh_dispatch_count_band (ClhDispatch *d, ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, GError **error)
{
  return spec->count == CLH_COUNT_COMPONENTS ?
      count_components_band (d, q, frame, spec, band, error) :
      count_colour_band (d, q, frame, spec, band, error);
}


/* Loads per work-item a batched frame's work-groups aim at: the batch
 * fills the device with frames, so a frame needs no group per compute
 * unit, and fewer groups merge fewer copies. */
#define BATCH_UNITS_PER_WORK_ITEM 4

/* The launch of one run of a batched frame: the model's work-group and
 * copies, and groups for BATCH_UNITS_PER_WORK_ITEM loads a work-item (at
 * most the model's, at least one). Returns its work-group size. */
static guint
plan_batch_run (ClhDispatch *d, guint n_channels, guint bins, gsize units,
    ClhParams8bit *p, ClhBatchFrame *f)
{
  ClhLaunch cfg;
  gsize per_group, groups;

  model_launch (d, CLH_KERNEL_8BIT, n_channels, bins, &cfg);
  per_group = (gsize) cfg.work_group_size * BATCH_UNITS_PER_WORK_ITEM;
  groups = CLAMP ((units + per_group - 1) / per_group, 1,
      MAX (cfg.n_groups, 1));
  p->launch.n_copies = cfg.n_copies;
  p->launch.copy_stride = clh_launch_copy_stride (n_channels * bins,
      cfg.padding);
  p->launch.whole_groups = (guint32) groups;
  f->local_bytes = MAX (f->local_bytes, clh_launch_local_bytes
      (cfg.n_copies, p->launch.copy_stride) + outside_bytes (n_channels));
  return cfg.work_group_size;
}

/* Fills @f's runs with the request's 8-bit passes over @band (the whole
 * frame, its planes' offsets from the frame's start): FALSE if a channel
 * needs another kernel, the request fixed the number of work-groups, or
 * the runs would differ in work-group size. */
gboolean
clh_dispatch_batch_runs (ClhDispatch *d, const ClhQueues *q,
    const ClhFrame *frame, const ClhHistogramSpec *spec, const ClhBand *band,
    ClhBatchFrame *f)
{
  guint c = 0, work_group_size;

  if (spec->count != CLH_COUNT_COMPONENTS || d->requested.n_groups != 0)
    return FALSE;
  f->n_runs = 0;
  f->local_bytes = 0;
  while (c < spec->n_components) {
    const guint n = run_8bit (frame, spec, c);
    ClhParams8bit *p = &f->runs[f->n_runs];
    gsize units;

    if (n == 0 || f->n_runs == CLH_MAX_CHANNELS)
      return FALSE;
    units = params_8bit (q, frame, spec, band, c, n, p);
    work_group_size = plan_batch_run (d, n, spec->bins, units, p, f);
    if (f->n_runs > 0 && work_group_size != f->work_group_size)
      return FALSE;
    f->work_group_size = work_group_size;
    f->n_runs++;
    c += n;
  }
  return f->n_runs > 0;
}
