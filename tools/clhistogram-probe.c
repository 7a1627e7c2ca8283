/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clhistogram-probe: decodes video files, URIs and cameras, runs every
 * frame of each through clhistogram and prints each `histogram` and
 * `exposure` message as one line of JSON (JSON Lines) on stdout, as it
 * comes, each line naming its input; --check also compares every frame's
 * histogram metas with the golden reference.
 *
 *   clhistogram-probe [OPTION...] [NAME=]FILE-OR-URI...
 *   clhistogram-probe [OPTION...] --inputs FILE
 *   clhistogram-probe --version
 *
 * Each input runs in a pipeline of its own (probe-input.c); a live one
 * that drops is retried while the others go on. The probe ends when every
 * input has ended, or on SIGINT or SIGTERM (probe-stop.c). SIGHUP reads
 * the --inputs file again and changes the inputs to it
 * (probe-input-set.c).
 *
 * Exit status: 0 done; 1 an input could not be read or decoded, the
 * element failed, or --check or --expect-frames found a difference; 2 bad
 * options; 3 stdout could not be written; 128 + the signal's number when
 * SIGINT or SIGTERM stopped it at once (probe-stop.c). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gst/gst.h>

#include "probe-descriptors.h"
#include "probe-input-set.h"
#include "probe-inputs.h"
#include "probe-json.h"
#include "probe-output.h"
#include "probe-pipeline.h"
#include "probe-settings.h"
#include "probe-stop.h"
#include "probe-uri.h"

enum
{
  EXIT_DONE = 0,
  EXIT_FAILED = 1,
  EXIT_USAGE = 2,
  /* Closed, full, its reader gone: the JSON cannot go out. */
  EXIT_OUTPUT = 3,
};

/* --stop-timeout: its default, and the most: an hour, beyond any service
 * manager's wait (systemd's TimeoutStopSec= is 90 s by default). */
#define STOP_TIMEOUT_S 5
#define MAX_STOP_TIMEOUT_S 3600

typedef struct
{
  /* Every input's options, unless its group in --inputs says otherwise. */
  ProbeSettings defaults;
  gchar *inputs_file;
  gchar *metrics;
  gchar *metrics_regions;
  gchar *web_config;
  gint stop_timeout;
  gboolean quiet;
  gboolean version;
} Options;

typedef struct
{
  const Options *opt;
  ProbeInputSet *set;
  ProbeInputShared shared;
  GMainLoop *loop;
  /* The writer wrote every line, or failed. */
  gboolean output_ended;
  /* The errno of stdout's failed write or close, 0. */
  gint output_error;
  /* Descriptor 1 is stderr's by now: whether the JSON's is a terminal. */
  gboolean stdout_is_tty;
  gboolean progress_shown;
} Probe;

static void
options_clear (Options *opt)
{
  probe_settings_clear (&opt->defaults);
  g_free (opt->inputs_file);
  g_free (opt->metrics);
  g_free (opt->metrics_regions);
  g_free (opt->web_config);
}

static void
quit_loop (Probe *probe)
{
  g_main_loop_quit (probe->loop);
}

/* Every input ended for good: the lines queued still go out, and the
 * loop ends once they have (on_output_end). */
static void
on_all_ended (gpointer data)
{
  Probe *probe = data;

  if (probe->shared.out && !probe->output_ended)
    probe_output_finish (probe->shared.out);
  else
    quit_loop (probe);
}

/* The writer wrote every line, or failed: a failed writer ends every
 * input at once. */
static gboolean
on_output_end (gpointer data)
{
  Probe *probe = data;

  probe->output_ended = TRUE;
  if (probe_input_set_get_running (probe->set) == 0)
    quit_loop (probe);
  probe_input_set_abort (probe->set);
  return G_SOURCE_REMOVE;
}

/* The first SIGINT or SIGTERM, on the main loop (probe-stop.c sent EOS
 * to the pipelines that play). */
static gboolean
on_stop_request (gpointer data)
{
  Probe *probe = data;

  if (probe->set)
    probe_input_set_end (probe->set);
  return G_SOURCE_REMOVE;
}

/* A reload that changed nothing, said on stderr and as a JSON line. */
static void
say_reload_failed (Probe *probe, const gchar *reason)
{
  gchar *file = probe->opt->inputs_file ?
      g_filename_display_name (probe->opt->inputs_file) : NULL;
  gchar *text = g_utf8_make_valid (reason, -1);

  g_printerr ("clhistogram-probe: inputs not reloaded (those running go on "
      "as they were): %s\n", text);
  if (probe->shared.out) {
    gchar *json = probe_json_of_reload_failure (file, text);

    probe_output_push_now (probe->shared.out, g_strconcat (json, "\n",
            NULL));
    g_free (json);
  }
  g_free (text);
  g_free (file);
}

/* "; KIND a, b" for the names of @names, nothing for none. */
static void
append_names (GString *text, const gchar *kind, GPtrArray *names)
{
  guint i;

  for (i = 0; i < names->len; i++) {
    if (i == 0)
      g_string_append_printf (text, "; %s ", kind);
    else
      g_string_append (text, ", ");
    g_string_append (text, g_ptr_array_index (names, i));
  }
}

/* A reload about to be done, said before the lines of the inputs it
 * starts. */
static void
say_reloaded (const ProbeInputChanges *changes, gpointer data)
{
  Probe *probe = data;
  gchar *file = g_filename_display_name (probe->opt->inputs_file);
  GString *text = g_string_new (NULL);

  append_names (text, "added", changes->added);
  append_names (text, "removed", changes->removed);
  append_names (text, "changed", changes->changed);
  g_printerr ("clhistogram-probe: reloaded %s%s; %u unchanged\n", file,
      text->str, changes->unchanged->len);
  if (probe->shared.out) {
    gchar *json = probe_json_of_reload (file, changes->added,
        changes->removed, changes->changed, changes->unchanged);

    probe_output_push_now (probe->shared.out, g_strconcat (json, "\n",
            NULL));
    g_free (json);
  }
  g_string_free (text, TRUE);
  g_free (file);
}

/* A key file that gives a camera's password and that every local user
 * may read is said, with what to do: the probe still runs (a test rig's
 * file may be anyone's), but a service's should be root's and its
 * group's alone (docs/probe.md, "Deployment"). */
static void
warn_exposed_passwords (const gchar *key_file, GPtrArray *specs)
{
  struct stat st;
  guint i;

  if (!key_file || stat (key_file, &st) != 0 || !(st.st_mode & S_IROTH))
    return;
  for (i = 0; i < specs->len; i++) {
    const ProbeInputSpec *spec = g_ptr_array_index (specs, i);

    if (probe_uri_has_password (spec->location)) {
      g_printerr ("clhistogram-probe: warning: %s gives the password of "
          "input \"%s\" and every local user can read it: make it root's "
          "and the clhistogram group's alone (chgrp clhistogram %s; chmod "
          "0640 %s)\n", key_file, spec->name, key_file, key_file);
      return;
    }
  }
}

/* SIGHUP, on the main loop (probe-stop.c): the --inputs file read again
 * and the inputs changed to it (probe-input-set.c); a file that cannot be
 * read or holds a bad input changes nothing. */
static gboolean
on_reload (gpointer data)
{
  Probe *probe = data;
  const Options *opt = probe->opt;
  GPtrArray *specs;
  GError *err = NULL;

  /* Every input ended: the probe is ending too, and an input added now
   * would run past the end of the output. */
  if (probe_stop_requested () || probe->output_ended
      || probe_input_set_get_running (probe->set) == 0) {
    g_printerr ("clhistogram-probe: SIGHUP ignored: the probe is "
        "stopping\n");
    return G_SOURCE_REMOVE;
  }
  if (!opt->inputs_file) {
    say_reload_failed (probe, "SIGHUP reloads the inputs of an --inputs "
        "file, and these were given on the command line: restart the probe "
        "to change them");
    return G_SOURCE_REMOVE;
  }
  specs = probe_inputs_read (opt->inputs_file, &opt->defaults,
      probe_input_set_get_fixed_specs (probe->set), &err);
  if (specs)
    warn_exposed_passwords (opt->inputs_file, specs);
  if (!specs || !probe_input_set_update (probe->set, specs,
          opt->stop_timeout, say_reloaded, probe, &err)) {
    say_reload_failed (probe, err->message);
    g_error_free (err);
  }
  return G_SOURCE_REMOVE;
}

/* Where a long run is, once a second on a terminal's stderr, so that a
 * check of a long clip with no JSON on the terminal is not silent for
 * minutes. */
static gboolean
on_progress (gpointer data)
{
  Probe *probe = data;
  GPtrArray *inputs = probe_input_set_get_inputs (probe->set);
  guint64 frames = 0;
  gboolean checking = FALSE;
  guint i;

  for (i = 0; i < inputs->len; i++) {
    ProbeInput *input = g_ptr_array_index (inputs, i);

    frames += probe_input_get_frames (input);
    checking |= probe_input_is_checking (input);
  }
  g_printerr ("\rclhistogram-probe: %" G_GUINT64_FORMAT " frames%s%s",
      frames, inputs->len > 1 ? " of all inputs" : "",
      checking ? " checked so far" : "");
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
  guint progress = 0;

  probe->loop = g_main_loop_new (NULL, FALSE);
  if (wants_progress (probe))
    progress = g_timeout_add_seconds (1, on_progress, probe);
  probe_input_set_start (probe->set);
  probe_stop_set_reload (on_reload, probe);
  g_main_loop_run (probe->loop);
  probe_stop_set_reload (NULL, NULL);
  probe_stop_ending ();
  if (progress)
    g_source_remove (progress);
  clear_progress (probe);
  g_main_loop_unref (probe->loop);
}

/* What to exit with once every input ended, saying why on stderr. */
static gint
conclude (Probe *probe)
{
  gint status = EXIT_DONE;

  if (!probe_input_set_conclude (probe->set))
    status = EXIT_FAILED;
  /* The reader gone (EPIPE) is a failure too: the lines it missed were
   * counted for nothing, and a pipeline's status should say so. */
  if (probe->output_error) {
    g_printerr ("clhistogram-probe: cannot write the JSON on stdout: %s\n",
        g_strerror (probe->output_error));
    status = EXIT_OUTPUT;
  }
  return status;
}

static gboolean
parse_options (Options *opt, gint *argc, gchar ***argv, GError **error)
{
  const GOptionEntry entries[] = {
    {"inputs", 0, 0, G_OPTION_ARG_FILENAME, &opt->inputs_file,
        "Inputs from a key file: a group [NAME] for each, with "
          "uri=FILE-OR-URI and any option above by its long name (e.g. "
          "zones=3x3), for that input alone; SIGHUP reads it again", "FILE"},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt->quiet,
        "Print no JSON lines", NULL},
    {"metrics", 0, 0, G_OPTION_ARG_STRING, &opt->metrics,
        "Serve every input's statistics to Prometheus on "
          "http://ADDRESS:PORT/metrics (:PORT: every interface; "
          "[IPV6]:PORT; port 0: any free one)", "ADDRESS:PORT"},
    {"metrics-regions", 0, 0, G_OPTION_ARG_STRING, &opt->metrics_regions,
        "The zones and regions of each input on /metrics: all (default), "
          "none, or the first N", "all|none|N"},
    {"web-config", 0, 0, G_OPTION_ARG_FILENAME, &opt->web_config,
        "TLS and basic authentication for --metrics, from a file in the "
          "format of Prometheus' exporter-toolkit (tls_server_config, "
          "basic_auth_users)", "FILE"},
    {"stop-timeout", 0, 0, G_OPTION_ARG_INT, &opt->stop_timeout,
        "After the first SIGINT or SIGTERM, how long the streams may take "
          "to end (their frames in flight counted and printed) before the "
          "probe stops at once (1 to 3600; default 5)", "SECONDS"},
    {"version", 0, 0, G_OPTION_ARG_NONE, &opt->version,
        "Print the probe's version, GStreamer's and the clhistogram "
          "plugin's, and exit", NULL},
    {NULL}
  };
  GOptionEntry *settings = probe_settings_option_entries (&opt->defaults);
  GOptionContext *ctx = g_option_context_new ("[NAME=]FILE-OR-URI...");
  gboolean ok;

  g_option_context_set_summary (ctx, "Histograms of every frame of video "
      "files, URIs and cameras (/dev/videoN), counted by clhistogram and "
      "printed as JSON Lines, each line naming its input first (\"input\"): "
      "one object per histogram message (pts, duration and every field of "
      "the message, the metering value among them), one per exposure alert "
      "(\"message\": \"exposure\"), and \"input-down\" and \"input-up\" "
      "lines for a live input (anything but a local file) that drops and "
      "comes back.\n"
      "\n"
      "An input is FILE-OR-URI, named by the argument as given, or "
      "NAME=FILE-OR-URI (NAME: 1 to 64 letters, digits, '_', '.', '-'); "
      "each runs in a pipeline of its own, with the options below unless "
      "its group in --inputs gives its own.");
  g_option_context_set_description (ctx, "A live input that fails, ends or "
      "stalls is retried after 1 s, 2 s, 4 s... up to --retry-max.\n"
      "The probe ends when every input has ended (live inputs never end by "
      "themselves).\n"
      "\n"
      "Exit status: 0 done; 1 an input could not be read or decoded, "
      "--check or --expect-frames failed,\nor the --metrics port is in use; "
      "2 bad options; 3 stdout could not be written (closed, full, its "
      "reader gone).\nCtrl-C (or SIGTERM) ends every stream (exit status "
      "0); a second one, one during start-up,\nor streams that have not "
      "ended 5 s later stop at once: exit status 130 (143 for SIGTERM).\n"
      "SIGHUP reloads the --inputs file: the inputs added, removed or "
      "changed start or stop, the others run on.\n"
      "\n"
      "Examples:\n"
      "  # every frame against the golden reference, as the tests check it\n"
      "  clhistogram-probe --check --quiet --format GRAY8 --width 600 "
      "--height 480 \\\n"
      "      --mode luma --expect-frames 795 data/vtest.avi\n"
      "  # a camera: 3x3 zones, an alert line when 2 % of a zone clips\n"
      "  clhistogram-probe --zones 3x3 --alert-clipped 2 --no-counts "
      "/dev/video0\n"
      "  # two network cameras and a file, one line a second each\n"
      "  clhistogram-probe --interval 1000000000 --no-counts \\\n"
      "      door=rtsp://door.local/stream yard=rtsp://yard.local/stream "
      "clip=data/vtest.avi\n"
      "  # the inputs of a key file, each with its own options\n"
      "  clhistogram-probe --no-counts --inputs cameras.conf\n"
      "  # their statistics for Prometheus, one message a second each\n"
      "  clhistogram-probe --quiet --metrics 127.0.0.1:9610 --interval "
      "1000000000 \\\n"
      "      --inputs cameras.conf\n"
      "  # and each camera's monitor picture, every 2 s, on "
      "http://127.0.0.1:9610/\n"
      "  clhistogram-probe --quiet --metrics 127.0.0.1:9610 "
      "--monitor-pictures 2 \\\n"
      "      --inputs cameras.conf\n"
      "  # each frame's time, mean luma and percentiles\n"
      "  clhistogram-probe --no-counts data/vtest.avi | jq -c "
      "'[.pts / 1e9, .mean[0], .percentiles[0]]'\n"
      "\n"
      "See man clhistogram-probe for the JSON's fields, the key file and "
      "more examples.");
  g_option_context_add_main_entries (ctx, settings, NULL);
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, argc, argv, error);
  g_option_context_free (ctx);
  g_free (settings);
  return ok;
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
  probe->shared.out = probe_output_new (out_fd, on_output_end, probe);
  probe_stop_watch_output (probe->shared.out);
}

static void
close_output (Probe *probe)
{
  guint64 dropped;
  gint error;

  if (!probe->shared.out)
    return;
  probe_stop_watch_output (NULL);
  dropped = probe_output_get_dropped (probe->shared.out);
  if (dropped > 0)
    g_printerr ("clhistogram-probe: %" G_GUINT64_FORMAT " input-down "
        "line(s) dropped while stdout took nothing\n", dropped);
  error = probe_output_close (probe->shared.out);
  probe->shared.out = NULL;
  if (!probe->output_error)
    probe->output_error = error;
}

/* The command line's options on an element of their own, before any
 * input: their errors then name the option alone, whichever inputs take
 * them. */
static gint
check_defaults (const Options *opt)
{
  GError *err = NULL;
  ProbePipeline *p = probe_pipeline_new (&err);
  gint status = EXIT_DONE;
  gint64 period_us;

  if (!p)
    status = EXIT_FAILED;
  else if (!probe_settings_apply (&opt->defaults, p->histogram, &err))
    status = EXIT_USAGE;
  else if (probe_settings_get_picture_period (&opt->defaults, &period_us,
          NULL) && period_us > 0 && !opt->metrics) {
    /* Else said by the first input, named after it. */
    g_set_error (&err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "--monitor-pictures: only with --metrics ADDRESS:PORT, which serves "
        "the pictures");
    status = EXIT_USAGE;
  }
  if (err)
    g_printerr ("clhistogram-probe: %s\n", err->message);
  g_clear_error (&err);
  probe_pipeline_free (p);
  return status;
}

/* --metrics-regions, read before the server starts; only with --metrics,
 * which it would otherwise silently do nothing without. */
static gint
metrics_regions (const Options *opt, guint *max_regions)
{
  GError *err = NULL;

  *max_regions = PROBE_METRICS_ALL_REGIONS;
  if (!opt->metrics_regions)
    return EXIT_DONE;
  if (!opt->metrics) {
    g_printerr ("clhistogram-probe: --metrics-regions: only with --metrics "
        "ADDRESS:PORT, which serves them\n");
    return EXIT_USAGE;
  }
  if (!probe_metrics_parse_regions (opt->metrics_regions, max_regions,
          &err)) {
    g_printerr ("clhistogram-probe: --metrics-regions: %s\n", err->message);
    g_error_free (err);
    return EXIT_USAGE;
  }
  return EXIT_DONE;
}

/* --web-config, read before the server starts; only with --metrics. */
static gint
web_config (const Options *opt, ProbeWebConfig **web)
{
  GError *err = NULL;

  *web = NULL;
  if (!opt->web_config)
    return EXIT_DONE;
  if (!opt->metrics) {
    g_printerr ("clhistogram-probe: --web-config: only with --metrics "
        "ADDRESS:PORT, whose server it sets up\n");
    return EXIT_USAGE;
  }
#ifdef HAVE_PROBE_METRICS_SERVER
  *web = probe_web_config_load (opt->web_config, &err);
  if (!*web) {
    g_printerr ("clhistogram-probe: --web-config: %s\n", err->message);
    g_error_free (err);
    return EXIT_USAGE;
  }
#endif
  return EXIT_DONE;
}

/* --metrics: listening before the inputs start, so that a scrape shows
 * every input from the start; the URL said on stderr, as bound. */
static gint
open_metrics (Probe *probe)
{
  GPtrArray *inputs = probe_input_set_get_inputs (probe->set);
  ProbeWebConfig *web;
  GError *err = NULL;
  gchar *url;
  gint status;
  guint i, max_regions;

  status = metrics_regions (probe->opt, &max_regions);
  if (status == EXIT_DONE)
    status = web_config (probe->opt, &web);
  if (status != EXIT_DONE || !probe->opt->metrics)
    return status;
  probe->shared.metrics = probe_metrics_new_full (probe->opt->metrics, web,
      &err);
  if (!probe->shared.metrics) {
    g_printerr ("clhistogram-probe: --metrics: %s\n", err->message);
    status = g_error_matches (err, G_OPTION_ERROR,
        G_OPTION_ERROR_BAD_VALUE) ? EXIT_USAGE : EXIT_FAILED;
    g_error_free (err);
    return status;
  }
  probe_metrics_set_max_regions (probe->shared.metrics, max_regions);
  for (i = 0; i < inputs->len; i++)
    probe_input_add_metrics (g_ptr_array_index (inputs, i));
  url = probe_metrics_get_url (probe->shared.metrics);
  g_printerr ("clhistogram-probe: metrics on %s\n", url);
  g_free (url);
  return EXIT_DONE;
}

/* Every input's first pipeline, built before any starts, so that a bad
 * option in --inputs stops the probe before any line. */
static gint
build_inputs (Probe *probe, GPtrArray *specs)
{
  guint i;

  probe->set = probe_input_set_new (&probe->shared, on_all_ended, probe);
  for (i = 0; i < specs->len; i++) {
    GError *err = NULL;

    if (!probe_input_set_add (probe->set, g_steal_pointer (&specs->pdata[i]),
            &err)) {
      g_printerr ("clhistogram-probe: %s\n", err->message);
      i = err->domain == G_OPTION_ERROR ? EXIT_USAGE : EXIT_FAILED;
      g_error_free (err);
      return i;
    }
  }
  return EXIT_DONE;
}

static gint
probe_inputs (Probe *probe, gchar **args, gint out_fd)
{
  const Options *opt = probe->opt;
  GError *err = NULL;
  GPtrArray *specs;
  gint status;

  specs = probe_inputs_parse (args, opt->inputs_file, &opt->defaults, &err);
  if (!specs) {
    g_printerr ("clhistogram-probe: %s\n", err->message);
    g_error_free (err);
    return EXIT_USAGE;
  }
  warn_exposed_passwords (opt->inputs_file, specs);
  status = check_defaults (opt);
  probe->shared.serving = opt->metrics != NULL;
  if (status == EXIT_DONE)
    status = build_inputs (probe, specs);
  g_ptr_array_unref (specs);
  if (status == EXIT_DONE)
    status = open_metrics (probe);
  if (status == EXIT_DONE) {
    open_output (probe, out_fd);
    run (probe);
    close_output (probe);
    status = conclude (probe);
  }
  g_clear_pointer (&probe->set, probe_input_set_free);
  g_clear_pointer (&probe->shared.metrics, probe_metrics_free);
  return status;
}

int
main (int argc, char **argv)
{
  /* Before anything opens a descriptor or starts a thread. */
  gint out_fd = probe_output_claim_stdout ();
  Options opt = { .stop_timeout = STOP_TIMEOUT_S };
  Probe probe = { &opt };
  GError *err = NULL;
  GPtrArray *args;
  gint status, i;

  probe_stop_init (on_stop_request, &probe);
  probe_descriptors_raise_limit ();
  probe_settings_init (&opt.defaults);
  if (!parse_options (&opt, &argc, &argv, &err)) {
    g_printerr ("clhistogram-probe: %s\n", err->message);
    g_error_free (err);
    options_clear (&opt);
    return EXIT_USAGE;
  }
  if (opt.stop_timeout < 1 || opt.stop_timeout > MAX_STOP_TIMEOUT_S) {
    g_printerr ("clhistogram-probe: --stop-timeout: %d is not 1 to %d "
        "seconds\n", opt.stop_timeout, MAX_STOP_TIMEOUT_S);
    options_clear (&opt);
    return EXIT_USAGE;
  }
  probe_stop_set_timeout (opt.stop_timeout);
  if (opt.version) {
    status = print_version (out_fd);
    options_clear (&opt);
    gst_deinit ();
    return status;
  }
  probe_output_release_stdout ();
  /* Said before the inputs are opened rather than after a run whose lines
   * all went nowhere. */
  if (out_fd < 0 && !opt.quiet) {
    g_printerr ("clhistogram-probe: stdout is closed: redirect it (or give "
        "--quiet) to run\n");
    options_clear (&opt);
    return EXIT_OUTPUT;
  }
  args = g_ptr_array_new ();
  for (i = 1; i < argc; i++)
    g_ptr_array_add (args, argv[i]);
  g_ptr_array_add (args, NULL);
  status = probe_inputs (&probe, (gchar **) args->pdata, out_fd);
  g_ptr_array_unref (args);
  options_clear (&opt);
  /* Releases what GStreamer holds, so that the leaks tracer sees only
   * what was really left behind. */
  gst_deinit ();
  return status;
}
