/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every size, offset and value cuda-stub/ declares, as one list
 * that layout-stub.c and layout-toolkit.c each evaluate against their own
 * <cuda.h>; layout-check.c compares the two. */
#pragma once

#include <stddef.h>

#define CLH_CUDA_LAYOUT(X) \
  X (sizeof (CUdeviceptr)) \
  X (sizeof (CUdevice)) \
  X (sizeof (CUtexObject)) \
  X (sizeof (CUmemGenericAllocationHandle)) \
  X (sizeof (CUcontext)) \
  X (sizeof (CUstream)) \
  X (sizeof (CUresult)) \
  X (sizeof (CUuuid)) \
  X (sizeof (CUipcMemHandle)) \
  X (sizeof (CUipcEventHandle)) \
  X (sizeof (CUmemLocation)) \
  X (offsetof (CUmemLocation, id)) \
  X (sizeof (CUmemAllocationProp)) \
  X (offsetof (CUmemAllocationProp, requestedHandleTypes)) \
  X (offsetof (CUmemAllocationProp, location)) \
  X (offsetof (CUmemAllocationProp, win32HandleMetaData)) \
  X (offsetof (CUmemAllocationProp, allocFlags)) \
  X (offsetof (CUmemAllocationProp, allocFlags.usage)) \
  X (sizeof (CUmemAccessDesc)) \
  X (offsetof (CUmemAccessDesc, flags)) \
  X (sizeof (CUDA_MEMCPY2D)) \
  X (offsetof (CUDA_MEMCPY2D, srcMemoryType)) \
  X (offsetof (CUDA_MEMCPY2D, srcHost)) \
  X (offsetof (CUDA_MEMCPY2D, srcDevice)) \
  X (offsetof (CUDA_MEMCPY2D, srcPitch)) \
  X (offsetof (CUDA_MEMCPY2D, dstMemoryType)) \
  X (offsetof (CUDA_MEMCPY2D, dstDevice)) \
  X (offsetof (CUDA_MEMCPY2D, dstPitch)) \
  X (offsetof (CUDA_MEMCPY2D, WidthInBytes)) \
  X (offsetof (CUDA_MEMCPY2D, Height)) \
  X (CUDA_SUCCESS) \
  X (CUDA_ERROR_INVALID_VALUE) \
  X (CUDA_ERROR_OUT_OF_MEMORY) \
  X (CUDA_ERROR_NOT_INITIALIZED) \
  X (CUDA_ERROR_NO_DEVICE) \
  X (CUDA_ERROR_INVALID_DEVICE) \
  X (CUDA_ERROR_NOT_SUPPORTED) \
  X (CUDA_ERROR_UNKNOWN) \
  X (CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT) \
  X (CU_DEVICE_ATTRIBUTE_PCI_BUS_ID) \
  X (CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID) \
  X (CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED) \
  X (CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED) \
  X (CU_MEMORYTYPE_HOST) \
  X (CU_MEMORYTYPE_DEVICE) \
  X (CU_MEMORYTYPE_ARRAY) \
  X (CU_MEMORYTYPE_UNIFIED) \
  X (CU_GRAPHICS_REGISTER_FLAGS_NONE) \
  X (CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY) \
  X (CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD) \
  X (CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE) \
  X (CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY) \
  X (CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD) \
  X (CU_TR_FILTER_MODE_POINT) \
  X (CU_TR_FILTER_MODE_LINEAR) \
  X (CU_LIMIT_STACK_SIZE) \
  X (CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES) \
  X (CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) \
  X (CU_MEM_HANDLE_TYPE_NONE) \
  X (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) \
  X (CU_MEM_HANDLE_TYPE_WIN32) \
  X (CU_MEM_HANDLE_TYPE_WIN32_KMT) \
  X (CU_MEM_ALLOCATION_TYPE_INVALID) \
  X (CU_MEM_ALLOCATION_TYPE_PINNED) \
  X (CU_MEM_LOCATION_TYPE_INVALID) \
  X (CU_MEM_LOCATION_TYPE_DEVICE) \
  X (CU_MEM_ACCESS_FLAGS_PROT_NONE) \
  X (CU_MEM_ACCESS_FLAGS_PROT_READ) \
  X (CU_MEM_ACCESS_FLAGS_PROT_READWRITE) \
  X (CU_MEM_ALLOC_GRANULARITY_MINIMUM) \
  X (CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) \
  X (CU_IPC_HANDLE_SIZE) \
  X (CU_GL_DEVICE_LIST_ALL) \
  X (CU_GL_DEVICE_LIST_CURRENT_FRAME) \
  X (CU_GL_DEVICE_LIST_NEXT_FRAME)

/* Each entry's text and its value under one header. */
typedef struct {
  const char *what;
  unsigned long long value;
} ClhCudaLayoutEntry;

#define CLH_CUDA_LAYOUT_ENTRY(expr) { #expr, (unsigned long long) (expr) },

extern const ClhCudaLayoutEntry clh_cuda_layout_stub[];
extern const ClhCudaLayoutEntry clh_cuda_layout_toolkit[];
extern const size_t clh_cuda_layout_n;
