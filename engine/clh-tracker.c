/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracking engine: a frame's upload, its back-projection or bin image
 * (kernels/track.cl), the window histograms CamShift models start from,
 * and the CamShift launch, one work-group per track. The host's part is
 * O(bins) per request and O(1) per track: the axis tables, and the box
 * from a track's six moments (clh-camshift.c).
 *
 * Each call is one operation: its commands, enqueued without blocking, and
 * for those that return results one wait for the last of them. They go
 * into the context's counting queue, the one its histogram engines share,
 * and while others submit too they are enqueued by the device's
 * submission thread, as engines' frames are (clh_context_use_thread()). */
#include "clh-tracker.h"

#include <math.h>
#include <string.h>

#include "clh-context-private.h"
#include "clh-host-copy.h"
#include "clh-track-abi.h"

/* @x rounded up to a multiple of @n, a power of two. */
#define ROUND_UP_POW2(x, n) (((x) + (n) - 1) & ~((gsize) (n) - 1))

struct _ClhTracker {
  ClhContext *ctx;
  /* The context's counting queue, shared with its engines, and its
   * submission thread (clh-submitter.c): while other engines or trackers
   * of the context submit too, the tracker's commands are enqueued there,
   * and it sleeps until the thread saw them done. */
  cl_command_queue queue;
  ClhSubmitter *submitter;
  ClhSubmission submission;
  gint64 shared_until;
  GMutex wait_lock;
  GCond wait_cond;
  ClhWatch watch;
  /* Commands enqueued and not waited for (clh_tracker_set_frame()): the
   * host memory they copy from (the stage block, the tables) stays as it
   * is until then. */
  gboolean unwaited;
  cl_kernel backproject;
  cl_kernel window_histograms;
  cl_kernel camshift;

  /* The frame's planes, packed: in pinned host memory, copied there on
   * the caller's thread, and on the device; the bin image of
   * clh_tracker_set_frame() or a back-projection; each sized for the
   * largest frame seen. */
  ClhHostBlock *stage;
  cl_mem src;
  gsize src_size;
  cl_mem image;
  gsize image_size;
  /* Per track: start windows in and grown windows out (int4), moments
   * (6 x ulong), iterations, probability tables (256 bytes), counts. */
  cl_mem windows;
  cl_mem moments;
  cl_mem iterations;
  cl_mem tables;
  cl_mem counts;
  /* The axis and output tables of the last request, and what they hold,
   * so that a frame like the one before uploads neither again. */
  cl_mem axes;
  cl_mem out_table;
  gsize out_table_size;
  guint16 axes_held[3 * 256];
  gboolean axes_valid;
  /* What the output table was made from: the identity table's bins, or
   * the model's values and the scale, so that a frame like the one before
   * neither makes the table nor uploads it again. */
  gboolean out_table_valid;
  gboolean out_identity;
  guint out_bins;
  gfloat out_scale;
  GByteArray *out_model;
  /* The output table as last written to the device. */
  GByteArray *out_host;
  GByteArray *tables_held;

  /* The loaded frame's size and bins (clh_tracker_set_frame()). */
  guint width;
  guint height;
  guint bins;
};

static gboolean
make_buffer (ClhTracker *t, cl_mem *mem, gsize size, GError **error)
{
  cl_int ret;

  *mem = clCreateBuffer (clh_context_get_cl_context (t->ctx),
      CL_MEM_READ_WRITE, size, NULL, &ret);
  return clh_cl_check (ret, "clCreateBuffer", error);
}

/* @mem at least @size bytes, its contents lost if it grows. */
static gboolean
ensure_buffer (ClhTracker *t, cl_mem *mem, gsize *have, gsize size,
    GError **error)
{
  if (*mem && *have >= size)
    return TRUE;
  g_clear_pointer (mem, clReleaseMemObject);
  *have = 0;
  if (!make_buffer (t, mem, size, error))
    return FALSE;
  *have = size;
  return TRUE;
}

static gboolean
make_kernel (ClhTracker *t, const gchar *name, cl_kernel *kernel,
    GError **error)
{
  cl_int ret;

  *kernel = clCreateKernel (clh_context_get_program (t->ctx), name, &ret);
  return clh_cl_check (ret, "clCreateKernel", error);
}

/**
 * clh_tracker_new:
 * @context: the device context, shared with histogram engines
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Creates a tracking engine on @context's device: its own kernels and
 * buffers, over the context's compiled program and counting queue; while
 * other engines of the context submit too, its commands go through the
 * device's submission thread. It serves one thread at a time.
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhTracker *
clh_tracker_new (ClhContext *context, GError **error)
{
  ClhTracker *t = g_new0 (ClhTracker, 1);
  const gsize per_track = CLH_MAX_TRACKS;

  t->ctx = clh_context_ref (context);
  clh_context_add_user (context);
  t->out_model = g_byte_array_new ();
  t->out_host = g_byte_array_new ();
  t->tables_held = g_byte_array_new ();
  g_mutex_init (&t->wait_lock);
  g_cond_init (&t->wait_cond);
  t->watch.lock = &t->wait_lock;
  t->watch.cond = &t->wait_cond;
  t->submitter = clh_context_get_submitter (context);
  if (!(t->queue = clh_context_get_shared_queue (context, 0, error))
      || !make_kernel (t, "backproject", &t->backproject, error)
      || !make_kernel (t, "window_histograms", &t->window_histograms, error)
      || !make_kernel (t, "camshift", &t->camshift, error)
      || !make_buffer (t, &t->windows, per_track * 4 * sizeof (cl_int),
          error)
      || !make_buffer (t, &t->moments, per_track * 6 * sizeof (cl_ulong),
          error)
      || !make_buffer (t, &t->iterations, per_track * sizeof (cl_uint),
          error)
      || !make_buffer (t, &t->tables, per_track * 256, error)
      || !make_buffer (t, &t->counts, per_track * 256 * sizeof (cl_uint),
          error)
      || !make_buffer (t, &t->axes, 3 * 256 * sizeof (cl_ushort), error)) {
    clh_tracker_free (t);
    return NULL;
  }
  return t;
}

/**
 * clh_tracker_free:
 * @tracker: (nullable): a tracking engine
 *
 * Waits for its commands and releases it.
 */
void
clh_tracker_free (ClhTracker *tracker)
{
  ClhTracker *t = tracker;

  if (!t)
    return;
  if (t->queue)
    clFinish (t->queue);
  g_clear_pointer (&t->backproject, clReleaseKernel);
  g_clear_pointer (&t->window_histograms, clReleaseKernel);
  g_clear_pointer (&t->camshift, clReleaseKernel);
  g_clear_pointer (&t->src, clReleaseMemObject);
  g_clear_pointer (&t->stage, clh_host_block_free);
  g_clear_pointer (&t->image, clReleaseMemObject);
  g_clear_pointer (&t->windows, clReleaseMemObject);
  g_clear_pointer (&t->moments, clReleaseMemObject);
  g_clear_pointer (&t->iterations, clReleaseMemObject);
  g_clear_pointer (&t->tables, clReleaseMemObject);
  g_clear_pointer (&t->counts, clReleaseMemObject);
  g_clear_pointer (&t->axes, clReleaseMemObject);
  g_clear_pointer (&t->out_table, clReleaseMemObject);
  g_clear_pointer (&t->queue, clReleaseCommandQueue);
  g_byte_array_unref (t->out_model);
  g_byte_array_unref (t->out_host);
  g_byte_array_unref (t->tables_held);
  g_mutex_clear (&t->wait_lock);
  g_cond_clear (&t->wait_cond);
  clh_context_remove_user (t->ctx);
  clh_context_unref (t->ctx);
  g_free (t);
}

/* An operation's commands, enqueued by @func into the tracker's queue
 * without blocking; @done: (out) (nullable): for an operation the caller
 * waits for, the event of its last command. */
typedef gboolean (*OpFunc) (ClhTracker *t, gpointer data, cl_event *done,
    GError **error);

typedef struct {
  ClhTracker *t;
  OpFunc func;
  gpointer data;
  gboolean wait;
  cl_event done;
} Op;

/* Enqueues @op; if that fails, finishes what it enqueued, which may read
 * host memory its caller gets back. */
static gboolean
enqueue_op (Op *op, GError **error)
{
  if (op->func (op->t, op->data, op->wait ? &op->done : NULL, error))
    return TRUE;
  clFinish (op->t->queue);
  g_clear_pointer (&op->done, clReleaseEvent);
  return FALSE;
}

/* @op on the submission thread, which watches its last command. */
static gboolean
op_job (gpointer data, GError **error)
{
  Op *op = data;
  ClhTracker *t = op->t;

  if (!enqueue_op (op, error))
    return FALSE;
  clh_submitter_defer_flush (t->submitter, t->queue);
  if (op->wait)
    clh_submitter_watch (t->submitter, op->done, &t->watch);
  return TRUE;
}

/* Runs an operation, through the submission thread while the device is
 * shared (clh_context_use_thread()), else on the caller's thread; if
 * @wait, until its last command is done. */
static gboolean
run_op (ClhTracker *t, OpFunc func, gpointer data, gboolean wait,
    GError **error)
{
  Op op = { t, func, data, wait, NULL };
  gboolean enqueued, ok;

  /* The thread would wait for itself. */
  g_return_val_if_fail (!clh_submitter_in_thread (t->submitter), FALSE);
  if (clh_context_use_thread (t->ctx, t, t->submission, &t->shared_until)) {
    clh_watch_reset (&t->watch);
    enqueued = clh_submitter_run (t->submitter, op_job, &op, error);
    ok = enqueued && (!wait || clh_cl_check (clh_watch_wait (&t->watch),
            "the tracker's readback", error));
  } else {
    enqueued = enqueue_op (&op, error);
    ok = enqueued && (wait ?
        clh_cl_check (clWaitForEvents (1, &op.done), "clWaitForEvents",
            error) : clh_cl_check (clFlush (t->queue), "clFlush", error));
  }
  /* After a failed wait or flush the commands may still read or write
   * host memory the caller gets back. */
  if (enqueued && !ok)
    clFinish (t->queue);
  g_clear_pointer (&op.done, clReleaseEvent);
  t->unwaited = ok && !wait;
  return ok;
}

static gboolean
marker_op (ClhTracker *t, gpointer data, cl_event *done, GError **error)
{
  return clh_cl_check (clEnqueueMarkerWithWaitList (t->queue, 0, NULL,
          done), "clEnqueueMarkerWithWaitList", error);
}

/* Waits for the commands of an operation not waited for, before the host
 * memory they copy from changes. */
static gboolean
settle (ClhTracker *t, GError **error)
{
  return !t->unwaited || run_op (t, marker_op, NULL, TRUE, error);
}

/**
 * clh_tracker_set_submission:
 * @tracker: a tracking engine
 * @submission: which thread enqueues its commands from now on;
 *   %CLH_SUBMISSION_AUTO by default
 *
 * For tests, as clh_engine_set_submission().
 */
void
clh_tracker_set_submission (ClhTracker *tracker, ClhSubmission submission)
{
  tracker->submission = submission;
}

static gboolean
invalid (GError **error, const gchar *why)
{
  g_set_error_literal (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
      why);
  return FALSE;
}

/* The request's own checks: the frame, three colour components, the
 * bins, the model. */
static gboolean
check_spec (const ClhFrame *frame, const ClhBackprojectSpec *spec,
    gboolean need_model, GError **error)
{
  const guint n_axes = clh_backproject_spec_n_axes (spec);
  guint c;

  if (!clh_frame_is_valid (frame) || frame->sample != CLH_SAMPLE_8)
    return invalid (error, "not a valid 8-bit frame");
  if (spec->count != CLH_COUNT_HUE && spec->count != CLH_COUNT_LUMA
      && spec->count != CLH_COUNT_HUE_SATURATION
      && spec->count != CLH_COUNT_RGB)
    return invalid (error, "back-projection counts hue, hue x saturation, "
        "RGB or luma");
  if (spec->n_components < 3)
    return invalid (error, "back-projection needs R, G, B or Y, U, V");
  for (c = 0; c < spec->n_components; c++)
    if (spec->components[c] >= frame->n_components)
      return invalid (error, "a component the frame does not have");
  if (spec->bins < 1 || spec->bins > 256
      || (n_axes == 2 && spec->bins > 180)
      || (n_axes == 3 && spec->bins > 40)
      || (spec->count == CLH_COUNT_HUE && spec->bins > 180))
    return invalid (error, "too many bins for the mode");
  if (need_model && !spec->model)
    return invalid (error, "no model");
  if (spec->max_value > 255 || spec->min_value > 255
      || spec->min_saturation > 255)
    return invalid (error, "the mask's bounds are 0..255");
  return TRUE;
}

/* Where the planes the components read (@used, a bit per plane) lie once
 * packed, @base, each 64-byte aligned; returns their bytes. */
static gsize
pack_planes (const ClhFrame *frame, const ClhBackprojectSpec *spec,
    guint *used, gsize base[CLH_MAX_PLANES])
{
  gsize total = 0;
  guint i;

  *used = 0;
  for (i = 0; i < spec->n_components; i++)
    *used |= 1u << frame->components[spec->components[i]].plane;
  for (i = 0; i < frame->n_planes; i++) {
    base[i] = total;
    if (*used & (1u << i))
      total += ROUND_UP_POW2 (clh_frame_plane_span (frame, i), 64);
  }
  return total;
}

/* Copies the planes the components read into the tracker's pinned stage
 * block, packed, on the caller's thread (clh-host-copy.c): the device
 * copies them from there by DMA, and the caller's frame is its own again
 * when the call returns, though its commands may still be running. An
 * operation not waited for may still copy from the block: it is waited
 * for first (settle()). */
static gboolean
stage_frame (ClhTracker *t, const ClhFrame *frame,
    const ClhBackprojectSpec *spec, GError **error)
{
  gsize base[CLH_MAX_PLANES];
  guint used;
  const gsize total = pack_planes (frame, spec, &used, base);

  if (total > G_MAXUINT32)
    return invalid (error, "frame too large");
  if (!settle (t, error))
    return FALSE;
  if (!t->stage || clh_host_block_get_size (t->stage) < total) {
    g_clear_pointer (&t->stage, clh_host_block_free);
    if (!(t->stage = clh_context_alloc_host (t->ctx, total, error)))
      return FALSE;
  }
  clh_host_copy_planes (frame, used, clh_host_block_get_data (t->stage),
      base);
  return TRUE;
}

/* The buffer the kernel reads the staged planes (stage_frame()) from,
 * @src: on a device that reads host memory in place, the stage block
 * itself; else the tracker's source buffer, filled in one copy. The kernel
 * parameters that place them. */
static gboolean
upload_frame (ClhTracker *t, const ClhFrame *frame, const ClhHostBlock *block,
    const ClhBackprojectSpec *spec, ClhParamsBackproject *p, cl_mem *src,
    GError **error)
{
  gsize base[CLH_MAX_PLANES];
  guint used, c, i;
  const gsize total = pack_planes (frame, spec, &used, base);
  cl_int ret;

  if (block) {
    /* Device memory from another API: read where the planes lie. */
    for (i = 0; i < frame->n_planes; i++)
      base[i] = (gsize) (frame->planes[i].data
          - clh_host_block_get_data (block));
    *src = clh_host_block_get_mem (block);
  } else if (clh_context_reads_host_in_place (t->ctx)) {
    *src = clh_host_block_get_mem (t->stage);
  } else {
    if (!ensure_buffer (t, &t->src, &t->src_size, total, error))
      return FALSE;
    ret = clEnqueueWriteBuffer (t->queue, t->src, CL_FALSE, 0, total,
        clh_host_block_get_data (t->stage), 0, NULL, NULL);
    if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error))
      return FALSE;
    *src = t->src;
  }

  memset (p, 0, sizeof (*p));
  p->width = frame->width;
  p->height = frame->height;
  for (i = 0; i < spec->n_components && i < 4; i++) {
    const ClhComponent *comp = &frame->components[spec->components[i]];

    c = comp->plane;
    p->bases[i] = base[c];
    p->pitches[i] = frame->planes[c].stride;
    p->offsets[i] = comp->offset;
    p->pixel_strides[i] = comp->pixel_stride;
    p->subs[i] = comp->w_sub | (comp->h_sub << 4);
  }
  p->color = spec->color;
  p->count = spec->count;
  p->plain_luma = spec->color == CLH_COLOR_YUV_BT601;
  p->bins = spec->bins;
  p->mask = spec->min_saturation > 0 || spec->min_value > 0
      || spec->max_value < 255;
  p->min_saturation = spec->min_saturation;
  p->min_value = spec->min_value;
  p->max_value = spec->max_value;
  return TRUE;
}

/* One axis of OpenCV's calcHistLookupTables_8u() for uniform ranges
 * [0, @size): value j goes to bin cvFloor (j * a + b) with a = bins / size
 * and b = -a * 0 in doubles, clamped into the bins; values from @size up
 * fall outside. */
static void
fill_axis (guint16 *axis, guint bins, guint size)
{
  const gdouble a = (gdouble) bins / (gdouble) size, b = -a * 0.0;
  guint j;

  for (j = 0; j < 256; j++) {
    const gint idx = (gint) floor (j * a + b);

    axis[j] = j < size ? (guint16) CLAMP (idx, 0, (gint) bins - 1) :
        CLH_ABI_BIN_OUT;
  }
}

static gboolean
upload_axes (ClhTracker *t, const ClhBackprojectSpec *spec, GError **error)
{
  guint16 axes[3 * 256];
  cl_int ret;

  switch (spec->count) {
    case CLH_COUNT_HUE:
      fill_axis (axes, spec->bins, 180);
      break;
    case CLH_COUNT_HUE_SATURATION:
      fill_axis (axes, spec->bins, 180);
      fill_axis (axes + 256, spec->bins, 256);
      break;
    case CLH_COUNT_RGB:
      fill_axis (axes + 256, spec->bins, 256);
      fill_axis (axes + 512, spec->bins, 256);
      /* fall through */
    default:
      fill_axis (axes, spec->bins, 256);
      break;
  }
  if (t->axes_valid && memcmp (axes, t->axes_held, sizeof (axes)) == 0)
    return TRUE;
  t->axes_valid = FALSE;
  /* Copied from the tracker's own copy, which stays as it is until the
   * operation is waited for. */
  memcpy (t->axes_held, axes, sizeof (axes));
  ret = clEnqueueWriteBuffer (t->queue, t->axes, CL_FALSE, 0,
      sizeof (t->axes_held), t->axes_held, 0, NULL, NULL);
  if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error))
    return FALSE;
  t->axes_valid = TRUE;
  return TRUE;
}

/* OpenCV's saturate_cast<uchar> (model * scale): a product of floats,
 * rounded to nearest, ties to even, by cvRound into an int, which gives
 * INT_MIN for NaN and for anything out of an int's range: those become 0,
 * not 255. */
static guint8
probability (gfloat model, gfloat scale)
{
  const gfloat v = model * scale;
  glong r;

  if (isnan (v) || v >= 2147483648.0f || v < -2147483648.0f)
    return 0;
  r = lrintf (v);
  return (guint8) CLAMP (r, 0, 255);
}

/* Writes @n bytes of @data to @mem (grown as needed) unless @held says
 * it holds them already; @held then does. */
static gboolean
upload_held (ClhTracker *t, cl_mem *mem, gsize *mem_size, GByteArray *held,
    const guint8 *data, gsize n, GError **error)
{
  gsize size = *mem_size;
  cl_int ret;

  if (held->len == n && memcmp (held->data, data, n) == 0)
    return TRUE;
  g_byte_array_set_size (held, 0);
  if (!ensure_buffer (t, mem, &size, n, error))
    return FALSE;
  *mem_size = size;
  /* Copied from @held, which stays as it is until the operation is waited
   * for; emptied if the copy cannot be enqueued. */
  g_byte_array_append (held, data, n);
  ret = clEnqueueWriteBuffer (t->queue, *mem, CL_FALSE, 0, n, held->data, 0,
      NULL, NULL);
  if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error)) {
    g_byte_array_set_size (held, 0);
    return FALSE;
  }
  return TRUE;
}

/* Whether the output table on the device is the one @spec asks for. */
static gboolean
out_table_current (const ClhTracker *t, const ClhBackprojectSpec *spec,
    gboolean identity, guint n)
{
  if (!t->out_table_valid || t->out_identity != identity)
    return FALSE;
  if (identity)
    return t->out_bins == spec->bins;
  return t->out_scale == spec->scale && t->out_model->len == n * sizeof
      (gfloat) && memcmp (t->out_model->data, spec->model, n * sizeof
      (gfloat)) == 0;
}

static gboolean
upload_out_table (ClhTracker *t, const ClhBackprojectSpec *spec,
    gboolean identity, GError **error)
{
  const guint n = identity ? 256 : clh_backproject_spec_n_bins (spec);
  guint8 *table;
  cl_int ret;
  guint i;

  if (out_table_current (t, spec, identity, n))
    return TRUE;
  t->out_table_valid = FALSE;
  if (!ensure_buffer (t, &t->out_table, &t->out_table_size, n, error))
    return FALSE;
  /* Written from the tracker's own copy, which stays as it is until the
   * operation is waited for. */
  g_byte_array_set_size (t->out_host, n);
  table = t->out_host->data;
  for (i = 0; i < n; i++)
    table[i] = identity ? (i < spec->bins ? i : CLH_ABI_BIN_NONE) :
        probability (spec->model[i], spec->scale);
  ret = clEnqueueWriteBuffer (t->queue, t->out_table, CL_FALSE, 0, n, table,
      0, NULL, NULL);
  if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error))
    return FALSE;
  t->out_identity = identity;
  t->out_bins = spec->bins;
  t->out_scale = spec->scale;
  g_byte_array_set_size (t->out_model, 0);
  if (!identity)
    g_byte_array_append (t->out_model, (const guint8 *) spec->model,
        n * sizeof (gfloat));
  t->out_table_valid = TRUE;
  return TRUE;
}

/* The frame through the backproject kernel into the image buffer, a
 * pitch of the frame's width. */
static gboolean
run_backproject (ClhTracker *t, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhBackprojectSpec *spec,
    gboolean identity, GError **error)
{
  const gsize global[2] = { ROUND_UP_POW2 ((gsize) frame->width, 16),
    ROUND_UP_POW2 ((gsize) frame->height, 16) };
  const gsize local[2] = { 16, 16 };
  ClhParamsBackproject p;
  cl_mem src;
  cl_int ret;

  if (!upload_frame (t, frame, block, spec, &p, &src, error)
      || !upload_axes (t, spec, error)
      || !upload_out_table (t, spec, identity, error)
      || !ensure_buffer (t, &t->image, &t->image_size,
          (gsize) frame->width * frame->height, error))
    return FALSE;
  p.dst_pitch = frame->width;
  p.outside = identity ? CLH_ABI_BIN_NONE : 0;
  ret = clSetKernelArg (t->backproject, 0, sizeof (cl_mem), &src);
  ret |= clSetKernelArg (t->backproject, 1, sizeof (p), &p);
  ret |= clSetKernelArg (t->backproject, 2, sizeof (cl_mem), &t->axes);
  ret |= clSetKernelArg (t->backproject, 3, sizeof (cl_mem), &t->out_table);
  ret |= clSetKernelArg (t->backproject, 4, sizeof (cl_mem), &t->image);
  if (!clh_cl_check (ret, "clSetKernelArg", error))
    return FALSE;
  if (block && !clh_host_block_acquire (block, t->queue, error))
    return FALSE;
  ret = clEnqueueNDRangeKernel (t->queue, t->backproject, 2, NULL, global,
      local, 0, NULL, NULL);
  if (!clh_cl_check (ret, "clEnqueueNDRangeKernel", error)) {
    /* The acquire is ended whatever failed after it. */
    if (block)
      clh_host_block_release (block, t->queue, NULL);
    return FALSE;
  }
  return !block || clh_host_block_release (block, t->queue, error);
}

/* What an operation of the tracker's public calls reads. */
typedef struct {
  const ClhFrame *frame;
  const ClhHostBlock *block;
  const ClhBackprojectSpec *spec;
  guint8 *dest;
  gsize dest_stride;
  cl_int *rect;
  guint n_windows;
  ClhParamsTrack params;
  const gfloat *models;
  guint32 *counts;
  cl_ulong *moments;
} Request;

/* @block, if any, is device memory of the tracker's context from another
 * API holding every plane @spec reads (the host cannot read such a frame,
 * nor copy it). */
static gboolean
check_block (const ClhTracker *t, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhBackprojectSpec *spec,
    GError **error)
{
  gsize base[CLH_MAX_PLANES];
  guint used, i;

  if (!block)
    return TRUE;
  if (!clh_host_block_is_external (block)
      || clh_host_block_get_context (block) != t->ctx)
    return invalid (error, "the block is not device memory of this "
        "tracker's context");
  pack_planes (frame, spec, &used, base);
  if (!clh_host_block_holds (block, frame, used))
    return invalid (error, "a plane is not inside the device block");
  /* The kernel's plane offsets are 32-bit. */
  for (i = 0; i < frame->n_planes; i++)
    if ((used & (1u << i)) && (gsize) (frame->planes[i].data
            - clh_host_block_get_data (block))
        + clh_frame_plane_span (frame, i) > G_MAXUINT32)
      return invalid (error, "a plane lies beyond 4 GiB into the device "
          "block");
  return TRUE;
}

static gboolean
backproject_op (ClhTracker *t, gpointer data, cl_event *done, GError **error)
{
  const Request *r = data;
  const size_t origin[3] = { 0, 0, 0 };
  const size_t region[3] = { r->frame->width, r->frame->height, 1 };

  return run_backproject (t, r->frame, r->block, r->spec, FALSE, error)
      && clh_cl_check (clEnqueueReadBufferRect (t->queue, t->image, CL_FALSE,
          origin, origin, region, r->frame->width, 0, r->dest_stride, 0,
          r->dest, 0, NULL, done), "clEnqueueReadBufferRect", error);
}

/**
 * clh_tracker_backproject:
 * @tracker: a tracking engine
 * @frame: an 8-bit RGB or YUV frame
 * @block: (nullable): device memory imported into the tracker's context
 *   (clh_context_import_opaque_fd()) that @frame's planes lie in, given as
 *   device addresses; %NULL: @frame is in host memory
 * @spec: the back-projection, its model set
 * @dest: (out caller-allocates): `frame->height` rows of `frame->width`
 *   bytes, @dest_stride bytes apart
 * @dest_stride: bytes from one row of @dest to the next, at least
 *   `frame->width`
 * @error: %CLH_ENGINE_ERROR_INVALID for a request outside #ClhBackprojectSpec,
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * Back-projects @frame as OpenCV's calcBackProject() does (with the mask,
 * see #ClhBackprojectSpec), waiting for the result.
 *
 * Returns: %TRUE with @dest written, %FALSE on error
 */
gboolean
clh_tracker_backproject (ClhTracker *tracker, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhBackprojectSpec *spec, guint8 *dest,
    gsize dest_stride, GError **error)
{
  Request r = { frame, block, spec, dest, dest_stride };

  if (!check_spec (frame, spec, TRUE, error)
      || !check_block (tracker, frame, block, spec, error))
    return FALSE;
  if (dest_stride < frame->width)
    return invalid (error, "destination rows shorter than the frame's");
  return (block || stage_frame (tracker, frame, spec, error))
      && run_op (tracker, backproject_op, &r, TRUE, error);
}

static gboolean
set_frame_op (ClhTracker *t, gpointer data, cl_event *done, GError **error)
{
  const Request *r = data;

  return run_backproject (t, r->frame, r->block, r->spec, TRUE, error)
      && (!done || clh_cl_check (clEnqueueMarkerWithWaitList (t->queue, 0,
              NULL, done), "clEnqueueMarkerWithWaitList", error));
}

/**
 * clh_tracker_set_frame:
 * @tracker: a tracking engine
 * @frame: an 8-bit RGB or YUV frame
 * @block: (nullable): as for clh_tracker_backproject(); such a frame is
 *   read by the device where it lies, not copied, and this waits until
 *   the device is done with it, so that its memory is the caller's again
 *   when this returns
 * @spec: %CLH_COUNT_HUE, at most 180 bins, the mask; its model is not read
 * @error: %CLH_ENGINE_ERROR_INVALID, %CLH_ENGINE_ERROR_OPENCL
 *
 * Uploads @frame and computes its bin image on the device: each pixel's
 * hue bin, or none outside the mask, for the window histograms and
 * CamShift launches that follow. @frame is copied into the tracker's
 * pinned memory before this returns, without waiting for the device: the
 * frame is the caller's again at once.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_tracker_set_frame (ClhTracker *tracker, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhBackprojectSpec *spec,
    GError **error)
{
  Request r = { frame, block, spec };

  if (!check_spec (frame, spec, FALSE, error)
      || !check_block (tracker, frame, block, spec, error))
    return FALSE;
  if (spec->count != CLH_COUNT_HUE)
    return invalid (error, "CamShift tracks hue");
  tracker->width = tracker->height = 0;
  if (!(block || stage_frame (tracker, frame, spec, error))
      || !run_op (tracker, set_frame_op, &r, block != NULL, error))
    return FALSE;
  tracker->width = frame->width;
  tracker->height = frame->height;
  tracker->bins = spec->bins;
  return TRUE;
}

static ClhParamsTrack
track_params (const ClhTracker *t)
{
  ClhParamsTrack p = { 0 };

  p.width = t->width;
  p.height = t->height;
  p.pitch = t->width;
  p.bins = t->bins;
  return p;
}

static gboolean
check_tracks (const ClhTracker *t, guint n_windows, GError **error)
{
  if (t->width == 0)
    return invalid (error, "no frame set");
  if (n_windows < 1 || n_windows > CLH_MAX_TRACKS)
    return invalid (error, "1 to 256 windows");
  return TRUE;
}

static gboolean
launch_tracks (ClhTracker *t, cl_kernel kernel, guint n_windows,
    GError **error)
{
  const gsize local = CLH_ABI_TRACK_GROUP;
  const gsize global = local * n_windows;
  cl_int ret = clEnqueueNDRangeKernel (t->queue, kernel, 1, NULL, &global,
      &local, 0, NULL, NULL);

  return clh_cl_check (ret, "clEnqueueNDRangeKernel", error);
}

static gboolean
window_histograms_op (ClhTracker *t, gpointer data, cl_event *done,
    GError **error)
{
  const Request *r = data;
  cl_int ret;

  ret = clEnqueueWriteBuffer (t->queue, t->windows, CL_FALSE, 0,
      r->n_windows * 4 * sizeof (cl_int), r->rect, 0, NULL, NULL);
  ret |= clSetKernelArg (t->window_histograms, 0, sizeof (cl_mem), &t->image);
  ret |= clSetKernelArg (t->window_histograms, 1, sizeof (r->params),
      &r->params);
  ret |= clSetKernelArg (t->window_histograms, 2, sizeof (cl_mem),
      &t->windows);
  ret |= clSetKernelArg (t->window_histograms, 3, sizeof (cl_mem),
      &t->counts);
  if (!clh_cl_check (ret, "clSetKernelArg", error)
      || !launch_tracks (t, t->window_histograms, r->n_windows, error))
    return FALSE;
  ret = clEnqueueReadBuffer (t->queue, t->counts, CL_FALSE, 0,
      (gsize) r->n_windows * t->bins * sizeof (guint32), r->counts, 0, NULL,
      done);
  return clh_cl_check (ret, "clEnqueueReadBuffer", error);
}

/**
 * clh_tracker_window_histograms:
 * @tracker: a tracking engine with a frame set
 * @windows: (array length=n_windows): rectangles of the frame, clipped to
 *   it here
 * @n_windows: 1..%CLH_MAX_TRACKS
 * @counts: (out caller-allocates): `n_windows * bins` counters, window
 *   major: the hue histogram of each window's pixels inside the mask
 * @error: %CLH_ENGINE_ERROR_INVALID, %CLH_ENGINE_ERROR_OPENCL
 *
 * Returns: %TRUE on success
 */
gboolean
clh_tracker_window_histograms (ClhTracker *tracker, const ClhRect *windows,
    guint n_windows, guint32 *counts, GError **error)
{
  ClhTracker *t = tracker;
  cl_int rect[4 * CLH_MAX_TRACKS];
  Request r = { NULL };
  guint i;

  if (!check_tracks (t, n_windows, error))
    return FALSE;
  for (i = 0; i < n_windows; i++) {
    ClhRect w = windows[i];

    clh_rect_clip (&w, t->width, t->height);
    rect[4 * i] = w.x;
    rect[4 * i + 1] = w.y;
    rect[4 * i + 2] = w.width;
    rect[4 * i + 3] = w.height;
  }
  r.rect = rect;
  r.n_windows = n_windows;
  r.params = track_params (t);
  r.counts = counts;
  return run_op (t, window_histograms_op, &r, TRUE, error);
}

/* Each track's table: its model's probability of each bin, 0 for none. */
static gboolean
upload_tables (ClhTracker *t, const gfloat *models, guint n_windows,
    GError **error)
{
  guint8 *tables = g_malloc0 ((gsize) n_windows * 256);
  gsize tables_size = CLH_MAX_TRACKS * 256;
  gboolean ok;
  guint i, b;

  for (i = 0; i < n_windows; i++)
    for (b = 0; b < t->bins; b++)
      tables[i * 256 + b] = probability (models[i * t->bins + b], 1.0f);
  ok = upload_held (t, &t->tables, &tables_size, t->tables_held, tables,
      (gsize) n_windows * 256, error);
  g_free (tables);
  return ok;
}

/* The tracks' tables and windows in, their launch, and the grown windows
 * and moments back into the request's rect and moments. */
static gboolean
camshift_op (ClhTracker *t, gpointer data, cl_event *done, GError **error)
{
  const Request *r = data;
  cl_int ret;

  if (!upload_tables (t, r->models, r->n_windows, error))
    return FALSE;
  ret = clEnqueueWriteBuffer (t->queue, t->windows, CL_FALSE, 0,
      r->n_windows * 4 * sizeof (cl_int), r->rect, 0, NULL, NULL);
  ret |= clSetKernelArg (t->camshift, 0, sizeof (cl_mem), &t->image);
  ret |= clSetKernelArg (t->camshift, 1, sizeof (r->params), &r->params);
  ret |= clSetKernelArg (t->camshift, 2, sizeof (cl_mem), &t->tables);
  ret |= clSetKernelArg (t->camshift, 3, sizeof (cl_mem), &t->windows);
  ret |= clSetKernelArg (t->camshift, 4, sizeof (cl_mem), &t->moments);
  ret |= clSetKernelArg (t->camshift, 5, sizeof (cl_mem), &t->iterations);
  if (!clh_cl_check (ret, "clSetKernelArg", error)
      || !launch_tracks (t, t->camshift, r->n_windows, error))
    return FALSE;
  /* Read back into the request's own arrays: rect is written in place. */
  ret = clEnqueueReadBuffer (t->queue, t->windows, CL_FALSE, 0,
      r->n_windows * 4 * sizeof (cl_int), r->rect, 0, NULL, NULL);
  ret |= clEnqueueReadBuffer (t->queue, t->moments, CL_FALSE, 0,
      r->n_windows * 6 * sizeof (cl_ulong), r->moments, 0, NULL, done);
  return clh_cl_check (ret, "clEnqueueReadBuffer", error);
}

/**
 * clh_tracker_camshift:
 * @tracker: a tracking engine with a frame set
 * @models: (array): `n_windows * bins` model values (e.g. from
 *   clh_camshift_model_normalize()), window major
 * @windows: (array length=n_windows) (inout): each track's search window;
 *   out, the next frame's, as cv::CamShift() leaves it
 * @n_windows: 1..%CLH_MAX_TRACKS
 * @criteria: the mean-shift termination criteria
 * @boxes: (out caller-allocates) (array length=n_windows): each track's
 *   rotated box
 * @masses: (out caller-allocates) (array length=n_windows) (optional):
 *   each track's mass, the m00 of the moments its box was fitted to and
 *   their window, as read back with them (no further transfer)
 * @error: %CLH_ENGINE_ERROR_INVALID (a window without pixels: width or
 *   height under 1), %CLH_ENGINE_ERROR_OPENCL
 *
 * One CamShift step per track on the frame set: the mean-shift iterations
 * and the moments on the device, one work-group per track in one launch;
 * the box from the moments here.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_tracker_camshift (ClhTracker *tracker, const gfloat *models,
    ClhRect *windows, guint n_windows, const ClhCamShiftCriteria *criteria,
    ClhRotatedBox *boxes, ClhCamShiftMass *masses, GError **error)
{
  ClhTracker *t = tracker;
  cl_int rect[4 * CLH_MAX_TRACKS];
  cl_ulong moments[6 * CLH_MAX_TRACKS];
  Request r = { NULL };
  ClhParamsTrack p;
  gdouble eps;
  guint i;

  if (!check_tracks (t, n_windows, error))
    return FALSE;
  if (criteria->max_iterations < 1)
    return invalid (error, "at least one iteration");
  for (i = 0; i < n_windows; i++) {
    if (windows[i].width < 1 || windows[i].height < 1)
      return invalid (error, "a window of no pixels");
    rect[4 * i] = windows[i].x;
    rect[4 * i + 1] = windows[i].y;
    rect[4 * i + 2] = windows[i].width;
    rect[4 * i + 3] = windows[i].height;
  }
  p = track_params (t);
  p.max_iterations = criteria->max_iterations;
  eps = MAX (criteria->epsilon, 0.0);
  p.eps2 = (guint) MIN (lrint (eps * eps), G_MAXUINT32);

  r.rect = rect;
  r.n_windows = n_windows;
  r.params = p;
  r.models = models;
  r.moments = moments;
  if (!run_op (t, camshift_op, &r, TRUE, error))
    return FALSE;

  for (i = 0; i < n_windows; i++) {
    const ClhMoments m = { moments[6 * i], moments[6 * i + 1],
      moments[6 * i + 2], moments[6 * i + 3], moments[6 * i + 4],
      moments[6 * i + 5]
    };

    windows[i].x = rect[4 * i];
    windows[i].y = rect[4 * i + 1];
    windows[i].width = rect[4 * i + 2];
    windows[i].height = rect[4 * i + 3];
    if (masses) {
      masses[i].window = windows[i];
      masses[i].m00 = m.m00;
    }
    clh_camshift_finish (&m, &windows[i], t->width, t->height, &boxes[i]);
  }
  return TRUE;
}
