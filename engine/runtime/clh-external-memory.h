/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device memory another API (CUDA) exported as an opaque file descriptor,
 * imported as a host block the kernels read frames from where they lie
 * (clh-external-memory.c). What the elements see of it, through
 * clh-context.h: no OpenCL and no GStreamer types (the engine's view is
 * clh-context-private.h). */
#pragma once

#include "clh-host-block.h"

G_BEGIN_DECLS

gboolean clh_context_can_import_opaque_fd (const ClhContext *context);
ClhHostBlock *clh_context_import_opaque_fd (ClhContext *context, gint fd,
    gsize size, guint64 device_address, GError **error);

G_END_DECLS
