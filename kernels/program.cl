/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one OpenCL program a device context builds and caches: the
 * histogram kernels and the tracking kernels, so that clhistogram,
 * clbackproject and clcamshift on one device share one compilation. */
#include "histogram.cl"
#include "track.cl"
