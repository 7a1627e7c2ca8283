/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The part of NVIDIA's CUDA/OpenGL interoperability API that GStreamer's
 * CUDA library headers name (cuda.h beside this file says why it is
 * declared here). */
#pragma once

#include "cuda.h"

typedef enum CUGLDeviceList_enum {
  CU_GL_DEVICE_LIST_ALL = 1,
  CU_GL_DEVICE_LIST_CURRENT_FRAME = 2,
  CU_GL_DEVICE_LIST_NEXT_FRAME = 3
} CUGLDeviceList;
