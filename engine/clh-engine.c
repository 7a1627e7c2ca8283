/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-engine.h"

#include "clh-device.h"

#include <string.h>

/* kernels/histogram.cl, embedded at build time. */
extern const char clh_histogram_cl_source[];

/* Launch configuration. A work-group of up to 256 work-items shares its
 * replicated sub-histograms; enough groups to fill the device, but no more
 * than give each work-item ITEMS_PER_WORK_ITEM samples, so that the
 * per-group merge (one global atomic per non-zero bin) stays small beside
 * the counting. */
#define WORK_GROUP_SIZE_MAX 256
#define MAX_COPIES 8
#define ITEMS_PER_WORK_ITEM 8
#define GROUPS_PER_COMPUTE_UNIT 4

/* Frames are uploaded in bands of rows of at most this many bytes, so a
 * 16384 x 16384 RGBA frame never needs a 1 GiB device buffer; a band's
 * height is a multiple of BAND_ROW_MULTIPLE, so that the rows of vertically
 * subsampled planes (up to 4:1) never straddle two bands. */
#define STAGING_LIMIT_DEFAULT (64u << 20)
#define BAND_ROW_MULTIPLE 4
/* Planes start at multiples of this in the staging buffer. */
#define PLANE_ALIGN 256

#define HIST_COUNTERS (CLH_MAX_CHANNELS * (CLH_MAX_BINS + 2))

typedef enum {
  KERNEL_PACKED8,
  KERNEL_COMPONENT,
  KERNEL_COLOUR,
  N_KERNELS
} KernelId;

static const gchar *const kernel_names[N_KERNELS] = {
  "histogram_packed8", "histogram_component", "histogram_colour",
};

struct _ClhEngine {
  ClhDeviceInfo device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  cl_kernel kernels[N_KERNELS];
  size_t work_group_size[N_KERNELS];

  cl_uint compute_units;
  cl_ulong local_mem_size;
  cl_ulong max_alloc;
  gboolean little_endian;

  /* Two buffers of HIST_COUNTERS counters: frames alternate between them,
   * each channel's bins followed by its below and above. dirty[b] is how
   * many counters of hist[b] may be non-zero; a frame's first launch
   * clears the other buffer's (zero_next counters), so that the next frame
   * needs no clear command. */
  cl_mem hist[2];
  guint current;
  gsize dirty[2];
  gsize zero_next;
  /* One band of the frame: the rows of each plane it needs, as stored. */
  cl_mem staging;
  gsize staging_size;
  gsize staging_limit;

  /* With profiling on, the current frame's commands' events, and the last
   * frame's timings. */
  gboolean profiling;
  GArray *events;
  ClhTimings timings;
  gboolean have_timings;
};

typedef enum {
  PHASE_UPLOAD,
  PHASE_KERNEL,
  PHASE_READBACK,
} Phase;

typedef struct {
  cl_event event;
  Phase phase;
} PhaseEvent;

/* Where a command's event goes: NULL unless profiling. */
static cl_event *
phase_event (ClhEngine *engine, Phase phase)
{
  PhaseEvent pe = { NULL, phase };

  if (!engine->profiling)
    return NULL;
  g_array_append_val (engine->events, pe);
  return &g_array_index (engine->events, PhaseEvent,
      engine->events->len - 1).event;
}

static void
release_events (ClhEngine *engine)
{
  guint i;

  for (i = 0; engine->events && i < engine->events->len; i++) {
    cl_event ev = g_array_index (engine->events, PhaseEvent, i).event;
    if (ev)
      clReleaseEvent (ev);
  }
  if (engine->events)
    g_array_set_size (engine->events, 0);
}

/* Sums the finished frame's events into its timings. */
static void
collect_timings (ClhEngine *engine)
{
  guint64 first = G_MAXUINT64, last = 0;
  guint i;

  memset (&engine->timings, 0, sizeof (engine->timings));
  engine->have_timings = TRUE;
  for (i = 0; i < engine->events->len; i++) {
    PhaseEvent *pe = &g_array_index (engine->events, PhaseEvent, i);
    cl_ulong start = 0, end = 0;
    guint64 *sum = pe->phase == PHASE_UPLOAD ? &engine->timings.upload_ns :
        pe->phase == PHASE_KERNEL ? &engine->timings.kernel_ns :
        &engine->timings.readback_ns;

    if (!pe->event
        || clGetEventProfilingInfo (pe->event, CL_PROFILING_COMMAND_START,
            sizeof (start), &start, NULL) != CL_SUCCESS
        || clGetEventProfilingInfo (pe->event, CL_PROFILING_COMMAND_END,
            sizeof (end), &end, NULL) != CL_SUCCESS) {
      engine->have_timings = FALSE;
      continue;
    }
    *sum += end - start;
    first = MIN (first, start);
    last = MAX (last, end);
  }
  engine->timings.span_ns = last > first ? last - first : 0;
  release_events (engine);
}

static gboolean
query_device (ClhEngine *engine, GError **error)
{
  cl_device_id dev = engine->device.device;
  cl_bool little = CL_TRUE;

  if (!clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_MAX_COMPUTE_UNITS,
              sizeof (cl_uint), &engine->compute_units, NULL),
          "clGetDeviceInfo (CL_DEVICE_MAX_COMPUTE_UNITS)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_LOCAL_MEM_SIZE,
              sizeof (cl_ulong), &engine->local_mem_size, NULL),
          "clGetDeviceInfo (CL_DEVICE_LOCAL_MEM_SIZE)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
              sizeof (cl_ulong), &engine->max_alloc, NULL),
          "clGetDeviceInfo (CL_DEVICE_MAX_MEM_ALLOC_SIZE)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_ENDIAN_LITTLE,
              sizeof (cl_bool), &little, NULL),
          "clGetDeviceInfo (CL_DEVICE_ENDIAN_LITTLE)", error))
    return FALSE;

  engine->little_endian = little == CL_TRUE;
  engine->compute_units = MAX (engine->compute_units, 1);
  engine->staging_limit = MIN (STAGING_LIMIT_DEFAULT, engine->max_alloc);
  return TRUE;
}

static gboolean
build_program (ClhEngine *engine, GError **error)
{
  const char *source = clh_histogram_cl_source;
  cl_int ret;
  size_t log_size = 0;
  gchar *log;

  engine->program = clCreateProgramWithSource (engine->context, 1, &source,
      NULL, &ret);
  if (!clh_cl_check (ret, "clCreateProgramWithSource", error))
    return FALSE;

  ret = clBuildProgram (engine->program, 1, &engine->device.device,
      "-cl-std=CL1.2", NULL, NULL);
  if (ret == CL_SUCCESS)
    return TRUE;

  clGetProgramBuildInfo (engine->program, engine->device.device,
      CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
  log = g_malloc0 (log_size + 1);
  clGetProgramBuildInfo (engine->program, engine->device.device,
      CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
  g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_BUILD,
      "Building the histogram kernels for %s (%s) failed with %s. "
      "Build log:\n%s", engine->device.name, engine->device.platform_name,
      clh_cl_error_name (ret), g_strstrip (log));
  g_free (log);
  return FALSE;
}

static gboolean
create_kernels (ClhEngine *engine, GError **error)
{
  guint k;
  cl_int ret;

  for (k = 0; k < N_KERNELS; k++) {
    size_t wg = 0;

    engine->kernels[k] = clCreateKernel (engine->program, kernel_names[k],
        &ret);
    if (!clh_cl_check (ret, "clCreateKernel", error))
      return FALSE;
    ret = clGetKernelWorkGroupInfo (engine->kernels[k], engine->device.device,
        CL_KERNEL_WORK_GROUP_SIZE, sizeof (wg), &wg, NULL);
    if (!clh_cl_check (ret, "clGetKernelWorkGroupInfo", error))
      return FALSE;
    engine->work_group_size[k] = CLAMP (wg, 1, WORK_GROUP_SIZE_MAX);
  }
  return TRUE;
}

/**
 * clh_engine_new:
 * @device_spec: (nullable): which device, as clh_device_select() reads it
 * @error: %CLH_ENGINE_ERROR_NO_DEVICE, %CLH_ENGINE_ERROR_DEVICE_NOT_FOUND,
 *   %CLH_ENGINE_ERROR_BUILD (with the build log) or
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * Selects a device, creates its context and in-order command queue and
 * builds the kernels. An engine serves one thread at a time.
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhEngine *
clh_engine_new (const gchar *device_spec, GError **error)
{
  g_autoptr (ClhEngine) engine = g_new0 (ClhEngine, 1);
  cl_int ret;

  if (!clh_device_select (device_spec, &engine->device, error)
      || !query_device (engine, error))
    return NULL;

  engine->context = clCreateContext (NULL, 1, &engine->device.device, NULL,
      NULL, &ret);
  if (!clh_cl_check (ret, "clCreateContext", error))
    return NULL;

  engine->queue = clCreateCommandQueue (engine->context,
      engine->device.device, 0, &ret);
  if (!clh_cl_check (ret, "clCreateCommandQueue", error))
    return NULL;

  if (!build_program (engine, error) || !create_kernels (engine, error))
    return NULL;

  for (guint b = 0; b < 2; b++) {
    engine->hist[b] = clCreateBuffer (engine->context, CL_MEM_READ_WRITE,
        sizeof (cl_uint) * HIST_COUNTERS, NULL, &ret);
    if (!clh_cl_check (ret, "clCreateBuffer (histogram)", error))
      return NULL;
    engine->dirty[b] = HIST_COUNTERS;
  }

  return g_steal_pointer (&engine);
}

/**
 * clh_engine_free:
 * @engine: (transfer full) (nullable): an engine
 *
 * Waits for the engine's queue and releases every OpenCL object it holds.
 */
void
clh_engine_free (ClhEngine *engine)
{
  guint k;

  if (!engine)
    return;
  if (engine->queue)
    clFinish (engine->queue);
  release_events (engine);
  g_clear_pointer (&engine->events, g_array_unref);
  g_clear_pointer (&engine->staging, clReleaseMemObject);
  g_clear_pointer (&engine->hist[0], clReleaseMemObject);
  g_clear_pointer (&engine->hist[1], clReleaseMemObject);
  for (k = 0; k < N_KERNELS; k++)
    g_clear_pointer (&engine->kernels[k], clReleaseKernel);
  g_clear_pointer (&engine->program, clReleaseProgram);
  g_clear_pointer (&engine->queue, clReleaseCommandQueue);
  g_clear_pointer (&engine->context, clReleaseContext);
  clh_device_info_clear (&engine->device);
  g_free (engine);
}

/**
 * clh_engine_get_device_name:
 * @engine: an engine
 *
 * Returns: (transfer none): the device's %CL_DEVICE_NAME
 */
const gchar *
clh_engine_get_device_name (const ClhEngine *engine)
{
  return engine->device.name;
}

/**
 * clh_engine_get_platform_name:
 * @engine: an engine
 *
 * Returns: (transfer none): the device's %CL_PLATFORM_NAME
 */
const gchar *
clh_engine_get_platform_name (const ClhEngine *engine)
{
  return engine->device.platform_name;
}

/**
 * clh_engine_set_staging_limit:
 * @engine: an engine
 * @bytes: most bytes of a frame to hold on the device at once; at least one
 *   row is always held
 *
 * Frames larger than this are uploaded and counted in bands of rows. The
 * default is 64 MiB, or the device's largest allocation if smaller.
 */
void
clh_engine_set_staging_limit (ClhEngine *engine, gsize bytes)
{
  engine->staging_limit = MIN (MAX (bytes, 1),
      MIN (engine->max_alloc, G_MAXINT32));
}

static gboolean
ensure_staging (ClhEngine *engine, gsize size, GError **error)
{
  cl_int ret;

  if (engine->staging && engine->staging_size >= size)
    return TRUE;

  g_clear_pointer (&engine->staging, clReleaseMemObject);
  engine->staging_size = 0;
  engine->staging = clCreateBuffer (engine->context, CL_MEM_READ_ONLY,
      size, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (frame)", error))
    return FALSE;
  engine->staging_size = size;
  return TRUE;
}

/* One band of frame rows and where each plane's rows of it sit in the
 * staging buffer. */
typedef struct {
  guint y0;
  guint rows;
  guint row0[CLH_MAX_PLANES];
  guint n_rows[CLH_MAX_PLANES];
  gsize base[CLH_MAX_PLANES];
  gsize size;
} Band;

/* Planes the request reads, as a bit mask. */
static guint
planes_used (const ClhFrame *frame, const ClhHistogramSpec *spec)
{
  guint used = 0, i;

  for (i = 0; i < spec->n_components; i++)
    used |= 1u << frame->components[spec->components[i]].plane;
  return used;
}

static void
band_layout (const ClhFrame *frame, guint used, guint y0, guint rows,
    Band *band)
{
  guint p;

  band->y0 = y0;
  band->rows = rows;
  band->size = 0;
  for (p = 0; p < frame->n_planes; p++) {
    const guint s = clh_frame_plane_h_sub (frame, p);
    const guint end = MIN (clh_frame_plane_rows (frame, p),
        (y0 + rows + (1u << s) - 1) >> s);

    band->row0[p] = y0 >> s;
    band->n_rows[p] = (used & (1u << p)) ? end - band->row0[p] : 0;
    band->base[p] = band->size;
    band->size += (frame->planes[p].stride * band->n_rows[p] + PLANE_ALIGN - 1)
        / PLANE_ALIGN * PLANE_ALIGN;
  }
}

/* Frame rows per band: as many as fit the staging limit, a multiple of
 * BAND_ROW_MULTIPLE unless the whole frame fits. */
static guint
band_rows_for (const ClhEngine *engine, const ClhFrame *frame, guint used)
{
  Band whole, four;
  guint rows;

  band_layout (frame, used, 0, frame->height, &whole);
  if (whole.size <= engine->staging_limit)
    return frame->height;
  band_layout (frame, used, 0, BAND_ROW_MULTIPLE, &four);
  rows = (guint) (engine->staging_limit / four.size) * BAND_ROW_MULTIPLE;
  return CLAMP (rows, BAND_ROW_MULTIPLE, frame->height);
}

/* Copies each used plane's rows of @band, as stored, into the staging
 * buffer; the last row stops at the last byte a component reads. */
static gboolean
upload_band (ClhEngine *engine, const ClhFrame *frame, const Band *band,
    GError **error)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    const ClhPlane *plane = &frame->planes[p];
    gsize bytes;

    if (band->n_rows[p] == 0)
      continue;
    bytes = plane->stride * (band->n_rows[p] - 1)
        + clh_frame_plane_row_bytes (frame, p);
    if (!clh_cl_check (clEnqueueWriteBuffer (engine->queue, engine->staging,
                CL_FALSE, band->base[p], bytes,
                plane->data + plane->stride * band->row0[p], 0, NULL,
                phase_event (engine, PHASE_UPLOAD)),
            "clEnqueueWriteBuffer", error))
      return FALSE;
  }
  return TRUE;
}

/* Kernel arguments, set in order; the first failure sticks. */
typedef struct {
  cl_kernel kernel;
  cl_uint index;
  cl_int ret;
} Args;

static void
arg (Args *a, size_t size, const void *value)
{
  if (a->ret == CL_SUCCESS)
    a->ret = clSetKernelArg (a->kernel, a->index, size, value);
  a->index++;
}

static void
arg_uint (Args *a, guint value)
{
  cl_uint v = value;
  arg (a, sizeof (v), &v);
}

static void
arg_uint4 (Args *a, const guint values[4])
{
  cl_uint4 v = { { values[0], values[1], values[2], values[3] } };
  arg (a, sizeof (v), &v);
}

/* Local memory a work-group may use: half the device's, so that two groups
 * can share a compute unit. */
static gsize
local_budget (const ClhEngine *engine)
{
  return engine->local_mem_size / 2;
}

/* Replicated sub-histograms of @n_counters that fit the budget, 1..8. */
static guint
n_copies_for (const ClhEngine *engine, guint n_counters, size_t wg)
{
  const gsize copy_bytes = sizeof (cl_uint) * (n_counters + 1);
  gsize fit = local_budget (engine) / copy_bytes;

  return (guint) CLAMP (MIN (fit, (gsize) wg), 1, MAX_COPIES);
}

/* Bins one pass of a single-channel kernel can count in local memory. */
static guint
window_for (const ClhEngine *engine, guint n_bins)
{
  const gsize counters = local_budget (engine) / sizeof (cl_uint);
  return (guint) MIN ((gsize) n_bins, counters - 3);
}

/* Sets the trailing arguments (n_copies, local memory, this frame's
 * histogram, and the other buffer to clear on the first launch), then
 * launches over @units samples. */
static gboolean
launch (ClhEngine *engine, KernelId id, Args *a, guint n_counters,
    gsize units, GError **error)
{
  const size_t wg = engine->work_group_size[id];
  const guint n_copies = n_copies_for (engine, n_counters, wg);
  size_t groups, global;

  arg_uint (a, n_copies);
  arg (a, sizeof (cl_uint) * n_copies * (n_counters + 1), NULL);
  arg (a, sizeof (cl_mem), &engine->hist[engine->current]);
  arg (a, sizeof (cl_mem), &engine->hist[1 - engine->current]);
  arg_uint (a, engine->zero_next);
  if (!clh_cl_check (a->ret, "clSetKernelArg", error))
    return FALSE;
  engine->zero_next = 0;

  groups = (units + wg * ITEMS_PER_WORK_ITEM - 1) / (wg * ITEMS_PER_WORK_ITEM);
  groups = CLAMP (groups, 1,
      (size_t) engine->compute_units * GROUPS_PER_COMPUTE_UNIT);
  global = groups * wg;
  return clh_cl_check (clEnqueueNDRangeKernel (engine->queue,
          engine->kernels[id], 1, NULL, &global, &wg, 0, NULL,
          phase_event (engine, PHASE_KERNEL)),
      "clEnqueueNDRangeKernel", error);
}

static guint
range_size (const ClhHistogramSpec *spec)
{
  return spec->range_max - spec->range_min + 1;
}

/* The arguments both component kernels start with: the staging buffer and
 * where component @c's rows of @band lie in it. Returns the samples. */
static gsize
arg_component_rows (Args *a, ClhEngine *engine, const ClhFrame *frame,
    const Band *band, guint c)
{
  const ClhComponent *comp = &frame->components[c];
  const guint width = clh_component_width (frame, c);
  const guint rows = band->n_rows[comp->plane];

  arg (a, sizeof (cl_mem), &engine->staging);
  arg_uint (a, band->base[comp->plane]);
  arg_uint (a, frame->planes[comp->plane].stride);
  arg_uint (a, width);
  arg_uint (a, rows);
  arg_uint (a, comp->pixel_stride);
  return (gsize) width * rows;
}

/* Channels [first, first + n) of the request, 8-bit components sharing a
 * plane, pixel stride and subsampling: one pass over the plane. */
static gboolean
count_packed8 (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const Band *band, guint first, guint n,
    GError **error)
{
  guint offsets[4] = { 0 }, i;
  Args a = { engine->kernels[KERNEL_PACKED8], 0, CL_SUCCESS };
  gsize samples;

  for (i = 0; i < n; i++)
    offsets[i] = frame->components[spec->components[first + i]].offset;

  samples = arg_component_rows (&a, engine, frame, band,
      spec->components[first]);
  arg_uint (&a, n);
  arg_uint4 (&a, offsets);
  arg_uint (&a, spec->range_min);
  arg_uint (&a, range_size (spec));
  arg_uint (&a, spec->bins);
  arg_uint (&a, first * (spec->bins + 2));
  return launch (engine, KERNEL_PACKED8, &a, n * (spec->bins + 2), samples,
      error);
}

/* Channel @channel of the request, one component of any storage, counted
 * in windows of bins that fit local memory. */
static gboolean
count_component (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const Band *band, guint channel,
    GError **error)
{
  const guint c = spec->components[channel];
  const ClhComponent *comp = &frame->components[c];
  const guint window = window_for (engine, spec->bins);
  guint lo;

  for (lo = 0; lo < spec->bins; lo += window) {
    const guint n = MIN (window, spec->bins - lo);
    Args a = { engine->kernels[KERNEL_COMPONENT], 0, CL_SUCCESS };
    const gsize samples = arg_component_rows (&a, engine, frame, band, c);

    arg_uint (&a, comp->offset);
    arg_uint (&a, frame->sample);
    arg_uint (&a, comp->shift);
    arg_uint (&a, (1u << frame->depth) - 1);
    arg_uint (&a, spec->range_min);
    arg_uint (&a, range_size (spec));
    arg_uint (&a, spec->bins);
    arg_uint (&a, lo);
    arg_uint (&a, n);
    arg_uint (&a, spec->bins + 2);
    arg_uint (&a, channel * (spec->bins + 2));
    if (!launch (engine, KERNEL_COMPONENT, &a, n + 2, samples, error))
      return FALSE;
  }
  return TRUE;
}

/* Number of request channels from @first that one packed8 pass can count:
 * 8-bit samples in the same plane with the same stride and subsampling. */
static guint
packed8_run (const ClhFrame *frame, const ClhHistogramSpec *spec,
    guint first)
{
  const ClhComponent *a = &frame->components[spec->components[first]];
  guint n = 1;

  if (frame->sample != CLH_SAMPLE_8 || a->shift != 0)
    return 0;
  while (first + n < spec->n_components) {
    const ClhComponent *b = &frame->components[spec->components[first + n]];
    if (b->plane != a->plane || b->pixel_stride != a->pixel_stride
        || b->w_sub != a->w_sub || b->h_sub != a->h_sub || b->shift != 0)
      break;
    n++;
  }
  return n;
}

static gboolean
count_components_band (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const Band *band, GError **error)
{
  guint c = 0;

  while (c < spec->n_components) {
    const guint n = packed8_run (frame, spec, c);

    if (n > 0) {
      if (!count_packed8 (engine, frame, spec, band, c, n, error))
        return FALSE;
      c += n;
    } else {
      if (!count_component (engine, frame, spec, band, c, error))
        return FALSE;
      c++;
    }
  }
  return TRUE;
}

static gboolean
count_colour_band (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const Band *band, GError **error)
{
  const guint n_bins = clh_histogram_spec_n_bins (spec);
  const guint window = window_for (engine, n_bins);
  guint bases[4] = { 0 }, row0s[4] = { 0 }, pitches[4] = { 0 };
  guint offsets[4] = { 0 }, pstrides[4] = { 0 }, subs[4] = { 0 };
  guint i, lo;

  for (i = 0; i < spec->n_components; i++) {
    const ClhComponent *comp = &frame->components[spec->components[i]];

    bases[i] = band->base[comp->plane];
    row0s[i] = band->row0[comp->plane];
    pitches[i] = frame->planes[comp->plane].stride;
    offsets[i] = comp->offset;
    pstrides[i] = comp->pixel_stride;
    subs[i] = comp->w_sub | (comp->h_sub << 4);
  }

  for (lo = 0; lo < n_bins; lo += window) {
    const guint n = MIN (window, n_bins - lo);
    Args a = { engine->kernels[KERNEL_COLOUR], 0, CL_SUCCESS };

    arg (&a, sizeof (cl_mem), &engine->staging);
    arg_uint (&a, band->y0);
    arg_uint (&a, frame->width);
    arg_uint (&a, band->rows);
    arg_uint4 (&a, bases);
    arg_uint4 (&a, row0s);
    arg_uint4 (&a, pitches);
    arg_uint4 (&a, offsets);
    arg_uint4 (&a, pstrides);
    arg_uint4 (&a, subs);
    arg_uint (&a, spec->count == CLH_COUNT_MAX && spec->n_components > 3);
    arg_uint (&a, spec->color);
    arg_uint (&a, spec->count);
    arg_uint (&a, spec->bins);
    arg_uint (&a, spec->range_min);
    arg_uint (&a, range_size (spec));
    arg_uint (&a, spec->min_saturation);
    arg_uint (&a, spec->min_value);
    arg_uint (&a, lo);
    arg_uint (&a, n);
    arg_uint (&a, n_bins + 2);
    if (!launch (engine, KERNEL_COLOUR, &a, n + 2,
            (gsize) frame->width * band->rows, error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
count_bands (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, GError **error)
{
  const guint used = planes_used (frame, spec);
  const guint band_rows = band_rows_for (engine, frame, used);
  const cl_uint zero = 0;
  Band band;
  guint y;

  band_layout (frame, used, 0, band_rows, &band);
  if (!ensure_staging (engine, band.size, error))
    return FALSE;
  /* Only at start-up or after a failure does this buffer need a clear. */
  if (engine->dirty[engine->current] > 0) {
    if (!clh_cl_check (clEnqueueFillBuffer (engine->queue,
                engine->hist[engine->current], &zero, sizeof (zero), 0,
                sizeof (cl_uint) * engine->dirty[engine->current], 0, NULL,
                phase_event (engine, PHASE_KERNEL)), "clEnqueueFillBuffer",
            error))
      return FALSE;
    engine->dirty[engine->current] = 0;
  }
  engine->zero_next = engine->dirty[1 - engine->current];

  for (y = 0; y < frame->height; y += band_rows) {
    band_layout (frame, used, y, MIN (band_rows, frame->height - y), &band);
    if (!upload_band (engine, frame, &band, error))
      return FALSE;
    if (spec->count == CLH_COUNT_COMPONENTS ?
        !count_components_band (engine, frame, spec, &band, error) :
        !count_colour_band (engine, frame, spec, &band, error))
      return FALSE;
  }
  return TRUE;
}

/* Reads the device's counters and splits each channel's bins, below and
 * above into @histogram. */
static gboolean
read_back (ClhEngine *engine, const ClhHistogramSpec *spec,
    ClhHistogram *histogram, GError **error)
{
  const guint n_channels = clh_histogram_spec_n_channels (spec);
  const guint n_bins = clh_histogram_spec_n_bins (spec);
  const gsize stride = n_bins + 2;
  guint32 *all = g_new (guint32, n_channels * stride);
  guint c;

  if (!clh_cl_check (clEnqueueReadBuffer (engine->queue,
              engine->hist[engine->current], CL_TRUE, 0, sizeof (guint32) * n_channels * stride, all, 0, NULL,
              phase_event (engine, PHASE_READBACK)), "clEnqueueReadBuffer",
          error)) {
    g_free (all);
    return FALSE;
  }
  for (c = 0; c < n_channels; c++) {
    memcpy (histogram->counts + c * n_bins, all + c * stride,
        sizeof (guint32) * n_bins);
    histogram->below[c] = all[c * stride + n_bins];
    histogram->above[c] = all[c * stride + n_bins + 1];
  }
  for (; c < CLH_MAX_CHANNELS; c++)
    histogram->below[c] = histogram->above[c] = 0;
  g_free (all);
  return TRUE;
}

/**
 * clh_engine_histogram:
 * @engine: an engine
 * @frame: the frame, read and not modified; it must stay unchanged until
 *   the call returns
 * @spec: what to count
 * @histogram: (out caller-allocates): the result; its counts must hold
 *   `clh_histogram_spec_n_channels () * clh_histogram_spec_n_bins ()`
 *   guint32, and are written channel-major
 * @error: %CLH_ENGINE_ERROR_INVALID for a frame outside
 *   clh_frame_is_valid() or a request clh_histogram_spec_is_valid()
 *   refuses (its message says why), %CLH_ENGINE_ERROR_OPENCL when an
 *   OpenCL call fails
 *
 * Counts @frame on the device: uploads it in bands of rows, counts each band
 * into privatized sub-histograms, merges them on the device and reads the
 * bins back. Blocks until @histogram holds the result.
 *
 * Returns: %TRUE on success; on failure @histogram is undefined and
 *   nothing is left queued.
 */
gboolean
clh_engine_histogram (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *histogram, GError **error)
{
  GError *why = NULL;

  if (!clh_frame_is_valid (frame)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "Unsupported frame: %ux%u, %u planes, %u components",
        frame->width, frame->height, frame->n_planes, frame->n_components);
    return FALSE;
  }
  if (!clh_histogram_spec_is_valid (spec, frame, &why)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "Unsupported histogram: %s", why->message);
    g_error_free (why);
    return FALSE;
  }

  clh_histogram_set_samples (histogram, spec, frame);
  engine->have_timings = FALSE;
  if (count_bands (engine, frame, spec, error)
      && read_back (engine, spec, histogram, error)) {
    /* This buffer now holds the frame; the first launch cleared the other,
     * which the next frame uses. */
    engine->dirty[engine->current] = (gsize) clh_histogram_spec_n_channels
        (spec) * (clh_histogram_spec_n_bins (spec) + 2);
    engine->dirty[1 - engine->current] = 0;
    engine->current = 1 - engine->current;
    if (engine->profiling)
      collect_timings (engine);
    return TRUE;
  }

  /* Uploads may still read the caller's memory: let them end first. Which
   * counters are clear is unknown now: the next frames clear them. */
  clFinish (engine->queue);
  release_events (engine);
  engine->dirty[0] = engine->dirty[1] = HIST_COUNTERS;
  return FALSE;
}

/**
 * clh_engine_set_profiling:
 * @engine: an engine
 * @profiling: whether to time each histogram's commands
 * @error: %CLH_ENGINE_ERROR_OPENCL if the queue cannot be recreated
 *
 * Recreates the command queue with or without %CL_QUEUE_PROFILING_ENABLE.
 * With profiling on, clh_engine_get_timings() says where the last
 * histogram's device time went; it costs an event per command.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_engine_set_profiling (ClhEngine *engine, gboolean profiling,
    GError **error)
{
  cl_command_queue queue;
  cl_int ret;

  queue = clCreateCommandQueue (engine->context, engine->device.device,
      profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &ret);
  if (!clh_cl_check (ret, "clCreateCommandQueue", error))
    return FALSE;
  clFinish (engine->queue);
  clReleaseCommandQueue (engine->queue);
  engine->queue = queue;
  engine->profiling = profiling;
  engine->have_timings = FALSE;
  if (profiling && !engine->events)
    engine->events = g_array_new (FALSE, TRUE, sizeof (PhaseEvent));
  return TRUE;
}

/**
 * clh_engine_get_timings:
 * @engine: an engine with profiling on
 * @timings: (out): the last successful histogram's device times
 *
 * Returns: %FALSE if profiling is off or no histogram has been timed
 */
gboolean
clh_engine_get_timings (const ClhEngine *engine, ClhTimings *timings)
{
  if (!engine->have_timings)
    return FALSE;
  *timings = engine->timings;
  return TRUE;
}
