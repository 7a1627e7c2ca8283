/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How SIGINT and SIGTERM end the probe, whatever it is doing, and what
 * the other signals a service is sent do.
 *
 * The signals are blocked in every thread and taken by one thread of their
 * own with sigwait(), so that they are served while a thread is inside a
 * state change (a source opening a FIFO no one writes to), while stdout
 * takes nothing, and while a source is stuck in a read, none of which a
 * main-loop handler (g_unix_signal_add) would see in time. Blocked, they
 * also never interrupt a write.
 *
 * Once an input plays (or a live input went down and waits for its
 * retry), the first signal ends every input's stream as its end would:
 * EOS to each pipeline that plays (the frames in flight are still counted
 * and printed, an interval's partial message posted), and to each that
 * starts playing later; the main loop's handler ends the inputs that do
 * not play (waiting for a retry, still starting). If the inputs have not
 * all ended --stop-timeout seconds later (5 unless told), or on a second
 * signal, or on one
 * during start-up or after the streams ended, the probe stops at once:
 * the line being written is finished if stdout takes it within
 * LINE_WAIT_US, and the probe exits with 128 + the signal's number, as a
 * shell reports a process the signal ended, without waiting for a
 * pipeline that may never stop.
 *
 * SIGQUIT stops the probe at once, as a second signal does (131). SIGHUP
 * (which a service manager sends to reload) asks the main loop to reload
 * the inputs (probe_stop_set_reload()); SIGHUPs that come before it does
 * (or before the inputs run) make one reload, which reads the file as it
 * is then. SIGHUP while the probe stops, and SIGUSR1, are said on stderr
 * and ignored: a stray signal must not end the probe with every input's
 * counters. All five are taken by the signal thread, so that the handlers
 * a library installs (LLVM's, in PoCL, for SIGQUIT and SIGUSR1) never see
 * them. */
#include "probe-stop.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define END_WAIT_S_DEFAULT 5
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
  /* The pipelines that play now, a reference each. */
  GPtrArray *playing;
  ProbeOutput *out;
  /* The signal that asked the streams to end, and by when they must:
   * end_wait_s after it. */
  gint first_signal;
  gint64 deadline;
  guint end_wait_s;
  /* Ends, on the main loop, the inputs that do not play. */
  GSourceFunc on_request;
  gpointer request_data;
  /* Reloads the inputs on the main loop; whether it is asked for
   * already; and whether a SIGHUP came before it was set. */
  GSourceFunc on_reload;
  gpointer reload_data;
  gboolean reload_queued;
  gboolean reload_waiting;
} stop;

static void
get_signals (sigset_t *set)
{
  sigemptyset (set);
  sigaddset (set, SIGINT);
  sigaddset (set, SIGTERM);
  sigaddset (set, SIGQUIT);
  sigaddset (set, SIGHUP);
  sigaddset (set, SIGUSR1);
}

static const gchar *
signal_name (gint sig)
{
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "SIGUSR1";
  }
}

static void
say (const gchar *text)
{
  gint error;

  probe_write_all (STDERR_FILENO, text, strlen (text), &error);
}

/* Called with the lock held, from the signal thread: never returns. */
static void G_GNUC_NORETURN
stop_now (gint sig, const gchar *why)
{
  gboolean cut = stop.out && probe_output_abort (stop.out, LINE_WAIT_US);
  gchar *text = g_strdup_printf ("clhistogram-probe: stopped by %s (%s)%s\n",
      signal_name (sig), why,
      cut ? "; stdout took nothing for a second: its last line is cut" : "");

  say (text);
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

/* From GStreamer's thread pool: a source may hold its stream lock while
 * its thread waits for the writer, and sending EOS to it would wait with
 * it. */
static void
end_stream (GstElement *pipeline)
{
  gst_element_call_async (pipeline, send_eos, NULL, NULL);
}

/* On the main loop: a reload, once for every SIGHUP that came since the
 * last. */
static gboolean
reload (gpointer unused)
{
  GSourceFunc on_reload;
  gpointer data;

  g_mutex_lock (&stop.lock);
  stop.reload_queued = FALSE;
  on_reload = stop.on_reload;
  data = stop.reload_data;
  g_mutex_unlock (&stop.lock);
  if (on_reload)
    on_reload (data);
  return G_SOURCE_REMOVE;
}

static void
take_hangup (void)
{
  const gchar *ignored = NULL;

  g_mutex_lock (&stop.lock);
  if (stop.first_signal || stop.phase == ENDING)
    ignored = "clhistogram-probe: SIGHUP ignored: the probe is stopping\n";
  else if (!stop.on_reload)
    stop.reload_waiting = TRUE;
  else if (!stop.reload_queued) {
    stop.reload_queued = TRUE;
    g_idle_add (reload, NULL);
  }
  g_mutex_unlock (&stop.lock);
  if (ignored)
    say (ignored);
}

static void
take_signal (gint sig)
{
  guint i;

  if (sig == SIGUSR1) {
    say ("clhistogram-probe: SIGUSR1 ignored\n");
    return;
  }
  if (sig == SIGHUP) {
    take_hangup ();
    return;
  }
  g_mutex_lock (&stop.lock);
  if (sig == SIGQUIT) {
    stop_now (sig, "at once");
  } else if (stop.phase == RUNNING && !stop.first_signal) {
    stop.first_signal = sig;
    stop.deadline = g_get_monotonic_time ()
        + (gint64) stop.end_wait_s * G_USEC_PER_SEC;
    for (i = 0; i < stop.playing->len; i++)
      end_stream (g_ptr_array_index (stop.playing, i));
    if (stop.on_request)
      g_idle_add (stop.on_request, stop.request_data);
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
      if (stop.phase == RUNNING) {
        gchar why[64];

        g_snprintf (why, sizeof why, "the stream%s did not end within %u s",
            stop.playing->len > 1 ? "s" : "", stop.end_wait_s);
        stop_now (stop.first_signal, why);
      }
      g_mutex_unlock (&stop.lock);
    }
  }
  return NULL;
}

/**
 * probe_stop_init:
 * @on_request: called once on the default main context after the first
 *   signal that ends the streams, to end the inputs that do not play
 * @data: for @on_request
 *
 * Blocks SIGINT, SIGTERM, SIGQUIT, SIGHUP and SIGUSR1 and starts the thread
 * that takes them. Call it
 * in main() before any other thread starts (GLib's, GStreamer's, the
 * OpenCL driver's), so that every thread inherits the blocked signals.
 * Until probe_stop_running() or probe_stop_leave_start_up(), a signal
 * stops the probe at once.
 */
void
probe_stop_init (GSourceFunc on_request, gpointer data)
{
  sigset_t set;

  stop.playing = g_ptr_array_new ();
  stop.end_wait_s = END_WAIT_S_DEFAULT;
  stop.on_request = on_request;
  stop.request_data = data;
  get_signals (&set);
  pthread_sigmask (SIG_BLOCK, &set, NULL);
  g_thread_unref (g_thread_new ("probe-signals", wait_signals, NULL));
}

/**
 * probe_stop_set_timeout:
 * @seconds: how long the streams may take to end after the first signal
 *   before the probe stops at once (--stop-timeout); 5 unless set
 *
 * Call it before the inputs start.
 */
void
probe_stop_set_timeout (guint seconds)
{
  g_mutex_lock (&stop.lock);
  stop.end_wait_s = seconds;
  g_mutex_unlock (&stop.lock);
}

/**
 * probe_stop_set_reload:
 * @on_reload: (nullable): called on the default main context after a
 *   SIGHUP (once for SIGHUPs in a row that come before it is), to reload
 *   the inputs; %NULL: SIGHUP is said and ignored
 * @data: for @on_reload
 *
 * A SIGHUP that came before it was set (while the probe started: the
 * file may have changed since it was read) reloads once it is. Once the
 * first SIGINT or SIGTERM came, SIGHUP is said on stderr and ignored.
 */
void
probe_stop_set_reload (GSourceFunc on_reload, gpointer data)
{
  g_mutex_lock (&stop.lock);
  stop.on_reload = on_reload;
  stop.reload_data = data;
  if (on_reload && stop.reload_waiting && !stop.reload_queued) {
    stop.reload_queued = TRUE;
    g_idle_add (reload, NULL);
  }
  stop.reload_waiting = FALSE;
  g_mutex_unlock (&stop.lock);
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
 * @pipeline: an input's pipeline, now playing
 *
 * From now on the first signal sends EOS to @pipeline; if it came
 * already, EOS goes now. Safe from any thread; a pipeline counts once.
 */
void
probe_stop_running (GstElement *pipeline)
{
  g_mutex_lock (&stop.lock);
  if (stop.phase == STARTING)
    stop.phase = RUNNING;
  if (stop.phase == RUNNING && !g_ptr_array_find (stop.playing, pipeline,
          NULL)) {
    g_ptr_array_add (stop.playing, gst_object_ref (pipeline));
    if (stop.first_signal)
      end_stream (pipeline);
  }
  g_mutex_unlock (&stop.lock);
}

/**
 * probe_stop_forget:
 * @pipeline: an input's pipeline, about to be stopped (its stream ended,
 *   failed or stalled)
 *
 * No signal sends EOS to @pipeline any more. Safe from any thread.
 */
void
probe_stop_forget (GstElement *pipeline)
{
  gboolean found;

  g_mutex_lock (&stop.lock);
  found = g_ptr_array_remove (stop.playing, pipeline);
  g_mutex_unlock (&stop.lock);
  if (found)
    gst_object_unref (pipeline);
}

/**
 * probe_stop_leave_start_up:
 *
 * The probe runs although no input may play: a live input waits for its
 * retry. A signal then ends the inputs (probe_stop_init()'s @on_request)
 * rather than stopping the probe at once.
 */
void
probe_stop_leave_start_up (void)
{
  g_mutex_lock (&stop.lock);
  if (stop.phase == STARTING)
    stop.phase = RUNNING;
  g_mutex_unlock (&stop.lock);
}

/**
 * probe_stop_requested:
 *
 * Returns: whether a signal asked the inputs to end: an input's stream
 *   that ends now has ended for good, and no input is retried.
 */
gboolean
probe_stop_requested (void)
{
  gboolean requested;

  g_mutex_lock (&stop.lock);
  requested = stop.first_signal != 0;
  g_mutex_unlock (&stop.lock);
  return requested;
}

/**
 * probe_stop_ending:
 *
 * Every input has ended (its end, an error, a failed output, or the first
 * signal) and the lines are out: no deadline runs any more, and a signal
 * stops the probe at once while the probe finishes.
 */
void
probe_stop_ending (void)
{
  GPtrArray *playing;
  guint i;

  g_mutex_lock (&stop.lock);
  stop.phase = ENDING;
  playing = stop.playing;
  stop.playing = g_ptr_array_new ();
  g_mutex_unlock (&stop.lock);
  for (i = 0; i < playing->len; i++)
    gst_object_unref (g_ptr_array_index (playing, i));
  g_ptr_array_unref (playing);
}
