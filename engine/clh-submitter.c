/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device's submission thread: the one thread that enqueues the frames of
 * every engine on a context into the context's shared command queues, and
 * polls their completion.
 *
 * With a queue of its own per stream, 64 streams reached 56-71% of one
 * stream's best on an H100; with one pair of queues shared by all, 82-90%,
 * but 64 threads calling into one queue made NVIDIA's driver spin on its
 * locks (660 us of CPU a frame), and taking turns on a mutex gave the
 * throughput back (docs/performance.md, "Many streams"). Here nothing but
 * this thread calls the driver for counting: a stream hands its submission
 * over as a function to run, sleeps until it has run, and sleeps again
 * until this thread has seen its frame's readback complete.
 *
 * Readbacks complete in the order they were enqueued (the shared counting
 * queue is in order), so the thread asks the driver about the oldest one
 * only, without waiting (clGetEventInfo): after each submission, and when
 * it has none to run after 5 us, then at doubling intervals up to 200 us
 * (a frame's device time is 10-40 us on the H100). */
#include "clh-submitter.h"

#include <sys/prctl.h>

#define POLL_US 5
#define POLL_MAX_US 200

/* A submission handed to the thread, on its caller's stack. */
typedef struct {
  ClhSubmitFunc func;
  gpointer data;
  GError **error;
  gboolean result;
  gboolean done;
  GCond finished;
} Job;

typedef struct {
  cl_event event;
  ClhWatch *watch;
} Watched;

struct _ClhSubmitter {
  GThread *thread;
  GMutex lock;
  /* Signalled for a new job and to stop. */
  GCond work;
  GQueue jobs;
  gboolean stopping;
  /* Readbacks in flight, oldest first; the thread's alone. */
  GQueue watched;
};

/* Tells @w's owner its frame is done: @status, CL_COMPLETE or a negative
 * error. */
static void
notify (ClhWatch *w, cl_int status)
{
  g_mutex_lock (w->lock);
  w->status = status;
  g_atomic_int_set (&w->done, TRUE);
  g_cond_broadcast (w->cond);
  g_mutex_unlock (w->lock);
}

/* Notifies the watches whose readbacks are done, oldest first. */
static gboolean
poll_completions (ClhSubmitter *s)
{
  gboolean any = FALSE;
  Watched *w;

  while ((w = g_queue_peek_head (&s->watched))) {
    cl_int status = CL_QUEUED;

    if (clGetEventInfo (w->event, CL_EVENT_COMMAND_EXECUTION_STATUS,
            sizeof (status), &status, NULL) != CL_SUCCESS)
      status = CL_INVALID_EVENT;
    if (status > CL_COMPLETE)
      break;
    g_queue_pop_head (&s->watched);
    notify (w->watch, status);
    clReleaseEvent (w->event);
    g_free (w);
    any = TRUE;
  }
  return any;
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
    Job *job = g_queue_pop_head (&s->jobs);

    if (job) {
      g_mutex_unlock (&s->lock);
      job->result = job->func (job->data, job->error);
      poll_completions (s);
      g_mutex_lock (&s->lock);
      job->done = TRUE;
      g_cond_signal (&job->finished);
      wait_us = POLL_US;
      continue;
    }
    if (s->watched.length == 0) {
      g_cond_wait (&s->work, &s->lock);
      wait_us = POLL_US;
      continue;
    }
    g_mutex_unlock (&s->lock);
    if (poll_completions (s))
      wait_us = POLL_US;
    g_mutex_lock (&s->lock);
    if (s->jobs.length == 0 && s->watched.length > 0) {
      g_cond_wait_until (&s->work, &s->lock, g_get_monotonic_time ()
          + wait_us);
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
 * Runs what was handed to it, stops its thread, and drops the watches left
 * (none, when every engine collected or discarded its frames).
 */
void
clh_submitter_free (ClhSubmitter *s)
{
  Watched *w;

  if (!s)
    return;
  g_mutex_lock (&s->lock);
  s->stopping = TRUE;
  g_cond_signal (&s->work);
  g_mutex_unlock (&s->lock);
  g_thread_join (s->thread);
  while ((w = g_queue_pop_head (&s->watched))) {
    clReleaseEvent (w->event);
    g_free (w);
  }
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->work);
  g_free (s);
}

/**
 * clh_submitter_run:
 * @s: a submitter
 * @func: what to run on its thread
 * @data: @func's data
 * @error: passed to @func
 *
 * Runs @func on the submission thread, after what was handed over before
 * it, and waits for it to return.
 *
 * Returns: what @func returned
 */
gboolean
clh_submitter_run (ClhSubmitter *s, ClhSubmitFunc func, gpointer data,
    GError **error)
{
  Job job = { func, data, error, FALSE, FALSE };

  if (g_thread_self () == s->thread)
    return func (data, error);
  g_cond_init (&job.finished);
  g_mutex_lock (&s->lock);
  g_queue_push_tail (&s->jobs, &job);
  g_cond_signal (&s->work);
  while (!job.done)
    g_cond_wait (&job.finished, &s->lock);
  g_mutex_unlock (&s->lock);
  g_cond_clear (&job.finished);
  return job.result;
}

/**
 * clh_submitter_watch:
 * @s: a submitter
 * @event: a readback just enqueued on the shared counting queue; retained
 * @watch: told when @event is done: its @done set and its @cond
 *   broadcast under its @lock
 *
 * From a function clh_submitter_run() runs.
 */
void
clh_submitter_watch (ClhSubmitter *s, cl_event event, ClhWatch *watch)
{
  Watched *w = g_new (Watched, 1);

  g_return_if_fail (g_thread_self () == s->thread);
  clRetainEvent (event);
  w->event = event;
  w->watch = watch;
  watch->done = FALSE;
  watch->status = CL_QUEUED;
  g_queue_push_tail (&s->watched, w);
}

/**
 * clh_submitter_forget:
 * @s: a submitter
 * @watch: a watch given to clh_submitter_watch(), done or not
 *
 * From a function clh_submitter_run() runs: @watch will not be told.
 */
void
clh_submitter_forget (ClhSubmitter *s, ClhWatch *watch)
{
  GList *l;

  g_return_if_fail (g_thread_self () == s->thread);
  for (l = s->watched.head; l; l = l->next) {
    Watched *w = l->data;

    if (w->watch == watch) {
      g_queue_delete_link (&s->watched, l);
      clReleaseEvent (w->event);
      g_free (w);
      return;
    }
  }
}
