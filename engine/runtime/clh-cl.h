/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The engine's one include of the OpenCL headers, and how an OpenCL status
 * becomes a GError. Included by engine sources and by the engine's tuning
 * header only: the elements make no OpenCL call. */
#pragma once

#ifdef CLH_NO_OPENCL
#error "OpenCL is the engine's business: include clh-engine.h or clh-context.h"
#endif

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "clh-error.h"

G_BEGIN_DECLS

const gchar *clh_cl_error_name (cl_int code);

gboolean clh_cl_check (cl_int code, const gchar *call, GError **error);

G_END_DECLS
