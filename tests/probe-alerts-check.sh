#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The Prometheus rules installed with the probe (tools/clhistogram-alerts.yml)
# against their cases (tools/clhistogram-alerts.test.yml), with promtool:
#   - `promtool check rules`, then `promtool test rules`: every case passes;
#   - the cases can fail: wrong copies must fail them, each a copy of the
#     rules or of the cases with one thing changed, checked to be changed:
#       a clipping alert no longer held while its camera is down,
#       nor while it starts again (its probe restarted),
#       the cameras' clipping thresholds ignored (the default for all),
#       a camera down alerted whatever its state (an ended file too),
#       one expected description wrong.
#   tests/probe-alerts-check.sh ALERTS CASES
# Skipped (exit 77) where promtool (Debian's prometheus) is missing.
set -eu
alerts=$1 cases=$2
if ! command -v promtool > /dev/null; then
  echo "probe-alerts: no promtool (Debian's prometheus): skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "=== promtool check rules"
promtool check rules "$alerts"
echo "=== promtool test rules"
# The cases name the rules' file as it is beside them.
cp "$alerts" "$tmp/clhistogram-alerts.yml"
cp "$cases" "$tmp/cases.yml"
(cd "$tmp" && promtool test rules cases.yml)

# A copy of FILE (rules or cases) with sed's EXPR applied, run: it must
# have changed, and promtool must fail on it.
must_fail () {
  local what=$1 file=$2 expr=$3
  mkdir "$tmp/wrong"
  cp "$tmp/clhistogram-alerts.yml" "$tmp/cases.yml" "$tmp/wrong/"
  sed -i "$expr" "$tmp/wrong/$file"
  if cmp -s "$tmp/$file" "$tmp/wrong/$file"; then
    echo "probe-alerts: the copy where $what is the same as $file: the test is out of date"
    exit 1
  fi
  echo "=== $what: must fail"
  if (cd "$tmp/wrong" && promtool test rules cases.yml > "$tmp/out.txt" 2>&1); then
    cat "$tmp/out.txt"
    echo "probe-alerts: promtool passed the cases where $what"
    exit 1
  fi
  grep -m 3 -E 'FAILED|alertname:' "$tmp/out.txt" || true
  rm -rf "$tmp/wrong"
}

must_fail "a clipping alert is not held while down" clhistogram-alerts.yml \
  's/alertname="ClhistogramClipping", alertstate="firing"/alertname="ClhistogramClipping", alertstate="never"/'
must_fail "a restarted probe's input starting is not held" clhistogram-alerts.yml \
  's/state=~"down|starting"/state="down"/'
must_fail "the thresholds are ignored" clhistogram-alerts.yml \
  's/clhistogram_alert_threshold_ratio{alert="clipped"}/clhistogram_alert_threshold_ratio{alert="none"}/'
must_fail "any state is down" clhistogram-alerts.yml \
  's/max by (job, instance, input) (clhistogram_input_state{state="down"}) == 1/max by (job, instance, input) (clhistogram_input_state) >= 0/'
must_fail "an expectation is wrong" cases.yml \
  '0,/summary: "door on a clips"/s//summary: "door on a is fine"/'
echo "probe-alerts: OK"
