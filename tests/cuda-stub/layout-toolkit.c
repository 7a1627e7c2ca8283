/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The list of layout.h under NVIDIA's <cuda.h> (the CUDA toolkit's, on
 * this file's include path). */
#include <cuda.h>
#include <cudaGL.h>

#include "layout.h"

const ClhCudaLayoutEntry clh_cuda_layout_toolkit[] = {
  CLH_CUDA_LAYOUT (CLH_CUDA_LAYOUT_ENTRY)
};
