/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One input of the probe: its pipeline's life, from start to end, and a
 * live input's retries.
 *
 * Each input is a pipeline of its own (probe-pipeline.c), so that one can
 * be taken down and built again while the others run. Its states, kept on
 * the main loop:
 *
 *   NEW       its first pipeline built, not started
 *   RUNNING   its pipeline starts or plays
 *   STOPPING  its pipeline goes down
 *   WAITING   a live input waits for its retry
 *   ENDED     no pipeline and no retry to come
 *
 * State changes run on a thread of the input's own (a GThreadPool of one
 * thread), in the order asked: a source that blocks in one (a device or a
 * FIFO that never opens, a server that does not answer) blocks neither the
 * main loop nor the other inputs, and a pipeline is never set playing
 * after it was set to stop.
 *
 * A live input (anything but a local file: a network stream, a camera)
 * whose pipeline fails, whose stream ends (a camera's stream that ends has
 * dropped) or stalls (no frame for --stall-timeout) goes down: an
 * `input-down` line, then a new pipeline after a wait of 1 s, doubling up
 * to --retry-max, back to 1 s after a run that lasted RESET_AFTER_S; the
 * first frame of each run gives an `input-up` line. A local file's end
 * ends the input; its error too, reported at the end.
 *
 * With --monitor-pictures, each run's pipeline has a branch that makes
 * the input's monitor picture (probe-picture.c), handed to the metrics'
 * server; its errors give up the pictures, never the input (they never
 * reach the bus). */
#include "probe-input.h"

#include <gst/app/gstappsink.h>

#include "probe-check.h"
#include "probe-descriptors.h"
#include "probe-json.h"
#include "probe-losses.h"
#include "probe-pipeline.h"
#include "probe-uri.h"
#include "probe-stop.h"

/* A run this long (seconds from its first frame) is a recovery: the
 * next wait starts again at 1 s. A camera that drops every few seconds
 * keeps its longer waits. */
#define RESET_AFTER_S 60
/* A run that has not stopped this long after it was told to has a
 * source stuck in a read that nothing else interrupts: its connections
 * are cut (probe-connections.c), again each second until it stops. */
#define CUT_AFTER_S 2
/* The application message a state change that failed posts, after the
 * error it may have posted. */
#define START_FAILED "probe-start-failed"

typedef enum
{
  NEW,
  RUNNING,
  STOPPING,
  WAITING,
  ENDED,
} State;

typedef struct
{
  ProbePipeline *pipe;
  gboolean play;
} Task;

struct _ProbeInput
{
  ProbeInputSpec *spec;
  const ProbeInputShared *shared;
  GThreadPool *worker;
  ProbeCheck *check;
  ProbeLosses *losses;
  /* Its element's alert-clipped and alert-crushed, percent. */
  gdouble alert_clipped;
  gdouble alert_crushed;
  /* --monitor-pictures, microseconds; 0: no picture. */
  gint64 picture_period_us;

  /* The main loop's. */
  State state;
  ProbePipeline *pipe;
  /* Why the first pipeline could not be built. */
  gchar *start_error;
  /* Why the run stopping went down; NULL where the input ends. */
  gchar *down_reason;
  guint stall_source;
  guint cut_source;
  guint retry_source;
  /* A reload's deadline for the stream to end (probe_input_stop()),
   * and its length in seconds. */
  guint end_source;
  guint end_timeout_s;
  gint64 run_started;
  /* The next wait before a retry, in seconds. */
  guint retry_wait;
  guint downs;
  gboolean end_requested;
  /* Why a local file failed: the first error, one line. */
  gchar *error;

  /* Shared with the streaming threads and the worker. */
  GMutex lock;
  /* The run is going down: its pipeline's PLAYING no longer counts. */
  gboolean stopping;
  /* The run had its first frame. */
  gboolean up;
  /* The run holds descriptors kept for its start (probe-descriptors.c). */
  gboolean reserved;
  gint64 up_since;
  gint64 last_frame;
  /* The last frame's duration, to count the frames a QoS message gives
   * as a duration. */
  GstClockTime frame_duration;
  guint ups;
  guint64 frames;
  gchar *device_name;
};

/* An error's text may run over several lines; the probe says why in
 * one, without the password of a URI a source put in it. */
static gchar *
one_line (const gchar *text)
{
  gchar *line = g_strstrip (probe_uri_redact (text));

  g_strdelimit (line, "\r\n", ' ');
  return line;
}

/* @json (freed) as a line. */
static gchar *
line_of (gchar *json)
{
  gchar *line = g_strconcat (json, "\n", NULL);

  g_free (json);
  return line;
}

static void
push_line (ProbeInput *input, gchar *json)
{
  probe_output_push (input->shared->out, line_of (json));
}

/* A `histogram` or `exposure` message of the input's element, on the
 * thread that posts it: the one place where each message is taken. */
static void
take_message (ProbeInput *input, const GstStructure *s)
{
  const gboolean exposure = gst_structure_has_name (s, "exposure");

  probe_metrics_take_message (input->shared->metrics, input->spec->name, s);
  if (input->shared->out)
    push_line (input, probe_json_of_message (input->spec->name, s,
            exposure ? "exposure" : NULL,
            input->spec->settings.no_counts ? "counts" : NULL));
}

/* The first frame of a run, on its streaming thread, before the
 * messages it leads to: the one place where an input comes up. */
static void
report_up (ProbeInput *input, guint reconnects)
{
  probe_metrics_set_up (input->shared->metrics, input->spec->name, TRUE);
  if (input->spec->live && input->shared->out)
    push_line (input, probe_json_of_input_up (input->spec->name,
            reconnects));
}

/* A live input went down, once its pipeline is, so that its lines all
 * came before: the one place where an input goes down. */
static void
report_down (ProbeInput *input, const gchar *reason, guint retry_in)
{
  g_printerr ("clhistogram-probe: %s: input down (%s); retrying in %u s\n",
      input->spec->name, reason, retry_in);
  probe_metrics_set_up (input->shared->metrics, input->spec->name, FALSE);
  /* From the main loop, which must not wait for a slow reader. */
  if (input->shared->out) {
    probe_output_push_now (input->shared->out,
        line_of (probe_json_of_input_down (input->spec->name, reason,
                retry_in, input->downs)));
    probe_metrics_set_lines_dropped (input->shared->metrics,
        probe_output_get_dropped (input->shared->out));
  }
}

static gboolean
notify_ended (gpointer data)
{
  ProbeInput *input = data;

  input->shared->ended (input, input->shared->data);
  return G_SOURCE_REMOVE;
}

/* Always from the main loop, never from within a call of the main
 * program's. */
static void
finish (ProbeInput *input)
{
  probe_descriptors_forget (input);
  /* A file that failed is down for good, not at its end. */
  if (input->error)
    probe_metrics_set_up (input->shared->metrics, input->spec->name, FALSE);
  else
    probe_metrics_set_ended (input->shared->metrics, input->spec->name);
  input->state = ENDED;
  g_idle_add (notify_ended, input);
}

static gboolean on_stopped (gpointer data);

static gboolean
cut_connections (gpointer data)
{
  ProbeInput *input = data;
  const guint cut = probe_pipeline_cut_connections (input->pipe);

  if (cut > 0)
    g_printerr ("clhistogram-probe: %s: its source did not stop within "
        "%d s; cut its %u connection%s to the server\n", input->spec->name,
        CUT_AFTER_S, cut, cut == 1 ? "" : "s");
  input->cut_source = g_timeout_add_seconds (1, cut_connections, input);
  return G_SOURCE_REMOVE;
}

/* The worker's: a state change, in the order asked. */
static void
run_task (gpointer data, gpointer user_data)
{
  Task *task = data;
  ProbeInput *input = user_data;
  GstElement *pipeline = task->pipe->pipeline;
  gchar *device_name = NULL;

  if (task->play) {
    if (gst_element_set_state (pipeline, GST_STATE_PLAYING)
        == GST_STATE_CHANGE_FAILURE)
      gst_element_post_message (pipeline,
          gst_message_new_application (GST_OBJECT (pipeline),
              gst_structure_new_empty (START_FAILED)));
  } else {
    /* The element lets its device go at NULL. */
    g_object_get (task->pipe->histogram, "device-name", &device_name, NULL);
    gst_element_set_state (pipeline, GST_STATE_NULL);
    g_mutex_lock (&input->lock);
    if (device_name) {
      g_free (input->device_name);
      input->device_name = device_name;
    }
    g_mutex_unlock (&input->lock);
    g_idle_add (on_stopped, input);
  }
  g_free (task);
}

static void
push_task (ProbeInput *input, gboolean play)
{
  Task *task = g_new (Task, 1);

  task->pipe = input->pipe;
  task->play = play;
  g_thread_pool_push (input->worker, task, NULL);
}

/* Takes the run down: to end the input (@down_reason NULL) or to retry
 * it. Its lines still queued go out; its messages still on the bus are
 * dropped (the first error said why). */
static void
stop_run (ProbeInput *input, const gchar *down_reason)
{
  GstBus *bus;

  if (input->state != RUNNING)
    return;
  input->state = STOPPING;
  g_free (input->down_reason);
  input->down_reason = g_strdup (down_reason);
  if (input->stall_source)
    g_source_remove (input->stall_source);
  input->stall_source = 0;
  g_clear_handle_id (&input->end_source, g_source_remove);
  bus = gst_element_get_bus (input->pipe->pipeline);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  g_mutex_lock (&input->lock);
  input->stopping = TRUE;
  probe_stop_forget (input->pipe->pipeline);
  g_mutex_unlock (&input->lock);
  push_task (input, FALSE);
  input->cut_source = g_timeout_add_seconds (CUT_AFTER_S, cut_connections,
      input);
}

/* What the frame limit leaves to count; G_MAXUINT for no limit. */
static guint
frames_left (ProbeInput *input)
{
  const gint max = input->spec->settings.max_frames;
  guint64 frames;

  if (max <= 0)
    return G_MAXUINT;
  g_mutex_lock (&input->lock);
  frames = input->frames;
  g_mutex_unlock (&input->lock);
  return frames >= (guint64) max ? 0 : (guint) (max - frames);
}

static ProbePipeline *
build_pipeline (ProbeInput *input, GError **error)
{
  const ProbeSettings *s = &input->spec->settings;
  const guint left = frames_left (input);
  ProbePipeline *p = probe_pipeline_new (error);

  if (!p)
    return NULL;
  if (!probe_settings_apply (s, p->histogram, error)
      || (!s->as_decoded && !probe_pipeline_convert (p, s->format, s->width,
              s->height, error))
      || !probe_pipeline_set_input (p, input->spec->location, error)) {
    probe_pipeline_free (p);
    return NULL;
  }
  probe_pipeline_limit_frames (p, left == G_MAXUINT ? 0 : left);
  probe_pipeline_set_sync (p, s->sync);
  probe_pipeline_set_source_timeout (p, MAX (s->stall_timeout, 0));
  if (input->picture_period_us > 0 && !probe_pipeline_add_picture (p, s,
          input->picture_period_us, error)) {
    probe_pipeline_free (p);
    return NULL;
  }
  return p;
}

static GstFlowReturn
on_new_sample (GstAppSink *sink, gpointer user_data)
{
  ProbeInput *input = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);

  if (!sample)
    return GST_FLOW_FLUSHING;
  if (input->check)
    probe_check_sample (input->check, sample);
  if (input->shared->metrics
      && probe_losses_is_late (input->losses, GST_ELEMENT (sink), sample))
    probe_metrics_add_lost (input->shared->metrics, input->spec->name, 0, 1);
  g_mutex_lock (&input->lock);
  input->frames++;
  g_mutex_unlock (&input->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* A monitor picture made, on its branch's thread: the one that --metrics
 * serves from now on. */
static void
on_picture (GBytes *png, guint width, guint height, gpointer data)
{
  ProbeInput *input = data;

  probe_metrics_set_picture (input->shared->metrics, input->spec->name, png,
      width, height);
}

/* The monitor picture's branch failed (probe-picture.c): said on stderr
 * and on the index page; the frames are counted on without pictures. On
 * the thread of its error. */
static void
on_picture_error (const gchar *reason, gpointer data)
{
  ProbeInput *input = data;
  gchar *line = one_line (reason);

  g_printerr ("clhistogram-probe: %s: no monitor picture (%s); its frames "
      "are counted on\n", input->spec->name, line);
  probe_metrics_set_picture_error (input->shared->metrics, input->spec->name,
      line);
  g_free (line);
}

/* Under the lock. */
static void
release_descriptors (ProbeInput *input)
{
  if (!input->reserved)
    return;
  input->reserved = FALSE;
  probe_descriptors_release ();
}

/* Every frame that reaches the element: the stall's clock, and the
 * run's first frame. */
static GstPadProbeReturn
on_frame (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  ProbeInput *input = user_data;
  const gint64 now = g_get_monotonic_time ();
  gboolean first;
  guint ups;

  g_mutex_lock (&input->lock);
  first = !input->up;
  input->last_frame = now;
  input->frame_duration = GST_BUFFER_DURATION (gst_pad_probe_info_get_buffer
      (info));
  if (first) {
    input->up = TRUE;
    input->up_since = now;
    /* A run's first frame is past the start-up, even before the pipeline
     * says it plays (a synchronised sink prerolls on it): from its line
     * on, a signal ends the streams rather than the probe. */
    if (!input->stopping)
      probe_stop_running (input->pipe->pipeline);
  }
  ups = first ? ++input->ups : input->ups;
  release_descriptors (input);
  g_mutex_unlock (&input->lock);
  if (first)
    report_up (input, ups - 1);
  return GST_PAD_PROBE_OK;
}

/* Histogram messages become lines on the thread that posts them, in the
 * order it posts them, and that thread waits while the writer is behind:
 * the bus would keep them without bound, and its watch runs on the main
 * thread, which must stay free for the ends of the streams. */
static GstBusSyncReply
on_sync_message (GstBus *bus, GstMessage *msg, gpointer user_data)
{
  ProbeInput *input = user_data;
  const GstStructure *s;
  GstState state;
  GstClockTime frame_duration;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:
      s = gst_message_get_structure (msg);
      if (GST_MESSAGE_SRC (msg) != GST_OBJECT (input->pipe->histogram)
          || !(gst_structure_has_name (s, "histogram")
              || gst_structure_has_name (s, "exposure")))
        break;
      take_message (input, s);
      /* A sync handler that drops a message owns it. */
      gst_message_unref (msg);
      return GST_BUS_DROP;
    case GST_MESSAGE_STATE_CHANGED:
      if (GST_MESSAGE_SRC (msg) != GST_OBJECT (input->pipe->pipeline))
        break;
      gst_message_parse_state_changed (msg, NULL, &state, NULL);
      g_mutex_lock (&input->lock);
      if (state == GST_STATE_PLAYING && !input->stopping)
        probe_stop_running (input->pipe->pipeline);
      g_mutex_unlock (&input->lock);
      break;
    case GST_MESSAGE_QOS:
      g_mutex_lock (&input->lock);
      frame_duration = input->frame_duration;
      g_mutex_unlock (&input->lock);
      probe_metrics_add_lost (input->shared->metrics, input->spec->name,
          probe_losses_take_qos (input->losses, msg, frame_duration), 0);
      break;
    default:
      break;
  }
  return GST_BUS_PASS;
}

/* Why the run failed, one line: the element's errors say they are its. */
static gchar *
error_text (ProbeInput *input, GstMessage *msg)
{
  GError *err = NULL;
  gchar *text, *reason;

  gst_message_parse_error (msg, &err, NULL);
  /* A refused stream shows up as its source's "Internal data stream
   * error": said as what was refused, where the caps tell. */
  if ((err->domain == GST_STREAM_ERROR || g_error_matches (err,
              GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION))
      && (reason = probe_pipeline_explain_refusal (input->pipe))) {
    g_error_free (err);
    return reason;
  }
  text = one_line (err->message);
  reason = GST_MESSAGE_SRC (msg) == GST_OBJECT (input->pipe->histogram) ?
      g_strconcat ("clhistogram: ", text, NULL) : g_strdup (text);
  g_free (text);
  g_error_free (err);
  return reason;
}

/* Whether the run that ends is to be retried. */
static gboolean
retries (ProbeInput *input)
{
  return input->spec->live && !input->end_requested
      && !probe_stop_requested ();
}

static void
take_failure (ProbeInput *input, const gchar *reason)
{
  if (retries (input)) {
    stop_run (input, reason);
    return;
  }
  /* The first error says why; those after it are its consequences. A
   * live input's error at its end is no failure of the probe's. */
  if (!input->spec->live && !input->error)
    input->error = g_strdup_printf ("%s: %s", input->spec->name, reason);
  stop_run (input, NULL);
}

static void
take_eos (ProbeInput *input)
{
  if (retries (input) && !probe_pipeline_limit_reached (input->pipe))
    stop_run (input, "end of stream");
  else
    stop_run (input, NULL);
}

static void
print_warning (ProbeInput *input, GstMessage *msg)
{
  GError *err = NULL;
  gchar *text;

  gst_message_parse_warning (msg, &err, NULL);
  text = one_line (err->message);
  g_printerr ("clhistogram-probe: %s: warning from %s: %s\n",
      input->spec->name, GST_MESSAGE_SRC_NAME (msg), text);
  g_free (text);
  g_error_free (err);
}

static gboolean
on_message (GstBus *bus, GstMessage *msg, gpointer user_data)
{
  ProbeInput *input = user_data;
  gchar *reason;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      reason = error_text (input, msg);
      take_failure (input, reason);
      g_free (reason);
      break;
    case GST_MESSAGE_WARNING:
      print_warning (input, msg);
      break;
    case GST_MESSAGE_EOS:
      take_eos (input);
      break;
    case GST_MESSAGE_APPLICATION:
      if (gst_message_has_name (msg, START_FAILED))
        take_failure (input, "the pipeline could not start");
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
check_stall (gpointer data)
{
  ProbeInput *input = data;
  const gint timeout = input->spec->settings.stall_timeout;
  gint64 last;
  gchar *reason;

  g_mutex_lock (&input->lock);
  last = input->up ? input->last_frame : input->run_started;
  g_mutex_unlock (&input->lock);
  if (g_get_monotonic_time () - last < (gint64) timeout * G_USEC_PER_SEC)
    return G_SOURCE_CONTINUE;
  input->stall_source = 0;
  reason = g_strdup_printf ("no frame for %d s", timeout);
  stop_run (input, reason);
  g_free (reason);
  return G_SOURCE_REMOVE;
}

/* The run's pipeline is built: it plays, on the worker. */
static void
begin_run (ProbeInput *input)
{
  ProbePipeline *p = input->pipe;
  GstAppSinkCallbacks callbacks = { NULL };
  GstBus *bus = gst_element_get_bus (p->pipeline);
  GstPad *pad = gst_element_get_static_pad (p->histogram, "sink");

  if (input->spec->settings.check && !input->check)
    input->check = probe_check_new (p->histogram);
  callbacks.new_sample = on_new_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (p->sink), &callbacks, input,
      NULL);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_frame, input, NULL);
  gst_object_unref (pad);
  if (p->picture)
    probe_picture_set_callbacks (p->picture, on_picture, on_picture_error,
        input);
  gst_bus_set_sync_handler (bus, on_sync_message, input, NULL);
  gst_bus_add_watch (bus, on_message, input);
  gst_object_unref (bus);

  probe_losses_reset (input->losses);
  g_mutex_lock (&input->lock);
  input->stopping = FALSE;
  input->up = FALSE;
  input->reserved = TRUE;
  input->frame_duration = GST_CLOCK_TIME_NONE;
  g_mutex_unlock (&input->lock);
  input->state = RUNNING;
  input->run_started = g_get_monotonic_time ();
  if (input->spec->live && input->spec->settings.stall_timeout > 0)
    input->stall_source = g_timeout_add_seconds (1, check_stall, input);
  push_task (input, TRUE);
}

static gboolean on_retry (gpointer data);

/* A live input's run went down (@reason): reported, and retried after
 * the wait. */
static void
go_down (ProbeInput *input, const gchar *reason)
{
  const gint64 now = g_get_monotonic_time ();
  gint64 ran;
  guint retry_in;

  g_mutex_lock (&input->lock);
  ran = input->up ? now - input->up_since : 0;
  input->up = FALSE;
  g_mutex_unlock (&input->lock);
  if (ran >= RESET_AFTER_S * G_USEC_PER_SEC)
    input->retry_wait = 1;
  retry_in = input->retry_wait;
  input->retry_wait = MIN (input->retry_wait * 2,
      (guint) input->spec->settings.retry_max);
  input->downs++;
  report_down (input, reason, retry_in);
  /* A signal now ends the probe rather than stopping it at once. */
  probe_stop_leave_start_up ();
  input->state = WAITING;
  input->retry_source = g_timeout_add_seconds (retry_in, on_retry, input);
}

/* A run's pipeline could not be built (@message): a live input goes down
 * (a camera unplugged: its device node is gone for a while), a file
 * ends. The message names the file. */
static void
take_build_failure (ProbeInput *input, const gchar *message)
{
  if (input->spec->live) {
    go_down (input, message);
    return;
  }
  input->error = input->spec->named ?
      g_strdup_printf ("%s: %s", input->spec->name, message) :
      g_strdup (message);
  finish (input);
}

/* Whether the descriptors for a run are there (probe-descriptors.c);
 * if not, the input waits a second for the runs that start before it,
 * or goes down (a file ends) where the limit is too low. */
static gboolean
make_room (ProbeInput *input)
{
  gchar *reason = NULL;

  switch (probe_descriptors_reserve (input, &reason)) {
    case PROBE_DESCRIPTORS_KEPT:
      return TRUE;
    case PROBE_DESCRIPTORS_WAIT:
      input->state = WAITING;
      input->retry_source = g_timeout_add_seconds (1, on_retry, input);
      return FALSE;
    case PROBE_DESCRIPTORS_FULL:
    default:
      take_build_failure (input, reason);
      g_free (reason);
      return FALSE;
  }
}

/* A run: its descriptors kept, its pipeline built, started. */
static void
start_run (ProbeInput *input)
{
  GError *err = NULL;
  gchar *message;

  if (!make_room (input))
    return;
  input->pipe = build_pipeline (input, &err);
  if (input->pipe) {
    begin_run (input);
    return;
  }
  probe_descriptors_release ();
  message = one_line (err->message);
  take_build_failure (input, message);
  g_free (message);
  g_error_free (err);
}

static gboolean
on_retry (gpointer data)
{
  ProbeInput *input = data;

  input->retry_source = 0;
  /* A signal came and its request to end every input waits behind this
   * timeout on the main loop: no new run to start, and maybe to wait
   * for. */
  if (input->end_requested || probe_stop_requested ()) {
    finish (input);
    return G_SOURCE_REMOVE;
  }
  start_run (input);
  return G_SOURCE_REMOVE;
}

/* The run's pipeline is down, its lines all pushed. */
static gboolean
on_stopped (gpointer data)
{
  ProbeInput *input = data;
  GstBus *bus = gst_element_get_bus (input->pipe->pipeline);

  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  g_clear_handle_id (&input->cut_source, g_source_remove);
  g_clear_pointer (&input->pipe, probe_pipeline_free);
  g_mutex_lock (&input->lock);
  release_descriptors (input);
  g_mutex_unlock (&input->lock);
  if (input->down_reason && retries (input) && frames_left (input) > 0)
    go_down (input, input->down_reason);
  else
    finish (input);
  g_clear_pointer (&input->down_reason, g_free);
  return G_SOURCE_REMOVE;
}

/* --monitor-pictures, of a probe that serves them (--metrics): without
 * it, the option would silently do nothing. */
static gboolean
picture_period (ProbeInput *input, GError **error)
{
  if (!probe_settings_get_picture_period (&input->spec->settings,
          &input->picture_period_us, error))
    return FALSE;
  if (input->picture_period_us > 0 && !input->shared->serving) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--monitor-pictures: only with --metrics ADDRESS:PORT, which serves "
        "the pictures");
    return FALSE;
  }
  return TRUE;
}

/**
 * probe_input_new:
 * @spec: (transfer full): the input, freed with the #ProbeInput (or at
 *   once, on an error)
 * @shared: what the probe's inputs share, alive as long as the
 *   #ProbeInput is
 *
 * Builds a pipeline for the input, which checks its settings, and lets
 * it go.
 *
 * Returns: an input to start, or %NULL with @error where the probe cannot
 *   run: a bad setting (#G_OPTION_ERROR, a usage error, naming the key
 *   file and group it comes from; --monitor-pictures without --metrics
 *   among them) or a missing element
 *   (#GST_CORE_ERROR_MISSING_PLUGIN). An input that cannot be read
 *   (a missing file) is no such error: it ends as it starts, its error
 *   said at the end.
 */
ProbeInput *
probe_input_new (ProbeInputSpec *spec, const ProbeInputShared *shared,
    GError **error)
{
  ProbeInput *input = g_new0 (ProbeInput, 1);
  ProbePipeline *checked;
  GError *err = NULL;

  input->spec = spec;
  input->shared = shared;
  input->retry_wait = 1;
  input->losses = probe_losses_new ();
  g_mutex_init (&input->lock);
  input->worker = g_thread_pool_new (run_task, input, 1, FALSE, NULL);
  if (!picture_period (input, &err)) {
    if (spec->origin)
      g_prefix_error (&err, "%s ", spec->origin);
    g_propagate_error (error, err);
    probe_input_free (input);
    return NULL;
  }
  /* Let go at once: its bus's descriptors are not kept while the other
   * inputs are checked, and a run builds its own once there is room for
   * it (probe-descriptors.c). */
  checked = build_pipeline (input, &err);
  if (checked) {
    g_object_get (checked->histogram, "alert-clipped", &input->alert_clipped,
        "alert-crushed", &input->alert_crushed, NULL);
    probe_pipeline_free (checked);
    return input;
  }
  if (err->domain != G_OPTION_ERROR
      && !g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_MISSING_PLUGIN)) {
    input->start_error = one_line (err->message);
    g_error_free (err);
    return input;
  }
  if (err->domain == G_OPTION_ERROR && spec->origin)
    g_prefix_error (&err, "%s ", spec->origin);
  g_propagate_error (error, err);
  probe_input_free (input);
  return NULL;
}

/**
 * probe_input_add_metrics:
 *
 * Lists the input in the metrics (the shared ones: none without
 * --metrics), starting, with its exposure alerts' thresholds, before its
 * first run: a scrape shows them from the start.
 */
void
probe_input_add_metrics (ProbeInput *input)
{
  probe_metrics_add_input (input->shared->metrics, input->spec->name);
  probe_metrics_set_alerts (input->shared->metrics, input->spec->name,
      input->alert_clipped, input->alert_crushed);
  probe_metrics_set_picture_period (input->shared->metrics,
      input->spec->name, input->picture_period_us);
}

/**
 * probe_input_start:
 *
 * Starts the input's first run, or, where its first pipeline could not be
 * built, ends it (a file) or takes it down (a live input).
 */
void
probe_input_start (ProbeInput *input)
{
  g_return_if_fail (input->state == NEW);
  if (input->start_error)
    take_build_failure (input, input->start_error);
  else
    start_run (input);
}

/**
 * probe_input_end:
 *
 * A signal asked the inputs to end: a run that counts frames ends with
 * its stream (EOS, which probe-stop.c sent), flushing its interval; one
 * that has had no frame yet, or waits for a retry, ends now.
 */
void
probe_input_end (ProbeInput *input)
{
  gboolean up;

  input->end_requested = TRUE;
  switch (input->state) {
    case WAITING:
      g_source_remove (input->retry_source);
      input->retry_source = 0;
      finish (input);
      break;
    case RUNNING:
      g_mutex_lock (&input->lock);
      up = input->up;
      g_mutex_unlock (&input->lock);
      /* Nothing to flush, and a source that has no stream yet (a server
       * still connecting) may have none to end. */
      if (!up)
        stop_run (input, NULL);
      break;
    default:
      break;
  }
}

/**
 * probe_input_abort:
 *
 * The output failed: the input ends at once, without waiting for its
 * stream's end.
 */
void
probe_input_abort (ProbeInput *input)
{
  input->end_requested = TRUE;
  if (input->state == WAITING) {
    g_source_remove (input->retry_source);
    input->retry_source = 0;
    finish (input);
  } else {
    stop_run (input, NULL);
  }
}

static void
send_eos (GstElement *pipeline, gpointer unused)
{
  gst_element_send_event (pipeline, gst_event_new_eos ());
}

/* A reload's stop whose stream did not end in time (a source that does
 * not take EOS): the run stops at once, its frames in flight dropped. */
static gboolean
on_end_timeout (gpointer data)
{
  ProbeInput *input = data;

  input->end_source = 0;
  g_printerr ("clhistogram-probe: %s: its stream did not end within %u s "
      "of the reload (--stop-timeout); stopped at once\n", input->spec->name,
      input->end_timeout_s);
  stop_run (input, NULL);
  return G_SOURCE_REMOVE;
}

/**
 * probe_input_stop:
 * @timeout_s: how long its stream may take to end (--stop-timeout)
 *
 * A reload removed or changed the input: it ends as a signal ends it
 * (probe_input_end()), on its own. A run that counts frames gets EOS,
 * so that the frames in flight are counted and its partial interval
 * posted; if its stream has not ended @timeout_s seconds later, the run
 * stops at once. A run that has had no frame yet stops now; an input
 * waiting for its retry ends now; one that ended stays so. The probe
 * hears of its end as of any (#ProbeInputShared's ended), unless it had
 * ended before.
 */
void
probe_input_stop (ProbeInput *input, guint timeout_s)
{
  gboolean up;

  if (input->state == RUNNING) {
    g_mutex_lock (&input->lock);
    up = input->up;
    g_mutex_unlock (&input->lock);
    input->end_requested = TRUE;
    if (!up) {
      stop_run (input, NULL);
      return;
    }
    /* From GStreamer's thread pool, as probe-stop.c sends it: a source
     * may hold its stream lock while its thread waits for the writer. */
    gst_element_call_async (input->pipe->pipeline, send_eos, NULL, NULL);
    input->end_timeout_s = timeout_s;
    if (!input->end_source)
      input->end_source = g_timeout_add_seconds (timeout_s, on_end_timeout,
          input);
    return;
  }
  probe_input_end (input);
}

const gchar *
probe_input_get_name (const ProbeInput *input)
{
  return input->spec->name;
}

/**
 * probe_input_get_spec:
 *
 * Returns: (transfer none): the input and its settings, as built
 */
const ProbeInputSpec *
probe_input_get_spec (const ProbeInput *input)
{
  return input->spec;
}

/**
 * probe_input_get_frames:
 *
 * Returns: the frames counted so far, every run's. Safe from any thread.
 */
guint
probe_input_get_frames (ProbeInput *input)
{
  guint64 frames;

  g_mutex_lock (&input->lock);
  frames = input->frames;
  g_mutex_unlock (&input->lock);
  return (guint) MIN (frames, G_MAXUINT);
}

gboolean
probe_input_is_checking (const ProbeInput *input)
{
  return input->spec->settings.check;
}

/**
 * probe_input_conclude:
 *
 * Says on stderr, once the input ended, what failed: a file's error,
 * the --check summary, a count other than --expect-frames'.
 *
 * Returns: %FALSE if the input failed.
 */
gboolean
probe_input_conclude (ProbeInput *input)
{
  const gint expect = input->spec->settings.expect_frames;
  gboolean ok = TRUE;

  if (input->error) {
    g_printerr ("clhistogram-probe: %s\n", input->error);
    ok = FALSE;
  }
  /* A summary of no frames would only repeat the error. */
  if (input->check && (!input->error
          || probe_check_get_frames (input->check) > 0)) {
    gchar *summary = probe_check_summary (input->check, input->spec->name,
        input->device_name);

    g_printerr ("%s\n", summary);
    if (probe_check_get_differing (input->check) > 0
        || probe_check_get_frames (input->check) == 0)
      ok = FALSE;
    g_free (summary);
  }
  if (expect >= 0 && input->frames != (guint64) expect) {
    g_printerr ("clhistogram-probe: %s: expected %d frames, got %"
        G_GUINT64_FORMAT "\n", input->spec->name, expect, input->frames);
    ok = FALSE;
  }
  return ok;
}

void
probe_input_free (ProbeInput *input)
{
  if (!input)
    return;
  /* Waits for a state change still running. */
  g_thread_pool_free (input->worker, FALSE, TRUE);
  if (input->retry_source)
    g_source_remove (input->retry_source);
  if (input->stall_source)
    g_source_remove (input->stall_source);
  g_clear_handle_id (&input->cut_source, g_source_remove);
  g_clear_handle_id (&input->end_source, g_source_remove);
  probe_descriptors_forget (input);
  probe_pipeline_free (input->pipe);
  probe_check_free (input->check);
  probe_losses_free (input->losses);
  g_mutex_clear (&input->lock);
  g_free (input->start_error);
  g_free (input->down_reason);
  g_free (input->error);
  g_free (input->device_name);
  probe_inputs_spec_free (input->spec);
  g_free (input);
}
