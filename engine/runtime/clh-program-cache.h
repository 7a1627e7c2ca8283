/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compiled program binaries cached on disk per device, driver and kernel
 * source, so that a second start does not compile the kernels again. */
#pragma once

#include "clh-cl.h"
#include "clh-context.h"
#include "clh-device.h"

G_BEGIN_DECLS

gchar *clh_program_cache_default_dir (void);
gchar *clh_program_cache_file (const gchar *cache_dir,
    const ClhDeviceInfo *device, const gchar *source, const gchar *options);
cl_program clh_program_cache_build (cl_context context,
    const ClhDeviceInfo *device, const gchar *source, const gchar *options,
    const gchar *cache_dir, ClhProgramOrigin *origin, GError **error);

G_END_DECLS
