/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Launch configuration of the counting kernels: the kernel strategies, the
 * device limits they are fitted to, and the near-optimal configuration model
 * of Di, Hu and Li ("An efficient histogram generation algorithm on GPU",
 * University of Science and Technology Beijing). Plain C: the model is
 * testable without a device. */
#pragma once

#include "clh-cl.h"

G_BEGIN_DECLS

/**
 * ClhVariant:
 * @CLH_VARIANT_AUTO: the engine's default, the variant measured fastest
 *   (docs/performance.md, "Why the defaults are what they are")
 * @CLH_VARIANT_LOCAL_ATOMICS: one sub-histogram per work-group in local
 *   memory, counted with local atomics (the OpenCL
 *   tutorials' local histogram)
 * @CLH_VARIANT_REPLICATED: a few replicated sub-histograms per work-group,
 *   work-item i counting into copy i mod n_copies with local atomics
 * @CLH_VARIANT_PER_WORK_ITEM: one sub-histogram per work-item, 32-bit
 *   counters and no atomics (the seeds' per-thread idea, without their
 *   8-bit counters that wrap); the work-group is as large as local memory
 *   holds copies, as in the paper
 *
 * How a work-group privatizes its histogram in local memory.
 */
typedef enum {
  CLH_VARIANT_AUTO,
  CLH_VARIANT_LOCAL_ATOMICS,
  CLH_VARIANT_REPLICATED,
  CLH_VARIANT_PER_WORK_ITEM,
} ClhVariant;

#define CLH_N_VARIANTS 4

/**
 * ClhLaunch:
 * @variant: the kernel strategy
 * @work_group_size: work-items per work-group (the paper's K); 0: the model's
 * @n_groups: work-groups per launch (the paper's L); 0: the model's
 * @n_copies: sub-histograms per work-group; 0: the variant's
 * @padding: 1: each sub-histogram is padded by one counter, so that the
 *   same bin of consecutive copies lies in different local-memory banks;
 *   0: copies are packed back to back (the paper's unpadded layout);
 *   -1: the variant's (padded)
 *
 * A launch configuration: what a caller asks for (zeros and -1 filled in by
 * the model), or what a launch used.
 */
typedef struct {
  ClhVariant variant;
  guint work_group_size;
  guint n_groups;
  guint n_copies;
  gint padding;
} ClhLaunch;

/**
 * ClhDeviceLimits:
 * @compute_units: %CL_DEVICE_MAX_COMPUTE_UNITS (SMs)
 * @max_work_group_size: largest work-group the kernel can be launched with
 * @warp: work-items scheduled together
 *   (%CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE; 32 on NVIDIA)
 * @local_mem_per_group: %CL_DEVICE_LOCAL_MEM_SIZE, bytes one work-group may
 *   use
 * @local_mem_per_unit: bytes of local memory per compute unit (the paper's
 *   S_SM); NVIDIA's per-SM shared memory from its compute capability, else
 *   @local_mem_per_group
 * @local_mem_reserved: bytes the driver reserves per resident work-group
 *   (1 KiB on NVIDIA since compute capability 8.0)
 * @max_groups_per_unit: resident work-groups per compute unit (B_SM)
 * @max_items_per_unit: resident work-items per compute unit (T_SM)
 *
 * What the launch model fits a configuration to.
 */
typedef struct {
  guint compute_units;
  guint max_work_group_size;
  guint warp;
  gsize local_mem_per_group;
  gsize local_mem_per_unit;
  gsize local_mem_reserved;
  guint max_groups_per_unit;
  guint max_items_per_unit;
} ClhDeviceLimits;

/* Active work-items per compute unit the paper requires to hide instruction
 * latency (more than 192 on its Tesla C1060). */
#define CLH_LAUNCH_MIN_ACTIVE_ITEMS 192

gboolean clh_device_limits_query (cl_device_id device, cl_kernel kernel,
    ClhDeviceLimits *limits, GError **error);

guint clh_launch_copy_stride (guint n_counters, gboolean padding);

gsize clh_launch_local_bytes (guint n_copies, guint copy_stride);

guint clh_launch_groups_per_unit (const ClhDeviceLimits *limits,
    guint work_group_size, gsize local_bytes);

void clh_launch_model (const ClhDeviceLimits *limits, ClhVariant variant,
    guint n_counters, gsize extra_local_bytes, ClhLaunch *launch);

const gchar *clh_variant_name (ClhVariant variant);
gboolean clh_variant_from_name (const gchar *name, ClhVariant *variant);

G_END_DECLS
