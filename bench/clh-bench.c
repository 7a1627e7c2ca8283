/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-bench: how long the engine takes per frame.
 *
 * For GRAY8 (luma, 256 bins) and RGBA (channels, 4 x 256 bins, as CUB's
 * MultiHistogramEven<4,4>) at 600x480 and 1920x1080, on uniform random
 * frames, frames of one value and real frames (raw files made from
 * vtest.avi), rotating over enough frames that caches do not hold them:
 *   - end to end: host frame to bins in host memory, wall clock, profiling
 *     off (what an element waits for);
 *   - device times from OpenCL profiling events: the kernels (with the frame
 *     already on the device), the upload, the readback;
 *   - the golden reference C loop on the same frames, for scale.
 * Prints a table and writes JSON (--json). Medians and percentiles over
 * frames x passes. Not a test: it asserts nothing about time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clh-engine.h"
#include "clh-reference.h"
#include "clh-reference-layout.h"

typedef struct {
  const gchar *format;
  const gchar *mode;
  guint width, height;
  const gchar *content;
  const gchar *real_file;       /* raw frames, for content "real" */
} Case;

typedef struct {
  gdouble e2e[3];               /* median, p10, p90, us */
  gdouble kernel, upload, readback, span;       /* medians, us */
  gdouble reference;            /* median of the C loop, us */
  guint samples;
} Result;

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  const gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

static gdouble
percentile (GArray *values, guint p)
{
  g_array_sort (values, cmp_double);
  return g_array_index (values, gdouble,
      MIN (values->len - 1, values->len * p / 100));
}

static gdouble
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* @n_frames frames of the case, packed rows, in one allocation. */
static guint8 *
make_frames (const Case *c, guint pixel_bytes, guint n_frames)
{
  const gsize frame_bytes = (gsize) c->width * c->height * pixel_bytes;
  guint8 *data = g_malloc (frame_bytes * n_frames);
  GRand *rand = g_rand_new_with_seed (42);
  gsize i;

  if (g_str_equal (c->content, "uniform")) {
    for (i = 0; i < frame_bytes * n_frames; i++)
      data[i] = g_rand_int (rand) & 0xff;
  } else if (g_str_equal (c->content, "one-value")) {
    memset (data, 0, frame_bytes * n_frames);
  } else {
    FILE *f = fopen (c->real_file, "rb");
    gsize got = 0;
    guint frame;

    if (!f)
      g_error ("cannot open %s", c->real_file);
    /* Repeat the file's frames if it holds fewer than needed. */
    for (frame = 0; frame < n_frames; frame++) {
      if (fread (data + frame * frame_bytes, 1, frame_bytes, f) != frame_bytes) {
        rewind (f);
        if (fread (data + frame * frame_bytes, 1, frame_bytes, f)
            != frame_bytes)
          g_error ("%s holds no whole %ux%u %s frame", c->real_file,
              c->width, c->height, c->format);
      }
      got++;
    }
    fclose (f);
  }
  g_rand_free (rand);
  return data;
}

static void
frame_at (const Case *c, guint8 *data, guint index, ClhFrame *frame,
    ClhFormatClass *klass)
{
  const guint pixel_bytes = g_str_equal (c->format, "GRAY8") ? 1 : 4;

  memset (frame, 0, sizeof (*frame));
  g_assert_true (clh_reference_layout (c->format, frame, klass));
  frame->width = c->width;
  frame->height = c->height;
  frame->planes[0].stride = (gsize) c->width * pixel_bytes;
  frame->planes[0].data = data + (gsize) index * frame->planes[0].stride
      * c->height;
}

static void
run_case (ClhEngine *engine, const Case *c, guint n_frames, guint passes,
    Result *r)
{
  const guint pixel_bytes = g_str_equal (c->format, "GRAY8") ? 1 : 4;
  guint8 *data = make_frames (c, pixel_bytes, n_frames);
  GArray *e2e = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *kernel = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *upload = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *readback = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *span = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *ref = g_array_new (FALSE, FALSE, sizeof (gdouble));
  ClhFrame frame;
  ClhFormatClass klass;
  ClhHistogramSpec spec;
  guint32 *counts = g_new (guint32, 4 * 256), *want = g_new (guint32, 4 * 256);
  ClhHistogram hist = { counts }, ref_hist = { want };
  GError *err = NULL;
  guint pass, f;

  frame_at (c, data, 0, &frame, &klass);
  g_assert_true (clh_reference_spec (klass, &frame, c->mode, 256, &spec));

  for (pass = 0; pass < passes + 1; pass++)
    for (f = 0; f < n_frames; f++) {
      gdouble t0, t1;

      frame_at (c, data, f, &frame, &klass);
      t0 = now_us ();
      if (!clh_engine_histogram (engine, &frame, &spec, &hist, &err))
        g_error ("%s", err->message);
      t1 = now_us ();
      if (pass > 0)             /* pass 0 warms up */
        g_array_append_val (e2e, (gdouble) { t1 - t0 });
    }

  /* The result must be right before its time means anything. */
  clh_reference_histogram (&frame, &spec, &ref_hist);
  if (memcmp (counts, want, sizeof (guint32)
          * clh_histogram_spec_n_channels (&spec) * 256) != 0)
    g_error ("%s %s %ux%u %s: the engine disagrees with the reference",
        c->format, c->mode, c->width, c->height, c->content);

  if (!clh_engine_set_profiling (engine, TRUE, &err))
    g_error ("%s", err->message);
  for (pass = 0; pass < passes; pass++)
    for (f = 0; f < n_frames; f++) {
      ClhTimings t;

      frame_at (c, data, f, &frame, &klass);
      if (!clh_engine_histogram (engine, &frame, &spec, &hist, &err))
        g_error ("%s", err->message);
      if (clh_engine_get_timings (engine, &t)) {
        g_array_append_val (kernel, (gdouble) { t.kernel_ns / 1e3 });
        g_array_append_val (upload, (gdouble) { t.upload_ns / 1e3 });
        g_array_append_val (readback, (gdouble) { t.readback_ns / 1e3 });
        g_array_append_val (span, (gdouble) { t.span_ns / 1e3 });
      }
    }
  clh_engine_set_profiling (engine, FALSE, NULL);

  for (f = 0; f < MIN (n_frames, 16u); f++) {
    gdouble t0;

    frame_at (c, data, f, &frame, &klass);
    t0 = now_us ();
    clh_reference_histogram (&frame, &spec, &ref_hist);
    g_array_append_val (ref, (gdouble) { now_us () - t0 });
  }

  r->e2e[0] = percentile (e2e, 50);
  r->e2e[1] = percentile (e2e, 10);
  r->e2e[2] = percentile (e2e, 90);
  r->kernel = kernel->len ? percentile (kernel, 50) : 0;
  r->upload = upload->len ? percentile (upload, 50) : 0;
  r->readback = readback->len ? percentile (readback, 50) : 0;
  r->span = span->len ? percentile (span, 50) : 0;
  r->reference = percentile (ref, 50);
  r->samples = e2e->len;

  g_array_unref (e2e);
  g_array_unref (kernel);
  g_array_unref (upload);
  g_array_unref (readback);
  g_array_unref (span);
  g_array_unref (ref);
  g_free (counts);
  g_free (want);
  g_free (data);
}

int
main (int argc, char **argv)
{
  gchar *device = NULL, *json_path = NULL, *real_gray = NULL, *real_rgba = NULL;
  gint n_frames = 64, passes = 4;
  gboolean quick = FALSE;
  GOptionEntry entries[] = {
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device, "OpenCL device", "auto"},
    {"frames", 'n', 0, G_OPTION_ARG_INT, &n_frames,
        "Frames rotated over (more than the caches hold)", "64"},
    {"passes", 'p', 0, G_OPTION_ARG_INT, &passes, "Timed passes", "4"},
    {"real-gray8", 0, 0, G_OPTION_ARG_FILENAME, &real_gray,
        "Raw 600x480 GRAY8 frames of a real video", "FILE"},
    {"real-rgba", 0, 0, G_OPTION_ARG_FILENAME, &real_rgba,
        "Raw 600x480 RGBA frames of a real video", "FILE"},
    {"json", 'j', 0, G_OPTION_ARG_FILENAME, &json_path, "Write JSON here",
        "FILE"},
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &quick,
        "600x480 only, fewer frames (for slow CPU devices)", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- time the histogram engine");
  GError *err = NULL;
  ClhEngine *engine;
  GString *json = g_string_new ("{\n");
  GPtrArray *cases = g_ptr_array_new_with_free_func (g_free);
  static const guint sizes[][2] = { {600, 480}, {1920, 1080} };
  static const gchar *const contents[] = { "uniform", "one-value", "real" };
  guint s, k, fm, i;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err))
    g_error ("%s", err->message);
  g_option_context_free (ctx);
  if (quick)
    n_frames = MIN (n_frames, 16), passes = MIN (passes, 2);

  engine = clh_engine_new (device, &err);
  if (!engine)
    g_error ("%s", err->message);

  for (fm = 0; fm < 2; fm++)
    for (s = 0; s < (quick ? 1u : G_N_ELEMENTS (sizes)); s++)
      for (k = 0; k < G_N_ELEMENTS (contents); k++) {
        Case *c = g_new0 (Case, 1);

        c->format = fm == 0 ? "GRAY8" : "RGBA";
        c->mode = fm == 0 ? "luma" : "channels";
        c->width = sizes[s][0];
        c->height = sizes[s][1];
        c->content = contents[k];
        c->real_file = fm == 0 ? real_gray : real_rgba;
        if (k == 2 && (s != 0 || !c->real_file)) {
          g_free (c);
          continue;
        }
        g_ptr_array_add (cases, c);
      }

  printf ("device: %s (%s)\n", clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine));
  printf ("%d frames rotated, %d passes; times in us; e2e = host frame to "
      "host bins (pageable memory), profiling off\n", n_frames, passes);
  printf ("%-6s %-8s %-9s %-9s | %8s %8s %8s | %8s %8s %8s | %9s\n",
      "format", "mode", "size", "content", "e2e p50", "p10", "p90",
      "kernel", "upload", "readbk", "C ref");
  g_string_append_printf (json, "  \"device\": \"%s\",\n  \"platform\": "
      "\"%s\",\n  \"frames\": %d,\n  \"passes\": %d,\n  \"results\": [\n",
      clh_engine_get_device_name (engine),
      clh_engine_get_platform_name (engine), n_frames, passes);

  for (i = 0; i < cases->len; i++) {
    const Case *c = g_ptr_array_index (cases, i);
    Result r;
    gchar size[32];

    run_case (engine, c, n_frames, passes, &r);
    g_snprintf (size, sizeof (size), "%ux%u", c->width, c->height);
    printf ("%-6s %-8s %-9s %-9s | %8.1f %8.1f %8.1f | %8.1f %8.1f %8.1f | "
        "%9.1f\n", c->format, c->mode, size, c->content, r.e2e[0], r.e2e[1],
        r.e2e[2], r.kernel, r.upload, r.readback, r.reference);
    fflush (stdout);
    g_string_append_printf (json, "    {\"format\": \"%s\", \"mode\": \"%s\", "
        "\"width\": %u, \"height\": %u, \"content\": \"%s\", "
        "\"e2e_us\": {\"p50\": %.2f, \"p10\": %.2f, \"p90\": %.2f}, "
        "\"kernel_us\": %.2f, \"upload_us\": %.2f, \"readback_us\": %.2f, "
        "\"device_span_us\": %.2f, \"reference_c_us\": %.2f, "
        "\"samples\": %u}%s\n", c->format, c->mode, c->width, c->height,
        c->content, r.e2e[0], r.e2e[1], r.e2e[2], r.kernel, r.upload,
        r.readback, r.span, r.reference, r.samples,
        i + 1 < cases->len ? "," : "");
  }
  g_string_append (json, "  ]\n}\n");

  if (json_path && !g_file_set_contents (json_path, json->str, -1, &err))
    g_error ("%s", err->message);

  g_string_free (json, TRUE);
  g_ptr_array_unref (cases);
  clh_engine_free (engine);
  g_free (device);
  g_free (json_path);
  g_free (real_gray);
  g_free (real_rgba);
  return 0;
}
