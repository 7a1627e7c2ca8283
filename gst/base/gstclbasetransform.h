/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base of every element of the plugin that works on an OpenCL device
 * (gstclbasetransform.c). */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "clh-context.h"
#include "gstclbaseframemap.h"

G_BEGIN_DECLS

/**
 * GstClBaseTransformInputs:
 * @GST_CL_BASE_TRANSFORM_INPUT_HOST_POOL: proposes upstream a pool of host
 *   memory on the device, whose frames the engine reads without a host
 *   copy (gstclbasepool.c)
 * @GST_CL_BASE_TRANSFORM_INPUT_CUDA: accepts frames in CUDA memory and
 *   proposes a pool of exportable CUDA memory to the decoder, imported
 *   into OpenCL (gstclbasecudainput.c)
 *
 * The memory an element offers upstream, besides the system memory every
 * element reads.
 */
typedef enum {
  GST_CL_BASE_TRANSFORM_INPUT_HOST_POOL = 1 << 0,
  GST_CL_BASE_TRANSFORM_INPUT_CUDA = 1 << 1,
} GstClBaseTransformInputs;

#define GST_TYPE_CL_BASE_TRANSFORM (gst_cl_base_transform_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClBaseTransform, gst_cl_base_transform, GST,
    CL_BASE_TRANSFORM, GstBaseTransform)

/**
 * GstClBaseTransformClass:
 * @parent_class: the parent class
 * @inputs: the memory the element offers upstream
 * @doing: what the element does to a frame, for its errors and log
 *   ("counting": "OpenCL failed while counting a frame on ...")
 * @done: the same, done ("read": "The I420 frame cannot be read as its
 *   caps and GstVideoMeta describe it")
 * @open: (required) makes the element's engine on @context, at
 *   NULL->READY; %FALSE with @error set (the base class posts the element
 *   error)
 * @close: frees the element's engine, at READY->NULL, after a failed
 *   @open, and at dispose; called only after @open was
 * @set_info: the element's part of new input caps, before they are
 *   stored; %FALSE refuses them (the element says why)
 * @proposed_buffers: the frames the element holds at once, plus one: the
 *   minimum of the pools it proposes (2 if unset)
 */
struct _GstClBaseTransformClass {
  GstBaseTransformClass parent_class;

  GstClBaseTransformInputs inputs;
  const gchar *doing;
  const gchar *done;

  gboolean (*open) (GstClBaseTransform *self, ClhContext *context,
      GError **error);
  void (*close) (GstClBaseTransform *self);
  gboolean (*set_info) (GstClBaseTransform *self, GstCaps *incaps,
      const GstVideoInfo *info, const ClhFrame *format, GstCaps *outcaps);
  guint (*proposed_buffers) (GstClBaseTransform *self);

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING];
};

/* The formats the engines read in place: every component of these is a
 * byte or a 16-bit word at a fixed offset and pixel stride of its plane. */
#define GST_CL_BASE_TRANSFORM_FORMATS "{ GRAY8, GRAY16_LE, GRAY16_BE, " \
  "RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, " \
  "I420, YV12, Y41B, Y42B, Y444, YUV9, YVU9, NV12, NV21, NV16, NV61, NV24, " \
  "YUY2, UYVY, YVYU, VYUY, " \
  "I420_10LE, I420_10BE, I420_12LE, I422_10LE, I422_12LE, " \
  "Y444_10LE, Y444_10BE, Y444_12LE, Y444_16LE, P010_10LE, P012_LE, P016_LE }"

/* Raw video of @formats (a GstCaps list) in system memory, in the sizes
 * the engines read. */
#define GST_CL_BASE_TRANSFORM_CAPS_MAKE(formats) "video/x-raw, format = " \
  "(string) " formats ", width = (int) [ 1, 16384 ], " \
  "height = (int) [ 1, 16384 ], framerate = (fraction) [ 0/1, MAX ]"

/* Every format the engines read, in system memory. */
#define GST_CL_BASE_TRANSFORM_CAPS \
  GST_CL_BASE_TRANSFORM_CAPS_MAKE (GST_CL_BASE_TRANSFORM_FORMATS)

const GstVideoInfo *gst_cl_base_transform_get_info (GstClBaseTransform *self);
const ClhFrame *gst_cl_base_transform_get_format (GstClBaseTransform *self);
GstAllocator *gst_cl_base_transform_ref_allocator (GstClBaseTransform *self);
gboolean gst_cl_base_transform_map (GstClBaseTransform *self,
    GstBuffer *buffer, GstClFrameMap *map, ClhFrame *frame,
    const ClhHostBlock **block);
const ClhHostBlock *gst_cl_base_transform_host_block (GstClBaseTransform
    *self, GstBuffer *buffer);
GstFlowReturn gst_cl_base_transform_engine_error (GstClBaseTransform *self,
    GError *err);

G_END_DECLS
