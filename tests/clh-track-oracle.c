/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trackers' golden reference as a command for tests/test_track_opencv.py,
 * which holds its answers against OpenCV's. Frames and probability images
 * come on stdin, raw; answers go to stdout, raw or as text lines.
 *
 *   backproject FORMAT WIDTH HEIGHT MODE BINS SCALE MIN_S MIN_V MAX_V
 *     stdin: the frame, then the model (bins^axes float32, host order)
 *     stdout: the back-projection, WIDTH x HEIGHT bytes
 *   model FORMAT WIDTH HEIGHT MODE BINS MIN_S MIN_V MAX_V X Y W H
 *     stdin: the frame; stdout: the model, bins^axes float32
 *   moments WIDTH HEIGHT X Y W H
 *     stdin: an image; stdout: "m00 m10 m01 m20 m11 m02 mu20 mu11 mu02"
 *   meanshift|camshift WIDTH HEIGHT MAX_ITER EPSILON FRAMES X,Y,W,H...
 *     stdin: FRAMES x tracks images, frame-major, one per track (each
 *     track follows its own window from frame to frame)
 *     stdout: per frame and track, "FRAME TRACK ITERATIONS X Y W H" or
 *     "FRAME TRACK X Y W H FOUND CX CY WIDTH HEIGHT ANGLE M00 MX MY MW MH"
 *     (M00: the probability mass in the widened window MX MY MW MH)
 *
 * A frame's planes are packed, each row as long as the format needs
 * (I420 WxH: W*H bytes of Y, then (W/2)*(H/2) of U and of V). MODE is
 * hue, hue-saturation, rgb or luma. Doubles are printed with 17 digits,
 * so that Python reads back the very value (a box field: the float). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clh-reference-layout.h"
#include "clh-reference-track.h"

static void
read_exactly (gpointer data, gsize size)
{
  if (size && fread (data, 1, size, stdin) != size)
    g_error ("stdin ended %" G_GSIZE_FORMAT " bytes short", size);
}

static void
write_exactly (gconstpointer data, gsize size)
{
  if (fwrite (data, 1, size, stdout) != size)
    g_error ("cannot write stdout");
}

static guint
parse_uint (const gchar *s)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (s, 10, 0, G_MAXINT32, &v, NULL))
    g_error ("not a count: %s", s);
  return (guint) v;
}

static gint
parse_int (const gchar *s)
{
  gint64 v;

  if (!g_ascii_string_to_signed (s, 10, G_MININT32, G_MAXINT32, &v, NULL))
    g_error ("not an integer: %s", s);
  return (gint) v;
}

/* A frame of @format read off stdin; free its planes with free_frame(). */
static void
read_frame (const gchar *format, guint width, guint height, ClhFrame *f,
    ClhFormatClass *klass)
{
  guint p;

  memset (f, 0, sizeof (*f));
  if (!clh_reference_layout (format, f, klass) || f->depth != 8)
    g_error ("not an 8-bit format of the table: %s", format);
  f->width = width;
  f->height = height;
  for (p = 0; p < f->n_planes; p++) {
    const gsize stride = clh_frame_plane_row_bytes (f, p);
    const gsize size = stride * clh_frame_plane_rows (f, p);
    guint8 *data = g_malloc (size);

    read_exactly (data, size);
    f->planes[p].data = data;
    f->planes[p].stride = stride;
  }
  if (!clh_frame_is_valid (f))
    g_error ("%ux%u is no valid %s frame", width, height, format);
}

static void
free_frame (ClhFrame *f)
{
  guint p;

  for (p = 0; p < f->n_planes; p++)
    g_free ((gpointer) f->planes[p].data);
}

/* The back-projection of @mode: R, G, B or Y, U, V (or the grey frame's Y)
 * as the frame's class says. */
static void
make_spec (ClhFormatClass klass, const gchar *mode, const gchar *bins,
    const gchar *min_s, const gchar *min_v, const gchar *max_v,
    ClhBackprojectSpec *spec)
{
  guint c;

  memset (spec, 0, sizeof (*spec));
  if (g_str_equal (mode, "hue"))
    spec->count = CLH_COUNT_HUE;
  else if (g_str_equal (mode, "hue-saturation"))
    spec->count = CLH_COUNT_HUE_SATURATION;
  else if (g_str_equal (mode, "rgb"))
    spec->count = CLH_COUNT_RGB;
  else if (g_str_equal (mode, "luma"))
    spec->count = CLH_COUNT_LUMA;
  else
    g_error ("unknown mode %s", mode);
  spec->n_components = klass == CLH_FORMAT_GRAY ? 1 : 3;
  for (c = 0; c < spec->n_components; c++)
    spec->components[c] = c;
  spec->color = klass == CLH_FORMAT_YUV ? CLH_COLOR_YUV_BT601 :
      CLH_COLOR_RGB;
  spec->bins = parse_uint (bins);
  spec->min_saturation = parse_uint (min_s);
  spec->min_value = parse_uint (min_v);
  spec->max_value = parse_uint (max_v);
  if (spec->bins == 0
      || clh_backproject_spec_n_bins (spec) > CLH_BACKPROJECT_MAX_BINS)
    g_error ("%s bins for %s", bins, mode);
}

static int
cmd_backproject (gchar **argv)
{
  const guint width = parse_uint (argv[1]), height = parse_uint (argv[2]);
  ClhBackprojectSpec spec;
  ClhFormatClass klass;
  ClhFrame frame;
  gfloat *model;
  guint8 *dest;
  gsize n;

  read_frame (argv[0], width, height, &frame, &klass);
  make_spec (klass, argv[3], argv[4], argv[6], argv[7], argv[8], &spec);
  spec.scale = (gfloat) g_ascii_strtod (argv[5], NULL);
  n = clh_backproject_spec_n_bins (&spec);
  model = g_new (gfloat, n);
  read_exactly (model, n * sizeof (gfloat));
  spec.model = model;

  dest = g_malloc ((gsize) width * height);
  clh_reference_backproject (&frame, &spec, dest, width);
  write_exactly (dest, (gsize) width * height);
  g_free (dest);
  g_free (model);
  free_frame (&frame);
  return 0;
}

static int
cmd_model (gchar **argv)
{
  const guint width = parse_uint (argv[1]), height = parse_uint (argv[2]);
  const ClhRect window = { parse_int (argv[8]), parse_int (argv[9]),
    parse_int (argv[10]), parse_int (argv[11])
  };
  ClhBackprojectSpec spec;
  ClhFormatClass klass;
  ClhFrame frame;
  gfloat *model;
  gsize n;

  read_frame (argv[0], width, height, &frame, &klass);
  make_spec (klass, argv[3], argv[4], argv[5], argv[6], argv[7], &spec);
  n = clh_backproject_spec_n_bins (&spec);
  model = g_new (gfloat, n);
  clh_reference_camshift_model (&frame, &spec, &window, model);
  write_exactly (model, n * sizeof (gfloat));
  g_free (model);
  free_frame (&frame);
  return 0;
}

static int
cmd_moments (gchar **argv)
{
  const guint width = parse_uint (argv[0]), height = parse_uint (argv[1]);
  const ClhRect window = { parse_int (argv[2]), parse_int (argv[3]),
    parse_int (argv[4]), parse_int (argv[5])
  };
  guint8 *prob = g_malloc ((gsize) width * height);
  gdouble mu20, mu11, mu02;
  ClhMoments m;

  read_exactly (prob, (gsize) width * height);
  if (window.x < 0 || window.y < 0 || window.width < 0 || window.height < 0
      || (guint) (window.x + window.width) > width
      || (guint) (window.y + window.height) > height)
    g_error ("the window is not inside the image");
  clh_reference_moments (prob, width, &window, &m);
  clh_reference_central_moments (&m, &mu20, &mu11, &mu02);
  printf ("%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
      " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
      " %.17g %.17g %.17g\n", m.m00, m.m10, m.m01, m.m20, m.m11, m.m02,
      mu20, mu11, mu02);
  g_free (prob);
  return 0;
}

/* Each frame's image per track, each track following its own window. */
static int
cmd_track (gboolean camshift, gchar **argv, gint argc)
{
  const guint width = parse_uint (argv[0]), height = parse_uint (argv[1]);
  const ClhCamShiftCriteria criteria = { parse_uint (argv[2]),
    g_ascii_strtod (argv[3], NULL)
  };
  const guint n_frames = parse_uint (argv[4]), n_tracks = argc - 5;
  const gsize size = (gsize) width * height;
  ClhRect *windows = g_new0 (ClhRect, MAX (n_tracks, 1));
  guint8 *prob = g_malloc (size);
  guint f, t;

  for (t = 0; t < n_tracks; t++)
    if (sscanf (argv[5 + t], "%d,%d,%d,%d", &windows[t].x, &windows[t].y,
            &windows[t].width, &windows[t].height) != 4)
      g_error ("not a window X,Y,W,H: %s", argv[5 + t]);

  for (f = 0; f < n_frames; f++)
    for (t = 0; t < n_tracks; t++) {
      ClhRect *w = &windows[t];
      ClhRotatedBox box;
      ClhCamShiftMass mass;
      gboolean found;
      guint iters;

      read_exactly (prob, size);
      if (!camshift) {
        iters = clh_reference_mean_shift (prob, width, width, height, w,
            &criteria);
        printf ("%u %u %u %d %d %d %d\n", f, t, iters, w->x, w->y,
            w->width, w->height);
        continue;
      }
      found = clh_reference_camshift (prob, width, width, height, w,
          &criteria, &box, &mass);
      printf ("%u %u %d %d %d %d %d %.17g %.17g %.17g %.17g %.17g %"
          G_GUINT64_FORMAT " %d %d %d %d\n", f, t, w->x, w->y, w->width,
          w->height, found, box.center_x, box.center_y, box.width,
          box.height, box.angle, mass.m00, mass.window.x, mass.window.y,
          mass.window.width, mass.window.height);
    }
  g_free (prob);
  g_free (windows);
  return 0;
}

int
main (int argc, char **argv)
{
  const gchar *cmd = argc > 1 ? argv[1] : "";

  if (g_str_equal (cmd, "backproject") && argc == 11)
    return cmd_backproject (argv + 2);
  if (g_str_equal (cmd, "model") && argc == 14)
    return cmd_model (argv + 2);
  if (g_str_equal (cmd, "moments") && argc == 8)
    return cmd_moments (argv + 2);
  if ((g_str_equal (cmd, "meanshift") || g_str_equal (cmd, "camshift"))
      && argc >= 7)
    return cmd_track (g_str_equal (cmd, "camshift"), argv + 2, argc - 2);
  fprintf (stderr, "usage: %s backproject|model|moments|meanshift|camshift "
      "ARGS... (see tests/clh-track-oracle.c)\n", argv[0]);
  return 2;
}
