/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One rendering of /metrics shared by the clients that ask for it
 * together. A response body is the render's own GBytes
 * (soup_message_body_append_bytes() keeps a reference, and libsoup writes
 * from it as the socket takes more), so a client that reads slowly or
 * never costs a reference and its socket's kernel buffers, not a copy of
 * the text: with 32 clients and an 11 MB render, 11 MB, not 352.
 *
 * Each scrape is rendered anew, so that it shows the values of its time,
 * until the renders that responses still hold (clients reading slowly,
 * or not at all) reach SHARE_ABOVE_BYTES: from then on the last render is
 * reused while younger than the server's timeout, and memory stays near
 * that budget plus a render whatever the number of such clients, at the
 * price of an answer up to that old to whoever scrapes meanwhile. A
 * scraper reading promptly with small scrapes never gets there: the
 * budget holds thousands of them and the server takes 32 connections. */
#include "probe-metrics-scrape.h"

#include <string.h>
#include <gio/gio.h>

#define SHARE_ABOVE_BYTES (8 << 20)

/* The bytes of text the responses under way hold, counted once per
 * render; shared with the renders, which may outlive the server. */
typedef struct
{
  gssize held_bytes;
} Ledger;

struct _ProbeMetricsScrape
{
  GBytes *text;
  /* Made on the first request asking for gzip; NULL until then. */
  GBytes *gzip;
  gint64 rendered_at;
  /* Responses under way with this render, each holding a reference. */
  gint holders;
  Ledger *ledger;
};

struct _ProbeMetricsScrapes
{
  ProbeMetricsRenderFunc render;
  gpointer data;
  gint64 max_age_us;
  /* The last render (a reference of its own, not a holder), or NULL. */
  ProbeMetricsScrape *last;
  Ledger *ledger;
};

static void
scrape_clear (gpointer data)
{
  ProbeMetricsScrape *scrape = data;

  g_bytes_unref (scrape->text);
  g_clear_pointer (&scrape->gzip, g_bytes_unref);
  g_atomic_rc_box_release (scrape->ledger);
}

static ProbeMetricsScrape *
scrape_render (ProbeMetricsScrapes *scrapes)
{
  ProbeMetricsScrape *scrape = g_atomic_rc_box_new0 (ProbeMetricsScrape);
  gchar *text = scrapes->render (scrapes->data);

  scrape->text = g_bytes_new_take (text, strlen (text));
  scrape->rendered_at = g_get_monotonic_time ();
  scrape->ledger = g_atomic_rc_box_acquire (scrapes->ledger);
  return scrape;
}

/**
 * probe_metrics_scrapes_new:
 * @render: renders the exposition text (a new string)
 * @data: @render's
 * @max_age_us: microseconds a render may be reused for, once the renders
 *   responses hold reach the budget
 *
 * Returns: (transfer full): the renders of one server, used on its thread
 *   alone, to free with probe_metrics_scrapes_free().
 */
ProbeMetricsScrapes *
probe_metrics_scrapes_new (ProbeMetricsRenderFunc render, gpointer data,
    gint64 max_age_us)
{
  ProbeMetricsScrapes *scrapes = g_new0 (ProbeMetricsScrapes, 1);

  scrapes->render = render;
  scrapes->data = data;
  scrapes->max_age_us = max_age_us;
  scrapes->ledger = g_atomic_rc_box_new0 (Ledger);
  return scrapes;
}

/**
 * probe_metrics_scrapes_get:
 * @rendered: (out): whether @render was called for it
 *
 * The render to answer a request with: a new one, or the last one while
 * the renders held reach the budget and it is not too old.
 *
 * Returns: (transfer full): the render, held until
 *   probe_metrics_scrape_release().
 */
ProbeMetricsScrape *
probe_metrics_scrapes_get (ProbeMetricsScrapes *scrapes, gboolean *rendered)
{
  ProbeMetricsScrape *last = scrapes->last;
  gint64 age = last ? g_get_monotonic_time () - last->rendered_at : 0;
  gssize held = g_atomic_pointer_add (&scrapes->ledger->held_bytes, 0);

  *rendered = !last || held < SHARE_ABOVE_BYTES
      || age >= scrapes->max_age_us;
  if (*rendered) {
    if (last)
      g_atomic_rc_box_release_full (last, scrape_clear);
    scrapes->last = scrape_render (scrapes);
  }
  last = scrapes->last;
  if (g_atomic_int_add (&last->holders, 1) == 0)
    g_atomic_pointer_add (&last->ledger->held_bytes,
        (gssize) g_bytes_get_size (last->text));
  return g_atomic_rc_box_acquire (last);
}

/**
 * probe_metrics_scrapes_free:
 * @scrapes: (nullable) (transfer full):
 *
 * Frees @scrapes; a render still held lives until released.
 */
void
probe_metrics_scrapes_free (ProbeMetricsScrapes *scrapes)
{
  if (!scrapes)
    return;
  if (scrapes->last)
    g_atomic_rc_box_release_full (scrapes->last, scrape_clear);
  g_atomic_rc_box_release (scrapes->ledger);
  g_free (scrapes);
}

/**
 * probe_metrics_scrape_get_text:
 *
 * Returns: (transfer none): the exposition text, UTF-8, not
 *   NUL-terminated.
 */
GBytes *
probe_metrics_scrape_get_text (ProbeMetricsScrape *scrape)
{
  return scrape->text;
}

/* @text in the gzip format (RFC 1952), as HTTP's "gzip" coding is (RFC
 * 9110, section 8.4.1.3), through GLib's zlib converter; NULL if zlib
 * fails, which it does only out of memory. */
static GBytes *
gzip_bytes (GBytes *text)
{
  GConverter *compressor = G_CONVERTER (g_zlib_compressor_new
      (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1));
  gsize left, used = 0, read, written;
  const guint8 *in = g_bytes_get_data (text, &left);
  GByteArray *out = g_byte_array_sized_new (left / 4 + 64);
  GConverterResult result;
  GError *error = NULL;

  do {
    if (out->len - used < 64 * 1024)
      g_byte_array_set_size (out, out->len + MAX (out->len, 64 * 1024));
    result = g_converter_convert (compressor, in, left, out->data + used,
        out->len - used, G_CONVERTER_INPUT_AT_END, &read, &written, &error);
    /* An output buffer too small grows; anything else is said. */
    if (result == G_CONVERTER_ERROR && g_error_matches (error, G_IO_ERROR,
            G_IO_ERROR_NO_SPACE)) {
      g_clear_error (&error);
      continue;
    }
    if (result == G_CONVERTER_ERROR) {
      g_warning ("metrics server: cannot gzip a scrape (%s); sending it "
          "uncompressed", error->message);
      g_error_free (error);
      g_object_unref (compressor);
      g_byte_array_unref (out);
      return NULL;
    }
    in += read;
    left -= read;
    used += written;
  } while (result != G_CONVERTER_FINISHED);
  g_object_unref (compressor);
  g_byte_array_set_size (out, used);
  return g_byte_array_free_to_bytes (out);
}

/**
 * probe_metrics_scrape_get_gzip:
 * @compressed: (out): whether it was compressed for this call
 *
 * The text gzip-compressed, made on the first call and shared by the
 * later ones; on the server's thread only.
 *
 * Returns: (transfer none) (nullable): the compressed text; %NULL if
 *   zlib failed (said in a warning), the text to be sent uncompressed.
 */
GBytes *
probe_metrics_scrape_get_gzip (ProbeMetricsScrape *scrape,
    gboolean *compressed)
{
  *compressed = !scrape->gzip;
  if (!scrape->gzip)
    scrape->gzip = gzip_bytes (scrape->text);
  return scrape->gzip;
}

/**
 * probe_metrics_scrape_release:
 * @scrape: (transfer full): a #ProbeMetricsScrape from
 *   probe_metrics_scrapes_get()
 *
 * The response holding @scrape is done: sent, or its connection closed.
 * A #GDestroyNotify, for g_object_set_data_full(); any thread.
 */
void
probe_metrics_scrape_release (gpointer scrape)
{
  ProbeMetricsScrape *s = scrape;

  if (g_atomic_int_dec_and_test (&s->holders))
    g_atomic_pointer_add (&s->ledger->held_bytes,
        -(gssize) g_bytes_get_size (s->text));
  g_atomic_rc_box_release_full (s, scrape_clear);
}
