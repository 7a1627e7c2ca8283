/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The list of layout.h under the project's <cuda.h> (cuda-stub/,
 * on this file's include path). */
#include <cuda.h>
#include <cudaGL.h>

#include "layout.h"

const ClhCudaLayoutEntry clh_cuda_layout_stub[] = {
  CLH_CUDA_LAYOUT (CLH_CUDA_LAYOUT_ENTRY)
};
const size_t clh_cuda_layout_n =
    sizeof (clh_cuda_layout_stub) / sizeof (clh_cuda_layout_stub[0]);
