/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How a frame reaches the device (clh-engine-transfer.c): copied in bands
 * of rows, staged in pinned memory, or read where it lies. */
#pragma once

#include "clh-engine-dispatch.h"

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

/* What the caller chose of the transfer, and the engine's own host blocks
 * (clh_engine_alloc_host()). */
typedef struct {
  ClhTransfer transfer;
  gsize staging_limit;
  GPtrArray *host_blocks;
} ClhTransferPlan;

gboolean clh_transfer_count_frame (const ClhTransferPlan *plan,
    ClhDispatch *d, ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block, GError **error);
void clh_transfer_give_back (ClhQueues *q, ClhSlot *slot);
gboolean clh_transfer_batch_frame (const ClhTransferPlan *plan,
    ClhDispatch *d, const ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block,
    ClhBatchFrame *f);
gboolean clh_transfer_prestage (const ClhTransferPlan *plan,
    const ClhQueues *q, ClhSlot *slot, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock **block,
    ClhFrame *staged, GError **error);

G_END_DECLS
