/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CUDA memory path on a machine with an NVIDIA GPU, NVDEC and
 * GStreamer's nvcodec plugin (scripts/device-cuda-check.sh runs it there;
 * there is no such machine in CI): frames NVDEC decodes into CUDA memory,
 * counted on the device from the pool of exportable memory clhistogram
 * proposes, against the same frames downloaded by cudadownload into
 * system memory; each check asserts from the elements' log lines which
 * way each side took.
 *
 *   clhistogram-cuda-check equal CLIP DECODER [FORMAT]
 *       every histogram message (luma, channels, zones and regions with
 *       statistics) is the same both ways, bit for bit, and the CUDA
 *       way's frames were counted on the device (its log line)
 *   clhistogram-cuda-check trackers CLIP DECODER
 *       clcamshift's messages and clbackproject's images, the same both
 *       ways
 *   clhistogram-cuda-check streams CLIP DECODER [N]
 *       N streams at once (their frames batched on the device), each
 *       stream's messages the same as one stream's through cudadownload
 *   clhistogram-cuda-check fallback CLIP DECODER
 *       behind a tee (which keeps the decoder's own pool) the frames are
 *       mapped through the host, said once in the log, counts unchanged
 *   clhistogram-cuda-check copy CLIP DECODER
 *       copies of a frame's exportable memory (whole, a part, a resized
 *       copy) hold the bytes they copy
 *   clhistogram-cuda-check cycles CLIP DECODER N
 *       N start-stop cycles: no growth of device memory or descriptors
 *
 * DECODER is a parse ! decode chain such as "h264parse ! nvh264dec"; CLIP
 * is in MP4 (qtdemux) or WebM (matroskademux). Exit status 0 on success,
 * 1 on a failed check, 77 when the machine lacks what it needs. */
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#include <gmodule.h>

#define SKIP 77

/* What one pipeline run gave. */
typedef struct {
  GPtrArray *messages;
  /* Each message's source element name, in step with @messages. */
  GPtrArray *sources;
  GPtrArray *images;
  GMutex lock;
  /* The elements' lines on the way frames took, one per stream. */
  guint on_device;
  guint through_host;
  guint from_system;
  /* A buffer probe on the sink pad of the element named "count", if set
   * (before the run). */
  GstPadProbeCallback probe;
  gpointer probe_data;
} Run;

static void
run_init (Run *run)
{
  run->messages = g_ptr_array_new_with_free_func (g_free);
  run->sources = g_ptr_array_new_with_free_func (g_free);
  run->images = g_ptr_array_new_with_free_func (g_free);
  g_mutex_init (&run->lock);
  run->on_device = run->through_host = run->from_system = 0;
  run->probe = NULL;
  run->probe_data = NULL;
}

static void
run_clear (Run *run)
{
  g_ptr_array_unref (run->messages);
  g_ptr_array_unref (run->sources);
  g_ptr_array_unref (run->images);
  g_mutex_clear (&run->lock);
}

static Run *current;

/* Counts the elements' one line per stream on the way frames take. */
static void
log_function (GstDebugCategory *category, GstDebugLevel level,
    const gchar *file, const gchar *function, gint line, GObject *object,
    GstDebugMessage *message, gpointer unused)
{
  const gchar *text = gst_debug_message_get (message);

  if (!current || !text
      || strcmp (gst_debug_category_get_name (category), "clhistogram"))
    return;
  g_mutex_lock (&current->lock);
  if (strstr (text, "counted where they lie"))
    current->on_device++;
  if (strstr (text, "copied to the host and back"))
    current->through_host++;
  if (strstr (text, "frames in system memory are copied to the OpenCL"))
    current->from_system++;
  g_mutex_unlock (&current->lock);
}

/* The checksum of an image's pixels, row by row: the padding at the end
 * of each row is no element's output. */
static void
on_handoff (GstElement *sink, GstBuffer *buffer, GstPad *pad, Run *run)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GChecksum *sum = g_checksum_new (G_CHECKSUM_MD5);
  GstVideoFrame frame;
  GstVideoInfo info;
  guint p, y;

  if (caps && gst_video_info_from_caps (&info, caps)
      && gst_video_frame_map (&frame, &info, buffer, GST_MAP_READ)) {
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++)
      for (y = 0; y < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p); y++)
        g_checksum_update (sum, (const guchar *)
            GST_VIDEO_FRAME_PLANE_DATA (&frame, p)
            + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
            GST_VIDEO_FRAME_COMP_WIDTH (&frame, p)
            * GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, p));
    gst_video_frame_unmap (&frame);
    g_mutex_lock (&run->lock);
    g_ptr_array_add (run->images, g_strdup (g_checksum_get_string (sum)));
    g_mutex_unlock (&run->lock);
  }
  g_checksum_free (sum);
  gst_clear_caps (&caps);
}

static const gchar *
demuxer (const gchar *clip)
{
  return g_str_has_suffix (clip, ".webm") || g_str_has_suffix (clip, ".mkv")
      ? "matroskademux" : "qtdemux";
}

static gboolean
has_context_type (GPtrArray *contexts, const gchar *type)
{
  for (guint i = 0; i < contexts->len; i++)
    if (!strcmp (gst_context_get_context_type (contexts->pdata[i]), type))
      return TRUE;
  return FALSE;
}

static void
add_count_probe (GstElement *pipeline, Run *run)
{
  GstElement *count = gst_bin_get_by_name (GST_BIN (pipeline), "count");
  GstPad *pad = count ? gst_element_get_static_pad (count, "sink") : NULL;

  if (pad)
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, run->probe,
        run->probe_data, NULL);
  gst_clear_object (&pad);
  gst_clear_object (&count);
}

/* Runs @desc to EOS, keeping the element messages' structures and the
 * images of a fakesink named "images"; FALSE on an error message. The
 * pipeline gets @contexts first, and the contexts its elements make are
 * added to them (a long-lived application's shared device contexts). */
static gboolean
run_pipeline (const gchar *desc, GPtrArray *contexts, Run *run)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *images;
  GstBus *bus;
  gboolean ok = FALSE, done = FALSE;

  /* gst_parse_launch() may return a pipeline and an error (an element
   * missing): refused too. */
  if (!pipeline || err) {
    g_printerr ("cannot build %s: %s\n", desc, err ? err->message : "?");
    g_clear_error (&err);
    gst_clear_object (&pipeline);
    return FALSE;
  }
  for (guint i = 0; contexts && i < contexts->len; i++)
    gst_element_set_context (pipeline, contexts->pdata[i]);
  if (run->probe)
    add_count_probe (pipeline, run);
  images = gst_bin_get_by_name (GST_BIN (pipeline), "images");
  if (images) {
    g_object_set (images, "signal-handoffs", TRUE, NULL);
    g_signal_connect (images, "handoff", G_CALLBACK (on_handoff), run);
    gst_object_unref (images);
  }
  current = run;
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, 60 * GST_SECOND);

    if (!msg) {
      g_printerr ("no EOS within 60 s: %s\n", desc);
      break;
    }
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ELEMENT:
        g_ptr_array_add (run->messages,
            gst_structure_to_string (gst_message_get_structure (msg)));
        g_ptr_array_add (run->sources, g_strdup (GST_MESSAGE_SRC_NAME (msg)));
        break;
      case GST_MESSAGE_ERROR:{
        gchar *dbg = NULL;

        gst_message_parse_error (msg, &err, &dbg);
        g_printerr ("error: %s (%s)\n", err->message, dbg ? dbg : "");
        g_clear_error (&err);
        g_free (dbg);
        done = TRUE;
        break;
      }
      case GST_MESSAGE_EOS:
        ok = done = TRUE;
        break;
      case GST_MESSAGE_HAVE_CONTEXT:{
        GstContext *context;

        gst_message_parse_have_context (msg, &context);
        if (contexts && !has_context_type (contexts,
                gst_context_get_context_type (context)))
          g_ptr_array_add (contexts, context);
        else
          gst_context_unref (context);
        break;
      }
      default:
        break;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  current = NULL;
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return ok;
}

/* The same list both ways; says where they differ first. */
static gboolean
same (const gchar *what, GPtrArray *a, GPtrArray *b)
{
  guint i;

  if (a->len != b->len) {
    g_print ("%s: %u against %u\n", what, a->len, b->len);
    return FALSE;
  }
  for (i = 0; i < a->len; i++)
    if (strcmp (a->pdata[i], b->pdata[i])) {
      g_print ("%s %u differs:\n  %.300s\n  %.300s\n", what, i,
          (gchar *) a->pdata[i], (gchar *) b->pdata[i]);
      return FALSE;
    }
  return TRUE;
}

/* The host way: cudadownload into system memory. Caps without the CUDA
 * feature, or cudadownload passes CUDA memory on to an element that
 * accepts it (GStreamer 1.22 and later), and both ways would be one. */
#define TO_HOST "cudadownload ! video/x-raw"

/* Whether @run took one way only, @ways streams of it: "device" (counted
 * where they lie), "host" (CUDA memory read through the host) or "system"
 * (frames downloaded by cudadownload); says what it took otherwise. */
static gboolean
took_way (const gchar *side, const Run *run, const gchar *way, guint ways)
{
  const guint want_device = !strcmp (way, "device") ? ways : 0;
  const guint want_host = !strcmp (way, "host") ? ways : 0;
  const guint want_system = !strcmp (way, "system") ? ways : 0;

  if (run->on_device == want_device && run->through_host == want_host
      && run->from_system == want_system)
    return TRUE;
  g_print ("FAIL: the %s run was to take the %s way %u time(s); its log "
      "says: %u counted on the device, %u through the host, %u from system "
      "memory\n", side, way, ways, run->on_device, run->through_host,
      run->from_system);
  return FALSE;
}

/* Runs @element (a description ending in a sink) after the decoder in CUDA
 * memory and after cudadownload into system memory, and compares. */
static gboolean
compare (const gchar *clip, const gchar *decoder, const gchar *caps,
    const gchar *element)
{
  gchar *head = g_strdup_printf ("filesrc location=%s ! %s ! %s ! "
      "video/x-raw(memory:CUDAMemory)%s", clip, demuxer (clip), decoder,
      caps);
  gchar *on_cuda = g_strdup_printf ("%s ! %s", head, element);
  gchar *on_host = g_strdup_printf ("%s ! " TO_HOST " ! %s", head,
      element);
  Run cuda, host;
  gboolean ok;

  run_init (&cuda);
  run_init (&host);
  ok = run_pipeline (on_cuda, NULL, &cuda) && run_pipeline (on_host, NULL,
      &host);
  if (ok) {
    g_print ("%-60.60s %u messages, %u images; on device: %u line(s)\n",
        element, cuda.messages->len, cuda.images->len, cuda.on_device);
    ok = same ("message", cuda.messages, host.messages)
        && same ("image", cuda.images, host.images)
        && (cuda.messages->len > 0 || cuda.images->len > 0);
    ok = took_way ("CUDA", &cuda, "device", 1) && ok;
    ok = took_way ("cudadownload", &host, "system", 1) && ok;
  }
  run_clear (&cuda);
  run_clear (&host);
  g_free (head);
  g_free (on_cuda);
  g_free (on_host);
  return ok;
}

static gboolean
check_equal (const gchar *clip, const gchar *decoder, const gchar *format)
{
  gchar *caps = format ? g_strdup_printf (",format=%s", format) :
      g_strdup ("");
  const gchar *counts[] = {
    "clhistogram name=count mode=luma ! fakesink sync=false",
    "clhistogram name=count mode=channels ! fakesink sync=false",
    "clhistogram name=count mode=luma statistics=true zones=3x3 "
        "regions=\"<<7,5,101,57>,<300,200,4000,4000>>\" "
        "percentiles=\"<1,50,99>\" "
        "! fakesink sync=false",
    "clhistogram name=count mode=channels bins=64 full-frame=false "
        "regions=\"<<1,1,33,17>>\" ! fakesink sync=false",
  };
  gboolean ok = TRUE;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (counts); i++)
    ok = compare (clip, decoder, caps, counts[i]) && ok;
  g_free (caps);
  return ok;
}

static gboolean
check_trackers (const gchar *clip, const gchar *decoder)
{
  GString *model = g_string_new ("<");
  gchar *backproject;
  gboolean ok;
  guint i;

  for (i = 0; i < 30; i++)
    g_string_append_printf (model, "%s%u", i ? "," : "", (i * 37) % 101);
  g_string_append_c (model, '>');
  backproject = g_strdup_printf ("clbackproject mode=hue bins=30 "
      "model=\"%s\" ! fakesink name=images sync=false", model->str);
  ok = compare (clip, decoder, "", "clcamshift window=\"<200,100,160,120>\" "
      "min-saturation=30 ! fakesink sync=false");
  ok = compare (clip, decoder, "", backproject) && ok;
  g_free (backproject);
  g_string_free (model, TRUE);
  return ok;
}

/* A tee between the decoder and clhistogram: the decoder's own pool. */
static gboolean
check_fallback (const gchar *clip, const gchar *decoder)
{
  gchar *head = g_strdup_printf ("filesrc location=%s ! %s ! %s ! "
      "video/x-raw(memory:CUDAMemory)", clip, demuxer (clip), decoder);
  gchar *teed = g_strdup_printf ("%s ! tee name=t t. ! queue ! clhistogram "
      "name=count ! fakesink sync=false t. ! queue ! fakesink sync=false",
      head);
  gchar *host = g_strdup_printf ("%s ! " TO_HOST " ! clhistogram "
      "name=count ! fakesink sync=false", head);
  Run a, b;
  gboolean ok;

  run_init (&a);
  run_init (&b);
  ok = run_pipeline (teed, NULL, &a) && run_pipeline (host, NULL, &b)
      && same ("message", a.messages, b.messages) && a.messages->len > 0;
  g_print ("tee: %u messages; log lines: %u through the host, %u on the "
      "device\n", a.messages->len, a.through_host, a.on_device);
  ok = ok && took_way ("tee", &a, "host", 1)
      && took_way ("cudadownload", &b, "system", 1);
  run_clear (&a);
  run_clear (&b);
  g_free (head);
  g_free (teed);
  g_free (host);
  return ok;
}

/* The messages of @run from element @name, in order. */
static GPtrArray *
messages_of (const Run *run, const gchar *name)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i;

  for (i = 0; i < run->messages->len; i++)
    if (!strcmp (run->sources->pdata[i], name))
      g_ptr_array_add (out, run->messages->pdata[i]);
  return out;
}

/* @n streams of the clip in one pipeline, counted from CUDA memory (the
 * device's submission thread batches their frames, copied on the device):
 * each stream's messages equal one stream's through cudadownload. */
static gboolean
check_streams (const gchar *clip, const gchar *decoder, guint n)
{
  gchar *head = g_strdup_printf ("filesrc location=%s ! %s ! %s", clip,
      demuxer (clip), decoder);
  GString *many = g_string_new (NULL);
  gchar *one = g_strdup_printf ("%s ! " TO_HOST " ! clhistogram name=count "
      "mode=luma ! fakesink sync=false", head);
  GPtrArray *want, *got;
  Run cuda, host;
  gboolean ok;
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (many, "%s ! video/x-raw(memory:CUDAMemory) ! "
        "clhistogram name=count%u mode=luma ! fakesink sync=false ", head, i);
  run_init (&cuda);
  run_init (&host);
  ok = run_pipeline (many->str, NULL, &cuda)
      && run_pipeline (one, NULL, &host);
  want = messages_of (&host, "count");
  for (i = 0; ok && i < n; i++) {
    gchar *name = g_strdup_printf ("count%u", i);

    got = messages_of (&cuda, name);
    ok = same (name, got, want) && got->len > 0;
    g_ptr_array_unref (got);
    g_free (name);
  }
  g_print ("%u streams: %u messages; %u of %u streams counted on the "
      "device\n", n, cuda.messages->len, cuda.on_device, n);
  ok = ok && took_way ("CUDA", &cuda, "device", n)
      && took_way ("cudadownload", &host, "system", 1);
  g_ptr_array_unref (want);
  run_clear (&cuda);
  run_clear (&host);
  g_string_free (many, TRUE);
  g_free (one);
  g_free (head);
  return ok;
}

/* What the copy check found. */
typedef struct {
  gboolean done;
  gboolean ok;
  gchar *allocator;
} CopyCheck;

/* @copy holds @size bytes equal to @want's. */
static gboolean
copy_holds (const gchar *what, GstMemory *copy, const guint8 *want,
    gsize size)
{
  GstMapInfo map;
  gboolean ok;

  if (!copy) {
    g_print ("%s: no copy\n", what);
    return FALSE;
  }
  if (copy->size != size) {
    g_print ("%s: %" G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT "\n",
        what, copy->size, size);
    gst_memory_unref (copy);
    return FALSE;
  }
  if (!gst_memory_map (copy, &map, GST_MAP_READ)) {
    g_print ("%s: cannot be mapped\n", what);
    gst_memory_unref (copy);
    return FALSE;
  }
  ok = map.size == size && !memcmp (map.data, want, size);
  if (!ok)
    g_print ("%s: the bytes differ from the original's\n", what);
  gst_memory_unmap (copy, &map);
  gst_memory_unref (copy);
  return ok;
}

/* Copies of a frame's memory, whole, in part, and of a copy resized (as
 * gst_buffer_copy_region() makes of memory that cannot be shared), hold
 * the original's bytes at the original's offsets. */
static gboolean
copies_hold (GstMemory *mem)
{
  GstMemory *whole;
  GstMapInfo map;
  guint8 *want;
  gsize size;
  gboolean ok;

  if (!gst_memory_map (mem, &map, GST_MAP_READ))
    return FALSE;
  size = map.size;
  want = g_memdup2 (map.data, size);
  gst_memory_unmap (mem, &map);
  ok = size > 4096;
  ok = ok && copy_holds ("part", gst_memory_copy (mem, 100, 1000), want + 100,
      1000);
  whole = gst_memory_copy (mem, 0, -1);
  /* The whole frame's copy stays on the device, in the same allocator. */
  ok = ok && whole && whole->allocator == mem->allocator;
  if (ok) {
    ok = copy_holds ("whole", gst_memory_ref (whole), want, size);
    gst_memory_resize (whole, 64, size - 128);
    ok = copy_holds ("resized", gst_memory_copy (whole, 0, -1), want + 64,
        size - 128) && ok;
    ok = copy_holds ("resized part", gst_memory_copy (whole, 16, 32),
        want + 80, 32) && ok;
  }
  if (whole)
    gst_memory_unref (whole);
  g_free (want);
  return ok;
}

static GstPadProbeReturn
on_frame_copy (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  CopyCheck *check = data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem;

  if (check->done || gst_buffer_n_memory (buffer) != 1)
    return GST_PAD_PROBE_OK;
  check->done = TRUE;
  mem = gst_buffer_peek_memory (buffer, 0);
  check->allocator = g_strdup (G_OBJECT_TYPE_NAME (mem->allocator));
  check->ok = copies_hold (mem);
  return GST_PAD_PROBE_OK;
}

/* The exportable memory's copies (a frame of the pool clhistogram
 * proposes to the decoder): checked where the allocator is the plugin's
 * (GStreamer 1.22); with 1.24 and later the memory is GStreamer's own, its
 * copies are GStreamer's, and what they gave is printed, then SKIP. */
static gint
check_copy (const gchar *clip, const gchar *decoder)
{
  gchar *desc = g_strdup_printf ("filesrc location=%s ! %s ! %s ! "
      "video/x-raw(memory:CUDAMemory) ! clhistogram name=count ! "
      "fakesink sync=false", clip, demuxer (clip), decoder);
  CopyCheck check = { FALSE, FALSE, NULL };
  Run run;
  gboolean ran;
  gint status;

  run_init (&run);
  run.probe = on_frame_copy;
  run.probe_data = &check;
  ran = run_pipeline (desc, NULL, &run) && took_way ("CUDA", &run, "device",
      1) && check.done;
  g_print ("copies of a frame's memory (%s): %s\n",
      check.allocator ? check.allocator : "no frame",
      check.ok ? "equal" : "DIFFER");
  status = ran && check.ok ? 0 : 1;
  if (ran && strcmp (check.allocator, "GstClCudaAllocator")) {
    g_print ("SKIP: the memory is GStreamer's (%s), not the plugin's; "
        "its copies %s\n", check.allocator, check.ok ? "hold the bytes" :
        "differ as printed above");
    status = SKIP;
  }
  run_clear (&run);
  g_free (check.allocator);
  g_free (desc);
  return status;
}

typedef CUresult (CUDAAPI *MemGetInfoFn) (size_t *free_bytes,
    size_t *total);

static guint
open_fds (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  while (dir && g_dir_read_name (dir))
    n++;
  if (dir)
    g_dir_close (dir);
  return n;
}

/* Device memory in use on the context's GPU, in bytes. */
static gsize
device_used (GstCudaContext *ctx, MemGetInfoFn get_info)
{
  size_t free_bytes = 0, total = 0;

  gst_cuda_context_push (ctx);
  get_info (&free_bytes, &total);
  gst_cuda_context_pop (NULL);
  return total - free_bytes;
}

static gboolean
check_cycles (const gchar *clip, const gchar *decoder, guint n)
{
  GModule *cuda = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);
  MemGetInfoFn get_info = NULL;
  GstCudaContext *ctx;
  GPtrArray *shared = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_context_unref);
  gchar *desc = g_strdup_printf ("filesrc location=%s ! %s ! %s ! "
      "video/x-raw(memory:CUDAMemory) ! clhistogram name=count ! "
      "fakesink sync=false", clip, demuxer (clip), decoder);
  gsize used_early = 0, used_late;
  guint fds_early = 0, fds_late, i;
  /* The baseline after the first tenth of the cycles (at least 10): the
   * driver may grow its own pools in a step while the first pipelines run
   * (docs/performance.md), which is no leak; a leak grows with the cycles
   * after it. */
  const guint warm = MAX (10, n / 10);
  gint64 start = g_get_monotonic_time ();
  gboolean ok = TRUE;

  if (!cuda || !g_module_symbol (cuda, "cuMemGetInfo_v2",
          (gpointer *) &get_info))
    return FALSE;
  /* One CUDA context and one OpenCL device context for every cycle, as a
   * long-lived application shares them: what grows is then what the
   * cycles leave behind. */
  ctx = gst_cuda_context_new (0);
  g_ptr_array_add (shared, gst_context_new_cuda_context (ctx));
  for (i = 1; ok && i <= n; i++) {
    Run run;

    run_init (&run);
    ok = run_pipeline (desc, shared, &run) && run.messages->len > 0
        && run.on_device == 1;
    if (!ok)
      g_print ("cycle %u failed (%u messages, %u on-device lines)\n", i,
          run.messages->len, run.on_device);
    run_clear (&run);
    if (i == warm) {
      used_early = device_used (ctx, get_info);
      fds_early = open_fds ();
    }
    if (i % 100 == 0)
      g_print ("cycle %u: device memory in use %.1f MiB, %u descriptors\n",
          i, device_used (ctx, get_info) / 1048576.0, open_fds ());
  }
  used_late = device_used (ctx, get_info);
  fds_late = open_fds ();
  g_print ("%u cycles in %.1f s; device memory after cycle %u: %.1f MiB, "
      "after cycle %u: %.1f MiB (%+.1f MiB); descriptors %u -> %u\n", n,
      (g_get_monotonic_time () - start) / 1e6, warm, used_early / 1048576.0, n,
      used_late / 1048576.0, ((gdouble) used_late - used_early) / 1048576.0,
      fds_early, fds_late);
  /* One allocation granule (2 MiB) of slack for the driver's own. */
  ok = ok && used_late <= used_early + (2 << 20) && fds_late <= fds_early;
  g_ptr_array_unref (shared);
  gst_object_unref (ctx);
  g_free (desc);
  return ok;
}

int
main (int argc, char **argv)
{
  const gchar *what, *clip, *decoder;
  gboolean ok;

  gst_init (&argc, &argv);
  if (argc < 4) {
    g_printerr ("usage: %s equal|trackers|streams|fallback|copy|cycles CLIP "
        "DECODER "
        "[FORMAT|N]\n", argv[0]);
    return 2;
  }
  what = argv[1];
  clip = argv[2];
  decoder = argv[3];
  if (!gst_cuda_load_library ()) {
    g_print ("SKIP: no CUDA driver here\n");
    return SKIP;
  }
  gst_debug_set_threshold_for_name ("clhistogram", GST_LEVEL_INFO);
  gst_debug_add_log_function (log_function, NULL, NULL);

  if (!strcmp (what, "equal"))
    ok = check_equal (clip, decoder, argc > 4 ? argv[4] : NULL);
  else if (!strcmp (what, "trackers"))
    ok = check_trackers (clip, decoder);
  else if (!strcmp (what, "fallback"))
    ok = check_fallback (clip, decoder);
  else if (!strcmp (what, "streams"))
    ok = check_streams (clip, decoder, argc > 4 ? atoi (argv[4]) : 8);
  else if (!strcmp (what, "copy")) {
    const gint status = check_copy (clip, decoder);

    if (status == SKIP)
      return SKIP;
    ok = status == 0;
  }
  else if (!strcmp (what, "cycles"))
    ok = check_cycles (clip, decoder, argc > 4 ? atoi (argv[4]) : 1000);
  else
    return 2;
  g_print ("%s %s: %s\n", what, clip, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
