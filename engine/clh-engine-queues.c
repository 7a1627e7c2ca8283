/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where a frame's commands go: the engine's command queues (its own with
 * profiling, else the context's shared ones), the counters of the slot
 * being filled, the flush after a frame, and each command's event. */
#include "clh-engine-queues.h"

#include <string.h>

/* The counting queue, and the upload queue if @two, with or without
 * profiling; @q keeps its old queues if either cannot be made. */
gboolean
clh_queues_create (ClhQueues *q, gboolean profiling,
    gboolean two, GError **error)
{
  const cl_command_queue_properties props = profiling ?
      CL_QUEUE_PROFILING_ENABLE : 0;
  const gboolean shared = !profiling;
  cl_context context = clh_context_get_cl_context (q->ctx);
  cl_command_queue queue, upload = NULL;
  cl_int ret;

  if (shared) {
    queue = clh_context_get_shared_queue (q->ctx, 0, error);
    if (!queue)
      return FALSE;
    if (two && !(upload = clh_context_get_shared_queue (q->ctx, 1,
                error))) {
      clReleaseCommandQueue (queue);
      return FALSE;
    }
  } else {
    queue = clCreateCommandQueue (context, q->device->device, props,
        &ret);
    if (!clh_cl_check (ret, "clCreateCommandQueue", error))
      return FALSE;
    if (two) {
      upload = clCreateCommandQueue (context, q->device->device, props,
          &ret);
      if (!clh_cl_check (ret, "clCreateCommandQueue", error)) {
        clReleaseCommandQueue (queue);
        return FALSE;
      }
    }
  }
  if (q->queue)
    clFinish (q->queue);
  if (q->upload_queue)
    clFinish (q->upload_queue);
  g_clear_pointer (&q->queue, clReleaseCommandQueue);
  g_clear_pointer (&q->upload_queue, clReleaseCommandQueue);
  q->queue = queue;
  q->upload_queue = upload;
  q->profiling = profiling;
  q->submitter = shared ? clh_context_get_submitter (q->ctx) :
      NULL;
  return TRUE;
}

/* Grows the slot's counters, on the device and in pinned host memory, to
 * @n; new ones hold garbage until cleared. */
static gboolean
ensure_counters (ClhQueues *q, ClhSlot *slot, gsize n, GError **error)
{
  cl_int ret;

  if (slot->n_counters >= n)
    return TRUE;
  /* Whole pages: no regrowth for small changes of bins. */
  n = (n + 1023) / 1024 * 1024;
  g_clear_pointer (&slot->counters, clReleaseMemObject);
  g_clear_pointer (&slot->readback, clh_host_block_free);
  slot->n_counters = slot->dirty = 0;
  slot->counters = clCreateBuffer (clh_context_get_cl_context (q->ctx),
      CL_MEM_READ_WRITE, sizeof (cl_uint) * n, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (histogram)", error))
    return FALSE;
  slot->readback = clh_context_alloc_host (q->ctx, sizeof (cl_uint) * n,
      error);
  if (!slot->readback)
    return FALSE;
  slot->n_counters = slot->dirty = n;
  return TRUE;
}

/* Readies the frame's slot for @n_counters counters: clears them if a
 * failure or their creation left them dirty, and has the frame's first
 * launch clear the next slot's. */
gboolean
clh_queues_prepare_counters (ClhQueues *q, gsize n_counters,
    GError **error)
{
  ClhSlot *slot = q->slot;
  const cl_uint zero = 0;
  cl_event ev;
  cl_int ret;

  if (!ensure_counters (q, slot, n_counters, error))
    return FALSE;
  if (slot->dirty > 0) {
    ret = clEnqueueFillBuffer (q->queue, slot->counters, &zero,
        sizeof (zero), 0, sizeof (cl_uint) * slot->dirty, 0, NULL,
        clh_queues_want_event (q, &ev, NULL));
    clh_queues_note_event (q, CLH_PHASE_KERNEL, ev, NULL);
    if (!clh_cl_check (ret, "clEnqueueFillBuffer", error))
      return FALSE;
    slot->dirty = 0;
  }
  q->zero_next = q->next->dirty;
  return TRUE;
}

/* Readies the frame's slot for @n_counters counters counted on the host:
 * its device counters are left as they are. */
gboolean
clh_queues_prepare_host_counters (ClhQueues *q, gsize n_counters,
    GError **error)
{
  return ensure_counters (q, q->slot, n_counters, error);
}

/* Flushes @queue after enqueueing a frame: at once from the caller's
 * thread; at the end of its batch from the submission thread. */
gboolean
clh_queues_flush (ClhQueues *q, cl_command_queue queue, GError **error)
{
  if (q->submitter && clh_submitter_in_thread (q->submitter)) {
    clh_submitter_defer_flush (q->submitter, queue);
    return TRUE;
  }
  return clh_cl_check (clFlush (queue), "clFlush", error);
}

/* Releases the queues; the caller finished them. */
void
clh_queues_clear (ClhQueues *q)
{
  g_clear_pointer (&q->upload_queue, clReleaseCommandQueue);
  g_clear_pointer (&q->queue, clReleaseCommandQueue);
}

/* Where a command's event goes: @keep if the engine waits for it, and the
 * frame's list if profiling; NULL if neither wants it. Hand the event to
 * clh_queues_note_event() after the call. */
cl_event *
clh_queues_want_event (const ClhQueues *q, cl_event *tmp, cl_event *keep)
{
  *tmp = NULL;
  return q->profiling || keep ? tmp : NULL;
}

/* Files a command's event (NULL: none was asked for) where
 * clh_queues_want_event() said it goes; the caller's reference is taken. */
void
clh_queues_note_event (ClhQueues *q, ClhPhase phase, cl_event event,
    cl_event *keep)
{
  if (!event)
    return;
  if (keep) {
    if (*keep)
      clReleaseEvent (*keep);
    *keep = event;
  }
  if (q->profiling) {
    ClhPhaseEvent pe = { event, phase };

    if (keep)
      clRetainEvent (event);
    g_array_append_val (q->slot->events, pe);
  } else if (!keep) {
    clReleaseEvent (event);
  }
}

void
clh_slot_release_events (ClhSlot *slot)
{
  guint i;

  for (i = 0; slot->events && i < slot->events->len; i++)
    clReleaseEvent (g_array_index (slot->events, ClhPhaseEvent, i).event);
  if (slot->events)
    g_array_set_size (slot->events, 0);
  g_clear_pointer (&slot->done, clReleaseEvent);
  slot->waited = FALSE;
}

/* Sums a finished frame's events into @timings. Returns: FALSE if the
 * frame was not profiled or an event could not say its times. */
gboolean
clh_slot_sum_timings (const ClhSlot *slot, ClhTimings *timings)
{
  ClhTimings *t = timings;
  guint64 first = G_MAXUINT64, last = 0;
  gboolean have = slot->events != NULL;
  guint i;

  memset (t, 0, sizeof (*t));
  for (i = 0; slot->events && i < slot->events->len; i++) {
    const ClhPhaseEvent *pe = &g_array_index (slot->events, ClhPhaseEvent,
        i);
    guint64 *sum = pe->phase == CLH_PHASE_UPLOAD ? &t->upload_ns :
        pe->phase == CLH_PHASE_KERNEL ? &t->kernel_ns : &t->readback_ns;
    cl_ulong start = 0, end = 0;

    if (clGetEventProfilingInfo (pe->event, CL_PROFILING_COMMAND_START,
            sizeof (start), &start, NULL) != CL_SUCCESS
        || clGetEventProfilingInfo (pe->event, CL_PROFILING_COMMAND_END,
            sizeof (end), &end, NULL) != CL_SUCCESS) {
      have = FALSE;
      continue;
    }
    *sum += end - start;
    first = MIN (first, start);
    last = MAX (last, end);
  }
  t->span_ns = last > first ? last - first : 0;
  return have;
}
