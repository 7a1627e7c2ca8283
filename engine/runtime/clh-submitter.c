/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's submission thread: the one thread that enqueues the frames of
 * every engine on a context into the context's shared command queues, and
 * polls their completion.
 *
 * With a queue of its own per stream, many streams reached less of one
 * stream's best than with one pair of queues shared by all, but many
 * threads calling into one queue made NVIDIA's driver spin on its locks,
 * and taking turns on a mutex gave the throughput back (measured: see
 * docs/performance.md, "Why the defaults are what they are"). Here
 * nothing but this thread calls the driver for counting: a stream posts
 * its frame as a job and goes on; it sleeps only when it needs the frame's
 * histograms, until this thread has seen the frame's readback complete.
 *
 * The thread takes every job posted while it was busy as one batch: it
 * enqueues them one after the other and flushes the counting queue once
 * for all of them (every FLUSH_EVERY jobs in a long batch), so that a
 * device with many streams costs one wake-up of this thread and one flush
 * per batch, not per frame.
 *
 * Readbacks complete in the order they were enqueued (the shared counting
 * queue is in order), so the thread asks the driver about the oldest one
 * only, without waiting (clGetEventInfo): after each batch, and when it
 * has none to run after 5 us, then at doubling intervals up to 200 us,
 * longer than a 600x480 frame's whole device time on a GPU (its upload,
 * kernel and readback: docs/performance.md, "One frame, engine alone,
 * against NVIDIA CUB"). */
#include "clh-submitter.h"

#include <string.h>
#include <sys/prctl.h>

#define POLL_US 5
#define POLL_MAX_US 200
/* A long batch is flushed after this many jobs, so that the device starts
 * on its first frames while the thread enqueues the rest; its frames of
 * the 8-bit kernel are one batched launch (clh-batch.c). With many GRAY8
 * streams, 16 gave more frames a second at less host CPU a frame than 8
 * (measured: see docs/performance.md, "Why the defaults are what they
 * are"). */
#define FLUSH_EVERY 16
/* Queues a batch defers its flush of: a context has two. */
#define MAX_DEFERRED 4

/* A readback in flight and whom it concerns: @size bytes of it, at @src
 * in host memory the readback writes, are copied to @dst before @watch is
 * told; @holds, if set, counts the watches not yet told or forgotten of a
 * readback whose memory its owner reuses. */
typedef struct {
  cl_event event;
  ClhWatch *watch;
  const void *src;
  void *dst;
  gsize size;
  gint *holds;
} Watched;

struct _ClhSubmitter {
  GThread *thread;
  GMutex lock;
  /* Signalled for a new job, while the thread sleeps, and to stop. */
  GCond work;
  GQueue jobs;
  gboolean sleeping;
  gboolean stopping;
  ClhSubmitterStats stats;

  /* The thread's alone: readbacks in flight, oldest first, the last
   * n_unflushed of them enqueued since the last flush; the queues whose
   * flush waits for the end of the batch. */
  GQueue watched;
  guint n_unflushed;
  cl_command_queue deferred[MAX_DEFERRED];
  guint n_deferred;
  /* Run before each flush of the deferred queues, on the thread; flushing:
   * a flush, and its hook, is under way. */
  ClhJobFunc before_flush;
  gpointer before_flush_data;
  gboolean flushing;

  /* The thread's alone: its batcher, freed with free_batcher once the
   * thread has stopped; batcher_refused: it could not be made (NULL
   * adopted), and is not tried again. */
  ClhBatcher *batcher;
  GDestroyNotify free_batcher;
  gboolean batcher_refused;
};

/**
 * clh_watch_notify:
 * @watch: a frame's watch
 * @status: CL_COMPLETE, or the negative error the frame failed with
 *
 * Tells @watch's owner its frame is done. The owner may reuse the frame's
 * memory from then on.
 */
void
clh_watch_notify (ClhWatch *watch, cl_int status)
{
  g_mutex_lock (watch->lock);
  watch->status = status;
  g_atomic_int_set (&watch->done, TRUE);
  g_cond_broadcast (watch->cond);
  g_mutex_unlock (watch->lock);
}

/**
 * clh_watch_reset:
 * @watch: a frame's watch, whose previous frame its owner was told of
 *
 * Readies @watch for a new frame, before the job that watches it is
 * posted.
 */
void
clh_watch_reset (ClhWatch *watch)
{
  watch->status = CL_QUEUED;
  g_atomic_int_set (&watch->done, FALSE);
}

/**
 * clh_watch_wait:
 * @watch: a frame's watch
 *
 * Sleeps until @watch is told (clh_watch_notify()).
 *
 * Returns: what it was told: CL_COMPLETE, or the negative error
 */
cl_int
clh_watch_wait (ClhWatch *watch)
{
  g_mutex_lock (watch->lock);
  while (!g_atomic_int_get (&watch->done))
    g_cond_wait (watch->cond, watch->lock);
  g_mutex_unlock (watch->lock);
  return watch->status;
}

/* Drops a watch that was told or forgotten. */
static void
watched_free (Watched *w)
{
  if (w->holds)
    (*w->holds)--;
  clReleaseEvent (w->event);
  g_free (w);
}

/* Tells @w's owner its readback ended with @status, its part of the
 * readback copied first if it is complete. */
static void
watched_tell (Watched *w, cl_int status)
{
  if (status == CL_COMPLETE && w->size > 0)
    memcpy (w->dst, w->src, w->size);
  clh_watch_notify (w->watch, status);
  watched_free (w);
}

/* Notifies the watches whose readbacks are done, oldest first. */
static gboolean
poll_completions (ClhSubmitter *s)
{
  gboolean any = FALSE;
  cl_event known = NULL;
  cl_int status = CL_QUEUED;
  Watched *w;

  while (s->watched.length > s->n_unflushed
      && (w = g_queue_peek_head (&s->watched))) {
    /* The frames of a batched launch share its readback: one question. */
    if (w->event != known) {
      known = w->event;
      if (clGetEventInfo (w->event, CL_EVENT_COMMAND_EXECUTION_STATUS,
              sizeof (status), &status, NULL) != CL_SUCCESS)
        status = CL_INVALID_EVENT;
    }
    if (status > CL_COMPLETE)
      break;
    g_queue_pop_head (&s->watched);
    watched_tell (w, status);
    any = TRUE;
  }
  return any;
}

/* Closes the batch so far: runs the before-flush hook (the batcher's
 * launch), then flushes the queues the jobs run since the last flush (and
 * the hook) deferred. If the driver refuses, the frames enqueued since then are failed: their owners
 * are told of the error, once the queues are finished (their commands may
 * still read the frames, which are the owners' again once told); frames
 * flushed before are not touched. */
static void
flush_deferred (ClhSubmitter *s)
{
  cl_int failed = CL_SUCCESS;
  guint i;

  /* What the hook enqueues joins this flush; its own deferrals do not
   * flush again. */
  if (s->flushing)
    return;
  s->flushing = TRUE;
  if (s->before_flush)
    s->before_flush (s->before_flush_data);
  for (i = 0; i < s->n_deferred; i++) {
    const cl_int ret = clFlush (s->deferred[i]);

    if (ret != CL_SUCCESS && failed == CL_SUCCESS)
      failed = ret;
  }
  for (i = 0; i < s->n_deferred; i++) {
    if (failed != CL_SUCCESS)
      clFinish (s->deferred[i]);
    clReleaseCommandQueue (s->deferred[i]);
  }
  s->n_deferred = 0;
  for (; failed != CL_SUCCESS && s->n_unflushed > 0; s->n_unflushed--) {
    watched_tell (g_queue_pop_tail (&s->watched), failed);
  }
  s->n_unflushed = 0;
  s->flushing = FALSE;
}

/* Runs the jobs of @batch (a list of ClhJob links) in order. */
static void
run_batch (ClhSubmitter *s, GList *batch)
{
  guint n = 0;

  while (batch) {
    ClhJob *job = batch->data;

    /* Once its function has run, a job's memory is its poster's again. */
    batch = batch->next;
    job->func (job->data);
    if (++n % FLUSH_EVERY == 0)
      flush_deferred (s);
  }
  flush_deferred (s);
}

/* Waits on @work for up to @wait_us, or until woken if @wait_us is 0. */
static void
sleep_for_work (ClhSubmitter *s, guint wait_us)
{
  s->sleeping = TRUE;
  if (wait_us == 0)
    g_cond_wait (&s->work, &s->lock);
  else
    g_cond_wait_until (&s->work, &s->lock, g_get_monotonic_time ()
        + wait_us);
  s->sleeping = FALSE;
}

static gpointer
run (gpointer data)
{
  ClhSubmitter *s = data;
  guint wait_us = POLL_US;

  /* Timed waits of a few us, not the default 50 us of slack. */
  prctl (PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
  g_mutex_lock (&s->lock);
  while (!s->stopping || s->jobs.length > 0) {
    if (s->jobs.length > 0) {
      GList *batch = s->jobs.head;

      s->stats.n_jobs += s->jobs.length;
      s->stats.n_batches++;
      s->stats.max_batch = MAX (s->stats.max_batch, s->jobs.length);
      g_queue_init (&s->jobs);
      g_mutex_unlock (&s->lock);
      run_batch (s, batch);
      poll_completions (s);
      g_mutex_lock (&s->lock);
      wait_us = POLL_US;
      continue;
    }
    if (s->watched.length == 0) {
      sleep_for_work (s, 0);
      wait_us = POLL_US;
      continue;
    }
    g_mutex_unlock (&s->lock);
    if (poll_completions (s))
      wait_us = POLL_US;
    g_mutex_lock (&s->lock);
    if (s->jobs.length == 0 && s->watched.length > 0) {
      sleep_for_work (s, wait_us);
      wait_us = MIN (2 * wait_us, POLL_MAX_US);
    }
  }
  g_mutex_unlock (&s->lock);
  return NULL;
}

/**
 * clh_submitter_new:
 *
 * Starts a device's submission thread.
 *
 * Returns: (transfer full): the submitter, freed with clh_submitter_free()
 */
ClhSubmitter *
clh_submitter_new (void)
{
  ClhSubmitter *s = g_new0 (ClhSubmitter, 1);

  g_mutex_init (&s->lock);
  g_cond_init (&s->work);
  g_queue_init (&s->jobs);
  g_queue_init (&s->watched);
  s->thread = g_thread_new ("clh-submit", run, s);
  return s;
}

/**
 * clh_submitter_free:
 * @s: (transfer full) (nullable): a submitter with no engine left to
 *   use it
 *
 * Runs what was posted to it, stops its thread, and drops the watches left
 * (none, when every engine collected or discarded its frames).
 */
void
clh_submitter_free (ClhSubmitter *s)
{
  if (!s)
    return;
  g_mutex_lock (&s->lock);
  s->stopping = TRUE;
  g_cond_signal (&s->work);
  g_mutex_unlock (&s->lock);
  g_thread_join (s->thread);
  if (s->batcher)
    s->free_batcher (s->batcher);
  g_queue_clear_full (&s->watched, (GDestroyNotify) watched_free);
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->work);
  g_free (s);
}

/**
 * clh_submitter_post:
 * @s: a submitter
 * @job: what to run on its thread, after what was posted before it; its
 *   memory must stay valid until its function has run
 *
 * Hands @job to the thread and returns without waiting. Jobs run in the
 * order they were posted, those posted while the thread was busy in one
 * batch.
 */
void
clh_submitter_post (ClhSubmitter *s, ClhJob *job)
{
  job->link.data = job;
  job->link.prev = job->link.next = NULL;
  g_mutex_lock (&s->lock);
  g_queue_push_tail_link (&s->jobs, &job->link);
  if (s->sleeping)
    g_cond_signal (&s->work);
  g_mutex_unlock (&s->lock);
}

/* A job clh_submitter_run() waits for. */
typedef struct {
  ClhJob job;
  ClhSubmitter *s;
  ClhSubmitFunc func;
  gpointer data;
  GError **error;
  gboolean result;
  gboolean done;
  GCond finished;
} Call;

static void
call (gpointer data)
{
  Call *c = data;

  c->result = c->func (c->data, c->error);
  g_mutex_lock (&c->s->lock);
  c->done = TRUE;
  g_cond_signal (&c->finished);
  g_mutex_unlock (&c->s->lock);
}

/**
 * clh_submitter_run:
 * @s: a submitter
 * @func: what to run on its thread
 * @data: @func's data
 * @error: passed to @func
 *
 * Runs @func on the submission thread, after what was posted before it,
 * and waits for it to return: once it has, every job posted before it has
 * run.
 *
 * Returns: what @func returned
 */
gboolean
clh_submitter_run (ClhSubmitter *s, ClhSubmitFunc func, gpointer data,
    GError **error)
{
  Call c = { { call, NULL }, s, func, data, error, FALSE, FALSE };

  if (clh_submitter_in_thread (s))
    return func (data, error);
  c.job.data = &c;
  g_cond_init (&c.finished);
  clh_submitter_post (s, &c.job);
  g_mutex_lock (&s->lock);
  while (!c.done)
    g_cond_wait (&c.finished, &s->lock);
  g_mutex_unlock (&s->lock);
  g_cond_clear (&c.finished);
  return c.result;
}

/**
 * clh_submitter_in_thread:
 * @s: a submitter
 *
 * Returns: whether the caller is @s's thread, running a job
 */
gboolean
clh_submitter_in_thread (const ClhSubmitter *s)
{
  return g_thread_self () == s->thread;
}

/**
 * clh_submitter_defer_flush:
 * @s: a submitter
 * @queue: a command queue the running job enqueued to; retained until
 *   flushed
 *
 * From a job: @queue is flushed after the job's batch (or the next
 * FLUSH_EVERY jobs of it), with what the batch's other jobs enqueued. A
 * queue whose events another queue's commands wait on must be flushed at
 * once instead (clFlush in the OpenCL 1.2 specification, 5.13).
 */
void
clh_submitter_defer_flush (ClhSubmitter *s, cl_command_queue queue)
{
  guint i;

  g_return_if_fail (clh_submitter_in_thread (s));
  for (i = 0; i < s->n_deferred; i++)
    if (s->deferred[i] == queue)
      return;
  if (s->n_deferred == MAX_DEFERRED) {
    /* From the hook of a flush under way: flushed at once instead. */
    if (s->flushing) {
      clFlush (queue);
      return;
    }
    flush_deferred (s);
  }
  clRetainCommandQueue (queue);
  s->deferred[s->n_deferred++] = queue;
}

/**
 * clh_submitter_watch_copy:
 * @s: a submitter
 * @event: a readback just enqueued on a queue the job deferred the flush
 *   of (clh_submitter_defer_flush()); retained
 * @watch: told when @event is done, or when its queue's flush fails
 *   (clh_watch_notify()); its owner cleared it before posting the job,
 *   and may read it meanwhile
 * @dst: (nullable): where @watch's owner wants its part of the readback
 * @src: (nullable): that part, in the host memory @event writes
 * @size: bytes of it; 0: nothing is copied
 * @holds: (nullable): decremented once @watch is told or forgotten
 *
 * From a job: once @event is complete, and before @watch is told, copies
 * @size bytes from @src to @dst. Several watches may share one readback
 * (a batch's), each with its part.
 */
void
clh_submitter_watch_copy (ClhSubmitter *s, cl_event event, ClhWatch *watch,
    void *dst, const void *src, gsize size, gint *holds)
{
  Watched *w = g_new (Watched, 1);

  g_return_if_fail (clh_submitter_in_thread (s));
  clRetainEvent (event);
  w->event = event;
  w->watch = watch;
  w->dst = dst;
  w->src = src;
  w->size = size;
  w->holds = holds;
  if (holds)
    (*holds)++;
  g_queue_push_tail (&s->watched, w);
  s->n_unflushed++;
}

/**
 * clh_submitter_watch:
 * @s: a submitter
 * @event: as for clh_submitter_watch_copy()
 * @watch: as for clh_submitter_watch_copy()
 *
 * From a job: clh_submitter_watch_copy() with nothing to copy.
 */
void
clh_submitter_watch (ClhSubmitter *s, cl_event event, ClhWatch *watch)
{
  clh_submitter_watch_copy (s, event, watch, NULL, NULL, 0, NULL);
}

/**
 * clh_submitter_set_before_flush:
 * @s: a submitter
 * @func: (nullable): run on the thread before each flush of the deferred
 *   queues (after a batch, every FLUSH_EVERY jobs of a long one, and in
 *   clh_submitter_flush_now()); what it enqueues and defers joins that
 *   flush
 * @data: @func's data
 *
 * How a batch of jobs is closed with commands of its own: the batched
 * launch of engine/runtime/clh-batch.c.
 */
void
clh_submitter_set_before_flush (ClhSubmitter *s, ClhJobFunc func,
    gpointer data)
{
  g_mutex_lock (&s->lock);
  s->before_flush = func;
  s->before_flush_data = data;
  g_mutex_unlock (&s->lock);
}

/**
 * clh_submitter_flush_now:
 * @s: a submitter
 *
 * From a job: closes the batch so far, as its end would (the hook of
 * clh_submitter_set_before_flush(), then the deferred flushes), so that
 * what the jobs before enqueued is on the device, and watched.
 */
void
clh_submitter_flush_now (ClhSubmitter *s)
{
  g_return_if_fail (clh_submitter_in_thread (s));
  flush_deferred (s);
}

/**
 * clh_submitter_poll:
 * @s: a submitter
 *
 * From a job: tells the watches whose readbacks are done, as the thread
 * does between batches.
 */
void
clh_submitter_poll (ClhSubmitter *s)
{
  g_return_if_fail (clh_submitter_in_thread (s));
  poll_completions (s);
}

/**
 * clh_submitter_forget:
 * @s: a submitter
 * @watch: a watch given to clh_submitter_watch(), done or not
 *
 * From a job: @watch will not be told.
 */
void
clh_submitter_forget (ClhSubmitter *s, ClhWatch *watch)
{
  GList *l;
  guint from_tail = 0;

  g_return_if_fail (clh_submitter_in_thread (s));
  for (l = s->watched.tail; l; l = l->prev, from_tail++) {
    Watched *w = l->data;

    if (w->watch == watch) {
      if (from_tail < s->n_unflushed)
        s->n_unflushed--;
      g_queue_delete_link (&s->watched, l);
      watched_free (w);
      return;
    }
  }
}

/**
 * clh_submitter_get_stats:
 * @s: a submitter
 * @stats: (out): what its thread did so far
 */
void
clh_submitter_get_stats (ClhSubmitter *s, ClhSubmitterStats *stats)
{
  g_mutex_lock (&s->lock);
  *stats = s->stats;
  stats->n_waiting = s->jobs.length;
  g_mutex_unlock (&s->lock);
}

/**
 * clh_submitter_get_batcher:
 * @s: a submitter, from its thread
 * @refused: (out) (optional): whether the batcher could not be made, and
 *   frames are counted on their own
 *
 * Returns: (transfer none) (nullable): the batcher @s adopted, %NULL if
 *   none yet (or it was refused)
 */
ClhBatcher *
clh_submitter_get_batcher (ClhSubmitter *s, gboolean *refused)
{
  g_return_val_if_fail (clh_submitter_in_thread (s), NULL);
  if (refused)
    *refused = s->batcher_refused;
  return s->batcher;
}

/**
 * clh_submitter_adopt_batcher:
 * @s: a submitter without a batcher, from its thread
 * @batcher: (transfer full) (nullable): the device's batcher (clh-batch.c),
 *   or %NULL: it could not be made, and is not tried again
 * @free_batcher: frees @batcher once the thread has stopped
 *
 * Hands @s the batcher its batches close with: the submitter owns it, and
 * frees it after the thread has run its last job.
 */
void
clh_submitter_adopt_batcher (ClhSubmitter *s, ClhBatcher *batcher,
    GDestroyNotify free_batcher)
{
  g_return_if_fail (clh_submitter_in_thread (s) && !s->batcher);
  s->batcher = batcher;
  s->free_batcher = free_batcher;
  s->batcher_refused = batcher == NULL;
}
