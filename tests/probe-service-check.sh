#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The files installed for running the probe as a service, checked by the
# tools that read them:
#   - the systemd unit's options (the fleet's, the key file as a
#     credential; and a unit without the credential refused), then the
#     unit by `systemd-analyze verify` (its ExecStart pointed at the probe
#     built here, its man: link at the page built here), and its
#     ExecStart's options by the probe built here, on a key file given as
#     systemd gives the credential;
#   - the Prometheus alerting rules by `promtool check rules` (their
#     cases, with `promtool test rules`, are the probe-alerts test's).
#   tests/probe-service-check.sh UNIT ALERTS PROBE MANPAGE
# Each tool's part is skipped where the tool is missing; both: exit 77.
set -eu
unit=$1 alerts=$2 probe=$3 manpage=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ran=0

# The unit's own choices, which verify cannot judge: the README's options
# for a fleet, the key file passed as a credential (never read from /etc
# by the probe, which runs as a user that must not read it), the rest of
# its hardening. Says what is missing and fails.
# shellcheck disable=SC2016 # ${CREDENTIALS_DIRECTORY} is systemd's, as written
check_unit() {  # UNIT
  grep -q '^ExecStart=[^ ]*/clhistogram-probe --quiet --no-counts --interval 1000000000 --metrics 127.0.0.1:9610 --inputs ${CREDENTIALS_DIRECTORY}/probe.conf ' "$1" || {
    echo "probe-service: the unit's ExecStart does not run the probe with --quiet" \
      "--no-counts --interval 1000000000 --metrics on the key file's credential"; return 1; }
  if grep -q '^ExecStart=.*/etc/clhistogram' "$1"; then
    echo "probe-service: the unit's ExecStart reads /etc/clhistogram itself"; return 1
  fi
  for key in DynamicUser=yes ProtectSystem=strict Restart=on-failure \
      'SupplementaryGroups=video' 'EnvironmentFile=-' 'CacheDirectoryMode=0700' \
      'LoadCredential=probe.conf:/etc/clhistogram/probe.conf'; do
    grep -q "^$key" "$1" || { echo "probe-service: the unit has no $key"; return 1; }
  done
}

echo "=== the unit's options"
check_unit "$unit" || exit 1
# ... a check that fails: the unit as it was before credentials, its
# ExecStart reading the key file, which had to be world-readable.
# shellcheck disable=SC2016 # ${CREDENTIALS_DIRECTORY} is systemd's, as written
sed -e '/^LoadCredential=/d' \
  -e 's|--inputs ${CREDENTIALS_DIRECTORY}/probe.conf|--inputs /etc/clhistogram/probe.conf|' \
  "$unit" > "$tmp/old.service"
if check_unit "$tmp/old.service" > "$tmp/old.txt"; then
  echo "probe-service: the check took a unit without the credential"; exit 1
fi
echo "a unit without the credential is refused: $(cat "$tmp/old.txt")"

if command -v systemd-analyze > /dev/null; then
  echo "=== systemd-analyze verify"
  # Every option of its ExecStart is one the probe takes: parsed with
  # a key file of one input where systemd puts the credential (a copy,
  # mode 0400, in the folder $CREDENTIALS_DIRECTORY names), the probe
  # starts (a file that is not a video then ends it with status 1, not 2).
  mkdir -p "$tmp/credentials"
  opts=$(sed -n 's|^ExecStart=[^ ]*/clhistogram-probe ||p' "$unit" \
    | sed 's|\$CLHISTOGRAM_PROBE_OPTIONS||; s|\${CREDENTIALS_DIRECTORY}|'"$tmp"'/credentials|; s|127.0.0.1:9610|127.0.0.1:0|')
  printf '[cam]\nuri=%s\n' "$unit" > "$tmp/credentials/probe.conf"
  chmod 0400 "$tmp/credentials/probe.conf"
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
