/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-context-state.h"
#include "clh-submitter.h"
#include "clh-program-cache.h"

#include <string.h>

/* kernels/program.cl (the histogram and tracking kernels), embedded at
 * build time. */
extern const char clh_program_cl_source[];

#define BUILD_OPTIONS "-cl-std=CL1.2"

static gboolean
query_context_device (ClhContext *ctx, GError **error)
{
  cl_device_id dev = ctx->device.device;
  cl_bool unified = CL_FALSE, little = CL_TRUE;
  cl_uint align_bits = 0;
  cl_ulong max_alloc = 0;

  if (!clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_HOST_UNIFIED_MEMORY,
              sizeof (unified), &unified, NULL),
          "clGetDeviceInfo (CL_DEVICE_HOST_UNIFIED_MEMORY)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
              sizeof (max_alloc), &max_alloc, NULL),
          "clGetDeviceInfo (CL_DEVICE_MAX_MEM_ALLOC_SIZE)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
              sizeof (align_bits), &align_bits, NULL),
          "clGetDeviceInfo (CL_DEVICE_MEM_BASE_ADDR_ALIGN)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_ENDIAN_LITTLE,
              sizeof (little), &little, NULL),
          "clGetDeviceInfo (CL_DEVICE_ENDIAN_LITTLE)", error))
    return FALSE;
  ctx->max_block = MIN (max_alloc, G_MAXSIZE);
  ctx->little_endian = little == CL_TRUE;
  ctx->in_place = unified == CL_TRUE && ctx->device.type == CL_DEVICE_TYPE_CPU;
  /* At least a cache line, and a power of two for GstAllocationParams. */
  ctx->alignment = 64;
  while (ctx->alignment < align_bits / 8)
    ctx->alignment *= 2;
  return TRUE;
}

/**
 * clh_context_new_full:
 * @device_spec: (nullable): which device, as clh_device_select() reads it
 * @cache_dir: (nullable): where compiled programs are cached: %NULL for
 *   clh_program_cache_default_dir(), "" for no cache
 * @error: %CLH_ENGINE_ERROR_NO_DEVICE, %CLH_ENGINE_ERROR_DEVICE_NOT_FOUND,
 *   %CLH_ENGINE_ERROR_BUILD (with the build log) or
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * Selects a device, creates its OpenCL context and the kernels' program,
 * from the cache when it holds a valid binary for this device, driver and
 * kernel source.
 *
 * Returns: (transfer full) (nullable): the context, or %NULL on error
 */
ClhContext *
clh_context_new_full (const gchar *device_spec, const gchar *cache_dir,
    GError **error)
{
  g_autoptr (ClhContext) ctx = g_new0 (ClhContext, 1);
  cl_int ret;

  g_atomic_ref_count_init (&ctx->ref);
  g_mutex_init (&ctx->lock);
  if (!clh_device_select (device_spec, &ctx->device, error)
      || !query_context_device (ctx, error))
    return NULL;

  ctx->context = clCreateContext (NULL, 1, &ctx->device.device, NULL, NULL,
      &ret);
  if (!clh_cl_check (ret, "clCreateContext", error))
    return NULL;
  ctx->service = clCreateCommandQueue (ctx->context, ctx->device.device, 0,
      &ret);
  if (!clh_cl_check (ret, "clCreateCommandQueue", error))
    return NULL;
  ctx->program = clh_program_cache_build (ctx->context, &ctx->device,
      clh_program_cl_source, BUILD_OPTIONS, cache_dir, &ctx->origin, error);
  if (!ctx->program)
    return NULL;
  return g_steal_pointer (&ctx);
}

/**
 * clh_context_new:
 * @device_spec: (nullable): which device, as clh_device_select() reads it
 * @error: as for clh_context_new_full()
 *
 * clh_context_new_full() with the default program cache.
 *
 * Returns: (transfer full) (nullable): the context, or %NULL on error
 */
ClhContext *
clh_context_new (const gchar *device_spec, GError **error)
{
  return clh_context_new_full (device_spec, NULL, error);
}

/**
 * clh_context_ref:
 * @context: a context
 *
 * Returns: (transfer full): @context
 */
ClhContext *
clh_context_ref (ClhContext *context)
{
  g_atomic_ref_count_inc (&context->ref);
  return context;
}

/**
 * clh_context_unref:
 * @context: (transfer full) (nullable): a context
 *
 * Releases the device context when its last engine and host block are
 * gone.
 */
void
clh_context_unref (ClhContext *context)
{
  if (!context || !g_atomic_ref_count_dec (&context->ref))
    return;
  if (context->service)
    clFinish (context->service);
  g_clear_pointer (&context->submitter, clh_submitter_free);
  g_clear_pointer (&context->shared[0], clReleaseCommandQueue);
  g_clear_pointer (&context->shared[1], clReleaseCommandQueue);
  g_clear_pointer (&context->program, clReleaseProgram);
  g_clear_pointer (&context->service, clReleaseCommandQueue);
  g_clear_pointer (&context->context, clReleaseContext);
  clh_device_info_clear (&context->device);
  g_mutex_clear (&context->lock);
  g_free (context);
}

/**
 * clh_context_matches:
 * @context: a context
 * @device_spec: (nullable): a device, as clh_device_select() reads it
 *
 * Returns: whether @device_spec selects @context's device; for `"auto"`,
 *   whether it is one of the devices auto chooses among
 *   (clh_device_list_auto())
 */
gboolean
clh_context_matches (const ClhContext *context, const gchar *device_spec)
{
  ClhDeviceInfo info = { NULL };
  gboolean same = FALSE;

  if (clh_device_spec_is_auto (device_spec)) {
    GPtrArray *devices = clh_device_list_auto (NULL);
    guint i;

    for (i = 0; devices && i < devices->len && !same; i++)
      same = ((ClhDeviceInfo *) g_ptr_array_index (devices, i))->device
          == context->device.device;
    g_clear_pointer (&devices, g_ptr_array_unref);
    return same;
  }
  if (!clh_device_select (device_spec, &info, NULL))
    return FALSE;
  same = info.device == context->device.device;
  clh_device_info_clear (&info);
  return same;
}

/**
 * clh_context_get_device:
 * @context: a context
 *
 * Returns: (transfer none): the device
 */
const ClhDeviceInfo *
clh_context_get_device (const ClhContext *context)
{
  return &context->device;
}

/**
 * clh_context_get_device_name:
 * @context: a context
 *
 * Returns: (transfer none): the device's %CL_DEVICE_NAME
 */
const gchar *
clh_context_get_device_name (const ClhContext *context)
{
  return context->device.name;
}

/**
 * clh_context_get_device_spec:
 * @context: a context
 *
 * Returns: (transfer full): the `"P:D"` spec that selects @context's device
 *   (platform P, device D, as `clinfo -l` numbers them): what tells two
 *   devices of the same name apart, two identical GPUs of one host
 */
gchar *
clh_context_get_device_spec (const ClhContext *context)
{
  return clh_device_spec_of (&context->device);
}

/**
 * clh_context_get_platform_name:
 * @context: a context
 *
 * Returns: (transfer none): the device's %CL_PLATFORM_NAME
 */
const gchar *
clh_context_get_platform_name (const ClhContext *context)
{
  return context->device.platform_name;
}

/**
 * clh_context_reads_host_in_place:
 * @context: a context
 *
 * The one answer to "does the device read host memory where it lies":
 * yes on a CPU device with unified host memory
 * (%CL_DEVICE_HOST_UNIFIED_MEMORY), where a copy would only cost; no on
 * others, which copy host memory to their own, by DMA from pinned blocks.
 *
 * Returns: whether kernels read clh_context_alloc_host() blocks, and
 *   frames in ordinary host memory, where they lie
 */
gboolean
clh_context_reads_host_in_place (const ClhContext *context)
{
  return context->in_place;
}

/**
 * clh_context_is_little_endian:
 * @context: a context
 *
 * Returns: whether the device is little-endian (%CL_DEVICE_ENDIAN_LITTLE)
 */
gboolean
clh_context_is_little_endian (const ClhContext *context)
{
  return context->little_endian;
}

/**
 * clh_context_get_driver_version:
 * @context: a context
 *
 * Returns: (transfer full): the device's %CL_DRIVER_VERSION
 */
gchar *
clh_context_get_driver_version (const ClhContext *context)
{
  return clh_device_string (context->device.device, CL_DRIVER_VERSION);
}

/* cl_khr_device_uuid's query (the Khronos extension's specification;
 * defined here so that older OpenCL headers do too). */
#define CLH_DEVICE_UUID_KHR 0x106A

/**
 * clh_context_get_device_uuid:
 * @context: a context
 * @uuid: (out caller-allocates) (array fixed-size=16): where the UUID goes
 *
 * The device's UUID (%CL_DEVICE_UUID_KHR of the cl_khr_device_uuid
 * extension): 16 bytes that name one physical device across APIs, as
 * CUDA's cuDeviceGetUuid() and Vulkan's VkPhysicalDeviceIDProperties give
 * them, so that an OpenCL device and a CUDA device can be found to be the
 * same GPU. Devices without the extension (PoCL's CPU device, older
 * drivers) have none.
 *
 * Returns: %TRUE with @uuid filled; %FALSE, @uuid zeroed, if the device
 *   lacks cl_khr_device_uuid or the query fails
 */
gboolean
clh_context_get_device_uuid (const ClhContext *context,
    guint8 uuid[CLH_DEVICE_UUID_SIZE])
{
  cl_device_id device = context->device.device;

  memset (uuid, 0, CLH_DEVICE_UUID_SIZE);
  if (!clh_device_has_extension (device, "cl_khr_device_uuid"))
    return FALSE;
  if (clGetDeviceInfo (device, CLH_DEVICE_UUID_KHR, CLH_DEVICE_UUID_SIZE,
          uuid, NULL) != CL_SUCCESS) {
    memset (uuid, 0, CLH_DEVICE_UUID_SIZE);
    return FALSE;
  }
  return TRUE;
}

/**
 * clh_context_get_program_origin:
 * @context: a context
 *
 * Returns: whether the program was compiled or loaded from the cache
 */
ClhProgramOrigin
clh_context_get_program_origin (const ClhContext *context)
{
  return context->origin;
}

/**
 * clh_context_get_alignment:
 * @context: a context
 *
 * Returns: the alignment, in bytes (a power of two, at least 64), of the
 *   device's buffers (%CL_DEVICE_MEM_BASE_ADDR_ALIGN): host memory for
 *   frames should start at a multiple of it
 */
gsize
clh_context_get_alignment (const ClhContext *context)
{
  return context->alignment;
}

/**
 * clh_context_get_max_host_block:
 * @context: a context
 *
 * Returns: the largest block clh_context_alloc_host() can give, in bytes:
 *   the device's %CL_DEVICE_MAX_MEM_ALLOC_SIZE, since a block is one
 *   OpenCL buffer
 */
gsize
clh_context_get_max_host_block (const ClhContext *context)
{
  return context->max_block;
}

/**
 * clh_context_get_cl_context:
 * @context: a context
 *
 * Returns: (transfer none): the OpenCL context
 */
cl_context
clh_context_get_cl_context (const ClhContext *context)
{
  return context->context;
}

/**
 * clh_context_get_program:
 * @context: a context
 *
 * Returns: (transfer none): the built program of kernels/program.cl
 */
cl_program
clh_context_get_program (const ClhContext *context)
{
  return context->program;
}

/**
 * clh_context_pin:
 * @context: a context
 * @access: the buffer's %CL_MEM_READ_ONLY or %CL_MEM_READ_WRITE
 * @size: bytes
 * @mem: (out): the buffer, %NULL if it could not be made
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Pinned host memory (%CL_MEM_ALLOC_HOST_PTR) that the driver copies to and
 * from by DMA, mapped for the host on the context's own queue, so that
 * mapping waits for no frame's commands. Holds no reference on @context:
 * unpin it (clh_context_unpin()) before the context goes.
 *
 * Returns: (nullable): its first byte, %NULL on error (then @mem, if set,
 *   is still to be unpinned)
 */
guint8 *
clh_context_pin (ClhContext *context, cl_mem_flags access, gsize size,
    cl_mem *mem, GError **error)
{
  guint8 *data;
  cl_int ret;

  *mem = clCreateBuffer (context->context, access | CL_MEM_ALLOC_HOST_PTR,
      size, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR)", error))
    return NULL;
  g_mutex_lock (&context->lock);
  data = clEnqueueMapBuffer (context->service, *mem, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &ret);
  g_mutex_unlock (&context->lock);
  return clh_cl_check (ret, "clEnqueueMapBuffer", error) ? data : NULL;
}

/**
 * clh_context_unpin:
 * @context: a context
 * @mem: (transfer full) (nullable): from clh_context_pin(), no longer used
 *   by any command
 * @data: (nullable): its mapping, if it was mapped
 */
void
clh_context_unpin (ClhContext *context, cl_mem mem, guint8 *data)
{
  if (mem && data) {
    g_mutex_lock (&context->lock);
    clEnqueueUnmapMemObject (context->service, mem, data, 0, NULL, NULL);
    clFinish (context->service);
    g_mutex_unlock (&context->lock);
  }
  if (mem)
    clReleaseMemObject (mem);
}

/**
 * clh_context_add_user:
 * @context: a context
 *
 * Counts an engine or tracker on the context (clh_context_get_n_users());
 * each one's constructor calls it, and its destructor
 * clh_context_remove_user().
 */
void
clh_context_add_user (ClhContext *context)
{
  g_atomic_int_inc (&context->n_users);
}

/**
 * clh_context_remove_user:
 * @context: a context
 */
void
clh_context_remove_user (ClhContext *context)
{
  g_atomic_int_dec_and_test (&context->n_users);
}

/**
 * clh_context_get_n_users:
 * @context: a context
 *
 * Returns: the engines and trackers on @context now: its load, by which
 *   the elements' `device=auto` spreads over devices
 */
guint
clh_context_get_n_users (const ClhContext *context)
{
  return (guint) g_atomic_int_get (&context->n_users);
}

/**
 * clh_context_least_loaded_auto:
 * @device_spec: (nullable): a device spec
 * @contexts: (array length=n_contexts): the contexts in use
 * @n_contexts: how many
 *
 * Where an engine for @device_spec `"auto"` (or %NULL) should go when auto
 * has several devices to choose from (clh_device_list_auto(): several
 * GPUs): on the
 * device whose contexts among @contexts have the fewest users
 * (clh_context_get_n_users()), none for a device without one; the first
 * such device on a tie.
 *
 * Returns: (transfer full) (nullable): that device's `"P:D"` spec, or
 *   %NULL for another @device_spec, or when auto has one device or none
 */
gchar *
clh_context_least_loaded_auto (const gchar *device_spec,
    ClhContext *const *contexts, guint n_contexts)
{
  GPtrArray *devices = clh_device_spec_is_auto (device_spec) ?
      clh_device_list_auto (NULL) : NULL;
  const ClhDeviceInfo *best = NULL;
  guint best_load = G_MAXUINT, i, j;
  gchar *spec = NULL;

  for (i = 0; devices && devices->len > 1 && i < devices->len; i++) {
    const ClhDeviceInfo *info = g_ptr_array_index (devices, i);
    guint load = 0;

    for (j = 0; j < n_contexts; j++)
      if (contexts[j]->device.device == info->device)
        load += clh_context_get_n_users (contexts[j]);
    if (load < best_load) {
      best = info;
      best_load = load;
    }
  }
  if (best)
    spec = clh_device_spec_of (best);
  g_clear_pointer (&devices, g_ptr_array_unref);
  return spec;
}

/**
 * clh_context_get_submitter:
 * @context: a context
 *
 * Returns: (transfer none): the device's submission thread, started on
 *   first use
 */
ClhSubmitter *
clh_context_get_submitter (ClhContext *context)
{
  ClhSubmitter *s;

  g_mutex_lock (&context->lock);
  if (!context->submitter)
    context->submitter = clh_submitter_new ();
  s = context->submitter;
  g_mutex_unlock (&context->lock);
  return s;
}

/**
 * clh_context_get_shared_queue:
 * @context: a context
 * @which: 0: the counting queue, 1: the upload queue
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Returns: (transfer full) (nullable): one of the two queues the engines
 *   that submit through the submission thread share, made on first use
 */
cl_command_queue
clh_context_get_shared_queue (ClhContext *context, guint which,
    GError **error)
{
  cl_command_queue q;
  cl_int ret = CL_SUCCESS;

  g_return_val_if_fail (which < 2, NULL);
  g_mutex_lock (&context->lock);
  if (!context->shared[which])
    context->shared[which] = clCreateCommandQueue (context->context,
        context->device.device, 0, &ret);
  q = context->shared[which];
  if (q)
    clRetainCommandQueue (q);
  g_mutex_unlock (&context->lock);
  if (!clh_cl_check (ret, "clCreateCommandQueue", error))
    return NULL;
  return q;
}

/* How long a submitter keeps going through the submission thread after it
 * last saw another submit, us. */
#define SHARED_US 10000

/* Notes a submission by @submitter at @now_us (monotonic); whether another
 * submitter submitted within the last 2 ms: the device is shared, as with
 * many streams, and not only by @submitter. */
static gboolean
note_submission (ClhContext *context, gconstpointer submitter, gint64 now_us)
{
  const guint32 now = (guint32) (now_us / 1000);
  const gpointer last = g_atomic_pointer_exchange (&context->last_submitter,
      (gpointer) submitter);
  const guint32 then = (guint32) g_atomic_int_exchange
      (&context->last_submit_ms, (gint) now);

  return last != NULL && last != submitter && now - then <= 2;
}

/**
 * clh_context_use_thread:
 * @context: a context
 * @submitter: who submits now (an engine, a tracker)
 * @submission: what @submitter was asked to do
 * @shared_until: (inout): @submitter's own: until when, monotonic us, it
 *   goes through the thread
 *
 * Notes the submission and says whether it goes through the device's
 * submission thread: always with %CLH_SUBMISSION_THREAD; with
 * %CLH_SUBMISSION_AUTO while another submitter submitted in the last 2 ms,
 * and for 10 ms after (then the thread is the only one in the driver; a
 * stream alone keeps its own thread, which is faster for it and quicker to
 * answer: docs/performance.md, "One stream: where its time goes").
 *
 * Returns: whether to post to the submission thread
 */
gboolean
clh_context_use_thread (ClhContext *context, gconstpointer submitter,
    ClhSubmission submission, gint64 *shared_until)
{
  const gint64 now = g_get_monotonic_time ();

  if (note_submission (context, submitter, now))
    *shared_until = now + SHARED_US;
  return submission == CLH_SUBMISSION_THREAD
      || (submission == CLH_SUBMISSION_AUTO && now < *shared_until);
}
