/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The inputs one probe runs.
 *
 * Every input is built before any starts, so that a bad option stops the
 * probe before any line; they start together, and the probe ends once
 * they have all ended (a file's end, a live input's --max-frames, a
 * signal, a failed output).
 *
 * A reload (probe_input_set_update()) compares the inputs of the --inputs
 * file, read again, with the file's inputs the set holds, by name:
 *
 *   added      a name new to the set: its input starts at once
 *   removed    a name the file no longer has: its input stops as a signal
 *              would stop it (probe_input_stop(): EOS, its partial
 *              interval posted); once it has ended, its series leave the
 *              metrics and it is freed
 *   changed    any difference (the uri, any setting): the old input stops
 *              as a removed one does, and the new one, built now, starts
 *              once the old has ended, never beside it, so that a camera
 *              is never opened twice (a V4L2 device takes one reader)
 *   unchanged  the input runs on untouched, or stays ended (a file that
 *              was counted is not counted again), its counters with it
 *
 * A reload compares with what the last one asked for: an input a reload
 * still waits for (the successor of one that has not ended yet) is
 * replaced or dropped by the next, so that SIGHUPs in a row never queue.
 * The command line's inputs are never touched. */
#include "probe-input-set.h"

#include "probe-stop.h"

struct _ProbeInputSet
{
  /* The probe's, whose ended and data are the set's. */
  ProbeInputShared *shared;
  ProbeInputSetEnded all_ended;
  gpointer data;
  /* ProbeInput, in the order given, those added by reloads after them:
   * every input built and not yet freed. */
  GPtrArray *inputs;
  /* The command line's inputs' specs (owned by their inputs, which stay
   * to the end): the names a reload's inputs must not take. */
  GPtrArray *fixed;
  /* ProbeInput stopped by a reload -> the ProbeInput that takes its
   * place once it has ended (built, not started), or NULL. */
  GHashTable *retiring;
  /* ProbeInput whose end the set heard of. */
  GHashTable *ended;
  /* Inputs started that have not ended. */
  guint running;
  /* The output failed: every input ends, no successor starts. */
  gboolean aborted;
  /* An input a reload took out failed (probe_input_conclude()). */
  gboolean failed;
};

static gboolean
stopping (ProbeInputSet *set)
{
  return set->aborted || probe_stop_requested ();
}

static void
start_input (ProbeInputSet *set, ProbeInput *input)
{
  probe_input_add_metrics (input);
  set->running++;
  probe_input_start (input);
}

/* @old, stopped by a reload, has ended: what it failed said now (its
 * --check summary, a file's error), as at the probe's end; its series
 * out of the metrics, and @successor (nullable) in its place. */
static void
retire (ProbeInputSet *set, ProbeInput *old, ProbeInput *successor)
{
  guint i;

  if (!probe_input_conclude (old))
    set->failed = TRUE;
  probe_metrics_remove_input (set->shared->metrics,
      probe_input_get_name (old));
  g_ptr_array_find (set->inputs, old, &i);
  if (successor && !stopping (set)) {
    set->inputs->pdata[i] = successor;
    start_input (set, successor);
  } else {
    g_ptr_array_remove_index (set->inputs, i);
    probe_input_free (successor);
  }
  g_hash_table_remove (set->ended, old);
  probe_input_free (old);
}

/* #ProbeInputShared's ended, on the main loop, from the input's own idle
 * callback, which touches it no more: @input may be freed here. */
static void
on_ended (ProbeInput *input, gpointer data)
{
  ProbeInputSet *set = data;
  gpointer successor;

  g_hash_table_add (set->ended, input);
  /* Its successor starts before it is counted out, so that a change of
   * the last input that runs does not end the probe. */
  if (g_hash_table_steal_extended (set->retiring, input, NULL, &successor))
    retire (set, input, successor);
  if (--set->running == 0)
    set->all_ended (set->data);
}

/**
 * probe_input_set_new:
 * @shared: what the inputs share, alive as long as the set; its ended and
 *   data become the set's
 * @all_ended: called on the main loop once every input has ended
 * @data: for @all_ended
 */
ProbeInputSet *
probe_input_set_new (ProbeInputShared *shared, ProbeInputSetEnded all_ended,
    gpointer data)
{
  ProbeInputSet *set = g_new0 (ProbeInputSet, 1);

  set->shared = shared;
  shared->ended = on_ended;
  shared->data = set;
  set->all_ended = all_ended;
  set->data = data;
  set->inputs = g_ptr_array_new ();
  set->fixed = g_ptr_array_new ();
  set->retiring = g_hash_table_new (NULL, NULL);
  set->ended = g_hash_table_new (NULL, NULL);
  return set;
}

/**
 * probe_input_set_add:
 * @spec: (transfer full): an input, of the command line or the --inputs
 *   file
 *
 * Builds the input (which checks its settings), to start with the others.
 *
 * Returns: %FALSE with @error as probe_input_new() sets it.
 */
gboolean
probe_input_set_add (ProbeInputSet *set, ProbeInputSpec *spec,
    GError **error)
{
  ProbeInput *input = probe_input_new (spec, set->shared, error);

  if (!input)
    return FALSE;
  g_ptr_array_add (set->inputs, input);
  if (!probe_input_get_spec (input)->origin)
    g_ptr_array_add (set->fixed, (gpointer) probe_input_get_spec (input));
  return TRUE;
}

/**
 * probe_input_set_start:
 *
 * Starts every input added, in order. Call it once, on the main loop's
 * thread.
 */
void
probe_input_set_start (ProbeInputSet *set)
{
  guint i;

  set->running = set->inputs->len;
  for (i = 0; i < set->inputs->len; i++)
    probe_input_start (g_ptr_array_index (set->inputs, i));
}

/**
 * probe_input_set_end:
 *
 * The first SIGINT or SIGTERM: every input ends (probe_input_end());
 * an input a reload waits to start never does.
 */
void
probe_input_set_end (ProbeInputSet *set)
{
  guint i;

  for (i = 0; i < set->inputs->len; i++)
    probe_input_end (g_ptr_array_index (set->inputs, i));
}

/**
 * probe_input_set_abort:
 *
 * The output failed: every input ends at once (probe_input_abort()).
 */
void
probe_input_set_abort (ProbeInputSet *set)
{
  guint i;

  set->aborted = TRUE;
  for (i = 0; set->running > 0 && i < set->inputs->len; i++)
    probe_input_abort (g_ptr_array_index (set->inputs, i));
}

/**
 * probe_input_set_get_running:
 *
 * Returns: the inputs started that have not ended.
 */
guint
probe_input_set_get_running (ProbeInputSet *set)
{
  return set->running;
}

/**
 * probe_input_set_get_inputs:
 *
 * Returns: (transfer none) (element-type ProbeInput): every input that
 *   runs, has ended, or is being stopped by a reload; valid until the
 *   main loop runs again.
 */
GPtrArray *
probe_input_set_get_inputs (ProbeInputSet *set)
{
  return set->inputs;
}

/**
 * probe_input_set_get_fixed_specs:
 *
 * Returns: (transfer none) (element-type ProbeInputSpec): the command
 *   line's inputs, whose names a reload's inputs must not take.
 */
GPtrArray *
probe_input_set_get_fixed_specs (ProbeInputSet *set)
{
  return set->fixed;
}

/* A name of the file's, as the set holds it: its input (running, ended,
 * or being stopped by a reload) and what is to run under that name once
 * the reloads so far are done. */
typedef struct
{
  ProbeInput *current;
  gboolean retiring;
  ProbeInput *target;
} Slot;

/* The file's inputs the set holds, by name (a copy: a reload frees the
 * inputs it replaces as it goes). */
static GHashTable *
slots_of (ProbeInputSet *set)
{
  GHashTable *slots = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  guint i;

  for (i = 0; i < set->inputs->len; i++) {
    ProbeInput *input = g_ptr_array_index (set->inputs, i);
    Slot *slot;
    gpointer successor;

    if (!probe_input_get_spec (input)->origin)
      continue;
    slot = g_new0 (Slot, 1);
    slot->current = input;
    slot->retiring = g_hash_table_lookup_extended (set->retiring, input,
        NULL, &successor);
    slot->target = slot->retiring ? successor : input;
    g_hash_table_insert (slots, g_strdup (probe_input_get_name (input)),
        slot);
  }
  return slots;
}

/* Builds an input for each spec of @specs that differs from what its
 * name runs (or is to run): NULL at the index of each that does not.
 * All or nothing: %NULL with @error where one cannot be built. The specs
 * built are taken from @specs. */
static GPtrArray *
build_changes (ProbeInputSet *set, GHashTable *slots, GPtrArray *specs,
    GError **error)
{
  GPtrArray *built = g_ptr_array_new_full (specs->len,
      (GDestroyNotify) probe_input_free);
  guint i;

  for (i = 0; i < specs->len; i++) {
    ProbeInputSpec *spec = g_ptr_array_index (specs, i);
    Slot *slot = g_hash_table_lookup (slots, spec->name);
    ProbeInput *input = NULL;

    if (!slot || !slot->target
        || !probe_inputs_spec_equal (probe_input_get_spec (slot->target),
            spec)) {
      input = probe_input_new (g_steal_pointer (&specs->pdata[i]),
          set->shared, error);
      if (!input) {
        g_ptr_array_unref (built);
        return NULL;
      }
    }
    g_ptr_array_add (built, input);
  }
  return built;
}

/* @current gives way to @successor (nullable): at once where it has
 * ended, else once it has, stopped now. */
static void
replace (ProbeInputSet *set, ProbeInput *current, ProbeInput *successor,
    guint stop_timeout_s)
{
  if (g_hash_table_contains (set->ended, current)) {
    retire (set, current, successor);
    return;
  }
  g_hash_table_insert (set->retiring, current, successor);
  probe_input_stop (current, stop_timeout_s);
}

/* What a reload waits to start under @slot's name becomes @successor
 * (nullable). */
static void
replace_successor (ProbeInputSet *set, Slot *slot, ProbeInput *successor)
{
  probe_input_free (slot->target);
  g_hash_table_insert (set->retiring, slot->current, successor);
}

/* The name of the @i-th spec of the file: a spec that was built is its
 * input's. */
static const gchar *
name_at (GPtrArray *specs, GPtrArray *built, guint i)
{
  const ProbeInputSpec *spec = g_ptr_array_index (specs, i);

  return spec ? spec->name : probe_input_get_name (g_ptr_array_index (built,
          i));
}

static void
note (GPtrArray *names, const gchar *name)
{
  g_ptr_array_add (names, g_strdup (name));
}

/* Whether the name of @slot is on its way out with nothing to follow. */
static gboolean
leaving (const Slot *slot)
{
  return !slot->target;
}

/* What the reload does, by name, before it does any of it. */
static void
classify (GHashTable *slots, GPtrArray *before, GPtrArray *specs,
    GPtrArray *built, GHashTable *kept, ProbeInputChanges *changes)
{
  guint i;

  changes->added = g_ptr_array_new_with_free_func (g_free);
  changes->removed = g_ptr_array_new_with_free_func (g_free);
  changes->changed = g_ptr_array_new_with_free_func (g_free);
  changes->unchanged = g_ptr_array_new_with_free_func (g_free);
  for (i = 0; i < built->len; i++) {
    const gchar *name = name_at (specs, built, i);
    Slot *slot = g_hash_table_lookup (slots, name);

    if (!g_ptr_array_index (built, i))
      note (changes->unchanged, name);
    else if (!slot || leaving (slot))
      note (changes->added, name);
    else
      note (changes->changed, name);
  }
  for (i = 0; i < before->len; i++) {
    const gchar *name = probe_input_get_name (g_ptr_array_index (before, i));
    Slot *slot = g_hash_table_lookup (slots, name);

    if (slot && !leaving (slot) && !g_hash_table_contains (kept, name))
      note (changes->removed, name);
  }
}

/* Each spec's input: started, put in place of its name's, or kept. */
static void
apply_changes (ProbeInputSet *set, GHashTable *slots, GPtrArray *built,
    guint stop_timeout_s)
{
  guint i;

  for (i = 0; i < built->len; i++) {
    ProbeInput *input = g_steal_pointer (&built->pdata[i]);
    Slot *slot;

    if (!input)
      continue;
    slot = g_hash_table_lookup (slots, probe_input_get_name (input));
    if (!slot) {
      g_ptr_array_add (set->inputs, input);
      start_input (set, input);
    } else if (!slot->retiring) {
      replace (set, slot->current, input, stop_timeout_s);
    } else {
      /* Its old input still ends: what follows it changes. */
      replace_successor (set, slot, input);
    }
  }
}

/* The names the file no longer has: their inputs stopped, or dropped
 * where a reload still waits to start them. */
static void
remove_missing (ProbeInputSet *set, GPtrArray *before, GHashTable *slots,
    GHashTable *kept, guint stop_timeout_s)
{
  guint i;

  for (i = 0; i < before->len; i++) {
    Slot *slot = g_hash_table_lookup (slots,
        probe_input_get_name (g_ptr_array_index (before, i)));

    if (!slot || leaving (slot)
        || g_hash_table_contains (kept, probe_input_get_name (slot->current)))
      continue;
    if (slot->retiring)
      replace_successor (set, slot, NULL);
    else
      replace (set, slot->current, NULL, stop_timeout_s);
  }
}

/**
 * probe_input_set_update:
 * @specs: (transfer full) (element-type ProbeInputSpec): the inputs of
 *   the --inputs file, read again (probe_inputs_read())
 * @stop_timeout_s: how long the stream of an input stopped may take to
 *   end before it is stopped at once (--stop-timeout)
 * @announce: called with the names added, removed, changed and
 *   unchanged once the reload is sure to be done, before any input
 *   starts or stops: what it says comes before their lines
 * @data: for @announce
 *
 * A reload: the file's inputs become @specs, as the file's top comment
 * says. Call it on the main loop, while inputs run and no signal asked
 * them to end.
 *
 * Returns: %FALSE with @error, and nothing changed, where an input added
 *   or changed cannot be built: a bad setting (#G_OPTION_ERROR, naming
 *   the file, the group and the key) or a missing element.
 */
gboolean
probe_input_set_update (ProbeInputSet *set, GPtrArray *specs,
    guint stop_timeout_s, ProbeInputChangesFunc announce, gpointer data,
    GError **error)
{
  GHashTable *slots = slots_of (set);
  GPtrArray *built = build_changes (set, slots, specs, error);
  GHashTable *kept;
  GPtrArray *before;
  ProbeInputChanges changes;
  guint i;

  if (!built) {
    g_hash_table_unref (slots);
    g_ptr_array_unref (specs);
    return FALSE;
  }
  kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (i = 0; i < specs->len; i++)
    g_hash_table_add (kept, g_strdup (name_at (specs, built, i)));
  /* The inputs as they were: replacing one changes set->inputs. */
  before = g_ptr_array_copy (set->inputs, NULL, NULL);
  classify (slots, before, specs, built, kept, &changes);
  announce (&changes, data);
  g_ptr_array_unref (changes.added);
  g_ptr_array_unref (changes.removed);
  g_ptr_array_unref (changes.changed);
  g_ptr_array_unref (changes.unchanged);
  remove_missing (set, before, slots, kept, stop_timeout_s);
  apply_changes (set, slots, built, stop_timeout_s);
  g_ptr_array_unref (before);
  g_ptr_array_unref (built);
  g_hash_table_unref (kept);
  g_hash_table_unref (slots);
  g_ptr_array_unref (specs);
  return TRUE;
}

/**
 * probe_input_set_conclude:
 *
 * Says on stderr, once every input has ended, what failed
 * (probe_input_conclude()).
 *
 * Returns: %FALSE if an input failed, one a reload took out included.
 */
gboolean
probe_input_set_conclude (ProbeInputSet *set)
{
  gboolean ok = !set->failed;
  guint i;

  for (i = 0; i < set->inputs->len; i++)
    if (!probe_input_conclude (g_ptr_array_index (set->inputs, i)))
      ok = FALSE;
  return ok;
}

/**
 * probe_input_set_free:
 * @set: (nullable) (transfer full):
 *
 * Frees every input, and those a reload waited to start.
 */
void
probe_input_set_free (ProbeInputSet *set)
{
  GHashTableIter iter;
  gpointer successor;
  guint i;

  if (!set)
    return;
  g_hash_table_iter_init (&iter, set->retiring);
  while (g_hash_table_iter_next (&iter, NULL, &successor))
    probe_input_free (successor);
  for (i = 0; i < set->inputs->len; i++)
    probe_input_free (g_ptr_array_index (set->inputs, i));
  g_ptr_array_unref (set->inputs);
  g_ptr_array_unref (set->fixed);
  g_hash_table_unref (set->retiring);
  g_hash_table_unref (set->ended);
  g_free (set);
}
