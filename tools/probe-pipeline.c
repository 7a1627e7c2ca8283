/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The probe's pipeline:
 *
 *   uridecodebin uri=...              (a file or a URI)
 *   v4l2src device=... ! decodebin    (a camera, /dev/videoN)
 *     ! [videoconvert] ! [videoscale] ! [capsfilter] ! clhistogram ! appsink
 *
 * built by hand rather than parsed, so that a file name needs no quoting;
 * the converters are there only when a format or size is asked for, the
 * monitor picture's branch (probe-picture.c) only with --monitor-pictures. */
#include "probe-pipeline.h"
#include "probe-connections.h"
#include "probe-uri.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

static GstElement *
make (const gchar *factory, GError **error)
{
  GstElement *element = gst_element_factory_make (factory, NULL);

  if (!element)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "no %s element: is its GStreamer plugin installed%s?", factory,
        strcmp (factory, "clhistogram") == 0 ?
        " (GST_PLUGIN_PATH, when running from a build)" : "");
  return element;
}

/* The caps each stream offers the histogram, kept to say why they were
 * refused: negotiation failing shows up only as the source's "Internal
 * data stream error". */
static GstPadProbeReturn
on_caps (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  ProbePipeline *p = data;
  GstEvent *event = gst_pad_probe_info_get_event (info);
  GstCaps *caps;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    g_mutex_lock (&p->lock);
    gst_caps_replace (&p->offered, caps);
    g_mutex_unlock (&p->lock);
  }
  return GST_PAD_PROBE_OK;
}

static void
watch_caps (ProbePipeline *p)
{
  GstPad *pad = gst_element_get_static_pad (p->histogram, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_caps, p,
      NULL);
  gst_object_unref (pad);
}

/* The decoder's pad is a ghost pad (of a ghost pad, in uridecodebin),
 * whose proxies check a caps event against what the histogram accepts
 * before their probes run: caps refused there reach neither them nor the
 * histogram's pad, only the probes of the decoder's own pad that pushes
 * them, at the end of the chain of ghost pads. */
static void
watch_decoded_caps (ProbePipeline *p, GstPad *pad)
{
  GstPad *pusher = gst_object_ref (pad);

  while (GST_IS_GHOST_PAD (pusher)) {
    GstProxyPad *internal = gst_proxy_pad_get_internal (GST_PROXY_PAD
        (pusher));
    GstPad *peer = internal ? gst_pad_get_peer (GST_PAD (internal)) : NULL;

    if (internal)
      gst_object_unref (internal);
    if (!peer)
      break;
    gst_object_unref (pusher);
    pusher = peer;
  }
  gst_pad_add_probe (pusher, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_caps,
      p, NULL);
  gst_object_unref (pusher);
}

/* The largest @field the histogram's sink template takes; 0 for none. */
static gint
template_max (ProbePipeline *p, const gchar *field)
{
  GstPad *pad = gst_element_get_static_pad (p->histogram, "sink");
  GstCaps *caps = gst_pad_get_pad_template_caps (pad);
  const GValue *range = gst_caps_get_size (caps) > 0 ?
      gst_structure_get_value (gst_caps_get_structure (caps, 0), field) :
      NULL;
  gint max = range && GST_VALUE_HOLDS_INT_RANGE (range) ?
      gst_value_get_int_range_max (range) : 0;

  gst_caps_unref (caps);
  gst_object_unref (pad);
  return max;
}

/**
 * probe_pipeline_explain_refusal:
 *
 * Why the histogram may have refused the frames it was offered, for an
 * error that says only "Internal data stream error": a frame larger than
 * it counts (without --width and --height, which would have scaled it).
 *
 * Returns: (transfer full) (nullable): the reason, or %NULL if the caps
 *   offered explain nothing.
 */
gchar *
probe_pipeline_explain_refusal (ProbePipeline *p)
{
  const gint max_width = template_max (p, "width");
  const gint max_height = template_max (p, "height");
  GstCaps *caps;
  GstStructure *s;
  gint width = 0, height = 0;
  gchar *why = NULL;

  /* Refused in the caps query, the decoder sends none: what it can give
   * then says the size. */
  g_mutex_lock (&p->lock);
  caps = p->offered ? gst_caps_ref (p->offered) : p->decoded ?
      gst_pad_query_caps (p->decoded, NULL) : NULL;
  g_mutex_unlock (&p->lock);
  s = caps && gst_caps_get_size (caps) > 0 ?
      gst_caps_get_structure (caps, 0) : NULL;
  if (s && gst_structure_get_int (s, "width", &width)
      && gst_structure_get_int (s, "height", &height) && max_width > 0
      && max_height > 0 && (width > max_width || height > max_height))
    why = g_strdup_printf ("its %dx%d frames are larger than clhistogram "
        "counts (%dx%d at most): give --width and --height to scale them "
        "down", width, height, max_width, max_height);
  if (caps)
    gst_caps_unref (caps);
  return why;
}

/**
 * probe_pipeline_new:
 *
 * Returns: a pipeline holding clhistogram and the sink, linked; its input
 *   and converters come next. %NULL with @error if an element is missing.
 */
ProbePipeline *
probe_pipeline_new (GError **error)
{
  GstElement *histogram = make ("clhistogram", error);
  GstElement *sink = histogram ? make ("appsink", error) : NULL;
  ProbePipeline *p;

  if (!sink) {
    if (histogram)
      gst_object_unref (gst_object_ref_sink (histogram));
    return NULL;
  }
  p = g_new0 (ProbePipeline, 1);
  g_mutex_init (&p->lock);
  p->connections = probe_connections_new ();
  p->pipeline = gst_pipeline_new ("probe");
  p->histogram = p->head = histogram;
  p->sink = sink;
  watch_caps (p);
  /* A sink that waits for the clock would show a file at its frame rate;
   * the probe counts as fast as frames come, unless told otherwise
   * (probe_pipeline_set_sync()). */
  g_object_set (sink, "sync", FALSE, "enable-last-sample", FALSE, NULL);
  gst_bin_add_many (GST_BIN (p->pipeline), histogram, sink, NULL);
  gst_element_link (histogram, sink);
  return p;
}

/**
 * probe_pipeline_convert:
 * @format: (nullable): a raw video format to convert to first
 * @width: a width to scale to first, 0 for the decoder's
 * @height: a height to scale to first, 0 for the decoder's
 *
 * Puts videoconvert (for @format) and videoscale (for a size) before the
 * histogram; nothing when neither is asked for.
 */
gboolean
probe_pipeline_convert (ProbePipeline *p, const gchar *format, gint width,
    gint height, GError **error)
{
  GstElement *convert = NULL, *scale = NULL, *filter;
  GstCaps *caps;

  if (!format && width <= 0 && height <= 0)
    return TRUE;
  if ((format && !(convert = make ("videoconvert", error)))
      || ((width > 0 || height > 0) && !(scale = make ("videoscale", error)))
      || !(filter = make ("capsfilter", error))) {
    if (convert)
      gst_object_unref (gst_object_ref_sink (convert));
    if (scale)
      gst_object_unref (gst_object_ref_sink (scale));
    return FALSE;
  }
  caps = gst_caps_new_empty_simple ("video/x-raw");
  if (format)
    gst_caps_set_simple (caps, "format", G_TYPE_STRING, format, NULL);
  if (width > 0)
    gst_caps_set_simple (caps, "width", G_TYPE_INT, width, NULL);
  if (height > 0)
    gst_caps_set_simple (caps, "height", G_TYPE_INT, height, NULL);
  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);

  /* Converted, then scaled, as the tool always did: the scaler then works
   * on the format counted. */
  gst_bin_add (GST_BIN (p->pipeline), filter);
  gst_element_link (filter, p->histogram);
  p->head = filter;
  if (scale) {
    gst_bin_add (GST_BIN (p->pipeline), scale);
    gst_element_link (scale, p->head);
    p->head = scale;
  }
  if (convert) {
    gst_bin_add (GST_BIN (p->pipeline), convert);
    gst_element_link (convert, p->head);
    p->head = convert;
  }
  return TRUE;
}

static gboolean
is_raw_video (GstPad *pad)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean raw;

  if (!caps)
    caps = gst_pad_query_caps (pad, NULL);
  raw = caps && gst_caps_get_size (caps) > 0
      && gst_structure_has_name (gst_caps_get_structure (caps, 0),
      "video/x-raw");
  if (caps)
    gst_caps_unref (caps);
  return raw;
}

/* The first decoded video stream is counted; audio and further video
 * streams stay unlinked, which the decoder's queues allow. */
static void
on_pad_added (GstElement *decoder, GstPad *pad, ProbePipeline *p)
{
  GstPad *sinkpad;

  if (!is_raw_video (pad))
    return;
  sinkpad = gst_element_get_static_pad (p->head, "sink");
  if (!gst_pad_is_linked (sinkpad)
      && GST_PAD_LINK_SUCCESSFUL (gst_pad_link (pad, sinkpad))) {
    g_atomic_int_set (&p->linked, 1);
    g_mutex_lock (&p->lock);
    gst_object_replace ((GstObject **) &p->decoded, GST_OBJECT (pad));
    g_mutex_unlock (&p->lock);
    watch_decoded_caps (p, pad);
  }
  gst_object_unref (sinkpad);
}

/* A file the decoder reads but that holds no video (audio only, or video
 * no installed decoder knows) would otherwise end with no frame and no
 * error. */
static void
on_no_more_pads (GstElement *decoder, ProbePipeline *p)
{
  GError *err;

  if (g_atomic_int_get (&p->linked))
    return;
  err = g_error_new (GST_STREAM_ERROR, GST_STREAM_ERROR_WRONG_TYPE,
      "no video stream that can be decoded");
  gst_element_post_message (decoder,
      gst_message_new_error (GST_OBJECT (decoder), err, NULL));
  g_error_free (err);
}

static gboolean
add_decoder (ProbePipeline *p, GstElement *decoder)
{
  g_signal_connect (decoder, "pad-added", G_CALLBACK (on_pad_added), p);
  g_signal_connect (decoder, "no-more-pads", G_CALLBACK (on_no_more_pads),
      p);
  return gst_bin_add (GST_BIN (p->pipeline), decoder);
}

static gboolean
has_property (GstElement *element, const gchar *name)
{
  return g_object_class_find_property (G_OBJECT_GET_CLASS (element),
      name) != NULL;
}

static const gchar *
factory_name (GstElement *element)
{
  GstElementFactory *factory = gst_element_get_factory (element);

  return factory ? gst_plugin_feature_get_name (factory) : "";
}

/* The network sources' own timeouts, from the stall timeout: a server
 * that stops answering fails the read itself, with the source's own
 * message. */
static void
set_timeouts (ProbePipeline *p, GstElement *source)
{
  const gchar *name = factory_name (source);

  if (p->source_timeout_s == 0)
    return;
  if (g_str_equal (name, "rtspsrc"))
    g_object_set (source, "tcp-timeout",
        (guint64) p->source_timeout_s * G_USEC_PER_SEC, NULL);
  else if (g_str_equal (name, "souphttpsrc"))
    g_object_set (source, "timeout", p->source_timeout_s, NULL);
}

/* uridecodebin's "source-setup": the source made for the URI without its
 * user information gets the user and password as properties (a source
 * that has none is given the whole URI back), its timeouts, and its
 * connections watched. */
static void
setup_source (GstElement *decoder, GstElement *source, gpointer data)
{
  ProbePipeline *p = data;

  if (p->user) {
    if (has_property (source, "user-id") && has_property (source, "user-pw"))
      g_object_set (source, "user-id", p->user, "user-pw", p->password,
          NULL);
    else if (GST_IS_URI_HANDLER (source))
      gst_uri_handler_set_uri (GST_URI_HANDLER (source), p->uri, NULL);
  }
  set_timeouts (p, source);
  probe_connections_watch (p->connections, source);
}

static gboolean
add_uri (ProbePipeline *p, const gchar *uri, GError **error)
{
  GstElement *decoder = make ("uridecodebin", error);
  gchar *bare;

  if (!decoder)
    return FALSE;
  if (probe_uri_take_credentials (uri, &bare, &p->user, &p->password)) {
    p->uri = g_strdup (uri);
    g_object_set (decoder, "uri", bare, NULL);
    g_free (bare);
  } else {
    g_object_set (decoder, "uri", uri, NULL);
  }
  g_signal_connect (decoder, "source-setup", G_CALLBACK (setup_source), p);
  return add_decoder (p, decoder);
}

static gboolean
add_camera (ProbePipeline *p, const gchar *device, GError **error)
{
  GstElement *source = make ("v4l2src", error);
  GstElement *decoder = source ? make ("decodebin", error) : NULL;

  if (!decoder) {
    if (source)
      gst_object_unref (gst_object_ref_sink (source));
    return FALSE;
  }
  g_object_set (source, "device", device, NULL);
  gst_bin_add (GST_BIN (p->pipeline), source);
  add_decoder (p, decoder);
  return gst_element_link (source, decoder);
}

/**
 * probe_pipeline_set_input:
 * @input: a file name (any characters), a URI, or a camera's device node
 *
 * Returns: %FALSE with @error (in the #G_FILE_ERROR domain for a file
 *   that is not there) if @input cannot be read.
 */
gboolean
probe_pipeline_set_input (ProbePipeline *p, const gchar *input,
    GError **error)
{
  GStatBuf st;
  gchar *uri;
  gboolean ok;
  gint saved;

  /* An existing file first: a file name may contain a colon. */
  saved = g_stat (input, &st) == 0 ? 0 : errno;
  if (saved == 0) {
    if (S_ISCHR (st.st_mode))
      return add_camera (p, input, error);
    if (S_ISDIR (st.st_mode)) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
          "%s: is a folder, not a video", input);
      return FALSE;
    }
    uri = gst_filename_to_uri (input, error);
    ok = uri && add_uri (p, uri, error);
    g_free (uri);
    return ok;
  }
  /* A camera's node that is not there (yet): v4l2src says so when the
   * input starts, and a live input is tried again. */
  if (saved == ENOENT && g_str_has_prefix (input, "/dev/"))
    return add_camera (p, input, error);
  if (!strstr (input, "://") || !gst_uri_is_valid (input)) {
    gchar *shown = probe_uri_redact (input);

    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
        "%s: %s", shown, g_strerror (saved));
    g_free (shown);
    return FALSE;
  }
  if (g_str_has_prefix (input, "file:")) {
    gchar *filename = g_filename_from_uri (input, NULL, NULL);

    if (filename && g_stat (filename, &st) != 0) {
      saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
          "%s: %s", input, g_strerror (saved));
      g_free (filename);
      return FALSE;
    }
    g_free (filename);
  }
  return add_uri (p, input, error);
}

/* Frames past the limit never reach the histogram: the first of them is
 * replaced by EOS, which pushes the frames in flight out and posts a
 * partial interval's message, and the pad then refuses the rest, which
 * stops the decoder. */
static GstPadProbeReturn
limit_frames (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  ProbePipeline *p = user_data;

  if (++p->frames_in <= p->max_frames)
    return GST_PAD_PROBE_OK;
  if (p->frames_in == p->max_frames + 1)
    gst_pad_send_event (pad, gst_event_new_eos ());
  return GST_PAD_PROBE_DROP;
}

/**
 * probe_pipeline_limit_frames:
 * @max_frames: frames to count before the stream ends, 0 for all
 */
void
probe_pipeline_limit_frames (ProbePipeline *p, guint max_frames)
{
  GstPad *pad;

  if (max_frames == 0)
    return;
  p->max_frames = max_frames;
  pad = gst_element_get_static_pad (p->histogram, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, limit_frames, p, NULL);
  gst_object_unref (pad);
}

/**
 * probe_pipeline_limit_reached:
 *
 * Returns: whether the frame limit ended the stream: an EOS that the
 *   limit sent, not the input's own. Call it once the EOS came out.
 */
gboolean
probe_pipeline_limit_reached (ProbePipeline *p)
{
  return p->max_frames > 0 && p->frames_in > p->max_frames;
}

/**
 * probe_pipeline_set_sync:
 * @sync: whether the sink waits for each frame's time on the clock
 *
 * With @sync, frames are counted at the input's own rate, as a camera
 * delivers them, a file too; without it (the default), as fast as they
 * come.
 */
void
probe_pipeline_set_sync (ProbePipeline *p, gboolean sync)
{
  g_object_set (p->sink, "sync", sync, NULL);
}

/**
 * probe_pipeline_set_source_timeout:
 * @seconds: how long a network source may wait for its server, 0 for
 *   the source's own default
 */
void
probe_pipeline_set_source_timeout (ProbePipeline *p, guint seconds)
{
  p->source_timeout_s = seconds;
}

/**
 * probe_pipeline_add_picture:
 * @settings: the input's, applied to the histogram
 * @period_us: the shortest time between two pictures, microseconds
 *
 * Adds the monitor picture's branch (probe-picture.c), fed with the
 * frames the histogram counts, at most one a period. Add it after the
 * frame limit, whose frames past the limit it then never sees.
 *
 * Returns: %FALSE with @error if an element of it is missing.
 */
gboolean
probe_pipeline_add_picture (ProbePipeline *p, const ProbeSettings *settings,
    gint64 period_us, GError **error)
{
  p->picture = probe_picture_new (p->pipeline, p->histogram, settings,
      period_us, error);
  return p->picture != NULL;
}

/**
 * probe_pipeline_cut_connections:
 *
 * Cuts the TCP connections of the pipeline's RTSP source, so that a
 * source stuck reading a reply without end fails and lets the pipeline
 * stop (probe-connections.c).
 *
 * Returns: how many were cut.
 */
guint
probe_pipeline_cut_connections (ProbePipeline *p)
{
  return probe_connections_cut (p->connections);
}

void
probe_pipeline_free (ProbePipeline *p)
{
  if (!p)
    return;
  gst_element_set_state (p->pipeline, GST_STATE_NULL);
  gst_object_unref (p->pipeline);
  probe_picture_free (p->picture);
  gst_clear_caps (&p->offered);
  gst_clear_object (&p->decoded);
  g_mutex_clear (&p->lock);
  probe_connections_unref (p->connections);
  g_free (p->uri);
  g_free (p->user);
  g_free (p->password);
  g_free (p);
}
