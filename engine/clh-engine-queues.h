/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where a frame's commands go (clh-engine-queues.c): its slot in the ring
 * of frames in flight, the command queues, the slot's counters and, with
 * profiling, each command's event. The narrow state that transfer,
 * dispatch, regions and host counting share, without the engine. */
#pragma once

#include "clh-batch.h"
#include "clh-context-private.h"
#include "clh-engine.h"
#include "clh-engine-profiling.h"

G_BEGIN_DECLS

/* Which part of a frame's device time a profiled command is. */
typedef enum {
  CLH_PHASE_UPLOAD,
  CLH_PHASE_KERNEL,
  CLH_PHASE_READBACK,
} ClhPhase;

typedef struct {
  cl_event event;
  ClhPhase phase;
} ClhPhaseEvent;

/* A frame posted to the submission thread (clh-engine.c): the job, and
 * copies of what the caller passed, since the caller returns before the
 * thread enqueues it; the error enqueueing it failed with, if it did. */
typedef struct {
  ClhJob job;
  ClhEngine *engine;
  ClhFrame frame;
  ClhHistogramSpec spec;
  gboolean full_frame;
  ClhRect *regions;
  guint n_regions;
  guint regions_size;
  const ClhHostBlock *block;
  GError *error;
} ClhPosted;

/* One frame in flight: its counters on the device and in pinned host
 * memory, its band of rows on the device, and what the host needs to
 * finish it. The engine keeps max_in_flight + 1 slots in a ring, so the
 * slot after the newest frame's is always free: that frame's first launch
 * clears the free slot's counters, and the next frame needs no clear
 * command. */
typedef struct {
  /* n_counters counters on the device, and their copy in host memory;
   * dirty: how many of the first may be non-zero. */
  cl_mem counters;
  gsize n_counters;
  gsize dirty;
  ClhHostBlock *readback;
  /* The device buffer bands of copied frames go to. */
  cl_mem staging;
  gsize staging_size;
  /* Pinned host memory a frame in ordinary memory is first copied into
   * (clh-engine-transfer.c); free again once the frame is collected. */
  ClhHostBlock *stage;

  /* The pending frame: its readback's event, the engine block lent to the
   * device for it, the buffer wrapped around its host memory, its shape
   * and samples, and with profiling its commands' events. */
  cl_event done;
  /* clh_engine_wait_counted() waited on @done already, with this result:
   * collecting takes it instead of waiting again (one driver wait a
   * frame). */
  gboolean waited;
  cl_int wait_status;
  ClhHostBlock *lent;
  cl_mem wrapped;
  guint n_channels;
  guint n_bins;
  GArray *events;

  /* Its histograms: the whole frame's first if full_frame, then one per
   * region, each n_channels * (n_bins + 2) counters; samples: each one's
   * CLH_MAX_CHANNELS sample counts. They take the first n_counters_used
   * 32-bit counters, the narrow regions' 16-bit counters from narrow_base
   * (the region table says where each histogram's are). */
  gboolean full_frame;
  guint n_histograms;
  guint64 *samples;
  gsize narrow_base;
  gsize n_counters_used;
  /* Its region table (ClhRegion entries, then each work-group's entry),
   * built on the host; table_groups: the work-groups its regions take in a
   * launch, 0 when no region has pixels. table_host, pinned, holds what was
   * last written to table_mem, table_uploaded bytes (0: unknown). */
  GArray *table;
  guint n_table_regions;
  guint table_groups;
  cl_mem table_mem;
  ClhHostBlock *table_host;
  gsize table_mem_size;
  gsize table_uploaded;

  /* Counted by the host CPU (clh-engine-host.c): its counters are all
   * 32-bit and already in @readback; nothing of it is on the device. */
  gboolean on_host;
  /* Posted to the submission thread, which tells @watch once @done is
   * complete, or once enqueueing it failed (@posted's error). */
  gboolean watched;
  ClhWatch watch;
  ClhPosted posted;
} ClhSlot;

/* One band of frame rows and where each plane's rows of it lie in @mem:
 * the slot's staging buffer, or host memory read in place. */
typedef struct {
  cl_mem mem;
  guint y0;
  guint rows;
  guint row0[CLH_MAX_PLANES];
  guint n_rows[CLH_MAX_PLANES];
  gsize base[CLH_MAX_PLANES];
  gsize size;
} ClhBand;

/* The engine's command queues and the frame being enqueued. */
typedef struct {
  ClhContext *ctx;
  const ClhDeviceInfo *device;
  /* Counting and readback; and, with frames in flight on a device that
   * copies, uploads, so that frame N + 1's upload overlaps frame N's
   * counting (NULL: uploads go to queue). */
  cl_command_queue queue;
  cl_command_queue upload_queue;
  /* The device's submission thread when the queues are the context's
   * shared ones (not with profiling), else NULL. */
  ClhSubmitter *submitter;
  gboolean profiling;
  /* While a frame is being enqueued: its slot and the slot after it in the
   * ring, the counters its first launch clears in that next slot, and the
   * upload its next launch waits for (two queues only). */
  ClhSlot *slot;
  ClhSlot *next;
  gsize zero_next;
  cl_event upload_done;
} ClhQueues;

gboolean clh_queues_create (ClhQueues *q, gboolean profiling, gboolean two,
    GError **error);
void clh_queues_clear (ClhQueues *q);
gboolean clh_queues_flush (ClhQueues *q, cl_command_queue queue,
    GError **error);
gboolean clh_queues_prepare_counters (ClhQueues *q, gsize n_counters,
    GError **error);
gboolean clh_queues_prepare_host_counters (ClhQueues *q, gsize n_counters,
    GError **error);
cl_event *clh_queues_want_event (const ClhQueues *q, cl_event *tmp,
    cl_event *keep);
void clh_queues_note_event (ClhQueues *q, ClhPhase phase, cl_event event,
    cl_event *keep);
void clh_slot_release_events (ClhSlot *slot);
gboolean clh_slot_sum_timings (const ClhSlot *slot, ClhTimings *timings);

G_END_DECLS
