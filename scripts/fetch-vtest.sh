#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Fetches OpenCV's sample video vtest.avi (768x576, 795 frames) from Debian's
# opencv-doc package into data/vtest.avi. The video is not committed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/data/vtest.avi"
[ -s "$dest" ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && apt-get download opencv-doc >/dev/null 2>&1 ) || {
  echo "fetch-vtest: 'apt-get download opencv-doc' failed; run 'apt-get update' first" >&2
  exit 1
}
dpkg-deb --fsys-tarfile "$tmp"/opencv-doc_*.deb \
  | tar -x -C "$tmp" ./usr/share/doc/opencv-doc/examples/data/vtest.avi
mkdir -p "$root/data"
mv "$tmp/usr/share/doc/opencv-doc/examples/data/vtest.avi" "$dest"
echo "fetch-vtest: $dest"
