/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gstclhistogramresult.h"

G_BEGIN_DECLS

typedef struct _GstClPoster GstClPoster;

GstClPoster *gst_cl_poster_new (GstElement *element);
void gst_cl_poster_free (GstClPoster *poster);
void gst_cl_poster_post (GstClPoster *poster,
    GstClHistogramRequest *request, const GstClHistogramReport *report);
void gst_cl_poster_flush (GstClPoster *poster);
void gst_cl_poster_stop (GstClPoster *poster);

G_END_DECLS
