/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clh-cuda-bench: what counting a frame where CUDA left it costs on the
 * device, against counting the same frame once it is in OpenCL's own
 * memory. The target: per frame, counting from CUDA memory costs no more
 * than 1.2 times the kernel time of a frame already resident in OpenCL
 * memory.
 *
 * One frame, NV12 by default (P010_10LE: 10-bit samples shifted left by 6
 * in little-endian 16-bit words), a gradient with seeded noise, each
 * plane's rows padded to a multiple of 256 bytes as CUDA's pitched memory
 * pads them. Two paths, taking turns frame by frame on one engine so that
 * both meet the same clocks and load, one frame in flight:
 *   resident  the frame in engine host memory, copied to a device buffer
 *             (CLH_TRANSFER_COPY) and counted there: its kernel time is
 *             that of a frame already in OpenCL memory; the copy is timed
 *             apart, as its upload
 *   cuda      the frame copied once into exportable CUDA memory, exported
 *             as a POSIX file descriptor and imported into the engine's
 *             OpenCL context (clh_context_import_opaque_fd()): counted
 *             where it lies, nothing uploaded
 * Both in two modes: luma (Y, 2^depth bins) and channels (Y, U, V). Device
 * times come from OpenCL profiling (ClhTimings), medians over the timed
 * frames after a warm-up. Every histogram of either path is compared with
 * the golden reference's, so the two paths agree bit for bit or the
 * benchmark stops (exit 1). The PCIe bytes of a frame are arithmetic, not
 * measured.
 *
 *   clh-cuda-bench [--device SPEC] [--width W] [--height H]
 *       [--format NV12|P010_10LE] [--iterations N] [--fresh]
 *
 * Where there is nothing to measure (no CUDA driver, an OpenCL device
 * without cl_khr_external_memory_opaque_fd, no CUDA device that is the
 * OpenCL device, an export or import the drivers refuse) it says why in
 * one line and exits 77, the skip status of meson's and automake's test
 * harnesses. Not a test: it asserts nothing about time. */
#include <string.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>

#include "clh-bench-stats.h"
#include "clh-engine-profiling.h"
#include "clh-engine-tuning.h"
#include "clh-reference.h"
#include "clh-reference-layout.h"
#include "gstclbasecudadriver.h"

#define EXIT_SKIP 77
#define WARM_UP 20
/* Rows of the frame's planes start at multiples of this, as in CUDA's
 * pitched memory, so that the kernels read rows with padding between them
 * as they would read a decoder's. */
#define PITCH_ALIGN 256
/* Where planes start in the engine's staging buffer
 * (clh-engine-transfer.c's PLANE_ALIGN). */
#define STAGING_PLANE_ALIGN 256
/* The target ratio of the CUDA path's kernel time to the resident one's. */
#define TARGET_RATIO 1.2

#define BENCH_ERROR (g_quark_from_static_string ("clh-cuda-bench"))

enum {
  PATH_RESIDENT, PATH_CUDA, N_PATHS
};

static const gchar *const path_names[N_PATHS] = { "resident", "cuda" };

/* What is kept of each timed frame, ClhTimings' fields. */
enum {
  M_KERNEL, M_UPLOAD, M_READBACK, M_SPAN, N_MEASURES
};

/* The frame: @host's planes in engine host memory, @device's the same
 * planes at the same offsets as CUDA device addresses. */
typedef struct {
  const gchar *format;
  ClhFormatClass klass;
  ClhFrame host;
  ClhFrame device;
  gsize offsets[CLH_MAX_PLANES];
  gsize size;
  guint8 *data;
} Frame;

/* @cuda_device, @cuda_name and @matched: for the header only. */
typedef struct {
  ClhEngine *engine;
  GstCudaContext *cuda;
  gint cuda_device;
  gchar cuda_name[256];
  gboolean matched;
  GstClCudaAllocation allocation;
  ClhHostBlock *block;
  Frame frame;
  guint iterations;
  /* --fresh: CUDA writes the frame again (a copy on the device from
   * @source) before each count, as a decoder writes each frame just
   * before it is counted; the resident frame is uploaded before each. */
  gboolean fresh;
  GstClCudaAllocation source;
} Bench;

/* One mode's medians (ns) and bytes. */
typedef struct {
  const gchar *mode;
  guint n_channels;
  guint bins;
  gdouble ns[N_PATHS][N_MEASURES];
  gsize frame_bytes[N_PATHS];
  gsize readback_bytes;
} Result;

static gsize
round_up (gsize n, gsize to)
{
  return (n + to - 1) / to * to;
}

/* Sample (@x, @y) of component @c, of @w x @h samples: a gradient, each
 * component's in its own direction so that no two channels are alike, with
 * seeded noise of a sixteenth of the range. Real video is neither flat nor
 * uniform, and how often work-items hit the same bin is what the kernels'
 * atomics pay for. */
static guint
sample_value (guint c, guint x, guint y, guint w, guint h, guint max,
    GRand *rand)
{
  const gint64 across = (gint64) x * max / MAX (w - 1, 1);
  const gint64 down = (gint64) y * max / MAX (h - 1, 1);
  const gint amplitude = MAX (max / 16, 1);
  gint64 v;

  v = c == 0 ? (across + down) / 2 : c == 1 ? max - across : down;
  v += g_rand_int_range (rand, -amplitude, amplitude + 1);
  return (guint) CLAMP (v, 0, (gint64) max);
}

/* Stores @value as component @c of @frame keeps it: shifted, in a byte or
 * a 16-bit word of the frame's byte order. */
static void
store_sample (const Frame *f, guint c, guint x, guint y, guint value)
{
  const ClhFrame *frame = &f->host;
  const ClhComponent *comp = &frame->components[c];
  guint8 *at = f->data + f->offsets[comp->plane]
      + (gsize) y * frame->planes[comp->plane].stride + comp->offset
      + (gsize) x * comp->pixel_stride;
  const guint stored = value << comp->shift;

  if (frame->sample == CLH_SAMPLE_8) {
    at[0] = stored;
  } else if (frame->sample == CLH_SAMPLE_16LE) {
    at[0] = stored & 0xff;
    at[1] = stored >> 8;
  } else {
    at[0] = stored >> 8;
    at[1] = stored & 0xff;
  }
}

static void
fill_frame (Frame *f)
{
  const ClhFrame *frame = &f->host;
  const guint max = (1u << frame->depth) - 1;
  GRand *rand = g_rand_new_with_seed (42);
  guint c, x, y;

  /* The pitch's padding holds bytes no component reads: not zeros, so
   * that a kernel reading past a row's end would count wrong. */
  memset (f->data, 0xa5, f->size);
  for (c = 0; c < frame->n_components; c++) {
    const guint w = clh_component_width (frame, c);
    const guint h = clh_component_height (frame, c);

    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        store_sample (f, c, x, y, sample_value (c, x, y, w, h, max, rand));
  }
  g_rand_free (rand);
}

/* Whether the reference knows @format's layout, of a YUV format: the
 * modes counted are Y alone and Y, U, V. */
static gboolean
format_is_yuv (const gchar *format)
{
  ClhFrame frame;
  ClhFormatClass klass;

  return clh_reference_layout (format, &frame, &klass)
      && klass == CLH_FORMAT_YUV;
}

/* Lays out a @width x @height frame of @format, planes one after the other
 * with pitched rows as a CUDA frame's, in engine host memory, and fills
 * it. */
static gboolean
frame_init (Frame *f, ClhEngine *engine, const gchar *format, guint width,
    guint height, GError **error)
{
  ClhFrame *frame = &f->host;
  guint p;

  memset (f, 0, sizeof (*f));
  f->format = format;
  if (!clh_reference_layout (format, frame, &f->klass))
    g_assert_not_reached ();
  frame->width = width;
  frame->height = height;
  for (p = 0; p < frame->n_planes; p++) {
    frame->planes[p].stride = round_up (clh_frame_plane_row_bytes (frame, p),
        PITCH_ALIGN);
    f->offsets[p] = f->size;
    f->size += frame->planes[p].stride * clh_frame_plane_rows (frame, p);
  }
  if (!(f->data = clh_engine_alloc_host (engine, f->size, error)))
    return FALSE;
  for (p = 0; p < frame->n_planes; p++)
    frame->planes[p].data = f->data + f->offsets[p];
  if (!clh_frame_is_valid (frame)) {
    g_set_error (error, BENCH_ERROR, 0, "%s %ux%u is not a valid frame",
        format, width, height);
    return FALSE;
  }
  fill_frame (f);
  return TRUE;
}

/* The CUDA context of the GPU that is the engine's OpenCL device, matched
 * by UUID (the plugin refuses any other, gstclbasecudainput.c); NULL with @why
 * where there is none. Without an OpenCL UUID the first CUDA device is
 * taken, and an import from another GPU fails later. */
static GstCudaContext *
cuda_open (Bench *b, gchar **why)
{
  ClhContext *cl = clh_engine_get_context (b->engine);
  guint8 cl_uuid[CLH_DEVICE_UUID_SIZE], uuid[GST_CL_CUDA_UUID_SIZE];
  gboolean have_uuid;
  GError *err = NULL;
  gint n = 0, i;

  if (!gst_cuda_load_library ()) {
    *why = g_strdup ("GStreamer's CUDA library cannot load NVIDIA's "
        "driver (libcuda.so.1)");
    return NULL;
  }
  if (!gst_cl_cuda_driver_load (&err)) {
    *why = g_strdup (err->message);
    g_error_free (err);
    return NULL;
  }
  if (CuInit (0) != CUDA_SUCCESS || CuDeviceGetCount (&n) != CUDA_SUCCESS
      || n < 1) {
    *why = g_strdup ("the CUDA driver finds no device");
    return NULL;
  }
  have_uuid = clh_context_get_device_uuid (cl, cl_uuid);
  for (i = 0; i < n; i++) {
    GstCudaContext *cuda = gst_cuda_context_new (i);
    CUdevice dev;

    if (!cuda)
      continue;
    if (have_uuid && (!gst_cl_cuda_context_get_uuid (cuda, uuid, NULL)
            || memcmp (uuid, cl_uuid, sizeof (cl_uuid)) != 0)) {
      gst_object_unref (cuda);
      continue;
    }
    b->cuda_device = i;
    b->matched = have_uuid;
    if (CuDeviceGet (&dev, i) != CUDA_SUCCESS
        || CuDeviceGetName (b->cuda_name, sizeof (b->cuda_name), dev)
        != CUDA_SUCCESS)
      g_strlcpy (b->cuda_name, "unnamed", sizeof (b->cuda_name));
    return cuda;
  }
  *why = g_strdup_printf ("none of the %d CUDA devices is the OpenCL device "
      "%s (no UUID matches): choose it with --device", n,
      clh_context_get_device_name (cl));
  return NULL;
}

/* The frame in exportable CUDA memory, imported into the engine's context
 * as b->block, with b->frame.device's planes at its device addresses.
 * Returns 0, EXIT_SKIP with @why when the drivers will not export or
 * import, or 1 with @why when CUDA fails otherwise. */
static gint
cuda_frame_init (Bench *b, gchar **why)
{
  Frame *f = &b->frame;
  GError *err = NULL;
  guint p;
  gint fd;

  if (!gst_cl_cuda_alloc_exportable (b->cuda, f->size, &b->allocation, &err)
      || !gst_cl_cuda_copy (b->cuda, NULL, b->allocation.ptr, f->data, 0,
          f->size, &err)
      || (b->fresh && (!gst_cl_cuda_alloc_exportable (b->cuda, f->size,
                  &b->source, &err)
              || !gst_cl_cuda_copy (b->cuda, NULL, b->source.ptr, f->data,
                  0, f->size, &err)))) {
    *why = g_strdup_printf ("CUDA: %s", err->message);
    g_error_free (err);
    return 1;
  }
  if ((fd = gst_cl_cuda_export_fd (&b->allocation, &err)) < 0) {
    *why = g_strdup_printf ("CUDA does not export the memory: %s",
        err->message);
    g_error_free (err);
    return EXIT_SKIP;
  }
  b->block = clh_context_import_opaque_fd (clh_engine_get_context
      (b->engine), fd, b->allocation.size, b->allocation.ptr, &err);
  if (!b->block) {
    /* A failed import leaves the descriptor ours; a successful one gives
     * it to the OpenCL driver. */
    close (fd);
    *why = g_strdup_printf ("OpenCL does not import the CUDA memory: %s",
        err->message);
    g_error_free (err);
    return EXIT_SKIP;
  }
  f->device = f->host;
  for (p = 0; p < f->host.n_planes; p++)
    f->device.planes[p].data =
        (const guint8 *) (guintptr) (b->allocation.ptr + f->offsets[p]);
  return 0;
}

/* Checks the reference's own counts against the frame's geometry: each
 * channel counts every sample of its component once, all in range. */
static gboolean
check_reference (const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ClhHistogram *want, GError **error)
{
  const guint bins = clh_histogram_spec_n_bins (spec);
  guint c, i;

  for (c = 0; c < clh_histogram_spec_n_channels (spec); c++) {
    const guint comp = spec->components[c];
    const guint64 samples = (guint64) clh_component_width (frame, comp)
        * clh_component_height (frame, comp);
    guint64 sum = 0;

    for (i = 0; i < bins; i++)
      sum += want->counts[(gsize) c * bins + i];
    if (want->samples[c] != samples || sum != samples
        || want->below[c] != 0 || want->above[c] != 0) {
      g_set_error (error, BENCH_ERROR, 0, "channel %u: the reference "
          "counts %" G_GUINT64_FORMAT " samples in its bins (%"
          G_GUINT64_FORMAT " below, %" G_GUINT64_FORMAT " above), the "
          "frame has %" G_GUINT64_FORMAT, c, sum, want->below[c],
          want->above[c], samples);
      return FALSE;
    }
  }
  return TRUE;
}

/* Whether @got is @want, bit for bit; if not, @error says where first. */
static gboolean
same_histogram (const ClhHistogramSpec *spec, const ClhHistogram *want,
    const ClhHistogram *got, const gchar *path, GError **error)
{
  const guint bins = clh_histogram_spec_n_bins (spec);
  guint c, i;

  for (c = 0; c < clh_histogram_spec_n_channels (spec); c++) {
    for (i = 0; i < bins; i++) {
      const gsize k = (gsize) c * bins + i;

      if (got->counts[k] != want->counts[k]) {
        g_set_error (error, BENCH_ERROR, 0, "the %s path's histogram "
            "differs from the golden reference's: channel %u, bin %u: %u, "
            "not %u", path, c, i, got->counts[k], want->counts[k]);
        return FALSE;
      }
    }
    if (got->samples[c] != want->samples[c]
        || got->below[c] != want->below[c]
        || got->above[c] != want->above[c]) {
      g_set_error (error, BENCH_ERROR, 0, "the %s path's histogram differs "
          "from the golden reference's: channel %u's samples, below or "
          "above", path, c);
      return FALSE;
    }
  }
  return TRUE;
}

/* Counts the frame once by @path, one frame in flight, into @got, and
 * takes its device times. */
static gboolean
count_once (Bench *b, guint path, const ClhHistogramSpec *spec,
    ClhHistogram *got, ClhTimings *timings, GError **error)
{
  const gboolean cuda = path == PATH_CUDA;

  /* Written again on the device, and done, before the count. */
  if (cuda && b->fresh && !gst_cl_cuda_copy (b->cuda, NULL,
          b->allocation.ptr, NULL, b->source.ptr, b->frame.size, error))
    return FALSE;
  if (!clh_engine_submit (b->engine, cuda ? &b->frame.device :
          &b->frame.host, spec, cuda ? b->block : NULL, error)
      || !clh_engine_collect (b->engine, got, error))
    return FALSE;
  if (!clh_engine_get_timings (b->engine, timings)) {
    g_set_error (error, BENCH_ERROR, 0, "the engine timed no command of "
        "the %s path's frame (profiling)", path_names[path]);
    return FALSE;
  }
  return TRUE;
}

/* Bytes of the used planes' rows as the resident path's upload copies
 * them: every row at its pitch, the last up to its last sample
 * (clh-engine-transfer.c, upload_band()). */
static gsize
upload_bytes (const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  guint used = 0, p, i;
  gsize bytes = 0;

  for (i = 0; i < spec->n_components; i++)
    used |= 1u << frame->components[spec->components[i]].plane;
  for (p = 0; p < frame->n_planes; p++)
    if (used & (1u << p))
      bytes += clh_frame_plane_span (frame, p);
  return bytes;
}

/* Times @r->mode on both paths, in turns, and checks every histogram. */
static gboolean
run_mode (Bench *b, Result *r, GError **error)
{
  const ClhFrame *frame = &b->frame.host;
  GArray *values[N_PATHS][N_MEASURES];
  ClhHistogramSpec spec;
  ClhHistogram want = { NULL }, got = { NULL };
  gboolean ok = TRUE;
  guint i, k, m;

  if (!clh_reference_spec (b->frame.klass, frame, r->mode,
          1u << frame->depth, &spec)) {
    g_set_error (error, BENCH_ERROR, 0, "%s has no %s histogram",
        b->frame.format, r->mode);
    return FALSE;
  }
  r->n_channels = clh_histogram_spec_n_channels (&spec);
  r->bins = clh_histogram_spec_n_bins (&spec);
  want.counts = g_new0 (guint32, (gsize) r->n_channels * r->bins);
  got.counts = g_new0 (guint32, (gsize) r->n_channels * r->bins);
  clh_reference_histogram (frame, &spec, &want);
  for (k = 0; k < N_PATHS; k++)
    for (m = 0; m < N_MEASURES; m++)
      values[k][m] = g_array_new (FALSE, FALSE, sizeof (gdouble));

  ok = check_reference (frame, &spec, &want, error);
  for (i = 0; ok && i < WARM_UP + b->iterations; i++)
    for (k = 0; ok && k < N_PATHS; k++) {
      /* The paths take turns at going first, so that neither always
       * follows the other's frame (whose data may still be in the
       * device's cache). */
      const guint path = (i + k) % N_PATHS;
      ClhTimings t;

      ok = count_once (b, path, &spec, &got, &t, error)
          && same_histogram (&spec, &want, &got, path_names[path], error);
      if (!ok || i < WARM_UP)
        continue;
      g_array_append_val (values[path][M_KERNEL], (gdouble) { t.kernel_ns });
      g_array_append_val (values[path][M_UPLOAD], (gdouble) { t.upload_ns });
      g_array_append_val (values[path][M_READBACK],
          (gdouble) { t.readback_ns });
      g_array_append_val (values[path][M_SPAN], (gdouble) { t.span_ns });
    }

  for (k = 0; k < N_PATHS; k++)
    for (m = 0; m < N_MEASURES; m++) {
      r->ns[k][m] = clh_bench_percentile (values[k][m], 50);
      g_array_unref (values[k][m]);
    }
  r->frame_bytes[PATH_RESIDENT] = upload_bytes (frame, &spec);
  r->frame_bytes[PATH_CUDA] = 0;
  /* Each channel's bins, then its below and above counters, 32-bit: the
   * whole frame's histogram is read back wide (clh-engine-regions.c). */
  r->readback_bytes = (gsize) r->n_channels * (r->bins + 2)
      * sizeof (guint32);
  g_free (want.counts);
  g_free (got.counts);
  return ok;
}

/* @part / @whole, 0 where @whole is 0 (a device that timed nothing). */
static gdouble
ratio (gdouble part, gdouble whole)
{
  return whole > 0 ? part / whole : 0;
}

static void
print_result (const Bench *b, const Result *r)
{
  const ClhFrame *frame = &b->frame.host;
  const gdouble q = ratio (r->ns[PATH_CUDA][M_KERNEL],
      r->ns[PATH_RESIDENT][M_KERNEL]);
  guint k;

  g_print ("\n%s %ux%u %s: %u channel%s x %u bins\n", b->frame.format,
      frame->width, frame->height, r->mode, r->n_channels,
      r->n_channels == 1 ? "" : "s", r->bins);
  g_print ("  %-9s %12s %12s %12s %12s %14s %10s\n", "path", "kernel ns",
      "upload ns", "readback ns", "span ns", "frame bytes", "readback");
  for (k = 0; k < N_PATHS; k++)
    g_print ("  %-9s %12.0f %12.0f %12.0f %12.0f %14" G_GSIZE_FORMAT
        " %10" G_GSIZE_FORMAT "\n", path_names[k], r->ns[k][M_KERNEL],
        r->ns[k][M_UPLOAD], r->ns[k][M_READBACK], r->ns[k][M_SPAN],
        r->frame_bytes[k], r->readback_bytes);
  g_print ("  kernel time cuda / resident: %.3f (target <= %.1f: %s)\n", q,
      TARGET_RATIO, q <= TARGET_RATIO ? "met" : "NOT met");
}

static void
print_machine_line (const Bench *b, const Result *r)
{
  const ClhFrame *frame = &b->frame.host;

  g_print ("cuda-bench format=%s mode=%s size=%ux%u resident_kernel_ns=%.0f "
      "cuda_kernel_ns=%.0f ratio=%.3f resident_upload_ns=%.0f "
      "cuda_upload_ns=%.0f resident_frame_bytes=%" G_GSIZE_FORMAT
      " cuda_frame_bytes=%" G_GSIZE_FORMAT " readback_bytes=%"
      G_GSIZE_FORMAT " iterations=%u fresh=%s exact=yes\n", b->frame.format,
      r->mode,
      frame->width, frame->height, r->ns[PATH_RESIDENT][M_KERNEL],
      r->ns[PATH_CUDA][M_KERNEL], ratio (r->ns[PATH_CUDA][M_KERNEL],
          r->ns[PATH_RESIDENT][M_KERNEL]), r->ns[PATH_RESIDENT][M_UPLOAD],
      r->ns[PATH_CUDA][M_UPLOAD], r->frame_bytes[PATH_RESIDENT],
      r->frame_bytes[PATH_CUDA], r->readback_bytes, b->iterations,
      b->fresh ? "yes" : "no");
}

static void
print_header (const Bench *b)
{
  const ClhFrame *frame = &b->frame.host;
  gchar *driver = clh_engine_get_driver_version (b->engine);
  guint p;

  g_print ("device: %s (%s), driver %s; CUDA device %d (%s)%s\n",
      clh_engine_get_device_name (b->engine),
      clh_engine_get_platform_name (b->engine), driver, b->cuda_device,
      b->cuda_name, b->matched ? ", the same GPU by UUID" :
      ": OpenCL gives no UUID, assumed the same GPU");
  g_print ("frame: %s %ux%u, pitches", b->frame.format, frame->width,
      frame->height);
  for (p = 0; p < frame->n_planes; p++)
    g_print ("%s%" G_GSIZE_FORMAT, p ? "/" : " ", frame->planes[p].stride);
  g_print (" bytes, %" G_GSIZE_FORMAT " bytes; %u timed frames per path "
      "after %u to warm up, the paths taking turns; every histogram "
      "checked against the golden reference\n", b->frame.size,
      b->iterations, WARM_UP);
  g_print ("medians of OpenCL profiling: kernel (clearing the bins and "
      "every launch), upload, readback, span (first command's start to "
      "last's end)\n");
  g_print ("bytes over PCIe per frame, computed: resident uploads the used "
      "planes' rows at their pitch, cuda nothing; both read back "
      "channels x (bins + 2) x 4 bytes of counters (bins, below, above)\n");
  g_free (driver);
}

/* Frees what @b holds: the import before the CUDA memory under it. */
static void
bench_clear (Bench *b)
{
  g_clear_pointer (&b->block, clh_host_block_free);
  if (b->cuda) {
    gst_cl_cuda_free_exportable (b->cuda, &b->allocation);
    gst_cl_cuda_free_exportable (b->cuda, &b->source);
  }
  if (b->frame.data)
    clh_engine_free_host (b->engine, b->frame.data);
  g_clear_pointer (&b->engine, clh_engine_free);
  gst_clear_object (&b->cuda);
}

/* Sets the engine up to time the kernels alone, each frame counted in one
 * launch on the device. */
static gboolean
engine_setup (Bench *b, GError **error)
{
  const ClhFrame *frame = &b->frame.host;
  gsize band = 0;
  guint p;

  /* The host counts nothing (on a CPU device it would, without a kernel
   * to time), and no submission thread batches frames. */
  clh_engine_set_counting (b->engine, CLH_COUNTING_DEVICE);
  clh_engine_set_submission (b->engine, CLH_SUBMISSION_CALLER);
  clh_engine_set_transfer (b->engine, CLH_TRANSFER_COPY);
  /* The whole resident frame in one band, as the imported frame is
   * counted in one band: the staging buffer's size, planes 256-aligned
   * (clh-engine-transfer.c, band_layout()). */
  for (p = 0; p < frame->n_planes; p++)
    band += round_up (frame->planes[p].stride
        * clh_frame_plane_rows (frame, p), STAGING_PLANE_ALIGN);
  clh_engine_set_staging_limit (b->engine, band);
  return clh_engine_set_profiling (b->engine, TRUE, error);
}

int
main (int argc, char **argv)
{
  gchar *device = NULL, *format = NULL, *why = NULL;
  gint width = 1920, height = 1080, iterations = 200;
  gboolean fresh = FALSE;
  GOptionEntry entries[] = {
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device, "OpenCL device",
        "auto"},
    {"width", 0, 0, G_OPTION_ARG_INT, &width, "Frame width", "1920"},
    {"height", 0, 0, G_OPTION_ARG_INT, &height, "Frame height", "1080"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &format,
        "NV12 or P010_10LE (or another YUV format of the reference's)",
        "NV12"},
    {"iterations", 'n', 0, G_OPTION_ARG_INT, &iterations,
        "Timed frames per path and mode", "200"},
    {"fresh", 0, 0, G_OPTION_ARG_NONE, &fresh, "CUDA writes the frame "
        "again before each count, as a decoder does", NULL},
    {NULL}
  };
  static const gchar *const modes[] = { "luma", "channels" };
  GOptionContext *ctx = g_option_context_new ("- count from CUDA memory "
      "against OpenCL-resident frames");
  Result results[G_N_ELEMENTS (modes)];
  ClhContext *cl;
  Bench b;
  GError *err = NULL;
  gint rc = 0;
  guint m;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || width < 1
      || width > CLH_MAX_DIMENSION || height < 1
      || height > CLH_MAX_DIMENSION || iterations < 1) {
    g_printerr ("%s\n", err ? err->message : "--width and --height: 1 to "
        G_STRINGIFY (CLH_MAX_DIMENSION) "; --iterations: at least 1");
    g_clear_error (&err);
    g_option_context_free (ctx);
    g_free (device);
    g_free (format);
    return 2;
  }
  g_option_context_free (ctx);
  if (!format_is_yuv (format ? format : "NV12")) {
    g_printerr ("--format: %s is not a YUV format the golden reference "
        "knows (NV12, P010_10LE, ...)\n", format);
    g_free (device);
    g_free (format);
    return 2;
  }
  gst_init (NULL, NULL);

  memset (&b, 0, sizeof (b));
  b.iterations = iterations;
  b.fresh = fresh;
  if (!(b.engine = clh_engine_new (device, &err)))
    goto fail;
  /* The cheapest refusal first: an OpenCL driver that does not import
   * needs no CUDA context to find out. */
  cl = clh_engine_get_context (b.engine);
  if (!clh_context_can_import_opaque_fd (cl)) {
    why = g_strdup_printf ("the OpenCL device %s does not import CUDA "
        "memory (no cl_khr_external_memory_opaque_fd)",
        clh_context_get_device_name (cl));
    rc = EXIT_SKIP;
    goto out;
  }
  if (!(b.cuda = cuda_open (&b, &why))) {
    rc = EXIT_SKIP;
    goto out;
  }
  if (!frame_init (&b.frame, b.engine, format ? format : "NV12", width,
          height, &err))
    goto fail;
  if ((rc = cuda_frame_init (&b, &why)) != 0)
    goto out;
  if (!engine_setup (&b, &err))
    goto fail;

  print_header (&b);
  for (m = 0; m < G_N_ELEMENTS (modes); m++) {
    results[m].mode = modes[m];
    if (!run_mode (&b, &results[m], &err))
      goto fail;
    print_result (&b, &results[m]);
  }
  g_print ("\n");
  for (m = 0; m < G_N_ELEMENTS (modes); m++)
    print_machine_line (&b, &results[m]);
  goto out;

fail:
  why = g_strdup (err->message);
  g_clear_error (&err);
  rc = 1;
out:
  if (rc == EXIT_SKIP)
    g_print ("cuda-bench: skipped: %s\n", why);
  else if (rc != 0)
    g_printerr ("cuda-bench: failed: %s\n", why);
  bench_clear (&b);
  g_free (why);
  g_free (device);
  g_free (format);
  return rc;
}
