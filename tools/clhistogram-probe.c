/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram-probe: decodes a video file, a URI or a camera, runs every
 * frame through clhistogram and prints each `histogram` message as one
 * line of JSON (JSON Lines) on stdout, as it comes; --check also compares
 * every frame's histogram metas with the golden reference.
 *
 *   clhistogram-probe [OPTION...] FILE-OR-URI
 *
 * Exit status: 0 done; 1 the input could not be read or decoded, the
 * element failed, or --check or --expect-frames found a difference; 2 bad
 * options. */
#include <stdio.h>
#include <unistd.h>
#include <glib-unix.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>

#include "probe-check.h"
#include "probe-json.h"
#include "probe-options.h"
#include "probe-pipeline.h"

enum
{
  EXIT_DONE = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  /* A second Ctrl-C, as shells report a process that SIGINT ended. */
  EXIT_INTERRUPTED = 130,
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
  gchar *device;
  gchar *format;
  gint width;
  gint height;
  gboolean as_decoded;
  gboolean no_counts;
  gboolean no_statistics;
  gboolean check;
  gboolean quiet;
  gint max_frames;
  gint expect_frames;
} Options;

typedef struct
{
  const Options *opt;
  const gchar *input;
  ProbePipeline *pipe;
  ProbeCheck *check;
  GMainLoop *loop;
  /* Frames that reached the sink: counted on the streaming thread, read
   * once the pipeline is down. */
  guint frames;
  /* The same count for the progress line, read while it runs. */
  gint progress_frames;
  gboolean progress_shown;
  gchar *device_name;
  gchar *error;
  guint interrupts;
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
  g_free (opt->device);
  g_free (opt->format);
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
  if (opt->no_statistics
      && !probe_set_boolean (histogram, "statistics", FALSE, error))
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

static void
print_histogram (Probe *probe, const GstStructure *s)
{
  gchar *line = probe_json_of_message (s, probe->opt->no_counts ? "counts" :
      NULL);

  /* A line at a time, at once, so that a script reading a camera's
   * output sees each frame as it is counted. */
  fputs (line, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
  g_free (line);
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
  const GstStructure *s;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:
      s = gst_message_get_structure (msg);
      if (!probe->opt->quiet
          && GST_MESSAGE_SRC (msg) == GST_OBJECT (probe->pipe->histogram)
          && gst_structure_has_name (s, "histogram"))
        print_histogram (probe, s);
      break;
    case GST_MESSAGE_ERROR:
      take_error (probe, msg);
      g_main_loop_quit (probe->loop);
      break;
    case GST_MESSAGE_WARNING:
      print_warning (probe, msg);
      break;
    case GST_MESSAGE_EOS:
      g_main_loop_quit (probe->loop);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* Ctrl-C ends a camera's stream as its end would: the frames in flight
 * and a partial interval are still counted and printed. A second one
 * stops at once. */
static gboolean
on_interrupt (gpointer user_data)
{
  Probe *probe = user_data;

  if (probe->interrupts++ == 0)
    gst_element_send_event (probe->pipe->pipeline, gst_event_new_eos ());
  else
    g_main_loop_quit (probe->loop);
  return G_SOURCE_CONTINUE;
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
wants_progress (const Options *opt)
{
  return isatty (STDERR_FILENO) && (opt->quiet || !isatty (STDOUT_FILENO));
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
  guint bus_watch, sigint, progress = 0;

  callbacks.new_sample = on_new_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (probe->pipe->sink), &callbacks,
      probe, NULL);
  probe->loop = g_main_loop_new (NULL, FALSE);
  bus_watch = gst_bus_add_watch (bus, on_message, probe);
  sigint = g_unix_signal_add (SIGINT, on_interrupt, probe);
  if (wants_progress (probe->opt))
    progress = g_timeout_add_seconds (1, on_progress, probe);

  if (gst_element_set_state (probe->pipe->pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE)
    take_start_failure (probe);
  else
    g_main_loop_run (probe->loop);

  /* The element lets its device go at NULL. */
  g_object_get (probe->pipe->histogram, "device-name", &probe->device_name,
      NULL);
  gst_element_set_state (probe->pipe->pipeline, GST_STATE_NULL);
  if (progress)
    g_source_remove (progress);
  clear_progress (probe);
  g_source_remove (sigint);
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
  if (probe->interrupts > 1)
    status = EXIT_INTERRUPTED;
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
    {"max-frames", 'n', 0, G_OPTION_ARG_INT, &opt->max_frames,
        "Stop after this many frames", "N"},
    {"expect-frames", 0, 0, G_OPTION_ARG_INT, &opt->expect_frames,
        "Exit with status 1 unless exactly this many frames were counted",
          "N"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("FILE-OR-URI");
  gboolean ok;

  g_option_context_set_summary (ctx, "Histograms of every frame of a video "
      "file, a URI or a camera (/dev/videoN), counted by clhistogram and "
      "printed as JSON Lines: one object per histogram message, with pts, "
      "duration and every field of the message.");
  g_option_context_set_description (ctx, "Exit status: 0 done; 1 the input "
      "could not be read or decoded, or --check or --expect-frames failed; "
      "2 bad options. Ctrl-C ends the stream (exit status 0); a second one "
      "stops at once.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, argc, argv, error);
  g_option_context_free (ctx);
  if (ok && *argc != 2)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
        *argc < 2 ? "give a video file, URI or /dev/videoN (see --help)" :
        "give one video file, URI or /dev/videoN, not %d (see --help)",
        *argc - 1);
  return ok && *argc == 2;
}

static gint
probe_input (const Options *opt, const gchar *input)
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
  } else {
    probe_pipeline_limit_frames (probe.pipe, MAX (opt->max_frames, 0));
    if (opt->check)
      probe.check = probe_check_new (probe.pipe->histogram);
    run (&probe);
    status = conclude (&probe);
  }
  g_clear_error (&err);
  probe_check_free (probe.check);
  probe_pipeline_free (probe.pipe);
  g_free (probe.device_name);
  g_free (probe.error);
  return status;
}

int
main (int argc, char **argv)
{
  Options opt = { NULL };
  GError *err = NULL;
  gint status;

  opt.width = opt.height = opt.expect_frames = -1;
  if (!parse_options (&opt, &argc, &argv, &err)) {
    g_printerr ("clhistogram-probe: %s\n", err->message);
    g_error_free (err);
    options_clear (&opt);
    return EXIT_USAGE;
  }
  status = probe_input (&opt, argv[1]);
  options_clear (&opt);
  /* Releases what GStreamer holds, so that the leaks tracer sees only
   * what was really left behind. */
  gst_deinit ();
  return status;
}
