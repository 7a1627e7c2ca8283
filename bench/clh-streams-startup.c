/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-streams-bench --startup: the time from PLAYING to the first buffer of
 * appsrc ! clhistogram ! fakesink, each in a fresh process (this program
 * again, with --startup-child), with the program cache cold, warm and off
 * and the driver's own kernel cache on and off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gst/app/gstappsrc.h>

#include "clh-bench-stats.h"
#include "clh-streams-bench.h"

#define FIRST_BUFFER_TIMEOUT_US (120 * G_USEC_PER_SEC)

/* Drivers whose own kernel cache the start-up rows can turn off. */
typedef enum {
  DRIVER_OTHER,
  DRIVER_POCL,
  DRIVER_NVIDIA,
} Driver;

/* The platform of the device the element opened, from run_startup(). */
static const gchar *platform;

static Driver
driver_kind (void)
{
  if (platform && strstr (platform, "Portable Computing Language"))
    return DRIVER_POCL;
  if (platform && strstr (platform, "NVIDIA"))
    return DRIVER_NVIDIA;
  return DRIVER_OTHER;
}

typedef struct {
  GMutex lock;
  GCond cond;
  gdouble first_us;
  gboolean error;
} FirstBuffer;

static GstPadProbeReturn
on_first_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  FirstBuffer *fb = user_data;

  g_mutex_lock (&fb->lock);
  if (fb->first_us == 0)
    fb->first_us = clh_bench_now_us ();
  g_cond_signal (&fb->cond);
  g_mutex_unlock (&fb->lock);
  return GST_PAD_PROBE_REMOVE;
}

static GstBusSyncReply
on_child_bus (GstBus *bus, GstMessage *msg, gpointer user_data)
{
  FirstBuffer *fb = user_data;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    print_error_message (msg, "");
    g_mutex_lock (&fb->lock);
    fb->error = TRUE;
    g_cond_signal (&fb->cond);
    g_mutex_unlock (&fb->lock);
  }
  gst_message_unref (msg);
  return GST_BUS_DROP;
}

static GstElement *
make (const gchar *factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (!e) {
    g_printerr ("no element %s (GST_PLUGIN_PATH?)\n", factory);
    exit (1);
  }
  return e;
}

/* appsrc ! clhistogram ! fakesink, all in NULL: one frame in flight, so
 * the first frame leaves as soon as it is counted. */
static GstElement *
child_pipeline (FirstBuffer *fb, GstElement **src)
{
  GstElement *pipeline = gst_pipeline_new (NULL), *h, *sink;
  GstCaps *caps = caps_for (GST_VIDEO_FORMAT_GRAY8);
  GstPad *pad;
  GstBus *bus;

  *src = make ("appsrc");
  h = make ("clhistogram");
  sink = make ("fakesink");
  g_object_set (*src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  g_object_set (h, "max-frames-in-flight", 1, "post-messages", FALSE, NULL);
  g_object_set (sink, "sync", FALSE, NULL);
  gst_caps_unref (caps);
  gst_bin_add_many (GST_BIN (pipeline), *src, h, sink, NULL);
  if (!gst_element_link_many (*src, h, sink, NULL))
    die ("cannot link appsrc ! clhistogram ! fakesink");

  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_first_buffer, fb,
      NULL);
  gst_object_unref (pad);
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, on_child_bus, fb, NULL);
  gst_object_unref (bus);
  return pipeline;
}

static void
wait_first_buffer (FirstBuffer *fb)
{
  const gint64 deadline = g_get_monotonic_time () + FIRST_BUFFER_TIMEOUT_US;

  g_mutex_lock (&fb->lock);
  while (fb->first_us == 0 && !fb->error)
    if (!g_cond_wait_until (&fb->cond, &fb->lock, deadline))
      break;
  g_mutex_unlock (&fb->lock);
  if (fb->error)
    exit (1);
  if (fb->first_us == 0)
    die ("no buffer reached the fakesink");
}

/* --startup-child: prints the milliseconds from PLAYING to the first
 * buffer at the sink; everything before (gst_init, the plugin loaded by
 * the factories, the pipeline built) is untimed. */
int
startup_child (void)
{
  FirstBuffer fb = { 0 };
  GstElement *pipeline, *src;
  guint8 *frame = g_malloc0 (WIDTH * HEIGHT);
  GstBuffer *buf;
  gdouble t0;

  g_mutex_init (&fb.lock);
  g_cond_init (&fb.cond);
  pipeline = child_pipeline (&fb, &src);
  buf = gst_buffer_new_wrapped_full (0, frame, WIDTH * HEIGHT, 0,
      WIDTH * HEIGHT, NULL, NULL);
  stamp (buf, 0);

  t0 = clh_bench_now_us ();
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE)
    die ("the pipeline refused PLAYING");
  gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  wait_first_buffer (&fb);
  printf ("%.3f\n", (fb.first_us - t0) / 1e3);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (frame);
  return 0;
}

/* Runs this program again with --startup-child in @env; its one number. */
static gdouble
spawn_child (gchar **env)
{
  gchar *exe = g_file_read_link ("/proc/self/exe", NULL);
  gchar *argv[] = { exe, (gchar *) "--startup-child", NULL };
  gchar *out = NULL, *err_text = NULL, *end = NULL;
  GError *err = NULL;
  gint status;
  gdouble ms;

  if (!exe)
    die ("cannot find this program (/proc/self/exe)");
  if (!g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out,
          &err_text, &status, &err)
      || !g_spawn_check_wait_status (status, &err)) {
    g_printerr ("start-up child: %s\n%s", err->message, err_text ?
        err_text : "");
    exit (1);
  }
  if (err_text && *err_text)
    g_printerr ("start-up child said: %s", err_text);
  ms = g_ascii_strtod (out, &end);
  if (end == out)
    die ("the start-up child printed no time");
  g_free (exe);
  g_free (out);
  g_free (err_text);
  return ms;
}

static gchar *
make_tmp_dir (void)
{
  gchar *dir = g_dir_make_tmp ("clh-streams-bench-XXXXXX", NULL);

  if (!dir)
    die ("cannot make a temporary directory");
  return dir;
}

static guint remove_tree (const gchar *dir);

/* The driver's kernel cache off, and pointed at the new folder @dir as
 * well: with POCL_KERNEL_CACHE=0 alone, PoCL 3.1 still finds work-group
 * functions that an earlier process left in its "uncached" folder, by
 * chance. */
static gchar **
env_without_driver_cache (gchar **env, const gchar *dir)
{
  if (driver_kind () == DRIVER_POCL) {
    env = g_environ_setenv (env, "POCL_KERNEL_CACHE", "0", TRUE);
    env = g_environ_setenv (env, "POCL_CACHE_DIR", dir, TRUE);
  } else if (driver_kind () == DRIVER_NVIDIA) {
    env = g_environ_setenv (env, "CUDA_CACHE_DISABLE", "1", TRUE);
    env = g_environ_setenv (env, "CUDA_CACHE_PATH", dir, TRUE);
  }
  return env;
}

/* One start with the program cache in @cache_dir. */
static gdouble
timed_start (const gchar *cache_dir, gboolean no_driver_cache)
{
  gchar **env = g_get_environ (), *driver_dir = NULL;
  gdouble ms;

  env = g_environ_setenv (env, "CLHISTOGRAM_CACHE_DIR", cache_dir, TRUE);
  if (no_driver_cache) {
    driver_dir = make_tmp_dir ();
    env = env_without_driver_cache (env, driver_dir);
  }
  ms = spawn_child (env);
  if (driver_dir)
    remove_tree (driver_dir);
  g_free (driver_dir);
  g_strfreev (env);
  return ms;
}

/* Counts the files (not folders) under @dir and removes it all. */
static guint
remove_tree (const gchar *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  guint n = 0;

  while (d && (name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);

    if (g_file_test (path, G_FILE_TEST_IS_DIR))
      n += remove_tree (path);
    else if (g_remove (path) == 0)
      n++;
    g_free (path);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
  return n;
}

/* cold, warm (the same directory), off: interleaved run by run, so that
 * drift in the machine touches them alike. */
static void
startup_set (Startup set[3], gboolean no_driver_cache, guint runs)
{
  guint i, j;

  for (j = 0; j < 3; j++) {
    set[j].driver_cache_off = no_driver_cache;
    set[j].ms = g_array_new (FALSE, FALSE, sizeof (gdouble));
  }
  set[0].cache = "cold";
  set[1].cache = "warm";
  set[2].cache = "off";
  for (i = 0; i < runs; i++) {
    gchar *dir = make_tmp_dir ();

    g_array_append_val (set[0].ms, (gdouble) {
        timed_start (dir, no_driver_cache)});
    g_array_append_val (set[1].ms, (gdouble) {
        timed_start (dir, no_driver_cache)});
    g_array_append_val (set[2].ms, (gdouble) {
        timed_start ("", no_driver_cache)});
    set[0].cache_files = set[1].cache_files = remove_tree (dir);
    g_free (dir);
  }
}

static void
print_startup (const Startup *st)
{
  GArray *sorted = g_array_copy (st->ms);
  guint i;

  printf ("%-5s %-12s | %8.1f %8.1f %8.1f |", st->cache,
      st->driver_cache_off ? "off" : "default",
      clh_bench_percentile (sorted, 50), clh_bench_percentile (sorted, 0),
      clh_bench_percentile (sorted, 100));
  for (i = 0; i < st->ms->len; i++)
    printf (" %.1f", g_array_index (st->ms, gdouble, i));
  if (g_str_equal (st->cache, "warm") && !st->cache_files)
    printf ("  (WARNING: the cold run left no cache file)");
  printf ("\n");
  fflush (stdout);
  g_array_unref (sorted);
}

void
json_startup (GString *json, const Startup *st, guint n)
{
  guint i;

  g_string_append (json, "  \"startup\": [\n");
  for (i = 0; i < n; i++) {
    GArray *sorted = g_array_copy (st[i].ms);

    g_string_append_printf (json, "    {\"cache\": \"%s\", "
        "\"driver_cache\": \"%s\", \"median_ms\": %.3f, "
        "\"runs_ms\": ", st[i].cache, st[i].driver_cache_off ? "off" :
        "default",
        clh_bench_percentile (sorted, 50));
    json_doubles (json, st[i].ms);
    g_string_append_printf (json, ", \"cache_files\": %u}%s\n",
        st[i].cache_files, i + 1 < n ? "," : "");
    g_array_unref (sorted);
  }
  g_string_append (json, "  ]");
}

/* The warm start with the driver's cache as it is by default: the
 * target on PoCL, a figure elsewhere. */
static void
print_startup_target (const Startup *warm)
{
  GArray *sorted = g_array_copy (warm->ms);
  const gdouble ms = clh_bench_percentile (sorted, 50);

  if (driver_kind () == DRIVER_POCL)
    printf ("target: warm start on PoCL %.1f ms (<= %.0f ms): %s\n", ms,
        TARGET_WARM_MS, ms <= TARGET_WARM_MS ? "met" : "NOT met");
  else
    printf ("warm start %.1f ms (the target, <= %.0f ms, is PoCL's)\n", ms,
        TARGET_WARM_MS);
  g_array_unref (sorted);
}

/* Every configuration, printed, on the device of @device_platform;
 * returns how many went into @st. */
guint
run_startup (Startup st[6], guint runs, const gchar *device_platform)
{
  guint n, i;

  platform = device_platform;
  n = driver_kind () != DRIVER_OTHER ? 6 : 3;

  printf ("\nstart-up: gst_element_set_state (PLAYING) to the first buffer "
      "at the fakesink, appsrc ! clhistogram ! fakesink (GRAY8 600x480),\n"
      "each in a fresh process; ms, median min max of %u runs, then each "
      "run; target: warm <= %.0f ms on PoCL\n", runs, TARGET_WARM_MS);
  printf ("%-5s %-12s | %8s %8s %8s | runs\n", "cache", "driver-cache",
      "median", "min", "max");
  startup_set (st, FALSE, runs);
  if (n == 6)
    startup_set (st + 3, TRUE, runs);
  for (i = 0; i < n; i++)
    print_startup (&st[i]);
  print_startup_target (&st[1]);
  return n;
}

