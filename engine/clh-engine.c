/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-engine.h"

#include "clh-device.h"

/* kernels/histogram.cl, embedded at build time. */
extern const char clh_histogram_cl_source[];

/* Launch configuration. A work-group of up to 256 work-items shares its
 * replicated sub-histograms; enough groups to fill the device, but no more
 * than give each work-item ITEMS_PER_WORK_ITEM loads, so that the per-group
 * merge (one global atomic per non-zero bin) stays small beside the
 * counting. */
#define WORK_GROUP_SIZE_MAX 256
#define MAX_COPIES 8
#define ITEMS_PER_WORK_ITEM 8
#define GROUPS_PER_COMPUTE_UNIT 4

/* Frames are uploaded in row bands of at most this many bytes, so a
 * 16384 x 16384 RGBA frame never needs a 1 GiB device buffer. */
#define STAGING_LIMIT_DEFAULT (64u << 20)

typedef enum {
  KERNEL_GRAY8,
  KERNEL_PACKED32,
  KERNEL_PACKED32_LUMA,
  N_KERNELS
} KernelId;

static const gchar *const kernel_names[N_KERNELS] = {
  "histogram_gray8", "histogram_packed32", "histogram_packed32_luma",
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

  /* CLH_MAX_CHANNELS * 256 counters: the frame's histogram on the device. */
  cl_mem hist;
  /* One band of the frame, packed (row pitch = row bytes). */
  cl_mem staging;
  gsize staging_size;
  gsize staging_limit;
};

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

  engine->hist = clCreateBuffer (engine->context, CL_MEM_READ_WRITE,
      sizeof (cl_uint) * CLH_MAX_CHANNELS * 256, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (histogram)", error))
    return NULL;

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
  g_clear_pointer (&engine->staging, clReleaseMemObject);
  g_clear_pointer (&engine->hist, clReleaseMemObject);
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
  engine->staging_limit = MIN (MAX (bytes, 1), engine->max_alloc);
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

/* Copies @rows rows starting at row @y into the packed staging buffer; the
 * copy engine drops the row padding, so no byte past the image is read. */
static gboolean
upload_band (ClhEngine *engine, const ClhImage *image, guint y, guint rows,
    GError **error)
{
  const gsize row_bytes = (gsize) image->width * image->pixel_stride;
  const guint8 *first = image->data + image->stride * y;

  if (image->stride == row_bytes || rows == 1)
    return clh_cl_check (clEnqueueWriteBuffer (engine->queue, engine->staging,
            CL_FALSE, 0, row_bytes * rows, first, 0, NULL, NULL),
        "clEnqueueWriteBuffer", error);

  {
    const size_t origin[3] = { 0, 0, 0 };
    const size_t region[3] = { row_bytes, rows, 1 };

    return clh_cl_check (clEnqueueWriteBufferRect (engine->queue,
            engine->staging, CL_FALSE, origin, origin, region, row_bytes, 0,
            image->stride, 0, first, 0, NULL, NULL),
        "clEnqueueWriteBufferRect", error);
  }
}

static guint
byte_shift (const ClhEngine *engine, guint offset)
{
  return 8 * (engine->little_endian ? offset : 3 - offset);
}

static KernelId
choose_kernel (const ClhImage *image, const ClhHistogramSpec *spec)
{
  if (image->pixel_stride == 1)
    return KERNEL_GRAY8;
  return spec->count == CLH_COUNT_LUMA_RGB ? KERNEL_PACKED32_LUMA :
      KERNEL_PACKED32;
}

/* Replicated sub-histograms per work-group: as many as fit in half the
 * local memory (so two groups can share a compute unit), up to MAX_COPIES. */
static guint
n_copies_for (const ClhEngine *engine, guint n_counters, size_t wg)
{
  const cl_ulong copy_bytes = sizeof (cl_uint) * (n_counters + 1);
  cl_ulong fit = engine->local_mem_size / 2 / copy_bytes;

  return (guint) CLAMP (MIN (fit, (cl_ulong) wg), 1, MAX_COPIES);
}

static gboolean
launch (ClhEngine *engine, KernelId id, const ClhHistogramSpec *spec,
    cl_uint n_pixels, GError **error)
{
  cl_kernel k = engine->kernels[id];
  const size_t wg = engine->work_group_size[id];
  const cl_uint bins = spec->bins;
  const cl_uint n_channels = id == KERNEL_PACKED32 ? spec->n_channels : 1;
  const cl_uint n_counters = n_channels * bins;
  const cl_uint n_copies = n_copies_for (engine, n_counters, wg);
  const size_t local_bytes = sizeof (cl_uint) * n_copies * (n_counters + 1);
  const size_t units = id == KERNEL_GRAY8 ? (n_pixels + 3) / 4 : n_pixels;
  size_t groups, global;
  cl_uint4 shifts = { { 0 } };
  cl_uint a = 0, c;
  cl_int ret = CL_SUCCESS;

  groups = (units + wg * ITEMS_PER_WORK_ITEM - 1) / (wg * ITEMS_PER_WORK_ITEM);
  groups = CLAMP (groups, 1,
      (size_t) engine->compute_units * GROUPS_PER_COMPUTE_UNIT);
  global = groups * wg;

  for (c = 0; c < (id == KERNEL_PACKED32_LUMA ? 3 : n_channels); c++)
    shifts.s[c] = byte_shift (engine, spec->offsets[c]);

  ret |= clSetKernelArg (k, a++, sizeof (cl_mem), &engine->staging);
  ret |= clSetKernelArg (k, a++, sizeof (cl_uint), &n_pixels);
  ret |= clSetKernelArg (k, a++, sizeof (cl_uint), &bins);
  if (id == KERNEL_PACKED32)
    ret |= clSetKernelArg (k, a++, sizeof (cl_uint), &n_channels);
  if (id != KERNEL_GRAY8)
    ret |= clSetKernelArg (k, a++, sizeof (cl_uint4), &shifts);
  ret |= clSetKernelArg (k, a++, sizeof (cl_uint), &n_copies);
  ret |= clSetKernelArg (k, a++, local_bytes, NULL);
  ret |= clSetKernelArg (k, a++, sizeof (cl_mem), &engine->hist);
  if (!clh_cl_check (ret == CL_SUCCESS ? CL_SUCCESS : CL_INVALID_KERNEL_ARGS,
          "clSetKernelArg", error))
    return FALSE;

  return clh_cl_check (clEnqueueNDRangeKernel (engine->queue, k, 1, NULL,
          &global, &wg, 0, NULL, NULL), "clEnqueueNDRangeKernel", error);
}

static gboolean
check_request (const ClhImage *image, const ClhHistogramSpec *spec,
    GError **error)
{
  if (!clh_image_is_valid (image)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "Unsupported image: %ux%u pixels, %u bytes per pixel, stride %"
        G_GSIZE_FORMAT, image->width, image->height, image->pixel_stride,
        image->stride);
    return FALSE;
  }
  if (!clh_histogram_spec_is_valid (spec, image->pixel_stride)
      || (image->pixel_stride == 1 && spec->count != CLH_COUNT_SAMPLES)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "Unsupported histogram: %u channel(s) of %u bins over %u-byte pixels",
        spec->n_channels, spec->bins, image->pixel_stride);
    return FALSE;
  }
  return TRUE;
}

static gboolean
count_bands (ClhEngine *engine, const ClhImage *image,
    const ClhHistogramSpec *spec, GError **error)
{
  const KernelId id = choose_kernel (image, spec);
  const gsize row_bytes = (gsize) image->width * image->pixel_stride;
  const guint band_rows = CLAMP (engine->staging_limit / row_bytes, 1,
      image->height);
  const cl_uint zero = 0;
  guint y;

  if (!ensure_staging (engine, row_bytes * band_rows, error)
      || !clh_cl_check (clEnqueueFillBuffer (engine->queue, engine->hist,
              &zero, sizeof (zero), 0,
              sizeof (cl_uint) * spec->n_channels * spec->bins, 0, NULL,
              NULL), "clEnqueueFillBuffer", error))
    return FALSE;

  for (y = 0; y < image->height; y += band_rows) {
    const guint rows = MIN (band_rows, image->height - y);

    if (!upload_band (engine, image, y, rows, error)
        || !launch (engine, id, spec, rows * image->width, error))
      return FALSE;
  }
  return TRUE;
}

/**
 * clh_engine_histogram:
 * @engine: an engine
 * @image: the image, read and not modified; it must stay unchanged until
 *   the call returns
 * @spec: what to count
 * @counts: (out caller-allocates) (array): `spec->n_channels * spec->bins`
 *   guint32 counts, channel-major
 * @error: %CLH_ENGINE_ERROR_INVALID for a request outside clh_image_is_valid()
 *   and clh_histogram_spec_is_valid(), %CLH_ENGINE_ERROR_OPENCL when an
 *   OpenCL call fails
 *
 * Counts @image on the device: uploads it in row bands, counts each band
 * into privatized sub-histograms, merges them on the device and reads the
 * bins back. Blocks until @counts holds the result.
 *
 * Returns: %TRUE on success; on failure @counts is undefined and nothing is
 *   left queued.
 */
gboolean
clh_engine_histogram (ClhEngine *engine, const ClhImage *image,
    const ClhHistogramSpec *spec, guint32 *counts, GError **error)
{
  if (!check_request (image, spec, error))
    return FALSE;

  if (count_bands (engine, image, spec, error)
      && clh_cl_check (clEnqueueReadBuffer (engine->queue, engine->hist,
              CL_TRUE, 0, sizeof (guint32) * spec->n_channels * spec->bins,
              counts, 0, NULL, NULL), "clEnqueueReadBuffer", error))
    return TRUE;

  /* Uploads may still read the caller's memory: let them end first. */
  clFinish (engine->queue);
  return FALSE;
}
