/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames in CUDA memory counted where they lie with GStreamer 1.24's CUDA
 * library and later: a GstCudaBufferPool of virtual memory (allocated with
 * cuMemCreate(), exportable as a POSIX file descriptor) proposed upstream,
 * and its memory imported into OpenCL through the library's public API. */
#pragma once

#include <gst/gst.h>

#include "clh-context.h"

G_BEGIN_DECLS

gboolean gst_cl_cuda_export_is_exportable (GstMemory *mem);
ClhHostBlock *gst_cl_cuda_export_get_block (GstMemory *mem,
    ClhContext *context, GError **error);

G_END_DECLS
