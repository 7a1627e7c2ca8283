/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The scope engine: a frame's upload, its counts (scope_count), the
 * histograms' bars (scope_bars) and the picture (scope_draw) of
 * kernels/scope.cl, and the picture's one readback, enqueued together
 * and waited for once. What depends on the frame's format and the spec
 * only (the jobs, the plot table, the threshold tables, the graticule) is
 * made and uploaded when they change, not per frame.
 *
 * A frame reaches the device without a host copy when it lies in a host
 * block of the context (clh_context_alloc_host(): a buffer pool's
 * memory), or where the device reads host memory in place; others are
 * copied into the engine's own pinned stage block first.
 *
 * Its commands go into the context's counting queue, the one its
 * histogram engines share; while others submit too they are enqueued by
 * the device's submission thread, as the tracker's are. */
#include "clh-scope.h"

#include <string.h>

#include "clh-context-private.h"
#include "clh-host-copy.h"
#include "clh-launch.h"

#define ROUND_UP(x, n) (((x) + (n) - 1) / (n) * (n))

/* Local memory a scope_count work-group takes at most on a GPU: a tile of
 * 32 waveform columns of 256 values leaves room for several resident
 * groups per compute unit. */
#define GPU_TILE_BYTES (32 * 1024)
/* On a CPU device, where "local" memory is ordinary memory and a
 * work-group is one thread: a waveform's tiles are wide strips (a
 * 768-column picture's two of 384 columns, each in a core's second-level
 * cache), so that a group reads long runs of each frame row in order;
 * narrower strips, whose counters fit the first-level cache, read a
 * cache line or two a row and took more CPU time (docs/performance.md,
 * "Scopes"). A vectorscope's tile is the whole vectorscope, the frame
 * read once. One copy of a tile: two, which keep a CPU work-item's
 * increments of one counter from waiting for each other, gained nothing
 * measurable. */
#define CPU_WAVEFORM_BYTES (512 * 1024)
#define CPU_WAVEFORM_COPIES 1
/* Work-items of a scope_count group on a GPU. */
#define GPU_GROUP 256

/* What the configuration of the last frame was made from: the spec and
 * the frame's format (sizes, samples, components; not its planes). */
typedef struct {
  ClhScopeSpec spec;
  guint width;
  guint height;
  ClhSampleType sample;
  guint depth;
  guint n_components;
  ClhComponent components[CLH_MAX_COMPONENTS];
} ConfigKey;

struct _ClhScope {
  ClhContext *ctx;
  cl_command_queue queue;
  ClhSubmitter *submitter;
  gint64 shared_until;
  GMutex wait_lock;
  GCond wait_cond;
  ClhWatch watch;
  cl_kernel count;
  cl_kernel bars;
  cl_kernel draw;
  cl_kernel blend;
  gboolean cpu;
  ClhDeviceLimits limits;
  ClhScopeTuning tuning;

  /* The frame's planes, packed, in pinned host memory and on the device. */
  ClhHostBlock *stage;
  cl_mem src;
  gsize src_size;

  /* The configuration: valid once made for @key. */
  gboolean configured;
  ConfigKey key;
  ClhScopeLayout layout;
  GArray *jobs;
  GArray *columns;
  guint n_bars;
  guint n_groups;
  gboolean needs_clear;
  /* Whether a plot is a histogram, whose bars need its peak. */
  gboolean has_histogram;
  gsize tile_bytes;
  guint count_group;
  ClhScopePlotParams plot_params[CLH_SCOPE_MAX_PLOTS];
  guint32 *thresholds;
  guint8 *direct;
  guint8 *layer;
  cl_mem jobs_mem;
  cl_mem plots_mem;
  cl_mem thresholds_mem;
  cl_mem direct_mem;
  cl_mem layer_mem;
  cl_mem counts_mem;
  cl_mem bars_mem;
  cl_mem columns_mem;
  cl_mem out_mem;
};

static gboolean
invalid (GError **error, const gchar *why)
{
  g_set_error_literal (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
      why);
  return FALSE;
}

static gboolean
make_kernel (ClhScope *s, const gchar *name, cl_kernel *kernel,
    GError **error)
{
  cl_int ret;

  *kernel = clCreateKernel (clh_context_get_program (s->ctx), name, &ret);
  return clh_cl_check (ret, "clCreateKernel", error);
}

/* A device buffer of @size bytes (at least one), replacing @mem. */
static gboolean
make_buffer (ClhScope *s, cl_mem *mem, gsize size, GError **error)
{
  cl_int ret;

  g_clear_pointer (mem, clReleaseMemObject);
  *mem = clCreateBuffer (clh_context_get_cl_context (s->ctx),
      CL_MEM_READ_WRITE, MAX (size, 4), NULL, &ret);
  return clh_cl_check (ret, "clCreateBuffer", error);
}

/**
 * clh_scope_new:
 * @context: the device context, shared with histogram engines
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Creates a scope engine on @context's device: its own kernels and
 * buffers, over the context's compiled program and counting queue. It
 * serves one thread at a time.
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhScope *
clh_scope_new (ClhContext *context, GError **error)
{
  ClhScope *s = g_new0 (ClhScope, 1);
  const ClhDeviceInfo *device = clh_context_get_device (context);

  s->ctx = clh_context_ref (context);
  clh_context_add_user (context);
  g_mutex_init (&s->wait_lock);
  g_cond_init (&s->wait_cond);
  s->watch.lock = &s->wait_lock;
  s->watch.cond = &s->wait_cond;
  s->submitter = clh_context_get_submitter (context);
  s->jobs = g_array_new (FALSE, TRUE, sizeof (ClhScopeJob));
  s->columns = g_array_new (FALSE, TRUE, sizeof (guint32));
  s->cpu = (device->type & CL_DEVICE_TYPE_CPU) != 0;
  if (!(s->queue = clh_context_get_shared_queue (context, 0, error))
      || !make_kernel (s, "scope_count", &s->count, error)
      || !make_kernel (s, "scope_bars", &s->bars, error)
      || !make_kernel (s, "scope_draw", &s->draw, error)
      || !make_kernel (s, "scope_blend", &s->blend, error)
      || !clh_device_limits_query (device->device, s->count, &s->limits,
          error)) {
    clh_scope_free (s);
    return NULL;
  }
  return s;
}

/**
 * clh_scope_free:
 * @scope: (nullable): a scope engine
 *
 * Waits for its commands and releases it.
 */
void
clh_scope_free (ClhScope *scope)
{
  ClhScope *s = scope;

  if (!s)
    return;
  if (s->queue)
    clFinish (s->queue);
  g_clear_pointer (&s->count, clReleaseKernel);
  g_clear_pointer (&s->bars, clReleaseKernel);
  g_clear_pointer (&s->draw, clReleaseKernel);
  g_clear_pointer (&s->blend, clReleaseKernel);
  g_clear_pointer (&s->stage, clh_host_block_free);
  g_clear_pointer (&s->src, clReleaseMemObject);
  g_clear_pointer (&s->jobs_mem, clReleaseMemObject);
  g_clear_pointer (&s->plots_mem, clReleaseMemObject);
  g_clear_pointer (&s->thresholds_mem, clReleaseMemObject);
  g_clear_pointer (&s->direct_mem, clReleaseMemObject);
  g_clear_pointer (&s->layer_mem, clReleaseMemObject);
  g_clear_pointer (&s->counts_mem, clReleaseMemObject);
  g_clear_pointer (&s->bars_mem, clReleaseMemObject);
  g_clear_pointer (&s->columns_mem, clReleaseMemObject);
  g_clear_pointer (&s->out_mem, clReleaseMemObject);
  g_clear_pointer (&s->queue, clReleaseCommandQueue);
  g_array_unref (s->jobs);
  g_array_unref (s->columns);
  g_free (s->thresholds);
  g_free (s->direct);
  g_free (s->layer);
  g_mutex_clear (&s->wait_lock);
  g_cond_clear (&s->wait_cond);
  clh_context_remove_user (s->ctx);
  clh_context_unref (s->ctx);
  g_free (s);
}

static void
config_key (const ClhFrame *frame, const ClhScopeSpec *spec, ConfigKey *key)
{
  memset (key, 0, sizeof (*key));
  key->spec.kinds = spec->kinds;
  key->spec.width = spec->width;
  key->spec.height = spec->height;
  key->spec.source = spec->source;
  key->spec.limited = spec->limited;
  key->spec.kr = spec->kr;
  key->spec.kb = spec->kb;
  key->spec.scale = spec->scale;
  key->spec.graticule = spec->graticule;
  key->spec.intensity = spec->intensity;
  key->spec.vectorscope_zoom = MAX (spec->vectorscope_zoom, 1);
  key->width = frame->width;
  key->height = frame->height;
  key->sample = frame->sample;
  key->depth = frame->depth;
  key->n_components = frame->n_components;
  memcpy (key->components, frame->components, sizeof (key->components));
}

/* The multiplier m of `v * num / den = (v * m) >> 32` for num < den <=
 * 16384: the ceiling of 2^32 num / den, exact for every v < den (the error
 * stays under 2^-18, less than the smallest fraction 1 / den); 0 for num
 * == den, the identity. */
static guint32
ratio_multiplier (guint num, guint den)
{
  if (num >= den)
    return 0;
  return (guint32) ((((guint64) num << 32) + den - 1) / den);
}

static guint
floor_log2 (guint n)
{
  guint k = 0;

  while (n >> (k + 1))
    k++;
  return k;
}

/* The job counting @plot: tiles as large as the local memory budget
 * holds, row slices enough to give the device about four work-groups per
 * compute unit each. */
static ClhScopeJob
plot_job (const ClhScope *s, const ClhScopePlot *plot, guint first_group)
{
  const guint units = s->limits.compute_units;
  ClhScopeJob j = { 0 };
  guint axis, per_bin, strip;
  gsize budget;

  j.kind = plot->kind;
  j.channel = plot->channel;
  j.first_group = first_group;
  j.grid_width = plot->grid_width;
  j.grid_height = plot->grid_height;
  j.cols = plot->cols;
  j.rows = plot->rows;
  j.shift = plot->shift;
  j.count_base = (guint32) plot->count_base;
  j.clip_low = plot->clip_low;
  j.clip_high = plot->clip_high;
  axis = plot->kind == CLH_SCOPE_PLOT_VECTORSCOPE ? plot->rows :
      plot->kind == CLH_SCOPE_PLOT_HISTOGRAM ? plot->cols
      + CLH_SCOPE_CLIP_COUNTERS : plot->cols;
  per_bin = plot->kind == CLH_SCOPE_PLOT_WAVEFORM ? plot->rows :
      plot->kind == CLH_SCOPE_PLOT_VECTORSCOPE ? plot->cols : 1;
  j.n_copies = s->tuning.copies ? s->tuning.copies : s->cpu
      && plot->kind == CLH_SCOPE_PLOT_WAVEFORM ? CPU_WAVEFORM_COPIES : 1;
  budget = s->tuning.tile_bytes ? s->tuning.tile_bytes : !s->cpu ?
      GPU_TILE_BYTES : plot->kind == CLH_SCOPE_PLOT_WAVEFORM ?
      CPU_WAVEFORM_BYTES : s->limits.local_mem_per_group / 2;
  budget = MIN (budget, s->limits.local_mem_per_group / 2) / j.n_copies;
  /* As few tiles as local memory allows, of equal size; on a CPU device
   * a waveform in at least one strip per compute unit, which share no
   * counter, where row slices would add theirs with atomics. */
  j.tile_bins = (guint) CLAMP (budget / (4 * per_bin), 1, axis);
  j.n_tiles = (axis + j.tile_bins - 1) / j.tile_bins;
  if (s->cpu && plot->kind == CLH_SCOPE_PLOT_WAVEFORM
      && !s->tuning.tile_bytes)
    j.n_tiles = MAX (j.n_tiles, MIN (units, axis));
  j.tile_bins = (axis + j.n_tiles - 1) / j.n_tiles;
  j.n_slices = s->tuning.slices ? s->tuning.slices :
      (s->cpu ? units : 4 * units) / j.n_tiles;
  j.n_slices = CLAMP (j.n_slices, 1, plot->grid_height);
  if (plot->kind == CLH_SCOPE_PLOT_WAVEFORM) {
    j.col_mul = ratio_multiplier (plot->cols, plot->grid_width);
    strip = (guint) (((guint64) j.tile_bins * plot->grid_width +
            plot->cols - 1) / plot->cols);
  } else {
    strip = plot->grid_width;
  }
  /* Work-items along a row: a warp's worth where the strip is that wide,
   * so that neighbours read neighbouring samples. */
  j.lx_bits = MIN (floor_log2 (MAX (strip, 1)),
      floor_log2 (MIN (s->count_group, 32)));
  return j;
}

static void
make_jobs (ClhScope *s)
{
  guint i;

  g_array_set_size (s->jobs, 0);
  s->n_groups = 0;
  s->needs_clear = FALSE;
  s->has_histogram = FALSE;
  s->tile_bytes = 4;
  for (i = 0; i < s->layout.n_plots; i++) {
    const ClhScopePlot *p = &s->layout.plots[i];
    const ClhScopeJob j = plot_job (s, p, s->n_groups);
    const guint per_bin = p->kind == CLH_SCOPE_PLOT_HISTOGRAM ? 1 :
        p->kind == CLH_SCOPE_PLOT_WAVEFORM ? p->rows : p->cols;

    s->tile_bytes = MAX (s->tile_bytes, (gsize) 4 * j.tile_bins * per_bin
        * j.n_copies);
    s->has_histogram |= p->kind == CLH_SCOPE_PLOT_HISTOGRAM;
    g_array_append_val (s->jobs, j);
    s->n_groups += j.n_tiles * j.n_slices;
    /* Tiles of one slice store their counters; others add to them. */
    s->needs_clear |= j.n_slices > 1;
  }
}

/* Each threshold table's levels of the counts below
 * CLH_ABI_SCOPE_DIRECT, which the device reads instead of searching. */
static void
make_direct_levels (ClhScope *s)
{
  const guint n_tables = CLH_SCOPE_MAX_PLOTS * CLH_ABI_SCOPE_TABLES;
  guint t, c, level;

  for (t = 0; t < n_tables; t++) {
    const guint32 *table = s->thresholds + (gsize) t * CLH_SCOPE_LEVELS;
    guint8 *direct = s->direct + (gsize) t * CLH_ABI_SCOPE_DIRECT;

    level = 0;
    for (c = 0; c < CLH_ABI_SCOPE_DIRECT; c++) {
      while (level + 1 < CLH_SCOPE_LEVELS && table[level + 1] <= c)
        level++;
      direct[c] = (guint8) level;
    }
  }
}

/* Columns a histogram's clip indicator and its gap take on each side of
 * its bars. */
static guint
plot_side (const ClhScopePlot *p)
{
  return p->clip_width ? p->clip_width + p->clip_gap : 0;
}

/* The column table entries of a histogram's sides: its indicator's
 * columns, then the gap's (@low: the left side, else the right). */
static guint32 *
make_side (const ClhScopePlot *p, gboolean low, guint32 *entry)
{
  guint c;

  for (c = 0; c < plot_side (p); c++) {
    const gboolean lamp = low ? c < p->clip_width : c >= p->clip_gap;

    *entry++ = CLH_ABI_SCOPE_COLUMN_SIDE | (lamp ? (low ? 0 : 1) : 2);
  }
  return entry;
}

/* Each plot's column table (CLH_ABI_SCOPE_COLUMN_*): its picture column
 * c's bin across, `c * cols / width` (a vectorscope zoomed about its
 * centre: `(width * (zoom - 1) * cols / 2 + c * cols) / (width * zoom)`),
 * and for a waveform which threshold table the bin's grid columns take; a
 * histogram's sides before and after its columns; from @at in @s->columns
 * on. */
static void
make_columns (ClhScope *s, const ClhScopePlot *p, guint n_lo, guint at)
{
  guint32 *entry = &g_array_index (s->columns, guint32, at);
  guint c;

  entry = make_side (p, TRUE, entry);
  make_side (p, FALSE, entry + p->width);
  for (c = 0; c < p->width; c++) {
    const guint64 bin = ((guint64) p->width * (p->zoom - 1) * (p->cols / 2)
        + (guint64) c * p->cols) / ((guint64) p->width * p->zoom);
    guint table = 0;

    if (p->kind == CLH_SCOPE_PLOT_WAVEFORM) {
      const guint64 gw = p->grid_width;
      const guint64 n = ((bin + 1) * gw + p->cols - 1) / p->cols
          - (bin * gw + p->cols - 1) / p->cols;

      table = (guint) (n - n_lo);
    }
    entry[c] = (guint32) bin | (table << CLH_ABI_SCOPE_COLUMN_TABLE);
  }
}

static void
make_plot_params (ClhScope *s, const ClhScopeSpec *spec)
{
  guint i, columns = 0;

  memset (s->plot_params, 0, sizeof (s->plot_params));
  s->n_bars = 0;
  for (i = 0; i < s->layout.n_plots; i++)
    columns += s->layout.plots[i].width + 2 * plot_side (&s->layout.plots[i]);
  g_array_set_size (s->columns, columns);
  columns = 0;
  for (i = 0; i < s->layout.n_plots; i++) {
    const ClhScopePlot *p = &s->layout.plots[i];
    ClhScopePlotParams *q = &s->plot_params[i];
    guint32 *tables = s->thresholds + (gsize) i * CLH_ABI_SCOPE_TABLES
        * CLH_SCOPE_LEVELS;
    const guint n_lo = p->grid_width / p->cols;

    q->kind = p->kind;
    q->x = p->x;
    q->y = p->y;
    q->width = p->width;
    q->height = p->height;
    q->cols = p->cols;
    q->rows = p->rows;
    q->row_mul = ratio_multiplier (p->rows, p->height);
    q->count_base = (guint32) p->count_base;
    q->columns = columns;
    q->colour = p->colour;
    q->log = spec->scale == CLH_SCOPE_LOG;
    q->zoom = p->zoom;
    make_columns (s, p, n_lo, columns);
    columns += p->width + 2 * plot_side (p);
    if (p->kind == CLH_SCOPE_PLOT_WAVEFORM) {
      clh_scope_thresholds (spec, p, n_lo, tables);
      clh_scope_thresholds (spec, p, n_lo + 1, tables + CLH_SCOPE_LEVELS);
    } else if (p->kind == CLH_SCOPE_PLOT_VECTORSCOPE) {
      clh_scope_thresholds (spec, p, 1, tables);
    } else {
      q->bars = s->n_bars;
      s->n_bars += p->cols + CLH_SCOPE_CLIP_COUNTERS;
      q->side = plot_side (p);
      q->clip_width = p->clip_width;
      /* From the top: a gap, the lamp, a gap and the gauge, so that a
       * full gauge stays apart from the lamp of the plot below. */
      if (p->clip_width) {
        q->lamp = p->height - p->clip_gap - p->clip_width;
        q->gauge = q->lamp - p->clip_gap;
      }
      q->samples = p->grid_width * p->grid_height;
    }
  }
  make_direct_levels (s);
}

/* Writes @size bytes of @data to @mem at @offset without blocking:
 * @data stays as it is until the frame's commands are waited for. */
static gboolean
write_buffer (ClhScope *s, cl_mem mem, gsize offset, const void *data,
    gsize size, GError **error)
{
  return size == 0 || clh_cl_check (clEnqueueWriteBuffer (s->queue, mem,
          CL_FALSE, offset, size, data, 0, NULL, NULL),
      "clEnqueueWriteBuffer", error);
}

/* The tables of @frame's format and @spec, made and uploaded unless the
 * last frame's were the same. */
static gboolean
configure (ClhScope *s, const ClhFrame *frame, const ClhScopeSpec *spec,
    GError **error)
{
  const gsize n_tables = CLH_SCOPE_MAX_PLOTS * CLH_ABI_SCOPE_TABLES
      * CLH_SCOPE_LEVELS;
  const gsize n_direct = CLH_SCOPE_MAX_PLOTS * CLH_ABI_SCOPE_TABLES
      * CLH_ABI_SCOPE_DIRECT;
  const gsize layer_size = (gsize) spec->width * spec->height * 4;
  ConfigKey key;

  config_key (frame, spec, &key);
  if (s->configured && memcmp (&key, &s->key, sizeof (key)) == 0)
    return TRUE;
  s->configured = FALSE;

  clh_scope_layout (spec, frame, &s->layout);
  s->count_group = s->tuning.work_group ? s->tuning.work_group : s->cpu ?
      1 : GPU_GROUP;
  s->count_group = MIN (s->count_group,
      1u << floor_log2 (s->limits.max_work_group_size));
  make_jobs (s);
  s->thresholds = g_renew (guint32, s->thresholds, n_tables);
  memset (s->thresholds, 0, n_tables * sizeof (guint32));
  s->direct = g_realloc (s->direct, n_direct);
  make_plot_params (s, spec);
  s->layer = g_realloc (s->layer, layer_size);
  clh_scope_draw_graticule (spec, &s->layout, s->layer,
      (gsize) spec->width * 4);

  if (!make_buffer (s, &s->jobs_mem, s->jobs->len * sizeof (ClhScopeJob),
          error)
      || !make_buffer (s, &s->plots_mem, sizeof (s->plot_params), error)
      || !make_buffer (s, &s->thresholds_mem, n_tables * sizeof (guint32),
          error)
      || !make_buffer (s, &s->direct_mem, n_direct, error)
      || !make_buffer (s, &s->layer_mem, layer_size, error)
      || !make_buffer (s, &s->counts_mem, s->layout.n_counts * 4, error)
      || !make_buffer (s, &s->bars_mem, (gsize) s->n_bars * 4, error)
      || !make_buffer (s, &s->columns_mem, s->columns->len * 4, error)
      || !make_buffer (s, &s->out_mem, layer_size, error)
      || !write_buffer (s, s->jobs_mem, 0, s->jobs->data,
          s->jobs->len * sizeof (ClhScopeJob), error)
      || !write_buffer (s, s->plots_mem, 0, s->plot_params,
          sizeof (s->plot_params), error)
      || !write_buffer (s, s->thresholds_mem, 0, s->thresholds,
          n_tables * sizeof (guint32), error)
      || !write_buffer (s, s->direct_mem, 0, s->direct, n_direct, error)
      || !write_buffer (s, s->columns_mem, 0, s->columns->data,
          s->columns->len * 4, error)
      || !write_buffer (s, s->layer_mem, 0, s->layer, layer_size, error))
    return FALSE;
  s->key = key;
  s->configured = TRUE;
  return TRUE;
}

/* The components a spec reads: R, G, B or Y[, Cb, Cr]. */
static guint
components_read (const ClhFrame *frame, const ClhScopeSpec *spec)
{
  return spec->source == CLH_SCOPE_SOURCE_GRAY ? 1 :
      MIN (3, frame->n_components);
}

/* The planes the components a spec reads lie in, a bit per plane. */
static guint
planes_read (const ClhFrame *frame, const ClhScopeSpec *spec)
{
  const guint n = components_read (frame, spec);
  guint used = 0, i;

  for (i = 0; i < n; i++)
    used |= 1u << frame->components[i].plane;
  return used;
}

/* What one frame's operation reads. */
typedef struct {
  const ClhFrame *frame;
  const ClhScopeSpec *spec;
  /* The planes the spec reads (a bit per plane), where each starts in the
   * buffer the kernels read, and that buffer's bytes when the planes are
   * packed into it. */
  guint used;
  gsize base[CLH_MAX_PLANES];
  gsize total;
  /* The caller's host block the planes lie in, which the kernels read
   * where it lies or the driver copies from; else a buffer over the
   * planes' own memory; neither: the planes were staged. */
  const ClhHostBlock *block;
  cl_mem wrapped;
  guint8 *dest;
  gsize dest_stride;
  guint32 *counts;
  /* An overlay: the picture blended at (x, y) of the frame, alpha of
   * 255, the frame's rows read back into its planes. */
  gboolean overlay;
  guint x;
  guint y;
  guint alpha;
} Request;

/* Where the planes @r reads lie once packed, @r->base, each 64-byte
 * aligned, and their bytes, @r->total; an error past the kernels' 32-bit
 * offsets. */
static gboolean
pack_planes (Request *r, GError **error)
{
  gsize total = 0;
  guint i;

  for (i = 0; i < r->frame->n_planes; i++) {
    r->base[i] = total;
    if (r->used & (1u << i))
      total += ROUND_UP (clh_frame_plane_span (r->frame, i), 64);
  }
  if (total > G_MAXUINT32)
    return invalid (error, "frame too large");
  r->total = total;
  return TRUE;
}

/* On a device that reads host memory in place, a buffer over the memory
 * the planes @r reads lie in (CL_MEM_USE_HOST_PTR), and where each plane
 * starts in it; NULL if they lie a page or more apart, since such a gap
 * may not be mapped, or span more than 4 GiB. */
static cl_mem
wrap_planes (ClhScope *s, Request *r)
{
  const ClhFrame *frame = r->frame;
  const guint8 *start = NULL, *end = NULL;
  gsize covered = 0, used_bytes = 0;
  guint i;
  cl_mem mem;
  cl_int ret;

  for (i = 0; i < frame->n_planes; i++) {
    const guint8 *a = frame->planes[i].data;
    const guint8 *b = a + clh_frame_plane_span (frame, i);

    if (!(r->used & (1u << i)))
      continue;
    start = start && start < a ? start : a;
    end = end && end > b ? end : b;
    used_bytes += b - a;
  }
  covered = end - start;
  if (covered > G_MAXUINT32 || covered > used_bytes + 4096 * (gsize)
      frame->n_planes)
    return NULL;
  mem = clCreateBuffer (clh_context_get_cl_context (s->ctx),
      CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, covered, (void *) start, &ret);
  if (ret != CL_SUCCESS)
    return NULL;
  for (i = 0; i < frame->n_planes; i++)
    r->base[i] = frame->planes[i].data - start;
  return mem;
}

/* @block, if it is of this engine's context and every plane @r reads lies
 * in it, where the kernels reach it when they read the block in place
 * (@in_place: 32-bit offsets); else NULL: the frame then takes the way of
 * frames in ordinary memory. */
static const ClhHostBlock *
usable_block (ClhScope *s, const Request *r, const ClhHostBlock *block,
    gboolean in_place)
{
  const guint8 *data, *plane;
  gsize size, offset, span;
  guint p;

  if (!block || clh_host_block_get_context (block) != s->ctx)
    return NULL;
  data = clh_host_block_get_data (block);
  size = clh_host_block_get_size (block);
  for (p = 0; p < r->frame->n_planes; p++) {
    if (!(r->used & (1u << p)))
      continue;
    plane = r->frame->planes[p].data;
    span = clh_frame_plane_span (r->frame, p);
    if (plane < data || (gsize) (plane - data) > size)
      return NULL;
    offset = plane - data;
    if (span > size - offset || (in_place && offset + span > G_MAXUINT32))
      return NULL;
  }
  return block;
}

/* Copies the planes into the engine's pinned stage block, packed (the
 * previous frame's commands were waited for: it is free). */
static gboolean
stage_frame (ClhScope *s, Request *r, GError **error)
{
  if (!pack_planes (r, error))
    return FALSE;
  if (!s->stage || clh_host_block_get_size (s->stage) < r->total) {
    g_clear_pointer (&s->stage, clh_host_block_free);
    if (!(s->stage = clh_context_alloc_host (s->ctx, r->total, error)))
      return FALSE;
  }
  clh_host_copy_planes (r->frame, r->used,
      clh_host_block_get_data (s->stage), r->base);
  return TRUE;
}

/* Where the kernels will read @r's frame, with no host copy where the
 * frame allows it: on a device that reads host memory in place, @block
 * (the caller's, the frame in it) itself, or a buffer over the planes'
 * own memory; on others, the engine's source buffer, which the driver
 * fills from @block by DMA. Otherwise the planes are copied into the
 * engine's stage block first. An overlay is staged on a device that reads
 * in place: the frame is written back with reads of the buffer the blend
 * wrote, never through a buffer over the caller's own memory. */
static gboolean
place_frame (ClhScope *s, Request *r, const ClhHostBlock *block,
    GError **error)
{
  const gboolean in_place = clh_context_reads_host_in_place (s->ctx);
  const guint8 *data;
  guint p;

  r->used = planes_read (r->frame, r->spec);
  if (in_place && r->overlay)
    return stage_frame (s, r, error);
  r->block = usable_block (s, r, block, in_place);
  if (r->block && in_place) {
    data = clh_host_block_get_data (r->block);
    for (p = 0; p < r->frame->n_planes; p++)
      r->base[p] = (r->used & (1u << p)) ?
          (gsize) (r->frame->planes[p].data - data) : 0;
    return TRUE;
  }
  if (r->block)
    return pack_planes (r, error);
  if (in_place && (r->wrapped = wrap_planes (s, r)))
    return TRUE;
  return stage_frame (s, r, error);
}

static void
frame_params (const ClhFrame *frame, const ClhScopeSpec *spec,
    const gsize base[CLH_MAX_PLANES], ClhScopeFrameParams *f)
{
  const guint n = components_read (frame, spec);
  gint32 matrix[9];
  guint c;

  memset (f, 0, sizeof (*f));
  for (c = 0; c < n; c++) {
    const ClhComponent *comp = &frame->components[c];

    f->bases[c] = (guint32) base[comp->plane];
    f->pitches[c] = (guint32) frame->planes[comp->plane].stride;
    f->offsets[c] = comp->offset;
    f->pixel_strides[c] = comp->pixel_stride;
    f->shifts[c] = comp->shift;
  }
  f->sample = frame->sample;
  f->mask = (1u << frame->depth) - 1;
  f->width = frame->width;
  f->height = frame->height;
  f->source = spec->source;
  clh_scope_matrix (spec->kr, spec->kb, matrix);
  for (c = 0; c < 9; c++)
    f->matrix[c] = (guint32) matrix[c];
}

/* Each plane @r reads, from the caller's pinned block into the source
 * buffer at its packed place: the driver copies it by DMA from where it
 * lies, as it copies the stage block. A write rather than lending the
 * block to the device (clh_host_block_lend()): the block stays mapped, so
 * the frame stays readable by the host all along (another element may
 * read the same buffer meanwhile), and a driver that keeps a pinned
 * buffer's contents in device memory (NVIDIA's: its OpenCL Best Practices
 * Guide, "Pinned Memory", writes from the mapped pointer instead) would
 * copy the whole block to the device on the unmap and back on the map.
 * The writes do not block: the caller's frame stays as it is until the
 * frame's commands are waited for, and is the caller's again then. */
static gboolean
write_planes (ClhScope *s, const Request *r, GError **error)
{
  guint p;

  for (p = 0; p < r->frame->n_planes; p++)
    if ((r->used & (1u << p)) && !write_buffer (s, s->src, r->base[p],
            r->frame->planes[p].data, clh_frame_plane_span (r->frame, p),
            error))
      return FALSE;
  return TRUE;
}

/* The buffer the kernels read the frame from: the caller's block or a
 * buffer over the frame's memory, on a device that reads host memory in
 * place, or the stage block there; on others the engine's source buffer,
 * filled from the caller's block or from the stage block. */
static gboolean
upload_frame (ClhScope *s, const Request *r, cl_mem *src, GError **error)
{
  if (r->wrapped) {
    *src = r->wrapped;
    return TRUE;
  }
  if (clh_context_reads_host_in_place (s->ctx)) {
    *src = clh_host_block_get_mem (r->block ? r->block : s->stage);
    return TRUE;
  }
  if (!s->src || s->src_size < r->total) {
    if (!make_buffer (s, &s->src, r->total, error))
      return FALSE;
    s->src_size = r->total;
  }
  *src = s->src;
  if (r->block)
    return write_planes (s, r, error);
  return write_buffer (s, s->src, 0, clh_host_block_get_data (s->stage),
      r->total, error);
}

static gboolean
enqueue_count (ClhScope *s, const Request *r, cl_mem src, GError **error)
{
  const guint32 zero = 0;
  const gsize local = s->count_group;
  const gsize global = local * s->n_groups;
  ClhScopeCountParams p;
  cl_int ret;

  frame_params (r->frame, r->spec, r->base, &p.frame);
  p.n_jobs = s->jobs->len;
  if (s->needs_clear) {
    ret = clEnqueueFillBuffer (s->queue, s->counts_mem, &zero,
        sizeof (zero), 0, MAX (s->layout.n_counts, 1) * 4, 0, NULL, NULL);
    if (!clh_cl_check (ret, "clEnqueueFillBuffer", error))
      return FALSE;
  }
  ret = clSetKernelArg (s->count, 0, sizeof (cl_mem), &src);
  ret |= clSetKernelArg (s->count, 1, sizeof (p), &p);
  ret |= clSetKernelArg (s->count, 2, sizeof (cl_mem), &s->jobs_mem);
  ret |= clSetKernelArg (s->count, 3, s->tile_bytes, NULL);
  ret |= clSetKernelArg (s->count, 4, sizeof (cl_mem), &s->counts_mem);
  if (!clh_cl_check (ret, "clSetKernelArg", error))
    return FALSE;
  ret = clEnqueueNDRangeKernel (s->queue, s->count, 1, NULL, &global,
      &local, 0, NULL, NULL);
  return clh_cl_check (ret, "clEnqueueNDRangeKernel", error);
}

static gboolean
enqueue_bars (ClhScope *s, GError **error)
{
  const gsize local = s->cpu ? 1 : 64;
  const gsize global = local * s->layout.n_plots;
  cl_int ret;

  ret = clSetKernelArg (s->bars, 0, sizeof (cl_mem), &s->counts_mem);
  ret |= clSetKernelArg (s->bars, 1, sizeof (cl_mem), &s->plots_mem);
  ret |= clSetKernelArg (s->bars, 2, sizeof (cl_mem), &s->bars_mem);
  ret |= clSetKernelArg (s->bars, 3, local * 4, NULL);
  if (!clh_cl_check (ret, "clSetKernelArg", error))
    return FALSE;
  ret = clEnqueueNDRangeKernel (s->queue, s->bars, 1, NULL, &global,
      &local, 0, NULL, NULL);
  return clh_cl_check (ret, "clEnqueueNDRangeKernel", error);
}

/* The picture: on a GPU a work-item a pixel, neighbours reading
 * neighbouring counters; on a CPU device a work-item a 64-pixel span of a
 * row, its plots looked up once, 16 rows a work-group. */
static gboolean
enqueue_draw (ClhScope *s, const ClhScopeSpec *spec, GError **error)
{
  const guint span = s->tuning.draw_span ? s->tuning.draw_span : s->cpu ?
      64 : 1;
  const gsize items = (spec->width + span - 1) / span;
  const gsize global[2] = { span > 1 ? items : ROUND_UP (items, 64),
    span > 1 ? ROUND_UP (spec->height, 16) : spec->height
  };
  const gsize gpu_local[2] = { 64, 1 }, span_local[2] = { 1, 16 };
  ClhScopeDrawParams d;
  cl_int ret;

  d.width = spec->width;
  d.height = spec->height;
  d.pitch = spec->width * 4;
  d.n_plots = s->layout.n_plots;
  d.span = span;
  ret = clSetKernelArg (s->draw, 0, sizeof (cl_mem), &s->counts_mem);
  ret |= clSetKernelArg (s->draw, 1, sizeof (cl_mem), &s->bars_mem);
  ret |= clSetKernelArg (s->draw, 2, sizeof (cl_mem), &s->plots_mem);
  ret |= clSetKernelArg (s->draw, 3, sizeof (cl_mem), &s->columns_mem);
  ret |= clSetKernelArg (s->draw, 4, sizeof (cl_mem), &s->thresholds_mem);
  ret |= clSetKernelArg (s->draw, 5, sizeof (cl_mem), &s->direct_mem);
  ret |= clSetKernelArg (s->draw, 6, sizeof (cl_mem), &s->layer_mem);
  ret |= clSetKernelArg (s->draw, 7, sizeof (d), &d);
  ret |= clSetKernelArg (s->draw, 8, sizeof (cl_mem), &s->out_mem);
  if (!clh_cl_check (ret, "clSetKernelArg", error))
    return FALSE;
  ret = clEnqueueNDRangeKernel (s->queue, s->draw, 2, NULL, global,
      span > 1 ? span_local : gpu_local, 0, NULL, NULL);
  return clh_cl_check (ret, "clEnqueueNDRangeKernel", error);
}

/* The picture blended into the components the spec's source writes (R,
 * G, B or Y[, Cb, Cr]) of the frame in @src. */
static gboolean
enqueue_blend (ClhScope *s, const Request *r, cl_mem src, GError **error)
{
  const ClhFrame *frame = r->frame;
  gint32 matrix[9];
  guint32 offsets[3];
  ClhScopeFrameParams f;
  ClhScopeBlendParams b;
  cl_int ret;
  guint c, k;

  frame_params (frame, r->spec, r->base, &f);
  clh_scope_output_matrix (r->spec, frame->depth, matrix, offsets);
  for (c = 0; c < components_read (frame, r->spec); c++) {
    const ClhComponent *comp = &frame->components[c];
    gsize global[2];

    memset (&b, 0, sizeof (b));
    b.component = c;
    b.w_sub = comp->w_sub;
    b.h_sub = comp->h_sub;
    b.x = r->x;
    b.y = r->y;
    b.width = r->spec->width;
    b.height = r->spec->height;
    b.pitch = r->spec->width * 4;
    b.alpha = r->alpha;
    for (k = 0; k < 3; k++)
      b.matrix[k] = (guint32) matrix[3 * c + k];
    b.offset = offsets[c];
    global[0] = ROUND_UP (b.width >> b.w_sub, 16);
    global[1] = b.height >> b.h_sub;
    ret = clSetKernelArg (s->blend, 0, sizeof (cl_mem), &src);
    ret |= clSetKernelArg (s->blend, 1, sizeof (f), &f);
    ret |= clSetKernelArg (s->blend, 2, sizeof (b), &b);
    ret |= clSetKernelArg (s->blend, 3, sizeof (cl_mem), &s->out_mem);
    if (!clh_cl_check (ret, "clSetKernelArg", error))
      return FALSE;
    ret = clEnqueueNDRangeKernel (s->queue, s->blend, 2, NULL, global, NULL,
        0, NULL, NULL);
    if (!clh_cl_check (ret, "clEnqueueNDRangeKernel", error))
      return FALSE;
  }
  return TRUE;
}

/* The bytes of each plane the blend wrote, back from @src into the
 * frame's planes: the rectangle's rows, from the first byte of its first
 * written sample to the last byte of its last; the last command's event
 * is @done. */
static gboolean
read_back_planes (ClhScope *s, const Request *r, cl_mem src, cl_event *done,
    GError **error)
{
  const ClhFrame *frame = r->frame;
  const guint n = components_read (frame, r->spec);
  const guint bytes = clh_frame_sample_bytes (frame);
  guint p, c, last = 0;
  cl_int ret;

  for (c = 0; c < n; c++)
    last = MAX (last, frame->components[c].plane);
  for (p = 0; p <= last; p++) {
    gsize start = G_MAXSIZE, end = 0;
    guint row0 = 0, rows = 0;

    for (c = 0; c < n; c++) {
      const ClhComponent *comp = &frame->components[c];
      const gsize first = comp->offset + (gsize) (r->x >> comp->w_sub)
          * comp->pixel_stride;

      if (comp->plane != p)
        continue;
      start = MIN (start, first);
      end = MAX (end, first + (gsize) ((r->spec->width >> comp->w_sub) - 1)
          * comp->pixel_stride + bytes);
      row0 = r->y >> comp->h_sub;
      rows = r->spec->height >> comp->h_sub;
    }
    if (rows == 0)
      continue;
    {
      const size_t buffer_origin[3] = { r->base[p] + start, row0, 0 };
      const size_t host_origin[3] = { start, row0, 0 };
      const size_t region[3] = { end - start, rows, 1 };

      ret = clEnqueueReadBufferRect (s->queue, src, CL_FALSE, buffer_origin,
          host_origin, region, frame->planes[p].stride, 0,
          frame->planes[p].stride, 0, (void *) frame->planes[p].data, 0, NULL,
          p == last ? done : NULL);
      if (!clh_cl_check (ret, "clEnqueueReadBufferRect", error))
        return FALSE;
    }
  }
  return TRUE;
}

/* One frame's commands: upload, count, bars, draw, and the picture's
 * readback (and the counts', if asked for), or its blend into the frame
 * and the frame's rows' readback; the last one's event is @done. */
static gboolean
draw_op (ClhScope *s, const Request *r, cl_event *done, GError **error)
{
  const ClhScopeSpec *spec = r->spec;
  const size_t origin[3] = { 0, 0, 0 };
  const size_t region[3] = { (gsize) spec->width * 4, spec->height, 1 };
  cl_mem src;
  cl_int ret;

  if (!configure (s, r->frame, spec, error)
      || !upload_frame (s, r, &src, error)
      || !enqueue_count (s, r, src, error)
      || (s->has_histogram && !enqueue_bars (s, error))
      || !enqueue_draw (s, spec, error))
    return FALSE;
  if (r->overlay)
    return enqueue_blend (s, r, src, error)
        && read_back_planes (s, r, src, done, error);
  /* Into pinned memory (a host block of the context, as clscope's pool
   * gives) the driver copies by DMA at the bus's speed; into pageable
   * memory through a pinned buffer of its own, at a fraction of it. */
  ret = clEnqueueReadBufferRect (s->queue, s->out_mem, CL_FALSE, origin,
      origin, region, region[0], 0, r->dest_stride, 0, r->dest, 0, NULL,
      r->counts ? NULL : done);
  if (!clh_cl_check (ret, "clEnqueueReadBufferRect", error))
    return FALSE;
  if (!r->counts)
    return TRUE;
  ret = clEnqueueReadBuffer (s->queue, s->counts_mem, CL_FALSE, 0,
      s->layout.n_counts * 4, r->counts, 0, NULL, done);
  return clh_cl_check (ret, "clEnqueueReadBuffer", error);
}

typedef struct {
  ClhScope *s;
  const Request *r;
  cl_event done;
} Op;

/* Enqueues @op; if that fails, finishes what it enqueued, which may read
 * or write host memory its caller gets back, and forgets the
 * configuration, which may be half uploaded. */
static gboolean
enqueue_op (Op *op, GError **error)
{
  if (draw_op (op->s, op->r, &op->done, error))
    return TRUE;
  clFinish (op->s->queue);
  g_clear_pointer (&op->done, clReleaseEvent);
  op->s->configured = FALSE;
  return FALSE;
}

/* @op on the submission thread, which watches its last command. */
static gboolean
op_job (gpointer data, GError **error)
{
  Op *op = data;

  if (!enqueue_op (op, error))
    return FALSE;
  clh_submitter_defer_flush (op->s->submitter, op->s->queue);
  clh_submitter_watch (op->s->submitter, op->done, &op->s->watch);
  return TRUE;
}

/* Runs a frame's operation, through the submission thread while the
 * device is shared (clh_context_use_thread()), else on the caller's
 * thread, until its last command is done. */
static gboolean
run_op (ClhScope *s, const Request *r, GError **error)
{
  Op op = { s, r, NULL };
  gboolean enqueued, ok;

  /* The thread would wait for itself. */
  g_return_val_if_fail (!clh_submitter_in_thread (s->submitter), FALSE);
  if (clh_context_use_thread (s->ctx, s, CLH_SUBMISSION_AUTO,
          &s->shared_until)) {
    clh_watch_reset (&s->watch);
    enqueued = clh_submitter_run (s->submitter, op_job, &op, error);
    ok = enqueued && clh_cl_check (clh_watch_wait (&s->watch),
        "the scope's readback", error);
  } else {
    enqueued = enqueue_op (&op, error);
    ok = enqueued && clh_cl_check (clWaitForEvents (1, &op.done),
        "clWaitForEvents", error);
  }
  /* After a failed wait the commands may still read or write host memory
   * the caller gets back. */
  if (enqueued && !ok) {
    clFinish (s->queue);
    s->configured = FALSE;
  }
  g_clear_pointer (&op.done, clReleaseEvent);
  return ok;
}

/**
 * clh_scope_set_tuning:
 * @scope: a scope engine
 * @tuning: (nullable): how scope_count is launched from the next frame
 *   on; %NULL or zero fields: the device's defaults
 *
 * For tests, which reach a GPU's launch (work-groups of many work-items,
 * local atomics, small tiles, slices merged with global atomics) on a CPU
 * device, and for benchmarks.
 */
void
clh_scope_set_tuning (ClhScope *scope, const ClhScopeTuning *tuning)
{
  if (tuning)
    scope->tuning = *tuning;
  else
    memset (&scope->tuning, 0, sizeof (scope->tuning));
  scope->configured = FALSE;
}

/**
 * clh_scope_draw:
 * @scope: a scope engine
 * @frame: a valid frame of any format the model describes
 * @spec: the picture, valid for @frame (clh_scope_spec_is_valid())
 * @block: (nullable): the host block @frame's planes lie in, from
 *   clh_context_alloc_host() on the engine's context (a buffer pool's
 *   memory), or %NULL; a block of another context, or one the planes the
 *   spec reads do not all lie in, is not used
 * @dest: (out caller-allocates): `spec->height` rows of `spec->width` RGBA
 *   pixels, @dest_stride bytes apart
 * @dest_stride: bytes from one row of @dest to the next, at least
 *   `4 * spec->width`
 * @counts: (out caller-allocates) (nullable): the layout's `n_counts`
 *   counters (clh_scope_layout()), or %NULL not to read them back
 * @error: %CLH_ENGINE_ERROR_INVALID for a frame or spec the engine cannot
 *   draw (the message says why), %CLH_ENGINE_ERROR_OPENCL
 *
 * Counts @frame's plots and draws the scope picture on the device, in one
 * submission: the frame's upload, a clear, three kernels and the
 * picture's readback, waited for once. Each cell's level comes from its
 * count through clh_scope_thresholds(), a histogram's bars from its peak;
 * the trace, its colour scaled by the level, lies under the graticule of
 * clh_scope_draw_graticule(), each channel `(trace (255 - alpha) +
 * graticule alpha + 127) / 255`, alpha 255. A histogram's bars lie over
 * the graticule instead, so that no line hides a bin (a spike at a clip
 * level): row r from the bottom of bin b's columns is the trace's colour
 * where r < its bar. Beside them, its clip indicators (#ClhScopePlot's
 * clip_width columns, clip_gap from the bars): a lamp of clip_width
 * rows, clip_gap rows below the plot's top, lit
 * (%CLH_ABI_SCOPE_CRUSHED_COLOUR at the left, %CLH_ABI_SCOPE_CLIPPED_COLOUR
 * at the right) when the plot's clip counter counted anything, else
 * %CLH_ABI_SCOPE_UNLIT_COLOUR; below it, clip_gap rows down, a gauge of
 * `ceil (count * gauge / samples)` rows from the bottom in the trace's
 * colour (gauge: the plot's height less clip_width and twice clip_gap;
 * samples: its grid's); black elsewhere.
 *
 * A frame in @block reaches the device without a host copy: the driver
 * copies its planes by DMA from the pinned block, or, on a device that
 * reads host memory in place, the kernels read the block itself. On such
 * a device a frame in ordinary memory is read in place too, where its
 * planes lie close together; elsewhere the engine first copies it into a
 * pinned block of its own. The block stays mapped for the host
 * throughout: @frame may be read while this runs, and is the caller's
 * again when it returns.
 *
 * @dest in pinned memory (a block from clh_context_alloc_host(), as
 * clscope's pool gives) is read back by DMA at the bus's speed; ordinary
 * (pageable) memory goes through the driver's own pinned buffer, at a
 * fraction of it (docs/performance.md, "Scopes").
 *
 * Returns: %TRUE with @dest (and @counts) written, %FALSE on error
 */
gboolean
clh_scope_draw (ClhScope *scope, const ClhFrame *frame,
    const ClhScopeSpec *spec, const ClhHostBlock *block, guint8 *dest,
    gsize dest_stride, guint32 *counts, GError **error)
{
  GError *why = NULL;
  Request r = { frame, spec };
  gboolean ok;

  if (!clh_frame_is_valid (frame))
    return invalid (error, "not a valid frame");
  if (!clh_scope_spec_is_valid (spec, frame, &why)) {
    g_set_error_literal (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        why->message);
    g_error_free (why);
    return FALSE;
  }
  if (dest_stride < (gsize) spec->width * 4)
    return invalid (error, "destination rows shorter than the picture's");
  r.dest = dest;
  r.dest_stride = dest_stride;
  r.counts = counts;
  if (!place_frame (scope, &r, block, error))
    return FALSE;
  ok = run_op (scope, &r, error);
  g_clear_pointer (&r.wrapped, clReleaseMemObject);
  return ok;
}

/* The size of the largest subsampled sample of the components @spec
 * writes, as a mask of the low bits positions must not have. */
static guint
subsampling_mask (const ClhFrame *frame, const ClhScopeSpec *spec,
    gboolean vertical)
{
  guint c, sub = 0;

  for (c = 0; c < components_read (frame, spec); c++)
    sub = MAX (sub, vertical ? frame->components[c].h_sub :
        frame->components[c].w_sub);
  return (1u << sub) - 1;
}

/**
 * clh_scope_overlay:
 * @scope: a scope engine
 * @frame: a valid frame whose planes are writable
 * @spec: the picture, valid for @frame (clh_scope_spec_is_valid())
 * @block: (nullable): the host block @frame's planes lie in, as
 *   clh_scope_draw() takes it
 * @x: the picture's left column in the frame
 * @y: its top row
 * @alpha: its opacity, 0..255
 * @error: %CLH_ENGINE_ERROR_INVALID for a frame, spec or rectangle the
 *   engine cannot draw (the message says why), %CLH_ENGINE_ERROR_OPENCL
 *
 * Draws @spec's picture of @frame as clh_scope_draw() does and blends it
 * into @frame's pixels [@x, @x + width) x [@y, @y + height) on the device
 * (kernels/scope.cl, scope_blend), in one submission with the counting;
 * only the rectangle's rows of each written plane are read back into
 * @frame. Each sample of the components the spec's source names (R, G, B
 * or Y, Cb, Cr; alpha and padding stay) takes the mean colour of the
 * picture pixels it covers, converted by clh_scope_output_matrix(), as
 * `(sample (255 - alpha) + value alpha + 127) / 255`. The rectangle lies
 * inside the frame, its corner and size multiples of the largest
 * subsampled sample (2 or 4 pixels) of those components.
 *
 * A frame in @block is copied to the device and its rows back by DMA,
 * with no host copy; others, and every frame on a device that reads host
 * memory in place, are first copied into a pinned block of the engine's.
 *
 * Returns: %TRUE with @frame written, %FALSE on error (@frame may then be
 *   partly written)
 */
gboolean
clh_scope_overlay (ClhScope *scope, const ClhFrame *frame,
    const ClhScopeSpec *spec, const ClhHostBlock *block, guint x, guint y,
    guint alpha, GError **error)
{
  GError *why = NULL;
  Request r = { frame, spec };

  if (!clh_frame_is_valid (frame))
    return invalid (error, "not a valid frame");
  if (!clh_scope_spec_is_valid (spec, frame, &why)) {
    g_set_error_literal (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        why->message);
    g_error_free (why);
    return FALSE;
  }
  if (spec->width > frame->width || spec->height > frame->height
      || x > frame->width - spec->width || y > frame->height - spec->height)
    return invalid (error, "the picture does not fit inside the frame there");
  if (((x | spec->width) & subsampling_mask (frame, spec, FALSE))
      || ((y | spec->height) & subsampling_mask (frame, spec, TRUE)))
    return invalid (error, "the picture's corner and size are not on the "
        "chroma subsampling grid");
  if (alpha > 255)
    return invalid (error, "alpha is 0..255");
  r.overlay = TRUE;
  r.x = x;
  r.y = y;
  r.alpha = alpha;
  return place_frame (scope, &r, block, error) && run_op (scope, &r, error);
}
