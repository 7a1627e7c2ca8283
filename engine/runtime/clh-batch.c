/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device's batcher: one launch and one readback for the 8-bit frames
 * of many streams.
 *
 * On its own, each frame costs the device's host driver three commands: its
 * upload, its launch and its readback. With many streams the driver's
 * threads took about as much host time per frame as the streams' own
 * threads (measured: see docs/performance.md, "Where the host time goes at
 * 64 streams"). Here the submission thread (clh-submitter.c) gathers the
 * frames of a batch of jobs whose counting is the 8-bit kernel's (GRAY8, a
 * Y plane, RGB and RGBA channels, NV12's planes): each frame's planes are
 * copied one after the other into one device buffer, its launches become
 * entries of one table, and its counters a range of one counter buffer.
 * When the batch closes (clh_submitter_set_before_flush()), one write puts
 * the table and cleared counters on the device, histogram_8bit_batch counts
 * every frame in one launch, and one readback brings every frame's counters
 * back; the thread copies each frame's range to its engine's slot before
 * telling it. A frame costs its upload, and its share of three commands.
 *
 * A batch's buffers are a set; a set is reused once its readback is done
 * and every frame of it was told (or forgotten). Frames that do not fit
 * (other kernels, regions, frames read in place, too large, a launch
 * configuration the batched kernel cannot take, every set in use) are
 * counted on their own, as before, in the same batch of jobs. */
#include "clh-batch.h"
#include "clh-launch.h"

#include <string.h>

/* Sets in flight: batches the device may be working on at once. */
#define MAX_SETS 8
/* Frames, entries and counters of one set: a frame has at most one entry
 * per channel, and at most CLH_MAX_CHANNELS x 258 counters (256 bins and
 * the below and above counters) in the 8-bit kernel. */
#define MAX_FRAMES 32
#define MAX_ENTRIES 64
#define MAX_COUNTERS (MAX_FRAMES * CLH_MAX_CHANNELS * 258)
/* Bytes the entry table takes at the start of a set's batch buffer. */
#define ENTRIES_BYTES \
  ((MAX_ENTRIES * sizeof (ClhBatchEntry) + 255) / 256 * 256)
/* A frame larger than this is counted on its own; a set's device buffer for
 * frames holds at most STAGING_LIMIT bytes, and frames start FRAME_ALIGN
 * bytes apart (their planes are already aligned within them). */
#define FRAME_LIMIT (16u << 20)
#define STAGING_LIMIT (64u << 20)
#define FRAME_ALIGN 256

enum {
  ARG_SRC,
  ARG_PARAMS,
  ARG_SUB,
  ARG_BATCH,
  ARG_TABLE,
};

/* Pinned host memory (clh_context_pin()): what the device copies by DMA.
 * Not a ClhHostBlock, which holds a reference on the context that owns the
 * batcher. */
typedef struct {
  cl_mem mem;
  guint8 *data;
} Pinned;

/* A frame of a set: whom to tell, and its counters' range. */
typedef struct {
  ClhWatch *watch;
  GError **error;
  guint32 *dst;
  gsize first;
  gsize n;
} Member;

/* One batch's buffers and what it holds. */
typedef struct {
  /* The frames' planes, back to back. */
  cl_mem staging;
  gsize staging_size;
  gsize staging_used;
  /* The entry table, then the counters; the host copy of the table,
   * followed by zeros that clear the counters; the counters read back. */
  cl_mem batch;
  Pinned table;
  Pinned readback;
  guint n_entries;
  guint n_groups;
  gsize n_counters;
  guint work_group_size;
  gsize local_bytes;
  Member members[MAX_FRAMES];
  guint n_members;
  /* The readback, while the set is in flight; members not yet told. */
  cl_event done;
  gint holds;
} Set;

struct _ClhBatcher {
  ClhContext *ctx;
  ClhSubmitter *submitter;
  cl_command_queue queue;
  cl_command_queue upload_queue;
  cl_kernel kernel;
  ClhDeviceLimits limits;
  Set sets[MAX_SETS];
  guint n_sets;
  /* The set frames are being added to, NULL between batches. */
  Set *open;
  /* Frames and launches enqueued. */
  guint64 n_frames;
  guint64 n_launches;
};

static void
launch_hook (gpointer data)
{
  clh_batcher_launch (data);
}

/**
 * clh_batcher_new:
 * @context: the device context
 * @submitter: the context's submission thread, the only thread that uses
 *   the batcher; its batches close with the batcher's launch
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Returns: (transfer full) (nullable): the batcher, freed with
 *   clh_batcher_free() once @submitter's thread has stopped
 */
ClhBatcher *
clh_batcher_new (ClhContext *context, ClhSubmitter *submitter,
    GError **error)
{
  ClhBatcher *b = g_new0 (ClhBatcher, 1);
  cl_int ret;

  b->ctx = context;
  b->submitter = submitter;
  b->kernel = clCreateKernel (clh_context_get_program (context),
      "histogram_8bit_batch", &ret);
  if (!clh_cl_check (ret, "clCreateKernel (histogram_8bit_batch)", error)
      || !clh_device_limits_query (clh_context_get_device (context)->device,
          b->kernel, &b->limits, error)
      || !(b->queue = clh_context_get_shared_queue (context, 0, error))
      || !(b->upload_queue = clh_context_get_shared_queue (context, 1,
              error))) {
    clh_batcher_free (b);
    return NULL;
  }
  clh_submitter_set_before_flush (submitter, launch_hook, b);
  return b;
}

/**
 * clh_batcher_get:
 * @context: a context whose submission thread calls this
 * @create: make the batcher if it was not made yet
 *
 * The device's batcher, which the context's submitter owns
 * (clh_submitter_adopt_batcher()).
 *
 * Returns: (transfer none) (nullable): the batcher, made on first use;
 *   %NULL if it cannot be made (its kernel), and then never again: frames
 *   are counted on their own; or if not made yet and not @create
 */
ClhBatcher *
clh_batcher_get (ClhContext *context, gboolean create)
{
  ClhSubmitter *submitter = clh_context_get_submitter (context);
  gboolean refused;
  ClhBatcher *b = clh_submitter_get_batcher (submitter, &refused);
  GError *error = NULL;

  if (b || refused || !create)
    return b;
  b = clh_batcher_new (context, submitter, &error);
  if (!b) {
    g_message ("%s: frames are counted one launch each: %s",
        clh_context_get_device (context)->name, error->message);
    g_error_free (error);
  }
  clh_submitter_adopt_batcher (submitter, b,
      (GDestroyNotify) clh_batcher_free);
  return b;
}

static gboolean
pinned_alloc (ClhBatcher *b, Pinned *p, gsize size, GError **error)
{
  p->data = clh_context_pin (b->ctx, CL_MEM_READ_WRITE, size, &p->mem,
      error);
  return p->data != NULL;
}

static void
pinned_free (ClhBatcher *b, Pinned *p)
{
  clh_context_unpin (b->ctx, g_steal_pointer (&p->mem),
      g_steal_pointer (&p->data));
}

static void
set_clear (ClhBatcher *b, Set *set)
{
  g_clear_pointer (&set->done, clReleaseEvent);
  g_clear_pointer (&set->staging, clReleaseMemObject);
  g_clear_pointer (&set->batch, clReleaseMemObject);
  pinned_free (b, &set->table);
  pinned_free (b, &set->readback);
}

/**
 * clh_batcher_free:
 * @b: (transfer full) (nullable): a batcher whose submitter's thread has
 *   stopped
 *
 * Waits for the device to finish what it was given and releases it.
 */
void
clh_batcher_free (ClhBatcher *b)
{
  guint i;

  if (!b)
    return;
  if (b->queue)
    clFinish (b->queue);
  if (b->upload_queue)
    clFinish (b->upload_queue);
  for (i = 0; i < b->n_sets; i++)
    set_clear (b, &b->sets[i]);
  g_clear_pointer (&b->kernel, clReleaseKernel);
  g_clear_pointer (&b->queue, clReleaseCommandQueue);
  g_clear_pointer (&b->upload_queue, clReleaseCommandQueue);
  g_free (b);
}

/**
 * clh_batcher_fits:
 * @b: a batcher
 * @work_group_size: work-items per work-group of a frame's runs
 * @local_bytes: local memory its largest run's copies take
 * @staging_size: bytes the frame takes on the device
 *
 * Returns: whether the batched kernel can count such a frame
 */
gboolean
clh_batcher_fits (const ClhBatcher *b, guint work_group_size,
    gsize local_bytes, gsize staging_size)
{
  return work_group_size > 0
      && work_group_size <= b->limits.max_work_group_size
      && local_bytes + CLH_ABI_BIN_TABLE_BYTES
      <= b->limits.local_mem_per_group
      && staging_size <= FRAME_LIMIT;
}

static gboolean
set_init (ClhBatcher *b, Set *set, GError **error)
{
  const gsize bytes = ENTRIES_BYTES + MAX_COUNTERS * sizeof (guint32);
  cl_int ret;

  set->batch = clCreateBuffer (clh_context_get_cl_context (b->ctx),
      CL_MEM_READ_WRITE, bytes, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (batch)", error))
    return FALSE;
  if (!pinned_alloc (b, &set->table, bytes, error))
    return FALSE;
  /* The zeros after the table stay zeros: they are only ever written to
   * the device. */
  memset (set->table.data, 0, bytes);
  return pinned_alloc (b, &set->readback, MAX_COUNTERS * sizeof (guint32),
      error);
}

/* Whether the set's last batch is done with: read back, and every frame
 * of it told or forgotten. */
static gboolean
set_is_free (const Set *set)
{
  cl_int status = CL_COMPLETE;

  if (set->holds > 0)
    return FALSE;
  if (set->done && clGetEventInfo (set->done,
          CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status,
          NULL) != CL_SUCCESS)
    return TRUE;
  return status <= CL_COMPLETE;
}

/* Grows the set's device buffer for frames to hold a few frames of
 * @size bytes. */
static gboolean
set_reserve (ClhBatcher *b, Set *set, gsize size, GError **error)
{
  const gsize want = MIN (STAGING_LIMIT, 8 * size);
  cl_int ret;

  if (set->staging && set->staging_size >= size
      && 2 * set->staging_size >= want)
    return TRUE;
  g_clear_pointer (&set->staging, clReleaseMemObject);
  set->staging_size = 0;
  set->staging = clCreateBuffer (clh_context_get_cl_context (b->ctx),
      CL_MEM_READ_ONLY, want, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (batch frames)", error))
    return FALSE;
  set->staging_size = want;
  return TRUE;
}

/* A set for a new batch whose first frame takes @size bytes: a free one,
 * or a new one while there are fewer than MAX_SETS; NULL (no error) if
 * all are in flight. */
static Set *
open_set (ClhBatcher *b, gsize size, GError **error)
{
  Set *set = NULL;
  guint i;

  /* Frames of finished batches get their counters, and free their sets. */
  clh_submitter_poll (b->submitter);
  for (i = 0; i < b->n_sets && !set; i++)
    if (set_is_free (&b->sets[i]))
      set = &b->sets[i];
  if (!set && b->n_sets < MAX_SETS) {
    set = &b->sets[b->n_sets];
    if (!set_init (b, set, error)) {
      set_clear (b, set);
      return NULL;
    }
    b->n_sets++;
  }
  if (!set)
    return NULL;
  if (!set_reserve (b, set, size, error))
    return NULL;
  g_clear_pointer (&set->done, clReleaseEvent);
  set->staging_used = 0;
  set->n_entries = set->n_groups = set->n_members = 0;
  set->n_counters = 0;
  set->local_bytes = 0;
  set->work_group_size = 0;
  return set;
}

/* Whether the open set can take @f as well. */
static gboolean
set_takes (const Set *set, const ClhBatchFrame *f)
{
  const gsize at = (set->staging_used + FRAME_ALIGN - 1) / FRAME_ALIGN
      * FRAME_ALIGN;

  return set->work_group_size == f->work_group_size
      && set->n_members < MAX_FRAMES
      && set->n_entries + f->n_runs <= MAX_ENTRIES
      && set->n_counters + f->n_counters <= MAX_COUNTERS
      && at + f->staging_size <= set->staging_size;
}

/* Copies @frame's pieces into @set's staging buffer at @at: from host
 * memory, or on the device from the imported device memory it lies in
 * (between that memory's acquire and release). */
static gboolean
upload_frame (ClhBatcher *b, Set *set, const ClhBatchFrame *frame, gsize at,
    GError **error)
{
  gboolean ok;
  guint i;

  if (frame->device && !clh_host_block_acquire (frame->device,
          b->upload_queue, error))
    return FALSE;
  ok = TRUE;
  for (i = 0; ok && i < frame->n_uploads; i++)
    ok = frame->device ? clh_cl_check (clEnqueueCopyBuffer (b->upload_queue,
            clh_host_block_get_mem (frame->device), set->staging,
            frame->device_offset[i], at + frame->upload_offset[i],
            frame->upload_size[i], 0, NULL, NULL), "clEnqueueCopyBuffer",
        error) : clh_cl_check (clEnqueueWriteBuffer (b->upload_queue,
            set->staging, CL_FALSE, at + frame->upload_offset[i],
            frame->upload_size[i], frame->upload_src[i], 0, NULL, NULL),
        "clEnqueueWriteBuffer", error);
  if (!frame->device)
    return ok;
  /* The acquire is ended whatever was enqueued after it. */
  return clh_host_block_release (frame->device, b->upload_queue,
      ok ? error : NULL) && ok;
}

/**
 * clh_batcher_add:
 * @b: a batcher
 * @frame: the frame, which clh_batcher_fits() takes, with at most
 *   CLH_MAX_CHANNELS x 258 counters
 * @taken: (out): whether the frame is in the batch; if not, it is the
 *   caller's to count on its own
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * From a job on the submission thread: enqueues the frame's upload into the
 * open batch (opening one if none is), whose launch and readback are
 * enqueued when the thread's batch of jobs closes. The frame's watch is
 * then told as any frame's readback is (clh_submitter_watch_copy()).
 *
 * Returns: %FALSE if an upload could not be enqueued: the frame is not
 *   taken, and the caller's slot is to be cleaned up as for any failed
 *   submission. A frame for which no set can be had (all in flight, or
 *   their memory cannot be allocated) is not taken either, and %TRUE
 *   returned: it is the caller's to count on its own
 */
gboolean
clh_batcher_add (ClhBatcher *b, const ClhBatchFrame *frame,
    gboolean *taken, GError **error)
{
  Set *set;
  gsize at;
  guint i;

  *taken = FALSE;
  g_return_val_if_fail (frame->n_runs > 0
      && frame->n_runs <= CLH_MAX_CHANNELS, FALSE);
  g_return_val_if_fail (frame->n_counters <= CLH_MAX_CHANNELS * 258, FALSE);
  if (b->open && !set_takes (b->open, frame))
    clh_batcher_launch (b);
  if (!b->open) {
    GError *why = NULL;

    /* Without a set (all in flight, or the device has no memory for
     * another) the frame is counted on its own. */
    b->open = open_set (b, frame->staging_size, &why);
    if (why) {
      g_debug ("a frame counted on its own: %s", why->message);
      g_error_free (why);
    }
    if (!b->open)
      return TRUE;
    b->open->work_group_size = frame->work_group_size;
  }
  set = b->open;
  at = (set->staging_used + FRAME_ALIGN - 1) / FRAME_ALIGN * FRAME_ALIGN;
  if (!upload_frame (b, set, frame, at, error)) {
    /* The pieces enqueued read the frame, which is its owner's again once
     * this fails (the counting queue first: an upload of another frame may
     * wait for it). A set this frame opened stays empty. */
    clFinish (b->queue);
    clFinish (b->upload_queue);
    if (set->n_members == 0)
      b->open = NULL;
    return FALSE;
  }
  for (i = 0; i < frame->n_runs; i++) {
    ClhBatchEntry *e = (ClhBatchEntry *) set->table.data + set->n_entries++;

    e->params = frame->runs[i];
    e->params.plane.base += (guint32) at;
    e->params.hist_base += (guint32) set->n_counters;
    e->first_group = set->n_groups;
    set->n_groups += frame->runs[i].launch.whole_groups;
  }
  set->members[set->n_members++] = (Member) {
  frame->watch, frame->error, frame->counters, set->n_counters,
        frame->n_counters};
  set->n_counters += frame->n_counters;
  set->staging_used = at + frame->staging_size;
  set->local_bytes = MAX (set->local_bytes, frame->local_bytes);
  *taken = TRUE;
  return TRUE;
}

/* Tells every frame of a set whose launch could not be enqueued, once the
 * device is done with their memory. */
static void
fail_set (ClhBatcher *b, Set *set, GError *error)
{
  guint i;

  /* The counting queue first: an upload of another frame may wait for
   * it. */
  clFinish (b->queue);
  clFinish (b->upload_queue);
  for (i = 0; i < set->n_members; i++) {
    const Member *m = &set->members[i];

    if (!*m->error)
      *m->error = g_error_copy (error);
    clh_watch_notify (m->watch, CL_INVALID_OPERATION);
  }
  set->n_members = 0;
  g_clear_pointer (&set->done, clReleaseEvent);
  g_error_free (error);
}

/* Enqueues the set's table and cleared counters, its launch, which waits
 * for them, and its readback. */
static gboolean
enqueue_set (ClhBatcher *b, Set *set, GError **error)
{
  const ClhBatchParams params = { set->n_entries,
    ENTRIES_BYTES / sizeof (guint32)
  };
  const size_t local = set->work_group_size;
  const size_t global = (size_t) set->n_groups * local;
  cl_event written = NULL;
  cl_int ret;

  ret = clEnqueueWriteBuffer (b->upload_queue, set->batch, CL_FALSE, 0,
      ENTRIES_BYTES + set->n_counters * sizeof (guint32), set->table.data,
      0, NULL, &written);
  if (!clh_cl_check (ret, "clEnqueueWriteBuffer (batch table)", error))
    return FALSE;
  /* The launch on the other queue waits for the write: the write's queue
   * is flushed first (clFlush, OpenCL 1.2 section 5.13). */
  ret = clFlush (b->upload_queue);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (b->kernel, ARG_SRC, sizeof (cl_mem), &set->staging);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (b->kernel, ARG_PARAMS, sizeof (params), &params);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (b->kernel, ARG_SUB, set->local_bytes, NULL);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (b->kernel, ARG_BATCH, sizeof (cl_mem), &set->batch);
  if (ret == CL_SUCCESS)
    ret = clSetKernelArg (b->kernel, ARG_TABLE, CLH_ABI_BIN_TABLE_BYTES,
        NULL);
  if (ret == CL_SUCCESS)
    ret = clEnqueueNDRangeKernel (b->queue, b->kernel, 1, NULL, &global,
        &local, 1, &written, NULL);
  clReleaseEvent (written);
  if (!clh_cl_check (ret, "clEnqueueNDRangeKernel (batch)", error))
    return FALSE;
  ret = clEnqueueReadBuffer (b->queue, set->batch, CL_FALSE, ENTRIES_BYTES,
      set->n_counters * sizeof (guint32),
      set->readback.data, 0, NULL, &set->done);
  return clh_cl_check (ret, "clEnqueueReadBuffer (batch)", error);
}

/**
 * clh_batcher_launch:
 * @b: a batcher
 *
 * On the submission thread, before it flushes: enqueues the open batch's
 * launch and readback, and has the thread watch them for each of its
 * frames. If they cannot be enqueued, every frame of the batch fails with
 * the error: they shared the command.
 */
void
clh_batcher_launch (ClhBatcher *b)
{
  Set *set = b->open;
  const guint8 *counters;
  GError *error = NULL;
  guint i;

  if (!set)
    return;
  b->open = NULL;
  if (set->n_members == 0)
    return;
  if (!enqueue_set (b, set, &error)) {
    fail_set (b, set, error);
    return;
  }
  counters = set->readback.data;
  for (i = 0; i < set->n_members; i++) {
    const Member *m = &set->members[i];

    clh_submitter_watch_copy (b->submitter, set->done, m->watch, m->dst,
        counters + m->first * sizeof (guint32), m->n * sizeof (guint32),
        &set->holds);
  }
  /* The upload queue, flushed already, is finished with the counting
   * queue if that flush fails. */
  clh_submitter_defer_flush (b->submitter, b->queue);
  clh_submitter_defer_flush (b->submitter, b->upload_queue);
  b->n_frames += set->n_members;
  b->n_launches++;
}

/**
 * clh_batcher_get_stats:
 * @b: a batcher
 * @n_frames: (out): frames of the batched launches enqueued so far
 * @n_launches: (out): those launches
 *
 * On the submission thread.
 */
void
clh_batcher_get_stats (ClhBatcher *b, guint64 *n_frames,
    guint64 *n_launches)
{
  *n_frames = b->n_frames;
  *n_launches = b->n_launches;
}
