/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How a frame reaches the device (clh-engine-transfer.c): copied in bands
 * of rows, staged in pinned memory, or read where it lies. */
#pragma once

#include "clh-engine-dispatch.h"
#include "clh-engine-tuning.h"

G_BEGIN_DECLS

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
