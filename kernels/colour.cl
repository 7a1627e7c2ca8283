/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The colour conversions the histogram and tracking kernels share, each
 * OpenCV's integer arithmetic, so that the device's hue equals
 * cv2.cvtColor's bit for bit. */
#ifndef CLH_COLOUR_CL
#define CLH_COLOUR_CL

/* OpenCV's 8-bit RGB->HSV (RGB2HSV_b): 12-bit fixed-point division tables
 * sdiv[i] = round (255 * 2^12 / i) and hdiv[i] = round (180 * 2^12 / 6i),
 * computed here exactly (no ratio is a tie). */
static void
rgb_to_hsv (int r, int g, int b, int *h, int *s, int *v)
{
  const int vmax = max (max (r, g), b), vmin = min (min (r, g), b);
  const int diff = vmax - vmin;
  const int sdiv = vmax ? (2 * (255 << 12) + vmax) / (2 * vmax) : 0;
  const int hdiv = diff ? (2 * (180 << 12) + 6 * diff) / (12 * diff) : 0;
  int hue;

  if (vmax == r)
    hue = g - b;
  else if (vmax == g)
    hue = b - r + 2 * diff;
  else
    hue = r - g + 4 * diff;
  hue = (hue * hdiv + (1 << 11)) >> 12;
  *h = hue < 0 ? hue + 180 : hue;
  *s = (diff * sdiv + (1 << 11)) >> 12;
  *v = vmax;
}

/* BT.601 limited range, OpenCV's COLOR_YUV2RGB_I420 20-bit coefficients. */
static void
yuv_to_rgb (int y, int u, int v, int *r, int *g, int *b)
{
  const int yy = max (0, y - 16) * 1220542, uu = u - 128, vv = v - 128;
  const int rounding = 1 << 19;

  *r = clamp ((yy + rounding + 1673527 * vv) >> 20, 0, 255);
  *g = clamp ((yy + rounding - 852492 * vv - 409993 * uu) >> 20, 0, 255);
  *b = clamp ((yy + rounding + 2116026 * uu) >> 20, 0, 255);
}

#endif
