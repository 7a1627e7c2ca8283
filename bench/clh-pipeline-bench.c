/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-pipeline-bench: throughput of clhistogram in a real pipeline.
 *
 *   appsrc ! clhistogram mode=M bins=256 post-messages=P ! fakesink sync=false
 *
 * against the same pipeline without clhistogram, fed from memory (no decoder
 * in the timed part): GRAY8 (luma), RGBA (channels) and NV12 (luma, the Y
 * plane) at 600x480 and 1920x1080; frames uniform random, of one value, and
 * real (raw packed 600x480 frames read from a file, optional), rotating over
 * 64 frames so that caches do not hold them. Every pushed buffer wraps a
 * frame's memory without copying it and carries a GstVideoMeta.
 *
 * A run times N frames from the first push to EOS on the bus (negotiation
 * and preroll included); after a warm-up run, R runs of each pipeline
 * alternate. Reports the median, p10 and p90 of the runs' frames/s, the
 * median run's us/frame, and the median of the process's CPU time per frame
 * (user + sys, all threads: with a CPU OpenCL device this includes the
 * device's work). Prints a table and writes JSON (--json).
 *
 * Histogram messages are dropped by a bus sync handler and counted: one per
 * frame (none with post-messages=false), or the program exits with status 2
 * after the table. Not a test: it asserts nothing about time.
 *
 *   GST_PLUGIN_PATH=build build/bench/clh-pipeline-bench --quick */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "clh-bench-stats.h"
#include "clh-engine.h"

#define N_ROTATED 64
#define FRAME_DURATION (GST_SECOND / 30)
#define EOS_TIMEOUT (300 * GST_SECOND)

typedef enum {
  MESSAGES_AUTO,                /* both for GRAY8 600x480, else on */
  MESSAGES_BOTH,
  MESSAGES_ON,
  MESSAGES_OFF,
} MessagesChoice;

typedef struct {
  GstVideoFormat format;
  guint width, height;
  const gchar *content;         /* uniform, one-value or real */
  const gchar *real_file;       /* raw packed frames, for content "real" */
  gboolean post_messages;
} Case;

/* N_ROTATED frames of a case, back to back in one allocation. */
typedef struct {
  GstVideoInfo info;
  gsize slot;                   /* bytes from one frame to the next */
  guint8 *data;
  guint n_real;                 /* distinct frames read from a file */
} Frames;

/* One pipeline, kept in READY between runs (the element keeps its
 * OpenCL device open). */
typedef struct {
  GstElement *pipeline;
  GstElement *src;
  GstElement *histogram;        /* NULL in the baseline */
  gint messages;                /* histogram messages seen this run */
} Bench;

typedef struct {
  gdouble fps[3];               /* p50, p10, p90 */
  gdouble us_per_frame;         /* of the p50 run */
  gdouble cpu_us_per_frame;     /* p50 */
  gdouble base_fps, base_us_per_frame;  /* p50s of the baseline */
  guint frames, runs;
} Result;

static gint message_mismatches;
static gchar *device_name, *driver;

/* User + system time of the whole process, all threads. */
static gdouble
cpu_s (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6
      + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static const gchar *
mode_for (GstVideoFormat format)
{
  return format == GST_VIDEO_FORMAT_RGBA ? "channels" : "luma";
}

static void
die_on_error_message (GstMessage *msg)
{
  GError *err = NULL;
  gchar *debug = NULL;

  gst_message_parse_error (msg, &err, &debug);
  g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
      err->message, debug ? debug : "");
  exit (1);
}

/* ---- frames ---- */

/* Bytes of one row and rows of plane @plane, packed. */
static guint
packed_plane (const GstVideoInfo *info, guint plane, gsize *row_bytes)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comp);
  *row_bytes = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp[0])
      * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]);
  return GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
}

static gsize
packed_frame_bytes (const GstVideoInfo *info)
{
  gsize total = 0, row;
  guint p, rows;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    rows = packed_plane (info, p, &row);
    total += row * rows;
  }
  return total;
}

/* Copies one packed frame into @dest, laid out as @info. */
static void
unpack_frame (const GstVideoInfo *info, const guint8 *packed, guint8 *dest)
{
  guint p, y, rows;
  gsize row;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    rows = packed_plane (info, p, &row);
    for (y = 0; y < rows; y++, packed += row)
      memcpy (dest + GST_VIDEO_INFO_PLANE_OFFSET (info, p)
          + (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (info, p), packed, row);
  }
}

static void
die_no_frame (const gchar *path, const GstVideoInfo *info)
{
  g_printerr ("%s holds no whole %ux%u %s frame (%" G_GSIZE_FORMAT
      " bytes, packed)\n", path, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info),
      packed_frame_bytes (info));
  exit (1);
}

/* Before any timing: @path can be read and holds a 600x480 frame. */
static void
check_real_file (const gchar *path, GstVideoFormat format)
{
  GstVideoInfo info;
  FILE *file = fopen (path, "rb");
  long size;

  if (!file) {
    g_printerr ("cannot open %s: %s\n", path, g_strerror (errno));
    exit (1);
  }
  gst_video_info_set_format (&info, format, 600, 480);
  size = fseek (file, 0, SEEK_END) == 0 ? ftell (file) : -1;
  fclose (file);
  if (size < 0 || (gsize) size < packed_frame_bytes (&info))
    die_no_frame (path, &info);
}

/* Reads up to N_ROTATED packed frames and repeats them over all slots. */
static guint
read_real_frames (Frames *f, const gchar *path)
{
  const gsize packed = packed_frame_bytes (&f->info);
  guint8 *buf = g_malloc (packed * N_ROTATED);
  FILE *file = fopen (path, "rb");
  guint n, i;

  if (!file) {
    g_printerr ("cannot open %s: %s\n", path, g_strerror (errno));
    exit (1);
  }
  n = fread (buf, packed, N_ROTATED, file);
  fclose (file);
  if (n == 0)
    die_no_frame (path, &f->info);
  for (i = 0; i < N_ROTATED; i++)
    unpack_frame (&f->info, buf + (i % n) * packed, f->data + i * f->slot);
  g_free (buf);
  return n;
}

static void
frames_init (Frames *f, const Case *c)
{
  gsize i;

  /* Default strides and offsets, as the element derives from the caps. */
  gst_video_info_set_format (&f->info, c->format, c->width, c->height);
  /* Slots start on cache lines. */
  f->slot = (GST_VIDEO_INFO_SIZE (&f->info) + 63) & ~(gsize) 63;
  f->data = g_malloc0 (f->slot * N_ROTATED);
  f->n_real = 0;

  if (g_str_equal (c->content, "uniform")) {
    GRand *rand = g_rand_new_with_seed (42);
    guint32 *words = (guint32 *) f->data;

    for (i = 0; i < f->slot * N_ROTATED / 4; i++)
      words[i] = g_rand_int (rand);
    g_rand_free (rand);
  } else if (g_str_equal (c->content, "real")) {
    f->n_real = read_real_frames (f, c->real_file);
  }
  /* "one-value": all zero already. */
}

static void
frames_clear (Frames *f)
{
  g_clear_pointer (&f->data, g_free);
}

/* A buffer that wraps frame @index without copying it; its only reference
 * goes to appsrc, so the in-place transform can add its meta. */
static GstBuffer *
wrap_frame (const Frames *f, guint index)
{
  const GstVideoInfo *info = &f->info;
  const gsize size = GST_VIDEO_INFO_SIZE (info);
  GstBuffer *buf;

  buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
      f->data + (index % N_ROTATED) * f->slot, size, 0, size, NULL, NULL);
  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  return buf;
}

/* ---- pipelines ---- */

/* Drops and counts element messages, so that one per frame does not pile
 * up on the bus; on an error, releases a push blocked on a full appsrc. */
static GstBusSyncReply
on_bus_sync (GstBus *bus, GstMessage *msg, gpointer user_data)
{
  Bench *b = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:
      if (gst_message_has_name (msg, "histogram"))
        g_atomic_int_inc (&b->messages);
      gst_message_unref (msg);
      return GST_BUS_DROP;
    case GST_MESSAGE_ERROR:
      gst_app_src_end_of_stream (GST_APP_SRC (b->src));
      return GST_BUS_PASS;
    default:
      return GST_BUS_PASS;
  }
}

static Bench *
bench_new (const Case *c, const Frames *f, gboolean with_histogram)
{
  Bench *b = g_new0 (Bench, 1);
  GstCaps *caps = gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (c->format),
      "width", G_TYPE_INT, c->width, "height", G_TYPE_INT, c->height,
      "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  GError *err = NULL;
  GstBus *bus;
  gchar *desc;

  if (with_histogram)
    desc = g_strdup_printf ("appsrc name=src ! clhistogram name=h mode=%s "
        "bins=256 post-messages=%s ! fakesink sync=false",
        mode_for (c->format), c->post_messages ? "true" : "false");
  else
    desc = g_strdup ("appsrc name=src ! fakesink sync=false");
  b->pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &err);
  if (!b->pipeline) {
    g_printerr ("cannot build '%s': %s\n", desc, err->message);
    exit (1);
  }
  g_free (desc);

  b->src = gst_bin_get_by_name (GST_BIN (b->pipeline), "src");
  b->histogram = gst_bin_get_by_name (GST_BIN (b->pipeline), "h");
  /* Pushes block on four queued frames rather than queue them all. */
  g_object_set (b->src, "caps", caps, "format", GST_FORMAT_TIME,
      "is-live", FALSE, "block", TRUE,
      "max-bytes", (guint64) 4 * GST_VIDEO_INFO_SIZE (&f->info), NULL);
  gst_caps_unref (caps);

  bus = gst_element_get_bus (b->pipeline);
  gst_bus_set_sync_handler (bus, on_bus_sync, b, NULL);
  gst_object_unref (bus);
  return b;
}

static void
bench_free (Bench *b)
{
  gst_element_set_state (b->pipeline, GST_STATE_NULL);
  gst_object_unref (b->src);
  if (b->histogram)
    gst_object_unref (b->histogram);
  gst_object_unref (b->pipeline);
  g_free (b);
}

/* Aborts with the error on the bus, if one is there. */
static void
check_bus_for_error (Bench *b)
{
  GstBus *bus = gst_element_get_bus (b->pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg)
    die_on_error_message (msg);
  gst_object_unref (bus);
}

static void
bench_set_state (Bench *b, GstState state)
{
  if (gst_element_set_state (b->pipeline, state)
      == GST_STATE_CHANGE_FAILURE) {
    check_bus_for_error (b);
    g_printerr ("the pipeline refused state %s\n",
        gst_element_state_get_name (state));
    exit (1);
  }
}

/* Waits for EOS; aborts on an error or a stall. */
static void
wait_for_eos (Bench *b)
{
  GstBus *bus = gst_element_get_bus (b->pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, EOS_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  gst_object_unref (bus);
  if (!msg) {
    g_printerr ("no EOS after %" GST_TIME_FORMAT "\n",
        GST_TIME_ARGS (EOS_TIMEOUT));
    exit (1);
  }
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    die_on_error_message (msg);
  gst_message_unref (msg);
}

/* One run of @n_frames frames: wall and CPU seconds from the first push to
 * EOS on the bus. The pipeline goes back to READY after it. */
static void
bench_run (Bench *b, const Frames *f, guint n_frames, gdouble *wall,
    gdouble *cpu)
{
  gdouble t0, c0;
  guint i;

  g_atomic_int_set (&b->messages, 0);
  bench_set_state (b, GST_STATE_PLAYING);

  t0 = clh_bench_now_us () / 1e6;
  c0 = cpu_s ();
  for (i = 0; i < n_frames; i++)
    if (gst_app_src_push_buffer (GST_APP_SRC (b->src), wrap_frame (f, i))
        != GST_FLOW_OK)
      break;                    /* an error: wait_for_eos reports it */
  gst_app_src_end_of_stream (GST_APP_SRC (b->src));
  wait_for_eos (b);
  *wall = clh_bench_now_us () / 1e6 - t0;
  *cpu = cpu_s () - c0;

  bench_set_state (b, GST_STATE_READY);
}

/* One histogram message per frame when post-messages is on, none when
 * off: a sanity check of the counting, not of time. */
static void
check_messages (Bench *b, const Case *c, guint n_frames)
{
  const guint want = c->post_messages ? n_frames : 0;
  const guint got = g_atomic_int_get (&b->messages);

  if (got == want)
    return;
  g_printerr ("warning: %s %ux%u %s: %u histogram messages for %u frames "
      "(post-messages=%s)\n", gst_video_format_to_string (c->format),
      c->width, c->height, c->content, got, n_frames,
      c->post_messages ? "true" : "false");
  message_mismatches++;
}

/* The device the benchmarked element opened, read after its warm-up run
 * (it holds the device from READY on): the one the probe named, or a
 * warning. */
static void
check_device (Bench *b)
{
  gchar *name = NULL;

  g_object_get (b->histogram, "device-name", &name, NULL);
  if (g_strcmp0 (name, device_name) != 0)
    g_printerr ("warning: the element used %s, the probe %s\n", name,
        device_name);
  g_free (name);
}

static void
run_case (const Case *c, const Frames *f, guint n_frames, guint runs,
    Result *r)
{
  Bench *with = bench_new (c, f, TRUE), *without = bench_new (c, f, FALSE);
  GArray *fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *cpu = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *base_fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble wall, cpu_time;
  guint run;

  /* Run 0 warms up both pipelines (device buffers, caches, page faults). */
  for (run = 0; run <= runs; run++) {
    bench_run (with, f, n_frames, &wall, &cpu_time);
    check_messages (with, c, n_frames);
    if (run == 0)
      check_device (with);
    if (run > 0) {
      g_array_append_val (fps, (gdouble) { n_frames / wall });
      g_array_append_val (cpu, (gdouble) { cpu_time * 1e6 / n_frames });
    }
    bench_run (without, f, n_frames, &wall, &cpu_time);
    if (run > 0)
      g_array_append_val (base_fps, (gdouble) { n_frames / wall });
  }

  r->fps[0] = clh_bench_percentile (fps, 50);
  r->fps[1] = clh_bench_percentile (fps, 10);
  r->fps[2] = clh_bench_percentile (fps, 90);
  /* The median run's time per frame, so that it matches fps p50. */
  r->us_per_frame = 1e6 / r->fps[0];
  r->cpu_us_per_frame = clh_bench_percentile (cpu, 50);
  r->base_fps = clh_bench_percentile (base_fps, 50);
  r->base_us_per_frame = 1e6 / r->base_fps;
  r->frames = n_frames;
  r->runs = runs;

  g_array_unref (fps);
  g_array_unref (cpu);
  g_array_unref (base_fps);
  bench_free (with);
  bench_free (without);
}

/* ---- the device ---- */

/* Opens the device once in a pipeline of its own: checks that the element
 * and a device are there and reads device-name; the platform and driver
 * come from the engine the element is built on, opened the same way
 * (the default device). */
static gchar *
probe_platform (gchar **driver)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *h = gst_element_factory_make ("clhistogram", NULL);
  ClhEngine *engine;
  gchar *platform = NULL;

  *driver = NULL;
  if (!h) {
    g_printerr ("The clhistogram element was not found. Run from the source "
        "tree with GST_PLUGIN_PATH=build, e.g.\n"
        "  GST_PLUGIN_PATH=build build/bench/clh-pipeline-bench --quick\n");
    exit (1);
  }
  gst_bin_add (GST_BIN (pipeline), h);
  if (gst_element_set_state (pipeline, GST_STATE_READY)
      == GST_STATE_CHANGE_FAILURE) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg)
      die_on_error_message (msg);
    g_printerr ("clhistogram could not open an OpenCL device\n");
    exit (1);
  }
  g_object_get (h, "device-name", &device_name, NULL);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  if ((engine = clh_engine_new (NULL, NULL))) {
    if (g_str_equal (clh_engine_get_device_name (engine), device_name)) {
      platform = g_strdup (clh_engine_get_platform_name (engine));
      *driver = clh_engine_get_driver_version (engine);
    }
    clh_engine_free (engine);
  }
  return platform;
}

/* ---- cases, output ---- */

static void
add_case (GPtrArray *cases, GstVideoFormat format, guint width, guint height,
    const gchar *content, const gchar *real_file, gboolean post_messages)
{
  Case *c = g_new0 (Case, 1);

  c->format = format;
  c->width = width;
  c->height = height;
  c->content = content;
  c->real_file = real_file;
  c->post_messages = post_messages;
  g_ptr_array_add (cases, c);
}

/* One case per post-messages value that @choice asks for. */
static void
add_cases (GPtrArray *cases, GstVideoFormat format, guint width,
    guint height, const gchar *content, const gchar *real_file,
    MessagesChoice choice)
{
  gboolean both = choice == MESSAGES_BOTH || (choice == MESSAGES_AUTO
      && format == GST_VIDEO_FORMAT_GRAY8 && width == 600 && height == 480);

  if (choice != MESSAGES_OFF)
    add_case (cases, format, width, height, content, real_file, TRUE);
  if (both || choice == MESSAGES_OFF)
    add_case (cases, format, width, height, content, real_file, FALSE);
}

static void
print_header (const gchar *platform, guint runs)
{
  printf ("device: %s (%s), driver %s\n", device_name ? device_name :
      "unknown", platform ? platform : "platform unknown",
      driver ? driver : "unknown");
  printf ("%d frames rotated; fps p50/p10/p90 over %u runs after a warm-up; "
      "us/frame of the p50 run; cpu: process user+sys per frame, p50;\n"
      "base: the same pipeline without clhistogram; ratio: fps / base fps\n",
      N_ROTATED, runs);
  printf ("%-6s %-9s %-9s %-4s %6s | %8s %8s %8s | %8s %8s | %8s %8s | "
      "%6s\n", "format", "size", "content", "msgs", "frames", "fps p50",
      "p10", "p90", "us/frame", "cpu us", "base fps", "base us", "ratio");
}

static void
print_row (const Case *c, const Frames *f, const Result *r)
{
  gchar size[32], content[32];

  g_snprintf (size, sizeof (size), "%ux%u", c->width, c->height);
  if (f->n_real)
    g_snprintf (content, sizeof (content), "real(%u)", f->n_real);
  else
    g_strlcpy (content, c->content, sizeof (content));
  printf ("%-6s %-9s %-9s %-4s %6u | %8.1f %8.1f %8.1f | %8.1f %8.1f | "
      "%8.1f %8.1f | %6.3g\n", gst_video_format_to_string (c->format), size,
      content, c->post_messages ? "on" : "off", r->frames, r->fps[0],
      r->fps[1], r->fps[2], r->us_per_frame, r->cpu_us_per_frame,
      r->base_fps, r->base_us_per_frame, r->fps[0] / r->base_fps);
  fflush (stdout);
}

static void
json_case (GString *json, const Case *c, const Result *r, gboolean last)
{
  g_string_append_printf (json, "    {\"format\": \"%s\", \"width\": %u, "
      "\"height\": %u, \"content\": \"%s\", \"post_messages\": %s, "
      "\"frames\": %u, \"runs\": %u, \"fps_p50\": %.2f, \"fps_p10\": %.2f, "
      "\"fps_p90\": %.2f, \"us_per_frame_p50\": %.2f, "
      "\"cpu_us_per_frame_p50\": %.2f, \"baseline_fps_p50\": %.2f, "
      "\"baseline_us_per_frame_p50\": %.2f}%s\n",
      gst_video_format_to_string (c->format), c->width, c->height,
      c->content, c->post_messages ? "true" : "false", r->frames, r->runs,
      r->fps[0], r->fps[1], r->fps[2], r->us_per_frame, r->cpu_us_per_frame,
      r->base_fps, r->base_us_per_frame, last ? "" : ",");
}

static void
write_json (const gchar *path, const gchar *platform, GString *cases)
{
  GString *json = g_string_new ("{\n  \"device\": ");
  GError *err = NULL;

  clh_bench_json_string (json, device_name);
  g_string_append (json, ",\n  \"platform\": ");
  clh_bench_json_string (json, platform);
  g_string_append (json, ",\n  \"driver\": ");
  clh_bench_json_string (json, driver);
  g_string_append_printf (json, ",\n  \"cases\": [\n%s  ]\n}\n", cases->str);
  if (!g_file_set_contents (path, json->str, -1, &err)) {
    g_printerr ("%s\n", err->message);
    exit (1);
  }
  g_string_free (json, TRUE);
}

static MessagesChoice
parse_messages (const gchar *s)
{
  static const gchar *const names[] = { "auto", "both", "on", "off" };
  guint i;

  for (i = 0; s && i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (s, names[i]))
      return (MessagesChoice) i;
  if (s) {
    g_printerr ("--messages: auto, both, on or off, not %s\n", s);
    exit (1);
  }
  return MESSAGES_AUTO;
}

typedef struct {
  gboolean quick;
  gint frames, runs;
  gchar *real[3];               /* GRAY8, RGBA, NV12 */
  gchar *json, *format, *size, *messages;
} Options;

static void
parse_options (Options *o, int *argc, char ***argv)
{
  GOptionEntry entries[] = {
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &o->quick,
        "600x480 only, 300 frames, 3 runs (for slow CPU devices)", NULL},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &o->frames,
        "Frames per run (default 2000 at 600x480, 500 at 1920x1080)", "N"},
    {"runs", 'r', 0, G_OPTION_ARG_INT, &o->runs,
        "Timed runs per case, after a warm-up (default 5)", "N"},
    {"real-gray8", 0, 0, G_OPTION_ARG_FILENAME, &o->real[0],
        "Raw packed 600x480 GRAY8 frames of a real video", "FILE"},
    {"real-rgba", 0, 0, G_OPTION_ARG_FILENAME, &o->real[1],
        "Raw packed 600x480 RGBA frames of a real video", "FILE"},
    {"real-nv12", 0, 0, G_OPTION_ARG_FILENAME, &o->real[2],
        "Raw packed 600x480 NV12 frames of a real video", "FILE"},
    {"json", 'j', 0, G_OPTION_ARG_FILENAME, &o->json, "Write JSON here",
        "FILE"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
        "Only this format: GRAY8, RGBA or NV12", "F"},
    {"size", 's', 0, G_OPTION_ARG_STRING, &o->size,
        "Only this size: 600x480 or 1920x1080", "WxH"},
    {"messages", 'm', 0, G_OPTION_ARG_STRING, &o->messages,
        "post-messages rows: auto (both for GRAY8 600x480, else on), both, "
        "on, off", "auto"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- time clhistogram in a "
      "GStreamer pipeline against the same pipeline without it");
  GError *err = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, argc, argv, &err)) {
    g_printerr ("%s\n", err->message);
    exit (1);
  }
  g_option_context_free (ctx);
  if (o->frames < 0 || o->runs < 0) {
    g_printerr ("--frames and --runs must be positive\n");
    exit (1);
  }
}

static GPtrArray *
build_cases (const Options *o)
{
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12
  };
  static const guint sizes[][2] = { {600, 480}, {1920, 1080} };
  static const gchar *const contents[] = { "uniform", "one-value", "real" };
  const MessagesChoice choice = parse_messages (o->messages);
  GPtrArray *cases = g_ptr_array_new_with_free_func (g_free);
  guint fm, s, k, w = 0, h = 0;

  for (fm = 0; fm < G_N_ELEMENTS (formats); fm++)
    if (o->real[fm])
      check_real_file (o->real[fm], formats[fm]);
  if (o->size && sscanf (o->size, "%ux%u", &w, &h) != 2) {
    g_printerr ("--size: WxH, e.g. 600x480\n");
    exit (1);
  }
  for (fm = 0; fm < G_N_ELEMENTS (formats); fm++) {
    if (o->format && gst_video_format_from_string (o->format) != formats[fm])
      continue;
    for (s = 0; s < (o->quick ? 1u : G_N_ELEMENTS (sizes)); s++) {
      if (o->size && (sizes[s][0] != w || sizes[s][1] != h))
        continue;
      for (k = 0; k < G_N_ELEMENTS (contents); k++)
        if (k < 2 || (s == 0 && o->real[fm]))
          add_cases (cases, formats[fm], sizes[s][0], sizes[s][1],
              contents[k], k == 2 ? o->real[fm] : NULL, choice);
    }
  }
  if (cases->len == 0) {
    g_printerr ("no case matches --format/--size (GRAY8, RGBA, NV12; "
        "600x480, 1920x1080%s)\n", o->quick ? "; --quick: 600x480 only" : "");
    exit (1);
  }
  return cases;
}

static guint
frames_for (const Options *o, const Case *c)
{
  if (o->frames > 0)
    return o->frames;
  if (o->quick)
    return 300;
  return c->width * c->height > 600 * 480 ? 500 : 2000;
}

int
main (int argc, char **argv)
{
  Options o = { 0 };
  GPtrArray *cases;
  GString *json_cases = g_string_new (NULL);
  gchar *platform;
  guint runs, i;

  parse_options (&o, &argc, &argv);
  gst_init (NULL, NULL);
  runs = o.runs > 0 ? o.runs : o.quick ? 3 : 5;
  cases = build_cases (&o);
  platform = probe_platform (&driver);
  print_header (platform, runs);

  for (i = 0; i < cases->len; i++) {
    const Case *c = g_ptr_array_index (cases, i);
    Frames f;
    Result r;

    frames_init (&f, c);
    run_case (c, &f, frames_for (&o, c), runs, &r);
    print_row (c, &f, &r);
    json_case (json_cases, c, &r, i + 1 == cases->len);
    frames_clear (&f);
  }
  if (o.json)
    write_json (o.json, platform, json_cases);

  g_string_free (json_cases, TRUE);
  g_ptr_array_unref (cases);
  g_free (platform);
  g_free (driver);
  g_free (device_name);
  g_free (o.real[0]);
  g_free (o.real[1]);
  g_free (o.real[2]);
  g_free (o.json);
  g_free (o.format);
  g_free (o.size);
  g_free (o.messages);
  if (message_mismatches) {
    g_printerr ("%d case(s) had the wrong number of histogram messages\n",
        message_mismatches);
    return 2;
  }
  return 0;
}
