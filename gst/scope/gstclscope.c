/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * SECTION:element-clscope
 * @title: clscope
 *
 * Video scopes of the input, counted and drawn on an OpenCL device, as an
 * RGBA video stream of their own: a luma waveform (a histogram of the luma
 * per column, columns gathered to the picture's width, values to its
 * height), a parade (a waveform per channel: Y, Cb, Cr or R, G, B), a
 * vectorscope (the joint histogram of Cb and Cr, with the 75% colour-bar
 * targets and the skin-tone line) and histograms per channel, side by side
 * as #GstClScope:scopes chooses, under a graticule in IRE or code values
 * (0 and 100 IRE, limited range's 16 and 235 at 8 bits, highlighted).
 * A histogram's bars stand over the graticule, and beside them its clip
 * indicators: a lamp lit azure (left) or red (right) when any sample is
 * at or below nominal black or at or above nominal white (16 and 235 in
 * limited range, 0 and 255 in full range: clhistogram's default clip
 * levels), and a gauge of their share.
 * Every format clhistogram reads is drawn at its own depth; RGB input's
 * luma and colour differences come from the caps' matrix (BT.709 above
 * 576 rows, BT.601 below, when the caps name none) in 16-bit fixed point.
 * Only the picture is read back from the device. The waveforms' lines
 * carry their IRE or code values, as many as the plot's height holds
 * apart, and the vectorscope's targets their names (R, Mg, B, Cy, G, Yl),
 * in a bitmap font drawn into the static graticule (none with
 * #GstClScopeBase:graticule none); #GstClScopeBase:vectorscope-zoom
 * magnifies the vectorscope about its centre.
 *
 * The picture's size is the downstream caps' (16x16 to 8192x4096); left
 * free, it is 256 rows high and as wide as the scopes' natural shapes make
 * it (a waveform or histogram two heights, a parade one per channel, a
 * vectorscope one), as FFmpeg's waveform and vectorscope filters size
 * theirs. Each output buffer carries its input's timestamps.
 *
 * When upstream asks, the element proposes a pool of host memory the
 * device reads without a host copy (pinned memory the driver copies from
 * by DMA, on a GPU), with #GstVideoMeta, as clhistogram does; on a GPU,
 * frames in other memory are first copied into the element's own. When
 * downstream proposes no pool, the pictures too come from such a pool,
 * and are read back from the device into it by DMA.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! clscope ! videoconvert ! autovideosink
 * ]| a waveform and a vectorscope of the test pattern.
 * |[
 * gst-launch-1.0 videotestsrc ! tee name=t ! queue ! compositor name=mix \
 *     sink_1::xpos=320 ! videoconvert ! autovideosink \
 *     t. ! queue ! clscope scopes=parade scale=log ! \
 *     video/x-raw,width=480,height=240 ! mix.
 * ]| the video with its parade beside it.
 */
#include "gstclscope.h"
#include "base/gstclbasepool.h"
#include "base/gstclbasehostmemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_scope_debug);
#define GST_CAT_DEFAULT gst_cl_scope_debug

/* The picture's height when downstream leaves it free: FFmpeg's scopes of
 * 8-bit video are 256 high. */
#define DEFAULT_HEIGHT 256

#define SRC_CAPS "video/x-raw, format = (string) RGBA, " \
  "width = (int) [ 16, 8192 ], height = (int) [ 16, 4096 ], " \
  "framerate = (fraction) [ 0/1, MAX ], pixel-aspect-ratio = (fraction) 1/1"

struct _GstClScope {
  GstClScopeBase parent;

  /* Streaming thread: the negotiated picture. */
  GstVideoInfo out_info;
};

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CL_BASE_TRANSFORM_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SRC_CAPS));

#define gst_cl_scope_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstClScope, gst_cl_scope, GST_TYPE_CL_SCOPE_BASE,
    GST_DEBUG_CATEGORY_INIT (gst_cl_scope_debug, "clscope", 0,
        "OpenCL video scopes"));
GST_ELEMENT_REGISTER_DEFINE (clscope, "clscope", GST_RANK_NONE,
    GST_TYPE_CL_SCOPE);

/* The other pad's caps: any size of the other template, the same frame
 * rate. */
static GstCaps *
gst_cl_scope_transform_caps (GstBaseTransform *trans,
    GstPadDirection direction, GstCaps *caps, GstCaps *filter)
{
  GstCaps *templ = direction == GST_PAD_SINK ?
      gst_static_pad_template_get_caps (&src_template) :
      gst_static_pad_template_get_caps (&sink_template);
  GstCaps *result = gst_caps_new_empty ();
  guint i, j;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GValue *rate = gst_structure_get_value (gst_caps_get_structure
        (caps, i), "framerate");
    GstCaps *one = gst_caps_copy (templ);

    for (j = 0; rate && j < gst_caps_get_size (one); j++)
      gst_structure_set_value (gst_caps_get_structure (one, j), "framerate",
          rate);
    result = gst_caps_merge (result, one);
  }
  gst_caps_unref (templ);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      result);
  return result;
}

/* A picture left free is 256 rows high and as wide as the scopes'
 * natural shapes at that height, or as near as downstream allows. */
static GstCaps *
gst_cl_scope_fixate_caps (GstBaseTransform *trans, GstPadDirection direction,
    GstCaps *caps, GstCaps *othercaps)
{
  GstStructure *s;
  gint height = DEFAULT_HEIGHT;

  othercaps = gst_caps_truncate (othercaps);
  othercaps = gst_caps_make_writable (othercaps);
  s = gst_caps_get_structure (othercaps, 0);
  if (direction == GST_PAD_SINK) {
    gst_structure_fixate_field_nearest_int (s, "height", DEFAULT_HEIGHT);
    gst_structure_get_int (s, "height", &height);
    gst_structure_fixate_field_nearest_int (s, "width",
        (gint) gst_cl_scope_base_natural_width (GST_CL_SCOPE_BASE (trans),
            caps, (guint) height));
  }
  return gst_caps_fixate (othercaps);
}

/* An output buffer is one RGBA picture whatever the input buffer's size. */
static gboolean
gst_cl_scope_transform_size (GstBaseTransform *trans,
    GstPadDirection direction, GstCaps *caps, gsize size, GstCaps *othercaps,
    gsize *othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

/* The pool of our host memory for the pictures, when downstream proposes
 * no pool of its own: the engine reads a picture back into it by DMA,
 * where into other memory the driver copies it through a pinned buffer
 * of its own, at a fraction of the speed. A pool downstream proposes is
 * kept (it may be memory it displays from). */
static gboolean
gst_cl_scope_decide_allocation (GstBaseTransform *trans, GstQuery *query)
{
  GstAllocator *allocator =
      gst_cl_base_transform_ref_allocator (GST_CL_BASE_TRANSFORM (trans));
  GstAllocationParams params;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (allocator && gst_query_get_n_allocation_pools (query) == 0) {
    gst_cl_buffer_pool_propose (GST_ELEMENT (trans), query, caps, allocator,
        2);
    /* The base class configures the first pool with the first allocator:
     * ours, with the device's alignment. */
    if (gst_query_get_n_allocation_pools (query) > 0
        && gst_query_get_n_allocation_params (query) > 0) {
      gst_query_parse_nth_allocation_param (query, 0, NULL, &params);
      params.align = MAX (params.align,
          clh_context_get_alignment (gst_cl_host_allocator_get_context
              (allocator)) - 1);
      gst_query_set_nth_allocation_param (query, 0, allocator, &params);
    }
  }
  GST_DEBUG_OBJECT (trans, "pictures in %s", allocator
      && gst_query_get_n_allocation_pools (query) > 0 ? "the first pool of "
      "the query" : "a pool of system memory");
  gst_clear_object (&allocator);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

static gboolean
gst_cl_scope_set_caps (GstBaseTransform *trans, GstCaps *incaps,
    GstCaps *outcaps)
{
  GstClScope *self = GST_CL_SCOPE (trans);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->set_caps (trans, incaps,
      outcaps) && gst_video_info_from_caps (&self->out_info, outcaps);
}

static GstFlowReturn
gst_cl_scope_transform (GstBaseTransform *trans, GstBuffer *inbuf,
    GstBuffer *outbuf)
{
  GstClScope *self = GST_CL_SCOPE (trans);
  GstClScopeBase *base = GST_CL_SCOPE_BASE (trans);
  ClhScopeSpec spec;
  GstVideoFrame out;
  GstFlowReturn ret;

  if (!gst_cl_scope_base_spec (base, GST_VIDEO_INFO_WIDTH (&self->out_info),
          GST_VIDEO_INFO_HEIGHT (&self->out_info), &spec))
    return GST_FLOW_ERROR;
  if (!gst_video_frame_map (&out, &self->out_info, outbuf, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not map the output picture for writing."), (NULL));
    return GST_FLOW_ERROR;
  }
  ret = gst_cl_scope_base_draw (base, inbuf, &spec, outbuf,
      GST_VIDEO_FRAME_PLANE_DATA (&out, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0));
  gst_video_frame_unmap (&out);
  return ret;
}

static void
gst_cl_scope_class_init (GstClScopeClass *klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "OpenCL video scopes", "Filter/Analyzer/Video",
      "Waveform, parade, vectorscope and histograms of the video, counted "
      "and drawn on an OpenCL device", "clhistogram developers");

  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cl_scope_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cl_scope_fixate_caps);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cl_scope_transform_size);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cl_scope_decide_allocation);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cl_scope_set_caps);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cl_scope_transform);
  trans_class->passthrough_on_same_caps = FALSE;
}

static void
gst_cl_scope_init (GstClScope *self)
{
  gst_video_info_init (&self->out_info);
}
