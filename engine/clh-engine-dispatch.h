/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The counting kernels (clh-engine-dispatch.c): their arguments, launch
 * configuration and launches, into the slot of the frame being enqueued. */
#pragma once

#include "clh-engine-queues.h"
#include "clh-launch.h"

G_BEGIN_DECLS

/* The variant the engine uses unless asked otherwise: the fastest measured
 * (docs/performance.md, "Why the defaults are what they are"). */
#define CLH_DEFAULT_VARIANT CLH_VARIANT_LOCAL_ATOMICS

typedef enum {
  CLH_KERNEL_8BIT,
  CLH_KERNEL_COMPONENT,
  CLH_KERNEL_COLOUR,
  CLH_N_KERNELS
} ClhKernelId;

/* The last model result of a kernel and what it was computed for. */
typedef struct {
  gboolean valid;
  guint n_channels;
  guint window;
  ClhLaunch requested;
  ClhLaunch result;
} ClhModelMemo;

/* The kernels, what the launch model knows of them on the device, and what
 * the caller fixed of their launches. */
typedef struct {
  cl_kernel kernels[CLH_N_KERNELS];
  ClhDeviceLimits limits[CLH_N_KERNELS];
  ClhModelMemo memo[CLH_N_KERNELS];
  /* What the caller fixed of the launch configuration, and what the last
   * counting launch used. */
  ClhLaunch requested;
  ClhLaunch last_launch;
  /* Pixels a region's work-group aims at; 0: the default. wide_only: no
   * 16-bit counters. */
  guint region_pixels;
  gboolean wide_only;
} ClhDispatch;

gboolean clh_dispatch_create_kernels (ClhDispatch *d, const ClhQueues *q,
    GError **error);
void clh_dispatch_clear (ClhDispatch *d);
gsize clh_dispatch_extra_local_bytes (ClhKernelId id, guint n_channels);
gboolean clh_dispatch_count_band (ClhDispatch *d, ClhQueues *q,
    const ClhFrame *frame, const ClhHistogramSpec *spec, const ClhBand *band,
    GError **error);
gboolean clh_dispatch_batch_runs (ClhDispatch *d, const ClhQueues *q,
    const ClhFrame *frame, const ClhHistogramSpec *spec, const ClhBand *band,
    ClhBatchFrame *f);

G_END_DECLS
