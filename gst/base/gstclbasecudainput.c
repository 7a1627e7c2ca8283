/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in CUDA memory at the elements' sink pads. Where the CUDA device
 * upstream decodes on is the element's OpenCL device (their UUIDs match)
 * and the OpenCL driver imports CUDA's exported memory
 * (cl_khr_external_memory_opaque_fd), the element proposes a pool of
 * exportable CUDA memory and counts the frames the decoder writes there
 * where they lie: with GStreamer 1.22's CUDA library a pool of the
 * plugin's own (gstclbasecudapool.c), with 1.24 and later the library's
 * GstCudaBufferPool of virtual memory (gstclbasecudaexport.c). Any other
 * frame in CUDA memory is mapped as any memory is: gst_video_frame_map()
 * on a GstCudaMemory downloads it into system memory; each stream says
 * once, in the log, which way its frames take and why. */
#include "gstclbasecudainput.h"

#include <string.h>

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif
#ifdef HAVE_CL_CUDA_POOL
#include "gstclbasecudamemory.h"
#include "gstclbasecudapool.h"
#endif
#ifdef HAVE_CUDA_EXPORT
#include <gst/cuda/gstcudabufferpool.h>

#include "gstclbasecudaexport.h"
#endif
/* Frames counted where they lie: through the plugin's own pool with
 * GStreamer 1.22, the library's exportable pool with 1.24 and later. */
#if defined (HAVE_CL_CUDA_POOL) || defined (HAVE_CUDA_EXPORT)
#define HAVE_CUDA_IN_PLACE 1
#include "gstclbasecudadriver.h"
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_cl_histogram_debug);
#define GST_CAT_DEFAULT gst_cl_histogram_debug

/**
 * gst_cl_caps_features_are_cuda:
 * @caps: caps
 * @index: a structure of @caps
 *
 * Returns: whether structure @index of @caps is in CUDA memory (its caps
 *   features hold memory:CUDAMemory)
 */
gboolean
gst_cl_caps_features_are_cuda (const GstCaps *caps, guint index)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, index);

  return features && !gst_caps_features_is_any (features)
      && gst_caps_features_contains (features,
      GST_CL_CAPS_FEATURE_MEMORY_CUDA);
}

/**
 * gst_cl_cuda_input_set_caps:
 * @input: the element's input
 * @caps: its negotiated (fixed) sink caps
 *
 * Records whether the frames to come are in CUDA memory; a change of the
 * memory's kind is told of again in the log.
 */
void
gst_cl_cuda_input_set_caps (GstClCudaInput *input, const GstCaps *caps)
{
  const gboolean cuda_caps = gst_caps_get_size (caps) > 0
      && gst_cl_caps_features_are_cuda (caps, 0);

  /* Another kind of memory takes another way: said again. */
  if (cuda_caps != input->cuda_caps)
    input->told = FALSE;
  input->cuda_caps = cuda_caps;
}

/**
 * gst_cl_cuda_input_new_stream:
 * @input: the element's input
 *
 * A new stream starts (STREAM_START): the way its first frame takes (on
 * the device, through the host, or from system memory) is told of again.
 */
void
gst_cl_cuda_input_new_stream (GstClCudaInput *input)
{
  input->told = FALSE;
}

/**
 * gst_cl_cuda_input_clear:
 * @input: the element's input
 *
 * Lets go of the CUDA context (READY->NULL, finalize).
 */
void
gst_cl_cuda_input_clear (GstClCudaInput *input)
{
  gst_clear_object (&input->cuda_context);
  g_clear_pointer (&input->not_proposed, g_free);
}

/**
 * gst_cl_cuda_input_set_context:
 * @input: the element's input
 * @element: the element, whose set_context this is called from
 * @context: the context set
 *
 * Keeps a GstCudaContext the pipeline shares (GStreamer's CUDA library's
 * context type), for the pool proposed upstream.
 */
void
gst_cl_cuda_input_set_context (GstClCudaInput *input, GstElement *element,
    GstContext *context)
{
#ifdef HAVE_GST_CUDA
  GstCudaContext *cuda = NULL;

  if (gst_cuda_handle_set_context (element, context, -1, &cuda) && cuda) {
    GST_OBJECT_LOCK (element);
    gst_object_replace (&input->cuda_context, GST_OBJECT (cuda));
    GST_OBJECT_UNLOCK (element);
  }
  gst_clear_object (&cuda);
#endif
}

#ifdef HAVE_CUDA_IN_PLACE
/* Why frames of @cuda cannot be imported into @context, or NULL if they
 * can: same GPU by UUID, and an OpenCL driver that imports. */
static gchar *
import_refusal (GstCudaContext *cuda, ClhContext *context)
{
  guint8 cl_uuid[CLH_DEVICE_UUID_SIZE], cuda_uuid[GST_CL_CUDA_UUID_SIZE];
  GError *err = NULL;
  gchar *why;

  if (!clh_context_can_import_opaque_fd (context))
    return g_strdup_printf ("the OpenCL device %s does not import CUDA "
        "memory (no cl_khr_external_memory_opaque_fd)",
        clh_context_get_device_name (context));
  if (!clh_context_get_device_uuid (context, cl_uuid))
    return g_strdup_printf ("the OpenCL device %s gives no UUID "
        "(cl_khr_device_uuid) to match with the CUDA device",
        clh_context_get_device_name (context));
  if (!gst_cl_cuda_context_get_uuid (cuda, cuda_uuid, &err)) {
    why = g_strdup_printf ("the CUDA device's UUID is unknown: %s",
        err->message);
    g_error_free (err);
    return why;
  }
  if (memcmp (cl_uuid, cuda_uuid, sizeof (cl_uuid)) != 0)
    return g_strdup_printf ("the CUDA device the frames are decoded on is "
        "not the OpenCL device %s (their UUIDs differ): set the element's "
        "device property to the same GPU",
        clh_context_get_device_name (context));
  return NULL;
}

/* Why the GStreamer running cannot take the pool, or NULL: the pool's
 * GstCudaAllocator subclass is built for the 1.22 series; later CUDA
 * libraries read their memory's private part, which it leaves empty, and
 * their allocator is larger than the 1.22 one the subclass was compiled
 * against (its type would not register). GStreamer's core and its CUDA
 * library (gst-plugins-bad) are released together: the core's version
 * stands for the library's. */
static gchar *
newer_library (void)
{
#ifdef HAVE_CL_CUDA_POOL
  guint major, minor, micro, nano;

  gst_version (&major, &minor, &micro, &nano);
  if (major == 1 && minor <= 22)
    return NULL;
  return g_strdup_printf ("the pool of exportable CUDA memory is built for "
      "GStreamer 1.22's CUDA library, and this is GStreamer %u.%u.%u",
      major, minor, micro);
#else
  /* Built against 1.24 or later: the public API, in every later one. */
  return NULL;
#endif
}

/* The CUDA context upstream decodes on, from a context query on the sink
 * pad (a decoder answers with its own). Not
 * gst_cuda_ensure_element_context(): that makes a new context when none
 * answers, which no decoder would write into. */
static GstCudaContext *
query_upstream_context (GstElement *element)
{
  GstPad *sink = gst_element_get_static_pad (element, "sink");
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *cuda = NULL;
  GstContext *context = NULL;

  if (sink && gst_pad_peer_query (sink, query)) {
    gst_query_parse_context (query, &context);
    if (context)
      gst_cuda_handle_set_context (element, context, -1, &cuda);
  }
  gst_query_unref (query);
  gst_clear_object (&sink);
  return cuda;
}

/* The pool at the head of @query's pools, where decoders take it. */
static void
put_pool_first (GstQuery *query, GstBufferPool *pool, guint size,
    guint min_buffers)
{
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min_buffers, 0);
  else
    gst_query_add_allocation_pool (query, pool, size, min_buffers, 0);
}

#ifdef HAVE_CUDA_EXPORT
/* Refused where the context's "virtual-memory" or "os-handle" property is
 * FALSE: a device or driver without either. */
#define POOL_REFUSED "the CUDA device refuses a pool of virtual memory " \
  "exportable as a file descriptor (GST_CUDA_MEMORY_ALLOC_MMAP)"
#else
#define POOL_REFUSED "the pool of exportable CUDA memory refused the caps"
#endif

/* A pool of memory OpenCL imports, configured for @caps with a
 * GstVideoMeta: the plugin's own with 1.22, GStreamer's of virtual memory
 * with 1.24 and later. */
static GstBufferPool *
configured_pool (GstCudaContext *cuda, GstCaps *caps, guint min_buffers,
    guint *size, gchar **why)
{
#ifdef HAVE_CUDA_EXPORT
  GstBufferPool *pool = gst_cuda_buffer_pool_new (cuda);
#else
  GstBufferPool *pool = gst_cl_cuda_buffer_pool_new (cuda);
#endif
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, 0, min_buffers, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
#ifdef HAVE_CUDA_EXPORT
  gst_buffer_pool_config_set_cuda_alloc_method (config,
      GST_CUDA_MEMORY_ALLOC_MMAP);
#endif
  if (!gst_buffer_pool_set_config (pool, config)) {
    *why = g_strdup (POOL_REFUSED);
    gst_object_unref (pool);
    return NULL;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}
/* Puts the pool of exportable memory first in @query; NULL if it did,
 * else why not. */
static gchar *
propose_pool (GstClCudaInput *input, GstElement *element, GstQuery *query,
    GstCaps *caps, ClhContext *context, guint min_buffers)
{
  GstCudaContext *cuda;
  GstBufferPool *pool;
  gchar *why;
  guint size = 0;

  if ((why = newer_library ()))
    return why;
  /* The decoder's own context first: a context the pipeline set may be
   * older than the decoder now upstream. */
  cuda = query_upstream_context (element);
  GST_OBJECT_LOCK (element);
  if (!cuda && input->cuda_context)
    cuda = (GstCudaContext *) gst_object_ref (input->cuda_context);
  GST_OBJECT_UNLOCK (element);
  if (!cuda)
    return g_strdup ("no CUDA context was found upstream");
  if (!context)
    why = g_strdup ("the OpenCL device is not open");
  else if (!(why = import_refusal (cuda, context))) {
    pool = configured_pool (cuda, caps, min_buffers, &size, &why);
    if (pool) {
      put_pool_first (query, pool, size, min_buffers);
      GST_DEBUG_OBJECT (element, "proposed a pool of exportable CUDA "
          "memory, %u-byte buffers", size);
      gst_object_unref (pool);
    }
  }
  gst_object_unref (cuda);
  return why;
}
#endif

/**
 * gst_cl_cuda_input_propose_allocation:
 * @input: the element's input
 * @element: the element
 * @query: the allocation query from upstream
 * @context: (nullable): the element's OpenCL device context
 * @min_buffers: buffers the element holds at once
 *
 * For caps in CUDA memory: proposes, first among the pools, a pool of
 * exportable CUDA memory on the device upstream decodes on, where that is
 * the OpenCL device and the driver imports; else records why not, for the
 * stream's log line. Nothing for other caps.
 *
 * Returns: %TRUE if @query's caps are in CUDA memory (the caller proposes
 *   no pool of its own)
 */
gboolean
gst_cl_cuda_input_propose_allocation (GstClCudaInput *input,
    GstElement *element, GstQuery *query, ClhContext *context,
    guint min_buffers)
{
  GstCaps *caps = NULL;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_cl_caps_features_are_cuda (caps, 0))
    return FALSE;
  g_clear_pointer (&input->not_proposed, g_free);
#ifdef HAVE_CUDA_IN_PLACE
  input->not_proposed = propose_pool (input, element, query, caps, context,
      min_buffers);
#elif defined (HAVE_GST_CUDA)
  input->not_proposed = g_strdup ("the plugin was built against a CUDA "
      "library without gst_cuda_memory_export()");
#else
  input->not_proposed = g_strdup ("the plugin was built without GStreamer's "
      "CUDA library");
#endif
  return TRUE;
}

/* Why a frame in CUDA memory takes the way through the host. */
static gchar *
host_read_reason (GstClCudaInput *input, GstBuffer *buffer,
    const GError *import_error)
{
  if (import_error)
    return g_strdup_printf ("importing its memory into OpenCL failed: %s",
        import_error->message);
  if (input->not_proposed)
    return g_strdup_printf ("no pool of exportable CUDA memory was "
        "proposed upstream: %s", input->not_proposed);
  if (gst_buffer_n_memory (buffer) != 1)
    return g_strdup ("the frame spans several memory blocks");
  return g_strdup ("upstream did not take the pool of exportable CUDA "
      "memory proposed to it (an element between the decoder and this one, "
      "such as a tee, keeps its own"
#ifdef HAVE_CUDA_EXPORT
      "; or the decoder hands on its own surfaces: set its "
      "num-output-surfaces to 1"
#endif
      ")");
}

#ifdef HAVE_CUDA_IN_PLACE
/* Whether @mem is memory of the pool proposed, which OpenCL imports. */
static gboolean
in_place (GstMemory *mem)
{
#ifdef HAVE_CL_CUDA_POOL
  return gst_is_cl_cuda_memory (mem);
#else
  return gst_cl_cuda_export_is_exportable (mem);
#endif
}

static const ClhHostBlock *
get_block (GstMemory *mem, ClhContext *context, GError **error)
{
#ifdef HAVE_CL_CUDA_POOL
  return gst_cl_cuda_memory_get_block (mem, context, error);
#else
  return gst_cl_cuda_export_get_block (mem, context, error);
#endif
}
#endif

/* Once per stream: which way frames in CUDA memory take. */
static void
tell (GstClCudaInput *input, GstElement *element, GstBuffer *buffer,
    gboolean on_device, const GError *import_error)
{
  gchar *why;

  if (input->told)
    return;
  input->told = TRUE;
  if (on_device) {
    GST_INFO_OBJECT (element, "frames in CUDA memory are counted where they "
        "lie: imported into OpenCL, no copy through the host");
    return;
  }
  why = host_read_reason (input, buffer, import_error);
  GST_WARNING_OBJECT (element, "frames in CUDA memory are copied to the "
      "host and back to the device (slower): %s", why);
  g_free (why);
}

/**
 * gst_cl_cuda_input_map:
 * @input: the element's input
 * @element: the element, for errors and the log
 * @context: (nullable): its OpenCL device context
 * @fm: (out caller-allocates): the mapping, cleared with
 *   gst_cl_frame_map_clear()
 * @info: the negotiated format
 * @format: @info's planes and components
 * @buffer: (transfer none): the frame
 * @frame: (out): the frame as gst_cl_frame_map_read() gives it; on the
 *   device, its planes' data are device addresses
 * @block: (out): the block of @context's device memory the frame lies in,
 *   for the engine; %NULL for a frame mapped in host memory
 *
 * Maps a frame for the engine: on the device if it is in exportable CUDA
 * memory of the element's pool (imported at its first frame), else in
 * host memory (gst_cl_frame_map_read()). Logs the way once per stream.
 *
 * Returns: %FALSE after posting a STREAM element error
 */
gboolean
gst_cl_cuda_input_map (GstClCudaInput *input, GstElement *element,
    ClhContext *context, GstClFrameMap *fm, const GstVideoInfo *info,
    const ClhFrame *format, GstBuffer *buffer, ClhFrame *frame,
    const ClhHostBlock **block)
{
  GError *err = NULL;

  *block = NULL;
#ifdef HAVE_CUDA_IN_PLACE
  if (input->cuda_caps && context && gst_buffer_n_memory (buffer) == 1
      && in_place (gst_buffer_peek_memory (buffer, 0))) {
    *block = get_block (gst_buffer_peek_memory (buffer, 0), context, &err);
    if (*block) {
      tell (input, element, buffer, TRUE, NULL);
      return gst_cl_frame_map_read_device (fm, element, info, format, buffer,
          GST_MAP_CUDA, frame);
    }
  }
#endif
  if (input->cuda_caps)
    tell (input, element, buffer, FALSE, err);
  else if (!input->told) {
    /* Said for frames in system memory too, so that a comparison of the
     * two ways can tell from the log which way each took. */
    input->told = TRUE;
    GST_INFO_OBJECT (element, "frames in system memory are copied to the "
        "OpenCL device");
  }
  g_clear_error (&err);
  return gst_cl_frame_map_read (fm, element, info, format, buffer, frame);
}
