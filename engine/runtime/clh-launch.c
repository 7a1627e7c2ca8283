/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-launch.h"

#include <string.h>

/* cl_nv_device_attribute_query */
#define CLH_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CLH_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

/* The largest work-group the model considers. */
#define WORK_GROUP_SIZE_CAP 1024
/* Copies the replicated variant uses when local memory allows. */
#define REPLICATED_COPIES 8

static const gchar *const variant_names[CLH_N_VARIANTS] = {
  "auto", "local-atomics", "replicated", "per-work-item",
};

/**
 * clh_variant_name:
 * @variant: a variant
 *
 * Returns: (transfer none): the variant's name as the benchmark prints it
 */
const gchar *
clh_variant_name (ClhVariant variant)
{
  return variant < CLH_N_VARIANTS ? variant_names[variant] : "?";
}

/**
 * clh_variant_from_name:
 * @name: "auto", "local-atomics", "replicated" or "per-work-item"
 * @variant: (out): the variant
 *
 * Returns: %FALSE if @name is none of them
 */
gboolean
clh_variant_from_name (const gchar *name, ClhVariant *variant)
{
  guint i;

  for (i = 0; i < CLH_N_VARIANTS; i++)
    if (g_str_equal (name, variant_names[i])) {
      *variant = i;
      return TRUE;
    }
  return FALSE;
}

/* Per-SM limits of NVIDIA compute capabilities (CUDA C Programming Guide,
 * "Technical Specifications per Compute Capability"); OpenCL does not
 * report them. */
typedef struct {
  guint major, minor;
  gsize shared_per_sm;
  guint blocks_per_sm;
  guint threads_per_sm;
} NvidiaSm;

static const NvidiaSm nvidia_sms[] = {
  { 6, 0, 64 << 10, 32, 2048 },
  { 6, 1, 96 << 10, 32, 2048 },
  { 7, 0, 96 << 10, 32, 2048 },
  { 7, 5, 64 << 10, 16, 1024 },
  { 8, 0, 164 << 10, 32, 2048 },
  { 8, 6, 100 << 10, 16, 1536 },
  { 8, 7, 164 << 10, 16, 1536 },
  { 8, 9, 100 << 10, 24, 1536 },
  { 9, 0, 228 << 10, 32, 2048 },
};

static gboolean
nvidia_limits (cl_device_id device, ClhDeviceLimits *limits)
{
  cl_uint major = 0, minor = 0;
  gchar ext[8192] = "";
  const NvidiaSm *best = NULL;
  guint i;

  if (clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, sizeof (ext) - 1, ext,
          NULL) != CL_SUCCESS || !strstr (ext, "cl_nv_device_attribute_query")
      || clGetDeviceInfo (device, CLH_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV,
          sizeof (major), &major, NULL) != CL_SUCCESS
      || clGetDeviceInfo (device, CLH_DEVICE_COMPUTE_CAPABILITY_MINOR_NV,
          sizeof (minor), &minor, NULL) != CL_SUCCESS)
    return FALSE;

  /* The newest listed capability not above the device's. */
  for (i = 0; i < G_N_ELEMENTS (nvidia_sms); i++)
    if (nvidia_sms[i].major < major
        || (nvidia_sms[i].major == major && nvidia_sms[i].minor <= minor))
      best = &nvidia_sms[i];
  if (!best)
    return FALSE;
  limits->local_mem_per_unit = best->shared_per_sm;
  limits->max_groups_per_unit = best->blocks_per_sm;
  limits->max_items_per_unit = best->threads_per_sm;
  limits->local_mem_reserved = major >= 8 ? 1024 : 0;
  return TRUE;
}

/**
 * clh_device_limits_query:
 * @device: the device
 * @kernel: the kernel to be launched (its work-group size limit and warp)
 * @limits: (out): the limits
 * @error: %CLH_ENGINE_ERROR_OPENCL if the device cannot be queried
 *
 * Reads what the launch model needs from clGetDeviceInfo() and
 * clGetKernelWorkGroupInfo(). NVIDIA's per-SM limits come from its compute
 * capability (cl_nv_device_attribute_query); other devices are assumed to
 * hold 8 work-groups (the paper's B_SM) and 2048 work-items per compute
 * unit, with %CL_DEVICE_LOCAL_MEM_SIZE of local memory.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_device_limits_query (cl_device_id device, cl_kernel kernel,
    ClhDeviceLimits *limits, GError **error)
{
  cl_uint units = 0;
  cl_ulong local = 0;
  size_t wg = 0, multiple = 0;

  if (!clh_cl_check (clGetDeviceInfo (device, CL_DEVICE_MAX_COMPUTE_UNITS,
              sizeof (units), &units, NULL),
          "clGetDeviceInfo (CL_DEVICE_MAX_COMPUTE_UNITS)", error)
      || !clh_cl_check (clGetDeviceInfo (device, CL_DEVICE_LOCAL_MEM_SIZE,
              sizeof (local), &local, NULL),
          "clGetDeviceInfo (CL_DEVICE_LOCAL_MEM_SIZE)", error)
      || !clh_cl_check (clGetKernelWorkGroupInfo (kernel, device,
              CL_KERNEL_WORK_GROUP_SIZE, sizeof (wg), &wg, NULL),
          "clGetKernelWorkGroupInfo (CL_KERNEL_WORK_GROUP_SIZE)", error)
      || !clh_cl_check (clGetKernelWorkGroupInfo (kernel, device,
              CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof (multiple),
              &multiple, NULL),
          "clGetKernelWorkGroupInfo (PREFERRED_WORK_GROUP_SIZE_MULTIPLE)",
          error))
    return FALSE;

  memset (limits, 0, sizeof (*limits));
  limits->compute_units = MAX (units, 1);
  limits->max_work_group_size = CLAMP (wg, 1, WORK_GROUP_SIZE_CAP);
  limits->warp = CLAMP (multiple, 1, limits->max_work_group_size);
  limits->local_mem_per_group = local;
  if (!nvidia_limits (device, limits)) {
    limits->local_mem_per_unit = local;
    limits->max_groups_per_unit = 8;
    limits->max_items_per_unit = MAX (2048, limits->max_work_group_size);
  }
  return TRUE;
}

/**
 * clh_launch_copy_stride:
 * @n_counters: counters in one sub-histogram (every channel's bins)
 * @padding: whether to pad the copy by one counter
 *
 * Unpadded, copies of 16 x k bins start in one or two of the 32 banks, so
 * a frame of one value counted into many copies hits one bank; padded by
 * one counter (the paper's S_TB = K x (T + 1) x 4 bytes), copy r starts r
 * banks further.
 *
 * Returns: counters from the start of one copy to the next
 */
guint
clh_launch_copy_stride (guint n_counters, gboolean padding)
{
  return n_counters + (padding ? 1 : 0);
}

/**
 * clh_launch_local_bytes:
 * @n_copies: sub-histograms per work-group
 * @copy_stride: clh_launch_copy_stride()
 *
 * Returns: bytes of local memory the sub-histograms take (32-bit counters)
 */
gsize
clh_launch_local_bytes (guint n_copies, guint copy_stride)
{
  return (gsize) n_copies * copy_stride * sizeof (cl_uint);
}

/* The two limits of table 1: resident groups by warps (B_W) and by local
 * memory (B_S). */
static void
resident_limits (const ClhDeviceLimits *limits, guint work_group_size,
    gsize local_bytes, guint *by_warps, guint *by_local)
{
  const guint warps_per_group =
      (work_group_size + limits->warp - 1) / limits->warp;

  *by_warps = MIN (limits->max_items_per_unit / limits->warp
      / warps_per_group, limits->max_groups_per_unit);
  *by_local = limits->local_mem_per_unit
      / (local_bytes + limits->local_mem_reserved);
}

/**
 * clh_launch_groups_per_unit:
 * @limits: the device
 * @work_group_size: work-items per group (K)
 * @local_bytes: local memory per group, bytes
 *
 * The paper's table 1: B = min (B_W, B_S) work-groups resident on one
 * compute unit, B_W = min (W_SM / ceil (K / warp), B_SM) limited by warps,
 * B_S = S_SM / S_TB by local memory (registers are not the limit of a
 * histogram, as the paper argues).
 *
 * Returns: B; 0 if one group does not fit
 */
guint
clh_launch_groups_per_unit (const ClhDeviceLimits *limits,
    guint work_group_size, gsize local_bytes)
{
  guint by_warps, by_local;

  if (local_bytes > limits->local_mem_per_group
      || work_group_size > limits->max_work_group_size)
    return 0;
  resident_limits (limits, work_group_size, local_bytes, &by_warps,
      &by_local);
  return MIN (by_warps, by_local);
}

/* Copies a group of @k work-items uses under @variant, before fitting. */
static guint
variant_copies (ClhVariant variant, guint k, guint requested)
{
  if (requested)
    return MIN (requested, k);
  switch (variant) {
    case CLH_VARIANT_LOCAL_ATOMICS:
      return 1;
    case CLH_VARIANT_PER_WORK_ITEM:
      return k;
    default:
      return MIN (REPLICATED_COPIES, k);
  }
}

/* Copies of @stride counters that fit one group's local memory beside
 * @extra bytes. */
static guint
copies_that_fit (const ClhDeviceLimits *limits, guint stride, gsize extra)
{
  if (extra >= limits->local_mem_per_group)
    return 0;
  return (limits->local_mem_per_group - extra) / clh_launch_local_bytes (1,
      stride);
}

/**
 * clh_launch_model:
 * @limits: the device
 * @variant: the kernel strategy; %CLH_VARIANT_AUTO is not resolved here
 *   and counts as %CLH_VARIANT_REPLICATED
 * @n_counters: counters in one sub-histogram
 * @extra_local_bytes: local memory the kernel uses besides the copies
 * @launch: (inout): what the caller fixed (non-zero work_group_size,
 *   n_groups, n_copies; padding 0 or 1); the rest is filled in
 *
 * The paper's near-optimal configuration (section 3.4): K a multiple of
 * the warp, within the device's limits, such that local memory rather than
 * warps limits the resident groups (B_S <= B_W) and K * B > 192 work-items
 * are active; of those, the K with the most active work-items K * B (the
 * paper's pick of 224 on a Tesla C1060 for 16 bins); if none meets both
 * conditions, the K with the most active work-items; of equals, the largest
 * (fewer groups to merge; K = 32 x 7 groups also keeps 224 active on the
 * C1060, and the paper took 224 x 1). L = B * compute units,
 * so every unit gets the same number of groups. A per-work-item launch
 * takes the K whose copies all fit; where none does (4 x 256 bins), or K
 * is fixed, copies are reduced to what fits and shared with atomics.
 */
void
clh_launch_model (const ClhDeviceLimits *limits, ClhVariant variant,
    guint n_counters, gsize extra_local_bytes, ClhLaunch *launch)
{
  const gboolean padding = launch->padding != 0;
  const guint stride = clh_launch_copy_stride (n_counters, padding);
  const guint fit = MAX (copies_that_fit (limits, stride, extra_local_bytes),
      1);
  const guint first = launch->work_group_size ? launch->work_group_size :
      limits->warp;
  const guint last = launch->work_group_size ? launch->work_group_size :
      limits->max_work_group_size;
  guint best_k = 0, best_b = 0, best_active = 0, k;
  gboolean best_meets = FALSE, strict;

  launch->variant = variant;
  launch->padding = padding;
  /* A per-work-item launch first looks for a K whose copies all fit. */
  for (strict = variant == CLH_VARIANT_PER_WORK_ITEM && !launch->n_copies;
      best_k == 0; strict = FALSE) {
    for (k = first; k <= last; k += limits->warp) {
      const guint wanted = variant_copies (variant, k, launch->n_copies);
      const guint copies = MIN (wanted, fit);
      const gsize bytes = clh_launch_local_bytes (copies, stride)
          + extra_local_bytes;
      const guint b = clh_launch_groups_per_unit (limits, k, bytes);
      guint by_warps, by_local;
      gboolean meets;

      resident_limits (limits, k, bytes, &by_warps, &by_local);
      meets = by_local <= by_warps && k * b > CLH_LAUNCH_MIN_ACTIVE_ITEMS;

      if (b == 0 || (strict && copies < wanted) || (best_meets && !meets))
        continue;
      if ((meets && !best_meets) || k * b >= best_active)
        best_k = k, best_b = b, best_active = k * b, best_meets = meets;
    }
    if (!strict)
      break;
  }
  if (best_k == 0) {
    /* Nothing fits the model's limits: one group per unit, of the size
     * asked for or the warp. */
    best_k = first;
    best_b = 1;
  }
  launch->work_group_size = best_k;
  launch->n_copies = MIN (variant_copies (variant, best_k, launch->n_copies),
      fit);
  if (launch->n_groups == 0)
    launch->n_groups = best_b * limits->compute_units;
}
