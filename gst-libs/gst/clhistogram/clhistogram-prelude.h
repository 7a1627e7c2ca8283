/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GST_CLHISTOGRAM_API: marks what libgstclhistogram-1.0 exports. */
#pragma once

#include <gst/gst.h>

/**
 * GST_CLHISTOGRAM_API:
 *
 * Marks a symbol exported by libgstclhistogram-1.0: a DLL export or import
 * on Windows, default visibility elsewhere (the library is built with
 * hidden visibility), as GStreamer's own libraries mark theirs.
 *
 * Since: 0.1
 */
#ifndef GST_CLHISTOGRAM_API
# ifdef _WIN32
#  ifdef BUILDING_GST_CLHISTOGRAM
#   define GST_CLHISTOGRAM_API __declspec(dllexport) extern
#  else
#   define GST_CLHISTOGRAM_API __declspec(dllimport) extern
#  endif
# elif defined (BUILDING_GST_CLHISTOGRAM) && defined (__GNUC__)
#  define GST_CLHISTOGRAM_API __attribute__ ((visibility ("default"))) extern
# else
#  define GST_CLHISTOGRAM_API extern
# endif
#endif
