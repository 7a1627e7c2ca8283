/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frames the host CPU counts (clh-engine-host.c), into the slot's host
 * counters, with no kernel launch. */
#pragma once

#include "clh-engine-queues.h"

G_BEGIN_DECLS

/**
 * ClhCounting:
 * @CLH_COUNTING_AUTO: on a CPU device the host CPU counts the requests it
 *   can (8-bit components, the luma or maximum of 8-bit RGB), where the
 *   frame lies, without a kernel launch; the kernels count the others, and
 *   everything on other devices
 * @CLH_COUNTING_DEVICE: the kernels count every frame
 * @CLH_COUNTING_HOST: the host CPU counts the requests it can on any
 *   device
 *
 * Who counts a frame. Both give the same counts, bit for bit.
 */
typedef enum {
  CLH_COUNTING_AUTO,
  CLH_COUNTING_DEVICE,
  CLH_COUNTING_HOST,
} ClhCounting;

gboolean clh_engine_counts_on_host (ClhCounting counting,
    const ClhDeviceInfo *device, const ClhFrame *frame,
    const ClhHistogramSpec *spec);
gboolean clh_engine_count_on_host (ClhQueues *q, const ClhFrame *frame,
    const ClhHistogramSpec *spec, GError **error);

G_END_DECLS
