/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The public GstHistogramMode as the engine's ClhCount. */
#pragma once

#include <gst/clhistogram/clhistogram.h>

#include "clh-frame.h"

G_BEGIN_DECLS

ClhCount gst_cl_histogram_mode_count (GstHistogramMode mode);

G_END_DECLS
