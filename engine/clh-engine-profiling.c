/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Profiling: the engine's queues made with CL_QUEUE_PROFILING_ENABLE, each
 * command's event sorted by phase (clh-engine-queues.c) and summed when its
 * frame is collected. */
#include "clh-engine-private.h"

/**
 * clh_engine_set_profiling:
 * @engine: an engine with no frame pending
 * @profiling: whether to time each histogram's commands
 * @error: %CLH_ENGINE_ERROR_OPENCL if the queues cannot be recreated
 *
 * Recreates the command queues with or without
 * %CL_QUEUE_PROFILING_ENABLE. With profiling on, clh_engine_get_timings()
 * says where the last collected histogram's device time went; it costs an
 * event per command.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_engine_set_profiling (ClhEngine *engine, gboolean profiling,
    GError **error)
{
  guint i;

  g_return_val_if_fail (engine->n_pending == 0, FALSE);
  if (!clh_queues_create (&engine->q, profiling,
          engine->q.upload_queue != NULL, error))
    return FALSE;
  engine->have_timings = FALSE;
  for (i = 0; i < engine->n_slots; i++)
    if (profiling && !engine->slots[i].events)
      engine->slots[i].events = g_array_new (FALSE, TRUE,
          sizeof (ClhPhaseEvent));
  return TRUE;
}

/**
 * clh_engine_get_timings:
 * @engine: an engine with profiling on
 * @timings: (out): the last successful histogram's device times
 *
 * Returns: %FALSE if profiling is off or no histogram has been timed
 */
gboolean
clh_engine_get_timings (const ClhEngine *engine, ClhTimings *timings)
{
  if (!engine->have_timings)
    return FALSE;
  *timings = engine->timings;
  return TRUE;
}
