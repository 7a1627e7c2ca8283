/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in CUDA memory at the elements' sink pads. Today they are mapped as
 * any memory is: gst_video_frame_map() on a GstCudaMemory copies the frame
 * into system memory (GStreamer's CUDA library downloads it on map), and
 * the engine counts that copy. Importing them into OpenCL on the device
 * is the plan of docs/design.md; until then each stream says once, in the
 * log, that its frames take the way through the host. */
#include "gstclcudainput.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudamemory.h>
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
 * Records whether the frames to come are in CUDA memory.
 */
void
gst_cl_cuda_input_set_caps (GstClCudaInput *input, const GstCaps *caps)
{
  input->cuda_caps = gst_caps_get_size (caps) > 0
      && gst_cl_caps_features_are_cuda (caps, 0);
}

/**
 * gst_cl_cuda_input_new_stream:
 * @input: the element's input
 *
 * A new stream starts (STREAM_START): its first frame in CUDA memory is
 * told of again.
 */
void
gst_cl_cuda_input_new_stream (GstClCudaInput *input)
{
  input->told = FALSE;
}

/* Why a frame negotiated in CUDA memory is read through the host. */
static const gchar *
host_read_reason (GstBuffer *buffer)
{
#ifdef HAVE_GST_CUDA
  GstMemory *mem = gst_buffer_n_memory (buffer) > 0 ?
      gst_buffer_peek_memory (buffer, 0) : NULL;

  if (mem && !gst_is_cuda_memory (mem))
    return "its memory is not a GstCudaMemory, so it is mapped where it "
        "lies";
#endif
  return "gst_video_frame_map() copies each GstCudaMemory frame to system "
      "memory: importing CUDA memory into OpenCL on the device is not built "
      "yet";
}

/**
 * gst_cl_cuda_input_note_frame:
 * @input: the element's input
 * @element: the element, for the log
 * @buffer: the frame about to be mapped
 *
 * Once per stream, for the first frame of caps in CUDA memory, logs (at
 * INFO, category clhistogram) that the frames are read through the host,
 * and why. Nothing for frames in system memory.
 */
void
gst_cl_cuda_input_note_frame (GstClCudaInput *input, GstElement *element,
    GstBuffer *buffer)
{
  if (!input->cuda_caps || input->told)
    return;
  input->told = TRUE;
  GST_INFO_OBJECT (element, "frames in CUDA memory (memory:CUDAMemory) "
      "are read through the host: %s", host_read_reason (buffer));
}
