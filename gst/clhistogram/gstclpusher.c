/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclpusher
 * @title: GstClPusher
 * @short_description: counted frames go on while the streaming thread is
 *   away
 *
 * An element that keeps frames in flight returns to upstream before they
 * are counted. Each frame must still leave as soon as its histogram is
 * back, not when a later frame happens to come: a source that sends one
 * frame and waits for it (an appsrc in a request-response loop, the last
 * frame before a pause) would otherwise wait for ever, and every frame
 * would wait for the next one's arrival.
 *
 * While the streaming thread is in the element, it pushes what is counted
 * itself. Once it has left with frames held, a #GstClPusher thread looks
 * again and again (more and more rarely, see POLL_US) whether it is back; while it is not, the thread takes the
 * sink pad's stream lock (only if free: a streaming thread back in the
 * element, or an event on its way, does the work then) and has the frames
 * that are counted pushed. It asks the driver without waiting
 * (clh_engine_next_is_ready()): NVIDIA's event callbacks cost several
 * times the host CPU a frame, and a paced stream's worst latencies grew to
 * milliseconds (docs/performance.md, "Why the defaults are what they
 * are"), where a look is one query that does not wait.
 */
#include "gstclpusher.h"

#ifdef __linux__
#include <sys/prctl.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cl_pusher_debug);
#define GST_CAT_DEFAULT gst_cl_pusher_debug

/* While frames are held and the streaming thread is away, the thread
 * first looks after POLL_US (less than a GRAY8 600x480 frame's device time
 * on a GPU: docs/performance.md, "One frame, engine alone, against NVIDIA
 * CUB"), then after twice as long each time, up to POLL_MAX_US: a frame
 * counted T after the streaming thread left goes on within about T of
 * being counted, and a slow device (PoCL on the CPU the thread shares) is
 * not asked thousands of times a frame. */
#define POLL_US 10
#define POLL_MAX_US 2000

struct _GstClPusher {
  /* Not owned: the element owns the pusher and stops it before it goes. */
  GstElement *element;
  GstPad *sinkpad;
  GstClPusherFunc func;

  GMutex lock;
  GCond cond;
  GThread *thread;
  gboolean stopping;
  /* Whether the streaming thread is in the element, and whether frames
   * are held. */
  gboolean inside;
  gboolean held;
};

/**
 * gst_cl_pusher_new:
 * @element: the element whose frames are pushed
 * @sinkpad: its sink pad, whose stream lock serialises the pusher with
 *   streaming
 * @func: pushes the counted frames
 *
 * Returns: (transfer full): a pusher whose thread starts the first time
 *   the streaming thread leaves frames held
 */
GstClPusher *
gst_cl_pusher_new (GstElement *element, GstPad *sinkpad,
    GstClPusherFunc func)
{
  GstClPusher *pusher = g_new0 (GstClPusher, 1);

  GST_DEBUG_CATEGORY_INIT (gst_cl_pusher_debug, "clpusher", 0,
      "pushing counted frames while the streaming thread is away");
  pusher->element = element;
  pusher->sinkpad = sinkpad;
  pusher->func = func;
  g_mutex_init (&pusher->lock);
  g_cond_init (&pusher->cond);
  return pusher;
}

/**
 * gst_cl_pusher_free:
 * @pusher: a pusher
 *
 * Stops the thread and frees @pusher.
 */
void
gst_cl_pusher_free (GstClPusher *pusher)
{
  gst_cl_pusher_stop (pusher);
  g_mutex_clear (&pusher->lock);
  g_cond_clear (&pusher->cond);
  g_free (pusher);
}

static gpointer
push_loop (gpointer data)
{
  GstClPusher *pusher = data;
  gulong wait = POLL_US;

#ifdef __linux__
  /* Sleeps of POLL_US, not of the default 50 us timer slack. */
  prctl (PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
#endif
  g_mutex_lock (&pusher->lock);
  while (!pusher->stopping) {
    if (!pusher->held || pusher->inside) {
      wait = POLL_US;
      g_cond_wait (&pusher->cond, &pusher->lock);
      continue;
    }
    g_mutex_unlock (&pusher->lock);
    g_usleep (wait);
    wait = MIN (2 * wait, POLL_MAX_US);
    g_mutex_lock (&pusher->lock);
    /* Back in the element, or done: the streaming thread pushes them. */
    if (pusher->stopping || pusher->inside || !pusher->held)
      continue;
    g_mutex_unlock (&pusher->lock);
    if (GST_PAD_STREAM_TRYLOCK (pusher->sinkpad)) {
      pusher->func (pusher->element);
      GST_PAD_STREAM_UNLOCK (pusher->sinkpad);
    }
    g_mutex_lock (&pusher->lock);
  }
  g_mutex_unlock (&pusher->lock);
  return NULL;
}

/**
 * gst_cl_pusher_enter:
 * @pusher: a pusher
 *
 * The streaming thread is in the element (with the stream lock) and will
 * push what is counted before it leaves.
 */
void
gst_cl_pusher_enter (GstClPusher *pusher)
{
  g_mutex_lock (&pusher->lock);
  pusher->inside = TRUE;
  g_mutex_unlock (&pusher->lock);
}

/**
 * gst_cl_pusher_leave:
 * @pusher: a pusher
 * @held: whether frames are held as the streaming thread leaves
 *
 * Call with the stream lock, as the streaming thread is about to return
 * with nothing more to push.
 *
 * Returns: %FALSE if the thread could not be started (held frames would
 *   wait for the next frame)
 */
gboolean
gst_cl_pusher_leave (GstClPusher *pusher, gboolean held)
{
  GError *err = NULL;
  gboolean started = TRUE;

  g_mutex_lock (&pusher->lock);
  pusher->inside = FALSE;
  pusher->held = held;
  if (held && !pusher->thread) {
    pusher->thread = g_thread_try_new ("clh-pusher", push_loop, pusher, &err);
    if (!pusher->thread) {
      GST_ERROR_OBJECT (pusher->element, "no pusher thread: %s",
          err->message);
      g_error_free (err);
      pusher->held = FALSE;
      started = FALSE;
    }
  }
  if (held)
    g_cond_signal (&pusher->cond);
  g_mutex_unlock (&pusher->lock);
  return started;
}

/**
 * gst_cl_pusher_note_held:
 * @pusher: a pusher
 * @held: whether frames are held now
 *
 * What the element holds after it pushed, drained or discarded frames;
 * call with the stream lock.
 */
void
gst_cl_pusher_note_held (GstClPusher *pusher, gboolean held)
{
  g_mutex_lock (&pusher->lock);
  pusher->held = held;
  g_mutex_unlock (&pusher->lock);
}

/**
 * gst_cl_pusher_stop:
 * @pusher: a pusher
 *
 * Stops and joins the thread, if it runs. Call without the stream lock
 * (after the sink pad is deactivated, as GstBaseTransform's stop is): the
 * thread may be waiting for it.
 */
void
gst_cl_pusher_stop (GstClPusher *pusher)
{
  GThread *thread;

  g_mutex_lock (&pusher->lock);
  thread = g_steal_pointer (&pusher->thread);
  pusher->stopping = TRUE;
  g_cond_signal (&pusher->cond);
  g_mutex_unlock (&pusher->lock);

  if (thread)
    g_thread_join (thread);
  g_mutex_lock (&pusher->lock);
  pusher->stopping = pusher->held = FALSE;
  pusher->inside = FALSE;
  g_mutex_unlock (&pusher->lock);
}
