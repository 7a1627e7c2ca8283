/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:gstclcontext
 * @title: GstClContext
 * @short_description: sharing one OpenCL device context between elements
 *
 * A #GstContext of type %GST_CL_CONTEXT_TYPE (persistent) carries a
 * #ClhContext in its structure's `context` field (a
 * %GST_TYPE_CL_CONTEXT_HANDLE, which serialises as the device's quoted name,
 * so that `gst-launch-1.0 -v` shows which device it is), the device's
 * name in `device-name`, for people reading it, and its `"P:D"` numbers in
 * `device`, which tell two devices of one name (two identical GPUs) apart.
 * Elements find it with the usual dance (see
 * gst_cl_ensure_element_context()), so that every element on a device uses
 * one cl_context and one compiled program, each with its own queues.
 *
 * Beyond the pipeline, a process-wide registry remembers the contexts it
 * made while anything still holds them, so that elements of different
 * pipelines share a device too.
 *
 * With `device=auto` on a host with several devices of the type auto
 * prefers (several GPUs), an element that finds no context on its linked
 * peers, nor one set by the application, takes the least loaded of them:
 * the one whose registry context has the fewest engines and trackers (none
 * for a device without one; the first on a tie). Elements linked to it
 * share its device through the context query; its context is not
 * announced with %GST_MESSAGE_HAVE_CONTEXT, which would have the bin hand
 * that one device to every element after it.
 */
#include "gstclbasecontext.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_context_debug);
#define GST_CAT_DEFAULT gst_cl_context_debug

/* The registry: the contexts it made, each with the number of handles
 * (boxed copies: GstContext structures, elements, allocators) that hold it.
 * The registry's own reference goes with the last handle, so an entry is
 * weak: it never keeps a device open that nothing uses. Handles and entries
 * change only under the lock, so a lookup never revives a dying context. */
typedef struct {
  ClhContext *context;
  guint handles;
} RegistryEntry;

static GMutex registry_lock;
static GArray *registry;

static void
init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_context_debug, "clcontext", 0,
        "OpenCL context sharing");
    g_once_init_leave (&done, 1);
  }
}

/* The index of @context's entry, or -1; called with the registry lock
 * held. */
static gint
registry_find (const ClhContext *context)
{
  guint i;

  for (i = 0; registry && i < registry->len; i++)
    if (g_array_index (registry, RegistryEntry, i).context == context)
      return i;
  return -1;
}

/**
 * gst_cl_context_handle_ref:
 * @handle: a context
 *
 * Takes a reference, counted by the registry if it made @handle.
 *
 * Returns: (transfer full): @handle
 */
GstClContextHandle *
gst_cl_context_handle_ref (GstClContextHandle *handle)
{
  gint i;

  g_mutex_lock (&registry_lock);
  i = registry_find (handle);
  if (i >= 0)
    g_array_index (registry, RegistryEntry, i).handles++;
  g_mutex_unlock (&registry_lock);
  return clh_context_ref (handle);
}

/**
 * gst_cl_context_handle_unref:
 * @handle: (transfer full): a context
 *
 * Drops a reference; the last handle of a registry context also drops the
 * registry's.
 */
void
gst_cl_context_handle_unref (GstClContextHandle *handle)
{
  gboolean last = FALSE;
  gint i;

  init_debug ();
  g_mutex_lock (&registry_lock);
  i = registry_find (handle);
  if (i >= 0 && --g_array_index (registry, RegistryEntry, i).handles == 0) {
    g_array_remove_index_fast (registry, i);
    last = TRUE;
  }
  g_mutex_unlock (&registry_lock);

  if (last) {
    GST_DEBUG ("last user of %s gone: registry lets go",
        clh_context_get_device_name (handle));
    clh_context_unref (handle);
  }
  clh_context_unref (handle);
}

/* The handle as gst_structure_to_string() shows it (gst-launch-1.0 -v and
 * -m print contexts so): the device's name, quoted, rather than the NULL
 * GStreamer writes for a boxed type it cannot serialise. */
static gchar *
handle_serialize (const GValue *value)
{
  const GstClContextHandle *handle = g_value_get_boxed (value);
  gchar *escaped, *text;

  if (!handle)
    return g_strdup ("NULL");
  escaped = g_strescape (clh_context_get_device_name (handle), NULL);
  text = g_strdup_printf ("\"%s\"", escaped);
  g_free (escaped);
  return text;
}

/* A name does not make a device context: only the handle itself can be
 * shared. */
static gboolean
handle_deserialize (GValue *value, const gchar *text)
{
  return FALSE;
}

static gint
handle_compare (const GValue *a, const GValue *b)
{
  return g_value_get_boxed (a) == g_value_get_boxed (b) ? GST_VALUE_EQUAL :
      GST_VALUE_UNORDERED;
}

static void
register_handle_value (GType type)
{
  static GstValueTable table = {
    G_TYPE_NONE, handle_compare, handle_serialize, handle_deserialize,
    NULL, {NULL}
  };

  table.type = type;
  gst_value_register (&table);
}

G_DEFINE_BOXED_TYPE_WITH_CODE (GstClContextHandle, gst_cl_context_handle,
    gst_cl_context_handle_ref, gst_cl_context_handle_unref,
    register_handle_value (g_define_type_id));

/* A context for @device_spec from the registry, made and registered if it
 * has none. Creation happens under the lock, so that elements starting
 * together on one device compile its kernels once. */
static ClhContext *
registry_obtain (const gchar *device_spec, gboolean *created,
    GError **error)
{
  RegistryEntry entry = { NULL, 1 };
  guint i;

  g_mutex_lock (&registry_lock);
  *created = FALSE;
  for (i = 0; registry && i < registry->len; i++) {
    RegistryEntry *e = &g_array_index (registry, RegistryEntry, i);

    if (clh_context_matches (e->context, device_spec)) {
      e->handles++;
      entry.context = clh_context_ref (e->context);
      goto done;
    }
  }

  entry.context = clh_context_new (device_spec, error);
  if (entry.context) {
    if (!registry)
      registry = g_array_new (FALSE, FALSE, sizeof (RegistryEntry));
    g_array_append_val (registry, entry);
    /* One reference for the registry, one for the handle returned. */
    clh_context_ref (entry.context);
    *created = TRUE;
  }
done:
  g_mutex_unlock (&registry_lock);
  return entry.context;
}

/* With device "auto" and several devices for it: the "P:D" of the least
 * loaded one, by the registry's contexts; else NULL. */
static gchar *
least_loaded_auto (const gchar *device_spec)
{
  ClhContext **contexts;
  gchar *spec;
  guint i, n;

  g_mutex_lock (&registry_lock);
  n = registry ? registry->len : 0;
  contexts = g_new (ClhContext *, MAX (n, 1));
  for (i = 0; i < n; i++)
    contexts[i] = g_array_index (registry, RegistryEntry, i).context;
  spec = clh_context_least_loaded_auto (device_spec, contexts, n);
  g_mutex_unlock (&registry_lock);
  g_free (contexts);
  return spec;
}

/**
 * gst_context_new_cl_context:
 * @context: a device context
 *
 * Returns: (transfer full): a new persistent #GstContext of type
 *   %GST_CL_CONTEXT_TYPE holding @context
 */
GstContext *
gst_context_new_cl_context (ClhContext *context)
{
  GstContext *gst_context = gst_context_new (GST_CL_CONTEXT_TYPE, TRUE);
  gchar *spec = clh_context_get_device_spec (context);

  gst_structure_set (gst_context_writable_structure (gst_context),
      "context", GST_TYPE_CL_CONTEXT_HANDLE, context,
      "device-name", G_TYPE_STRING, clh_context_get_device_name (context),
      "device", G_TYPE_STRING, spec, NULL);
  g_free (spec);
  return gst_context;
}

/**
 * gst_context_get_cl_context:
 * @context: a #GstContext
 *
 * Returns: (transfer full) (nullable): the device context @context holds,
 *   or %NULL if it is of another type or holds none
 */
ClhContext *
gst_context_get_cl_context (GstContext *context)
{
  const GstStructure *s;
  ClhContext *handle = NULL;

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CL_CONTEXT_TYPE) != 0)
    return NULL;
  s = gst_context_get_structure (context);
  if (!gst_structure_get (s, "context", GST_TYPE_CL_CONTEXT_HANDLE, &handle,
          NULL))
    return NULL;
  return handle;
}

/* Whether the element holds a context (one may arrive from any thread). */
static gboolean
has_context (GstElement *element, ClhContext **context_ptr)
{
  gboolean has;

  GST_OBJECT_LOCK (element);
  has = *context_ptr != NULL;
  GST_OBJECT_UNLOCK (element);
  return has;
}

/* Whether @element takes @context's device context: if it has none yet
 * and the context is on the device @device_spec selects. */
static gboolean
take_context (GstElement *element, GstContext *context,
    const gchar *device_spec, ClhContext **context_ptr)
{
  ClhContext *offered = gst_context_get_cl_context (context);
  gboolean taken = FALSE, have_one;

  init_debug ();
  if (!offered)
    return FALSE;

  /* Matching asks the driver for its devices: not under the lock. */
  have_one = has_context (element, context_ptr);
  if (!have_one && clh_context_matches (offered, device_spec)) {
    GST_OBJECT_LOCK (element);
    have_one = *context_ptr != NULL;
    if (!have_one) {
      *context_ptr = gst_cl_context_handle_ref (offered);
      taken = TRUE;
    }
    GST_OBJECT_UNLOCK (element);
  }

  GST_DEBUG_OBJECT (element, "%s context on %s", taken ? "took" : have_one ?
      "have one: ignored" : "another device: ignored",
      clh_context_get_device_name (offered));
  gst_cl_context_handle_unref (offered);
  return taken;
}

/**
 * gst_cl_handle_set_context:
 * @element: the element
 * @context: the #GstContext given to it
 * @device: the element's `device` property, read under its object lock
 * @context_ptr: (inout): the element's context, under its object lock
 *
 * For an element's #GstElementClass.set_context: takes a
 * %GST_CL_CONTEXT_TYPE context's device context if the element has none
 * yet and it is on the device @device selects. Elements on different
 * devices do not share; one on another device, or while the element has
 * one, is not its to keep: gst_element_get_context() tells what it uses.
 *
 * Returns: %TRUE to chain up, so that the element stores @context: a
 *   context of another type, or one taken
 */
gboolean
gst_cl_handle_set_context (GstElement *element, GstContext *context,
    gchar *const *device, ClhContext **context_ptr)
{
  gchar *device_spec;
  gboolean taken;

  if (g_strcmp0 (gst_context_get_context_type (context),
          GST_CL_CONTEXT_TYPE) != 0)
    return TRUE;
  GST_OBJECT_LOCK (element);
  device_spec = g_strdup (*device);
  GST_OBJECT_UNLOCK (element);
  taken = take_context (element, context, device_spec, context_ptr);
  g_free (device_spec);
  return taken;
}

/**
 * gst_cl_handle_context_query:
 * @element: the element
 * @query: a %GST_QUERY_CONTEXT
 * @context: (nullable): the element's device context
 *
 * Answers a context query of type %GST_CL_CONTEXT_TYPE with @context.
 *
 * Returns: %TRUE if @query was answered
 */
gboolean
gst_cl_handle_context_query (GstElement *element, GstQuery *query,
    ClhContext *context)
{
  const gchar *type;
  GstContext *answer;

  if (!context || !gst_query_parse_context_type (query, &type)
      || g_strcmp0 (type, GST_CL_CONTEXT_TYPE) != 0)
    return FALSE;

  answer = gst_context_new_cl_context (context);
  gst_query_set_context (query, answer);
  gst_context_unref (answer);
  GST_LOG_OBJECT (element, "answered a context query with %s",
      clh_context_get_device_name (context));
  return TRUE;
}

/* Takes the context the element stored earlier (set while in NULL, or in
 * an earlier run: it is persistent) if it still fits @device_spec. */
static void
take_stored_context (GstElement *element, const gchar *device_spec,
    ClhContext **context_ptr)
{
  ClhContext *held = NULL;
  GstContext *stored;

  GST_OBJECT_LOCK (element);
  if (*context_ptr)
    held = gst_cl_context_handle_ref (*context_ptr);
  GST_OBJECT_UNLOCK (element);
  if (held && clh_context_matches (held, device_spec)) {
    gst_cl_context_handle_unref (held);
    return;
  }
  if (held) {
    /* Set while in NULL, and the device property changed since. */
    GST_OBJECT_LOCK (element);
    if (*context_ptr == held)
      g_clear_pointer (context_ptr, gst_cl_context_handle_unref);
    GST_OBJECT_UNLOCK (element);
    gst_cl_context_handle_unref (held);
  }

  stored = gst_element_get_context (element, GST_CL_CONTEXT_TYPE);
  if (stored) {
    take_context (element, stored, device_spec, context_ptr);
    gst_context_unref (stored);
  }
}

typedef struct {
  GstQuery *query;
  GstContext *found;
} PeerQuery;

static gboolean
query_peer (GstElement *element, GstPad *pad, gpointer user_data)
{
  PeerQuery *pq = user_data;

  if (!gst_pad_peer_query (pad, pq->query))
    return TRUE;
  gst_query_parse_context (pq->query, &pq->found);
  if (!pq->found)
    return TRUE;
  gst_context_ref (pq->found);
  return FALSE;
}

/* Asks the peers of @element's pads of @direction for a context and offers
 * it to the element. */
static void
query_peers (GstElement *element, GstPadDirection direction)
{
  PeerQuery pq = { gst_query_new_context (GST_CL_CONTEXT_TYPE), NULL };

  if (direction == GST_PAD_SRC)
    gst_element_foreach_src_pad (element, query_peer, &pq);
  else
    gst_element_foreach_sink_pad (element, query_peer, &pq);
  if (pq.found) {
    GST_DEBUG_OBJECT (element, "%s answered the context query",
        direction == GST_PAD_SRC ? "downstream" : "upstream");
    gst_element_set_context (element, pq.found);
    gst_context_unref (pq.found);
  }
  gst_query_unref (pq.query);
}

/**
 * gst_cl_ensure_element_context:
 * @element: the element
 * @device_spec: the element's `device` property
 * @context_ptr: (inout): the element's context, under its object lock;
 *   the element's #GstElementClass.set_context must call
 *   gst_cl_handle_set_context() on it
 * @error: %CLH_ENGINE_ERROR_NO_DEVICE, %CLH_ENGINE_ERROR_DEVICE_NOT_FOUND,
 *   %CLH_ENGINE_ERROR_BUILD or %CLH_ENGINE_ERROR_OPENCL
 *
 * Finds the element a device context on @device_spec's device, at
 * NULL->READY on the state-change thread: the one already set on it, else
 * the one its peers downstream, then upstream, answer a context query
 * with, else one a bin or the application sets when the element posts
 * %GST_MESSAGE_NEED_CONTEXT, else the registry's for that device, else a
 * new one. A context from the registry, or new, is set on the element and
 * announced with %GST_MESSAGE_HAVE_CONTEXT.
 *
 * Returns: %TRUE if *@context_ptr holds a context
 */
gboolean
gst_cl_ensure_element_context (GstElement *element, const gchar *device_spec,
    ClhContext **context_ptr, GError **error)
{
  ClhContext *context;
  GstContext *gst_context;
  gboolean created;
  gchar *spread;

  init_debug ();
  take_stored_context (element, device_spec, context_ptr);
  if (!has_context (element, context_ptr))
    query_peers (element, GST_PAD_SRC);
  if (!has_context (element, context_ptr))
    query_peers (element, GST_PAD_SINK);
  if (!has_context (element, context_ptr)) {
    GST_DEBUG_OBJECT (element, "posting need-context");
    gst_element_post_message (element,
        gst_message_new_need_context (GST_OBJECT (element),
            GST_CL_CONTEXT_TYPE));
  }
  if (has_context (element, context_ptr))
    return TRUE;

  spread = least_loaded_auto (device_spec);
  context = registry_obtain (spread ? spread : device_spec, &created, error);
  if (!context) {
    g_free (spread);
    return FALSE;
  }
  GST_INFO_OBJECT (element, "%s context on %s%s", created ? "new" :
      "process-wide", clh_context_get_device_name (context), spread ?
      " (auto: the least loaded device)" : "");

  gst_context = gst_context_new_cl_context (context);
  gst_element_set_context (element, gst_context);
  gst_cl_context_handle_unref (context);
  if (spread)
    gst_context_unref (gst_context);
  else
    gst_element_post_message (element,
        gst_message_new_have_context (GST_OBJECT (element), gst_context));
  g_free (spread);

  /* A set_context from another thread may have won meanwhile: whichever
   * the element holds now is on the right device. None means the element
   * refused ours: listing the devices to match it failed this time. */
  if (has_context (element, context_ptr))
    return TRUE;
  g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL,
      "the OpenCL devices could not be listed again to match the context "
      "made for device \"%s\"", device_spec);
  return FALSE;
}
