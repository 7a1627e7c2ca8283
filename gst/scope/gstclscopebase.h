/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The base of clscope and clscopeoverlay: an element on the OpenCL device
 * that draws scope pictures of its input with the scope engine. */
#pragma once

#include "clh-scope.h"
#include "base/gstclbasetransform.h"

G_BEGIN_DECLS

/**
 * GstClScopeKinds:
 * @GST_CL_SCOPE_WAVEFORM: luma waveform
 * @GST_CL_SCOPE_PARADE: a waveform per channel, side by side
 * @GST_CL_SCOPE_VECTORSCOPE: Cb x Cr with the 75% targets and skin-tone line
 * @GST_CL_SCOPE_HISTOGRAM: a histogram per channel, with the graticule
 *
 * The scopes a picture shows, left to right.
 */
typedef enum {
  GST_CL_SCOPE_WAVEFORM = CLH_SCOPE_WAVEFORM,
  GST_CL_SCOPE_PARADE = CLH_SCOPE_PARADE,
  GST_CL_SCOPE_VECTORSCOPE = CLH_SCOPE_VECTORSCOPE,
  GST_CL_SCOPE_HISTOGRAM = CLH_SCOPE_HISTOGRAM,
} GstClScopeKinds;

#define GST_TYPE_CL_SCOPE_KINDS (gst_cl_scope_kinds_get_type ())
GType gst_cl_scope_kinds_get_type (void);

/**
 * GstClScopeScale:
 * @GST_CL_SCOPE_SCALE_LINEAR: brightness (bar height) grows with the count
 * @GST_CL_SCOPE_SCALE_LOG: with its logarithm
 */
typedef enum {
  GST_CL_SCOPE_SCALE_LINEAR = CLH_SCOPE_LINEAR,
  GST_CL_SCOPE_SCALE_LOG = CLH_SCOPE_LOG,
} GstClScopeScale;

#define GST_TYPE_CL_SCOPE_SCALE (gst_cl_scope_scale_get_type ())
GType gst_cl_scope_scale_get_type (void);

/**
 * GstClScopeGraticule:
 * @GST_CL_SCOPE_GRATICULE_IRE: 0..100 IRE in 10s, 0 and 100 highlighted
 * @GST_CL_SCOPE_GRATICULE_CODES: code values in quarters, limited range's
 *   black and white highlighted
 * @GST_CL_SCOPE_GRATICULE_NONE: none
 */
typedef enum {
  GST_CL_SCOPE_GRATICULE_IRE = CLH_SCOPE_GRATICULE_IRE,
  GST_CL_SCOPE_GRATICULE_CODES = CLH_SCOPE_GRATICULE_CODES,
  GST_CL_SCOPE_GRATICULE_NONE = CLH_SCOPE_GRATICULE_NONE,
} GstClScopeGraticule;

#define GST_TYPE_CL_SCOPE_GRATICULE (gst_cl_scope_graticule_get_type ())
GType gst_cl_scope_graticule_get_type (void);

#define GST_TYPE_CL_SCOPE_BASE (gst_cl_scope_base_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstClScopeBase, gst_cl_scope_base, GST,
    CL_SCOPE_BASE, GstClBaseTransform)

struct _GstClScopeBaseClass {
  GstClBaseTransformClass parent_class;
};

guint gst_cl_scope_base_natural_width (GstClScopeBase *self, GstCaps *caps,
    guint height);
gboolean gst_cl_scope_base_spec (GstClScopeBase *self, guint width,
    guint height, ClhScopeSpec *spec);
GstFlowReturn gst_cl_scope_base_draw (GstClScopeBase *self,
    GstBuffer *inbuf, const ClhScopeSpec *spec, GstBuffer *outbuf,
    guint8 *dest, gsize dest_stride);

GstFlowReturn gst_cl_scope_base_overlay (GstClScopeBase *self,
    GstBuffer *buffer, const ClhScopeSpec *spec, guint x, guint y,
    guint alpha);

G_END_DECLS
