/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-bench: how long the engine takes per frame, and which kernel
 * strategy and launch configuration is fastest.
 *
 * Frames: GRAY8 (luma, 256 bins), RGBA (channels, 4 x 256 bins, as CUB's
 * MultiHistogramEven<4,4>) and NV12 (luma: its Y plane), 600x480 and
 * 1920x1080, uniform random, all one value and real (raw files made from
 * vtest.avi), rotating over enough frames that caches do not hold them.
 *
 *   stream    frames/s and host CPU per frame of a stream of frames with
 *             1..8 in flight (submitted before the previous are
 *             collected), from ordinary memory and from context host blocks
 *             (the element's buffer pool)
 *   e2e       host frame to bins in host memory, wall clock, profiling off,
 *             for each way a frame reaches the device: from ordinary
 *             (pageable) memory as the engine chooses, copied by the
 *             driver, or staged through pinned memory; from engine (pinned)
 *             host memory as the engine chooses, copied, or read in place;
 *             then the same with OpenCL profiling for the device times of
 *             kernel (frame on the device on copy paths), upload and
 *             readback
 *   variants  kernel time of each strategy at its modelled configuration
 *   sweep     kernel time over work-group sizes K x group counts L, against
 *             the paper's near-optimal model and the engine's choice
 *   padding   the paper's padding study: 16..112 and 256 bins, padded or
 *             not, uniform, one-value and real frames
 *
 * Every histogram is compared with the golden reference: a wrong result
 * stops the benchmark. Prints tables and writes JSON (--json). Medians and
 * percentiles over frames x passes. Not a test: it asserts nothing about
 * time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clh-bench-stats.h"
#include "clh-engine-profiling.h"
#include "clh-engine-tuning.h"
#include "clh-reference.h"
#include "clh-reference-layout.h"

typedef struct {
  const gchar *format;
  const gchar *mode;
  guint width, height;
  const gchar *content;
  const gchar *real_file;       /* raw frames, for content "real" */
  guint bins;
} Case;

typedef enum {
  MEMORY_PAGEABLE,
  MEMORY_PINNED,
} Memory;

/* Ways a frame reaches the device. */
typedef struct {
  const gchar *name;
  Memory memory;
  ClhTransfer transfer;
} Path;

static const Path paths[] = {
  {"pageable", MEMORY_PAGEABLE, CLH_TRANSFER_AUTO},
  {"pageable-copy", MEMORY_PAGEABLE, CLH_TRANSFER_COPY},
  {"pageable-stage", MEMORY_PAGEABLE, CLH_TRANSFER_STAGE},
  {"pinned", MEMORY_PINNED, CLH_TRANSFER_AUTO},
  {"pinned-copy", MEMORY_PINNED, CLH_TRANSFER_COPY},
  {"pinned-in-place", MEMORY_PINNED, CLH_TRANSFER_IN_PLACE},
};

/* The frames of a case, in ordinary memory and in engine host memory,
 * with their reference histograms. */
typedef struct {
  Case c;
  guint n_frames;
  gsize frame_bytes;
  guint8 *pageable;
  guint8 **pinned;
  ClhFormatClass klass;
  ClhHistogramSpec spec;
  guint n_counts;
  guint32 *want;                /* n_frames x n_counts */
  gdouble reference_us;         /* median of the C loop */
} FrameSet;

typedef struct {
  gdouble e2e[3];               /* median, p10, p90, us */
  gdouble kernel, upload, readback;     /* medians, us */
  guint samples;
} Timing;

static ClhEngine *engine;

static gsize
frame_bytes_of (const Case *c)
{
  const gsize pixels = (gsize) c->width * c->height;

  if (g_str_equal (c->format, "RGBA"))
    return pixels * 4;
  if (g_str_equal (c->format, "NV12"))
    return pixels + (gsize) c->width * ((c->height + 1) / 2);
  return pixels;
}

/* Fills @n_frames frames of the case's content into @data. */
static void
fill_frames (const Case *c, guint8 *data, gsize frame_bytes, guint n_frames)
{
  GRand *rand = g_rand_new_with_seed (42);
  FILE *f;
  guint i;
  gsize b;

  if (g_str_equal (c->content, "uniform")) {
    for (b = 0; b < frame_bytes * n_frames; b++)
      data[b] = g_rand_int (rand) & 0xff;
  } else if (g_str_equal (c->content, "one-value")) {
    memset (data, 0, frame_bytes * n_frames);
  } else {
    if (!(f = fopen (c->real_file, "rb")))
      g_error ("cannot open %s", c->real_file);
    /* Repeat the file's frames if it holds fewer than needed. */
    for (i = 0; i < n_frames; i++) {
      if (fread (data + i * frame_bytes, 1, frame_bytes, f) != frame_bytes) {
        rewind (f);
        if (fread (data + i * frame_bytes, 1, frame_bytes, f) != frame_bytes)
          g_error ("%s holds no whole %ux%u %s frame", c->real_file,
              c->width, c->height, c->format);
      }
    }
    fclose (f);
  }
  g_rand_free (rand);
}

/* Frame @index of the set, in @memory: packed rows, NV12's UV plane right
 * after its Y plane. */
static void
frame_view (const FrameSet *set, Memory memory, guint index, ClhFrame *frame)
{
  const Case *c = &set->c;
  guint8 *data = memory == MEMORY_PINNED ? set->pinned[index] :
      set->pageable + (gsize) index * set->frame_bytes;
  ClhFormatClass klass;

  memset (frame, 0, sizeof (*frame));
  g_assert_true (clh_reference_layout (c->format, frame, &klass));
  frame->width = c->width;
  frame->height = c->height;
  frame->planes[0].data = data;
  frame->planes[0].stride = (gsize) c->width
      * (g_str_equal (c->format, "RGBA") ? 4 : 1);
  if (g_str_equal (c->format, "NV12")) {
    frame->planes[1].data = data + (gsize) c->width * c->height;
    frame->planes[1].stride = c->width;
  }
}

static FrameSet *
frame_set_new (const Case *c, guint n_frames)
{
  FrameSet *set = g_new0 (FrameSet, 1);
  ClhFrame frame;
  ClhHistogram want;
  GArray *ref = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GError *err = NULL;
  guint i;

  set->c = *c;
  set->n_frames = n_frames;
  set->frame_bytes = frame_bytes_of (c);
  set->pageable = g_malloc (set->frame_bytes * n_frames);
  fill_frames (c, set->pageable, set->frame_bytes, n_frames);
  /* One block per frame, as a buffer pool would hand them out. */
  set->pinned = g_new0 (guint8 *, n_frames);
  for (i = 0; i < n_frames; i++) {
    if (!(set->pinned[i] = clh_engine_alloc_host (engine, set->frame_bytes,
                &err)))
      g_error ("%s", err->message);
    memcpy (set->pinned[i], set->pageable + i * set->frame_bytes,
        set->frame_bytes);
  }

  frame_view (set, MEMORY_PAGEABLE, 0, &frame);
  g_assert_true (clh_reference_layout (c->format, &frame, &set->klass));
  frame_view (set, MEMORY_PAGEABLE, 0, &frame);
  if (!clh_reference_spec (set->klass, &frame, c->mode, c->bins, &set->spec))
    g_error ("%s cannot count %s", c->format, c->mode);
  set->n_counts = clh_histogram_spec_n_channels (&set->spec)
      * clh_histogram_spec_n_bins (&set->spec);
  set->want = g_new (guint32, (gsize) set->n_counts * n_frames);
  for (i = 0; i < n_frames; i++) {
    const gdouble t0 = clh_bench_now_us ();

    want.counts = set->want + (gsize) i * set->n_counts;
    frame_view (set, MEMORY_PAGEABLE, i, &frame);
    clh_reference_histogram (&frame, &set->spec, &want);
    g_array_append_val (ref, (gdouble) { clh_bench_now_us () - t0 });
  }
  set->reference_us = clh_bench_percentile (ref, 50);
  g_array_unref (ref);
  return set;
}

static void
frame_set_free (FrameSet *set)
{
  guint i;

  for (i = 0; i < set->n_frames; i++)
    clh_engine_free_host (engine, set->pinned[i]);
  g_free (set->pinned);
  g_free (set->pageable);
  g_free (set->want);
  g_free (set);
}

static const gchar *
case_name (const Case *c)
{
  static gchar name[128];

  g_snprintf (name, sizeof (name), "%s %s %ux%u %s %u bins", c->format,
      c->mode, c->width, c->height, c->content, c->bins);
  return name;
}

/* Counts frame @index from @memory; FALSE (with @error) if the engine
 * fails, which a launch configuration beyond the device's limits does. A
 * result that differs from the reference ends the benchmark. */
static gboolean
count_frame (FrameSet *set, Memory memory, guint index, guint32 *counts,
    gdouble *us, GError **error)
{
  ClhHistogram hist = { counts };
  ClhFrame frame;
  gdouble t0;

  frame_view (set, memory, index, &frame);
  t0 = clh_bench_now_us ();
  if (!clh_engine_histogram (engine, &frame, &set->spec, &hist, error))
    return FALSE;
  if (us)
    *us = clh_bench_now_us () - t0;
  if (memcmp (counts, set->want + (gsize) index * set->n_counts,
          sizeof (guint32) * set->n_counts) != 0)
    g_error ("%s, frame %u: the engine disagrees with the golden reference",
        case_name (&set->c), index);
  return TRUE;
}

/* One warm-up pass, then @passes timed ones: wall clock with profiling off
 * (@t->e2e), then device times with it on. */
static void
time_path (FrameSet *set, const Path *path, guint passes, Timing *t)
{
  GArray *e2e = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *dev[3];
  guint32 *counts = g_new (guint32, set->n_counts);
  GError *err = NULL;
  guint pass, f, i;

  for (i = 0; i < 3; i++)
    dev[i] = g_array_new (FALSE, FALSE, sizeof (gdouble));
  clh_engine_set_transfer (engine, path->transfer);
  for (pass = 0; pass < passes + 1; pass++)
    for (f = 0; f < set->n_frames; f++) {
      gdouble us;

      if (!count_frame (set, path->memory, f, counts, &us, &err))
        g_error ("%s", err->message);
      if (pass > 0)
        g_array_append_val (e2e, us);
    }

  if (!clh_engine_set_profiling (engine, TRUE, &err))
    g_error ("%s", err->message);
  for (pass = 0; pass < passes; pass++)
    for (f = 0; f < set->n_frames; f++) {
      ClhTimings dt;

      if (!count_frame (set, path->memory, f, counts, NULL, &err))
        g_error ("%s", err->message);
      if (clh_engine_get_timings (engine, &dt)) {
        g_array_append_val (dev[0], (gdouble) { dt.kernel_ns / 1e3 });
        g_array_append_val (dev[1], (gdouble) { dt.upload_ns / 1e3 });
        g_array_append_val (dev[2], (gdouble) { dt.readback_ns / 1e3 });
      }
    }
  clh_engine_set_profiling (engine, FALSE, NULL);
  clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);

  t->e2e[0] = clh_bench_percentile (e2e, 50);
  t->e2e[1] = clh_bench_percentile (e2e, 10);
  t->e2e[2] = clh_bench_percentile (e2e, 90);
  t->kernel = clh_bench_percentile (dev[0], 50);
  t->upload = clh_bench_percentile (dev[1], 50);
  t->readback = clh_bench_percentile (dev[2], 50);
  t->samples = e2e->len;
  g_array_unref (e2e);
  for (i = 0; i < 3; i++)
    g_array_unref (dev[i]);
  g_free (counts);
}

/* Median kernel time, us, of @launch over the set's frames (copied to the
 * device, so the kernel reads device memory); -1 if the device refuses the
 * configuration. @used: (out) (optional): the configuration launched. */
static gdouble
kernel_median (FrameSet *set, const ClhLaunch *launch, guint passes,
    ClhLaunch *used)
{
  GArray *k = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint32 *counts = g_new (guint32, set->n_counts);
  GError *err = NULL;
  gdouble median = -1;
  guint pass, f;

  clh_engine_set_launch (engine, launch);
  clh_engine_set_transfer (engine, CLH_TRANSFER_COPY);
  if (!clh_engine_set_profiling (engine, TRUE, &err))
    g_error ("%s", err->message);
  for (pass = 0; pass < passes + 1; pass++)
    for (f = 0; f < set->n_frames; f++) {
      ClhTimings dt;

      if (!count_frame (set, MEMORY_PAGEABLE, f, counts, NULL, &err)) {
        g_clear_error (&err);
        goto out;
      }
      if (pass > 0 && clh_engine_get_timings (engine, &dt))
        g_array_append_val (k, (gdouble) { dt.kernel_ns / 1e3 });
    }
  median = clh_bench_percentile (k, 50);
  if (used)
    clh_engine_get_last_launch (engine, used);
out:
  clh_engine_set_profiling (engine, FALSE, NULL);
  clh_engine_set_transfer (engine, CLH_TRANSFER_AUTO);
  clh_engine_set_launch (engine, NULL);
  g_array_unref (k);
  g_free (counts);
  return median;
}

static void
json_launch (GString *json, const gchar *key, const ClhLaunch *l)
{
  g_string_append_printf (json, "\"%s\": {\"variant\": \"%s\", \"K\": %u, "
      "\"L\": %u, \"copies\": %u, \"padding\": %d}", key,
      clh_variant_name (l->variant), l->work_group_size, l->n_groups,
      l->n_copies, l->padding);
}

/* Separates JSON array items. */
static void
json_next (GString *json, gboolean *first)
{
  g_string_append (json, *first ? "\n    " : ",\n    ");
  *first = FALSE;
}

/* One kernel time of a set at a launch configuration, as a JSON item. */
static void
json_kernel_point (GString *json, gboolean *first, const FrameSet *set,
    gdouble kernel_us, const ClhLaunch *used)
{
  json_next (json, first);
  g_string_append_printf (json, "{\"case\": \"%s\", \"kernel_us\": %.2f, ",
      case_name (&set->c), kernel_us);
  json_launch (json, "launch", used);
  g_string_append (json, "}");
}

static void
run_e2e (GPtrArray *cases, guint n_frames, guint passes, GString *json)
{
  gboolean first = TRUE;
  guint i, p;

  printf ("\n== e2e: host frame to host bins (us); device times with "
      "profiling (kernel reads device memory only on copy paths)\n");
  printf ("%-6s %-9s %-9s %-15s | %7s %7s %7s | %7s %7s %7s | %8s\n",
      "format", "size", "content", "path", "p50", "p10", "p90", "kernel",
      "upload", "readbk", "C ref");
  g_string_append (json, "  \"e2e\": [");
  for (i = 0; i < cases->len; i++) {
    const Case *c = g_ptr_array_index (cases, i);
    FrameSet *set = frame_set_new (c, n_frames);
    gchar size[32];

    g_snprintf (size, sizeof (size), "%ux%u", c->width, c->height);
    for (p = 0; p < G_N_ELEMENTS (paths); p++) {
      Timing t;
      ClhLaunch used;

      time_path (set, &paths[p], passes, &t);
      clh_engine_get_last_launch (engine, &used);
      printf ("%-6s %-9s %-9s %-15s | %7.1f %7.1f %7.1f | %7.1f %7.1f %7.1f "
          "| %8.1f\n", c->format, size, c->content, paths[p].name, t.e2e[0],
          t.e2e[1], t.e2e[2], t.kernel, t.upload, t.readback,
          set->reference_us);
      fflush (stdout);
      json_next (json, &first);
      g_string_append_printf (json, "{\"format\": \"%s\", \"mode\": \"%s\", "
          "\"width\": %u, \"height\": %u, \"content\": \"%s\", \"path\": "
          "\"%s\", \"e2e_us\": {\"p50\": %.2f, \"p10\": %.2f, \"p90\": "
          "%.2f}, \"kernel_us\": %.2f, \"upload_us\": %.2f, "
          "\"readback_us\": %.2f, \"reference_c_us\": %.2f, \"samples\": %u, ",
          c->format, c->mode, c->width, c->height, c->content,
          paths[p].name, t.e2e[0], t.e2e[1], t.e2e[2], t.kernel, t.upload,
          t.readback, set->reference_us, t.samples);
      json_launch (json, "launch", &used);
      g_string_append (json, "}");
    }
    frame_set_free (set);
  }
  g_string_append (json, "\n  ],\n");
}

/* The set's frames copied into blocks of the engine's context, as the
 * element's buffer pool hands them out. */
static ClhHostBlock **
context_blocks_new (const FrameSet *set)
{
  ClhHostBlock **blocks = g_new0 (ClhHostBlock *, set->n_frames);
  GError *err = NULL;
  guint i;

  for (i = 0; i < set->n_frames; i++) {
    if (!(blocks[i] = clh_context_alloc_host (clh_engine_get_context
                (engine), set->frame_bytes, &err)))
      g_error ("%s", err->message);
    memcpy (clh_host_block_get_data (blocks[i]), set->pageable
        + (gsize) i * set->frame_bytes, set->frame_bytes);
  }
  return blocks;
}

/* Frame @index of the set as it lies in @block. */
static void
block_view (const FrameSet *set, ClhHostBlock *block, guint index,
    ClhFrame *frame)
{
  const gsize delta = clh_host_block_get_data (block)
      - (set->pageable + (gsize) index * set->frame_bytes);
  guint p;

  frame_view (set, MEMORY_PAGEABLE, index, frame);
  for (p = 0; p < frame->n_planes; p++)
    frame->planes[p].data += delta;
}

static void
collect_checked (FrameSet *set, guint index, guint32 *counts)
{
  ClhHistogram hist = { counts };
  GError *err = NULL;

  if (!clh_engine_collect (engine, &hist, &err))
    g_error ("%s", err->message);
  if (memcmp (counts, set->want + (gsize) index * set->n_counts,
          sizeof (guint32) * set->n_counts) != 0)
    g_error ("%s, frame %u: the engine disagrees with the golden reference",
        case_name (&set->c), index);
}

/* Frames per second and host CPU us per frame over @n frames with up to
 * @depth in flight, from ordinary memory or context blocks. */
static void
time_stream (FrameSet *set, ClhHostBlock **blocks, guint depth, guint n,
    gdouble *fps, gdouble *cpu_us)
{
  guint32 *counts = g_new (guint32, set->n_counts);
  GError *err = NULL;
  gdouble t0, c0;
  guint i;

  if (!clh_engine_set_max_in_flight (engine, depth, &err))
    g_error ("%s", err->message);
  t0 = clh_bench_now_us ();
  c0 = clh_bench_cpu_us ();
  for (i = 0; i < n; i++) {
    const guint f = i % set->n_frames;
    ClhFrame frame;

    if (clh_engine_get_n_pending (engine) == depth)
      collect_checked (set, (i - depth) % set->n_frames, counts);
    if (blocks)
      block_view (set, blocks[f], f, &frame);
    else
      frame_view (set, MEMORY_PAGEABLE, f, &frame);
    if (!clh_engine_submit (engine, &frame, &set->spec, blocks ? blocks[f] :
            NULL, &err))
      g_error ("%s", err->message);
  }
  for (i = n - clh_engine_get_n_pending (engine); i < n; i++)
    collect_checked (set, i % set->n_frames, counts);
  *fps = n / ((clh_bench_now_us () - t0) / 1e6);
  *cpu_us = (clh_bench_cpu_us () - c0) / n;
  clh_engine_set_max_in_flight (engine, 1, NULL);
  g_free (counts);
}

/* Throughput of a stream of frames with frames in flight: what the element
 * sustains with its pool (context blocks) or without (ordinary memory). */
static void
run_stream (GPtrArray *cases, guint n_frames, guint passes, GString *json)
{
  static const guint depths[] = { 1, 2, 4, 8 };
  gboolean first = TRUE;
  guint i, d, m, pass;

  printf ("\n== stream: frames/s with frames in flight (median of %u "
      "passes); CPU: host us per frame\n", passes);
  printf ("%-6s %-9s %-9s %-8s | %10s %8s | %10s %8s\n", "format", "size",
      "content", "in fl.", "pageable", "CPU", "pool", "CPU");
  g_string_append (json, "  \"stream\": [");
  for (i = 0; i < cases->len; i++) {
    const Case *c = g_ptr_array_index (cases, i);
    FrameSet *set;
    ClhHostBlock **blocks;

    if (c->width != 600 || !g_str_equal (c->content, "uniform"))
      continue;
    set = frame_set_new (c, n_frames);
    blocks = context_blocks_new (set);
    for (d = 0; d < G_N_ELEMENTS (depths); d++) {
      gdouble med[2][2];

      for (m = 0; m < 2; m++) {
        GArray *fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
        GArray *cpu = g_array_new (FALSE, FALSE, sizeof (gdouble));

        for (pass = 0; pass < passes + 1; pass++) {
          gdouble f, u;

          time_stream (set, m ? blocks : NULL, depths[d], 20 * n_frames, &f,
              &u);
          if (pass > 0) {
            g_array_append_val (fps, f);
            g_array_append_val (cpu, u);
          }
        }
        med[m][0] = clh_bench_percentile (fps, 50);
        med[m][1] = clh_bench_percentile (cpu, 50);
        g_array_unref (fps);
        g_array_unref (cpu);
      }
      printf ("%-6s %ux%-5u %-9s %-8u | %10.0f %8.1f | %10.0f %8.1f\n",
          c->format, c->width, c->height, c->content, depths[d], med[0][0],
          med[0][1], med[1][0], med[1][1]);
      fflush (stdout);
      json_next (json, &first);
      g_string_append_printf (json, "{\"format\": \"%s\", \"width\": %u, "
          "\"height\": %u, \"content\": \"%s\", \"in_flight\": %u, "
          "\"pageable_fps\": %.0f, \"pageable_cpu_us\": %.2f, "
          "\"pool_fps\": %.0f, \"pool_cpu_us\": %.2f}", c->format, c->width,
          c->height, c->content, depths[d], med[0][0], med[0][1], med[1][0],
          med[1][1]);
    }
    for (d = 0; d < set->n_frames; d++)
      clh_host_block_free (blocks[d]);
    g_free (blocks);
    frame_set_free (set);
  }
  g_string_append (json, "\n  ],\n");
}

static const ClhVariant variants[] = {
  CLH_VARIANT_LOCAL_ATOMICS, CLH_VARIANT_REPLICATED,
  CLH_VARIANT_PER_WORK_ITEM,
};

/* The paper's configuration for a set: the model without the engine's
 * cap on groups. */
static void
paper_launch (const FrameSet *set, ClhVariant variant, gint padding,
    ClhLaunch *l)
{
  const ClhLaunch ask = { variant, 0, 0, 0, padding };

  *l = ask;
  clh_engine_model_launch (engine, clh_histogram_spec_n_channels
      (&set->spec), clh_histogram_spec_n_bins (&set->spec), l);
}

/* Sweeps K x L for each variant on each set; prints and records every
 * point, and how close the paper's model and the engine's choice land. */
static void
run_sweep (GPtrArray *sets, guint passes, GString *json)
{
  const ClhDeviceLimits *lim = clh_engine_get_device_limits (engine);
  static const guint ks[] = { 32, 64, 128, 256, 512, 1024 };
  static const gdouble per_unit[] = { 0.25, 0.5, 1, 2, 4, 8, 16, 32 };
  gboolean first = TRUE, first_summary = TRUE;
  GString *summary = g_string_new ("  \"sweep_summary\": [");
  guint s, v, ki, li;

  printf ("\n== sweep: kernel us over work-group size K x groups L "
      "(L in multiples of the %u compute units)\n", lim->compute_units);
  g_string_append (json, "  \"sweep\": [");
  for (s = 0; s < sets->len; s++) {
    FrameSet *set = g_ptr_array_index (sets, s);

    for (v = 0; v < G_N_ELEMENTS (variants); v++) {
      ClhLaunch best = { 0 }, paper, paper_used, engine_used;
      const ClhLaunch automatic = { variants[v], 0, 0, 0, -1 };
      gdouble best_t = G_MAXDOUBLE, paper_t, engine_t;

      printf ("%s, %s\n%6s", case_name (&set->c),
          clh_variant_name (variants[v]), "K\\L");
      for (li = 0; li < G_N_ELEMENTS (per_unit); li++)
        printf (" %7.2f", per_unit[li]);
      printf ("\n");
      for (ki = 0; ki < G_N_ELEMENTS (ks); ki++) {
        if (ks[ki] > lim->max_work_group_size)
          continue;
        printf ("%6u", ks[ki]);
        for (li = 0; li < G_N_ELEMENTS (per_unit); li++) {
          const guint groups = MAX (1, (guint) (per_unit[li]
                  * lim->compute_units));
          const ClhLaunch ask = { variants[v], ks[ki], groups, 0, -1 };
          ClhLaunch used;
          const gdouble t = kernel_median (set, &ask, passes, &used);

          if (t < 0) {
            printf (" %7s", "-");
            continue;
          }
          printf (" %7.1f", t);
          if (t < best_t)
            best_t = t, best = used;
          json_kernel_point (json, &first, set, t, &used);
        }
        printf ("\n");
        fflush (stdout);
      }
      paper_launch (set, variants[v], -1, &paper);
      paper_t = kernel_median (set, &paper, passes, &paper_used);
      engine_t = kernel_median (set, &automatic, passes, &engine_used);
      printf ("  best %.1f us at K %u L %u (%u copies); paper's model "
          "K %u L %u: %.1f us (%.2fx best); engine's (model, L capped by "
          "the frame) K %u L %u: %.1f us (%.2fx best)\n", best_t,
          best.work_group_size, best.n_groups, best.n_copies,
          paper_used.work_group_size, paper_used.n_groups, paper_t,
          paper_t / best_t, engine_used.work_group_size, engine_used.n_groups,
          engine_t, engine_t / best_t);
      json_next (summary, &first_summary);
      g_string_append_printf (summary, "{\"case\": \"%s\", \"variant\": "
          "\"%s\", \"best_us\": %.2f, \"paper_us\": %.2f, \"engine_us\": "
          "%.2f, ", case_name (&set->c), clh_variant_name (variants[v]),
          best_t, paper_t, engine_t);
      json_launch (summary, "best", &best);
      g_string_append (summary, ", ");
      json_launch (summary, "paper", &paper_used);
      g_string_append (summary, ", ");
      json_launch (summary, "engine", &engine_used);
      g_string_append (summary, "}");
    }
  }
  g_string_append (json, "\n  ],\n");
  g_string_append (summary, "\n  ],\n");
  g_string_append (json, summary->str);
  g_string_free (summary, TRUE);
}

/* Each variant at the engine's configuration, on each set. */
static void
run_variants (GPtrArray *sets, guint passes, GString *json)
{
  gboolean first = TRUE;
  guint s, v;

  printf ("\n== variants: kernel us at the engine's configuration\n");
  g_string_append (json, "  \"variants\": [");
  for (s = 0; s < sets->len; s++) {
    FrameSet *set = g_ptr_array_index (sets, s);

    printf ("%-40s", case_name (&set->c));
    for (v = 0; v < G_N_ELEMENTS (variants); v++) {
      const ClhLaunch ask = { variants[v], 0, 0, 0, -1 };
      ClhLaunch used;
      const gdouble t = kernel_median (set, &ask, passes, &used);

      printf (" %s %.1f (K %u L %u R %u)", clh_variant_name (variants[v]), t,
          used.work_group_size, used.n_groups, used.n_copies);
      json_kernel_point (json, &first, set, t, &used);
    }
    printf ("\n");
    fflush (stdout);
  }
  g_string_append (json, "\n  ],\n");
}

/* The paper's study: padding off and on, for the per-work-item variant
 * (the paper's kernel), the replicated one and local atomics (one copy:
 * padding cannot matter; its row shows one value against uniform frames
 * for every bin count), at the model's configuration for each. */
static void
run_padding (const gchar *real_gray, guint n_frames, guint passes,
    GString *json)
{
  static const guint bins[] = { 16, 32, 48, 64, 80, 96, 112, 256 };
  static const gchar *const contents[] = { "uniform", "one-value", "real" };
  static const ClhVariant studied[] = {
    CLH_VARIANT_PER_WORK_ITEM, CLH_VARIANT_REPLICATED,
    CLH_VARIANT_LOCAL_ATOMICS,
  };
  gboolean first = TRUE;
  guint b, k, v;

  printf ("\n== padding: kernel us, GRAY8 600x480, unpadded / padded "
      "(speed-up of padding)\n%-14s %-10s", "variant", "content");
  for (b = 0; b < G_N_ELEMENTS (bins); b++)
    printf (" %16u", bins[b]);
  printf ("\n");
  g_string_append (json, "  \"padding\": [");
  for (v = 0; v < G_N_ELEMENTS (studied); v++)
    for (k = 0; k < G_N_ELEMENTS (contents); k++) {
      if (k == 2 && !real_gray)
        continue;
          printf ("%-14s %-10s", clh_variant_name (studied[v]), contents[k]);
      for (b = 0; b < G_N_ELEMENTS (bins); b++) {
        const Case c = { "GRAY8", "luma", 600, 480, contents[k], real_gray,
          bins[b]
        };
        FrameSet *set = frame_set_new (&c, n_frames);
        gdouble t[2];
        ClhLaunch used[2];
        gint pad;

        for (pad = 0; pad < 2; pad++) {
          ClhLaunch l;

          paper_launch (set, studied[v], pad, &l);
          t[pad] = kernel_median (set, &l, passes, &used[pad]);
        }
        printf (" %5.1f/%5.1f %+4.0f%%", t[0], t[1],
            100 * (t[0] / t[1] - 1));
        fflush (stdout);
        for (pad = 0; pad < 2; pad++) {
          json_next (json, &first);
          g_string_append_printf (json, "{\"variant\": \"%s\", \"content\": "
              "\"%s\", \"bins\": %u, \"padding\": %d, \"kernel_us\": %.2f, ",
              clh_variant_name (studied[v]), contents[k], bins[b], pad,
              t[pad]);
          json_launch (json, "launch", &used[pad]);
          g_string_append (json, "}");
        }
        frame_set_free (set);
      }
      printf ("\n");
    }
  g_string_append (json, "\n  ],\n");
}

static void
json_limits (GString *json)
{
  const ClhDeviceLimits *l = clh_engine_get_device_limits (engine);
  gchar *driver = clh_engine_get_driver_version (engine);

  g_string_append_printf (json, "  \"device\": \"%s\",\n  \"platform\": "
      "\"%s\",\n  \"driver\": \"%s\",\n  \"limits\": {\"compute_units\": %u, "
      "\"max_work_group_size\": %u, \"warp\": %u, \"local_mem_per_group\": "
      "%" G_GSIZE_FORMAT ", \"local_mem_per_unit\": %" G_GSIZE_FORMAT ", "
      "\"max_groups_per_unit\": %u, \"max_items_per_unit\": %u},\n",
      clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine), driver, l->compute_units,
      l->max_work_group_size, l->warp, l->local_mem_per_group,
      l->local_mem_per_unit, l->max_groups_per_unit, l->max_items_per_unit);
  printf ("device: %s (%s), driver %s; %u compute units, local memory %"
      G_GSIZE_FORMAT " per group, %" G_GSIZE_FORMAT " per unit\n",
      clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine), driver, l->compute_units,
      l->local_mem_per_group, l->local_mem_per_unit);
  g_free (driver);
}

static const gchar *
real_file_for (const gchar *format, gchar **files)
{
  return g_str_equal (format, "GRAY8") ? files[0] :
      g_str_equal (format, "RGBA") ? files[1] : files[2];
}

int
main (int argc, char **argv)
{
  gchar *device = NULL, *json_path = NULL, *real[3] = { NULL };
  gint n_frames = 64, passes = 4;
  gboolean quick = FALSE, sweep = FALSE, padding = FALSE;
  GOptionEntry entries[] = {
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device, "OpenCL device", "auto"},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &n_frames,
        "Frames rotated over (more than the caches hold)", "64"},
    {"passes", 'p', 0, G_OPTION_ARG_INT, &passes, "Timed passes", "4"},
    {"real-gray8", 0, 0, G_OPTION_ARG_FILENAME, &real[0],
        "Raw 600x480 GRAY8 frames of a real video", "FILE"},
    {"real-rgba", 0, 0, G_OPTION_ARG_FILENAME, &real[1],
        "Raw 600x480 RGBA frames of a real video", "FILE"},
    {"real-nv12", 0, 0, G_OPTION_ARG_FILENAME, &real[2],
        "Raw 600x480 NV12 frames of a real video", "FILE"},
    {"sweep", 0, 0, G_OPTION_ARG_NONE, &sweep,
        "Sweep K x L for every variant, against the launch model", NULL},
    {"padding", 0, 0, G_OPTION_ARG_NONE, &padding,
        "The paper's padding study (16..112 and 256 bins)", NULL},
    {"json", 'j', 0, G_OPTION_ARG_FILENAME, &json_path, "Write JSON here",
        "FILE"},
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &quick,
        "600x480 only, fewer frames (for slow CPU devices)", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- time the histogram engine");
  static const guint sizes[][2] = { {600, 480}, {1920, 1080} };
  static const gchar *const formats[][2] = {
    {"GRAY8", "luma"}, {"RGBA", "channels"}, {"NV12", "luma"},
  };
  static const gchar *const contents[] = { "uniform", "one-value", "real" };
  GPtrArray *cases = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *sets = g_ptr_array_new_with_free_func ((GDestroyNotify)
      frame_set_free);
  GString *json = g_string_new ("{\n");
  GError *err = NULL;
  guint s, k, fm;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err))
    g_error ("%s", err->message);
  g_option_context_free (ctx);
  if (quick)
    n_frames = MIN (n_frames, 16), passes = MIN (passes, 2);

  if (!(engine = clh_engine_new (device, &err)))
    g_error ("%s", err->message);
  json_limits (json);
  printf ("%d frames rotated, %d passes; every result checked against the "
      "golden reference\n", n_frames, passes);
  g_string_append_printf (json, "  \"frames\": %d,\n  \"passes\": %d,\n",
      n_frames, passes);

  for (fm = 0; fm < G_N_ELEMENTS (formats); fm++)
    for (s = 0; s < (quick ? 1u : G_N_ELEMENTS (sizes)); s++)
      for (k = 0; k < G_N_ELEMENTS (contents); k++) {
        Case *c = g_new0 (Case, 1);

        c->format = formats[fm][0];
        c->mode = formats[fm][1];
        c->width = sizes[s][0];
        c->height = sizes[s][1];
        c->content = contents[k];
        c->real_file = real_file_for (c->format, real);
        c->bins = 256;
        if (k == 2 && (s != 0 || !c->real_file)) {
          g_free (c);
          continue;
        }
        g_ptr_array_add (cases, c);
      }

  run_e2e (cases, n_frames, passes, json);
  run_stream (cases, n_frames, passes, json);

  /* GRAY8 and RGBA: 600x480 uniform and one value (the anchors' frames),
   * 1920x1080 uniform. */
  for (k = 0; k < cases->len; k++) {
    const Case *c = g_ptr_array_index (cases, k);

    if (!g_str_equal (c->format, "NV12") && !g_str_equal (c->content, "real")
        && (c->width == 600 || g_str_equal (c->content, "uniform")))
      g_ptr_array_add (sets, frame_set_new (c, MIN (n_frames, 32)));
  }
  run_variants (sets, passes, json);
  if (sweep)
    run_sweep (sets, MIN (passes, 2), json);
  if (padding)
    run_padding (real[0], MIN (n_frames, 32), passes, json);
  g_string_append (json, "  \"end\": true\n}\n");

  if (json_path && !g_file_set_contents (json_path, json->str, -1, &err))
    g_error ("%s", err->message);

  g_ptr_array_unref (sets);
  g_string_free (json, TRUE);
  g_ptr_array_unref (cases);
  clh_engine_free (engine);
  g_free (device);
  g_free (json_path);
  for (k = 0; k < 3; k++)
    g_free (real[k]);
  return 0;
}
