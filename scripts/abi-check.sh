#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Compares the ABI of the built libgstclhistogram-1.0 with the baseline
# abi/gstreamer-clhistogram-1.0.abi, through libabigail (Debian's
# abigail-tools): the types reachable from the public headers and the
# exported functions. Builds nothing.
#   scripts/abi-check.sh BUILDDIR           exit 0: the same ABI; 1: the
#                                           ABI changed (the report says how
#                                           and whether it breaks callers);
#                                           77: abidiff or the library's
#                                           debug information is missing
#   scripts/abi-check.sh --update BUILDDIR  writes the baseline from the
#                                           built library (a deliberate ABI
#                                           change: docs/design.md, "ABI")
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
update=0
if [ "${1:-}" = "--update" ]; then
  update=1
  shift
fi
build=${1:?usage: abi-check.sh [--update] BUILDDIR}
lib="$build/gst-libs/gst/clhistogram/libgstclhistogram-1.0.so"
headers="$root/gst-libs/gst/clhistogram"
baseline="$root/abi/gstreamer-clhistogram-1.0.abi"

for tool in abidw abidiff; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "abi-check: $tool not found: install abigail-tools (scripts/setup.sh)" >&2
    exit 77
  fi
done
if [ ! -e "$lib" ]; then
  echo "abi-check: $lib not built: run ninja -C $build first" >&2
  exit 1
fi
# Without DWARF the library shows its symbols only, not its types.
if ! LC_ALL=C readelf -S "$lib" 2>/dev/null | grep -q '\.debug_info'; then
  echo "abi-check: $lib has no debug information: build with -g (meson's" \
    "default debug or debugoptimized buildtype) to compare types" >&2
  exit 77
fi

if [ "$update" -eq 1 ]; then
  abidw --headers-dir "$headers" --drop-private-types --no-corpus-path \
    --no-comp-dir-path --short-locs --out-file "$baseline" "$lib" || exit 1
  echo "abi-check: wrote $baseline; commit it with the change that needs it"
  exit 0
fi

abidiff --headers-dir2 "$headers" --drop-private-types "$baseline" "$lib"
status=$?
# abidiff's exit status is a bit field: 1 error, 2 usage error, 4 an ABI
# change (a changed struct layout or signature among them), 8 a change
# that breaks callers on its own (a function removed).
if [ $((status & 3)) -ne 0 ]; then
  echo "abi-check: abidiff failed (status $status)" >&2
  exit 1
elif [ $((status & 12)) -ne 0 ]; then
  echo "abi-check: the ABI of libgstclhistogram-1.0 differs from the" \
    "baseline (above). A changed layout, signature or removed function" \
    "breaks applications built against 1.0: undo it (a new field takes a" \
    "_gst_reserved slot, a new function goes beside the old one). A change" \
    "that only adds is recorded deliberately with" \
    "'scripts/abi-check.sh --update $build' (docs/design.md, ABI)." >&2
  exit 1
fi
echo "abi-check: the ABI of libgstclhistogram-1.0 matches $baseline"
exit 0
