#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The files installed for running the probe as a service, checked by the
# tools that read them:
#   - the systemd unit's options (the fleet's, the key file read through
#     the clhistogram group; and a unit without the group refused), then
#     the unit by `systemd-analyze verify` (its ExecStart pointed at the
#     probe built here, its man: link at the page built here), and its
#     ExecStart's options by the probe built here;
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
# for a fleet, the key file read through the clhistogram group (root's
# and that group's, mode 0640: without the group the dynamic user could
# read it only if every user could), the rest of its hardening. Says
# what is missing and fails.
check_unit() {  # UNIT
  grep -q '^ExecStart=[^ ]*/clhistogram-probe --quiet --no-counts --interval 1000000000 --metrics 127.0.0.1:9610 --inputs /etc/clhistogram/probe.conf ' "$1" || {
    echo "probe-service: the unit's ExecStart does not run the probe with --quiet" \
      "--no-counts --interval 1000000000 --metrics on /etc/clhistogram/probe.conf"; return 1; }
  for key in DynamicUser=yes ProtectSystem=strict Restart=on-failure \
      'SupplementaryGroups=video render clhistogram$' 'EnvironmentFile=-' \
      'CacheDirectoryMode=0700' 'ExecReload=/bin/kill -HUP \$MAINPID'; do
    grep -q "^$key" "$1" || { echo "probe-service: the unit has no $key"; return 1; }
  done
}

echo "=== the unit's options"
check_unit "$unit" || exit 1
# ... a check that fails: the unit as it was before the group, whose
# user could read the key file only if every user could.
sed -e 's/^SupplementaryGroups=video render clhistogram$/SupplementaryGroups=video render/' \
  "$unit" > "$tmp/old.service"
if check_unit "$tmp/old.service" > "$tmp/old.txt"; then
  echo "probe-service: the check took a unit without the clhistogram group"; exit 1
fi
echo "a unit without the group is refused: $(cat "$tmp/old.txt")"

if command -v systemd-analyze > /dev/null; then
  echo "=== systemd-analyze verify"
  # Every option of its ExecStart is one the probe takes: parsed with
  # a key file of one input in the key file's place, the probe starts (a
  # file that is not a video then ends it with status 1, not 2).
  opts=$(sed -n 's|^ExecStart=[^ ]*/clhistogram-probe ||p' "$unit" \
    | sed 's|\$CLHISTOGRAM_PROBE_OPTIONS||; s|/etc/clhistogram/probe.conf|'"$tmp"'/probe.conf|; s|127.0.0.1:9610|127.0.0.1:0|')
  printf '[cam]\nuri=%s\n' "$unit" > "$tmp/probe.conf"
  chmod 0640 "$tmp/probe.conf"
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
