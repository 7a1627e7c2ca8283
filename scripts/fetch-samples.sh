#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Fetches the sample videos the tests, benchmarks and examples read, none of
# them committed, into data/:
#   vtest.avi      OpenCV's pedestrian clip (768x576, 795 frames), from
#                  Debian's opencv-doc package;
#   Megamind.avi   OpenCV's animated clip of two faces (720x528, 270 frames
#                  at 23.976 fps), from opencv-doc as well;
#   haarcascade_frontalface_default.xml
#                  the Haar cascade for frontal faces, copied from
#                  /usr/share/opencv4 when opencv-data is installed, else
#                  from that package.
# opencv-doc is downloaded once, and only when a video is missing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
data="$root/data"
doc_dir=usr/share/doc/opencv-doc/examples/data
cascade_name=haarcascade_frontalface_default.xml
cascade_dir=/usr/share/opencv4/haarcascades
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Downloads Debian package $1 into $tmp.
download() {
  ( cd "$tmp" && apt-get download "$1" >/dev/null 2>&1 ) || {
    echo "fetch-samples: 'apt-get download $1' failed; run 'apt-get update' first" >&2
    exit 1
  }
}

# Extracts files $2... (paths inside package $1, without the leading /)
# from the downloaded package into data/, each under its base name.
extract() {
  pkg=$1
  shift
  members=""
  for path in "$@"; do members="$members ./$path"; done
  # shellcheck disable=SC2086 # the member list is split on purpose
  dpkg-deb --fsys-tarfile "$tmp/$pkg"_*.deb | tar -x -C "$tmp" $members
  mkdir -p "$data"
  for path in "$@"; do
    mv "$tmp/$path" "$data/${path##*/}"
    echo "fetch-samples: $data/${path##*/}"
  done
}

missing=""
for video in vtest.avi Megamind.avi; do
  [ -s "$data/$video" ] || missing="$missing $doc_dir/$video"
done
if [ -n "$missing" ]; then
  download opencv-doc
  # shellcheck disable=SC2086
  extract opencv-doc $missing
fi

if [ ! -s "$data/$cascade_name" ]; then
  if [ -s "$cascade_dir/$cascade_name" ]; then
    mkdir -p "$data"
    cp "$cascade_dir/$cascade_name" "$data/$cascade_name"
    echo "fetch-samples: $data/$cascade_name"
  else
    download opencv-data
    extract opencv-data "${cascade_dir#/}/$cascade_name"
  fi
fi
