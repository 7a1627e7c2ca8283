/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclidledrain
 * @title: GstClIdleDrain
 * @short_description: frames held for later ones go on when none come
 *
 * An element that keeps frames in flight holds each until later frames
 * come in; a source that sends one frame and waits for it (an appsrc in a
 * request-response loop, the last frame before a pause) would wait forever.
 * A #GstClIdleDrain is a thread that, once the streaming thread has held
 * frames and sent nothing new for @delay of the element's clock, takes the
 * sink pad's stream lock and has them pushed. While frames keep coming it
 * looks less often, up to every 8 @delay, so a busy stream's held frames
 * wait at most that long after it stops.
 *
 * The delay is measured on the element's clock when it has one, so that a
 * #GstTestClock makes it deterministic in tests, and on the monotonic clock
 * otherwise. A streaming thread that keeps coming back never meets the
 * thread: it only notes each change under a mutex of its own.
 */
#include "gstclidledrain.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_idle_drain_debug);
#define GST_CAT_DEFAULT gst_cl_idle_drain_debug

struct _GstClIdleDrain {
  /* Not owned: the element owns the drain and stops it before it goes. */
  GstElement *element;
  GstPad *sinkpad;
  GstClockTime delay;
  GstClIdleDrainFunc func;

  GMutex lock;
  GCond cond;
  GThread *thread;
  gboolean stopping;
  /* The streaming thread's last note, and how many notes it made. */
  gboolean held;
  guint64 changes;
  /* The clock wait in progress, for gst_cl_idle_drain_stop(). */
  GstClockID wait_id;
};

/**
 * gst_cl_idle_drain_new:
 * @element: the element whose frames are drained
 * @sinkpad: its sink pad, whose stream lock serialises the drain with
 *   streaming
 * @delay: how long frames may be held with nothing new, ns
 * @func: pushes the held frames
 *
 * Returns: (transfer full): a drain whose thread starts at the first note
 *   of held frames
 */
GstClIdleDrain *
gst_cl_idle_drain_new (GstElement *element, GstPad *sinkpad,
    GstClockTime delay, GstClIdleDrainFunc func)
{
  GstClIdleDrain *idle = g_new0 (GstClIdleDrain, 1);

  GST_DEBUG_CATEGORY_INIT (gst_cl_idle_drain_debug, "clidledrain", 0,
      "pushing frames held in flight when no more come");
  idle->element = element;
  idle->sinkpad = sinkpad;
  idle->delay = delay;
  idle->func = func;
  g_mutex_init (&idle->lock);
  g_cond_init (&idle->cond);
  return idle;
}

/**
 * gst_cl_idle_drain_free:
 * @idle: a drain
 *
 * Stops the thread and frees @idle.
 */
void
gst_cl_idle_drain_free (GstClIdleDrain *idle)
{
  gst_cl_idle_drain_stop (idle);
  g_mutex_clear (&idle->lock);
  g_cond_clear (&idle->cond);
  g_free (idle);
}

/* Waits @wait from now unless a stop comes first (on the monotonic clock,
 * a note of frames held wakes it too). Called and returns with the lock. */
static void
wait_for (GstClIdleDrain *idle, guint64 seen, GstClockTime wait)
{
  GstClock *clock = gst_element_get_clock (idle->element);
  gint64 deadline;

  if (clock) {
    idle->wait_id = gst_clock_new_single_shot_id (clock,
        gst_clock_get_time (clock) + wait);
    g_mutex_unlock (&idle->lock);
    gst_clock_id_wait (idle->wait_id, NULL);
    g_mutex_lock (&idle->lock);
    g_clear_pointer (&idle->wait_id, gst_clock_id_unref);
    gst_object_unref (clock);
    return;
  }
  deadline = g_get_monotonic_time () + wait / GST_USECOND;
  while (!idle->stopping && idle->changes == seen
      && g_cond_wait_until (&idle->cond, &idle->lock, deadline));
}

/* Drains if nothing changed since @seen, with the stream lock so that the
 * streaming thread is not half-way through a frame. Called and returns
 * with the lock. */
static void
drain_if_idle (GstClIdleDrain *idle, guint64 seen)
{
  gboolean still;

  g_mutex_unlock (&idle->lock);
  GST_PAD_STREAM_LOCK (idle->sinkpad);
  g_mutex_lock (&idle->lock);
  still = !idle->stopping && idle->held && idle->changes == seen;
  g_mutex_unlock (&idle->lock);
  if (still) {
    GST_DEBUG_OBJECT (idle->element, "nothing new for %" GST_TIME_FORMAT
        ": pushing the frames held", GST_TIME_ARGS (idle->delay));
    idle->func (idle->element);
  }
  GST_PAD_STREAM_UNLOCK (idle->sinkpad);
  g_mutex_lock (&idle->lock);
}

/* While the stream is busy the thread looks again after twice as long,
 * up to this many delays: a stream at full speed then costs it a wake-up
 * every few milliseconds, and frames held when such a stream stops wait at
 * most that long. */
#define BUSY_BACKOFF_MAX 8

static gpointer
idle_loop (gpointer data)
{
  GstClIdleDrain *idle = data;
  GstClockTime wait = idle->delay;

  g_mutex_lock (&idle->lock);
  while (!idle->stopping) {
    const guint64 seen = idle->changes;

    if (!idle->held) {
      wait = idle->delay;
      g_cond_wait (&idle->cond, &idle->lock);
      continue;
    }
    wait_for (idle, seen, wait);
    if (idle->stopping)
      break;
    if (idle->changes == seen) {
      drain_if_idle (idle, seen);
      wait = idle->delay;
    } else {
      wait = MIN (2 * wait, BUSY_BACKOFF_MAX * idle->delay);
    }
  }
  g_mutex_unlock (&idle->lock);
  return NULL;
}

/**
 * gst_cl_idle_drain_note:
 * @idle: a drain
 * @held: whether frames are held now
 *
 * Tells the drain that the streaming thread changed what it holds; call
 * with the sink pad's stream lock, after every frame, drain and discard.
 * Starts the thread at the first frames held.
 *
 * Returns: %FALSE if the thread could not be started (frames held would
 *   wait for later ones)
 */
gboolean
gst_cl_idle_drain_note (GstClIdleDrain *idle, gboolean held)
{
  GError *err = NULL;
  gboolean ok = TRUE;

  g_mutex_lock (&idle->lock);
  idle->changes++;
  if (held && !idle->held)
    g_cond_signal (&idle->cond);
  idle->held = held;
  if (held && !idle->thread) {
    idle->thread = g_thread_try_new ("clh-idle-drain", idle_loop, idle, &err);
    if (!idle->thread) {
      GST_ERROR_OBJECT (idle->element, "no idle-drain thread: %s",
          err->message);
      g_error_free (err);
      idle->held = FALSE;
      ok = FALSE;
    }
  }
  g_mutex_unlock (&idle->lock);
  return ok;
}

/**
 * gst_cl_idle_drain_stop:
 * @idle: a drain
 *
 * Stops and joins the thread, if it runs. Call without the stream lock
 * (after the sink pad is deactivated, as GstBaseTransform's stop is): the
 * thread may be waiting for it.
 */
void
gst_cl_idle_drain_stop (GstClIdleDrain *idle)
{
  GThread *thread;

  g_mutex_lock (&idle->lock);
  thread = g_steal_pointer (&idle->thread);
  idle->stopping = TRUE;
  g_cond_signal (&idle->cond);
  if (idle->wait_id)
    gst_clock_id_unschedule (idle->wait_id);
  g_mutex_unlock (&idle->lock);

  if (thread)
    g_thread_join (thread);
  g_mutex_lock (&idle->lock);
  idle->stopping = idle->held = FALSE;
  g_mutex_unlock (&idle->lock);
}
