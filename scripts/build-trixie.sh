#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds this checkout against Debian 13 (trixie)'s GStreamer 1.26 in a
# fresh trixie chroot (scripts/debian-chroot.sh) and copies out what the GPU
# machine runs, stripped, in a build folder's layout:
#   scripts/build-trixie.sh [OUTDIR]        # as root; default build-trixie/
# OUTDIR gets the plugin (gst/*.so), the meta library
# (gst-libs/gst/clhistogram/*.so*), and tests/test-engine,
# tests/clhistogram-cuda-check and bench/clh-cuda-bench where the
# configuration builds them (the last two only with meson's "CUDA memory
# input" on), and build-trixie.txt with meson's summary. Run them on the GPU
# machine with the runtime of scripts/device-runtime-trixie.sh:
#   source .device-trixie/env.sh
#   GST_PLUGIN_PATH=build-trixie/gst gst-inspect-1.0 clhistogram
#   trixie-run build-trixie/tests/test-engine -p /engine/...
# Release build, no introspection, docs or Prometheus server; ninja -j2
# (CLH_JOBS) builds only those targets.
set -euo pipefail
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$top"
out=${1:-build-trixie}
case "$out" in /*) ;; *) out=$top/$out ;; esac
jobs=${CLH_JOBS:-2}
name=clh-build-trixie-$$
work=${CLH_CHROOT_DIR:-/var/tmp/clhistogram/chroot}
if [ -e "$out" ] && [ ! -e "$out/build-trixie.txt" ]; then
  echo "build-trixie: $out exists and is not an earlier build-trixie output; not touching it" >&2
  exit 1
fi

# Run inside the chroot, in /src (the checkout's files).
inner=$(cat <<'EOF'
set -eu
jobs=$1
apt-get -q update >/tmp/apt.log 2>&1 || { tail -n 20 /tmp/apt.log; exit 1; }
apt-get install -y -q --no-install-recommends \
  gcc libc6-dev binutils meson ninja-build pkg-config python3 \
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  libgstreamer-plugins-bad1.0-dev ocl-icd-opencl-dev opencl-c-headers \
  libjson-glib-dev libpango1.0-dev libcairo2-dev >>/tmp/apt.log 2>&1 \
  || { tail -n 20 /tmp/apt.log; exit 1; }
meson setup --buildtype=release -Dintrospection=disabled -Dapi-docs=disabled \
  -Dmetrics=disabled -Dfuzzer=disabled -Dtests=enabled \
  /tmp/b >/tmp/meson.log 2>&1 || { tail -n 40 /tmp/meson.log; exit 1; }
sed -n '/^clhistogram /,$p' /tmp/meson.log > /tmp/summary.txt
targets=$(ninja -C /tmp/b -t targets all | sed 's/:.*//' | grep -E \
  '^(gst/[^/]*\.so|gst-libs/gst/clhistogram/lib[^/]*\.so[.0-9]*|tests/test-engine|tests/clhistogram-cuda-check|bench/clh-cuda-bench)$')
ninja -C /tmp/b -j "$jobs" $targets >/tmp/ninja.log 2>&1 || { tail -n 40 /tmp/ninja.log; exit 1; }
rm -rf /src/.build-trixie-out
mkdir -p /src/.build-trixie-out
cd /tmp/b
for f in gst/*.so gst-libs/gst/clhistogram/lib*.so* tests/test-engine \
    tests/clhistogram-cuda-check bench/clh-cuda-bench; do
  [ -e "$f" ] && [ ! -d "$f" ] || continue
  mkdir -p "/src/.build-trixie-out/$(dirname "$f")"
  cp -P "$f" "/src/.build-trixie-out/$f"
  [ -L "$f" ] || strip --strip-unneeded "/src/.build-trixie-out/$f"
done
{ echo "built in Debian $(cat /etc/debian_version), GStreamer $(pkg-config --modversion gstreamer-1.0)"
  cat /tmp/summary.txt; } > /src/.build-trixie-out/build-trixie.txt
EOF
)

echo "build-trixie: building in a fresh trixie chroot ($work/$name); a few minutes" >&2
status=0
"$top/scripts/debian-chroot.sh" trixie "$name" sh -s "$jobs" <<<"$inner" || status=$?
if [ $status -eq 0 ]; then
  rm -rf "$out"
  mkdir -p "$out"
  cp -a "$work/$name/src/.build-trixie-out/." "$out/"
fi
"$top/scripts/debian-chroot.sh" --remove "$name"
[ $status -eq 0 ] || { echo "build-trixie: the build failed" >&2; exit $status; }

head -n 1 "$out/build-trixie.txt"
grep -i cuda "$out/build-trixie.txt" || true
(cd "$out" && find . ! -type d ! -name build-trixie.txt -printf '%s %p -> %l\n' \
  | sed 's/ -> $//' | sort -k2)
# Every library the copied files link, against the runtime's list.
if [ -r "$top/.device-trixie/sonames.txt" ]; then
  missing=$(find "$out" -type f ! -name build-trixie.txt -exec readelf -d --wide {} + 2>/dev/null \
    | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u \
    | grep -vxF -f "$top/.device-trixie/sonames.txt" | grep -v '^libgstclhistogram-1\.0\.so' || true)
  if [ -n "$missing" ]; then
    echo "build-trixie: not in .device-trixie's runtime:" $missing >&2
  else
    echo "build-trixie: every library these link is in .device-trixie's runtime"
  fi
fi
du -sh "$out" | sed 's/^/build-trixie: /'
