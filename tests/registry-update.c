/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Builds the tests' GStreamer registry ($GST_REGISTRY) with the plugin in
 * it, before any test runs; built with the suite's own compiler flags, so
 * that under the sanitizers the plugin is scanned in a process that has
 * their runtime (GST_REGISTRY_FORK=no keeps the scan in this process). */
#include <gst/gst.h>
#include <glib/gstdio.h>
#include <utime.h>

int
main (int argc, char **argv)
{
  GstPlugin *plugin;

  gst_init (&argc, &argv);
  plugin = gst_registry_find_plugin (gst_registry_get (), "clhistogram");
  if (!plugin) {
    g_printerr ("registry-update: no clhistogram plugin in GST_PLUGIN_PATH "
        "(%s)\n", g_getenv ("GST_PLUGIN_PATH"));
    return 1;
  }
  gst_object_unref (plugin);
  /* A registry already up to date is not rewritten: mark it built. */
  g_utime (g_getenv ("GST_REGISTRY"), NULL);
  gst_deinit ();
  return 0;
}
