/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram-probe: decodes a video file, a URI or a camera, runs every
 * frame through clhistogram and prints each `histogram` and `exposure`
 * message as one line of JSON (JSON Lines) on stdout, as it comes; --check
 * also compares every frame's histogram metas with the golden reference.
 *
 *   clhistogram-probe [OPTION...] FILE-OR-URI
 *   clhistogram-probe --version
 *
 * Exit status: 0 done; 1 the input could not be read or decoded, the
 * element failed, or --check or --expect-frames found a difference; 2 bad
 * options; 3 stdout could not be written; 128 + the signal's number when
 * SIGINT or SIGTERM stopped it at once (probe-stop.c). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>

#include "probe-check.h"
#include "probe-json.h"
#include "probe-metrics.h"
#include "probe-options.h"
#include "probe-output.h"
#include "probe-pipeline.h"
#include "probe-stop.h"

enum
{
  EXIT_DONE = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  /* Closed, full, its reader gone: the JSON cannot go out. */
  EXIT_OUTPUT = 3,
};

typedef struct
{
  gchar *mode;
  gchar *bins;
  gchar *range_min;
  gchar *range_max;
  gchar *interval;
  gchar *regions;
  gchar *zones;
  gchar *percentiles;
  gchar *clip_low_level;
  gchar *clip_high_level;
  gchar *metering;
  gchar *metering_weights;
  gchar *alert_clipped;
  gchar *alert_crushed;
  gchar *alert_hysteresis;
  gchar *alert_hold;
  gchar *device;
  gchar *format;
  gchar *metrics;
  gint width;
  gint height;
  gboolean as_decoded;
  gboolean no_counts;
  gboolean no_statistics;
  gboolean check;
  gboolean quiet;
  gboolean sync;
  gboolean version;
  gint max_frames;
  gint expect_frames;
} Options;

typedef struct
{
  const Options *opt;
  const gchar *input;
  ProbePipeline *pipe;
  ProbeCheck *check;
  /* The JSON's writer; NULL with --quiet. */
  ProbeOutput *out;
  /* --metrics' server; NULL without. */
  ProbeMetrics *metrics;
  GMainLoop *loop;
  gboolean ending;
  /* Frames that reached the sink: counted on the streaming thread, read
   * once the pipeline is down. */
  guint frames;
  /* The same count for the progress line, read while it runs. */
  gint progress_frames;
  gboolean progress_shown;
  gchar *device_name;
  gchar *error;
  /* The errno of stdout's failed write or close, 0. */
  gint output_error;
  /* Descriptor 1 is stderr's by now: whether the JSON's is a terminal. */
  gboolean stdout_is_tty;
} Probe;

static void
options_clear (Options *opt)
{
  g_free (opt->mode);
  g_free (opt->bins);
  g_free (opt->range_min);
  g_free (opt->range_max);
  g_free (opt->interval);
  g_free (opt->regions);
  g_free (opt->zones);
  g_free (opt->percentiles);
  g_free (opt->clip_low_level);
  g_free (opt->clip_high_level);
  g_free (opt->metering);
  g_free (opt->metering_weights);
  g_free (opt->alert_clipped);
  g_free (opt->alert_crushed);
  g_free (opt->alert_hysteresis);
  g_free (opt->alert_hold);
  g_free (opt->device);
  g_free (opt->format);
  g_free (opt->metrics);
}

/* The options that mirror a property, in an order where none depends on
 * one set later. */
static gboolean
apply_options (GstElement *histogram, const Options *opt, GError **error)
{
  const struct
  {
    const gchar *property;
    const gchar *text;
  } plain[] = {
    {"mode", opt->mode}, {"bins", opt->bins}, {"range-min", opt->range_min},
    {"range-max", opt->range_max}, {"zones", opt->zones},
    {"interval", opt->interval}, {"device", opt->device},
    {"clip-low-level", opt->clip_low_level},
    {"clip-high-level", opt->clip_high_level},
    {"metering", opt->metering}, {"alert-clipped", opt->alert_clipped},
    {"alert-crushed", opt->alert_crushed},
    {"alert-hysteresis", opt->alert_hysteresis},
    {"alert-hold", opt->alert_hold},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (plain); i++)
    if (plain[i].text && !probe_set_property (histogram, plain[i].property,
            plain[i].text, error))
      return FALSE;
  if (opt->regions && !probe_set_regions (histogram, opt->regions, error))
    return FALSE;
  if (opt->percentiles
      && !probe_set_percentiles (histogram, opt->percentiles, error))
    return FALSE;
  if (opt->metering_weights && !probe_set_doubles (histogram,
          "metering-weights", opt->metering_weights, "0,1,0,1,4,1,0,1,0",
          error))
    return FALSE;
  if (opt->no_statistics
      && !probe_set_boolean (histogram, "statistics", FALSE, error))
    return FALSE;
  /* The element then builds no counts the probe would drop. */
  if (opt->no_counts
      && !probe_set_boolean (histogram, "message-counts", FALSE, error))
    return FALSE;
  if (!opt->as_decoded) {
    if (opt->format && !probe_check_format (opt->format, error))
      return FALSE;
    /* -1: not given. */
    if (opt->width == 0 || opt->width < -1 || opt->height == 0
        || opt->height < -1) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--%s: give a size of 1 pixel or more",
          opt->width == 0 || opt->width < -1 ? "width" : "height");
      return FALSE;
    }
  }
  return TRUE;
}

/* An error's text may run over several lines; the probe says why in
 * one. */
static gchar *
one_line (const gchar *text)
{
  gchar *line = g_strstrip (g_strdup (text));

  g_strdelimit (line, "\r\n", ' ');
  return line;
}

/* A line at a time, at once, so that a script reading a camera's output
 * sees each frame as it is counted. An `exposure` line says so in its
 * `message` member. */
static void
print_message (Probe *probe, const GstStructure *s)
{
  const gboolean exposure = gst_structure_has_name (s, "exposure");
  gchar *json = probe_json_of_message (s, exposure ? "exposure" : NULL,
      probe->opt->no_counts ? "counts" : NULL);

  probe_output_push (probe->out, g_strconcat (json, "\n", NULL));
  g_free (json);
}

/* Histogram messages become lines on the thread that posts them, in the
 * order it posts them, and that thread waits while the writer is behind:
 * the bus would keep them without bound, and its watch runs on the main
 * thread, which must stay free for the end of the stream. */
static GstBusSyncReply
on_sync_message (GstBus *bus, GstMessage *msg, gpointer user_data)
{
  Probe *probe = user_data;
  const GstStructure *s;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:
      s = gst_message_get_structure (msg);
      if (GST_MESSAGE_SRC (msg) != GST_OBJECT (probe->pipe->histogram)
          || !(gst_structure_has_name (s, "histogram")
              || gst_structure_has_name (s, "exposure")))
        break;
      probe_metrics_take_message (probe->metrics, probe->input, s);
      if (probe->out)
        print_message (probe, s);
      /* A sync handler that drops a message owns it. */
      gst_message_unref (msg);
      return GST_BUS_DROP;
    case GST_MESSAGE_STATE_CHANGED:
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (probe->pipe->pipeline)) {
        GstState state;

        gst_message_parse_state_changed (msg, NULL, &state, NULL);
        if (state == GST_STATE_PLAYING) {
          probe_stop_running (probe->pipe->pipeline);
          probe_metrics_set_up (probe->metrics, probe->input, TRUE);
        }
      }
      break;
    default:
      break;
  }
  return GST_BUS_PASS;
}

static gboolean
quit_loop (gpointer user_data)
{
  Probe *probe = user_data;

  g_main_loop_quit (probe->loop);
  return G_SOURCE_REMOVE;
}

/* The stream ended, by its end or an error: the lines queued still go
 * out, and the loop ends once they have (the writer's on_end). */
static void
end_stream (Probe *probe)
{
  if (probe->ending)
    return;
  probe->ending = TRUE;
  probe_metrics_set_up (probe->metrics, probe->input, FALSE);
  if (probe->out)
    probe_output_finish (probe->out);
  else
    g_idle_add (quit_loop, probe);
}

static void
take_error (Probe *probe, GstMessage *msg)
{
  GError *err = NULL;
  gchar *text;

  gst_message_parse_error (msg, &err, NULL);
  text = one_line (err->message);
  /* The first error says why; those after it are its consequences. */
  if (!probe->error)
    probe->error = g_strdup_printf ("%s: %s",
        GST_MESSAGE_SRC (msg) == GST_OBJECT (probe->pipe->histogram) ?
        "clhistogram" : probe->input, text);
  g_free (text);
  g_error_free (err);
}

static void
print_warning (Probe *probe, GstMessage *msg)
{
  GError *err = NULL;
  gchar *text;

  gst_message_parse_warning (msg, &err, NULL);
  text = one_line (err->message);
  g_printerr ("clhistogram-probe: warning from %s: %s\n",
      GST_MESSAGE_SRC_NAME (msg), text);
  g_free (text);
  g_error_free (err);
}

static gboolean
on_message (GstBus *bus, GstMessage *msg, gpointer user_data)
{
  Probe *probe = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      take_error (probe, msg);
      end_stream (probe);
      break;
    case GST_MESSAGE_WARNING:
      print_warning (probe, msg);
      break;
    case GST_MESSAGE_EOS:
      end_stream (probe);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* The writer wrote every line, or failed: in both cases the run is over,
 * and a failed writer stops the stream at once. */
static gboolean
on_output_end (gpointer user_data)
{
  return quit_loop (user_data);
}

static GstFlowReturn
on_new_sample (GstAppSink *sink, gpointer user_data)
{
  Probe *probe = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);

  if (!sample)
    return GST_FLOW_FLUSHING;
  if (probe->check)
    probe_check_sample (probe->check, sample);
  probe->frames++;
  g_atomic_int_inc (&probe->progress_frames);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* The error a failed state change posted, or words for one that posted
 * none. */
static void
take_start_failure (Probe *probe)
{
  GstBus *bus = gst_element_get_bus (probe->pipe->pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg) {
    take_error (probe, msg);
    gst_message_unref (msg);
  } else {
    probe->error = g_strdup_printf ("%s: the pipeline could not start",
        probe->input);
  }
  gst_object_unref (bus);
}

/* Where a long run is, once a second on a terminal's stderr, so that a
 * check of a long clip with no JSON on the terminal is not silent for
 * minutes. */
static gboolean
on_progress (gpointer user_data)
{
  Probe *probe = user_data;

  g_printerr ("\rclhistogram-probe: %d frames%s",
      g_atomic_int_get (&probe->progress_frames),
      probe->check ? " checked so far" : "");
  probe->progress_shown = TRUE;
  return G_SOURCE_CONTINUE;
}

/* Shows progress only where someone watches it and JSON does not fill the
 * same terminal. */
static gboolean
wants_progress (const Probe *probe)
{
  return isatty (STDERR_FILENO) && (probe->opt->quiet
      || !probe->stdout_is_tty);
}

static void
clear_progress (Probe *probe)
{
  if (probe->progress_shown)
    g_printerr ("\r\033[K");
  probe->progress_shown = FALSE;
}

static void
run (Probe *probe)
{
  GstAppSinkCallbacks callbacks = { NULL };
  GstBus *bus = gst_element_get_bus (probe->pipe->pipeline);
  guint bus_watch, progress = 0;

  callbacks.new_sample = on_new_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (probe->pipe->sink), &callbacks,
      probe, NULL);
  probe->loop = g_main_loop_new (NULL, FALSE);
  gst_bus_set_sync_handler (bus, on_sync_message, probe, NULL);
  bus_watch = gst_bus_add_watch (bus, on_message, probe);
  if (wants_progress (probe))
    progress = g_timeout_add_seconds (1, on_progress, probe);

  if (gst_element_set_state (probe->pipe->pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE) {
    take_start_failure (probe);
    end_stream (probe);
  }
  g_main_loop_run (probe->loop);
  probe_stop_ending ();

  /* The element lets its device go at NULL. */
  g_object_get (probe->pipe->histogram, "device-name", &probe->device_name,
      NULL);
  gst_element_set_state (probe->pipe->pipeline, GST_STATE_NULL);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  if (progress)
    g_source_remove (progress);
  clear_progress (probe);
  g_source_remove (bus_watch);
  g_main_loop_unref (probe->loop);
  gst_object_unref (bus);
}

/* What to exit with once the pipeline is down, saying why on stderr. */
static gint
conclude (Probe *probe)
{
  const Options *opt = probe->opt;
  gint status = EXIT_DONE;

  if (probe->error) {
    g_printerr ("clhistogram-probe: %s\n", probe->error);
    status = EXIT_FAILED;
  }
  /* The reader gone (EPIPE) is a failure too: the lines it missed were
   * counted for nothing, and a pipeline's status should say so. */
  if (probe->output_error) {
    g_printerr ("clhistogram-probe: cannot write the JSON on stdout: %s\n",
        g_strerror (probe->output_error));
    status = EXIT_OUTPUT;
  }
  /* A summary of no frames would only repeat the error. */
  if (probe->check && (!probe->error
          || probe_check_get_frames (probe->check) > 0)) {
    gchar *summary = probe_check_summary (probe->check, probe->input,
        probe->device_name);

    g_printerr ("%s\n", summary);
    if (probe_check_get_differing (probe->check) > 0
        || probe_check_get_frames (probe->check) == 0)
      status = EXIT_FAILED;
    g_free (summary);
  }
  if (opt->expect_frames >= 0 && probe->frames != (guint) opt->expect_frames) {
    g_printerr ("clhistogram-probe: expected %d frames, got %u\n",
        opt->expect_frames, probe->frames);
    status = EXIT_FAILED;
  }
  return status;
}

static gboolean
parse_options (Options *opt, gint *argc, gchar ***argv, GError **error)
{
  const GOptionEntry entries[] = {
    {"mode", 'm', 0, G_OPTION_ARG_STRING, &opt->mode,
        "What to count (the element's mode): luma, channels, max, hue, "
          "hue-saturation, rgb", "luma"},
    {"bins", 'b', 0, G_OPTION_ARG_STRING, &opt->bins,
        "Bins per channel (default: the element's for the mode)", "N"},
    {"range-min", 0, 0, G_OPTION_ARG_STRING, &opt->range_min,
        "Smallest sample value binned", "V"},
    {"range-max", 0, 0, G_OPTION_ARG_STRING, &opt->range_max,
        "Largest sample value binned (-1: the format's maximum)", "V"},
    {"interval", 0, 0, G_OPTION_ARG_STRING, &opt->interval,
        "One message per this much running time, in ns (0: one per frame)",
          "NS"},
    {"zones", 0, 0, G_OPTION_ARG_STRING, &opt->zones,
        "A grid of C x R zones, each with its histogram", "CxR"},
    {"regions", 0, 0, G_OPTION_ARG_STRING, &opt->regions,
        "Rectangles, each with its histogram: x,y,w,h;x,y,w,h or "
          "<<x,y,w,h>,...>", "RECTS"},
    {"percentiles", 0, 0, G_OPTION_ARG_STRING, &opt->percentiles,
        "Percentiles reported, each 0..100", "1,10,50,90,99"},
    {"clip-low-level", 0, 0, G_OPTION_ARG_STRING, &opt->clip_low_level,
        "Samples at or below this level are clipped-low, in percent of the "
          "nominal range (0: nominal black)", "PERCENT"},
    {"clip-high-level", 0, 0, G_OPTION_ARG_STRING, &opt->clip_high_level,
        "Samples at or above this level are clipped-high, in percent of the "
          "nominal range (100: nominal white; 95: a zebra level)",
          "PERCENT"},
    {"metering", 0, 0, G_OPTION_ARG_STRING, &opt->metering,
        "The metering value: average, centre-weighted, spot, zones (with "
          "--metering-weights), none; all but average weigh --zones",
          "average"},
    {"metering-weights", 0, 0, G_OPTION_ARG_STRING, &opt->metering_weights,
        "--metering zones: one weight per zone, row by row",
          "0,1,0,1,4,1,0,1,0"},
    {"alert-clipped", 0, 0, G_OPTION_ARG_STRING, &opt->alert_clipped,
        "Print an exposure alert when the frame or a zone has this percent "
          "of its samples clipped high, and when it clears (0: off)",
          "PERCENT"},
    {"alert-crushed", 0, 0, G_OPTION_ARG_STRING, &opt->alert_crushed,
        "The same for samples clipped low (crushed)", "PERCENT"},
    {"alert-hysteresis", 0, 0, G_OPTION_ARG_STRING, &opt->alert_hysteresis,
        "Percentage points under the threshold an alert clears at",
          "POINTS"},
    {"alert-hold", 0, 0, G_OPTION_ARG_STRING, &opt->alert_hold,
        "How long a change must last before it is reported, in ns of "
          "running time", "NS"},
    {"no-statistics", 0, 0, G_OPTION_ARG_NONE, &opt->no_statistics,
        "Leave the statistics out (min, max, mean, percentiles, ...)", NULL},
    {"no-counts", 0, 0, G_OPTION_ARG_NONE, &opt->no_counts,
        "Print no counts, at the top level or in regions: statistics only",
          NULL},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &opt->device,
        "OpenCL device: auto, P:D as clinfo -l numbers them, or part of a "
          "name", "auto"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &opt->format,
        "Convert to this raw format first (GRAY8, RGBA, NV12, ...)", "FORMAT"},
    {"width", 'W', 0, G_OPTION_ARG_INT, &opt->width,
        "Scale to this width first", "PIXELS"},
    {"height", 'H', 0, G_OPTION_ARG_INT, &opt->height,
        "Scale to this height first", "PIXELS"},
    {"as-decoded", 0, 0, G_OPTION_ARG_NONE, &opt->as_decoded,
        "Count the frames as decoded: ignore --format, --width and --height",
          NULL},
    {"check", 'c', 0, G_OPTION_ARG_NONE, &opt->check,
        "Compare every frame's histogram metas with the golden reference; "
          "a summary on stderr, exit status 1 on any difference", NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt->quiet,
        "Print no JSON lines", NULL},
    {"metrics", 0, 0, G_OPTION_ARG_STRING, &opt->metrics,
        "Serve the statistics to Prometheus on http://ADDRESS:PORT/metrics "
          "(:PORT: every interface; [IPV6]:PORT; port 0: any free one)",
          "ADDRESS:PORT"},
    {"sync", 0, 0, G_OPTION_ARG_NONE, &opt->sync,
        "Count frames at the input's own rate (the sink waits for the "
          "clock), as a camera delivers them", NULL},
    {"max-frames", 'n', 0, G_OPTION_ARG_INT, &opt->max_frames,
        "Stop after this many frames", "N"},
    {"expect-frames", 0, 0, G_OPTION_ARG_INT, &opt->expect_frames,
        "Exit with status 1 unless exactly this many frames were counted",
          "N"},
    {"version", 0, 0, G_OPTION_ARG_NONE, &opt->version,
        "Print the probe's version, GStreamer's and the clhistogram "
          "plugin's, and exit", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("FILE-OR-URI");
  gboolean ok;

  g_option_context_set_summary (ctx, "Histograms of every frame of a video "
      "file, a URI or a camera (/dev/videoN), counted by clhistogram and "
      "printed as JSON Lines: one object per histogram message, with pts, "
      "duration and every field of the message (the metering value "
      "among them), and one per exposure alert (\"message\": "
      "\"exposure\").");
  g_option_context_set_description (ctx, "Exit status: 0 done; 1 the input "
      "could not be read or decoded, or --check or --expect-frames failed;\n"
      "2 bad options; 3 stdout could not be written (closed, full, its "
      "reader gone).\nCtrl-C (or SIGTERM) ends the stream (exit status 0); "
      "a second one, one during start-up,\nor a stream that has not ended "
      "5 s later stops at once: exit status 130 (143 for SIGTERM).\n"
      "\n"
      "Examples:\n"
      "  # every frame against the golden reference, as the tests check it\n"
      "  clhistogram-probe --check --quiet --format GRAY8 --width 600 "
      "--height 480 \\\n"
      "      --mode luma --expect-frames 795 data/vtest.avi\n"
      "  # a camera: 3x3 zones, an alert line when 2 % of a zone clips\n"
      "  clhistogram-probe --zones 3x3 --alert-clipped 2 --no-counts "
      "/dev/video0\n"
      "  # a network stream, one line a second\n"
      "  clhistogram-probe --interval 1000000000 --no-counts "
      "rtsp://camera.local/stream\n"
      "  # a camera's statistics for Prometheus, at its own pace\n"
      "  clhistogram-probe --quiet --metrics 127.0.0.1:9610 --interval "
      "1000000000 /dev/video0\n"
      "  # each frame's time, mean luma and percentiles\n"
      "  clhistogram-probe --no-counts data/vtest.avi | jq -c "
      "'[.pts / 1e9, .mean[0], .percentiles[0]]'\n"
      "\n"
      "See man clhistogram-probe for the JSON's fields and more examples.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, argc, argv, error);
  g_option_context_free (ctx);
  if (ok && opt->version)
    return TRUE;
  if (ok && *argc != 2)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        *argc < 2 ? "give a video file, URI or /dev/videoN (see --help)" :
        "give one video file, URI or /dev/videoN, not %d (see --help)",
        *argc - 1);
  return ok && *argc == 2;
}

/* The probe's version, the GStreamer it runs on (and the one it was built
 * with) and the clhistogram plugin GStreamer would load, so that a probe
 * and a plugin of different releases show: the probe's options are the
 * element's properties. */
static gchar *
version_text (void)
{
  GString *text = g_string_new (NULL);
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (),
      "clhistogram");
  gchar *gst_version = gst_version_string ();

  g_string_append_printf (text, "clhistogram-probe %s\n", PACKAGE_VERSION);
  g_string_append_printf (text, "%s (built with %d.%d.%d)\n", gst_version,
      GST_VERSION_MAJOR, GST_VERSION_MINOR, GST_VERSION_MICRO);
  if (plugin) {
    const gchar *filename = gst_plugin_get_filename (plugin);
    const gchar *version = gst_plugin_get_version (plugin);

    g_string_append_printf (text, "clhistogram plugin %s (%s)%s\n", version,
        filename ? filename : "static", g_strcmp0 (version,
            PACKAGE_VERSION) ? ": not the probe's release" : "");
    gst_object_unref (plugin);
  } else {
    g_string_append (text, "clhistogram plugin: not found (GStreamer looks "
        "in GST_PLUGIN_PATH, then its system folder)\n");
  }
  g_free (gst_version);
  return g_string_free (text, FALSE);
}

/* --version: on stdout, which still is descriptor 1 and @out_fd. */
static gint
print_version (gint out_fd)
{
  gchar *text = version_text ();
  gint error = 0;

  if (out_fd < 0)
    error = EBADF;
  else if (probe_write_all (out_fd, text, strlen (text), &error)
      && close (out_fd) != 0)
    error = errno;
  g_free (text);
  if (error) {
    g_printerr ("clhistogram-probe: cannot write the version on stdout: "
        "%s\n", g_strerror (error));
    return EXIT_OUTPUT;
  }
  return EXIT_DONE;
}

/* --metrics: listening before the input opens, so that a scrape shows the
 * input from the start; the URL said on stderr, as bound. */
static gboolean
open_metrics (Probe *probe, gint *status)
{
  GError *err = NULL;
  gchar *url;

  if (!probe->opt->metrics)
    return TRUE;
  probe->metrics = probe_metrics_new (probe->opt->metrics, &err);
  if (!probe->metrics) {
    g_printerr ("clhistogram-probe: --metrics: %s\n", err->message);
    *status = g_error_matches (err, G_OPTION_ERROR,
        G_OPTION_ERROR_BAD_VALUE) ? EXIT_USAGE : EXIT_FAILED;
    g_error_free (err);
    return FALSE;
  }
  probe_metrics_add_input (probe->metrics, probe->input);
  url = probe_metrics_get_url (probe->metrics);
  g_printerr ("clhistogram-probe: metrics on %s\n", url);
  g_free (url);
  return TRUE;
}

/* The JSON's writer, for the run; NULL with --quiet. */
static void
open_output (Probe *probe, gint out_fd)
{
  probe->stdout_is_tty = out_fd >= 0 && isatty (out_fd);
  if (probe->opt->quiet) {
    if (out_fd >= 0)
      close (out_fd);
    return;
  }
  probe->out = probe_output_new (out_fd, on_output_end, probe);
  probe_stop_watch_output (probe->out);
}

static void
close_output (Probe *probe)
{
  gint error;

  if (!probe->out)
    return;
  probe_stop_watch_output (NULL);
  error = probe_output_close (probe->out);
  probe->out = NULL;
  if (!probe->output_error)
    probe->output_error = error;
}

static gint
probe_input (const Options *opt, const gchar *input, gint out_fd)
{
  Probe probe = { opt, input };
  GError *err = NULL;
  gint status;

  probe.pipe = probe_pipeline_new (&err);
  if (!probe.pipe) {
    g_printerr ("clhistogram-probe: %s\n", err->message);
    g_error_free (err);
    return EXIT_FAILED;
  }
  if (!apply_options (probe.pipe->histogram, opt, &err)) {
    g_printerr ("clhistogram-probe: %s\n", err->message);
    status = EXIT_USAGE;
  } else if ((!opt->as_decoded && !probe_pipeline_convert (probe.pipe,
              opt->format, opt->width, opt->height, &err))
      || !probe_pipeline_set_input (probe.pipe, input, &err)) {
    g_printerr ("clhistogram-probe: %s\n", err->message);
    status = EXIT_FAILED;
  } else if (open_metrics (&probe, &status)) {
    g_object_set (probe.pipe->sink, "sync", opt->sync, NULL);
    probe_pipeline_limit_frames (probe.pipe, MAX (opt->max_frames, 0));
    if (opt->check)
      probe.check = probe_check_new (probe.pipe->histogram);
    open_output (&probe, out_fd);
    run (&probe);
    close_output (&probe);
    status = conclude (&probe);
  }
  g_clear_error (&err);
  probe_check_free (probe.check);
  probe_pipeline_free (probe.pipe);
  probe_metrics_free (probe.metrics);
  g_free (probe.device_name);
  g_free (probe.error);
  return status;
}

int
main (int argc, char **argv)
{
  /* Before anything opens a descriptor or starts a thread. */
  gint out_fd = probe_output_claim_stdout ();
  Options opt = { NULL };
  GError *err = NULL;
  gint status;

  probe_stop_init ();
  opt.width = opt.height = opt.expect_frames = -1;
  if (!parse_options (&opt, &argc, &argv, &err)) {
    g_printerr ("clhistogram-probe: %s\n", err->message);
    g_error_free (err);
    options_clear (&opt);
    return EXIT_USAGE;
  }
  if (opt.version) {
    status = print_version (out_fd);
    options_clear (&opt);
    gst_deinit ();
    return status;
  }
  probe_output_release_stdout ();
  /* Said before the input is opened rather than after a run whose lines
   * all went nowhere. */
  if (out_fd < 0 && !opt.quiet) {
    g_printerr ("clhistogram-probe: stdout is closed: redirect it (or give "
        "--quiet) to run\n");
    options_clear (&opt);
    return EXIT_OUTPUT;
  }
  status = probe_input (&opt, argv[1], out_fd);
  options_clear (&opt);
  /* Releases what GStreamer holds, so that the leaks tracer sees only
   * what was really left behind. */
  gst_deinit ();
  return status;
}
