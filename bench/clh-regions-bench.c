/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What regions cost: 600x480 and 1920x1080 GRAY8 (luma) and RGBA
 * (channels, 4 x 256 bins) frames in pinned host memory, counted whole and
 * with 1, 16, 64 and 256 regions of 64 x 64 pixels (64 of them also
 * moving a pixel a frame, a new region table every frame), and with zones
 * 5x5 and 15x15 beside the whole frame. Per row, medians over frames: the
 * device's kernel time (profiling events: every launch of the frame), its
 * readback time and the span of its commands; the host's time in the
 * submit call and in the collect call once the device is done; the
 * end-to-end time of one frame (submit to collected, one in flight) and
 * the host CPU per frame; kernel and end to end also as ratios to the
 * whole frame alone. The sets take turns frame by frame, so that a ratio
 * compares frames counted under the same conditions (clocks, the host's
 * other load), each on an engine of its own, as each element has.
 *   clh-regions-bench [--frames N] [--region-pixels P] [--wide-counters]
 *       [--json FILE]
 * --region-pixels sets the pixels a region's work-group aims at (the
 * engine's default when 0); --wide-counters gives every region 32-bit
 * counters. */
#include <string.h>

#include "clh-bench-stats.h"
#include "clh-context.h"
#include "clh-engine-profiling.h"
#include "clh-engine-tuning.h"
#include "clh-reference.h"
#include "clh-reference-layout.h"

/* moving: the windows move by a pixel every frame, as a tracker's do, so
 * that the region table differs from frame to frame. */
typedef struct {
  const gchar *name;
  guint n_windows;
  guint zones;
  gboolean moving;
} RegionSet;

static const RegionSet sets[] = {
  {"whole frame", 0, 0, FALSE}, {"+1 region", 1, 0, FALSE},
  {"+16 regions", 16, 0, FALSE}, {"+64 regions", 64, 0, FALSE},
  {"+64 moving", 64, 0, TRUE}, {"+256 regions", 256, 0, FALSE},
  {"+zones 5x5", 0, 5, FALSE}, {"+zones 15x15", 0, 15, FALSE},
};

/* span: the frame's commands on the device, first start to last end;
 * submit: the host's time in clh_engine_submit_regions(); collect: in
 * clh_engine_collect_regions() once the device is done (the host's
 * splitting of the counters into histograms). */
typedef struct {
  gdouble kernel_us;
  gdouble readback_us;
  gdouble span_us;
  gdouble submit_us;
  gdouble collect_us;
  gdouble e2e_us;
  gdouble cpu_us;
  ClhLaunch launch;
} Row;

/* @set's rectangles on a @width x @height frame: 64 x 64 windows spread
 * over the frame (overlapping where there are many), or the zones. */
static GArray *
set_rects (const RegionSet *set, guint width, guint height)
{
  GArray *rects = g_array_new (FALSE, FALSE, sizeof (ClhRect));
  GRand *rand = g_rand_new_with_seed (set->n_windows);
  guint i, j;

  for (i = 0; i < set->n_windows; i++) {
    ClhRect r = { g_rand_int_range (rand, 0, width - 64),
      g_rand_int_range (rand, 0, height - 64), 64, 64
    };
    g_array_append_val (rects, r);
  }
  for (j = 0; j < set->zones; j++)
    for (i = 0; i < set->zones; i++) {
      ClhRect r;

      clh_zone_rect (width, height, set->zones, set->zones, i, j, &r);
      g_array_append_val (rects, r);
    }
  g_rand_free (rand);
  return rects;
}

/* Moves every 64-pixel window one pixel right, back to the left edge
 * before it would cross a @width frame's right one. */
static void
move_rects (GArray *rects, guint width)
{
  guint j;

  for (j = 0; j < rects->len; j++) {
    ClhRect *r = &g_array_index (rects, ClhRect, j);

    r->x = (r->x + 1) % (gint) (width - 64);
  }
}

static gdouble
median (GArray *values)
{
  return clh_bench_percentile (values, 50);
}

/* The engine settings the command line gives. */
typedef struct {
  guint region_pixels;
  gboolean wide;
} Settings;

static ClhEngine *
engine_new (ClhContext *ctx, const Settings *settings)
{
  GError *err = NULL;
  ClhEngine *engine = clh_engine_new_for_context (ctx, &err);

  if (!engine)
    g_error ("%s", err->message);
  clh_engine_set_region_pixels_per_group (engine, settings->region_pixels);
  clh_engine_set_narrow_counters (engine, !settings->wide);
  return engine;
}

/* What is measured of each frame, in Row's order. */
enum {
  M_KERNEL, M_READBACK, M_SPAN, M_SUBMIT, M_COLLECT, M_E2E, N_MEASURES
};

/* One set's rectangles, histograms and measurements. */
typedef struct {
  const RegionSet *set;
  ClhEngine *engine;
  GArray *rects;
  guint n;
  ClhHistogram *out;
  GArray *values[N_MEASURES];
  gdouble cpu_us;
  ClhLaunch launch;
} SetRun;

static void
set_run_init (SetRun *run, const RegionSet *set, ClhEngine *engine,
    const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  guint i;

  run->set = set;
  run->engine = engine;
  run->rects = set_rects (set, frame->width, frame->height);
  run->n = 1 + run->rects->len;
  run->out = g_new0 (ClhHistogram, run->n);
  for (i = 0; i < run->n; i++)
    run->out[i].counts = g_new (guint32, clh_histogram_spec_n_channels (spec)
        * clh_histogram_spec_n_bins (spec));
  for (i = 0; i < N_MEASURES; i++)
    run->values[i] = g_array_new (FALSE, FALSE, sizeof (gdouble));
  run->cpu_us = 0;
}

/* Medians into @row, and frees what @run holds. */
static void
set_run_finish (SetRun *run, guint frames, Row *row)
{
  gdouble *fields[N_MEASURES] = {
    &row->kernel_us, &row->readback_us, &row->span_us, &row->submit_us,
    &row->collect_us, &row->e2e_us,
  };
  guint i;

  for (i = 0; i < N_MEASURES; i++) {
    *fields[i] = median (run->values[i]);
    g_array_unref (run->values[i]);
  }
  row->cpu_us = run->cpu_us / frames;
  row->launch = run->launch;
  clh_engine_free (run->engine);
  for (i = 0; i < run->n; i++)
    g_free (run->out[i].counts);
  g_free (run->out);
  g_array_unref (run->rects);
}

static void
add (SetRun *run, guint measure, gdouble value)
{
  g_array_append_val (run->values[measure], value);
}

/* Submits and collects one frame of @run's set. Pass 0 keeps wall and CPU
 * time, pass 1 the device's (profiling on), pass 2 the collect's own time,
 * 2 ms after the submission; @keep: past the warm-up. */
static void
count_frame (const ClhFrame *frame, const ClhHostBlock *block,
    const ClhHistogramSpec *spec, SetRun *run, guint pass, gboolean keep)
{
  ClhEngine *engine = run->engine;
  const gdouble cpu0 = clh_bench_cpu_us ();
  gdouble t0 = clh_bench_now_us (), t_submit, t;
  ClhTimings timings;
  GError *err = NULL;

  if (run->set->moving)
    move_rects (run->rects, frame->width);
  if (!clh_engine_submit_regions (engine, frame, spec, TRUE,
          (const ClhRect *) (gpointer) run->rects->data, run->rects->len,
          block, &err))
    g_error ("%s: %s", run->set->name, err->message);
  t_submit = clh_bench_now_us () - t0;
  if (pass == 2) {
    g_usleep (2000);
    t0 = clh_bench_now_us ();
  }
  if (!clh_engine_collect_regions (engine, run->out, run->n, &err))
    g_error ("%s: %s", run->set->name, err->message);
  t = clh_bench_now_us () - t0;
  clh_engine_get_last_launch (engine, &run->launch);
  if (!keep)
    return;
  if (pass == 0) {
    add (run, M_E2E, t);
    add (run, M_SUBMIT, t_submit);
    run->cpu_us += clh_bench_cpu_us () - cpu0;
  } else if (pass == 2) {
    add (run, M_COLLECT, t);
  } else if (clh_engine_get_timings (engine, &timings)) {
    add (run, M_KERNEL, timings.kernel_ns / 1e3);
    add (run, M_READBACK, timings.readback_ns / 1e3);
    add (run, M_SPAN, timings.span_ns / 1e3);
  }
}

/* Counts @frames frames of every set, one in flight, the sets taking turns
 * frame by frame so that each ratio compares frames counted under the same
 * conditions; fills @rows. Each set has an engine of its own on @ctx, as
 * an element has, so that it keeps its region table on the device from
 * frame to frame. The collect's own time is taken on a quarter of the
 * frames. */
static void
measure (ClhContext *ctx, const Settings *settings, const ClhFrame *frame,
    const ClhHostBlock *block, const ClhHistogramSpec *spec, guint frames,
    Row *rows)
{
  SetRun runs[G_N_ELEMENTS (sets)];
  GError *err = NULL;
  guint r, i, pass;

  for (r = 0; r < G_N_ELEMENTS (sets); r++)
    set_run_init (&runs[r], &sets[r], engine_new (ctx, settings), frame,
        spec);
  for (pass = 0; pass < 3; pass++) {
    const guint n = pass == 2 ? MAX (frames / 4, 10) : frames;

    for (r = 0; r < G_N_ELEMENTS (sets); r++)
      if (!clh_engine_set_profiling (runs[r].engine, pass == 1, &err))
        g_error ("%s", err->message);
    /* The first tenth warms up. */
    for (i = 0; i < n + n / 10; i++)
      for (r = 0; r < G_N_ELEMENTS (sets); r++)
        count_frame (frame, block, spec, &runs[r], pass, i >= n / 10);
  }
  for (r = 0; r < G_N_ELEMENTS (sets); r++)
    set_run_finish (&runs[r], frames, &rows[r]);
}

/* A frame of @format in a pinned host block of @ctx, random bytes. */
static ClhHostBlock *
frame_new (ClhContext *ctx, const gchar *format, guint width, guint height,
    const gchar *mode, ClhFrame *frame, ClhHistogramSpec *spec)
{
  ClhHostBlock *block;
  ClhFormatClass klass;
  GError *err = NULL;
  GRand *rand = g_rand_new_with_seed (width);
  guint8 *data;
  gsize size, i;

  memset (frame, 0, sizeof (*frame));
  if (!clh_reference_layout (format, frame, &klass))
    g_error ("no layout for %s", format);
  frame->width = width;
  frame->height = height;
  frame->planes[0].stride = (gsize) width * frame->components[0].pixel_stride;
  size = frame->planes[0].stride * height;
  block = clh_context_alloc_host (ctx, size, &err);
  if (!block)
    g_error ("%s", err->message);
  data = clh_host_block_get_data (block);
  for (i = 0; i < size; i++)
    data[i] = g_rand_int (rand) & 0xff;
  frame->planes[0].data = data;
  g_rand_free (rand);
  if (!clh_reference_spec (klass, frame, mode, 256, spec))
    g_error ("no %s histogram of %s", mode, format);
  return block;
}

/* @part / @whole, 0 where @whole is 0 (so that the JSON holds no NaN). */
static gdouble
ratio (gdouble part, gdouble whole)
{
  return whole > 0 ? part / whole : 0;
}

int
main (int argc, char **argv)
{
  static const guint sizes[][2] = { {600, 480}, {1920, 1080} };
  static const gchar *const formats[][2] = {
    {"GRAY8", "luma"}, {"RGBA", "channels"},
  };
  gint frames = 300, region_pixels = 0;
  gboolean wide = FALSE;
  gchar *json_path = NULL;
  GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT, &frames, "Timed frames per row", "N"},
    {"region-pixels", 0, 0, G_OPTION_ARG_INT, &region_pixels,
        "Pixels per work-group of a region (0: the engine's default)", "P"},
    {"wide-counters", 0, 0, G_OPTION_ARG_NONE, &wide,
        "32-bit counters for every region", NULL},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "Also write JSON",
        "FILE"},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- what regions cost");
  GString *json = g_string_new ("[");
  GError *err = NULL;
  ClhContext *cl;
  Settings settings;
  guint s, f, r;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || frames < 10
      || region_pixels < 0) {
    g_printerr ("%s\n", err ? err->message : "--frames: at least 10");
    return 2;
  }
  g_option_context_free (ctx);
  cl = clh_context_new (NULL, &err);
  if (!cl)
    g_error ("%s", err->message);
  settings.region_pixels = region_pixels;
  settings.wide = wide;
  g_print ("device: %s (%s); region pixels per work-group: %d (0: "
      "default); counters: %s\n", clh_context_get_device_name (cl),
      clh_context_get_platform_name (cl), region_pixels, wide ?
      "32-bit" : "16-bit where they can");
  g_print ("%-10s %-6s %-14s %10s %6s %9s %9s %9s %9s %10s %6s %9s\n",
      "size", "format", "histograms", "kernel us", "ratio", "readback",
      "span", "submit", "collect", "e2e us", "ratio", "cpu us");
  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      ClhFrame frame;
      ClhHistogramSpec spec;
      Row rows[G_N_ELEMENTS (sets)];
      ClhHostBlock *block = frame_new (cl, formats[f][0], sizes[s][0],
          sizes[s][1], formats[f][1], &frame, &spec);

      measure (cl, &settings, &frame, block, &spec, frames, rows);
      for (r = 0; r < G_N_ELEMENTS (sets); r++) {
        const Row row = rows[r], base = rows[0];
        const ClhLaunch *used = &row.launch;

        g_print ("# launch: %u work-groups of %u work-items, %u copies\n",
            used->n_groups, used->work_group_size, used->n_copies);
        g_print ("%4ux%-5u %-6s %-14s %10.1f %6.2f %9.1f %9.1f %9.1f %9.1f "
            "%10.1f %6.2f %9.1f\n", sizes[s][0], sizes[s][1],
            formats[f][0], sets[r].name, row.kernel_us,
            ratio (row.kernel_us, base.kernel_us), row.readback_us,
            row.span_us, row.submit_us, row.collect_us, row.e2e_us,
            ratio (row.e2e_us, base.e2e_us), row.cpu_us);
        /* A device without profiling times no kernel: a ratio of 0 us, 0. */
        g_string_append_printf (json, "%s\n {\"width\": %u, \"height\": %u, "
            "\"format\": \"%s\", \"histograms\": \"%s\", \"kernel_us\": %.2f,"
            " \"kernel_ratio\": %.3f, \"readback_us\": %.2f, "
            "\"span_us\": %.2f, \"submit_us\": %.2f, \"collect_us\": %.2f, "
            "\"e2e_us\": %.2f, \"e2e_ratio\": %.3f, "
            "\"cpu_us\": %.2f}", json->len > 1 ? "," : "", sizes[s][0],
            sizes[s][1], formats[f][0], sets[r].name, row.kernel_us,
            ratio (row.kernel_us, base.kernel_us), row.readback_us,
            row.span_us, row.submit_us, row.collect_us, row.e2e_us,
            ratio (row.e2e_us, base.e2e_us), row.cpu_us);
      }
      clh_host_block_free (block);
    }
  g_string_append (json, "\n]\n");
  if (json_path && !g_file_set_contents (json_path, json->str, -1, &err))
    g_error ("%s", err->message);
  g_string_free (json, TRUE);
  g_free (json_path);
  clh_context_unref (cl);
  return 0;
}
