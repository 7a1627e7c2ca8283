#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The files installed for running the probe as a service, checked by the
# tools that read them:
#   - the systemd unit by `systemd-analyze verify` (its ExecStart pointed at
#     the probe built here, its man: link at the page built here), and its
#     ExecStart's options by the probe built here;
#   - the Prometheus alerting rules by `promtool check rules` (their
#     cases, with `promtool test rules`, are the probe-alerts test's).
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
  ran=1
else
  echo "probe-service: no promtool (Debian's prometheus): the rules are not checked"
fi

[ "$ran" -eq 1 ] || exit 77
echo "probe-service: OK"
