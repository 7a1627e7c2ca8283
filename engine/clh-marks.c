/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The marks engine: a frame's planes up to the device, the exposure_marks
 * kernel (kernels/marks.cl) over them in place, and the marked planes
 * back, in one operation the caller waits for. The host's part is O(1):
 * the kernel's parameters from the spec, and the false colour's legend
 * (a few thousand bytes of ranks), uploaded when it changes.
 *
 * The frame goes through the engine's pinned stage block both ways: the
 * planes are copied there on the caller's thread (clh-host-copy.c), the
 * device copies them by DMA into its own buffer, marks them there and
 * copies them back into the block, and the host copies them out to the
 * caller's planes. The commands go into the context's counting queue, the
 * one its histogram engines and trackers share, and while others submit
 * too they are enqueued by the device's submission thread
 * (clh_context_use_thread()), as the tracker's are. */
#include "clh-marks.h"

#include <string.h>

#include "clh-context-private.h"
#include "clh-engine-tuning.h"
#include "clh-host-copy.h"
#include "clh-marks-legend.h"

/* @x rounded up to a multiple of @n, a power of two. */
#define ROUND_UP_POW2(x, n) (((x) + (n) - 1) & ~((gsize) (n) - 1))

/* The launch's work-group: 16 x 16 blocks. */
#define GROUP 16

struct _ClhMarks {
  ClhContext *ctx;
  /* The context's counting queue and submission thread, as the
   * tracker's (clh-tracker.c). */
  cl_command_queue queue;
  ClhSubmitter *submitter;
  ClhSubmission submission;
  gint64 shared_until;
  GMutex wait_lock;
  GCond wait_cond;
  ClhWatch watch;
  cl_kernel kernel;

  /* The frame's planes, packed: in pinned host memory and on the device,
   * each sized for the largest frame seen. */
  ClhHostBlock *stage;
  cl_mem frame;
  gsize frame_size;

  /* The legend's ranks as the device holds them (or will, once
   * @legend_dirty is written), and its buffer, at least 4 bytes. */
  GByteArray *legend_ranks;
  gboolean legend_dirty;
  cl_mem legend;
  gsize legend_size;
};

static gboolean
invalid (GError **error, const gchar *why)
{
  g_set_error_literal (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
      why);
  return FALSE;
}

/**
 * clh_marks_new:
 * @context: the device context, shared with histogram engines and
 *   trackers
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Creates a marks engine on @context's device: its own kernel and
 * buffers, over the context's compiled program and counting queue. It
 * serves one thread at a time.
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhMarks *
clh_marks_new (ClhContext *context, GError **error)
{
  ClhMarks *m = g_new0 (ClhMarks, 1);
  cl_int ret = CL_SUCCESS;

  m->ctx = clh_context_ref (context);
  clh_context_add_user (context);
  g_mutex_init (&m->wait_lock);
  g_cond_init (&m->wait_cond);
  m->watch.lock = &m->wait_lock;
  m->watch.cond = &m->wait_cond;
  m->submitter = clh_context_get_submitter (context);
  m->legend_ranks = g_byte_array_new ();
  if ((m->queue = clh_context_get_shared_queue (context, 0, error))) {
    m->kernel = clCreateKernel (clh_context_get_program (context),
        "exposure_marks", &ret);
    if (clh_cl_check (ret, "clCreateKernel", error))
      return m;
  }
  clh_marks_free (m);
  return NULL;
}

/**
 * clh_marks_free:
 * @marks: (nullable): a marks engine
 *
 * Waits for its commands and releases it.
 */
void
clh_marks_free (ClhMarks *marks)
{
  ClhMarks *m = marks;

  if (!m)
    return;
  if (m->queue)
    clFinish (m->queue);
  g_clear_pointer (&m->kernel, clReleaseKernel);
  g_clear_pointer (&m->frame, clReleaseMemObject);
  g_clear_pointer (&m->legend, clReleaseMemObject);
  g_clear_pointer (&m->legend_ranks, g_byte_array_unref);
  g_clear_pointer (&m->stage, clh_host_block_free);
  g_clear_pointer (&m->queue, clReleaseCommandQueue);
  g_mutex_clear (&m->wait_lock);
  g_cond_clear (&m->wait_cond);
  clh_context_remove_user (m->ctx);
  clh_context_unref (m->ctx);
  g_free (m);
}

/**
 * clh_marks_set_submission:
 * @marks: a marks engine
 * @submission: which thread enqueues its commands from now on;
 *   %CLH_SUBMISSION_AUTO by default
 *
 * For tests, as clh_engine_set_submission().
 */
void
clh_marks_set_submission (ClhMarks *marks, ClhSubmission submission)
{
  marks->submission = submission;
}

/* What one clh_marks_draw() enqueues: the packed planes' bytes and the
 * kernel's parameters. */
typedef struct {
  ClhMarks *m;
  gsize total;
  ClhParamsMarks params;
  cl_event done;
} Draw;

/* The planes the listed components lie in (@used, a bit per plane), each
 * packed at a 64-byte aligned @base; returns their bytes. */
static gsize
pack_planes (const ClhFrame *frame, const ClhMarksSpec *spec, guint *used,
    gsize base[CLH_MAX_PLANES])
{
  const guint n = spec->layout == CLH_MARKS_GRAY ? 1 : 3;
  gsize total = 0;
  guint i;

  *used = 0;
  for (i = 0; i < n; i++)
    *used |= 1u << frame->components[spec->components[i]].plane;
  for (i = 0; i < frame->n_planes; i++) {
    base[i] = total;
    if (*used & (1u << i))
      total += ROUND_UP_POW2 (clh_frame_plane_span (frame, i), 64);
  }
  return total;
}

/* How each rank is drawn: nothing, its colour, or grey. */
static void
set_ranks (ClhParamsMarks *p, const ClhMarksSpec *spec)
{
  static const struct {
    guint rank;
    gsize colour;
  } marks[] = {
    {CLH_ABI_MARK_ZEBRA_LOW, G_STRUCT_OFFSET (ClhMarksSpec, zebra_low_colour)},
    {CLH_ABI_MARK_ZEBRA, G_STRUCT_OFFSET (ClhMarksSpec, zebra_colour)},
    {CLH_ABI_MARK_BRNG, G_STRUCT_OFFSET (ClhMarksSpec, brng_colour)},
  };
  guint i, c;

  for (i = 0; i < G_N_ELEMENTS (marks); i++) {
    const ClhMarkColour *colour = G_STRUCT_MEMBER_P (spec, marks[i].colour);

    p->rank_modes[marks[i].rank] = CLH_ABI_MARK_PAINT;
    for (c = 0; c < 3; c++)
      p->rank_colours[3 * marks[i].rank + c] = colour->values[c];
  }
  if (!(spec->marks & CLH_MARK_FALSE_COLOUR))
    return;
  p->n_bands = spec->n_bands;
  for (i = 0; i < spec->n_bands; i++) {
    const ClhMarkBand *band = &spec->bands[i];

    p->band_first[i] = band->first;
    p->rank_modes[1 + i] = band->style == CLH_MARK_BAND_GREY ?
        CLH_ABI_MARK_GREY : band->style == CLH_MARK_BAND_NONE ?
        CLH_ABI_MARK_KEEP : CLH_ABI_MARK_PAINT;
    for (c = 0; c < 3; c++)
      p->rank_colours[3 * (1 + i) + c] = band->colour.values[c];
  }
}

/* The kernel's parameters: where the packed planes put each component,
 * the blocks, the levels and the ranks' colours. */
static void
set_params (ClhParamsMarks *p, const ClhFrame *frame,
    const ClhMarksSpec *spec, const gsize base[CLH_MAX_PLANES])
{
  const guint n = spec->layout == CLH_MARKS_GRAY ? 1 : 3;
  const guint shift = frame->depth - 8;
  guint i;

  memset (p, 0, sizeof (*p));
  p->width = frame->width;
  p->height = frame->height;
  if (spec->layout == CLH_MARKS_YUV) {
    p->block_w = frame->components[spec->components[1]].w_sub;
    p->block_h = frame->components[spec->components[1]].h_sub;
  }
  p->blocks_x = clh_sub_scale (frame->width, p->block_w);
  p->blocks_y = clh_sub_scale (frame->height, p->block_h);
  p->layout = spec->layout;
  p->sample = frame->sample;
  p->mask = frame->depth >= 16 ? 0xffffu : (1u << frame->depth) - 1;
  for (i = 0; i < n; i++) {
    const ClhComponent *comp = &frame->components[spec->components[i]];

    p->bases[i] = base[comp->plane];
    p->pitches[i] = frame->planes[comp->plane].stride;
    p->offsets[i] = comp->offset;
    p->pixel_strides[i] = comp->pixel_stride;
    p->shifts[i] = comp->shift;
  }
  p->marks = spec->marks;
  p->zebra_level = spec->zebra_level;
  p->zebra_low_level = spec->zebra_low_level;
  p->zebra_period = spec->zebra_period;
  p->zebra_phase = spec->zebra_phase;
  p->legal_low = 16u << shift;
  p->legal_high = 235u << shift;
  p->chroma_high = 240u << shift;
  p->neutral = 1u << (frame->depth - 1);
  set_ranks (p, spec);
}

/* The legend's ranks, if @spec has one on @frame, into @m->legend_ranks,
 * marked to be uploaded when they changed; its place and colours into
 * @p. */
static void
set_legend (ClhMarks *m, ClhParamsMarks *p, const ClhFrame *frame,
    const ClhMarksSpec *spec)
{
  const ClhMarkColour *colours[2] = { &spec->legend_paper,
    &spec->legend_ink
  };
  ClhMarksLegend legend;
  guint8 *ranks;
  gsize size;
  guint i, c;

  if (!clh_marks_legend_place (spec, frame->width, frame->height, &legend))
    return;
  p->legend_x = legend.x;
  p->legend_y = legend.y;
  p->legend_width = legend.width;
  p->legend_height = legend.height;
  for (i = 0; i < 2; i++) {
    const guint rank = i ? CLH_MARKS_RANK_INK : CLH_MARKS_RANK_PAPER;

    p->rank_modes[rank] = CLH_ABI_MARK_PAINT;
    for (c = 0; c < 3; c++)
      p->rank_colours[3 * rank + c] = colours[i]->values[c];
  }
  size = (gsize) legend.width * legend.height;
  ranks = g_malloc (size);
  clh_marks_legend_draw (spec, &legend, ranks);
  if (m->legend_ranks->len != size
      || memcmp (m->legend_ranks->data, ranks, size) != 0) {
    g_byte_array_set_size (m->legend_ranks, 0);
    g_byte_array_append (m->legend_ranks, ranks, size);
    m->legend_dirty = TRUE;
  }
  g_free (ranks);
}

/* The legend's buffer, large enough, holding its ranks; written without
 * blocking: @m->legend_ranks stays as it is until the draw is waited
 * for. */
static gboolean
upload_legend (ClhMarks *m, GError **error)
{
  const gsize size = MAX (m->legend_ranks->len, 4);
  cl_int ret;

  if (!m->legend || m->legend_size < size) {
    g_clear_pointer (&m->legend, clReleaseMemObject);
    m->legend_size = 0;
    m->legend = clCreateBuffer (clh_context_get_cl_context (m->ctx),
        CL_MEM_READ_ONLY, size, NULL, &ret);
    if (!clh_cl_check (ret, "clCreateBuffer", error))
      return FALSE;
    m->legend_size = size;
    m->legend_dirty = TRUE;
  }
  if (!m->legend_dirty || m->legend_ranks->len == 0)
    return TRUE;
  ret = clEnqueueWriteBuffer (m->queue, m->legend, CL_FALSE, 0,
      m->legend_ranks->len, m->legend_ranks->data, 0, NULL, NULL);
  if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error))
    return FALSE;
  m->legend_dirty = FALSE;
  return TRUE;
}

/* The stage block up to the device, the launch, the block back. */
static gboolean
draw_commands (Draw *d, GError **error)
{
  ClhMarks *m = d->m;
  const gsize global[2] = { ROUND_UP_POW2 ((gsize) d->params.blocks_x,
        GROUP), ROUND_UP_POW2 ((gsize) d->params.blocks_y, GROUP) };
  const gsize local[2] = { GROUP, GROUP };
  guint8 *stage = clh_host_block_get_data (m->stage);
  cl_int ret;

  if (!m->frame || m->frame_size < d->total) {
    g_clear_pointer (&m->frame, clReleaseMemObject);
    m->frame_size = 0;
    m->frame = clCreateBuffer (clh_context_get_cl_context (m->ctx),
        CL_MEM_READ_WRITE, d->total, NULL, &ret);
    if (!clh_cl_check (ret, "clCreateBuffer", error))
      return FALSE;
    m->frame_size = d->total;
  }
  ret = clEnqueueWriteBuffer (m->queue, m->frame, CL_FALSE, 0, d->total,
      stage, 0, NULL, NULL);
  if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error)
      || !upload_legend (m, error))
    return FALSE;
  ret = clSetKernelArg (m->kernel, 0, sizeof (cl_mem), &m->frame);
  ret |= clSetKernelArg (m->kernel, 1, sizeof (d->params), &d->params);
  ret |= clSetKernelArg (m->kernel, 2, sizeof (cl_mem), &m->legend);
  if (!clh_cl_check (ret, "clSetKernelArg", error))
    return FALSE;
  ret = clEnqueueNDRangeKernel (m->queue, m->kernel, 2, NULL, global, local,
      0, NULL, NULL);
  if (!clh_cl_check (ret, "clEnqueueNDRangeKernel", error))
    return FALSE;
  ret = clEnqueueReadBuffer (m->queue, m->frame, CL_FALSE, 0, d->total,
      stage, 0, NULL, &d->done);
  return clh_cl_check (ret, "clEnqueueReadBuffer", error);
}

/* Enqueues the draw; if that fails, finishes what it enqueued, which may
 * still read or write the stage block. */
static gboolean
enqueue_draw (Draw *d, GError **error)
{
  if (draw_commands (d, error))
    return TRUE;
  clFinish (d->m->queue);
  g_clear_pointer (&d->done, clReleaseEvent);
  return FALSE;
}

/* The draw on the submission thread, which watches its readback. */
static gboolean
draw_job (gpointer data, GError **error)
{
  Draw *d = data;

  if (!enqueue_draw (d, error))
    return FALSE;
  clh_submitter_defer_flush (d->m->submitter, d->m->queue);
  clh_submitter_watch (d->m->submitter, d->done, &d->m->watch);
  return TRUE;
}

/* Runs the draw, through the submission thread while the device is
 * shared, else on the caller's thread, until its readback is done. */
static gboolean
run_draw (ClhMarks *m, Draw *d, GError **error)
{
  gboolean enqueued, ok;

  /* The thread would wait for itself. */
  g_return_val_if_fail (!clh_submitter_in_thread (m->submitter), FALSE);
  if (clh_context_use_thread (m->ctx, m, m->submission, &m->shared_until)) {
    clh_watch_reset (&m->watch);
    enqueued = clh_submitter_run (m->submitter, draw_job, d, error);
    ok = enqueued && clh_cl_check (clh_watch_wait (&m->watch),
        "the marks' readback", error);
  } else {
    enqueued = enqueue_draw (d, error);
    ok = enqueued && clh_cl_check (clWaitForEvents (1, &d->done),
        "clWaitForEvents", error);
  }
  /* After a failed wait the commands may still write the stage block. */
  if (enqueued && !ok)
    clFinish (m->queue);
  g_clear_pointer (&d->done, clReleaseEvent);
  return ok;
}

/* The marked planes from the stage block out to @dest. */
static void
copy_out (ClhMarks *m, const ClhFrame *frame, guint used,
    const gsize base[CLH_MAX_PLANES], guint8 *const *dest)
{
  const guint8 *src[CLH_HOST_COPY_MAX];
  guint8 *dst[CLH_HOST_COPY_MAX];
  gsize sizes[CLH_HOST_COPY_MAX];
  guint p, n = 0;

  for (p = 0; p < frame->n_planes; p++) {
    if (!(used & (1u << p)))
      continue;
    dst[n] = dest[p];
    src[n] = clh_host_block_get_data (m->stage) + base[p];
    sizes[n++] = clh_frame_plane_span (frame, p);
  }
  clh_host_copy (n, dst, src, sizes);
}

/**
 * clh_marks_draw:
 * @marks: a marks engine
 * @frame: the frame to mark, as its planes hold it
 * @spec: the marks (see #ClhMarksSpec)
 * @dest: (array fixed-size=4): for each of @frame's planes, where its
 *   marked copy goes: clh_frame_plane_span() bytes, rows @frame's stride
 *   apart; may be the plane itself (marking in place). The bytes between
 *   rows and the components the marks do not write (alpha, padding) are
 *   copied as @frame has them.
 * @error: %CLH_ENGINE_ERROR_INVALID for marks @frame cannot take
 *   (clh_marks_spec_is_valid()) or a frame over 4 GiB,
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * Draws the marks on the device and waits for the marked frame: @dest
 * holds it when this returns %TRUE. On error @dest is as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_marks_draw (ClhMarks *marks, const ClhFrame *frame,
    const ClhMarksSpec *spec, guint8 *const *dest, GError **error)
{
  ClhMarks *m = marks;
  Draw d = { m };
  gsize base[CLH_MAX_PLANES];
  GError *why = NULL;
  guint used;

  if (!clh_marks_spec_is_valid (spec, frame, &why)) {
    invalid (error, why->message);
    g_error_free (why);
    return FALSE;
  }
  d.total = pack_planes (frame, spec, &used, base);
  if (d.total > G_MAXUINT32)
    return invalid (error, "frame too large");
  if (!m->stage || clh_host_block_get_size (m->stage) < d.total) {
    g_clear_pointer (&m->stage, clh_host_block_free);
    if (!(m->stage = clh_context_alloc_host (m->ctx, d.total, error)))
      return FALSE;
  }
  clh_host_copy_planes (frame, used, clh_host_block_get_data (m->stage),
      base);
  set_params (&d.params, frame, spec, base);
  set_legend (m, &d.params, frame, spec);
  if (!run_draw (m, &d, error))
    return FALSE;
  copy_out (m, frame, used, base, dest);
  return TRUE;
}
