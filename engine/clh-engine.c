/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The engine's lifecycle and its ring of frames in flight: queues, slots,
 * submit, collect, discard. How a frame reaches the device is
 * clh-engine-transfer.c; how it is counted, clh-engine-dispatch.c. */
#include "clh-engine-private.h"
/* For clh_engine_get_n_on_thread(), defined here: tests read it, and
 * clh_engine_settle() uses it. */
#include "clh-engine-tuning.h"

#include <string.h>

/* Frames are uploaded in bands of rows of at most this many bytes, so a
 * 16384 x 16384 RGBA frame never needs a 1 GiB device buffer. */
#define STAGING_LIMIT_DEFAULT (64u << 20)

static void slots_clear (ClhEngine *engine);

/**
 * clh_engine_new_for_context:
 * @context: the device context, shared with other engines
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Creates an engine on @context's device: its own kernels and buffers,
 * over the context's compiled program and command queues (with profiling,
 * queues of its own). While other engines of the context submit too, its
 * frames are enqueued and polled by the context's submission thread
 * (engine/runtime/clh-submitter.c), so that one thread at a time is in the
 * driver; alone, by the caller. One frame in flight until
 * clh_engine_set_max_in_flight(). An engine serves one thread at a time;
 * engines of one context may run in different threads.
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhEngine *
clh_engine_new_for_context (ClhContext *context, GError **error)
{
  g_autoptr (ClhEngine) engine = g_new0 (ClhEngine, 1);

  engine->q.ctx = clh_context_ref (context);
  clh_context_add_user (context);
  engine->q.device = clh_context_get_device (context);
  engine->dispatch.requested.padding = -1;
  engine->plan.staging_limit = MIN (STAGING_LIMIT_DEFAULT,
      clh_context_get_max_host_block (context));
  engine->plan.host_blocks = g_ptr_array_new_with_free_func ((GDestroyNotify)
      clh_host_block_free);
  g_mutex_init (&engine->wait_lock);
  g_cond_init (&engine->wait_cond);
  if (!clh_queues_create (&engine->q, FALSE, FALSE, error)
      || !clh_dispatch_create_kernels (&engine->dispatch, &engine->q, error)
      || !clh_engine_set_max_in_flight (engine, 1, error))
    return NULL;
  return g_steal_pointer (&engine);
}

/**
 * clh_engine_new:
 * @device_spec: (nullable): which device, as clh_device_select() reads it
 * @error: %CLH_ENGINE_ERROR_NO_DEVICE, %CLH_ENGINE_ERROR_DEVICE_NOT_FOUND,
 *   %CLH_ENGINE_ERROR_BUILD (with the build log) or
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * Creates an engine on a context of its own (clh_context_new()).
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhEngine *
clh_engine_new (const gchar *device_spec, GError **error)
{
  g_autoptr (ClhContext) context = clh_context_new (device_spec, error);

  return context ? clh_engine_new_for_context (context, error) : NULL;
}

/**
 * clh_engine_free:
 * @engine: (transfer full) (nullable): an engine
 *
 * Drops any pending frames (clh_engine_discard()), and releases every
 * OpenCL object the engine holds and its reference on its context.
 */
void
clh_engine_free (ClhEngine *engine)
{
  if (!engine)
    return;
  if (engine->q.queue)
    clh_engine_discard (engine);
  slots_clear (engine);
  g_clear_pointer (&engine->plan.host_blocks, g_ptr_array_unref);
  clh_dispatch_clear (&engine->dispatch);
  clh_queues_clear (&engine->q);
  g_mutex_clear (&engine->wait_lock);
  g_cond_clear (&engine->wait_cond);
  clh_context_remove_user (engine->q.ctx);
  g_clear_pointer (&engine->q.ctx, clh_context_unref);
  g_free (engine);
}

/**
 * clh_engine_get_context:
 * @engine: an engine
 *
 * Returns: (transfer none): the device context the engine runs on
 */
ClhContext *
clh_engine_get_context (const ClhEngine *engine)
{
  return engine->q.ctx;
}

/**
 * clh_engine_get_device_name:
 * @engine: an engine
 *
 * Returns: (transfer none): the device's %CL_DEVICE_NAME
 */
const gchar *
clh_engine_get_device_name (const ClhEngine *engine)
{
  return clh_context_get_device_name (engine->q.ctx);
}

/**
 * clh_engine_get_platform_name:
 * @engine: an engine
 *
 * Returns: (transfer none): the device's %CL_PLATFORM_NAME
 */
const gchar *
clh_engine_get_platform_name (const ClhEngine *engine)
{
  return clh_context_get_platform_name (engine->q.ctx);
}

/**
 * clh_engine_get_driver_version:
 * @engine: an engine
 *
 * Returns: (transfer full): the device's %CL_DRIVER_VERSION
 */
gchar *
clh_engine_get_driver_version (const ClhEngine *engine)
{
  return clh_context_get_driver_version (engine->q.ctx);
}

/* Enqueues the copy of the frame's counters into the slot's pinned host
 * memory; clh_engine_collect() waits for it. */
static gboolean
read_back (ClhEngine *engine, GError **error)
{
  ClhSlot *slot = engine->q.slot;
  cl_int ret;

  ret = clEnqueueReadBuffer (engine->q.queue, slot->counters, CL_FALSE, 0,
      sizeof (guint32) * slot->n_counters_used,
      clh_host_block_get_data (slot->readback), 0, NULL, &slot->done);
  if (ret == CL_SUCCESS && engine->q.profiling) {
    clRetainEvent (slot->done);
    clh_queues_note_event (&engine->q, CLH_PHASE_READBACK, slot->done, NULL);
  }
  return clh_cl_check (ret, "clEnqueueReadBuffer", error)
      && clh_queues_flush (&engine->q, engine->q.queue, error);
}

/* Forgets what the slot's frame borrowed, waiting for the device to give
 * back a lent block. */
static void
slot_finish (ClhEngine *engine, ClhSlot *slot)
{
  clh_transfer_give_back (&engine->q, slot);
  clh_slot_release_events (slot);
  g_clear_error (&slot->posted.error);
}

static void
slots_clear (ClhEngine *engine)
{
  guint i;

  for (i = 0; i < engine->n_slots; i++) {
    ClhSlot *slot = &engine->slots[i];

    slot_finish (engine, slot);
    clh_engine_clear_regions (slot);
    g_clear_pointer (&slot->events, g_array_unref);
    g_clear_pointer (&slot->counters, clReleaseMemObject);
    g_clear_pointer (&slot->staging, clReleaseMemObject);
    g_clear_pointer (&slot->stage, clh_host_block_free);
    g_clear_pointer (&slot->readback, clh_host_block_free);
    g_clear_pointer (&slot->posted.regions, g_free);
  }
  g_clear_pointer (&engine->slots, g_free);
  engine->n_slots = engine->head = engine->n_pending = 0;
}

/**
 * clh_engine_set_max_in_flight:
 * @engine: an engine with no frame pending
 * @n: how many frames may be submitted and not yet collected, >= 1
 * @error: %CLH_ENGINE_ERROR_INVALID if frames are pending,
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * With more than one, a device that copies frames gets a second command
 * queue for the uploads, so that a frame's upload overlaps the counting and
 * readback of the one before. Each frame in flight holds its own counters
 * and, for copied frames, a device buffer the size of the frame.
 *
 * Returns: %TRUE on success; on failure the engine keeps its frames in
 *   flight as they were
 */
gboolean
clh_engine_set_max_in_flight (ClhEngine *engine, guint n, GError **error)
{
  const gboolean two = n > 1;
  guint i;

  g_return_val_if_fail (n >= 1, FALSE);
  if (engine->n_pending > 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%u frames are in flight: collect or discard them first",
        engine->n_pending);
    return FALSE;
  }
  if (engine->n_slots == n + 1)
    return TRUE;
  /* The queues first: if they cannot be made, the engine stays as it was,
   * with its slots. */
  if (two != (engine->q.upload_queue != NULL)
      && !clh_queues_create (&engine->q, engine->q.profiling, two, error))
    return FALSE;
  slots_clear (engine);
  engine->n_slots = n + 1;
  engine->slots = g_new0 (ClhSlot, engine->n_slots);
  for (i = 0; i < engine->n_slots; i++) {
    engine->slots[i].watch.lock = &engine->wait_lock;
    engine->slots[i].watch.cond = &engine->wait_cond;
  }
  for (i = 0; i < engine->n_slots && engine->q.profiling; i++)
    engine->slots[i].events = g_array_new (FALSE, TRUE,
        sizeof (ClhPhaseEvent));
  return TRUE;
}

/**
 * clh_engine_get_max_in_flight:
 * @engine: an engine
 *
 * Returns: how many frames may be in flight
 */
guint
clh_engine_get_max_in_flight (const ClhEngine *engine)
{
  return engine->n_slots - 1;
}

/**
 * clh_engine_get_n_pending:
 * @engine: an engine
 *
 * Returns: frames submitted and not yet collected or discarded
 */
guint
clh_engine_get_n_pending (const ClhEngine *engine)
{
  return engine->n_pending;
}

static gboolean
check_request (const ClhFrame *frame, const ClhHistogramSpec *spec,
    GError **error)
{
  GError *why = NULL;

  if (!clh_frame_is_valid (frame)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "Unsupported frame: %ux%u, %u planes, %u components",
        frame->width, frame->height, frame->n_planes, frame->n_components);
    return FALSE;
  }
  if (!clh_histogram_spec_is_valid (spec, frame, &why)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "Unsupported histogram: %s", why->message);
    g_error_free (why);
    return FALSE;
  }
  return TRUE;
}

/* Undoes a failed submission: waits for what was queued, gives memory back
 * and marks the counters it touched dirty. */
static void
abandon_submission (ClhEngine *engine)
{
  ClhSlot *slot = engine->q.slot, *next = engine->q.next;

  clFinish (engine->q.queue);
  if (engine->q.upload_queue)
    clFinish (engine->q.upload_queue);
  slot_finish (engine, slot);
  g_clear_pointer (&engine->q.upload_done, clReleaseEvent);
  slot->dirty = slot->n_counters;
  slot->table_uploaded = 0;
  next->dirty = next->n_counters;
  engine->q.slot = NULL;
}

/* A frame on its way into the queues, and the slot it takes. */
typedef struct {
  ClhEngine *engine;
  ClhSlot *slot;
  const ClhFrame *frame;
  const ClhHistogramSpec *spec;
  gboolean full_frame;
  const ClhRect *regions;
  guint n_regions;
  const ClhHostBlock *block;
  gboolean on_host;
  gboolean posted;
} Submission;

/* The slot the next frame submitted goes to. */
static ClhSlot *
slot_to_fill (ClhEngine *engine)
{
  return &engine->slots[(engine->head + engine->n_pending) % engine->n_slots];
}

/**
 * clh_engine_get_n_on_thread:
 * @engine: an engine
 *
 * For tests, which check that frames went through the device's submission
 * thread (clh-submitter.c) when other engines had frames in flight.
 *
 * Returns: how many of the pending frames were submitted through it
 */
guint
clh_engine_get_n_on_thread (const ClhEngine *engine)
{
  guint i, n = 0;

  for (i = 0; i < engine->n_pending; i++)
    n += engine->slots[(engine->head + i) % engine->n_slots].watched;
  return n;
}

/* Nothing, on the submission thread: once run, every job posted before
 * it has run. */
static gboolean
nothing (gpointer data, GError **error)
{
  return TRUE;
}

/* Waits until the submission thread has enqueued every frame the engine
 * posted to it, so that the caller may change or read what those frames'
 * jobs use (settings, the last launch, host blocks). */
void
clh_engine_settle (const ClhEngine *engine)
{
  if (engine->q.submitter && !clh_submitter_in_thread (engine->q.submitter)
      && clh_engine_get_n_on_thread (engine) > 0)
    clh_submitter_run (engine->q.submitter, nothing, NULL, NULL);
}

/* Hands a posted frame of one histogram, the whole frame's, to the device's
 * batcher (clh-batch.c), which counts it with other streams' frames in
 * one launch and reads it back with them. @taken: (out): FALSE if the
 * frame is to be counted on its own: another kernel, a launch the batched
 * kernel cannot make, every batch in flight. */
static gboolean
batch (const Submission *sub, gboolean *taken, GError **error)
{
  ClhEngine *engine = sub->engine;
  ClhSlot *slot = engine->q.slot;
  ClhBatcher *batcher;
  ClhBatchFrame f;

  *taken = FALSE;
  if (!sub->posted || !sub->full_frame || sub->n_regions > 0
      || !clh_transfer_batch_frame (&engine->plan, &engine->dispatch,
          &engine->q, sub->frame, sub->spec, sub->block, &f)
      || !(batcher = clh_batcher_get (engine->q.ctx, TRUE))
      || !clh_batcher_fits (batcher, f.work_group_size, f.local_bytes,
          f.staging_size))
    return TRUE;
  if (!clh_queues_prepare_host_counters (&engine->q, slot->n_counters_used,
          error))
    return FALSE;
  f.n_counters = slot->n_counters_used;
  f.counters = (guint32 *) clh_host_block_get_data (slot->readback);
  f.watch = &slot->watch;
  f.error = &slot->posted.error;
  return clh_batcher_add (batcher, &f, taken, error);
}

/* Enqueues @sub's frame into its slot (from the thread it was submitted on,
 * or for a posted frame the submission thread), and for a posted frame has
 * the thread watch its readback. */
static gboolean
submit (const Submission *sub, GError **error)
{
  ClhEngine *engine = sub->engine;
  ClhSlot *slot = sub->slot;
  gboolean launches, batched;

  /* The slot being filled, and the next one in the ring, whose counters
   * the frame's first launch clears. */
  engine->q.slot = slot;
  engine->q.next = &engine->slots[(slot - engine->slots + 1)
      % engine->n_slots];
  slot->n_channels = clh_histogram_spec_n_channels (sub->spec);
  slot->n_bins = clh_histogram_spec_n_bins (sub->spec);
  slot->full_frame = FALSE;
  slot->n_histograms = 0;
  slot->n_counters_used = 0;
  slot->on_host = sub->on_host;
  if (!clh_engine_prepare_regions (&engine->dispatch, &engine->q,
          sub->frame, sub->spec, sub->full_frame, sub->regions,
          sub->n_regions, error)) {
    abandon_submission (engine);
    return FALSE;
  }
  if (slot->on_host) {
    /* Counted now; the device's counters and the next slot's stay as
     * they are. */
    if (slot->n_histograms > 0 && !clh_engine_count_on_host (&engine->q,
            sub->frame, sub->spec, error)) {
      abandon_submission (engine);
      return FALSE;
    }
    engine->q.slot = NULL;
    return TRUE;
  }
  if (slot->n_histograms > 0) {
    if (!batch (sub, &batched, error)) {
      abandon_submission (engine);
      return FALSE;
    }
    if (batched) {
      /* The slot's device counters, and the next slot's, stay as they
       * are: the batch has its own. */
      engine->q.slot = NULL;
      return TRUE;
    }
  }
  /* With no histogram nothing is queued; with only empty regions their
   * clear counters are read back, and no launch clears the next slot's. */
  launches = sub->full_frame || slot->table_groups > 0;
  if (slot->n_histograms > 0
      && (!clh_queues_prepare_counters (&engine->q, slot->n_counters_used,
              error)
          || (launches && !clh_transfer_count_frame (&engine->plan,
                  &engine->dispatch, &engine->q, sub->frame, sub->spec,
                  sub->block, error))
          || !read_back (engine, error))) {
    abandon_submission (engine);
    return FALSE;
  }
  /* This slot's counters now hold the frame; its first launch cleared the
   * next slot's. */
  if (launches) {
    slot->dirty = slot->n_counters_used;
    engine->q.next->dirty = 0;
  }
  engine->q.slot = NULL;
  if (sub->posted && slot->done)
    clh_submitter_watch (engine->q.submitter, slot->done, &slot->watch);
  else if (sub->posted)
    clh_watch_notify (&slot->watch, CL_COMPLETE);
  return TRUE;
}

/* The job of a posted frame, on the submission thread. */
static void
run_posted (gpointer data)
{
  ClhSlot *slot = data;
  ClhPosted *p = &slot->posted;
  const Submission sub = { p->engine, slot, &p->frame, &p->spec,
    p->full_frame, p->regions, p->n_regions, p->block, FALSE, TRUE
  };

  GError *error = NULL;

  /* The owner may take the slot back as soon as it is told: telling it
   * comes last, after undoing the frame (which clears the slot's error).
   * The status only says the frame failed; the error says how. */
  if (!submit (&sub, &error)) {
    p->error = error;
    clh_watch_notify (&slot->watch, CL_INVALID_OPERATION);
  }
}

/* Copies the frame into the slot and posts it to the submission thread;
 * its enqueueing's errors come with its collection. A frame from ordinary
 * memory is first copied into pinned memory here, so that streams copy at
 * once, not one after the other on that thread. */
static gboolean
post (ClhEngine *engine, const ClhFrame *frame, const ClhHistogramSpec *spec,
    gboolean full_frame, const ClhRect *regions, guint n_regions,
    const ClhHostBlock *block, GError **error)
{
  ClhSlot *slot = slot_to_fill (engine);
  ClhPosted *p = &slot->posted;
  ClhFrame staged;

  if (!clh_transfer_prestage (&engine->plan, &engine->q, slot, frame, spec,
          &block, &staged, error))
    return FALSE;
  p->frame = block == slot->stage && slot->stage ? staged : *frame;
  p->engine = engine;
  p->spec = *spec;
  p->full_frame = full_frame;
  if (n_regions > p->regions_size) {
    p->regions = g_renew (ClhRect, p->regions, n_regions);
    p->regions_size = n_regions;
  }
  if (n_regions > 0)
    memcpy (p->regions, regions, n_regions * sizeof (ClhRect));
  p->n_regions = n_regions;
  p->block = block;
  p->job.func = run_posted;
  p->job.data = slot;
  slot->watched = TRUE;
  clh_watch_reset (&slot->watch);
  engine->n_pending++;
  clh_submitter_post (engine->q.submitter, &p->job);
  return TRUE;
}

/* A block of device memory from another API must be of the engine's
 * context and hold every plane the request reads: no other way reaches
 * such a frame, since the host cannot read it. */
static gboolean
check_external (const ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block, GError **error)
{
  guint used = 0, i;

  if (!block || !clh_host_block_is_external (block))
    return TRUE;
  if (clh_host_block_get_context (block) != engine->q.ctx) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "the frame's device memory was imported into another device's "
        "context");
    return FALSE;
  }
  for (i = 0; i < spec->n_components; i++)
    used |= 1u << frame->components[spec->components[i]].plane;
  if (!clh_host_block_holds (block, frame, used)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "a plane of the frame is not inside its device memory block");
    return FALSE;
  }
  return TRUE;
}

/**
 * clh_engine_submit_regions:
 * @engine: an engine with fewer than clh_engine_get_max_in_flight() frames
 *   pending
 * @frame: the frame; its memory must stay valid and unchanged until the
 *   frame is collected or discarded
 * @spec: what to count
 * @full_frame: count the whole frame, as the first histogram
 * @regions: (array length=n_regions) (nullable): rectangles of @frame's
 *   pixels, each counted into a histogram of its own, in order after the
 *   whole frame's: clipped to the frame (clh_rect_clip()), so they may
 *   cross its edge, lie outside it (no samples) or overlap; a subsampled
 *   component's sample is a region's iff its co-sited pixel
 *   (`x << w_sub`, `y << h_sub`) lies in it
 * @n_regions: rectangles in @regions, at most %CLH_MAX_REGIONS
 * @block: (nullable): the clh_context_alloc_host() block of the engine's
 *   context that @frame's planes lie in, if the caller knows it: such a
 *   frame is read where it lies on CPU devices and copied by DMA on others;
 *   or device memory imported into the context
 *   (clh_context_import_opaque_fd()), whose frames' plane data are device
 *   addresses in it: read where they lie, or copied on the device into
 *   the batch of other streams' frames
 * @error: %CLH_ENGINE_ERROR_INVALID for a frame outside
 *   clh_frame_is_valid(), a request clh_histogram_spec_is_valid() refuses
 *   (its message says why), too many regions or frames in flight;
 *   %CLH_ENGINE_ERROR_OPENCL when an OpenCL call fails
 *
 * Enqueues the frame's upload (in bands of rows, for large frames), its
 * counting into privatized sub-histograms, their merge on the device and
 * the readback of the bins, and returns without waiting. Every histogram
 * of the frame is counted in the same launches, one per kernel and window
 * of bins (and band of rows) whatever the number of regions, and read back
 * in one copy.
 *
 * While other engines of the context submit too, the frame is posted to
 * the device's submission thread instead (engine/runtime/clh-submitter.c),
 * which enqueues it with the other streams' frames of its batch: then an OpenCL
 * error enqueueing it is reported when it is collected, as errors the
 * device meets counting it always are.
 *
 * Returns: %TRUE if the frame is pending; on failure nothing of it is left
 *   queued and frames submitted before it are still pending
 */
gboolean
clh_engine_submit_regions (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, gboolean full_frame, const ClhRect *regions,
    guint n_regions, const ClhHostBlock *block, GError **error)
{
  Submission sub = { engine, NULL, frame, spec, full_frame, regions,
    n_regions, block, FALSE, FALSE
  };

  if (!check_request (frame, spec, error)
      || !clh_engine_check_regions (spec, full_frame, n_regions, error)
      || !check_external (engine, frame, spec, block, error))
    return FALSE;
  if (engine->n_pending >= engine->n_slots - 1) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%u frames are already in flight, the most this engine takes",
        engine->n_pending);
    return FALSE;
  }
  sub.on_host = !(block && clh_host_block_is_external (block))
      && clh_engine_counts_on_host (engine->counting, engine->q.device,
      frame, spec);
  /* Frames the host counts need no device. The others go to the
   * submission thread while other engines submit too (one did in the last
   * 2 ms, and for 10 ms after): then it is the only thread in the driver.
   * Alone, a stream submits itself and waits for its frames itself,
   * without handing them over: through the thread a stream alone runs a
   * little slower and waits longer for its frames (measured: see
   * docs/performance.md, "One stream: where its time goes"). */
  if (engine->q.submitter && !sub.on_host
      && clh_context_use_thread (engine->q.ctx, engine,
          engine->handover && engine->submission == CLH_SUBMISSION_AUTO ?
          CLH_SUBMISSION_THREAD : engine->submission, &engine->shared_until))
    return post (engine, frame, spec, full_frame, regions, n_regions, block,
        error);
  /* The thread is done with the engine's posted frames before this one
   * touches the engine's state. */
  clh_engine_settle (engine);
  sub.slot = slot_to_fill (engine);
  sub.slot->watched = FALSE;
  if (!submit (&sub, error))
    return FALSE;
  engine->n_pending++;
  return TRUE;
}

/**
 * clh_engine_submit:
 * @engine: an engine with fewer than clh_engine_get_max_in_flight() frames
 *   pending
 * @frame: the frame; its memory must stay valid and unchanged until the
 *   frame is collected or discarded
 * @spec: what to count
 * @block: (nullable): as for clh_engine_submit_regions()
 * @error: as for clh_engine_submit_regions()
 *
 * Enqueues the counting of the whole frame, its one histogram:
 * clh_engine_submit_regions() with no regions.
 *
 * Returns: %TRUE if the frame is pending; on failure nothing of it is left
 *   queued and frames submitted before it are still pending
 */
gboolean
clh_engine_submit (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block, GError **error)
{
  return clh_engine_submit_regions (engine, frame, spec, TRUE, NULL, 0,
      block, error);
}

/**
 * clh_engine_get_next_n_histograms:
 * @engine: an engine
 *
 * Returns: the histograms the oldest pending frame was submitted with
 *   (the whole frame's, if counted, and one per region), 0 if none is
 *   pending
 */
guint
clh_engine_get_next_n_histograms (const ClhEngine *engine)
{
  /* A posted frame's histograms are known once the thread prepared it. */
  clh_engine_settle (engine);
  return engine->n_pending ? engine->slots[engine->head].n_histograms : 0;
}

/**
 * clh_engine_collect_regions:
 * @engine: an engine with a frame pending
 * @histograms: (out caller-allocates) (array length=n_histograms): the
 *   oldest pending frame's histograms, in the order it was submitted with
 *   (the whole frame's first, if counted, then the regions'); each one's
 *   counts must hold `clh_histogram_spec_n_channels () *
 *   clh_histogram_spec_n_bins ()` guint32 of that frame's request, and are
 *   written channel-major
 * @n_histograms: histograms in @histograms:
 *   clh_engine_get_next_n_histograms()
 * @error: %CLH_ENGINE_ERROR_INVALID if nothing is pending or
 *   @n_histograms is not the frame's, %CLH_ENGINE_ERROR_OPENCL if the
 *   device failed on the frame
 *
 * Waits for the oldest pending frame (frames are collected in the order
 * they were submitted); its memory is the caller's again.
 *
 * Returns: %TRUE on success; on failure that frame is dropped and
 *   @histograms are undefined
 */
gboolean
clh_engine_collect_regions (ClhEngine *engine, ClhHistogram *histograms,
    guint n_histograms, GError **error)
{
  ClhSlot *slot;
  gboolean ok = TRUE;

  if (engine->n_pending == 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "No frame is in flight");
    return FALSE;
  }
  slot = &engine->slots[engine->head];
  engine->head = (engine->head + 1) % engine->n_slots;
  engine->n_pending--;

  if (slot->watched) {
    /* Until the thread saw its readback done, or its enqueueing fail. */
    const cl_int status = clh_watch_wait (&slot->watch);

    if (slot->posted.error) {
      g_propagate_error (error, g_steal_pointer (&slot->posted.error));
      ok = FALSE;
    } else {
      ok = clh_cl_check (status, "the frame's readback", error);
    }
  } else if (slot->done) {
    ok = clh_cl_check (slot->waited ? slot->wait_status :
        clWaitForEvents (1, &slot->done), "clWaitForEvents", error);
  }
  if (!ok) {
    /* Which counters are clear is unknown now: clear them before use,
     * also the next slot's, which the frame's launch was to clear, unless
     * a frame already took it. */
    slot->dirty = slot->n_counters;
    if (engine->n_pending == 0) {
      ClhSlot *next = &engine->slots[engine->head];

      next->dirty = next->n_counters;
    }
  } else if (n_histograms != slot->n_histograms) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "The frame has %u histograms, not %u", slot->n_histograms,
        n_histograms);
    ok = FALSE;
  } else {
    clh_engine_split_histograms (slot, histograms);
    if (engine->q.profiling && !slot->on_host)
      engine->have_timings = clh_slot_sum_timings (slot, &engine->timings);
  }
  slot_finish (engine, slot);
  return ok;
}

/**
 * clh_engine_collect:
 * @engine: an engine with a frame pending, submitted with one histogram
 *   (clh_engine_submit())
 * @histogram: (out caller-allocates): the oldest pending frame's result, as
 *   clh_engine_collect_regions() writes it
 * @error: as for clh_engine_collect_regions()
 *
 * Waits for the oldest pending frame and splits its counters.
 *
 * Returns: %TRUE on success; on failure that frame is dropped and
 *   @histogram is undefined
 */
gboolean
clh_engine_collect (ClhEngine *engine, ClhHistogram *histogram,
    GError **error)
{
  return clh_engine_collect_regions (engine, histogram, 1, error);
}

/* Finishes the engine's commands and drops its pending frames; on the
 * submission thread when the engine has one, after the frames it posted,
 * whose watches it forgets. */
static gboolean
discard (gpointer data, GError **error)
{
  ClhEngine *engine = data;
  guint i;

  /* Frames in the open batch are launched with it, then finished. */
  if (engine->q.submitter)
    clh_submitter_flush_now (engine->q.submitter);
  clFinish (engine->q.queue);
  if (engine->q.upload_queue)
    clFinish (engine->q.upload_queue);
  for (i = 0; i < engine->n_pending; i++) {
    ClhSlot *slot = &engine->slots[(engine->head + i) % engine->n_slots];

    if (slot->watched)
      clh_submitter_forget (engine->q.submitter, &slot->watch);
  }
  while (engine->n_pending > 0) {
    slot_finish (engine, &engine->slots[engine->head]);
    engine->head = (engine->head + 1) % engine->n_slots;
    engine->n_pending--;
  }
  return TRUE;
}

/**
 * clh_engine_discard:
 * @engine: an engine
 *
 * Waits until the device is done with every pending frame and drops their
 * results: their memory is the caller's again.
 */
void
clh_engine_discard (ClhEngine *engine)
{
  if (engine->q.submitter)
    clh_submitter_run (engine->q.submitter, discard, engine, NULL);
  else
    discard (engine, NULL);
}

/**
 * clh_engine_next_is_ready:
 * @engine: an engine
 *
 * Asks the driver, without waiting, whether the oldest pending frame is
 * done: a caller that keeps frames in flight can hand each one on as soon
 * as it is counted, without a thread blocked in clh_engine_collect().
 *
 * Returns: %TRUE if a frame is pending and clh_engine_collect_regions()
 *   would not wait for it: its counters are back, or the device failed on
 *   it (collecting it then reports the error)
 */
gboolean
clh_engine_next_is_ready (ClhEngine *engine)
{
  const ClhSlot *slot;
  cl_int status = CL_COMPLETE;

  if (engine->n_pending == 0)
    return FALSE;
  slot = &engine->slots[engine->head];
  if (slot->watched)
    return g_atomic_int_get (&slot->watch.done);
  if (slot->done && clGetEventInfo (slot->done,
          CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status,
          NULL) != CL_SUCCESS)
    return TRUE;
  return status <= CL_COMPLETE;
}

/**
 * clh_engine_set_handover:
 * @engine: an engine with no frame pending
 * @handover: whether the caller waits for its frames on another thread
 *   (clh_engine_wait_counted()) while it submits the next ones
 *
 * With @handover, the frames counted on the device are enqueued, and
 * watched until counted, by the context's submission thread, so that the
 * submitting thread and the waiting one never call into the driver at the
 * same time: with the two in the driver at once NVIDIA's driver took more
 * host CPU and ran one stream slower than one thread doing both, where
 * the submission thread ran it faster than either (docs/performance.md,
 * "Before and after the restructuring"). Without it (the default), a
 * stream alone submits its frames itself. Ignored where the engine's
 * submission was set otherwise (clh_engine_set_submission()).
 */
void
clh_engine_set_handover (ClhEngine *engine, gboolean handover)
{
  engine->handover = handover;
}

/**
 * clh_engine_wait_counted:
 * @engine: an engine with a frame pending
 *
 * Blocks until the oldest pending frame is counted, so that a thread that
 * hands frames on as they are counted sleeps until there is one, and
 * clh_engine_collect_regions() then takes it without waiting. A frame
 * posted to the submission thread is waited for on its watch, which that
 * thread's polling tells; a frame the caller submitted itself, in the
 * driver on its readback's event (clWaitForEvents(): an event callback
 * would cost far more host CPU a frame, see docs/performance.md). Returns
 * at once for a frame the host counted or the device failed on (collecting
 * it reports the error). The wait ends when the device has done the work
 * already submitted; nothing cancels it.
 *
 * Unlike the engine's other calls, it may run on another thread than the
 * one submitting, at the same time as clh_engine_submit_regions(), which
 * only fills slots after the oldest pending frame's: the caller must know
 * a frame is pending (it submitted it, and no collect or discard can run
 * meanwhile), and must not run clh_engine_collect_regions(),
 * clh_engine_discard(), clh_engine_set_max_in_flight() or
 * clh_engine_free() until it returns.
 */
void
clh_engine_wait_counted (ClhEngine *engine)
{
  ClhSlot *slot = &engine->slots[engine->head];

  if (slot->watched) {
    clh_watch_wait (&slot->watch);
  } else if (slot->done && !slot->waited) {
    slot->wait_status = clWaitForEvents (1, &slot->done);
    slot->waited = TRUE;
  }
}

/**
 * clh_engine_histogram:
 * @engine: an engine with no frame pending
 * @frame: the frame, read and not modified; it must stay unchanged until
 *   the call returns
 * @spec: what to count
 * @histogram: (out caller-allocates): the result, as clh_engine_collect()
 *   writes it
 * @error: as for clh_engine_submit() and clh_engine_collect()
 *
 * Counts @frame on the device: clh_engine_submit() then
 * clh_engine_collect(). Blocks until @histogram holds the result.
 *
 * Returns: %TRUE on success; on failure @histogram is undefined and
 *   nothing is left queued.
 */
gboolean
clh_engine_histogram (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *histogram, GError **error)
{
  if (engine->n_pending > 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%u frames are in flight: collect them first", engine->n_pending);
    return FALSE;
  }
  engine->have_timings = FALSE;
  return clh_engine_submit (engine, frame, spec, NULL, error)
      && clh_engine_collect (engine, histogram, error);
}
