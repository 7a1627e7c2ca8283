/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one OpenCL program a device context builds and caches: the
 * histogram kernels, the tracking kernels, the exposure marks and the
 * scope kernels, so that clhistogram, clbackproject, clcamshift,
 * clexposuremarks and clscope on one device share one compilation. */
#include "histogram.cl"
#include "track.cl"
#include "marks.cl"
#include "scope.cl"
