/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The engine's error domain: what its callers see of a failure, with no
 * OpenCL types. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CLH_ENGINE_ERROR (clh_engine_error_quark ())

/**
 * ClhEngineError:
 * @CLH_ENGINE_ERROR_NO_DEVICE: no OpenCL platform or device exists at all
 * @CLH_ENGINE_ERROR_DEVICE_NOT_FOUND: devices exist but none matches the
 *   requested one; the message lists those that exist
 * @CLH_ENGINE_ERROR_BUILD: the kernels failed to build; the message holds
 *   the compiler's build log
 * @CLH_ENGINE_ERROR_OPENCL: an OpenCL call failed; the message names the
 *   call and the error (e.g. `CL_OUT_OF_RESOURCES`)
 * @CLH_ENGINE_ERROR_INVALID: the request is outside what the engine does
 */
typedef enum {
  CLH_ENGINE_ERROR_NO_DEVICE,
  CLH_ENGINE_ERROR_DEVICE_NOT_FOUND,
  CLH_ENGINE_ERROR_BUILD,
  CLH_ENGINE_ERROR_OPENCL,
  CLH_ENGINE_ERROR_INVALID,
} ClhEngineError;

GQuark clh_engine_error_quark (void);

G_END_DECLS
