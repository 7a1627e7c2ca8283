/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How SIGINT and SIGTERM end the probe, whatever it is doing.
 *
 * The signals are blocked in every thread and taken by one thread of their
 * own with sigwait(), so that they are served while the main thread is
 * inside a state change (a source opening a FIFO no one writes to), while
 * stdout takes nothing, and while a source is stuck in a read, none of
 * which a main-loop handler (g_unix_signal_add) would see in time. Blocked,
 * they also never interrupt a write.
 *
 * Once the pipeline plays, the first signal ends the stream as its end
 * would (EOS: the frames in flight are still counted and printed); if the
 * stream has not ended END_WAIT_S seconds later, or on a second signal,
 * or on one during start-up or after the stream ended, the probe stops at
 * once: the line being written is finished if stdout takes it within
 * LINE_WAIT_US, and the probe exits with 128 + the signal's number, as a
 * shell reports a process the signal ended, without waiting for a pipeline
 * that may never stop. */
#include "probe-stop.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define END_WAIT_S 5
#define LINE_WAIT_US (1 * G_USEC_PER_SEC)

typedef enum
{
  STARTING,
  RUNNING,
  ENDING,
} Phase;

static struct
{
  GMutex lock;
  Phase phase;
  GstElement *pipeline;
  ProbeOutput *out;
  /* The signal that asked the stream to end, and by when it must. */
  gint first_signal;
  gint64 deadline;
} stop;

static void
get_signals (sigset_t *set)
{
  sigemptyset (set);
  sigaddset (set, SIGINT);
  sigaddset (set, SIGTERM);
}

/* Called with the lock held, from the signal thread: never returns. */
static void G_GNUC_NORETURN
stop_now (gint sig, const gchar *why)
{
  gboolean cut = stop.out && probe_output_abort (stop.out, LINE_WAIT_US);
  gchar *text = g_strdup_printf ("clhistogram-probe: stopped by %s (%s)%s\n",
      sig == SIGINT ? "SIGINT" : "SIGTERM", why,
      cut ? "; stdout took nothing for a second: its last line is cut" : "");
  gint error;

  probe_write_all (STDERR_FILENO, text, strlen (text), &error);
  g_free (text);
  /* Not exit(): the other threads are still inside GStreamer and the
   * OpenCL driver, whose destructors must not run under them. */
  _exit (128 + sig);
}

static void
send_eos (GstElement *pipeline, gpointer unused)
{
  gst_element_send_event (pipeline, gst_event_new_eos ());
}

static void
take_signal (gint sig)
{
  g_mutex_lock (&stop.lock);
  if (stop.phase == RUNNING && !stop.first_signal) {
    stop.first_signal = sig;
    stop.deadline = g_get_monotonic_time () + END_WAIT_S * G_USEC_PER_SEC;
    /* From GStreamer's thread pool: a source may hold its stream lock
     * while its thread waits for the writer, and sending EOS to it would
     * wait with it. */
    gst_element_call_async (stop.pipeline, send_eos, NULL, NULL);
  } else {
    stop_now (sig, stop.phase == STARTING ? "while starting" :
        stop.first_signal ? "a second signal" : "while stopping");
  }
  g_mutex_unlock (&stop.lock);
}

/* The next signal; 0 once @deadline (monotonic time, 0 for none) passed,
 * -1 if the wait was cut short. */
static gint
next_signal (const sigset_t *set, gint64 deadline)
{
  struct timespec wait;
  gint64 left;
  gint sig;

  if (!deadline)
    return sigwait (set, &sig) == 0 ? sig : -1;
  left = deadline - g_get_monotonic_time ();
  if (left <= 0)
    return 0;
  wait.tv_sec = left / G_USEC_PER_SEC;
  wait.tv_nsec = left % G_USEC_PER_SEC * 1000;
  sig = sigtimedwait (set, NULL, &wait);
  if (sig < 0)
    return errno == EAGAIN ? 0 : -1;
  return sig;
}

static gpointer
wait_signals (gpointer unused)
{
  sigset_t set;

  get_signals (&set);
  for (;;) {
    gint64 deadline;
    gint sig;

    g_mutex_lock (&stop.lock);
    deadline = stop.phase == RUNNING ? stop.deadline : 0;
    g_mutex_unlock (&stop.lock);
    sig = next_signal (&set, deadline);
    if (sig > 0) {
      take_signal (sig);
    } else if (sig == 0) {
      g_mutex_lock (&stop.lock);
      if (stop.phase == RUNNING)
        stop_now (stop.first_signal, "the stream did not end within "
            G_STRINGIFY (END_WAIT_S) " s");
      g_mutex_unlock (&stop.lock);
    }
  }
  return NULL;
}

/**
 * probe_stop_init:
 *
 * Blocks SIGINT and SIGTERM and starts the thread that takes them. Call it
 * in main() before any other thread starts (GLib's, GStreamer's, the
 * OpenCL driver's), so that every thread inherits the blocked signals.
 * Until probe_stop_running(), a signal stops the probe at once.
 */
void
probe_stop_init (void)
{
  sigset_t set;

  get_signals (&set);
  pthread_sigmask (SIG_BLOCK, &set, NULL);
  g_thread_unref (g_thread_new ("probe-signals", wait_signals, NULL));
}

/**
 * probe_stop_watch_output:
 * @out: (nullable): the JSON's output, whose line in progress a stop at
 *   once lets finish; %NULL before it is closed
 */
void
probe_stop_watch_output (ProbeOutput *out)
{
  g_mutex_lock (&stop.lock);
  stop.out = out;
  g_mutex_unlock (&stop.lock);
}

/**
 * probe_stop_running:
 * @pipeline: the pipeline, now playing
 *
 * From now on the first signal sends EOS to @pipeline. Safe from any
 * thread; only the first call counts.
 */
void
probe_stop_running (GstElement *pipeline)
{
  g_mutex_lock (&stop.lock);
  if (stop.phase == STARTING) {
    stop.phase = RUNNING;
    stop.pipeline = gst_object_ref (pipeline);
  }
  g_mutex_unlock (&stop.lock);
}

/**
 * probe_stop_ending:
 *
 * The stream has ended (its end, an error, a failed output, or the first
 * signal's EOS): no deadline runs any more, and a signal stops the probe
 * at once while the pipeline is taken down.
 */
void
probe_stop_ending (void)
{
  GstElement *pipeline;

  g_mutex_lock (&stop.lock);
  stop.phase = ENDING;
  pipeline = stop.pipeline;
  stop.pipeline = NULL;
  g_mutex_unlock (&stop.lock);
  if (pipeline)
    gst_object_unref (pipeline);
}
