#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Fetches what examples/camshift.py tracks faces in: OpenCV's sample video
# Megamind.avi (720x528, 270 frames at 23.976 fps, an animated clip of two
# faces) from Debian's opencv-doc package, and the Haar cascade for frontal
# faces, haarcascade_frontalface_default.xml, from opencv-data (copied from
# /usr/share/opencv4 when that package is installed), into data/. Neither
# is committed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
video="$root/data/Megamind.avi"
cascade="$root/data/haarcascade_frontalface_default.xml"
cascade_dir=/usr/share/opencv4/haarcascades
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Downloads Debian package $1 into $tmp and extracts file $2 (its path
# inside the package, without the leading /) to $3.
extract() {
  ( cd "$tmp" && apt-get download "$1" >/dev/null 2>&1 ) || {
    echo "fetch-samples: 'apt-get download $1' failed; run 'apt-get update' first" >&2
    exit 1
  }
  dpkg-deb --fsys-tarfile "$tmp/$1"_*.deb | tar -x -C "$tmp" "./$2"
  mkdir -p "$root/data"
  mv "$tmp/$2" "$3"
  echo "fetch-samples: $3"
}

[ -s "$video" ] \
  || extract opencv-doc usr/share/doc/opencv-doc/examples/data/Megamind.avi "$video"
if [ ! -s "$cascade" ]; then
  if [ -s "$cascade_dir/haarcascade_frontalface_default.xml" ]; then
    mkdir -p "$root/data"
    cp "$cascade_dir/haarcascade_frontalface_default.xml" "$cascade"
    echo "fetch-samples: $cascade"
  else
    extract opencv-data \
      "${cascade_dir#/}/haarcascade_frontalface_default.xml" "$cascade"
  fi
fi
