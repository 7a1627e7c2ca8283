/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-scope-bench: frames per second of the scope engine (clscope's
 * work: the frame's upload, counts, picture and its readback, waited for
 * frame by frame) on I420 frames, at each size asked for: the median over
 * repeats of N frames each, after a warm-up. The frames are raw I420 read
 * from FILE (as `ffmpeg -pix_fmt yuv420p -f rawvideo` writes them, so that
 * FFmpeg's filters can be timed on the same ones: bench/scope-bench.sh),
 * or, without FILE, made here (a gradient with noise, changing per frame).
 * Not a test: it asserts nothing.
 *
 * The frames lie in memory of their own (g_malloc), as from a decoder
 * that does not use clscope's pool: a GPU's engine copies each into its
 * pinned stage block first. With --pinned they are placed, before the
 * timing, each in a host block of the context (clh_context_alloc_host()),
 * as frames from the pool clscope proposes: the path a pipeline whose
 * upstream allocates from that pool takes, with no host copy; the picture
 * too is then read back into a host block, as into clscope's own pool of
 * pictures (the driver's DMA into pinned memory), where without --pinned
 * it goes into malloc'd memory. Each line says which path it timed.
 *
 *   build/bench/clh-scope-bench [--device SPEC] [--scopes waveform,...]
 *       [--picture WxH] [--frames N] [--repeats R] [--input FILE]
 *       [--pinned] [SIZE...]        (default 1920x1080 3840x2160)
 *
 * One line of text and one JSON object (prefix "json: ") per size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clh-bench-stats.h"
#include "clh-scope.h"

/* An I420 frame of @width x @height over @data (the planes one after the
 * other, no padding). */
static ClhFrame
i420_frame (const guint8 *data, guint width, guint height)
{
  const guint cw = (width + 1) / 2, ch = (height + 1) / 2;
  ClhFrame f = { 0 };

  f.width = width;
  f.height = height;
  f.sample = CLH_SAMPLE_8;
  f.depth = 8;
  f.n_planes = 3;
  f.n_components = 3;
  f.planes[0] = (ClhPlane) { data, width };
  f.planes[1] = (ClhPlane) { data + (gsize) width * height, cw };
  f.planes[2] = (ClhPlane) { data + (gsize) width * height + (gsize) cw * ch,
    cw
  };
  f.components[0] = (ClhComponent) { 0, 0, 1, 0, 0, 0 };
  f.components[1] = (ClhComponent) { 1, 0, 1, 0, 1, 1 };
  f.components[2] = (ClhComponent) { 2, 0, 1, 0, 1, 1 };
  return f;
}

static gsize
i420_size (guint width, guint height)
{
  return (gsize) width * height + 2 * (gsize) ((width + 1) / 2)
      * ((height + 1) / 2);
}

/* @n frames made here: a diagonal gradient moving by frame, with noise,
 * chroma in a slow circle. */
static guint8 *
make_frames (guint width, guint height, guint n)
{
  const gsize size = i420_size (width, height);
  guint8 *data = g_malloc (size * n);
  GRand *rand = g_rand_new_with_seed (1);
  guint k, x, y;

  for (k = 0; k < n; k++) {
    guint8 *f = data + size * k;
    const guint cw = (width + 1) / 2, ch = (height + 1) / 2;

    for (y = 0; y < height; y++)
      for (x = 0; x < width; x++)
        f[(gsize) y * width + x] = (guint8) (16 + (x + y + 7 * k) % 220
            + g_rand_int_range (rand, 0, 8));
    for (y = 0; y < 2 * ch; y++)
      for (x = 0; x < cw; x++)
        f[(gsize) width * height + (gsize) y * cw + x] = (guint8) (96
            + (x * 64 / cw + y + k) % 64);
  }
  g_rand_free (rand);
  return data;
}

static guint
parse_scopes (const gchar *list)
{
  gchar **names = g_strsplit (list, ",", -1);
  guint kinds = 0, i;

  for (i = 0; names[i]; i++) {
    if (g_str_equal (names[i], "waveform"))
      kinds |= CLH_SCOPE_WAVEFORM;
    else if (g_str_equal (names[i], "parade"))
      kinds |= CLH_SCOPE_PARADE;
    else if (g_str_equal (names[i], "vectorscope"))
      kinds |= CLH_SCOPE_VECTORSCOPE;
    else if (g_str_equal (names[i], "histogram"))
      kinds |= CLH_SCOPE_HISTOGRAM;
    else {
      g_printerr ("unknown scope '%s': waveform, parade, vectorscope, "
          "histogram\n", names[i]);
      exit (2);
    }
  }
  g_strfreev (names);
  return kinds;
}

/* How a frame reaches the device on @ctx, from host blocks (@pinned) or
 * from the program's own memory. */
static const gchar *
path_of (ClhContext *ctx, gboolean pinned)
{
  if (clh_context_reads_host_in_place (ctx))
    return pinned ? "host blocks, read in place; picture into a host block"
        : "malloc'd memory, read in place; picture into malloc'd memory";
  return pinned ? "host blocks (clscope's pool), DMA from them, no host "
      "copy; picture by DMA into a host block (clscope's pool)" :
      "malloc'd memory, host copy into the pinned stage block, then DMA; "
      "picture into malloc'd (pageable) memory";
}

/* A host block of @ctx per frame of @data, each holding a copy of it. */
static GPtrArray *
pin_frames (ClhContext *ctx, const guint8 *data, gsize size, guint n)
{
  GPtrArray *blocks = g_ptr_array_new_with_free_func ((GDestroyNotify)
      clh_host_block_free);
  g_autoptr (GError) err = NULL;
  guint k;

  for (k = 0; k < n; k++) {
    ClhHostBlock *block = clh_context_alloc_host (ctx, size, &err);

    if (!block) {
      g_printerr ("%s\n", err->message);
      exit (1);
    }
    memcpy (clh_host_block_get_data (block), data + size * k, size);
    g_ptr_array_add (blocks, block);
  }
  return blocks;
}

static void
bench_size (ClhScope *scope, ClhContext *ctx, const ClhScopeSpec *spec,
    guint width, guint height, const gchar *input, guint n_frames,
    guint repeats, gboolean pinned)
{
  const gchar *device = clh_context_get_device_name (ctx);
  const gsize size = i420_size (width, height);
  const gsize stride = (gsize) spec->width * 4;
  g_autofree guint8 *own_picture = NULL;
  ClhHostBlock *picture_block = NULL;
  guint8 *picture;
  g_autofree guint8 *data = NULL;
  g_autoptr (GArray) fps = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr (GArray) cpu = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr (GPtrArray) blocks = NULL;
  g_autoptr (GError) err = NULL;
  guint n_data, r, k;
  gsize got;
  gdouble med, best, cpu_med;

  if (input) {
    if (!g_file_get_contents (input, (gchar **) &data, &got, &err)) {
      g_printerr ("%s\n", err->message);
      exit (1);
    }
    n_data = (guint) (got / size);
    if (n_data == 0) {
      g_printerr ("%s holds no whole %ux%u I420 frame\n", input, width,
          height);
      exit (1);
    }
  } else {
    n_data = 8;
    data = make_frames (width, height, n_data);
  }
  if (pinned) {
    blocks = pin_frames (ctx, data, size, n_data);
    picture_block = clh_context_alloc_host (ctx, stride * spec->height, &err);
    if (!picture_block) {
      g_printerr ("%s\n", err->message);
      exit (1);
    }
    picture = clh_host_block_get_data (picture_block);
  } else {
    picture = own_picture = g_malloc (stride * spec->height);
  }
  for (r = 0; r < repeats + 1; r++) {
    const gdouble t0 = clh_bench_now_us (), c0 = clh_bench_cpu_us ();
    gdouble rate, cpu_ms;

    for (k = 0; k < n_frames; k++) {
      const ClhHostBlock *block = blocks ?
          blocks->pdata[k % n_data] : NULL;
      const ClhFrame f = i420_frame (block ? clh_host_block_get_data (block)
          : data + size * (k % n_data), width, height);

      if (!clh_scope_draw (scope, &f, spec, block, picture, stride, NULL,
              &err)) {
        g_printerr ("%s\n", err->message);
        exit (1);
      }
    }
    rate = n_frames * 1e6 / (clh_bench_now_us () - t0);
    cpu_ms = (clh_bench_cpu_us () - c0) / 1e3 / n_frames;
    /* The first round warms up: program, buffers, tables. */
    if (r > 0) {
      g_array_append_val (fps, rate);
      g_array_append_val (cpu, cpu_ms);
    }
  }
  best = clh_bench_percentile (fps, 100);
  med = clh_bench_percentile (fps, 50);
  cpu_med = clh_bench_percentile (cpu, 50);
  g_print ("%ux%u I420 -> %ux%u scopes 0x%x on %s: %.1f frames/s (%.3f "
      "ms a frame; best %.1f frames/s; %.3f ms of host CPU a frame), "
      "median of %u x %u frames; frames in %s\n", width, height,
      spec->width, spec->height, spec->kinds, device, med, 1e3 / med, best,
      cpu_med, repeats, n_frames, path_of (ctx, pinned));
  g_print ("json: {\"width\": %u, \"height\": %u, \"picture\": \"%ux%u\", "
      "\"scopes\": %u, \"device\": \"%s\", \"fps\": %.2f, "
      "\"best_fps\": %.2f, \"cpu_ms\": %.3f, \"frames\": %u, "
      "\"repeats\": %u, \"path\": \"%s\"}\n", width, height, spec->width,
      spec->height, spec->kinds, device, med, best, cpu_med, n_frames,
      repeats, pinned ? "pinned" : "malloc");
  clh_host_block_free (picture_block);
}

int
main (int argc, char **argv)
{
  g_autofree gchar *device = NULL, *scopes = NULL, *picture = NULL;
  g_autofree gchar *input = NULL;
  gint n_frames = 100, repeats = 5;
  gboolean pinned = FALSE;
  g_auto (GStrv) sizes = NULL;
  GOptionEntry entries[] = {
    {"device", 0, 0, G_OPTION_ARG_STRING, &device, "OpenCL device", "SPEC"},
    {"scopes", 0, 0, G_OPTION_ARG_STRING, &scopes,
        "Scopes, comma-separated (waveform,vectorscope)", "LIST"},
    {"picture", 0, 0, G_OPTION_ARG_STRING, &picture,
        "Picture size (768x256)", "WxH"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames a repeat (100)",
        "N"},
    {"repeats", 0, 0, G_OPTION_ARG_INT, &repeats, "Repeats (5)", "R"},
    {"input", 0, 0, G_OPTION_ARG_FILENAME, &input,
        "Raw I420 frames of the (one) size", "FILE"},
    {"pinned", 0, 0, G_OPTION_ARG_NONE, &pinned,
        "Frames and the picture in host blocks of the device, as from "
        "clscope's pools", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &sizes, NULL,
        "SIZE..."},
    {NULL},
  };
  g_autoptr (GOptionContext) options = g_option_context_new ("[WxH...]");
  g_autoptr (GError) err = NULL;
  ClhContext *ctx;
  ClhScope *scope;
  ClhScopeSpec spec = { 0 };
  const gchar *default_sizes[] = { "1920x1080", "3840x2160", NULL };
  const gchar *const *list;
  guint i;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  spec.kinds = parse_scopes (scopes ? scopes : "waveform,vectorscope");
  spec.width = 768;
  spec.height = 256;
  if (picture && sscanf (picture, "%ux%u", &spec.width, &spec.height) != 2) {
    g_printerr ("--picture WxH, e.g. 768x256\n");
    return 2;
  }
  spec.source = CLH_SCOPE_SOURCE_YUV;
  spec.limited = TRUE;
  spec.kr = 2126;
  spec.kb = 722;
  spec.scale = CLH_SCOPE_LINEAR;
  spec.graticule = CLH_SCOPE_GRATICULE_IRE;
  spec.intensity = 0.1;
  if (!(ctx = clh_context_new (device, &err))
      || !(scope = clh_scope_new (ctx, &err))) {
    g_printerr ("%s\n", err->message);
    return 1;
  }
  list = sizes ? (const gchar * const *) sizes : default_sizes;
  for (i = 0; list[i]; i++) {
    guint w, h;

    if (sscanf (list[i], "%ux%u", &w, &h) != 2 || w < 1 || h < 1) {
      g_printerr ("a size is WxH, e.g. 1920x1080: '%s'\n", list[i]);
      return 2;
    }
    bench_size (scope, ctx, &spec, w, h, input, (guint) MAX (n_frames, 1),
        (guint) MAX (repeats, 1), pinned);
  }
  clh_scope_free (scope);
  clh_context_unref (ctx);
  return 0;
}
