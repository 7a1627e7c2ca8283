/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compiled program binaries cached on disk per device, driver and kernel
 * source, so that a second start does not compile the kernels again. */
#pragma once

#include "clh-cl.h"
#include "clh-device.h"

G_BEGIN_DECLS

/**
 * ClhProgramOrigin:
 * @CLH_PROGRAM_BUILT: compiled from source; there was no cache file (or
 *   the cache is off), and one was written if a cache directory is set
 * @CLH_PROGRAM_CACHED: created from a cached binary, nothing compiled
 * @CLH_PROGRAM_REBUILT: a cache file existed but was unreadable, corrupt or
 *   refused by the driver: compiled from source and the file rewritten
 *
 * Where a context's program came from.
 */
typedef enum {
  CLH_PROGRAM_BUILT,
  CLH_PROGRAM_CACHED,
  CLH_PROGRAM_REBUILT,
} ClhProgramOrigin;

gchar *clh_program_cache_default_dir (void);
gchar *clh_program_cache_file (const gchar *cache_dir,
    const ClhDeviceInfo *device, const gchar *source, const gchar *options);
cl_program clh_program_cache_build (cl_context context,
    const ClhDeviceInfo *device, const gchar *source, const gchar *options,
    const gchar *cache_dir, ClhProgramOrigin *origin, GError **error);

G_END_DECLS
