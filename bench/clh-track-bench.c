/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-track-bench: what clcamshift costs per frame in a running pipeline,
 * on real frames, against the same pipeline with identity in its place.
 *
 *   appsrc format=time ! clcamshift | identity ! fakesink sync=false
 *
 * Frames are raw BGR, WxH, concatenated in one file (--frames-file: rows in
 * GStreamer's default layout, i.e. packed when W is a multiple of 4, as
 * `videoconvert ! video/x-raw,format=BGR ! filesink` writes them). They are
 * read into memory once and pushed as plain buffers that wrap them (no
 * copy, no pool: the element uploads from ordinary memory), looping over
 * the file's frames, non-live.
 *
 * Tracks: the windows are a 4x4 grid over the frame, each window 1/8 of
 * the frame's width and height centred in its cell (cell i = row * 4 +
 * col); bench/camshift_opencv.py uses the same rule. One track is the
 * `window` property set to window 0; N > 1 tracks are N
 * GstVideoRegionOfInterestMeta of type "track", ids 0..N-1, on the first
 * buffer only (tracks persist on later buffers).
 *
 * One pipeline per element and track count: a warm-up block (device,
 * program, the tracks' models), then --runs rounds of one block of
 * --frames frames per message setting (post-messages off, on, alternating;
 * identity has no such setting and runs one block per round). A block is
 * timed from its first push to its last buffer at the sink; the process's
 * CPU time (getrusage, user + system, all threads) is taken over the same
 * span. Reports the median us/frame over the rounds, frames/s, CPU
 * us/frame, `camshift` messages per frame, and checks that each buffer at
 * the sink carries one "camshift" ROI meta per track. The element's own
 * cost is its row less identity's at the same track count.
 *
 * Not a test: it asserts nothing about time. Exit status 0, 1 if a case
 * failed (an error, frames lost, wrong metas), 2 for bad options or a
 * missing element.
 *
 *   GST_PLUGIN_PATH=build/gst build/bench/clh-track-bench \
 *       --frames-file /tmp/vtest.BGR --width 600 --height 480 --tracks 1,16 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "clh-bench-stats.h"

#define GRID 4
#define MAX_TRACKS (GRID * GRID)
#define FRAME_DURATION (GST_SECOND / 30)

typedef struct {
  guint8 *data;
  gsize size;                   /* one frame's bytes */
  guint n;                      /* frames in memory */
  GstVideoInfo info;
} Frames;

typedef struct {
  gint x, y, width, height;
} Window;

typedef struct {
  GMutex lock;
  GCond cond;
  guint64 arrived;
  guint64 wrong_metas;          /* buffers without one meta per track */
  guint expect_metas;           /* 0: no check (identity) */
  gint messages;                /* `camshift` messages, atomic */
  gchar *error;                 /* the first error on the bus */
} Sink;

typedef struct {
  gchar *frames_file;
  gint width, height;
  gint frames, warmup, runs, file_frames;
  gchar *tracks, *elements, *messages, *device, *json;
  gchar **set;
} Options;

static GQuark camshift_quark;

/* Window @i of the 4x4 grid: 1/8 of the frame each way, centred in its
 * cell. */
static void
grid_window (guint i, gint width, gint height, Window *w)
{
  const gint col = i % GRID, row = i / GRID;

  w->width = MAX (1, width / 8);
  w->height = MAX (1, height / 8);
  w->x = col * width / GRID + (width / GRID - w->width) / 2;
  w->y = row * height / GRID + (height / GRID - w->height) / 2;
}

/* "1,16" into @out; FALSE if any entry is not in [@min, @max]. */
static gboolean
parse_uint_list (const gchar *list, guint min, guint max, GArray *out)
{
  gchar **parts = g_strsplit (list, ",", -1);
  gboolean ok = parts[0] != NULL;
  guint i;

  for (i = 0; ok && parts[i]; i++) {
    guint64 v;

    ok = g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, min, max, &v,
        NULL);
    if (ok) {
      guint u = (guint) v;

      g_array_append_val (out, u);
    }
  }
  g_strfreev (parts);
  return ok;
}

/* "off,on" into booleans. */
static gboolean
parse_switch_list (const gchar *list, GArray *out)
{
  gchar **parts = g_strsplit (list, ",", -1);
  gboolean ok = parts[0] != NULL;
  guint i;

  for (i = 0; ok && parts[i]; i++) {
    const gchar *p = g_strstrip (parts[i]);
    gboolean on = g_str_equal (p, "on");

    ok = on || g_str_equal (p, "off");
    if (ok)
      g_array_append_val (out, on);
  }
  g_strfreev (parts);
  return ok;
}

/* Reads up to @max frames (0: all) of @path; exits 1 if there is not one
 * whole frame. */
static void
frames_read (Frames *f, const gchar *path, gint width, gint height,
    guint max)
{
  GError *err = NULL;
  gchar *contents;
  gsize length;

  gst_video_info_set_format (&f->info, GST_VIDEO_FORMAT_BGR, width, height);
  GST_VIDEO_INFO_FPS_N (&f->info) = 30;
  GST_VIDEO_INFO_FPS_D (&f->info) = 1;
  f->size = GST_VIDEO_INFO_SIZE (&f->info);
  if (!g_file_get_contents (path, &contents, &length, &err)) {
    g_printerr ("cannot read the frames file: %s\n", err->message);
    exit (1);
  }
  f->n = length / f->size;
  if (f->n == 0) {
    g_printerr ("%s holds %" G_GSIZE_FORMAT " bytes, less than one %dx%d "
        "BGR frame (%" G_GSIZE_FORMAT " bytes)\n", path, length, width,
        height, f->size);
    exit (1);
  }
  if (length % f->size)
    g_printerr ("warning: %s ends with %" G_GSIZE_FORMAT " bytes that are "
        "no whole frame (wrong --width or --height?)\n", path,
        length % f->size);
  if (max > 0 && f->n > max)
    f->n = max;
  f->data = (guint8 *) contents;
}

/* Frame @index of the stream: a plain buffer wrapping frame index % n in
 * place; writable memory, so that nothing copies it. Its only reference
 * goes to appsrc, so the in-place element can add its metas. */
static GstBuffer *
wrap_frame (const Frames *f, guint64 index)
{
  GstBuffer *buffer = gst_buffer_new_wrapped_full (0,
      f->data + (index % f->n) * f->size, f->size, 0, f->size, NULL, NULL);

  GST_BUFFER_PTS (buffer) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buffer) = FRAME_DURATION;
  return buffer;
}

static void
on_handoff (GstElement *fakesink, GstBuffer *buffer, GstPad *pad, Sink *sink)
{
  gpointer state = NULL;
  GstMeta *meta;
  guint n = 0;

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
    if (((GstVideoRegionOfInterestMeta *) meta)->roi_type == camshift_quark)
      n++;
  g_mutex_lock (&sink->lock);
  sink->arrived++;
  if (sink->expect_metas && n != sink->expect_metas)
    sink->wrong_metas++;
  g_cond_signal (&sink->cond);
  g_mutex_unlock (&sink->lock);
}

/* Counts and drops the `camshift` messages (so that the bus does not
 * grow), and wakes a waiting block on an error. */
static GstBusSyncReply
on_bus (GstBus *bus, GstMessage *message, gpointer data)
{
  Sink *sink = data;
  const GstStructure *s = gst_message_get_structure (message);

  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ELEMENT && s
      && gst_structure_has_name (s, "camshift")) {
    g_atomic_int_inc (&sink->messages);
    return GST_BUS_DROP;
  }
  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR
      || GST_MESSAGE_TYPE (message) == GST_MESSAGE_WARNING) {
    GError *err = NULL;
    gchar *debug = NULL;
    gchar *text;

    if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR)
      gst_message_parse_error (message, &err, &debug);
    else
      gst_message_parse_warning (message, &err, &debug);
    text = g_strdup_printf ("%s from %s: %s (%s)",
        GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR ? "error" :
        "warning", GST_OBJECT_NAME (GST_MESSAGE_SRC (message)), err->message,
        debug ? debug : "no details");
    if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_WARNING) {
      g_printerr ("%s\n", text);
      g_free (text);
    } else {
      g_mutex_lock (&sink->lock);
      if (!sink->error)
        sink->error = text;
      else
        g_free (text);
      g_cond_signal (&sink->cond);
      g_mutex_unlock (&sink->lock);
    }
    g_clear_error (&err);
    g_free (debug);
  }
  return GST_BUS_PASS;
}

/* Pushes @n frames and waits for them at the sink; per-frame wall and CPU
 * us, and the buffers with wrong metas among them. FALSE (and a line on
 * stderr) if they did not all arrive. */
static gboolean
time_block (GstElement *src, Sink *sink, const Frames *f, guint64 *index,
    guint n, gdouble *wall_us, gdouble *cpu_us, guint64 *wrong)
{
  gdouble t0, c0;
  guint64 target, wrong0;
  gboolean ok = TRUE;
  guint i;

  /* Every frame pushed so far, the previous blocks' included: one still
   * on its way must not count as one of this block's. */
  target = *index + n;
  g_mutex_lock (&sink->lock);
  wrong0 = sink->wrong_metas;
  g_mutex_unlock (&sink->lock);
  t0 = clh_bench_now_us ();
  c0 = clh_bench_cpu_us ();
  for (i = 0; i < n; i++) {
    if (gst_app_src_push_buffer (GST_APP_SRC (src),
            wrap_frame (f, (*index)++)) != GST_FLOW_OK) {
      ok = FALSE;
      break;
    }
  }
  g_mutex_lock (&sink->lock);
  while (ok && !sink->error && sink->arrived < target)
    ok = g_cond_wait_until (&sink->cond, &sink->lock,
        g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND);
  *wall_us = (clh_bench_now_us () - t0) / n;
  *cpu_us = (clh_bench_cpu_us () - c0) / n;
  *wrong = sink->wrong_metas - wrong0;
  if (sink->error) {
    g_printerr ("  %s\n", sink->error);
    ok = FALSE;
  } else if (!ok) {
    g_printerr ("  %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " frames "
        "reached the sink within 60 s\n", sink->arrived, target);
  }
  g_mutex_unlock (&sink->lock);
  return ok;
}

/* The `window` property: a GstValueArray of 4 gint. */
static void
set_window (GstElement *element, const Window *w)
{
  GValue array = G_VALUE_INIT, v = G_VALUE_INIT;

  g_value_init (&array, GST_TYPE_ARRAY);
  g_value_init (&v, G_TYPE_INT);
  g_value_set_int (&v, w->x);
  gst_value_array_append_value (&array, &v);
  g_value_set_int (&v, w->y);
  gst_value_array_append_value (&array, &v);
  g_value_set_int (&v, w->width);
  gst_value_array_append_value (&array, &v);
  g_value_set_int (&v, w->height);
  gst_value_array_append_value (&array, &v);
  g_object_set_property (G_OBJECT (element), "window", &array);
  g_value_unset (&v);
  g_value_unset (&array);
}

typedef struct {
  const gchar *element;
  guint tracks;
  gboolean messages;            /* camshift only */
  GArray *wall, *cpu;           /* per block */
  guint64 frames, wrong_metas;
  gint messages_seen;
  gdouble median_us, min_us, max_us, median_cpu_us;
  gboolean ok;
} Row;

/* The median of @values (left in their order), and their extremes. */
static gdouble
median (GArray *values, gdouble *min, gdouble *max)
{
  GArray *sorted = g_array_copy (values);
  gdouble m = clh_bench_percentile (sorted, 50);

  if (min)
    *min = sorted->len ? g_array_index (sorted, gdouble, 0) : 0;
  if (max)
    *max = sorted->len ? g_array_index (sorted, gdouble, sorted->len - 1)
        : 0;
  g_array_unref (sorted);
  return m;
}

static Row *
row_new (GPtrArray *rows, const gchar *element, guint tracks,
    gboolean messages)
{
  Row *row = g_new0 (Row, 1);

  row->element = element;
  row->tracks = tracks;
  row->messages = messages;
  row->wall = g_array_new (FALSE, FALSE, sizeof (gdouble));
  row->cpu = g_array_new (FALSE, FALSE, sizeof (gdouble));
  row->ok = TRUE;
  g_ptr_array_add (rows, row);
  return row;
}

static void
row_free (Row *row)
{
  g_array_unref (row->wall);
  g_array_unref (row->cpu);
  g_free (row);
}

/* One pipeline with @element and @tracks tracks: the warm-up, then the
 * rounds, one block per message setting. Appends a row per setting. */
static gboolean
run_case (const Options *o, const Frames *f, const gchar *element,
    guint tracks, GArray *msg_settings, GPtrArray *rows, gchar **device_name)
{
  const gboolean camshift = g_str_equal (element, "clcamshift");
  const guint n_settings = camshift ? msg_settings->len : 1;
  Row *case_rows[8];
  Sink sink = { 0 };
  GstElement *pipeline, *src, *el, *fakesink;
  GstBus *bus;
  GstCaps *caps;
  GstBuffer *first;
  GError *err = NULL;
  guint64 index = 0, wrong;
  gchar *desc;
  gboolean ok = TRUE;
  gdouble w, u;
  guint r, s, i;

  for (s = 0; s < n_settings; s++)
    case_rows[s] = row_new (rows, element, tracks, camshift &&
        g_array_index (msg_settings, gboolean, s));

  desc = g_strdup_printf ("appsrc name=src format=time is-live=false ! "
      "%s name=el ! fakesink name=sink sync=false signal-handoffs=true",
      element);
  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipeline) {
    g_printerr ("  cannot make the pipeline: %s\n", err->message);
    g_clear_error (&err);
    for (s = 0; s < n_settings; s++)
      case_rows[s]->ok = FALSE;
    return FALSE;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  el = gst_bin_get_by_name (GST_BIN (pipeline), "el");
  fakesink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  caps = gst_video_info_to_caps (&f->info);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  g_mutex_init (&sink.lock);
  g_cond_init (&sink.cond);
  sink.expect_metas = camshift ? tracks : 0;
  g_signal_connect (fakesink, "handoff", G_CALLBACK (on_handoff), &sink);
  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, on_bus, &sink, NULL);

  if (camshift) {
    if (o->device)
      g_object_set (el, "device", o->device, NULL);
    for (i = 0; o->set && o->set[i]; i++) {
      gchar **kv = g_strsplit (o->set[i], "=", 2);

      if (kv[0] && kv[1]
          && g_object_class_find_property (G_OBJECT_GET_CLASS (el), kv[0]))
        gst_util_set_object_arg (G_OBJECT (el), kv[0], kv[1]);
      else
        g_printerr ("  --set %s: clcamshift has no such property\n",
            o->set[i]);
      g_strfreev (kv);
    }
    g_object_set (el, "post-messages", g_array_index (msg_settings, gboolean,
            0), NULL);
    if (tracks == 1) {
      Window win;

      grid_window (0, f->info.width, f->info.height, &win);
      set_window (el, &win);
    }
  }

  /* The first frame, with the tracks' ROI metas when there are several. */
  first = wrap_frame (f, index++);
  if (tracks > 1)
    for (i = 0; i < tracks; i++) {
      GstVideoRegionOfInterestMeta *roi;
      Window win;

      grid_window (i, f->info.width, f->info.height, &win);
      roi = gst_buffer_add_video_region_of_interest_meta (first, "track",
          win.x, win.y, win.width, win.height);
      roi->id = i;
    }

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE) {
    g_printerr ("  %s does not start: %s\n", element,
        sink.error ? sink.error : "state change failed");
    gst_buffer_unref (first);
    ok = FALSE;
  }
  if (ok && camshift && !*device_name
      && g_object_class_find_property (G_OBJECT_GET_CLASS (el),
          "device-name"))
    g_object_get (el, "device-name", device_name, NULL);

  /* Warm-up: the first frame, then the rest of the block. */
  if (ok) {
    ok = gst_app_src_push_buffer (GST_APP_SRC (src), first) == GST_FLOW_OK
        && time_block (src, &sink, f, &index, MAX (1, o->warmup), &w, &u,
        &wrong);
  }
  for (r = 0; ok && r < (guint) o->runs; r++)
    for (s = 0; ok && s < n_settings; s++) {
      Row *row = case_rows[s];
      gint m0;

      if (camshift)
        g_object_set (el, "post-messages", row->messages, NULL);
      m0 = g_atomic_int_get (&sink.messages);
      ok = time_block (src, &sink, f, &index, o->frames, &w, &u, &wrong);
      /* Untimed: a frame's messages may come just after the frame reaches
       * the sink; wait up to 1 s for the block's, so that they count here
       * and not in the next block. */
      if (ok && camshift && row->messages) {
        const gint64 end = g_get_monotonic_time () + G_TIME_SPAN_SECOND;

        while ((guint64) (g_atomic_int_get (&sink.messages) - m0)
            < (guint64) tracks * o->frames && g_get_monotonic_time () < end)
          g_usleep (100);
      }
      if (ok) {
        g_array_append_val (row->wall, w);
        g_array_append_val (row->cpu, u);
        row->frames += o->frames;
        row->wrong_metas += wrong;
        row->messages_seen += g_atomic_int_get (&sink.messages) - m0;
      }
    }

  if (ok) {
    GstMessage *m;

    gst_app_src_end_of_stream (GST_APP_SRC (src));
    m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (!m || GST_MESSAGE_TYPE (m) != GST_MESSAGE_EOS) {
      g_printerr ("  no EOS at the end of the stream\n");
      ok = FALSE;
    }
    if (m)
      gst_message_unref (m);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);

  for (s = 0; s < n_settings; s++) {
    Row *row = case_rows[s];

    row->ok = ok && row->wrong_metas == 0;
    row->median_us = median (row->wall, &row->min_us, &row->max_us);
    row->median_cpu_us = median (row->cpu, NULL, NULL);
  }
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (el);
  gst_object_unref (fakesink);
  gst_object_unref (pipeline);
  g_mutex_clear (&sink.lock);
  g_cond_clear (&sink.cond);
  g_free (sink.error);
  return ok;
}

static void
print_row (const Row *row)
{
  gchar msgs[32];
  if (g_str_equal (row->element, "clcamshift"))
    g_snprintf (msgs, sizeof msgs, "%-3s %6.2f", row->messages ? "on" : "off",
        row->frames ? (gdouble) row->messages_seen / row->frames : 0.0);
  else
    g_snprintf (msgs, sizeof msgs, "%-3s %6s", "-", "-");
  if (!row->wall->len) {
    printf ("%-10s %6u %-10s  failed\n", row->element, row->tracks, msgs);
    return;
  }
  printf ("%-10s %6u %-10s %10.1f %9.1f %9.1f %10.0f %10.1f  %s\n",
      row->element, row->tracks, msgs, row->median_us, row->min_us,
      row->max_us,
      1e6 / row->median_us, row->median_cpu_us,
      !g_str_equal (row->element, "clcamshift") ? "-" :
      row->wrong_metas ? "WRONG" : "ok");
  if (row->wrong_metas)
    printf ("    %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " buffers did "
        "not carry %u \"camshift\" ROI metas\n", row->wrong_metas,
        row->frames, row->tracks);
}

static void
row_json (GString *json, const Row *row)
{
  guint i;

  g_string_append (json, "{\"element\": ");
  clh_bench_json_string (json, row->element);
  g_string_append_printf (json, ", \"tracks\": %u, \"messages\": %s, "
      "\"ok\": %s, \"frames\": %" G_GUINT64_FORMAT ", \"us_per_frame\": %.2f, "
      "\"cpu_us_per_frame\": %.2f, \"frames_per_s\": %.1f, "
      "\"messages_seen\": %d, \"wrong_metas\": %" G_GUINT64_FORMAT
      ", \"runs_us\": [", row->tracks,
      g_str_equal (row->element, "clcamshift") ? (row->messages ? "true" :
          "false") : "null", row->ok ? "true" : "false", row->frames,
      row->median_us, row->median_cpu_us,
      row->median_us > 0 ? 1e6 / row->median_us : 0.0, row->messages_seen,
      row->wrong_metas);
  for (i = 0; i < row->wall->len; i++)
    g_string_append_printf (json, "%s%.2f", i ? ", " : "",
        g_array_index (row->wall, gdouble, i));
  g_string_append (json, "], \"runs_cpu_us\": [");
  for (i = 0; i < row->cpu->len; i++)
    g_string_append_printf (json, "%s%.2f", i ? ", " : "",
        g_array_index (row->cpu, gdouble, i));
  g_string_append (json, "]}");
}

static const Row *
find_row (GPtrArray *rows, const gchar *element, guint tracks)
{
  guint i;

  for (i = 0; i < rows->len; i++) {
    const Row *row = g_ptr_array_index (rows, i);

    if (g_str_equal (row->element, element) && row->tracks == tracks
        && row->wall->len)
      return row;
  }
  return NULL;
}

int
main (int argc, char **argv)
{
  static const gchar *const order[] = { "identity", "clcamshift" };
  Options o = { NULL, 0, 0, 500, 30, 5, 0, NULL, NULL, NULL, NULL, NULL };
  GOptionEntry entries[] = {
    {"frames-file", 0, 0, G_OPTION_ARG_FILENAME, &o.frames_file,
        "Raw BGR frames, concatenated (required)", "FILE"},
    {"width", 0, 0, G_OPTION_ARG_INT, &o.width, "Frame width (required)",
        "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &o.height,
        "Frame height (required)", "H"},
    {"tracks", 0, 0, G_OPTION_ARG_STRING, &o.tracks,
        "Track counts, 1..16 (default 1,16)", "LIST"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &o.frames,
        "Frames per timed block, looping over the file (default 500)", "N"},
    {"warmup", 0, 0, G_OPTION_ARG_INT, &o.warmup,
        "Frames of the warm-up block (default 30)", "N"},
    {"runs", 0, 0, G_OPTION_ARG_INT, &o.runs,
        "Timed blocks per setting (default 5)", "R"},
    {"file-frames", 0, 0, G_OPTION_ARG_INT, &o.file_frames,
        "Use only the file's first N frames (default 0: all)", "N"},
    {"elements", 0, 0, G_OPTION_ARG_STRING, &o.elements,
        "Elements to time (default clcamshift,identity)", "LIST"},
    {"messages", 0, 0, G_OPTION_ARG_STRING, &o.messages,
        "clcamshift's post-messages settings (default off,on)", "LIST"},
    {"device", 0, 0, G_OPTION_ARG_STRING, &o.device,
        "clcamshift's device property (default: its own, auto)", "DEVICE"},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, &o.json, "Write JSON here",
        "FILE"},
    {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.set,
        "Set a clcamshift property (repeatable), e.g. min-mass=0",
        "PROP=VALUE"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- clcamshift against "
      "identity on real frames");
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *msg_settings = g_array_new (FALSE, FALSE, sizeof (gboolean));
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)
      row_free);
  gchar **elements;
  gchar *device_name = NULL;
  GString *json;
  GError *err = NULL;
  Frames f = { 0 };
  gboolean all_ok = TRUE;
  guint e, t, i;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (!o.frames_file || o.width < 1 || o.height < 1) {
    g_printerr ("--frames-file, --width and --height are required\n");
    return 2;
  }
  if (o.frames < 1 || o.runs < 1 || o.warmup < 0 || o.file_frames < 0) {
    g_printerr ("--frames and --runs must be positive, --warmup and "
        "--file-frames at least 0\n");
    return 2;
  }
  if (!parse_uint_list (o.tracks ? o.tracks : "1,16", 1, MAX_TRACKS,
          tracks)) {
    g_printerr ("--tracks: a list of counts from 1 to %d, e.g. 1,16\n",
        MAX_TRACKS);
    return 2;
  }
  if (!parse_switch_list (o.messages ? o.messages : "off,on", msg_settings)
      || msg_settings->len > 8) {
    g_printerr ("--messages: a list of on and off, e.g. off,on\n");
    return 2;
  }
  elements = g_strsplit (o.elements ? o.elements : "clcamshift,identity",
      ",", -1);
  for (e = 0; elements[e]; e++) {
    GstElementFactory *factory;

    g_strstrip (elements[e]);
    if (!g_str_equal (elements[e], "clcamshift")
        && !g_str_equal (elements[e], "identity")) {
      g_printerr ("--elements: clcamshift and/or identity, not \"%s\"\n",
          elements[e]);
      return 2;
    }
    factory = gst_element_factory_find (elements[e]);
    if (!factory) {
      g_printerr ("there is no %s element: build the plugin and point "
          "GST_PLUGIN_PATH at build/gst (or run with "
          "--elements identity)\n", elements[e]);
      return 2;
    }
    gst_object_unref (factory);
  }
  camshift_quark = g_quark_from_static_string ("camshift");
  frames_read (&f, o.frames_file, o.width, o.height, o.file_frames);

  printf ("%s: %u frames of %dx%d BGR; blocks of %d frames (warm-up %d), "
      "%d runs; median us/frame over the runs, min..max, CPU us/frame of "
      "the process\n", o.frames_file, f.n, o.width, o.height, o.frames,
      o.warmup, o.runs);
  printf ("%-10s %6s %-3s %6s %10s %9s %9s %10s %10s  %s\n", "element",
      "tracks", "msg", "msg/fr", "us/frame", "min", "max", "frames/s",
      "cpu us/fr", "metas");
  /* Per track count, identity first: the floor the element adds to. */

  for (t = 0; t < tracks->len; t++) {
    const guint n = g_array_index (tracks, guint, t);

    for (e = 0; e < G_N_ELEMENTS (order); e++) {
      const gchar *el = order[e];
      const guint first = rows->len;

      if (!g_strv_contains ((const gchar * const *) elements, el))
        continue;

      if (!run_case (&o, &f, el, n, msg_settings, rows, &device_name))
        all_ok = FALSE;
      for (i = first; i < rows->len; i++) {
        const Row *row = g_ptr_array_index (rows, i);

        all_ok &= row->ok;
        print_row (row);
      }
      fflush (stdout);
    }
  }
  if (device_name)
    printf ("clcamshift's device: %s\n", device_name);

  /* The element's own cost: its rows less identity's. */
  for (t = 0; t < tracks->len; t++) {
    const guint n = g_array_index (tracks, guint, t);
    const Row *id = find_row (rows, "identity", n);

    for (i = 0; id && i < rows->len; i++) {
      const Row *row = g_ptr_array_index (rows, i);

      if (g_str_equal (row->element, "clcamshift") && row->tracks == n
          && row->wall->len)
        printf ("clcamshift's own cost, %2u track%s, messages %-3s: "
            "%9.1f us/frame, %9.1f CPU us/frame\n", n, n == 1 ? " " : "s",
            row->messages ? "on" : "off", row->median_us - id->median_us,
            row->median_cpu_us - id->median_cpu_us);
    }
  }

  json = g_string_new ("{\"frames_file\": ");
  clh_bench_json_string (json, o.frames_file);
  g_string_append_printf (json, ", \"width\": %d, \"height\": %d, "
      "\"file_frames\": %u, \"frames\": %d, \"warmup\": %d, \"runs\": %d, "
      "\"device\": ", o.width, o.height, f.n, o.frames, o.warmup, o.runs);
  clh_bench_json_string (json, device_name);
  g_string_append (json, ", \"rows\": [");
  for (i = 0; i < rows->len; i++) {
    if (i)
      g_string_append (json, ", ");
    row_json (json, g_ptr_array_index (rows, i));
  }
  g_string_append (json, "]}\n");
  if (o.json && !g_file_set_contents (o.json, json->str, -1, &err)) {
    g_printerr ("cannot write %s: %s\n", o.json, err->message);
    g_clear_error (&err);
    all_ok = FALSE;
  }
  g_string_free (json, TRUE);
  g_ptr_array_unref (rows);
  g_array_unref (tracks);
  g_array_unref (msg_settings);
  g_strfreev (elements);
  g_free (device_name);
  g_free (f.data);
  g_free (o.frames_file);
  g_free (o.tracks);
  g_free (o.elements);
  g_free (o.messages);
  g_free (o.device);
  g_free (o.json);
  g_strfreev (o.set);
  return all_ok ? 0 : 1;
}
