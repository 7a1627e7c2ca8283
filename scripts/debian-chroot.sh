#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs a command as root in a fresh Debian chroot, with this checkout in /src.
#   scripts/debian-chroot.sh RELEASE NAME [COMMAND [ARG...]]
#   scripts/debian-chroot.sh --remove NAME...
# RELEASE is a Debian codename (bookworm: Debian 12, trixie: Debian 13). The
# chroot, $CLH_CHROOT_DIR/NAME, is a copy of a minimal debootstrap of
# RELEASE kept in $CLH_CHROOT_CACHE (made once, from Debian's packages, and
# kept where the machine keeps that folder), so each run starts from a
# system with nothing installed; the .debs apt downloads are kept beside it.
# /src holds the checkout's files (tracked, and untracked ones git does not
# ignore) and data/, and /src/debs the folder $CLH_CHROOT_COPY names, if
# any; COMMAND (default: an interactive shell) runs in /src.
# The chroot is left in place for reading results out of it; the mounts
# are undone on exit; --remove deletes chroots, never through a mount.
# Needs root, debootstrap and the network to Debian.
set -eu
work=${CLH_CHROOT_DIR:-/var/tmp/clhistogram/chroot}

# Deletes chroot folder $1, refusing while anything is mounted inside it:
# a bind mount of /dev or of the package cache would be emptied too.
remove_root() {
  if awk -v r="$1/" 'index($2, r) == 1 {found = 1} END {exit !found}' /proc/mounts; then
    echo "debian-chroot: $1 still has mounts inside; not removing it" >&2
    return 1
  fi
  rm -rf --one-file-system "$1"
}

if [ "${1:-}" = --remove ]; then
  shift
  for name in "$@"; do
    case "$name" in ""|*/*|.*) echo "debian-chroot: bad NAME '$name'" >&2; exit 2 ;; esac
    remove_root "$work/$name"
  done
  exit 0
fi
[ $# -ge 2 ] || { echo "usage: $0 RELEASE NAME [COMMAND [ARG...]]" >&2; exit 2; }
release=$1 name=$2
shift 2
case "$release" in
  bookworm|trixie|forky|sid) ;;
  *) echo "debian-chroot: unknown release '$release' (bookworm, trixie)" >&2; exit 2 ;;
esac
case "$name" in
  ""|*/*|.*) echo "debian-chroot: NAME must be a plain folder name" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "debian-chroot: run as root (debootstrap, mount, chroot)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
cache=${CLH_CHROOT_CACHE:-/var/cache/clhistogram/chroot}
mirror=${CLH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
base=$cache/$release
archives=$cache/$release-archives
root=$work/$name

command -v debootstrap >/dev/null || {
  echo "debian-chroot: installing debootstrap" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >&2
}

make_base() {
  echo "debian-chroot: debootstrap $release into $base (once; about a minute)" >&2
  rm -rf "$base.new"
  mkdir -p "$cache"
  debootstrap --variant=minbase "$release" "$base.new" "$mirror" > "$cache/$release.log" 2>&1 || {
    tail -n 20 "$cache/$release.log" >&2
    echo "debian-chroot: debootstrap $release failed (log: $cache/$release.log)" >&2
    exit 1
  }
  # The release's updates and security fixes, as an installed system has.
  security=${mirror%/debian}/debian-security
  cat > "$base.new/etc/apt/sources.list" <<EOF
deb $mirror $release main
deb $mirror $release-updates main
deb $security $release-security main
EOF
  # Packages installed in the chroot start no services.
  printf '#!/bin/sh\nexit 101\n' > "$base.new/usr/sbin/policy-rc.d"
  chmod 755 "$base.new/usr/sbin/policy-rc.d"
  rm -rf "$base.new/var/cache/apt/archives"/*.deb
  touch "$base.new/.clhistogram-base"
  rm -rf "$base"
  mv "$base.new" "$base"
}

undo_mounts() {
  for m in dev/pts dev/shm dev sys proc; do
    if mountpoint -q "$root/$m" 2>/dev/null; then
      umount "$root/$m" 2>/dev/null || umount -l "$root/$m"
    fi
  done
}

# One debootstrap of a release at a time, whoever else asks for it.
mkdir -p "$cache"
exec 9> "$cache/$release.lock"
flock 9
[ -e "$base/.clhistogram-base" ] || make_base
flock -u 9
mkdir -p "$work" "$archives/partial"
undo_mounts
remove_root "$root"
cp -a "$base" "$root"
trap undo_mounts EXIT
trap 'exit 130' INT TERM
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
# The packages apt downloaded before, linked in, and those it downloads
# now kept: a copy each way, not a shared folder, so that chroots running
# at once never wait on each other's apt lock.
find "$archives" -maxdepth 1 -name '*.deb' -exec cp -l -t "$root/var/cache/apt/archives" {} + 2>/dev/null \
  || find "$archives" -maxdepth 1 -name '*.deb' -exec cp -t "$root/var/cache/apt/archives" {} +
keep_debs() {
  find "$root/var/cache/apt/archives" -maxdepth 1 -name '*.deb' \
    -exec cp -n -t "$archives" {} + 2>/dev/null || true
}
trap 'keep_debs; undo_mounts' EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

mkdir -p "$root/src"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard \
    | xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh \
    | tar --null -T - -cf -) | tar -xf - -C "$root/src"
else
  (cd "$src" && tar --exclude='./build*' -cf - .) | tar -xf - -C "$root/src"
fi
[ -d "$src/data" ] && cp -aL "$src/data" "$root/src/"
if [ -n "${CLH_CHROOT_COPY:-}" ]; then
  mkdir -p "$root/src/debs"
  cp -a "$CLH_CHROOT_COPY"/. "$root/src/debs/"
fi

[ $# -gt 0 ] || set -- /bin/bash
echo "debian-chroot: $release in $root: $*" >&2
status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  DEBIAN_FRONTEND=noninteractive \
  /bin/sh -c 'cd /src && exec "$@"' sh "$@" || status=$?
exit $status
