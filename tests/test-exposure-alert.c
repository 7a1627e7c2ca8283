/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The exposure alerts' state machine on scripted shares: an alert that
 * enters, stays and leaves; the hysteresis band; flaps shorter than the
 * hold, both ways; several areas and both kinds on one frame; a kind
 * turned off, a new layout, running time going back, unknown times. */
#include <string.h>

#include "gstclhistogramalert.h"

#define MS G_GUINT64_CONSTANT (1000000)

static const GstClExposureLimits limits = { {10.0, 5.0}, 2.0, 100 * MS };

/* The frame and zones 0..2. */
static const gint ids[] = { GST_CL_EXPOSURE_FRAME, 0, 1, 2 };

#define N_AREAS G_N_ELEMENTS (ids)

typedef struct {
  GstClExposureAlert *alert;
  GstClExposureEvents events;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->alert = gst_cl_exposure_alert_new ();
  gst_cl_exposure_events_init (&f->events);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  gst_cl_exposure_alert_free (f->alert);
  gst_cl_exposure_events_clear (&f->events);
}

/* One frame at @t ms: zone 1's clipped share @clipped, every other share
 * 0; whether anything changed. */
static gboolean
frame (Fixture *f, const GstClExposureLimits *l, guint64 t, gdouble clipped)
{
  gdouble percent[GST_CL_EXPOSURE_N_KINDS * N_AREAS] = { 0 };

  percent[2] = clipped;
  return gst_cl_exposure_alert_update (f->alert, l, 1, t * MS, ids, percent,
      N_AREAS, &f->events);
}

/* The ids in @list, as a string such as "-1,2". */
static gchar *
ids_of (GArray *list)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < list->len; i++)
    g_string_append_printf (s, "%s%d", i ? "," : "",
        g_array_index (list, GstClExposureArea, i).id);
  return g_string_free (s, FALSE);
}

static void
assert_events (Fixture *f, guint k, const gchar *started,
    const gchar *cleared)
{
  gchar *got_started = ids_of (f->events.started[k]);
  gchar *got_cleared = ids_of (f->events.cleared[k]);

  g_assert_cmpstr (got_started, ==, started);
  g_assert_cmpstr (got_cleared, ==, cleared);
  g_free (got_started);
  g_free (got_cleared);
}

static gchar *
active_of (Fixture *f, GstClExposureKind kind)
{
  GArray *active = g_array_new (FALSE, FALSE, sizeof (gint));
  GString *s = g_string_new (NULL);
  guint i;

  gst_cl_exposure_alert_active (f->alert, kind, active);
  for (i = 0; i < active->len; i++)
    g_string_append_printf (s, "%s%d", i ? "," : "",
        g_array_index (active, gint, i));
  g_array_unref (active);
  return g_string_free (s, FALSE);
}

static void
assert_active (Fixture *f, GstClExposureKind kind, const gchar *want)
{
  gchar *got = active_of (f, kind);

  g_assert_cmpstr (got, ==, want);
  g_free (got);
}

/* 30 frames a second (times rounded to whole ms, 33 ms apart): zone 1
 * reaches 30% at 100 ms; the alert starts on the first frame 100 ms
 * later, once; stays through 30%, 12% and 9% (above 10 - 2); a dip to 0
 * for 66 ms is a flap; from 0 at 500 ms on it clears 100 ms later, once
 * (whatever its share, while under 10 - 2). */
static void
test_enter_stay_leave (Fixture *f, gconstpointer data)
{
  const struct {
    guint64 t;
    gdouble clipped;
    const gchar *started, *cleared, *active;
  } script[] = {
    {0, 0.0, "", "", ""}, {33, 9.9, "", "", ""},
    {100, 30.0, "", "", ""}, {133, 30.0, "", "", ""},
    {166, 30.0, "", "", ""}, {200, 30.0, "1", "", "1"},
    {233, 30.0, "", "", "1"}, {266, 12.0, "", "", "1"},
    /* In the band: 9% and 8% are not under 10 - 2. */
    {300, 9.0, "", "", "1"}, {333, 8.0, "", "", "1"},
    /* A flap to 0 for two frames, shorter than the hold. */
    {366, 0.0, "", "", "1"}, {400, 0.0, "", "", "1"},
    {433, 30.0, "", "", "1"}, {466, 8.5, "", "", "1"},
    {500, 0.0, "", "", "1"}, {533, 1.0, "", "", "1"},
    {566, 0.0, "", "", "1"}, {600, 0.0, "", "1", ""},
    {633, 0.0, "", "", ""}, {666, 0.0, "", "", ""},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (script); i++) {
    const gboolean want = *script[i].started || *script[i].cleared;

    g_assert_cmpint (frame (f, &limits, script[i].t, script[i].clipped), ==,
        want);
    assert_events (f, GST_CL_EXPOSURE_CLIPPED, script[i].started,
        script[i].cleared);
    assert_events (f, GST_CL_EXPOSURE_CRUSHED, "", "");
    assert_active (f, GST_CL_EXPOSURE_CLIPPED, script[i].active);
  }
  /* The share that decided, with the event. */
  frame (f, &limits, 700, 50.0);
  frame (f, &limits, 800, 55.0);
  g_assert_cmpfloat (g_array_index (f->events.started[0], GstClExposureArea,
          0).percent, ==, 55.0);
}

/* Over the threshold for less than the hold, again and again: nothing,
 * ever. */
static void
test_flap_shorter_than_hold (Fixture *f, gconstpointer data)
{
  guint64 t;

  for (t = 0; t < 3000; t += 33)
    g_assert_false (frame (f, &limits, t, (t / 33) % 3 == 2 ? 0.0 : 40.0));
  assert_active (f, GST_CL_EXPOSURE_CLIPPED, "");
}

/* A hold of 0 acts on the frame itself; the share at the threshold
 * starts, one under threshold - hysteresis clears, 0 always clears (here
 * the hysteresis is wider than the threshold). */
static void
test_no_hold (Fixture *f, gconstpointer data)
{
  GstClExposureLimits l = { {10.0, 5.0}, 2.0, 0 };

  g_assert_true (frame (f, &l, 0, 10.0));
  assert_events (f, 0, "1", "");
  g_assert_false (frame (f, &l, 33, 8.0));
  g_assert_true (frame (f, &l, 66, 7.99));
  assert_events (f, 0, "", "1");
  l.hysteresis = 50.0;
  g_assert_true (frame (f, &l, 100, 10.0));
  g_assert_false (frame (f, &l, 133, 0.5));
  g_assert_true (frame (f, &l, 166, 0.0));
  assert_events (f, 0, "", "1");
}

/* Both kinds and several areas on one frame, in the areas' order; the
 * frame's own alert beside its zones'. */
static void
test_areas_and_kinds (Fixture *f, gconstpointer data)
{
  const GstClExposureLimits l = { {10.0, 5.0}, 2.0, 0 };
  /* Clipped: frame 12, zone 0 0, zone 1 40, zone 2 11; crushed: zone 0
   * 6, the rest under 5. */
  const gdouble percent[] = { 12.0, 0.0, 40.0, 11.0, 1.0, 6.0, 4.0, 0.0 };
  const gdouble calm[] = { 0, 0, 0, 0, 0, 0, 0, 0 };

  g_assert_true (gst_cl_exposure_alert_update (f->alert, &l, 1, 0, ids,
          percent, N_AREAS, &f->events));
  assert_events (f, GST_CL_EXPOSURE_CLIPPED, "-1,1,2", "");
  assert_events (f, GST_CL_EXPOSURE_CRUSHED, "0", "");
  assert_active (f, GST_CL_EXPOSURE_CLIPPED, "-1,1,2");
  g_assert_cmpfloat (g_array_index (f->events.started[0], GstClExposureArea,
          1).percent, ==, 40.0);
  g_assert_true (gst_cl_exposure_alert_update (f->alert, &l, 1, 33 * MS, ids,
          calm, N_AREAS, &f->events));
  assert_events (f, GST_CL_EXPOSURE_CLIPPED, "", "-1,1,2");
  assert_events (f, GST_CL_EXPOSURE_CRUSHED, "", "0");
}

/* A kind turned off clears its alerts at once; a new layout clears every
 * alert of the old areas (with their last shares) and starts afresh. */
static void
test_off_and_new_layout (Fixture *f, gconstpointer data)
{
  GstClExposureLimits l = { {10.0, 5.0}, 2.0, 0 };
  const gint other[] = { 0, 1, 2, 3, 4, 5 };
  gdouble percent[2 * 6] = { 0 };

  g_assert_true (frame (f, &l, 0, 30.0));
  l.threshold[GST_CL_EXPOSURE_CLIPPED] = 0.0;
  g_assert_true (frame (f, &l, 33, 30.0));
  assert_events (f, 0, "", "1");
  g_assert_false (frame (f, &l, 66, 30.0));
  l.threshold[GST_CL_EXPOSURE_CLIPPED] = 10.0;
  g_assert_true (frame (f, &l, 100, 30.0));
  assert_events (f, 0, "1", "");

  /* Six zones, no frame, zone 5 clipping: old zone 1 clears (30%), new
   * zone 5 starts. */
  percent[5] = 20.0;
  g_assert_true (gst_cl_exposure_alert_update (f->alert, &l, 2, 133 * MS,
          other, percent, 6, &f->events));
  assert_events (f, 0, "5", "1");
  g_assert_cmpfloat (g_array_index (f->events.cleared[0], GstClExposureArea,
          0).percent, ==, 30.0);
  assert_active (f, GST_CL_EXPOSURE_CLIPPED, "5");

  /* Reset: nothing reported, nothing on. */
  gst_cl_exposure_alert_reset (f->alert);
  assert_active (f, GST_CL_EXPOSURE_CLIPPED, "");
  g_assert_false (frame (f, &l, 166, 0.0));
}

/* Running time that goes back (a seek) starts the hold again; unknown
 * times never pass a hold. */
static void
test_times (Fixture *f, gconstpointer data)
{
  gdouble percent[GST_CL_EXPOSURE_N_KINDS * N_AREAS] = { 0 };

  g_assert_false (frame (f, &limits, 5000, 30.0));
  g_assert_false (frame (f, &limits, 5066, 30.0));
  /* Back to 0: 100 ms from there. */
  g_assert_false (frame (f, &limits, 0, 30.0));
  g_assert_false (frame (f, &limits, 66, 30.0));
  g_assert_true (frame (f, &limits, 100, 30.0));
  assert_events (f, 0, "1", "");

  gst_cl_exposure_alert_reset (f->alert);
  percent[2] = 30.0;
  g_assert_false (gst_cl_exposure_alert_update (f->alert, &limits, 1,
          G_MAXUINT64, ids, percent, N_AREAS, &f->events));
  g_assert_false (gst_cl_exposure_alert_update (f->alert, &limits, 1,
          G_MAXUINT64, ids, percent, N_AREAS, &f->events));
  /* The first known time starts the hold. */
  g_assert_false (frame (f, &limits, 1000, 30.0));
  g_assert_true (frame (f, &limits, 1100, 30.0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, \
    func, fixture_tear_down)
  ADD ("/exposure-alert/enter-stay-leave", test_enter_stay_leave);
  ADD ("/exposure-alert/flap-shorter-than-hold", test_flap_shorter_than_hold);
  ADD ("/exposure-alert/no-hold", test_no_hold);
  ADD ("/exposure-alert/areas-and-kinds", test_areas_and_kinds);
  ADD ("/exposure-alert/off-and-new-layout", test_off_and_new_layout);
  ADD ("/exposure-alert/times", test_times);
#undef ADD
  return g_test_run ();
}
