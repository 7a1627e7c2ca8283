/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The import of device memory another API (CUDA) exported as an opaque
 * POSIX file descriptor (cl_khr_external_memory_opaque_fd), as a host
 * block the kernels read frames from where they lie. Its entry points are
 * resolved at run time, since the engine is built against the OpenCL 1.2
 * API and a loader or driver may lack them. */
#include "clh-context-state.h"

#include <gmodule.h>

/* The Khronos names of cl_khr_external_memory_opaque_fd's import (the
 * OpenCL Extension Specification, "External Memory"). */
#define CLH_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR 0x2060
#define CLH_DEVICE_HANDLE_LIST_KHR 0x2051
#define CLH_DEVICE_HANDLE_LIST_END_KHR 0

/* A platform's extension function, else the ICD loader's symbol of that
 * name (OpenCL 3.0's core functions, which the engine, built against the
 * 1.2 API, does not link to: a loader without them still loads it). By
 * the loader's file name, since a plugin's libraries are not in the
 * process's global scope. */
static gpointer
platform_function (cl_platform_id platform, GModule *loader,
    const gchar *name)
{
  gpointer fn = clGetExtensionFunctionAddressForPlatform (platform, name);

  if (!fn && loader && !g_module_symbol (loader, name, &fn))
    fn = NULL;
  return fn;
}

/* Resolves the import's three entry points, once per context; all or
 * none, since cl_khr_external_memory requires the acquire and release
 * around every use. */
static gpointer
import_functions (gpointer data)
{
  ClhContext *ctx = data;
  const cl_platform_id platform = ctx->device.platform;
  GModule *loader;

  if (!clh_device_has_extension (ctx->device.device,
          "cl_khr_external_memory_opaque_fd"))
    return NULL;
  /* Left open: the loader stays mapped while the engine links to it. */
  loader = g_module_open ("libOpenCL.so.1", G_MODULE_BIND_LAZY);
  ctx->create_with_properties = platform_function (platform, loader,
      "clCreateBufferWithProperties");
  ctx->acquire = platform_function (platform, loader,
      "clEnqueueAcquireExternalMemObjectsKHR");
  ctx->release = platform_function (platform, loader,
      "clEnqueueReleaseExternalMemObjectsKHR");
  if (!ctx->create_with_properties || !ctx->acquire || !ctx->release)
    ctx->create_with_properties = NULL;
  return NULL;
}

/**
 * clh_context_can_import_opaque_fd:
 * @context: a context
 *
 * Whether the device imports memory another API exported as an opaque
 * POSIX file descriptor (cl_khr_external_memory_opaque_fd: NVIDIA's driver
 * does, for CUDA's cuMemExportToShareableHandle()), so that
 * clh_context_import_opaque_fd() can succeed: the device lists the
 * extension and the loader and driver give its entry points
 * (clCreateBufferWithProperties() of OpenCL 3.0,
 * clEnqueueAcquireExternalMemObjectsKHR() and its release).
 *
 * Returns: %TRUE if the device can import
 */
gboolean
clh_context_can_import_opaque_fd (const ClhContext *context)
{
  ClhContext *ctx = (ClhContext *) context;

  g_once (&ctx->import_once, import_functions, ctx);
  return ctx->create_with_properties != NULL;
}

/**
 * clh_context_import_opaque_fd:
 * @context: a context whose device can import
 *   (clh_context_can_import_opaque_fd())
 * @fd: a file descriptor another API exported for device memory of the
 *   same GPU (CUDA's cuMemExportToShareableHandle() with
 *   %CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR); on success the OpenCL
 *   driver owns it (as Vulkan's and CUDA's imports do), on failure it is
 *   still the caller's
 * @size: bytes of the allocation @fd stands for
 * @device_address: its first byte's address in the exporting API's device
 *   address space (a CUdeviceptr)
 * @error: %CLH_ENGINE_ERROR_INVALID if the device cannot import
 *   (clh_context_can_import_opaque_fd()), @fd is negative, or @size is 0
 *   or beyond clh_context_get_max_host_block(); %CLH_ENGINE_ERROR_OPENCL if
 *   the driver refuses the import
 *
 * Imports device memory another API allocated as a block the engine reads
 * frames from where they lie, with no copy: frames whose planes are given
 * as addresses in [@device_address, @device_address + @size) of that API
 * (#ClhFrame's plane data) are counted from it when the block is passed to
 * clh_engine_submit(), clh_engine_submit_regions() or the tracker. The
 * host never reads through those addresses. The exporting API must have finished writing a frame
 * before it is submitted: the kernels do not wait for its streams. Import
 * once per allocation, not per frame: the import maps the memory into the
 * OpenCL context.
 *
 * Returns: (transfer full) (nullable): the block, or %NULL on error
 */
ClhHostBlock *
clh_context_import_opaque_fd (ClhContext *context, gint fd, gsize size,
    guint64 device_address, GError **error)
{
  cl_ulong props[6];
  ClhHostBlock *block;
  cl_int ret;

  if (!clh_context_can_import_opaque_fd (context)) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "%s does not import external memory (no "
        "cl_khr_external_memory_opaque_fd, or the OpenCL loader lacks "
        "clCreateBufferWithProperties)", context->device.name);
    return NULL;
  }
  if (fd < 0 || size == 0 || size > context->max_block
      || device_address > G_MAXUINT64 - size) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_INVALID,
        "cannot import %" G_GSIZE_FORMAT " bytes of external memory (fd "
        "%d) on %s", size, fd, context->device.name);
    return NULL;
  }
  props[0] = CLH_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR;
  props[1] = (cl_ulong) fd;
  props[2] = CLH_DEVICE_HANDLE_LIST_KHR;
  props[3] = (cl_ulong) (guintptr) context->device.device;
  props[4] = CLH_DEVICE_HANDLE_LIST_END_KHR;
  props[5] = 0;
  block = g_new0 (ClhHostBlock, 1);
  block->external = TRUE;
  block->mem = context->create_with_properties (context->context, props,
      CL_MEM_READ_ONLY, size, NULL, &ret);
  if (!clh_cl_check (ret, "clCreateBufferWithProperties (opaque fd)",
          error)) {
    g_free (block);
    return NULL;
  }
  block->context = clh_context_ref (context);
  block->data = (guint8 *) (guintptr) device_address;
  block->size = size;
  return block;
}

/**
 * clh_host_block_acquire:
 * @block: an external block
 * @queue: the queue of the commands that will read it
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Enqueues cl_khr_external_memory's acquire of @block before commands that
 * read it, as the extension requires; nothing for other blocks.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_host_block_acquire (const ClhHostBlock *block, cl_command_queue queue,
    GError **error)
{
  if (!block->external)
    return TRUE;
  return clh_cl_check (block->context->acquire (queue, 1, &block->mem, 0,
          NULL, NULL), "clEnqueueAcquireExternalMemObjectsKHR", error);
}

/**
 * clh_host_block_release:
 * @block: an external block acquired on @queue
 * @queue: that queue
 * @error: %CLH_ENGINE_ERROR_OPENCL
 *
 * Enqueues the release that ends clh_host_block_acquire()'s.
 *
 * Returns: %TRUE on success
 */
gboolean
clh_host_block_release (const ClhHostBlock *block, cl_command_queue queue,
    GError **error)
{
  if (!block->external)
    return TRUE;
  return clh_cl_check (block->context->release (queue, 1, &block->mem, 0,
          NULL, NULL), "clEnqueueReleaseExternalMemObjectsKHR", error);
}
