/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One launch and one readback for the frames of many streams
 * (clh-batch.c): what an engine hands the device's batcher, on the
 * submission thread. */
#pragma once

#include "clh-context-private.h"
#include "clh-kernel-abi.h"
#include "clh-frame.h"

G_BEGIN_DECLS

/**
 * ClhBatchFrame:
 * @n_uploads: pieces of the frame to copy to the device, one per plane it
 *   reads
 * @upload_src: each piece's first byte in host memory, which must stay
 *   valid until the frame's @watch is told; unused for a frame in @device
 * @device: (nullable): the block of device memory imported from another
 *   API (clh_context_import_opaque_fd()) the frame lies in: its pieces are
 *   copied on the device, from @device_offset, which must stay valid as
 *   @upload_src
 * @device_offset: each piece's first byte in @device
 * @upload_offset: where each piece goes, bytes from the frame's start in
 *   the batch's device buffer
 * @upload_size: each piece's bytes
 * @staging_size: bytes the frame takes in that buffer
 * @n_runs: histogram_8bit launches the frame needs, one per run of
 *   channels sharing a plane
 * @runs: their parameters, with plane.base relative to the frame's start in
 *   the device buffer, hist_base to its first counter, and launch's
 *   n_copies, copy_stride and whole_groups (its work-groups) filled in
 * @work_group_size: work-items per work-group of every run
 * @local_bytes: local memory the largest run's copies and outside counters
 *   take
 * @n_counters: the frame's 32-bit counters
 * @counters: where they are copied once read back
 * @watch: told once they are there, or the batch failed
 * @error: where a failure after the frame was taken is reported, set
 *   before @watch is told
 *
 * One frame's 8-bit counting, as one engine would launch it.
 */
typedef struct {
  guint n_uploads;
  const guint8 *upload_src[CLH_MAX_PLANES];
  const ClhHostBlock *device;
  gsize device_offset[CLH_MAX_PLANES];
  gsize upload_offset[CLH_MAX_PLANES];
  gsize upload_size[CLH_MAX_PLANES];
  gsize staging_size;
  guint n_runs;
  ClhParams8bit runs[CLH_MAX_CHANNELS];
  guint work_group_size;
  gsize local_bytes;
  gsize n_counters;
  guint32 *counters;
  ClhWatch *watch;
  GError **error;
} ClhBatchFrame;

ClhBatcher *clh_batcher_new (ClhContext *context, ClhSubmitter *submitter,
    GError **error);
void clh_batcher_free (ClhBatcher *b);
ClhBatcher *clh_batcher_get (ClhContext *context, gboolean create);
gboolean clh_batcher_fits (const ClhBatcher *b, guint work_group_size,
    gsize local_bytes, gsize staging_size);
gboolean clh_batcher_add (ClhBatcher *b, const ClhBatchFrame *frame,
    gboolean *taken, GError **error);
void clh_batcher_launch (ClhBatcher *b);
void clh_batcher_get_stats (ClhBatcher *b, guint64 *n_frames,
    guint64 *n_launches);

G_END_DECLS
