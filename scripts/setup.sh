#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs what clhistogram needs to build and test on Debian 12 (bookworm)
# or Debian 13 (trixie), whichever this machine runs (as root, or with
# sudo), fetches the sample videos and configures build/. The package names
# are the same on both releases. (gst-plugins-bad's: its analytics library,
# GStreamer 1.24 and later, is on Debian 13 only; the plugin is built with
# it there, and objectdetectionoverlay and the GstAnalytics typelib test
# it. gst-rtsp-server's typelib: the probe's RTSP test serves its clips
# from Python on localhost.) libsoup 3 serves clhistogram-probe --metrics,
# libyaml reads its --web-config, libcrypt checks its bcrypt passwords and
# glib-networking gives GIO its TLS; the tests make their certificates
# with openssl, and apache2-utils' htpasswd makes the hashes the manual
# shows; the tests check its metrics with Prometheus (prometheus, with
# promtool) and its systemd unit with systemd-analyze (systemd; man-db for
# its man: link); curl reads the metrics in the README's fleet example and
# the probe's TLS and passwords in its tests; podman (with runc, for hosts
# whose cgroups crun refuses) builds and runs the probe's container image,
# python3-yaml reads its Kubernetes example; stress-ng loads the cores in
# scripts/test.sh --stress. gi-docgen makes the meta library's API
# reference (-Dapi-docs, docs/api.md). chromium, headless, loads the
# probe's index page of monitor pictures as a browser does (the
# probe-index-browser test) and screenshots it for the docs.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC1091
. /etc/os-release
case "${ID:-}:${VERSION_CODENAME:-}" in
  debian:bookworm|debian:trixie)
    echo "setup: $PRETTY_NAME" >&2 ;;
  *)
    echo "setup: $PRETTY_NAME is neither Debian 12 (bookworm) nor Debian 13 (trixie);" \
      "trying Debian's package names anyway" >&2 ;;
esac
echo "setup: installing packages with apt-get (a few minutes on a fresh machine)" >&2
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends \
  build-essential meson ninja-build pkg-config python3 \
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  libgstreamer-plugins-bad1.0-dev \
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
  gstreamer1.0-plugins-bad gstreamer1.0-libav \
  ocl-icd-opencl-dev opencl-c-headers ocl-icd-libopencl1 pocl-opencl-icd clinfo \
  gobject-introspection libgirepository1.0-dev gir1.2-gstreamer-1.0 \
  gir1.2-gst-plugins-base-1.0 gir1.2-gst-plugins-bad-1.0 \
  gir1.2-gst-rtsp-server-1.0 \
  python3-gi python3-gst-1.0 python3-numpy python3-opencv \
  libjson-glib-dev ffmpeg jq curl stress-ng abigail-tools groff-base man-db \
  libpango1.0-dev libcairo2-dev fonts-dejavu-core gstreamer1.0-opencv \
  libsoup-3.0-dev libyaml-dev libcrypt-dev glib-networking openssl \
  apache2-utils prometheus systemd gi-docgen podman runc python3-yaml \
  chromium
"$root/scripts/fetch-samples.sh"
cd "$root"
echo "setup: configuring build/" >&2
if [ -d build ]; then meson setup --reconfigure build; else meson setup build; fi
