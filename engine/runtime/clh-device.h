/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Finding the OpenCL device a `device` property names. */
#pragma once

#include "clh-cl.h"

G_BEGIN_DECLS

/**
 * ClhDeviceInfo:
 * @platform: the device's platform
 * @device: the device
 * @platform_index: index of @platform as `clinfo -l` lists it
 * @device_index: index of @device within its platform, as `clinfo -l` lists it
 * @type: %CL_DEVICE_TYPE_GPU, %CL_DEVICE_TYPE_ACCELERATOR, ...
 * @name: %CL_DEVICE_NAME
 * @platform_name: %CL_PLATFORM_NAME
 */
typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  guint platform_index;
  guint device_index;
  cl_device_type type;
  gchar *name;
  gchar *platform_name;
} ClhDeviceInfo;

void clh_device_info_clear (ClhDeviceInfo *info);

gchar *clh_platform_string (cl_platform_id platform, cl_platform_info what);
gchar *clh_device_string (cl_device_id device, cl_device_info what);
gboolean clh_device_has_extension (cl_device_id device,
    const gchar *extension);

gboolean clh_device_select (const gchar *spec, ClhDeviceInfo *selected,
    GError **error);
gboolean clh_device_spec_is_auto (const gchar *spec);
GPtrArray *clh_device_list_auto (GError **error);
gchar *clh_device_spec_of (const ClhDeviceInfo *info);

G_END_DECLS
