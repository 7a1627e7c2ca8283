/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gstclscopebase.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_SCOPE (gst_cl_scope_get_type ())
G_DECLARE_FINAL_TYPE (GstClScope, gst_cl_scope, GST, CL_SCOPE,
    GstClScopeBase)

GST_ELEMENT_REGISTER_DECLARE (clscope);

G_END_DECLS
