#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Makes .device-trixie/ in this checkout's root: Debian 13 (trixie)'s
# GStreamer 1.26 runtime for the GPU machine (NVIDIA's driver, no GStreamer,
# no network, a glibc that may be older than trixie's 2.41), and env.sh to
# source there:
#   scripts/device-runtime-trixie.sh          # here, as root (apt-get)
#   # device run, carrying .device-trixie (and build-trixie, clips):
#   source .device-trixie/env.sh; gst-inspect-1.0 nvcodec
#   trixie-run build-trixie/tests/clhistogram-cuda-check ...
# It holds GStreamer's core, gstreamer1.0-plugins-base and -good (each
# plugin whose libraries are in the runtime), of gstreamer1.0-plugins-bad
# nvcodec (nvh264dec, nvh265dec, nvvp9dec, cudaupload, cudadownload ...),
# videoparsersbad, codectimestamper and debugutilsbad, the OpenCL ICD
# loader, clinfo, the libraries the project's plugin, meta library, tests
# and benchmarks link (pango/cairo, json-glib, gstreamer-cuda, analytics),
# and trixie's own libc6 with its loader: only the shared objects these
# need (found through their DT_NEEDED entries), packed as runtime.tar.xz.
#
# The machine's own programs (bash, python3, nvidia-smi) must keep their
# own libc, so nothing puts trixie's libraries on LD_LIBRARY_PATH: each
# program of the runtime is started through a wrapper in bin/ that runs
# trixie's loader with --library-path (trixie's libraries, then NVIDIA's
# library folder, then LD_LIBRARY_PATH as it was), which holds for that
# process only. GStreamer's gst-plugin-scanner has such a wrapper too
# (GST_PLUGIN_SCANNER_1_0), and `trixie-run PROGRAM ARG...` runs the
# project's own binaries built for trixie (scripts/build-trixie.sh) the
# same way. GST_PLUGIN_SYSTEM_PATH_1_0, GST_PLUGIN_SCANNER_1_0 and
# GST_REGISTRY_1_0 (which GStreamer reads before the names without _1_0)
# point at the runtime, so .device/env.sh's settings do not reach it.
#
# The .debs come from Debian's mirror through apt-get with its own
# configuration, lists and cache (CLH_TRIXIE_APT_DIR, default
# /var/tmp/clhistogram/apt-trixie): the host's apt is left alone. Packages
# already in /var/cache/clhistogram/chroot/trixie-archives (debian-chroot.sh's
# cache) are copied from there instead of downloaded. Needs apt-get,
# dpkg-deb, readelf, python3 and xz; root only where the cache folder is
# root's.
set -euo pipefail
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=$top/.device-trixie
apt_dir=${CLH_TRIXIE_APT_DIR:-/var/tmp/clhistogram/apt-trixie}
mirror=${CLH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security
archives=${CLH_CHROOT_CACHE:-/var/cache/clhistogram/chroot}/trixie-archives
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || keyring=${CLH_CHROOT_CACHE:-/var/cache/clhistogram/chroot}/trixie$keyring
[ -r "$keyring" ] || { echo "device-runtime-trixie: no Debian archive keyring" >&2; exit 1; }
for tool in apt-get dpkg-deb readelf python3 xz; do
  command -v $tool >/dev/null || { echo "device-runtime-trixie: needs $tool" >&2; exit 1; }
done

# Libraries (by package) whose closure apt resolves: GStreamer, the plugin
# libraries nvcodec needs (gstreamer-gl, -cuda, codecs), what the base and
# good plugins most used here link, and what the project's binaries link.
seeds=(libc6 libgcc-s1 libstdc++6 libglib2.0-0t64 libgstreamer1.0-0 gstreamer1.0-tools
       libgstreamer-plugins-base1.0-0 libgstreamer-plugins-bad1.0-0 libgstreamer-gl1.0-0
       liborc-0.4-0t64 libvpx9 libjpeg62-turbo libpng16-16t64 libbz2-1.0 zlib1g libogg0
       libpangocairo-1.0-0 libcairo2 libjson-glib-1.0-0 ocl-icd-libopencl1 clinfo)
# Plugin packages taken without their dependencies: of these only the
# plugins whose libraries the closure above holds go in.
plugin_pkgs=(gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad)
# Large packages in that closure (Mesa's drivers, LLVM, fonts, data) that
# no shipped file links: not downloaded. The DT_NEEDED check below fails
# if one is needed after all.
skip='^(libllvm[0-9]+|libgl1-mesa-dri|mesa-libgallium|libz3-[0-9]+|libicu[0-9]+|fonts-.*|iso-codes|gsettings-desktop-schemas|libdrm-(amdgpu|intel|radeon|nouveau)1|libglx-mesa0|libegl-mesa0|mesa-.*-drivers|perl.*|python3.*|dbus.*|systemd.*|libsystemd-shared|base-files|debconf|dconf-.*|glib-networking.*|libpam.*)$'

echo "device-runtime-trixie: apt-get update (trixie, in $apt_dir)" >&2
mkdir -p "$apt_dir"/{etc/apt.conf.d,etc/preferences.d,etc/sources.list.d,etc/trusted.gpg.d} \
  "$apt_dir"/{state/lists/partial,cache/archives/partial,log,debs}
: > "$apt_dir/state/status"
cat > "$apt_dir/etc/sources.list" <<EOF
deb [signed-by=$keyring] $mirror trixie main
deb [signed-by=$keyring] $mirror trixie-updates main
deb [signed-by=$keyring] $security trixie-security main
EOF
cat > "$apt_dir/apt.conf" <<EOF
Dir::Etc "$apt_dir/etc";
Dir::Etc::main "$apt_dir/etc/apt.conf";
Dir::Etc::parts "$apt_dir/etc/apt.conf.d";
Dir::Etc::sourcelist "$apt_dir/etc/sources.list";
Dir::Etc::sourceparts "$apt_dir/etc/sources.list.d";
Dir::Etc::preferencesparts "$apt_dir/etc/preferences.d";
Dir::Etc::trustedparts "$apt_dir/etc/trusted.gpg.d";
Dir::State "$apt_dir/state";
Dir::State::status "$apt_dir/state/status";
Dir::Cache "$apt_dir/cache";
Dir::Log "$apt_dir/log";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
APT::Install-Recommends "false";
APT::Sandbox::User "root";
Acquire::Languages "none";
Acquire::Check-Valid-Until "false";
Acquire::Check-Date "false";
EOF
export APT_CONFIG=$apt_dir/apt.conf
apt-get -q update >"$apt_dir/log/update.log" 2>&1 || {
  tail -n 20 "$apt_dir/log/update.log" >&2
  echo "device-runtime-trixie: apt-get update failed (network to $mirror?)" >&2; exit 1; }

# The closure, as apt would install it on an empty system.
mapfile -t closure < <(apt-get -s install "${seeds[@]}" 2>"$apt_dir/log/closure.log" \
  | awk '$1 == "Inst" {print $2}' | grep -Ev "$skip")
[ ${#closure[@]} -gt 0 ] || { cat "$apt_dir/log/closure.log" >&2; exit 1; }
pkgs=("${closure[@]}" "${plugin_pkgs[@]}")
echo "device-runtime-trixie: ${#pkgs[@]} packages" >&2

# Download what is not already here, from debian-chroot.sh's cache if there.
cd "$apt_dir/debs"
# (named as apt names them: an epoch's colon written %3a)
mapfile -t files < <(apt-cache show --no-all-versions "${pkgs[@]}" | awk '
  /^Package:/ {p = $2} /^Version:/ {v = $2} /^Architecture:/ {a = $2}
  /^$/ && p {sub(/:/, "%3a", v); print p "_" v "_" a ".deb"; p = ""}
  END {if (p) {sub(/:/, "%3a", v); print p "_" v "_" a ".deb"}}')
for f in "${files[@]}"; do
  [ -e "$f" ] || [ ! -e "$archives/$f" ] || cp "$archives/$f" .
done
apt-get -q download "${pkgs[@]}" >"$apt_dir/log/download.log" 2>&1 || {
  tail -n 20 "$apt_dir/log/download.log" >&2
  echo "device-runtime-trixie: apt-get download failed" >&2; exit 1; }
# Older versions left from earlier runs are not unpacked.
declare -A current
for f in "${files[@]}"; do current[$f]=1; done
for f in *.deb; do
  [ -n "${current[$f]:-}" ] || rm -f "$f"
done

echo "device-runtime-trixie: unpacking and choosing files" >&2
stage=$apt_dir/stage
rm -rf "$stage" "$apt_dir/tree"
mkdir -p "$stage/libs" "$stage/plugins"
for f in *.deb; do
  case "$f" in
    gstreamer1.0-plugins-*) dpkg-deb -x "$f" "$stage/plugins/${f%%_*}" ;;
    *) dpkg-deb -x "$f" "$stage/libs" ;;
  esac
done

python3 - "$stage" "$apt_dir/tree" <<'EOF'
import os, shutil, subprocess, sys

stage, tree = sys.argv[1:3]
MA = "usr/lib/x86_64-linux-gnu"
libs = os.path.join(stage, "libs")
# Libraries the runtime finds on the GPU machine, from NVIDIA's driver.
EXTERNAL = {"libcuda.so.1", "libnvcuvid.so.1", "libnvidia-encode.so.1",
            "libnvidia-opencl.so.1"}
# Opened by name (dlopen) or linked by the project's plugin, meta library,
# tests and benchmarks rather than by the files below.
EXTRA = ["libgcc_s.so.1", "libstdc++.so.6", "libOpenCL.so.1",
         "libgstreamer-1.0.so.0", "libgstbase-1.0.so.0", "libgstcheck-1.0.so.0",
         "libgstcontroller-1.0.so.0", "libgstnet-1.0.so.0",
         "libgstvideo-1.0.so.0", "libgstaudio-1.0.so.0", "libgstapp-1.0.so.0",
         "libgstpbutils-1.0.so.0", "libgsttag-1.0.so.0", "libgstgl-1.0.so.0",
         "libgstcuda-1.0.so.0", "libgstanalytics-1.0.so.0",
         "libgstcodecparsers-1.0.so.0", "libgmodule-2.0.so.0",
         "libgio-2.0.so.0", "libpangocairo-1.0.so.0", "libpango-1.0.so.0",
         "libcairo.so.2", "libjson-glib-1.0.so.0"]
PROGRAMS = ["gst-launch-1.0", "gst-inspect-1.0", "gst-typefind-1.0",
            "gst-stats-1.0", "clinfo"]
SCANNER = MA + "/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner"
# Of gstreamer1.0-plugins-bad, only these.
BAD = ["nvcodec", "videoparsersbad", "codectimestamper", "debugutilsbad"]
# Of base and good, not these: adaptive streaming (libxml2 and OpenSSL's
# libcrypto, 8 MB), audio codecs and audio servers no test here uses.
LEAVE_OUT = {"adaptivedemux2", "opus", "vorbis", "theora", "jack", "oss4",
             "ossaudio"}
# These must load (a missing library fails the run instead of dropping them).
REQUIRED = {"coreelements", "coretracers", "app", "playback",
            "typefindfunctions", "videoconvertscale", "videotestsrc",
            "videorate", "rawparse", "matroska", "isomp4", "vpx",
            "nvcodec", "videoparsersbad"}

index = {}          # soname or file name -> path in the stage
for d in (MA, "lib/x86_64-linux-gnu"):
    top = os.path.join(libs, d)
    if os.path.isdir(top):
        for name in os.listdir(top):
            if ".so" in name and name not in index:
                index[name] = os.path.join(top, name)

def needed(path, cache={}):
    if path not in cache:
        out = subprocess.run(["readelf", "-d", "--wide", path], check=True,
                             capture_output=True, text=True).stdout
        cache[path] = [l.split("[", 1)[1].rstrip("]") for l in out.splitlines()
                       if "(NEEDED)" in l]
    return cache[path]

def closure(paths):
    """Sonames reached from paths, and those missing."""
    seen, missing, pending = set(), set(), list(paths)
    while pending:
        for so in needed(pending.pop()):
            if so in seen or so in EXTERNAL:
                continue
            if so in index:
                seen.add(so)
                pending.append(index[so])
            else:
                missing.add(so)
    return seen, missing

roots = [os.path.join(libs, "usr/bin", p) for p in PROGRAMS]
roots.append(os.path.join(libs, SCANNER))
# trixie's libc6: all its libraries (NVIDIA's libraries link libdl,
# libpthread, librt from whatever glibc is loaded).
libc6 = [n for n in ("ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libmvec.so.1",
                     "libdl.so.2", "libpthread.so.0", "librt.so.1", "libresolv.so.2",
                     "libanl.so.1", "libutil.so.1", "libnsl.so.1", "libnss_files.so.2",
                     "libnss_dns.so.2", "libnss_compat.so.2", "libthread_db.so.1",
                     "libBrokenLocale.so.1", "libc_malloc_debug.so.0")]
want = set(libc6) | set(EXTRA)
absent = sorted(n for n in want if n not in index)
if absent:
    sys.exit("device-runtime-trixie: not in the packages: " + " ".join(absent))
roots += [index[n] for n in want]

plugins, dropped = {}, {}
for pkg in sorted(os.listdir(os.path.join(stage, "plugins"))):
    pdir = os.path.join(stage, "plugins", pkg, MA, "gstreamer-1.0")
    for f in sorted(os.listdir(pdir)):
        name = f[len("libgst"):-len(".so")]
        if (name not in BAD) if pkg.endswith("-bad") else (name in LEAVE_OUT):
            continue
        plugins[name] = os.path.join(pdir, f)
core = os.path.join(libs, MA, "gstreamer-1.0")
for f in sorted(os.listdir(core)):
    plugins[f[len("libgst"):-len(".so")]] = os.path.join(core, f)
kept = []
for name, path in sorted(plugins.items()):
    _, missing = closure([path])
    if missing:
        dropped[name] = sorted(missing)
    else:
        kept.append(name)
bad = sorted(REQUIRED - set(kept))
if bad:
    sys.exit("device-runtime-trixie: required plugins miss libraries: "
             + "; ".join(f"{n}: {' '.join(dropped.get(n, ['not found']))}" for n in bad))
sonames, missing = closure(roots + [plugins[n] for n in kept])
if missing:
    sys.exit("device-runtime-trixie: libraries missing: " + " ".join(sorted(missing)))
sonames |= want

def put(src, dst):
    dst = os.path.join(tree, dst)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)           # the file a soname link names
    shutil.copymode(src, dst)

for so in sorted(sonames):
    put(index[so], os.path.join(MA, so))
for name in kept:
    put(plugins[name], os.path.join(MA, "gstreamer-1.0", f"libgst{name}.so"))
for p in PROGRAMS:
    put(os.path.join(libs, "usr/bin", p), os.path.join("usr/bin", p))
put(os.path.join(libs, SCANNER), SCANNER)
os.makedirs(os.path.join(tree, "lib64"))
os.symlink("../" + MA + "/ld-linux-x86-64.so.2",
           os.path.join(tree, "lib64/ld-linux-x86-64.so.2"))
with open(os.path.join(tree, "plugins.txt"), "w") as f:
    f.write("in: " + " ".join(kept) + "\n")
    for n, m in sorted(dropped.items()):
        f.write(f"left out: {n} (needs {' '.join(m)})\n")
print(f"device-runtime-trixie: {len(sonames)} libraries, {len(kept)} plugins "
      f"({len(dropped)} left out: {tree}/plugins.txt)", file=sys.stderr)
EOF

tree=$apt_dir/tree
mkdir -p "$tree/bin" "$tree/libexec" "$tree/gio-modules"
# Sourced by every wrapper, with r set to the runtime's root.
cat > "$tree/libexec/trixie-env" <<'EOF'
# trixie runtime: the library path and GStreamer settings of one process
# started under trixie's loader. Sourced by the wrappers in bin/.
_lib=$r/usr/lib/x86_64-linux-gnu
_lp=$_lib
for _d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
  if [ -e "$_d/libcuda.so.1" ]; then _lp=$_lp:$_d; break; fi
done
# LD_LIBRARY_PATH as it was, after those (its empty entries, which would
# mean the current folder, dropped).
_lp=$(printf '%s:%s' "$_lp" "${LD_LIBRARY_PATH:-}" | sed 's/::*/:/g; s/:$//')
export GST_PLUGIN_SYSTEM_PATH_1_0=$_lib/gstreamer-1.0
export GST_PLUGIN_SCANNER_1_0=$r/libexec/gst-plugin-scanner
export GST_REGISTRY_1_0=${GST_REGISTRY_1_0:-$r/registry.bin}
# GIO modules of the machine's own GLib, if any, are not for trixie's.
export GIO_MODULE_DIR=$r/gio-modules
[ -d "$r/icd" ] && export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$r/icd}
EOF
wrap() {  # wrap WRAPPER PROGRAM: WRAPPER runs PROGRAM (relative to the root)
  cat > "$1" <<EOF
#!/bin/sh
# trixie runtime: runs $2 under trixie's loader and libraries.
r=\$(cd "\$(dirname "\$0")/.." && pwd)
. "\$r/libexec/trixie-env"
exec "\$r/lib64/ld-linux-x86-64.so.2" --library-path "\$_lp" "\$r/$2" "\$@"
EOF
  chmod 755 "$1"
}
for p in gst-launch-1.0 gst-inspect-1.0 gst-typefind-1.0 gst-stats-1.0 clinfo; do
  wrap "$tree/bin/$p" "usr/bin/$p"
done
wrap "$tree/libexec/gst-plugin-scanner" \
  usr/lib/x86_64-linux-gnu/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner
cat > "$tree/bin/trixie-run" <<'EOF'
#!/bin/sh
# trixie runtime: trixie-run PROGRAM [ARG...] runs a program built for
# Debian 13 (scripts/build-trixie.sh) under trixie's loader and libraries.
r=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || { echo "usage: trixie-run PROGRAM [ARG...]" >&2; exit 2; }
. "$r/libexec/trixie-env"
p=$1; shift
case "$p" in */*) ;; *) p=$(command -v "$p") || { echo "trixie-run: $1: not found" >&2; exit 127; } ;; esac
exec "$r/lib64/ld-linux-x86-64.so.2" --library-path "$_lp" "$p" "$@"
EOF
chmod 755 "$tree/bin/trixie-run"

rm -rf "$out"
mkdir -p "$out"
tar -C "$tree" --owner=0 --group=0 --sort=name -cf - . | xz -T2 -9 > "$out/runtime.tar.xz"
sha256sum "$out/runtime.tar.xz" | cut -c1-16 > "$out/id"
# The runtime's sonames, for scripts/build-trixie.sh's check, and which
# plugins are in.
find "$tree/usr/lib/x86_64-linux-gnu" -maxdepth 1 -name '*.so*' -printf '%f\n' \
  | sort > "$out/sonames.txt"
cp "$tree/plugins.txt" "$out/plugins.txt"
cat > "$out/env.sh" <<'EOF'
# Source on the GPU machine, in the project's root, with .device-trixie
# carried:  source .device-trixie/env.sh
# Unpacks Debian 13's GStreamer 1.26 runtime under /tmp/gstrt-trixie (or
# CLH_TRIXIE_ROOT) once, and puts its bin/ first on PATH: gst-launch-1.0,
# gst-inspect-1.0, gst-typefind-1.0, gst-stats-1.0, clinfo and
# `trixie-run PROGRAM ARG...` (for binaries built by scripts/build-trixie.sh)
# run under trixie's own loader and libraries; LD_LIBRARY_PATH is left
# alone, so the machine's programs keep their own libc. Do not source
# .device/env.sh (Debian 12's) in the same shell.
_d=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_r=${CLH_TRIXIE_ROOT:-/tmp/gstrt-trixie}
if [ "$(cat "$_r/.id" 2>/dev/null)" != "$(cat "$_d/id")" ]; then
  [ -e "$_r/.id" ] && rm -rf "$_r"
  mkdir -p "$_r"
  tar -xJf "$_d/runtime.tar.xz" -C "$_r" 2>/dev/null ||
    python3 -c 'import sys, tarfile
t = tarfile.open(sys.argv[1])
t.extractall(sys.argv[2], **({"filter": "tar"} if hasattr(tarfile, "data_filter") else {}))' \
      "$_d/runtime.tar.xz" "$_r"
  cp "$_d/id" "$_r/.id"
fi
mkdir -p "$_r/icd"
_nv=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 \
  /usr/lib64/libnvidia-opencl.so.1 2>/dev/null | head -n 1)
[ -n "$_nv" ] && echo "$_nv" > "$_r/icd/nvidia.icd"
export CLH_TRIXIE_ROOT=$_r
export PATH=$_r/bin:$PATH
export OCL_ICD_VENDORS=$_r/icd
export GST_PLUGIN_SYSTEM_PATH_1_0=$_r/usr/lib/x86_64-linux-gnu/gstreamer-1.0
export GST_PLUGIN_SCANNER_1_0=$_r/libexec/gst-plugin-scanner
export GST_REGISTRY_1_0=$_r/registry.bin
unset _d _r _nv
EOF
echo "device-runtime-trixie: $(du -sh "$tree" | cut -f1) unpacked" >&2
du -sh "$out" | sed 's/^/device-runtime-trixie: .device-trixie holds /'
