/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What benchmarks and tests change of the engine and read back from it: the
 * transfer path, the launch configuration, the staging limit and
 * engine-owned host memory. The elements use none of it. Profiling, which
 * times frames without changing how they are counted, is
 * clh-engine-profiling.h. */
#pragma once

#include "clh-engine.h"
#include "clh-launch.h"
#include "clh-marks.h"
#include "clh-submitter.h"
#include "clh-tracker.h"

G_BEGIN_DECLS

/**
 * ClhTransfer:
 * @CLH_TRANSFER_AUTO: on a CPU device the kernels read the frame where it
 *   lies; on others the frame is copied to the device, by DMA from
 *   clh_engine_alloc_host() memory, which is fastest there
 *   (docs/performance.md, "Why the defaults are what they are")
 * @CLH_TRANSFER_COPY: always copy the frame's rows to a device buffer
 *   (clEnqueueWriteBuffer, from wherever they are)
 * @CLH_TRANSFER_STAGE: a frame in ordinary memory is first copied on the
 *   host into engine host memory, then treated as @CLH_TRANSFER_AUTO
 *   treats that memory
 * @CLH_TRANSFER_IN_PLACE: the kernels read frames in engine host memory
 *   where they lie, on any device (the block is unmapped for them and
 *   mapped again); others as @CLH_TRANSFER_AUTO
 *
 * How a frame reaches the device.
 */
typedef enum {
  CLH_TRANSFER_AUTO,
  CLH_TRANSFER_COPY,
  CLH_TRANSFER_STAGE,
  CLH_TRANSFER_IN_PLACE,
} ClhTransfer;

/**
 * ClhCounting:
 * @CLH_COUNTING_AUTO: on a CPU device the host CPU counts the requests it
 *   can (8-bit components, the luma or maximum of 8-bit RGB), where the
 *   frame lies, without a kernel launch; the kernels count the others, and
 *   everything on other devices
 * @CLH_COUNTING_DEVICE: the kernels count every frame
 * @CLH_COUNTING_HOST: the host CPU counts the requests it can on any
 *   device
 *
 * Who counts a frame. Both give the same counts, bit for bit.
 */
typedef enum {
  CLH_COUNTING_AUTO,
  CLH_COUNTING_DEVICE,
  CLH_COUNTING_HOST,
} ClhCounting;

void clh_engine_set_transfer (ClhEngine *engine, ClhTransfer transfer);
void clh_engine_set_submission (ClhEngine *engine, ClhSubmission submission);
void clh_tracker_set_submission (ClhTracker *tracker,
    ClhSubmission submission);
void clh_marks_set_submission (ClhMarks *marks, ClhSubmission submission);
void clh_engine_set_counting (ClhEngine *engine, ClhCounting counting);
gboolean clh_engine_next_counts_on_host (const ClhEngine *engine);
guint clh_engine_get_n_on_thread (const ClhEngine *engine);
void clh_engine_get_batch_stats (ClhEngine *engine, guint64 *n_frames,
    guint64 *n_launches);
void clh_engine_set_launch (ClhEngine *engine, const ClhLaunch *launch);
gboolean clh_engine_get_last_launch (const ClhEngine *engine,
    ClhLaunch *launch);
const ClhDeviceLimits *clh_engine_get_device_limits (const ClhEngine *engine);
void clh_engine_model_launch (const ClhEngine *engine, guint n_channels,
    guint bins, ClhLaunch *launch);
void clh_engine_set_staging_limit (ClhEngine *engine, gsize bytes);
void clh_engine_set_region_pixels_per_group (ClhEngine *engine,
    guint pixels);
void clh_engine_set_narrow_counters (ClhEngine *engine, gboolean narrow);

gpointer clh_engine_alloc_host (ClhEngine *engine, gsize size,
    GError **error);
void clh_engine_free_host (ClhEngine *engine, gpointer memory);

G_END_DECLS
