/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one OpenCL program a device context builds and caches: the
 * histogram kernels, the tracking kernels and the scope kernels, so that
 * clhistogram, clbackproject, clcamshift and clscope on one device share
 * one compilation. */
#include "histogram.cl"
#include "track.cl"
#include "scope.cl"
