/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-cl.h"

G_DEFINE_QUARK (clh-engine-error-quark, clh_engine_error)

/**
 * clh_cl_error_name:
 * @code: an OpenCL status code
 *
 * Returns: the name the OpenCL 1.2 headers give @code (e.g.
 *   `"CL_OUT_OF_RESOURCES"`), or `"unknown OpenCL error"`.
 */
const gchar *
clh_cl_error_name (cl_int code)
{
  switch (code) {
#define NAME(c) case c: return #c
      NAME (CL_SUCCESS);
      NAME (CL_DEVICE_NOT_FOUND);
      NAME (CL_DEVICE_NOT_AVAILABLE);
      NAME (CL_COMPILER_NOT_AVAILABLE);
      NAME (CL_MEM_OBJECT_ALLOCATION_FAILURE);
      NAME (CL_OUT_OF_RESOURCES);
      NAME (CL_OUT_OF_HOST_MEMORY);
      NAME (CL_PROFILING_INFO_NOT_AVAILABLE);
      NAME (CL_MEM_COPY_OVERLAP);
      NAME (CL_IMAGE_FORMAT_MISMATCH);
      NAME (CL_IMAGE_FORMAT_NOT_SUPPORTED);
      NAME (CL_BUILD_PROGRAM_FAILURE);
      NAME (CL_MAP_FAILURE);
      NAME (CL_MISALIGNED_SUB_BUFFER_OFFSET);
      NAME (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      NAME (CL_COMPILE_PROGRAM_FAILURE);
      NAME (CL_LINKER_NOT_AVAILABLE);
      NAME (CL_LINK_PROGRAM_FAILURE);
      NAME (CL_DEVICE_PARTITION_FAILED);
      NAME (CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
      NAME (CL_INVALID_VALUE);
      NAME (CL_INVALID_DEVICE_TYPE);
      NAME (CL_INVALID_PLATFORM);
      NAME (CL_INVALID_DEVICE);
      NAME (CL_INVALID_CONTEXT);
      NAME (CL_INVALID_QUEUE_PROPERTIES);
      NAME (CL_INVALID_COMMAND_QUEUE);
      NAME (CL_INVALID_HOST_PTR);
      NAME (CL_INVALID_MEM_OBJECT);
      NAME (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
      NAME (CL_INVALID_IMAGE_SIZE);
      NAME (CL_INVALID_SAMPLER);
      NAME (CL_INVALID_BINARY);
      NAME (CL_INVALID_BUILD_OPTIONS);
      NAME (CL_INVALID_PROGRAM);
      NAME (CL_INVALID_PROGRAM_EXECUTABLE);
      NAME (CL_INVALID_KERNEL_NAME);
      NAME (CL_INVALID_KERNEL_DEFINITION);
      NAME (CL_INVALID_KERNEL);
      NAME (CL_INVALID_ARG_INDEX);
      NAME (CL_INVALID_ARG_VALUE);
      NAME (CL_INVALID_ARG_SIZE);
      NAME (CL_INVALID_KERNEL_ARGS);
      NAME (CL_INVALID_WORK_DIMENSION);
      NAME (CL_INVALID_WORK_GROUP_SIZE);
      NAME (CL_INVALID_WORK_ITEM_SIZE);
      NAME (CL_INVALID_GLOBAL_OFFSET);
      NAME (CL_INVALID_EVENT_WAIT_LIST);
      NAME (CL_INVALID_EVENT);
      NAME (CL_INVALID_OPERATION);
      NAME (CL_INVALID_GL_OBJECT);
      NAME (CL_INVALID_BUFFER_SIZE);
      NAME (CL_INVALID_MIP_LEVEL);
      NAME (CL_INVALID_GLOBAL_WORK_SIZE);
      NAME (CL_INVALID_PROPERTY);
      NAME (CL_INVALID_IMAGE_DESCRIPTOR);
      NAME (CL_INVALID_COMPILER_OPTIONS);
      NAME (CL_INVALID_LINKER_OPTIONS);
      NAME (CL_INVALID_DEVICE_PARTITION_COUNT);
#undef NAME
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "unknown OpenCL error";
  }
}

/**
 * clh_cl_check:
 * @code: what an OpenCL call returned
 * @call: the call's name, for the message
 * @error: (out) (optional): set to %CLH_ENGINE_ERROR_OPENCL on failure
 *
 * Returns: %TRUE if @code is %CL_SUCCESS.
 */
gboolean
clh_cl_check (cl_int code, const gchar *call, GError **error)
{
  if (code == CL_SUCCESS)
    return TRUE;
  g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_OPENCL,
      "%s failed: %s (%d)", call, clh_cl_error_name (code), code);
  return FALSE;
}
