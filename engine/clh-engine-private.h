/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The engine's state (clh-engine.c: lifecycle and the ring of frames in
 * flight), for the engine's top files: clh-engine.c, clh-engine-tuning.c
 * (what benchmarks and tests change) and clh-engine-profiling.c. The files
 * below them (transfer, dispatch, regions, host counting, queues) take the
 * narrow state they need and never see this struct. */
#pragma once

#include "clh-engine-host.h"
#include "clh-engine-regions.h"
#include "clh-engine-transfer.h"

G_BEGIN_DECLS

struct _ClhEngine {
  /* The queues and the frame being enqueued; the kernels and their launch
   * configuration; how frames reach the device. */
  ClhQueues q;
  ClhDispatch dispatch;
  ClhTransferPlan plan;
  /* Which frames the host CPU counts (clh-engine-host.c). */
  ClhCounting counting;
  /* Frames submitted until @shared_until (monotonic us), while other
   * engines submit too, go through q.submitter; and what its slots'
   * watches signal. */
  ClhSubmission submission;
  /* clh_engine_set_handover(): frames are waited for on another thread
   * than the one submitting them. */
  gboolean handover;
  gint64 shared_until;
  GMutex wait_lock;
  GCond wait_cond;

  /* The ring: pending frames are slots head .. head + n_pending - 1. */
  ClhSlot *slots;
  guint n_slots;
  guint head;
  guint n_pending;

  /* With profiling on, the last collected frame's timings. */
  ClhTimings timings;
  gboolean have_timings;
};

/* clh-engine.c */
void clh_engine_settle (const ClhEngine *engine);

G_END_DECLS
