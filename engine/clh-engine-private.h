/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the engine's sources share: the engine's state, one frame's slot in
 * the ring of frames in flight, and the functions each job offers the
 * others. clh-engine.c: lifecycle and the ring; clh-engine-transfer.c: how
 * a frame reaches the device; clh-engine-dispatch.c: kernel arguments and
 * launches; clh-engine-tuning.c: what benchmarks and tests change, and
 * profiling. */
#pragma once

#include "clh-batch.h"
#include "clh-context-private.h"
#include "clh-engine-tuning.h"

G_BEGIN_DECLS

/* The variant the engine uses unless asked otherwise: the fastest measured
 * (docs/performance.md). */
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

struct _ClhEngine {
  ClhContext *ctx;
  const ClhDeviceInfo *device;
  /* Counting and readback; and, with frames in flight on a device that
   * copies, uploads, so that frame N + 1's upload overlaps frame N's
   * counting (NULL: uploads go to queue). */
  cl_command_queue queue;
  cl_command_queue upload_queue;
  cl_kernel kernels[CLH_N_KERNELS];
  ClhDeviceLimits limits[CLH_N_KERNELS];
  ClhModelMemo memo[CLH_N_KERNELS];

  /* What the caller fixed of the launch configuration, and what the last
   * counting launch used. */
  ClhLaunch requested;
  ClhLaunch last_launch;
  ClhTransfer transfer;
  gsize staging_limit;
  /* Pixels a region's work-group aims at; 0: the default. wide_only: no
   * 16-bit counters. */
  guint region_pixels;
  gboolean wide_only;
  /* Which frames the host CPU counts (clh-engine-host.c). */
  ClhCounting counting;
  /* The device's submission thread when the engine uses the context's
   * shared queues (the default; not with profiling), else NULL: frames
   * submitted until @shared_until (monotonic us), while other engines
   * submit too, go through it; and what its slots' watches signal. */
  ClhSubmitter *submitter;
  ClhSubmission submission;
  gint64 shared_until;
  GMutex wait_lock;
  GCond wait_cond;

  /* clh_engine_alloc_host() blocks (ClhHostBlock). */
  GPtrArray *host_blocks;

  /* The ring: pending frames are slots head .. head + n_pending - 1. */
  ClhSlot *slots;
  guint n_slots;
  guint head;
  guint n_pending;
  /* While a frame is being enqueued: its slot, the counters its first
   * launch clears in the next slot, and the upload its next launch waits
   * for (two queues only). */
  ClhSlot *slot;
  gsize zero_next;
  cl_event upload_done;

  /* With profiling on, the last collected frame's timings. */
  gboolean profiling;
  ClhTimings timings;
  gboolean have_timings;
};

/* clh-engine.c */
ClhSlot *clh_engine_next_slot (ClhEngine *engine);
void clh_engine_settle (const ClhEngine *engine);
gboolean clh_engine_flush (ClhEngine *engine, cl_command_queue queue,
    GError **error);
gboolean clh_engine_create_queues (ClhEngine *engine, gboolean profiling,
    gboolean two, GError **error);
gboolean clh_engine_prepare_counters (ClhEngine *engine, gsize n_counters,
    GError **error);
gboolean clh_engine_prepare_host_counters (ClhEngine *engine,
    gsize n_counters, GError **error);

/* clh-engine-host.c */
gboolean clh_engine_counts_on_host (const ClhEngine *engine,
    const ClhFrame *frame, const ClhHistogramSpec *spec);
gboolean clh_engine_count_on_host (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, GError **error);

/* clh-engine-transfer.c */
gboolean clh_engine_count_frame (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhHostBlock *block, GError **error);
void clh_engine_give_back (ClhEngine *engine, ClhSlot *slot);
gboolean clh_engine_batch_frame (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, ClhBatchFrame *f);
gboolean clh_engine_prestage (ClhEngine *engine, ClhSlot *slot,
    const ClhFrame *frame, const ClhHistogramSpec *spec,
    const ClhHostBlock **block, ClhFrame *staged, GError **error);

/* clh-engine-regions.c */
gboolean clh_engine_check_regions (const ClhHistogramSpec *spec,
    gboolean full_frame, guint n_regions, GError **error);
gboolean clh_engine_prepare_regions (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, gboolean full_frame, const ClhRect *regions,
    guint n_regions, GError **error);
void clh_engine_clear_regions (ClhSlot *slot);
void clh_engine_split_histograms (const ClhSlot *slot,
    ClhHistogram *histograms);

/* clh-engine-dispatch.c */
gboolean clh_engine_create_kernels (ClhEngine *engine, GError **error);
gsize clh_engine_extra_local_bytes (ClhKernelId id, guint n_channels);
gboolean clh_engine_count_band (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, GError **error);
gboolean clh_engine_batch_runs (ClhEngine *engine, const ClhFrame *frame,
    const ClhHistogramSpec *spec, const ClhBand *band, ClhBatchFrame *f);

/* clh-engine-tuning.c: profiling */
cl_event *clh_engine_want_event (ClhEngine *engine, cl_event *tmp,
    cl_event *keep);
void clh_engine_note_event (ClhEngine *engine, ClhPhase phase,
    cl_event event, cl_event *keep);
void clh_engine_release_events (ClhSlot *slot);
void clh_engine_collect_timings (ClhEngine *engine, const ClhSlot *slot);

G_END_DECLS
