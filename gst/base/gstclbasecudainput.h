/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in CUDA memory (video/x-raw(memory:CUDAMemory), NVIDIA's decoders)
 * at the elements' sink pads: their caps; the pool of exportable CUDA
 * memory proposed upstream where the CUDA device is the OpenCL device;
 * and each frame mapped where it lies, on the device, or through the host
 * with one log line per stream saying why (docs/design.md, "Frames
 * already in device memory"). */
#pragma once

#include <gst/video/video.h>

#include "clh-context.h"
#include "gstclbaseframemap.h"

G_BEGIN_DECLS

/* GStreamer's name of the caps feature (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
 * of gst/cuda/gstcudamemory.h). */
#define GST_CL_CAPS_FEATURE_MEMORY_CUDA "memory:CUDAMemory"

/* The formats NVIDIA's decoders (GStreamer's nvcodec: nvh264dec,
 * nvh265dec, nvvp9dec, nvav1dec and their nv*sldec) hand on in CUDA
 * memory that clhistogram counts: 4:2:0 as NV12 (8-bit), P010_10LE,
 * P012_LE, P016_LE (10, 12, 16-bit), 4:4:4 as Y444 and Y444_16LE. */
#define GST_CL_CUDA_FORMATS "{ NV12, P010_10LE, P012_LE, P016_LE, Y444, " \
  "Y444_16LE }"
/* Those of them the trackers read (8-bit colour). */
#define GST_CL_CUDA_TRACKER_FORMATS "{ NV12, Y444 }"

/* A caps structure in CUDA memory of @formats, in the sizes the engine
 * reads, to follow a template's system-memory caps; empty where the plugin
 * is built without GStreamer's CUDA library. */
#ifdef HAVE_GST_CUDA
#define GST_CL_CUDA_CAPS_MAKE(formats) "; video/x-raw(" \
  GST_CL_CAPS_FEATURE_MEMORY_CUDA "), format = (string) " formats ", " \
  "width = (int) [ 1, 16384 ], height = (int) [ 1, 16384 ], " \
  "framerate = (fraction) [ 0/1, MAX ]"
#else
#define GST_CL_CUDA_CAPS_MAKE(formats) ""
#endif

/* What an element knows of its input's memory (streaming thread, but
 * @cuda_context: under the object lock). */
typedef struct {
  /* The negotiated caps carry memory:CUDAMemory. */
  gboolean cuda_caps;
  /* This stream's log line was written. */
  gboolean told;
  /* A GstCudaContext the pipeline set (set_context; a GstObject, NULL
   * without GStreamer's CUDA library): the pool's device when no decoder
   * upstream answers a context query. */
  GstObject *cuda_context;
  /* Why the pool of exportable memory was not proposed, if it was not. */
  gchar *not_proposed;
} GstClCudaInput;

gboolean gst_cl_caps_features_are_cuda (const GstCaps *caps, guint index);
void gst_cl_cuda_input_set_caps (GstClCudaInput *input, const GstCaps *caps);
void gst_cl_cuda_input_new_stream (GstClCudaInput *input);
void gst_cl_cuda_input_clear (GstClCudaInput *input);
void gst_cl_cuda_input_set_context (GstClCudaInput *input,
    GstElement *element, GstContext *context);
gboolean gst_cl_cuda_input_propose_allocation (GstClCudaInput *input,
    GstElement *element, GstQuery *query, ClhContext *context,
    guint min_buffers);
gboolean gst_cl_cuda_input_map (GstClCudaInput *input, GstElement *element,
    ClhContext *context, GstClFrameMap *fm, const GstVideoInfo *info,
    const ClhFrame *format, GstBuffer *buffer, ClhFrame *frame,
    const ClhHostBlock **block);

G_END_DECLS
