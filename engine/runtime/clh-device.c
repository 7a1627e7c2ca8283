/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "clh-device.h"

#include <stdlib.h>
#include <string.h>

#define INSTALL_HINT \
  "Install an OpenCL driver (ICD): nvidia-opencl-icd for NVIDIA GPUs, " \
  "intel-opencl-icd for Intel GPUs, mesa-opencl-icd or ROCm for AMD GPUs, " \
  "or pocl-opencl-icd to run on the CPU; 'clinfo -l' lists what is installed"

void
clh_device_info_clear (ClhDeviceInfo *info)
{
  g_clear_pointer (&info->name, g_free);
  g_clear_pointer (&info->platform_name, g_free);
}

/**
 * clh_platform_string:
 * @platform: a platform
 * @what: e.g. %CL_PLATFORM_NAME
 *
 * Returns: (transfer full): the string the driver reports, stripped; "?"
 *   when the query fails
 */
gchar *
clh_platform_string (cl_platform_id platform, cl_platform_info what)
{
  size_t size = 0;
  gchar *s;

  if (clGetPlatformInfo (platform, what, 0, NULL, &size) != CL_SUCCESS)
    return g_strdup ("?");
  s = g_malloc0 (size + 1);
  clGetPlatformInfo (platform, what, size, s, NULL);
  return g_strstrip (s);
}

/**
 * clh_device_string:
 * @device: a device
 * @what: e.g. %CL_DEVICE_NAME
 *
 * Returns: (transfer full): the string the driver reports, stripped; "?"
 *   when the query fails
 */
gchar *
clh_device_string (cl_device_id device, cl_device_info what)
{
  size_t size = 0;
  gchar *s;

  if (clGetDeviceInfo (device, what, 0, NULL, &size) != CL_SUCCESS)
    return g_strdup ("?");
  s = g_malloc0 (size + 1);
  clGetDeviceInfo (device, what, size, s, NULL);
  return g_strstrip (s);
}

/**
 * clh_device_has_extension:
 * @device: a device
 * @extension: an extension's name, e.g. "cl_khr_device_uuid"
 *
 * Whether %CL_DEVICE_EXTENSIONS names @extension: a whole word of the
 * space-separated list, so that a name that begins another (cl_khr_fp16,
 * cl_khr_fp16_extended) is not taken for it.
 *
 * Returns: %TRUE if the device offers @extension; %FALSE if it does not or
 *   the query fails
 */
gboolean
clh_device_has_extension (cl_device_id device, const gchar *extension)
{
  gchar *list = clh_device_string (device, CL_DEVICE_EXTENSIONS);
  gchar **names = g_strsplit_set (list, " \t\n", -1);
  gboolean found = g_strv_contains ((const gchar * const *) names,
      extension);

  g_strfreev (names);
  g_free (list);
  return found;
}

static void
device_info_free (gpointer p)
{
  clh_device_info_clear (p);
  g_free (p);
}

/* Every device of every platform, in clinfo -l order; NULL and
 * CLH_ENGINE_ERROR_NO_DEVICE when there is none. */
static GPtrArray *
list_devices (GError **error)
{
  cl_uint n_platforms = 0, p;
  cl_platform_id *platforms;
  GPtrArray *devices;
  cl_int ret;

  ret = clGetPlatformIDs (0, NULL, &n_platforms);
  if (ret != CL_SUCCESS || n_platforms == 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_NO_DEVICE,
        "No OpenCL platform found (clGetPlatformIDs: %s). " INSTALL_HINT ".",
        clh_cl_error_name (ret));
    return NULL;
  }

  platforms = g_new0 (cl_platform_id, n_platforms);
  clGetPlatformIDs (n_platforms, platforms, NULL);
  devices = g_ptr_array_new_with_free_func (device_info_free);

  for (p = 0; p < n_platforms; p++) {
    cl_uint n_devices = 0, d;
    cl_device_id *ids;

    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL,
            &n_devices) != CL_SUCCESS || n_devices == 0)
      continue;
    ids = g_new0 (cl_device_id, n_devices);
    clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, n_devices, ids, NULL);
    for (d = 0; d < n_devices; d++) {
      ClhDeviceInfo *info = g_new0 (ClhDeviceInfo, 1);

      info->platform = platforms[p];
      info->device = ids[d];
      info->platform_index = p;
      info->device_index = d;
      clGetDeviceInfo (ids[d], CL_DEVICE_TYPE, sizeof (info->type),
          &info->type, NULL);
      info->name = clh_device_string (ids[d], CL_DEVICE_NAME);
      info->platform_name = clh_platform_string (platforms[p],
          CL_PLATFORM_NAME);
      g_ptr_array_add (devices, info);
    }
    g_free (ids);
  }
  g_free (platforms);

  if (devices->len == 0) {
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_NO_DEVICE,
        "%u OpenCL platform(s) found but no device on any of them. "
        INSTALL_HINT ".", n_platforms);
    g_ptr_array_unref (devices);
    return NULL;
  }
  return devices;
}

static const gchar *
type_name (cl_device_type type)
{
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  if (type & CL_DEVICE_TYPE_CPU)
    return "CPU";
  return "other";
}

/* The type "auto" chooses among: GPU, else accelerator, else CPU, else
 * (0) any. */
static cl_device_type
auto_type (GPtrArray *devices)
{
  static const cl_device_type preference[] = {
    CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CPU,
  };
  guint t, i;

  for (t = 0; t < G_N_ELEMENTS (preference); t++)
    for (i = 0; i < devices->len; i++)
      if (((ClhDeviceInfo *) g_ptr_array_index (devices, i))->type
          & preference[t])
        return preference[t];
  return 0;
}

static gboolean
is_auto_choice (const ClhDeviceInfo *info, cl_device_type type)
{
  return type == 0 || (info->type & type);
}

/* "auto": the first GPU, else the first accelerator, else the first CPU,
 * else whatever comes first. */
static ClhDeviceInfo *
match_auto (GPtrArray *devices)
{
  const cl_device_type type = auto_type (devices);
  guint i;

  for (i = 0; i < devices->len; i++)
    if (is_auto_choice (g_ptr_array_index (devices, i), type))
      return g_ptr_array_index (devices, i);
  return NULL;
}

/* "P:D", both decimal indices; FALSE if @spec has any other shape. */
static gboolean
parse_indices (const gchar *spec, guint64 *p, guint64 *d)
{
  gchar **parts = g_strsplit (spec, ":", -1);
  gboolean ok = g_strv_length (parts) == 2
      && g_ascii_string_to_unsigned (parts[0], 10, 0, G_MAXUINT, p, NULL)
      && g_ascii_string_to_unsigned (parts[1], 10, 0, G_MAXUINT, d, NULL);

  g_strfreev (parts);
  return ok;
}

static ClhDeviceInfo *
match (GPtrArray *devices, const gchar *spec)
{
  guint64 p, d;
  gchar *needle;
  ClhDeviceInfo *found = NULL;
  guint i;

  if (clh_device_spec_is_auto (spec))
    return match_auto (devices);

  if (parse_indices (spec, &p, &d)) {
    for (i = 0; i < devices->len; i++) {
      ClhDeviceInfo *info = g_ptr_array_index (devices, i);
      if (info->platform_index == p && info->device_index == d)
        return info;
    }
    return NULL;
  }

  needle = g_ascii_strdown (spec, -1);
  for (i = 0; i < devices->len && !found; i++) {
    ClhDeviceInfo *info = g_ptr_array_index (devices, i);
    gchar *name = g_ascii_strdown (info->name, -1);
    if (strstr (name, needle))
      found = info;
    g_free (name);
  }
  g_free (needle);
  return found;
}

static gchar *
describe_devices (GPtrArray *devices)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < devices->len; i++) {
    ClhDeviceInfo *info = g_ptr_array_index (devices, i);
    g_string_append_printf (s, "%s%u:%u %s (%s, %s)", i ? "; " : "",
        info->platform_index, info->device_index, info->name,
        type_name (info->type), info->platform_name);
  }
  return g_string_free (s, FALSE);
}

/**
 * clh_device_select:
 * @spec: (nullable): `"auto"` or %NULL for the first GPU, else the first
 *   accelerator, else the first CPU device; `"P:D"` for platform P, device D
 *   as `clinfo -l` numbers them; anything else is a case-insensitive
 *   substring of the device name
 * @selected: (out caller-allocates): filled with the match; clear it with
 *   clh_device_info_clear()
 * @error: %CLH_ENGINE_ERROR_NO_DEVICE when there is no OpenCL device at all,
 *   %CLH_ENGINE_ERROR_DEVICE_NOT_FOUND (listing the devices that exist) when
 *   none matches @spec
 *
 * Returns: %TRUE if a device was selected.
 */
gboolean
clh_device_select (const gchar *spec, ClhDeviceInfo *selected, GError **error)
{
  GPtrArray *devices = list_devices (error);
  ClhDeviceInfo *found;

  if (!devices)
    return FALSE;

  found = match (devices, spec);
  if (!found) {
    gchar *list = describe_devices (devices);
    g_set_error (error, CLH_ENGINE_ERROR, CLH_ENGINE_ERROR_DEVICE_NOT_FOUND,
        "No OpenCL device matches \"%s\". Devices: %s. Use \"auto\", "
        "\"P:D\" or part of a device name.", spec, list);
    g_free (list);
    g_ptr_array_unref (devices);
    return FALSE;
  }

  *selected = *found;
  selected->name = g_strdup (found->name);
  selected->platform_name = g_strdup (found->platform_name);
  g_ptr_array_unref (devices);
  return TRUE;
}

/**
 * clh_device_spec_is_auto:
 * @spec: (nullable): a device spec
 *
 * Returns: whether @spec is %NULL or `"auto"` (in any case)
 */
gboolean
clh_device_spec_is_auto (const gchar *spec)
{
  return spec == NULL || g_ascii_strcasecmp (spec, "auto") == 0;
}

/**
 * clh_device_list_auto:
 * @error: as for clh_device_select()
 *
 * The devices `"auto"` chooses among: every GPU, else every accelerator,
 * else every CPU device, else every device; in `clinfo -l` order, the
 * first being the one clh_device_select() gives for `"auto"`.
 *
 * Returns: (transfer full) (element-type ClhDeviceInfo) (nullable): the
 *   devices, freed with g_ptr_array_unref(); %NULL on error
 */
GPtrArray *
clh_device_list_auto (GError **error)
{
  GPtrArray *devices = list_devices (error);
  cl_device_type type;
  guint i = 0;

  if (!devices)
    return NULL;
  type = auto_type (devices);
  while (i < devices->len) {
    if (is_auto_choice (g_ptr_array_index (devices, i), type))
      i++;
    else
      g_ptr_array_remove_index (devices, i);
  }
  return devices;
}

/**
 * clh_device_spec_of:
 * @info: a device
 *
 * Returns: (transfer full): the `"P:D"` spec that selects @info
 */
gchar *
clh_device_spec_of (const ClhDeviceInfo *info)
{
  return g_strdup_printf ("%u:%u", info->platform_index, info->device_index);
}
