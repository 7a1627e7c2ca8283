/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Everything the clhistogram library offers applications. */
#pragma once

#include <gst/clhistogram/clhistogram-prelude.h>
#include <gst/clhistogram/gsthistograminfo.h>
#include <gst/clhistogram/gsthistogrammeta.h>
