/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What benchmarks and tests change of the engine, and engine-owned host
 * memory. */
#include "clh-engine-private.h"
#include "clh-engine-tuning.h"

#include <string.h>

/**
 * clh_engine_alloc_host:
 * @engine: an engine
 * @size: bytes
 * @error: %CLH_ENGINE_ERROR_OPENCL if the driver cannot allocate it
 *
 * Allocates a clh_context_alloc_host() block the engine remembers, so that
 * frames placed in it need no block passed to clh_engine_submit(). With
 * %CLH_TRANSFER_IN_PLACE a GPU's kernels read such frames across the bus
 * where they lie: the block is unmapped for them and mapped again, at the
 * same address, before the frame is collected. Frames in it must not be
 * written until then.
 *
 * Returns: (transfer full) (nullable): the memory, freed with
 *   clh_engine_free_host(), or %NULL on error
 */
gpointer
clh_engine_alloc_host (ClhEngine *engine, gsize size, GError **error)
{
  ClhHostBlock *block = clh_context_alloc_host (engine->q.ctx, size, error);

  if (!block)
    return NULL;
  clh_engine_settle (engine);
  g_ptr_array_add (engine->plan.host_blocks, block);
  return clh_host_block_get_data (block);
}

/**
 * clh_engine_free_host:
 * @engine: the engine that allocated @memory
 * @memory: (transfer full) (nullable): from clh_engine_alloc_host(), with
 *   no frame pending in it
 */
void
clh_engine_free_host (ClhEngine *engine, gpointer memory)
{
  guint i;

  clh_engine_settle (engine);
  for (i = 0; memory && i < engine->plan.host_blocks->len; i++) {
    if (clh_host_block_get_data (engine->plan.host_blocks->pdata[i])
        == memory) {
      g_ptr_array_remove_index_fast (engine->plan.host_blocks, i);
      return;
    }
  }
  g_return_if_fail (memory == NULL);
}

/**
 * clh_engine_set_transfer:
 * @engine: an engine
 * @transfer: how frames reach the device; %CLH_TRANSFER_AUTO by default
 */
void
clh_engine_set_transfer (ClhEngine *engine, ClhTransfer transfer)
{
  clh_engine_settle (engine);
  engine->plan.transfer = transfer;
}

/**
 * clh_engine_set_counting:
 * @engine: an engine
 * @counting: who counts frames submitted from now on; %CLH_COUNTING_AUTO
 *   by default
 */
void
clh_engine_set_counting (ClhEngine *engine, ClhCounting counting)
{
  engine->counting = counting;
}

/**
 * clh_engine_next_counts_on_host:
 * @engine: an engine
 *
 * For tests, which check that both paths were taken.
 *
 * Returns: %TRUE if the oldest pending frame was counted by the host CPU
 */
gboolean
clh_engine_next_counts_on_host (const ClhEngine *engine)
{
  clh_engine_settle (engine);
  return engine->n_pending > 0 && engine->slots[engine->head].on_host;
}

/**
 * clh_engine_set_submission:
 * @engine: an engine
 * @submission: which thread submits frames from now on;
 *   %CLH_SUBMISSION_AUTO by default
 */
void
clh_engine_set_submission (ClhEngine *engine, ClhSubmission submission)
{
  engine->submission = submission;
}

typedef struct {
  ClhContext *ctx;
  guint64 n_frames;
  guint64 n_launches;
} BatchStats;

static gboolean
read_batch_stats (gpointer data, GError **error)
{
  BatchStats *st = data;
  ClhBatcher *b = clh_batcher_get (st->ctx, FALSE);

  if (b)
    clh_batcher_get_stats (b, &st->n_frames, &st->n_launches);
  return TRUE;
}

/**
 * clh_engine_get_batch_stats:
 * @engine: an engine
 * @n_frames: (out): frames of the engine's device counted in batched
 *   launches so far, by every engine of its context
 * @n_launches: (out): those launches
 *
 * For tests and benchmarks: how far the device's batcher gathered frames.
 * Zeros for an engine without the submission thread (with profiling).
 */
void
clh_engine_get_batch_stats (ClhEngine *engine, guint64 *n_frames,
    guint64 *n_launches)
{
  BatchStats st = { engine->q.ctx, 0, 0 };

  if (engine->q.submitter)
    clh_submitter_run (engine->q.submitter, read_batch_stats, &st, NULL);
  *n_frames = st.n_frames;
  *n_launches = st.n_launches;
}

/**
 * clh_engine_set_launch:
 * @engine: an engine
 * @launch: (nullable): the variant and what to fix of its configuration
 *   (zeros and a padding of -1 are left to the model); %NULL: the default
 *
 * The counting kernels' strategy and launch configuration. Where a fixed
 * configuration exceeds the device's limits the launch fails with
 * %CLH_ENGINE_ERROR_OPENCL.
 */
void
clh_engine_set_launch (ClhEngine *engine, const ClhLaunch *launch)
{
  static const ClhLaunch automatic = { CLH_VARIANT_AUTO, 0, 0, 0, -1 };

  clh_engine_settle (engine);
  engine->dispatch.requested = launch ? *launch : automatic;
}

/**
 * clh_engine_get_last_launch:
 * @engine: an engine
 * @launch: (out): the configuration of the last counting launch of the
 *   engine's own; frames counted in a batched launch with other streams'
 *   (engine/runtime/clh-batch.c) leave it as it was
 *
 * Returns: %FALSE if nothing was launched yet
 */
gboolean
clh_engine_get_last_launch (const ClhEngine *engine, ClhLaunch *launch)
{
  clh_engine_settle (engine);
  *launch = engine->dispatch.last_launch;
  return engine->dispatch.last_launch.work_group_size != 0;
}

/**
 * clh_engine_get_device_limits:
 * @engine: an engine
 *
 * Returns: (transfer none): what the launch model knows of the device, for
 *   the 8-bit kernel
 */
const ClhDeviceLimits *
clh_engine_get_device_limits (const ClhEngine *engine)
{
  return &engine->dispatch.limits[CLH_KERNEL_8BIT];
}

/**
 * clh_engine_model_launch:
 * @engine: an engine
 * @n_channels: channels counted in one pass, 1..4
 * @bins: bins per channel, 1..256
 * @launch: (inout): as for clh_launch_model(); %CLH_VARIANT_AUTO is the
 *   engine's default variant
 *
 * The paper's model for the 8-bit kernel on this device, with the local
 * memory that kernel takes besides its copies: what the engine starts
 * from before it picks its own L.
 */
void
clh_engine_model_launch (const ClhEngine *engine, guint n_channels,
    guint bins, ClhLaunch *launch)
{
  clh_launch_model (&engine->dispatch.limits[CLH_KERNEL_8BIT],
      launch->variant == CLH_VARIANT_AUTO ? CLH_DEFAULT_VARIANT :
      launch->variant, n_channels * bins,
      clh_dispatch_extra_local_bytes (CLH_KERNEL_8BIT, n_channels), launch);
}

/**
 * clh_engine_set_staging_limit:
 * @engine: an engine
 * @bytes: most bytes of a frame to hold on the device at once; at least one
 *   row is always held
 *
 * Frames larger than this are uploaded and counted in bands of rows. The
 * default is 64 MiB, or the device's largest allocation if smaller.
 */
void
clh_engine_set_staging_limit (ClhEngine *engine, gsize bytes)
{
  clh_engine_settle (engine);
  engine->plan.staging_limit = MIN (MAX (bytes, 1),
      MIN (clh_context_get_max_host_block (engine->q.ctx), G_MAXINT32));
}

/**
 * clh_engine_set_region_pixels_per_group:
 * @engine: an engine
 * @pixels: pixels of a region each of its work-groups aims at (a region
 *   gets `ceil (pixels_in_region / @pixels)` groups, at most one per
 *   compute unit); 0: the default, 4096
 *
 * For the region benchmark's sweep, and for tests: a region of one
 * work-group and at most 65535 samples per channel is counted into 16-bit
 * counters, others into 32-bit ones.
 */
void
clh_engine_set_region_pixels_per_group (ClhEngine *engine, guint pixels)
{
  clh_engine_settle (engine);
  engine->dispatch.region_pixels = pixels;
}

/**
 * clh_engine_set_narrow_counters:
 * @engine: an engine
 * @narrow: whether regions that may have 16-bit counters get them (the
 *   default, %TRUE); %FALSE: every histogram has 32-bit counters
 *
 * For benchmarks and tests, which compare the two.
 */
void
clh_engine_set_narrow_counters (ClhEngine *engine, gboolean narrow)
{
  clh_engine_settle (engine);
  engine->dispatch.wide_only = !narrow;
}
