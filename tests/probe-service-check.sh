#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The files installed for running the probe as a service, checked by the
# tools that read them:
#   - the systemd unit by `systemd-analyze verify` (its ExecStart pointed at
#     the probe built here, its man: link at the page built here), and its
#     ExecStart's options by the probe built here;
#   - the Prometheus alerting rule by `promtool check rules`, then by
#     `promtool test rules` on series written here: clipping over 5% for
#     10 s fires, per probe and input; 5% exactly, a shorter flash, a zone,
#     a fixed region and the chroma do not; it resolves once under.
#   tests/probe-service-check.sh UNIT ALERTS PROBE MANPAGE
# Each part is skipped where its tool is missing; all of them: exit 77.
set -eu
unit=$1 alerts=$2 probe=$3 manpage=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ran=0

if command -v systemd-analyze > /dev/null; then
  echo "=== systemd-analyze verify"
  grep -q '^ExecStart=[^ ]*/clhistogram-probe --quiet --metrics 127.0.0.1:9610 ' "$unit" || {
    echo "probe-service: the unit's ExecStart does not run the probe with --quiet --metrics"; exit 1; }
  for key in DynamicUser=yes ProtectSystem=strict Restart=on-failure \
      'SupplementaryGroups=video' 'EnvironmentFile=-' 'CacheDirectoryMode=0700'; do
    grep -q "^$key" "$unit" || { echo "probe-service: the unit has no $key"; exit 1; }
  done
  # Every option of its ExecStart is one the probe takes: parsed with
  # a key file of one input, as the service's, the probe starts (a file
  # that is not a video then ends it with status 1, not 2).
  opts=$(sed -n 's|^ExecStart=[^ ]*/clhistogram-probe ||p' "$unit" \
    | sed 's|\$CLHISTOGRAM_PROBE_OPTIONS||; s|/etc/clhistogram/probe.conf|'"$tmp"'/probe.conf|; s|127.0.0.1:9610|127.0.0.1:0|')
  printf '[cam]\nuri=%s\n' "$unit" > "$tmp/probe.conf"
  # shellcheck disable=SC2086 # the options are split as systemd splits them
  status=0; "$probe" $opts > "$tmp/probe.txt" 2>&1 || status=$?
  [ "$status" -eq 1 ] && grep -q "metrics on http://127.0.0.1:" "$tmp/probe.txt" || {
    echo "probe-service: the probe with the unit's options ($opts) exited $status:"
    cat "$tmp/probe.txt"; exit 1; }
  mkdir -p "$tmp/unit" "$tmp/man/man1"
  sed "s|^ExecStart=[^ ]*/clhistogram-probe |ExecStart=$(realpath "$probe") |" "$unit" \
    > "$tmp/unit/clhistogram-probe.service"
  cp "$manpage" "$tmp/man/man1/clhistogram-probe.1"
  # verify prints what it finds wrong and exits non-zero for it.
  # Its Documentation= link is checked with man(1), which a minimal system
  # may lack (man-db): then the rest is verified, and the link said
  # unchecked.
  man_check=--man=yes
  if ! command -v man > /dev/null; then
    man_check=--man=no
    echo "probe-service: no man (Debian's man-db): the unit's man: link is not checked"
  fi
  MANPATH="$tmp/man" SYSTEMD_LOG_LEVEL=notice \
    systemd-analyze verify "$man_check" "$tmp/unit/clhistogram-probe.service" 2>&1 | tee "$tmp/verify.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] && [ ! -s "$tmp/verify.txt" ] || {
    echo "probe-service: systemd-analyze verify found something wrong"; exit 1; }
  ran=1
else
  echo "probe-service: no systemd-analyze (Debian's systemd): the unit is not checked"
fi

if command -v promtool > /dev/null; then
  echo "=== promtool check rules"
  promtool check rules "$alerts"
  echo "=== promtool test rules"
  # 1 s apart: cam of probe a clips (6%) from 10 s to 29 s; cam of probe b
  # at exactly 5%, then clips for 8 s only; zone 0 and region 0 of a, and
  # its U channel, clip all along, as does door's Y of b after 40 s.
  cat > "$tmp/test.yml" <<EOF
rule_files: ["$(realpath "$alerts")"]
evaluation_interval: 1s
tests:
  - interval: 1s
    input_series:
      - series: 'clhistogram_clipped_high_ratio{job="probe",instance="a",input="cam",channel="Y"}'
        values: '0x9 0.06x19 0.01x30'
      - series: 'clhistogram_clipped_high_ratio{job="probe",instance="a",input="cam",channel="U"}'
        values: '0.9x59'
      - series: 'clhistogram_clipped_high_ratio{job="probe",instance="a",input="cam",zone="0",channel="Y"}'
        values: '0.9x59'
      - series: 'clhistogram_clipped_high_ratio{job="probe",instance="a",input="cam",region="0",channel="Y"}'
        values: '0.9x59'
      - series: 'clhistogram_clipped_high_ratio{job="probe",instance="b",input="cam",channel="Y"}'
        values: '0.05x29 0.5x7 0x22'
      - series: 'clhistogram_clipped_high_ratio{job="probe",instance="b",input="door",channel="Y"}'
        values: '0x39 0.2x19'
    alert_rule_test:
      - eval_time: 15s
        alertname: ClhistogramClipping
        exp_alerts: []
      - eval_time: 21s
        alertname: ClhistogramClipping
        exp_alerts:
          - exp_labels: {severity: warning, job: probe, instance: a, input: cam}
            exp_annotations:
              summary: "cam on a clips"
              description: "6% of the picture of cam (probe a) is clipped high, at or above the clip-high level, and has been over 5% for more than 10 s: close the iris, shorten the exposure or lower the gain."
      - eval_time: 29s
        alertname: ClhistogramClipping
        exp_alerts:
          - exp_labels: {severity: warning, job: probe, instance: a, input: cam}
            exp_annotations:
              summary: "cam on a clips"
              description: "6% of the picture of cam (probe a) is clipped high, at or above the clip-high level, and has been over 5% for more than 10 s: close the iris, shorten the exposure or lower the gain."
      - eval_time: 37s
        alertname: ClhistogramClipping
        exp_alerts: []
      - eval_time: 51s
        alertname: ClhistogramClipping
        exp_alerts:
          - exp_labels: {severity: warning, job: probe, instance: b, input: door}
            exp_annotations:
              summary: "door on b clips"
              description: "20% of the picture of door (probe b) is clipped high, at or above the clip-high level, and has been over 5% for more than 10 s: close the iris, shorten the exposure or lower the gain."
EOF
  (cd "$tmp" && promtool test rules test.yml)
  ran=1
else
  echo "probe-service: no promtool (Debian's prometheus): the rule is not checked"
fi

[ "$ran" -eq 1 ] || exit 77
echo "probe-service: OK"
