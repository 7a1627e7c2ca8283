/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-engine.h"

#include "clh-device.h"
#include "clh-launch.h"

#include <string.h>

/* The variant the engine uses unless asked otherwise: the fastest measured
 * (docs/performance.md). */
#define DEFAULT_VARIANT CLH_VARIANT_LOCAL_ATOMICS
/* Local memory the packed8 kernel's table of bins takes (256 ushort). */
#define BIN_TABLE_BYTES 512
/* Unmapped memory between two mappings spans at least one page: planes
 * whose gaps are shorter lie in one readable span. */
#define PAGE_SIZE 4096

/* Frames are uploaded in bands of rows of at most this many bytes, so a
 * 16384 x 16384 RGBA frame never needs a 1 GiB device buffer; a band's
 * height is a multiple of BAND_ROW_MULTIPLE, so that the rows of vertically
 * subsampled planes (up to 4:1) never straddle two bands. */
#define STAGING_LIMIT_DEFAULT (64u << 20)
#define BAND_ROW_MULTIPLE 4
/* Planes start at multiples of this in the staging buffer. */
#define PLANE_ALIGN 256


typedef enum {
  KERNEL_PACKED8,
  KERNEL_COMPONENT,
  KERNEL_COLOUR,
  N_KERNELS
} KernelId;

static const gchar *const kernel_names[N_KERNELS] = {
  "histogram_packed8", "histogram_component", "histogram_colour",
};

/* Local memory kernel @id takes besides its copies: each channel's below
 * and above counters, and the 8-bit kernel's table of bins. */
static gsize
extra_local_bytes (KernelId id, guint n_channels)
{
  return 2 * n_channels * sizeof (cl_uint)
      + (id == KERNEL_PACKED8 ? BIN_TABLE_BYTES : 0);
}

/* Host memory the device can read where it lies: a buffer of
 * CL_MEM_ALLOC_HOST_PTR, mapped at ptr while the host owns it. */
typedef struct {
  cl_mem mem;
  guint8 *ptr;
  gsize size;
} HostBlock;

/* The last model result of a kernel and what it was computed for. */
typedef struct {
  gboolean valid;
  guint n_channels;
  guint window;
  ClhLaunch requested;
  ClhLaunch result;
} ModelMemo;

/* One frame in flight: its counters on the device and in pinned host
 * memory, its band of rows on the device, and what the host needs to
 * finish it. The engine keeps max_in_flight + 1 slots in a ring, so the
 * slot after the newest frame's is always free: that frame's first launch
 * clears the free slot's counters, and the next frame needs no clear
 * command. */
typedef struct {
  /* hist_counters counters; dirty: how many of the first may be
   * non-zero. */
  cl_mem hist;
  gsize hist_counters;
  gsize dirty;
  HostBlock bins;
  cl_mem staging;
  gsize staging_size;

  /* The pending frame: its readback's event, what was lent or wrapped for
   * it, its shape and samples, and with profiling its commands' events. */
  cl_event done;
  HostBlock *lent;
  cl_mem wrapped;
  guint n_channels;
  guint n_bins;
  guint64 samples[CLH_MAX_CHANNELS];
  GArray *events;
} Slot;

struct _ClhEngine {
  ClhContext *ctx;
  const ClhDeviceInfo *device;
  /* Counting and readback; and, with frames in flight on a device that
   * copies, uploads, so that frame N + 1's upload overlaps frame N's
   * counting (NULL: uploads go to queue). */
  cl_command_queue queue;
  cl_command_queue upload_queue;
  cl_kernel kernels[N_KERNELS];
  ClhDeviceLimits limits[N_KERNELS];
  ModelMemo memo[N_KERNELS];

  cl_ulong max_alloc;
  gboolean little_endian;
  /* The device reads host memory where it lies (CPU devices). */
  gboolean host_unified;

  /* What the caller fixed of the launch configuration, and what the last
   * counting launch used. */
  ClhLaunch requested;
  ClhLaunch last_launch;
  ClhTransfer transfer;

  /* clh_engine_alloc_host() blocks, HostBlock; and one for staging frames
   * from ordinary memory (CLH_TRANSFER_STAGE), with the last command that
   * reads or maps it. */
  GArray *host_blocks;
  HostBlock stage;
  cl_event stage_busy;

  /* The ring: pending frames are slots head .. head + n_pending - 1. */
  Slot *slots;
  guint n_slots;
  guint head;
  guint n_pending;
  /* While a frame is being enqueued: its slot, the counters its first
   * launch clears in the next slot, and the upload its next launch waits
   * for (two queues only). */
  Slot *slot;
  gsize zero_next;
  cl_event upload_done;

  gsize staging_limit;

  /* With profiling on, the last collected frame's timings. */
  gboolean profiling;
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

/* Where a command's event goes: @keep if the engine waits for it, and the
 * frame's list if profiling; NULL if neither wants it. Hand the event to
 * note_event() after the call. */
static cl_event *
want_event (ClhEngine *engine, cl_event *tmp, cl_event *keep)
{
  *tmp = NULL;
  return engine->profiling || keep ? tmp : NULL;
}

static void
note_event (ClhEngine *engine, Phase phase, cl_event event, cl_event *keep)
{
  if (!event)
    return;
  if (keep) {
    if (*keep)
      clReleaseEvent (*keep);
    *keep = event;
  }
  if (engine->profiling) {
    PhaseEvent pe = { event, phase };

    if (keep)
      clRetainEvent (event);
    g_array_append_val (engine->slot->events, pe);
  } else if (!keep) {
    clReleaseEvent (event);
  }
}

static void
release_events (Slot *slot)
{
  guint i;

  for (i = 0; slot->events && i < slot->events->len; i++)
    clReleaseEvent (g_array_index (slot->events, PhaseEvent, i).event);
  if (slot->events)
    g_array_set_size (slot->events, 0);
  g_clear_pointer (&slot->done, clReleaseEvent);
}

/* Sums a finished frame's events into the engine's timings. */
static void
collect_timings (ClhEngine *engine, Slot *slot)
{
  guint64 first = G_MAXUINT64, last = 0;
  guint i;

  memset (&engine->timings, 0, sizeof (engine->timings));
  engine->have_timings = slot->events != NULL;
  for (i = 0; slot->events && i < slot->events->len; i++) {
    PhaseEvent *pe = &g_array_index (slot->events, PhaseEvent, i);
    cl_ulong start = 0, end = 0;
    guint64 *sum = pe->phase == PHASE_UPLOAD ? &engine->timings.upload_ns :
        pe->phase == PHASE_KERNEL ? &engine->timings.kernel_ns :
        &engine->timings.readback_ns;

    if (clGetEventProfilingInfo (pe->event, CL_PROFILING_COMMAND_START,
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
}

static gboolean
query_device (ClhEngine *engine, GError **error)
{
  cl_device_id dev = engine->device->device;
  cl_bool little = CL_TRUE, unified = CL_FALSE;

  if (!clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
              sizeof (cl_ulong), &engine->max_alloc, NULL),
          "clGetDeviceInfo (CL_DEVICE_MAX_MEM_ALLOC_SIZE)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_ENDIAN_LITTLE,
              sizeof (cl_bool), &little, NULL),
          "clGetDeviceInfo (CL_DEVICE_ENDIAN_LITTLE)", error)
      || !clh_cl_check (clGetDeviceInfo (dev, CL_DEVICE_HOST_UNIFIED_MEMORY,
              sizeof (cl_bool), &unified, NULL),
          "clGetDeviceInfo (CL_DEVICE_HOST_UNIFIED_MEMORY)", error))
    return FALSE;

  engine->little_endian = little == CL_TRUE;
  engine->host_unified = unified == CL_TRUE
      && engine->device->type == CL_DEVICE_TYPE_CPU;
  engine->staging_limit = MIN (STAGING_LIMIT_DEFAULT, engine->max_alloc);
  return TRUE;
}

static gboolean
create_kernels (ClhEngine *engine, GError **error)
{
  cl_program program = clh_context_get_program (engine->ctx);
  guint k;
  cl_int ret;

  for (k = 0; k < N_KERNELS; k++) {
    engine->kernels[k] = clCreateKernel (program, kernel_names[k], &ret);
    if (!clh_cl_check (ret, "clCreateKernel", error)
        || !clh_device_limits_query (engine->device->device,
            engine->kernels[k], &engine->limits[k], error))
      return FALSE;
  }
  return TRUE;
}

/* The counting queue, and the upload queue if there is one, with or
 * without profiling. */
static gboolean
create_queues (ClhEngine *engine, gboolean profiling, gboolean two,
    GError **error)
{
  const cl_command_queue_properties props = profiling ?
      CL_QUEUE_PROFILING_ENABLE : 0;
  cl_context context = clh_context_get_cl_context (engine->ctx);
  cl_command_queue queue, upload = NULL;
  cl_int ret;

  queue = clCreateCommandQueue (context, engine->device->device, props,
      &ret);
  if (!clh_cl_check (ret, "clCreateCommandQueue", error))
    return FALSE;
  if (two) {
    upload = clCreateCommandQueue (context, engine->device->device, props,
        &ret);
    if (!clh_cl_check (ret, "clCreateCommandQueue", error)) {
      clReleaseCommandQueue (queue);
      return FALSE;
    }
  }
  if (engine->queue)
    clFinish (engine->queue);
  if (engine->upload_queue)
    clFinish (engine->upload_queue);
  g_clear_pointer (&engine->queue, clReleaseCommandQueue);
  g_clear_pointer (&engine->upload_queue, clReleaseCommandQueue);
  engine->queue = queue;
  engine->upload_queue = upload;
  engine->profiling = profiling;
  return TRUE;
}

static gboolean host_block_init (ClhEngine *engine, HostBlock *block,
    gsize size, GError **error);
static void host_block_clear (ClhEngine *engine, HostBlock *block);
static void slots_clear (ClhEngine *engine);

/**
 * clh_engine_new_for_context:
 * @context: the device context, shared with other engines
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Creates an engine on @context's device: its own command queue, kernels
 * and buffers, over the context's compiled program. One frame in flight
 * until clh_engine_set_max_in_flight(). An engine serves one thread at a
 * time; engines of one context may run in different threads.
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhEngine *
clh_engine_new_for_context (ClhContext *context, GError **error)
{
  g_autoptr (ClhEngine) engine = g_new0 (ClhEngine, 1);

  engine->ctx = clh_context_ref (context);
  engine->device = clh_context_get_device (context);
  engine->requested.padding = -1;
  engine->host_blocks = g_array_new (FALSE, TRUE, sizeof (HostBlock));
  if (!query_device (engine, error)
      || !create_queues (engine, FALSE, FALSE, error)
      || !create_kernels (engine, error)
      || !clh_engine_set_max_in_flight (engine, 1, error))
    return NULL;
  return g_steal_pointer (&engine);
}

/**
 * clh_engine_new:
 * @device_spec: (nullable): which device, as clh_device_select() reads it
 * @error: %CLH_ENGINE_ERROR_NO_DEVICE, %CLH_ENGINE_ERROR_DEVICE_NOT_FOUND,
 *   %CLH_ENGINE_ERROR_BUILD (with the build log) or
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * Creates an engine on a context of its own (clh_context_new()).
 *
 * Returns: (transfer full) (nullable): the engine, or %NULL on error
 */
ClhEngine *
clh_engine_new (const gchar *device_spec, GError **error)
{
  g_autoptr (ClhContext) context = clh_context_new (device_spec, error);

  return context ? clh_engine_new_for_context (context, error) : NULL;
}

/**
 * clh_engine_free:
 * @engine: (transfer full) (nullable): an engine
 *
 * Drops any pending frames (clh_engine_discard()), and releases every
 * OpenCL object the engine holds and its reference on its context.
 */
void
clh_engine_free (ClhEngine *engine)
{
  guint k;

  if (!engine)
    return;
  if (engine->queue)
    clh_engine_discard (engine);
  slots_clear (engine);
  for (k = 0; engine->host_blocks && k < engine->host_blocks->len; k++)
    host_block_clear (engine, &g_array_index (engine->host_blocks, HostBlock,
            k));
  g_clear_pointer (&engine->host_blocks, g_array_unref);
  host_block_clear (engine, &engine->stage);
  g_clear_pointer (&engine->stage_busy, clReleaseEvent);
  for (k = 0; k < N_KERNELS; k++)
    g_clear_pointer (&engine->kernels[k], clReleaseKernel);
  g_clear_pointer (&engine->upload_queue, clReleaseCommandQueue);
  g_clear_pointer (&engine->queue, clReleaseCommandQueue);
  g_clear_pointer (&engine->ctx, clh_context_unref);
  g_free (engine);
}

/**
 * clh_engine_get_context:
 * @engine: an engine
 *
 * Returns: (transfer none): the device context the engine runs on
 */
ClhContext *
clh_engine_get_context (const ClhEngine *engine)
{
  return engine->ctx;
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
  return engine->device->name;
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
  return engine->device->platform_name;
}

/**
 * clh_engine_alloc_host:
 * @engine: an engine
 * @size: bytes
 * @error: %CLH_ENGINE_ERROR_OPENCL if the driver cannot allocate it
 *
 * Allocates host memory the device reads where it lies: pinned memory of a
 * %CL_MEM_ALLOC_HOST_PTR buffer, mapped for the host. A frame whose planes
 * lie in one such block is not copied before counting (unless the
 * transfer is %CLH_TRANSFER_COPY): the block is unmapped for the kernels
 * and mapped again, at the same address, before clh_engine_histogram()
 * returns. Frames in it must not be written during that call.
 *
 * Returns: (transfer full) (nullable): the memory, freed with
 *   clh_engine_free_host(), or %NULL on error
 */
gpointer
clh_engine_alloc_host (ClhEngine *engine, gsize size, GError **error)
{
  HostBlock block = { NULL };

  if (!host_block_init (engine, &block, MAX (size, 1), error))
    return NULL;
  g_array_append_val (engine->host_blocks, block);
  return block.ptr;
}

/**
 * clh_engine_free_host:
 * @engine: the engine that allocated @memory
 * @memory: (transfer full) (nullable): from clh_engine_alloc_host()
 */
void
clh_engine_free_host (ClhEngine *engine, gpointer memory)
{
  guint i;

  for (i = 0; memory && i < engine->host_blocks->len; i++) {
    HostBlock *block = &g_array_index (engine->host_blocks, HostBlock, i);

    if (block->ptr == memory) {
      host_block_clear (engine, block);
      g_array_remove_index_fast (engine->host_blocks, i);
      return;
    }
  }
  g_return_if_reached ();
}

/**
 * clh_engine_set_transfer:
 * @engine: an engine
 * @transfer: how frames reach the device; %CLH_TRANSFER_AUTO by default
 */
void
clh_engine_set_transfer (ClhEngine *engine, ClhTransfer transfer)
{
  engine->transfer = transfer;
}

/**
 * clh_engine_set_launch:
 * @engine: an engine
 * @launch: (nullable): the variant and what to fix of its configuration
 *   (zeros and a padding of -1 are left to the model); %NULL: the default
 *
 * For benchmarks and tests: the counting kernels' strategy and launch
 * configuration. Where a fixed configuration exceeds the device's limits
 * the launch fails with %CLH_ENGINE_ERROR_OPENCL.
 */
void
clh_engine_set_launch (ClhEngine *engine, const ClhLaunch *launch)
{
  static const ClhLaunch automatic = { CLH_VARIANT_AUTO, 0, 0, 0, -1 };

  engine->requested = launch ? *launch : automatic;
}

/**
 * clh_engine_get_last_launch:
 * @engine: an engine
 * @launch: (out): the configuration of the last counting launch
 *
 * Returns: %FALSE if nothing was launched yet
 */
gboolean
clh_engine_get_last_launch (const ClhEngine *engine, ClhLaunch *launch)
{
  *launch = engine->last_launch;
  return engine->last_launch.work_group_size != 0;
}

/**
 * clh_engine_get_device_limits:
 * @engine: an engine
 *
 * Returns: (transfer none): what the launch model knows of the device, for
 *   the 8-bit kernel
 */
const ClhDeviceLimits *
clh_engine_get_device_limits (const ClhEngine *engine)
{
  return &engine->limits[KERNEL_PACKED8];
}

/**
 * clh_engine_model_launch:
 * @engine: an engine
 * @n_channels: channels counted in one pass, 1..4
 * @bins: bins per channel, 1..256
 * @launch: (inout): as for clh_launch_model(); %CLH_VARIANT_AUTO is the
 *   engine's default variant
 *
 * The paper's model for the 8-bit kernel on this device, with the local
 * memory that kernel takes besides its copies: what the engine starts
 * from before it picks its own L.
 */
void
clh_engine_model_launch (const ClhEngine *engine, guint n_channels,
    guint bins, ClhLaunch *launch)
{
  clh_launch_model (&engine->limits[KERNEL_PACKED8],
      launch->variant == CLH_VARIANT_AUTO ? DEFAULT_VARIANT : launch->variant,
      n_channels * bins, extra_local_bytes (KERNEL_PACKED8, n_channels),
      launch);
}

/**
 * clh_engine_get_driver_version:
 * @engine: an engine
 *
 * Returns: (transfer full): the device's %CL_DRIVER_VERSION
 */
gchar *
clh_engine_get_driver_version (const ClhEngine *engine)
{
  return clh_context_get_driver_version (engine->ctx);
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

/* The slot's device buffer for a band of @size bytes. */
static gboolean
ensure_staging (ClhEngine *engine, Slot *slot, gsize size, GError **error)
{
  cl_int ret;

  if (slot->staging && slot->staging_size >= size)
    return TRUE;

  g_clear_pointer (&slot->staging, clReleaseMemObject);
  slot->staging_size = 0;
  slot->staging = clCreateBuffer (clh_context_get_cl_context (engine->ctx),
      CL_MEM_READ_ONLY, size, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (frame)", error))
    return FALSE;
  slot->staging_size = size;
  return TRUE;
}

/* One band of frame rows and where each plane's rows of it sit in the
 * staging buffer. */
typedef struct {
  cl_mem mem;
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
  band->mem = NULL;
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

/* Copies each used plane's rows of @band, as stored, into the slot's
 * staging buffer; the last row stops at the last byte a component reads.
 * With an upload queue, the copies wait for @after (the previous band's
 * counting, NULL: nothing) and the band's first launch waits for them. */
static gboolean
upload_band (ClhEngine *engine, const ClhFrame *frame, const Band *band,
    cl_event after, GError **error)
{
  cl_command_queue queue = engine->upload_queue ? engine->upload_queue :
      engine->queue;
  cl_event *keep = engine->upload_queue ? &engine->upload_done : NULL;
  guint p;

  for (p = 0; p < frame->n_planes; p++) {
    const ClhPlane *plane = &frame->planes[p];
    cl_event ev;
    cl_int ret;
    gsize bytes;

    if (band->n_rows[p] == 0)
      continue;
    bytes = plane->stride * (band->n_rows[p] - 1)
        + clh_frame_plane_row_bytes (frame, p);
    ret = clEnqueueWriteBuffer (queue, band->mem, CL_FALSE, band->base[p],
        bytes, plane->data + plane->stride * band->row0[p], after ? 1 : 0,
        after ? &after : NULL, want_event (engine, &ev, keep));
    note_event (engine, PHASE_UPLOAD, ev, keep);
    if (!clh_cl_check (ret, "clEnqueueWriteBuffer", error))
      return FALSE;
    after = NULL;
  }
  if (engine->upload_queue)
    clFlush (engine->upload_queue);
  return TRUE;
}

static Slot *
next_slot (ClhEngine *engine)
{
  return &engine->slots[(engine->slot - engine->slots + 1) % engine->n_slots];
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

/* Bins one pass of a single-channel kernel can count: one copy of them,
 * padded, and the below and above counters fill at most a group's local
 * memory. */
static guint
window_for (const ClhEngine *engine, KernelId id, guint n_bins)
{
  const gsize counters = engine->limits[id].local_mem_per_group
      / sizeof (cl_uint);
  return (guint) MIN ((gsize) n_bins, counters - 16);
}

/* Work units (loads) per work-item the engine aims at when it picks L. */
#define UNITS_PER_WORK_ITEM 2

/* The model's configuration for kernel @id with copies of @window bins of
 * @n_channels, given what the caller fixed; remembered, since a stream asks
 * the same every frame. */
static void
model_launch (ClhEngine *engine, KernelId id, guint n_channels,
    guint window, ClhLaunch *launch)
{
  ModelMemo *memo = &engine->memo[id];

  if (!memo->valid || memo->n_channels != n_channels
      || memo->window != window
      || memcmp (&memo->requested, &engine->requested,
          sizeof (ClhLaunch)) != 0) {
    memo->requested = memo->result = engine->requested;
    clh_launch_model (&engine->limits[id], engine->requested.variant ==
        CLH_VARIANT_AUTO ? DEFAULT_VARIANT : engine->requested.variant,
        n_channels * window, extra_local_bytes (id, n_channels),
        &memo->result);
    memo->n_channels = n_channels;
    memo->window = window;
    memo->valid = TRUE;
  }
  *launch = memo->result;
}

/* The configuration of kernel @id over @units (samples, or words): the
 * model's K for what the caller did not fix, but fewer groups than the
 * model's L = B x compute units: every group merges its copies into the
 * global bins with one atomic per non-zero counter, and on the H100 the
 * model's L made that merge cost more than the counting. The K x L sweep
 * (docs/performance.md) was fastest with about UNITS_PER_WORK_ITEM loads per
 * work-item, at least one group per compute unit and at most half the
 * model's L; and never more groups than give each work-item a load. */
static void
plan_launch (ClhEngine *engine, KernelId id, guint n_channels, guint window,
    gsize units, ClhLaunch *launch)
{
  model_launch (engine, id, n_channels, window, launch);
  if (engine->requested.n_groups == 0) {
    const gsize k = launch->work_group_size;
    const gsize lo = MIN (engine->limits[id].compute_units, launch->n_groups);
    const gsize hi = MAX (launch->n_groups / 2, lo);
    const gsize wanted = (units + k * UNITS_PER_WORK_ITEM - 1)
        / (k * UNITS_PER_WORK_ITEM);

    launch->n_groups = (guint) MAX (1, MIN (CLAMP (wanted, lo, hi),
            (units + k - 1) / k));
  }
}

/* Sets the trailing arguments (the copies' layout and local memory, this
 * frame's histogram, and the other buffer to clear on the first launch),
 * then launches over @units work units. A copy holds @window bins of each
 * of @n_channels; their below and above counters follow the copies. */
static gboolean
launch (ClhEngine *engine, KernelId id, Args *a, guint n_channels,
    guint window, gsize units, GError **error)
{
  const guint n_counters = n_channels * window;
  const gsize outside = 2 * n_channels * sizeof (cl_uint);
  ClhLaunch l;
  guint stride;
  size_t local, global;
  cl_event ev;
  cl_int ret;

  plan_launch (engine, id, n_channels, window, units, &l);
  stride = clh_launch_copy_stride (n_counters, l.padding);
  arg_uint (a, l.n_copies);
  arg_uint (a, stride);
  arg (a, clh_launch_local_bytes (l.n_copies, stride) + outside, NULL);
  arg (a, sizeof (cl_mem), &engine->slot->hist);
  arg (a, sizeof (cl_mem), engine->zero_next ? &next_slot (engine)->hist :
      &engine->slot->hist);
  arg_uint (a, engine->zero_next);
  if (!clh_cl_check (a->ret, "clSetKernelArg", error))
    return FALSE;
  engine->last_launch = l;

  local = l.work_group_size;
  global = (size_t) l.n_groups * local;
  ret = clEnqueueNDRangeKernel (engine->queue, engine->kernels[id], 1, NULL,
      &global, &local, engine->upload_done ? 1 : 0,
      engine->upload_done ? &engine->upload_done : NULL,
      want_event (engine, &ev, NULL));
  note_event (engine, PHASE_KERNEL, ev, NULL);
  if (!clh_cl_check (ret, "clEnqueueNDRangeKernel", error))
    return FALSE;
  /* Cleared, and what followed the upload waits in order behind this. */
  engine->zero_next = 0;
  g_clear_pointer (&engine->upload_done, clReleaseEvent);
  return TRUE;
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

  arg (a, sizeof (cl_mem), &band->mem);
  arg_uint (a, band->base[comp->plane]);
  arg_uint (a, frame->planes[comp->plane].stride);
  arg_uint (a, width);
  arg_uint (a, rows);
  arg_uint (a, comp->pixel_stride);
  return (gsize) width * rows;
}

/* Which channel of a packed8 run each byte of a little-endian 32-bit word
 * of its plane's rows holds (byte j in bits 8j.., 0xff: none), or ~0 when
 * the rows cannot be read a word at a time: the words must be aligned, the
 * rows whole words, and a pixel a divisor of a word. */
static guint
packed8_byte_channels (const ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const Band *band, guint first, guint n)
{
  const guint c0 = spec->components[first];
  const ClhComponent *comp = &frame->components[c0];
  const gsize row = (gsize) clh_component_width (frame, c0)
      * comp->pixel_stride;
  guint map = 0xffffffffu, i, j;

  if (!engine->little_endian || band->base[comp->plane] % 4 != 0
      || frame->planes[comp->plane].stride % 4 != 0 || row % 4 != 0
      || row > clh_frame_plane_row_bytes (frame, comp->plane)
      || (comp->pixel_stride != 1 && comp->pixel_stride != 2
          && comp->pixel_stride != 4))
    return ~0u;
  for (i = 0; i < n; i++) {
    const guint offset = frame->components[spec->components[first + i]].offset;

    if (offset >= comp->pixel_stride)
      return ~0u;
    for (j = offset; j < 4; j += comp->pixel_stride) {
      if (((map >> (8 * j)) & 0xff) != 0xff)
        return ~0u;
      map &= ~(0xffu << (8 * j));
      map |= i << (8 * j);
    }
  }
  return map;
}

/* The shift that maps an 8-bit value to its bin (bins a power of two over
 * the full range), or 8: look the bin up in a table. */
static guint
packed8_bin_shift (const ClhHistogramSpec *spec)
{
  guint shift = 0;

  if (spec->range_min != 0 || range_size (spec) != 256)
    return 8;
  while ((256u >> shift) > spec->bins)
    shift++;
  return (256u >> shift) == spec->bins ? shift : 8;
}

/* Channels [first, first + n) of the request, 8-bit components sharing a
 * plane, pixel stride and subsampling: one pass over the plane. */
static gboolean
count_packed8 (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const Band *band, guint first, guint n,
    GError **error)
{
  const guint map = packed8_byte_channels (engine, frame, spec, band, first,
      n);
  const ClhComponent *comp = &frame->components[spec->components[first]];
  guint offsets[4] = { 0 }, i;
  Args a = { engine->kernels[KERNEL_PACKED8], 0, CL_SUCCESS };
  gsize units;

  for (i = 0; i < n; i++)
    offsets[i] = frame->components[spec->components[first + i]].offset;

  units = arg_component_rows (&a, engine, frame, band,
      spec->components[first]);
  if (map != ~0u) {
    /* Words; four per load where rows are contiguous. */
    units = units * comp->pixel_stride / 4;
    if (frame->planes[comp->plane].stride
        == clh_component_width (frame, spec->components[first])
        * comp->pixel_stride)
      units = (units + 3) / 4;
  }
  arg_uint (&a, n);
  arg_uint4 (&a, offsets);
  arg_uint (&a, map);
  arg_uint (&a, spec->range_min);
  arg_uint (&a, range_size (spec));
  arg_uint (&a, spec->bins);
  arg_uint (&a, packed8_bin_shift (spec));
  arg_uint (&a, first * (spec->bins + 2));
  arg (&a, BIN_TABLE_BYTES, NULL);
  return launch (engine, KERNEL_PACKED8, &a, n, spec->bins, units, error);
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
  const guint window = window_for (engine, KERNEL_COMPONENT, spec->bins);
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
    if (!launch (engine, KERNEL_COMPONENT, &a, 1, n, samples, error))
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
  const guint window = window_for (engine, KERNEL_COLOUR, n_bins);
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

    arg (&a, sizeof (cl_mem), &band->mem);
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
    if (!launch (engine, KERNEL_COLOUR, &a, 1, n,
            (gsize) frame->width * band->rows, error))
      return FALSE;
  }
  return TRUE;
}

/* Bytes from the first byte of plane @p's first row to the last of its
 * last row. */
static gsize
plane_extent (const ClhFrame *frame, guint p)
{
  return frame->planes[p].stride * (clh_frame_plane_rows (frame, p) - 1)
      + clh_frame_plane_row_bytes (frame, p);
}

/* Whether every used plane of @frame lies in [@ptr, @ptr + @size). */
static gboolean
planes_inside (const ClhFrame *frame, guint used, const guint8 *ptr,
    gsize size)
{
  guint p;

  for (p = 0; p < frame->n_planes; p++)
    if ((used & (1u << p)) && (frame->planes[p].data < ptr
            || frame->planes[p].data + plane_extent (frame, p) > ptr + size))
      return FALSE;
  return TRUE;
}

/* The engine host block holding every used plane, or NULL. */
static HostBlock *
find_host_block (ClhEngine *engine, const ClhFrame *frame, guint used)
{
  guint i;

  for (i = 0; engine->host_blocks && i < engine->host_blocks->len; i++) {
    HostBlock *block = &g_array_index (engine->host_blocks, HostBlock, i);

    if (planes_inside (frame, used, block->ptr, block->size))
      return block;
  }
  return NULL;
}

/* The whole frame as one band read where it lies, in @mem whose first byte
 * is at @origin in host memory; FALSE if a plane lies beyond the kernels'
 * 32-bit offsets. */
static gboolean
in_place_band (const ClhFrame *frame, guint used, cl_mem mem,
    const guint8 *origin, Band *band)
{
  guint p;

  band_layout (frame, used, 0, frame->height, band);
  band->mem = mem;
  for (p = 0; p < frame->n_planes; p++) {
    const gsize offset = (used & (1u << p)) ?
        (gsize) (frame->planes[p].data - origin) : 0;

    if (offset + plane_extent (frame, p) > G_MAXUINT32)
      return FALSE;
    band->base[p] = offset;
  }
  return TRUE;
}

/* On a CPU device, a buffer over the host memory the used planes lie in,
 * read there (CL_MEM_USE_HOST_PTR); NULL if planes lie a page or more
 * apart, since such a gap may not be mapped. */
static cl_mem
wrap_host_planes (ClhEngine *engine, const ClhFrame *frame, guint used,
    const guint8 **origin)
{
  const guint8 *start[CLH_MAX_PLANES] = { NULL }, *end[CLH_MAX_PLANES] = {
    NULL }, *reach;
  guint n = 0, i, j;
  cl_mem mem;
  cl_int ret;

  /* The used planes' extents, by address. */
  for (i = 0; i < frame->n_planes; i++) {
    if (!(used & (1u << i)))
      continue;
    for (j = n++; j > 0 && start[j - 1] > frame->planes[i].data; j--) {
      start[j] = start[j - 1];
      end[j] = end[j - 1];
    }
    start[j] = frame->planes[i].data;
    end[j] = start[j] + plane_extent (frame, i);
  }
  reach = end[0];
  for (i = 1; i < n; i++) {
    if (start[i] > reach && (gsize) (start[i] - reach) >= PAGE_SIZE)
      return NULL;
    reach = MAX (reach, end[i]);
  }
  mem = clCreateBuffer (clh_context_get_cl_context (engine->ctx),
      CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, reach - start[0],
      (void *) start[0], &ret);
  if (ret != CL_SUCCESS)
    return NULL;
  *origin = start[0];
  return mem;
}

static gboolean
host_block_init (ClhEngine *engine, HostBlock *block, gsize size,
    GError **error)
{
  cl_int ret;

  block->mem = clCreateBuffer (clh_context_get_cl_context (engine->ctx),
      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR)", error))
    return FALSE;
  block->ptr = clEnqueueMapBuffer (engine->queue, block->mem, CL_TRUE,
      CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &ret);
  if (!clh_cl_check (ret, "clEnqueueMapBuffer", error)) {
    g_clear_pointer (&block->mem, clReleaseMemObject);
    return FALSE;
  }
  block->size = size;
  return TRUE;
}

static void
host_block_clear (ClhEngine *engine, HostBlock *block)
{
  if (!block->mem)
    return;
  clEnqueueUnmapMemObject (engine->queue, block->mem, block->ptr, 0, NULL,
      NULL);
  clFinish (engine->queue);
  clReleaseMemObject (block->mem);
  memset (block, 0, sizeof (*block));
}

/* Copies the used planes of @frame into the engine's staging host block
 * and points @staged at them there, once the device is done with what a
 * previous frame staged. */
static gboolean
stage_frame (ClhEngine *engine, const ClhFrame *frame, guint used,
    ClhFrame *staged, GError **error)
{
  Band whole;
  guint p;

  if (engine->stage_busy) {
    if (!clh_cl_check (clWaitForEvents (1, &engine->stage_busy),
            "clWaitForEvents", error))
      return FALSE;
    g_clear_pointer (&engine->stage_busy, clReleaseEvent);
  }
  band_layout (frame, used, 0, frame->height, &whole);
  /* Sized to the frame: a block lent in place is mapped whole. */
  if (engine->stage.size < whole.size || engine->stage.size > 2 * whole.size) {
    host_block_clear (engine, &engine->stage);
    if (!host_block_init (engine, &engine->stage, whole.size, error))
      return FALSE;
  }
  *staged = *frame;
  for (p = 0; p < frame->n_planes; p++) {
    if (!(used & (1u << p)))
      continue;
    memcpy (engine->stage.ptr + whole.base[p], frame->planes[p].data,
        plane_extent (frame, p));
    staged->planes[p].data = engine->stage.ptr + whole.base[p];
  }
  return TRUE;
}

/* Hands @block to the device for this frame's kernels. */
static gboolean
lend_host_block (ClhEngine *engine, HostBlock *block, GError **error)
{
  cl_event ev;
  cl_int ret;

  ret = clEnqueueUnmapMemObject (engine->queue, block->mem, block->ptr, 0,
      NULL, want_event (engine, &ev, NULL));
  note_event (engine, PHASE_UPLOAD, ev, NULL);
  if (!clh_cl_check (ret, "clEnqueueUnmapMemObject", error))
    return FALSE;
  engine->slot->lent = block;
  return TRUE;
}

/* Maps @slot's lent block back for the host, at the same address (the
 * caller's frame pointers point into it). @blocking: wait for it. */
static gboolean
return_host_block (ClhEngine *engine, Slot *slot, gboolean blocking,
    GError **error)
{
  HostBlock *block = slot->lent;
  cl_event ev, *keep = block == &engine->stage ? &engine->stage_busy : NULL;
  guint8 *ptr;
  cl_int ret;

  if (!block)
    return TRUE;
  slot->lent = NULL;
  ptr = clEnqueueMapBuffer (engine->queue, block->mem, blocking,
      CL_MAP_READ | CL_MAP_WRITE, 0, block->size, 0, NULL,
      want_event (engine, &ev, keep), &ret);
  note_event (engine, PHASE_READBACK, ev, keep);
  if (!clh_cl_check (ret, "clEnqueueMapBuffer", error))
    return FALSE;
  if (ptr != block->ptr) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL,
        "The OpenCL driver mapped host memory at %p, then at %p: frames in "
        "it can no longer be read in place", block->ptr, ptr);
    block->ptr = ptr;
    return FALSE;
  }
  return TRUE;
}

/* The caller's context block holding the frame, read where it lies if the
 * device can; FALSE to copy it (it is pinned: the driver copies by DMA). */
static gboolean
context_block_band (ClhEngine *engine, const ClhFrame *frame, guint used,
    const ClhHostBlock *block, Band *band)
{
  return block && engine->transfer != CLH_TRANSFER_COPY
      && clh_host_block_is_in_place (block)
      && clh_host_block_get_context (block) == engine->ctx
      && planes_inside (frame, used, clh_host_block_get_data (block),
      clh_host_block_get_size (block))
      && in_place_band (frame, used, clh_host_block_get_mem (block),
      clh_host_block_get_data (block), band);
}

/* The whole frame as one band the kernels read where it lies, when the
 * transfer mode and the frame's memory allow it. A frame staged into
 * engine host memory is @staged. */
static gboolean
in_place_source (ClhEngine *engine, const ClhFrame *frame, guint used,
    const ClhHostBlock *context_block, ClhFrame *staged, Band *band,
    GError **error)
{
  const gboolean blocks_in_place = engine->host_unified
      || engine->transfer == CLH_TRANSFER_IN_PLACE;
  HostBlock *block;
  const guint8 *origin = NULL;

  if (context_block_band (engine, frame, used, context_block, band))
    return TRUE;
  if (engine->transfer == CLH_TRANSFER_COPY)
    return FALSE;
  block = find_host_block (engine, frame, used);
  if (block)
    return blocks_in_place
        && in_place_band (frame, used, block->mem, block->ptr, band)
        && lend_host_block (engine, block, error);
  if (engine->host_unified) {
    engine->slot->wrapped = wrap_host_planes (engine, frame, used, &origin);
    return engine->slot->wrapped
        && in_place_band (frame, used, engine->slot->wrapped, origin, band);
  }
  if (engine->transfer != CLH_TRANSFER_STAGE
      || !stage_frame (engine, frame, used, staged, error))
    return FALSE;
  return blocks_in_place
      && in_place_band (staged, used, engine->stage.mem, engine->stage.ptr,
      band) && lend_host_block (engine, &engine->stage, error);
}

static gboolean
count_band (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const Band *band, GError **error)
{
  return spec->count == CLH_COUNT_COMPONENTS ?
      count_components_band (engine, frame, spec, band, error) :
      count_colour_band (engine, frame, spec, band, error);
}

/* Grows the slot's counters, on the device and in pinned host memory, to
 * @n; new ones hold garbage until cleared. */
static gboolean
ensure_counters (ClhEngine *engine, Slot *slot, gsize n, GError **error)
{
  cl_int ret;

  if (slot->hist_counters >= n)
    return TRUE;
  /* Whole pages: no regrowth for small changes of bins. */
  n = (n + 1023) / 1024 * 1024;
  g_clear_pointer (&slot->hist, clReleaseMemObject);
  host_block_clear (engine, &slot->bins);
  slot->hist_counters = slot->dirty = 0;
  slot->hist = clCreateBuffer (clh_context_get_cl_context (engine->ctx),
      CL_MEM_READ_WRITE, sizeof (cl_uint) * n, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBuffer (histogram)", error)
      || !host_block_init (engine, &slot->bins, sizeof (cl_uint) * n, error))
    return FALSE;
  slot->hist_counters = slot->dirty = n;
  return TRUE;
}

/* Clears this frame's counters if a failure or their creation left them
 * dirty, and has the frame's first launch clear the next slot's. */
static gboolean
prepare_histogram (ClhEngine *engine, gsize n_counters, GError **error)
{
  Slot *slot = engine->slot;
  const cl_uint zero = 0;
  cl_event ev;
  cl_int ret;

  if (!ensure_counters (engine, slot, n_counters, error))
    return FALSE;
  if (slot->dirty > 0) {
    ret = clEnqueueFillBuffer (engine->queue, slot->hist, &zero,
        sizeof (zero), 0, sizeof (cl_uint) * slot->dirty, 0, NULL,
        want_event (engine, &ev, NULL));
    note_event (engine, PHASE_KERNEL, ev, NULL);
    if (!clh_cl_check (ret, "clEnqueueFillBuffer", error))
      return FALSE;
    slot->dirty = 0;
  }
  engine->zero_next = next_slot (engine)->dirty;
  return TRUE;
}

/* Has the next band's upload wait for this band's counting. */
static gboolean
band_counted (ClhEngine *engine, cl_event *counted, GError **error)
{
  g_clear_pointer (counted, clReleaseEvent);
  if (!engine->upload_queue)
    return TRUE;
  return clh_cl_check (clEnqueueMarkerWithWaitList (engine->queue, 0, NULL,
          counted), "clEnqueueMarkerWithWaitList", error);
}

/* Uploads the frame band by band into the slot's staging buffer and counts
 * each band. */
static gboolean
count_bands (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, guint used, GError **error)
{
  const guint band_rows = band_rows_for (engine, frame, used);
  cl_event counted = NULL;
  gboolean ok = TRUE;
  Band band;
  guint y;

  band_layout (frame, used, 0, band_rows, &band);
  if (!ensure_staging (engine, engine->slot, band.size, error))
    return FALSE;
  for (y = 0; ok && y < frame->height; y += band_rows) {
    band_layout (frame, used, y, MIN (band_rows, frame->height - y), &band);
    band.mem = engine->slot->staging;
    ok = upload_band (engine, frame, &band, counted, error)
        && count_band (engine, frame, spec, &band, error)
        && (y + band_rows >= frame->height
        || band_counted (engine, &counted, error));
  }
  g_clear_pointer (&counted, clReleaseEvent);
  return ok;
}

static gboolean
count_frame (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block, GError **error)
{
  const guint used = planes_used (frame, spec);
  ClhFrame staged;
  Band band;
  GError *why = NULL;

  if (!prepare_histogram (engine, (gsize) clh_histogram_spec_n_channels
          (spec) * (clh_histogram_spec_n_bins (spec) + 2), error))
    return FALSE;
  staged.width = 0;
  if (in_place_source (engine, frame, used, block, &staged, &band, &why))
    return count_band (engine, staged.width ? &staged : frame, spec, &band,
        error) && return_host_block (engine, engine->slot, FALSE, error);
  if (why) {
    g_propagate_error (error, why);
    return FALSE;
  }
  /* Copied to the device: from the staging block if the frame is there. */
  if (!count_bands (engine, staged.width ? &staged : frame, spec, used,
          error))
    return FALSE;
  if (staged.width && engine->upload_queue)
    return clh_cl_check (clEnqueueMarkerWithWaitList (engine->upload_queue,
            0, NULL, &engine->stage_busy), "clEnqueueMarkerWithWaitList",
        error);
  return TRUE;
}

/* Enqueues the copy of the frame's counters into the slot's pinned host
 * memory; clh_engine_collect() waits for it. */
static gboolean
read_back (ClhEngine *engine, GError **error)
{
  Slot *slot = engine->slot;
  cl_int ret;

  ret = clEnqueueReadBuffer (engine->queue, slot->hist, CL_FALSE, 0,
      sizeof (guint32) * slot->n_channels * (slot->n_bins + 2),
      slot->bins.ptr, 0, NULL, &slot->done);
  if (ret == CL_SUCCESS && engine->profiling) {
    PhaseEvent pe = { slot->done, PHASE_READBACK };

    clRetainEvent (slot->done);
    g_array_append_val (slot->events, pe);
  }
  return clh_cl_check (ret, "clEnqueueReadBuffer", error)
      && clh_cl_check (clFlush (engine->queue), "clFlush", error);
}

/* Forgets what the slot's frame borrowed, waiting for the device to give
 * back a lent block. */
static void
slot_finish (ClhEngine *engine, Slot *slot)
{
  return_host_block (engine, slot, TRUE, NULL);
  g_clear_pointer (&slot->wrapped, clReleaseMemObject);
  release_events (slot);
}

static void
slots_clear (ClhEngine *engine)
{
  guint i;

  for (i = 0; i < engine->n_slots; i++) {
    Slot *slot = &engine->slots[i];

    slot_finish (engine, slot);
    g_clear_pointer (&slot->events, g_array_unref);
    g_clear_pointer (&slot->hist, clReleaseMemObject);
    g_clear_pointer (&slot->staging, clReleaseMemObject);
    host_block_clear (engine, &slot->bins);
  }
  g_clear_pointer (&engine->slots, g_free);
  engine->n_slots = engine->head = engine->n_pending = 0;
}

/**
 * clh_engine_set_max_in_flight:
 * @engine: an engine with no frame pending
 * @n: how many frames may be submitted and not yet collected, >= 1
 * @error: %CLH_ENGINE_ERROR_INVALID if frames are pending,
 *   %CLH_ENGINE_ERROR_OPENCL
 *
 * With more than one, a device that copies frames gets a second command
 * queue for the uploads, so that a frame's upload overlaps the counting and
 * readback of the one before. Each frame in flight holds its own counters
 * and, for copied frames, a device buffer the size of the frame.
 *
 * Returns: %TRUE on success; on failure the engine keeps its frames in
 *   flight as they were
 */
gboolean
clh_engine_set_max_in_flight (ClhEngine *engine, guint n, GError **error)
{
  const gboolean two = n > 1;
  guint i;

  g_return_val_if_fail (n >= 1, FALSE);
  if (engine->n_pending > 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%u frames are in flight: collect or discard them first",
        engine->n_pending);
    return FALSE;
  }
  if (engine->n_slots == n + 1)
    return TRUE;
  /* The queues first: if they cannot be made, the engine stays as it was,
   * with its slots. */
  if (two != (engine->upload_queue != NULL)
      && !create_queues (engine, engine->profiling, two, error))
    return FALSE;
  slots_clear (engine);
  engine->n_slots = n + 1;
  engine->slots = g_new0 (Slot, engine->n_slots);
  for (i = 0; i < engine->n_slots && engine->profiling; i++)
    engine->slots[i].events = g_array_new (FALSE, TRUE, sizeof (PhaseEvent));
  return TRUE;
}

/**
 * clh_engine_get_max_in_flight:
 * @engine: an engine
 *
 * Returns: how many frames may be in flight
 */
guint
clh_engine_get_max_in_flight (const ClhEngine *engine)
{
  return engine->n_slots - 1;
}

/**
 * clh_engine_get_n_pending:
 * @engine: an engine
 *
 * Returns: frames submitted and not yet collected or discarded
 */
guint
clh_engine_get_n_pending (const ClhEngine *engine)
{
  return engine->n_pending;
}

static gboolean
check_request (const ClhFrame *frame, const ClhHistogramSpec *spec,
    GError **error)
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
  return TRUE;
}

/* Undoes a failed submission: waits for what was queued, gives memory back
 * and marks the counters it touched dirty. */
static void
abandon_submission (ClhEngine *engine)
{
  Slot *slot = engine->slot, *next = next_slot (engine);

  clFinish (engine->queue);
  if (engine->upload_queue)
    clFinish (engine->upload_queue);
  slot_finish (engine, slot);
  g_clear_pointer (&engine->upload_done, clReleaseEvent);
  slot->dirty = slot->hist_counters;
  next->dirty = next->hist_counters;
  engine->slot = NULL;
}

/**
 * clh_engine_submit:
 * @engine: an engine with fewer than clh_engine_get_max_in_flight() frames
 *   pending
 * @frame: the frame; its memory must stay valid and unchanged until the
 *   frame is collected or discarded
 * @spec: what to count
 * @block: (nullable): the clh_context_alloc_host() block of the engine's
 *   context that @frame's planes lie in, if the caller knows it: such a
 *   frame is read where it lies on CPU devices and copied by DMA on others
 * @error: %CLH_ENGINE_ERROR_INVALID for a frame outside
 *   clh_frame_is_valid(), a request clh_histogram_spec_is_valid() refuses
 *   (its message says why) or too many frames in flight;
 *   %CLH_ENGINE_ERROR_OPENCL when an OpenCL call fails
 *
 * Enqueues the frame's upload (in bands of rows, for large frames), its
 * counting into privatized sub-histograms, their merge on the device and
 * the readback of the bins, and returns without waiting.
 *
 * Returns: %TRUE if the frame is pending; on failure nothing of it is left
 *   queued and frames submitted before it are still pending
 */
gboolean
clh_engine_submit (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block, GError **error)
{
  ClhHistogram samples = { NULL };
  Slot *slot;

  if (!check_request (frame, spec, error))
    return FALSE;
  if (engine->n_pending >= engine->n_slots - 1) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%u frames are already in flight, the most this engine takes",
        engine->n_pending);
    return FALSE;
  }

  slot = engine->slot = &engine->slots[(engine->head + engine->n_pending)
      % engine->n_slots];
  slot->n_channels = clh_histogram_spec_n_channels (spec);
  slot->n_bins = clh_histogram_spec_n_bins (spec);
  clh_histogram_set_samples (&samples, spec, frame);
  memcpy (slot->samples, samples.samples, sizeof (slot->samples));
  if (!count_frame (engine, frame, spec, block, error)
      || !read_back (engine, error)) {
    abandon_submission (engine);
    return FALSE;
  }
  /* This slot's counters now hold the frame; its first launch cleared the
   * next slot's. */
  slot->dirty = (gsize) slot->n_channels * (slot->n_bins + 2);
  next_slot (engine)->dirty = 0;
  engine->n_pending++;
  engine->slot = NULL;
  return TRUE;
}

/* Splits the slot's counters into each channel's bins, below and above. */
static void
split_counters (const Slot *slot, ClhHistogram *histogram)
{
  const guint32 *all = (const guint32 *) slot->bins.ptr;
  const gsize stride = slot->n_bins + 2;
  guint c;

  memcpy (histogram->samples, slot->samples, sizeof (slot->samples));
  for (c = 0; c < slot->n_channels; c++) {
    memcpy (histogram->counts + c * slot->n_bins, all + c * stride,
        sizeof (guint32) * slot->n_bins);
    histogram->below[c] = all[c * stride + slot->n_bins];
    histogram->above[c] = all[c * stride + slot->n_bins + 1];
  }
  for (; c < CLH_MAX_CHANNELS; c++)
    histogram->below[c] = histogram->above[c] = 0;
}

/**
 * clh_engine_collect:
 * @engine: an engine with a frame pending
 * @histogram: (out caller-allocates): the oldest pending frame's result;
 *   its counts must hold `clh_histogram_spec_n_channels () *
 *   clh_histogram_spec_n_bins ()` guint32 of that frame's request, and are
 *   written channel-major
 * @error: %CLH_ENGINE_ERROR_INVALID if nothing is pending,
 *   %CLH_ENGINE_ERROR_OPENCL if the device failed on the frame
 *
 * Waits for the oldest pending frame (frames are collected in the order
 * they were submitted); its memory is the caller's again.
 *
 * Returns: %TRUE on success; on failure that frame is dropped and
 *   @histogram is undefined
 */
gboolean
clh_engine_collect (ClhEngine *engine, ClhHistogram *histogram,
    GError **error)
{
  Slot *slot;
  gboolean ok;

  if (engine->n_pending == 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "No frame is in flight");
    return FALSE;
  }
  slot = &engine->slots[engine->head];
  engine->head = (engine->head + 1) % engine->n_slots;
  engine->n_pending--;

  ok = clh_cl_check (clWaitForEvents (1, &slot->done), "clWaitForEvents",
      error);
  if (ok) {
    split_counters (slot, histogram);
    if (engine->profiling)
      collect_timings (engine, slot);
  } else {
    /* Which counters are clear is unknown now: clear them before use. */
    slot->dirty = slot->hist_counters;
  }
  slot_finish (engine, slot);
  return ok;
}

/**
 * clh_engine_discard:
 * @engine: an engine
 *
 * Waits until the device is done with every pending frame and drops their
 * results: their memory is the caller's again.
 */
void
clh_engine_discard (ClhEngine *engine)
{
  clFinish (engine->queue);
  if (engine->upload_queue)
    clFinish (engine->upload_queue);
  while (engine->n_pending > 0) {
    slot_finish (engine, &engine->slots[engine->head]);
    engine->head = (engine->head + 1) % engine->n_slots;
    engine->n_pending--;
  }
}

/**
 * clh_engine_histogram:
 * @engine: an engine with no frame pending
 * @frame: the frame, read and not modified; it must stay unchanged until
 *   the call returns
 * @spec: what to count
 * @histogram: (out caller-allocates): the result, as clh_engine_collect()
 *   writes it
 * @error: as for clh_engine_submit() and clh_engine_collect()
 *
 * Counts @frame on the device: clh_engine_submit() then
 * clh_engine_collect(). Blocks until @histogram holds the result.
 *
 * Returns: %TRUE on success; on failure @histogram is undefined and
 *   nothing is left queued.
 */
gboolean
clh_engine_histogram (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhHistogram *histogram, GError **error)
{
  if (engine->n_pending > 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%u frames are in flight: collect them first", engine->n_pending);
    return FALSE;
  }
  engine->have_timings = FALSE;
  return clh_engine_submit (engine, frame, spec, NULL, error)
      && clh_engine_collect (engine, histogram, error);
}

/**
 * clh_engine_set_profiling:
 * @engine: an engine with no frame pending
 * @profiling: whether to time each histogram's commands
 * @error: %CLH_ENGINE_ERROR_OPENCL if the queues cannot be recreated
 *
 * Recreates the command queues with or without
 * %CL_QUEUE_PROFILING_ENABLE. With profiling on, clh_engine_get_timings()
 * says where the last collected histogram's device time went; it costs an
 * event per command.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_engine_set_profiling (ClhEngine *engine, gboolean profiling,
    GError **error)
{
  guint i;

  g_return_val_if_fail (engine->n_pending == 0, FALSE);
  if (!create_queues (engine, profiling, engine->upload_queue != NULL,
          error))
    return FALSE;
  engine->have_timings = FALSE;
  for (i = 0; i < engine->n_slots; i++)
    if (profiling && !engine->slots[i].events)
      engine->slots[i].events = g_array_new (FALSE, TRUE,
          sizeof (PhaseEvent));
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
