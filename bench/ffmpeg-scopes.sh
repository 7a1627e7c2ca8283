#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Builds a small static ffmpeg from Debian 12's own FFmpeg source (the
# version `apt` installs here), with only what the scope benchmark runs:
# raw frames in, the waveform and vectorscope filters, no output. Static,
# so it runs on the GPU machine, which has no FFmpeg, beside clscope.
#   bench/ffmpeg-scopes.sh WORKDIR      -> WORKDIR/ffmpeg
# Needs a deb-src entry for bookworm (the script adds one if missing).
set -euo pipefail
work=${1:?usage: ffmpeg-scopes.sh WORKDIR}
mkdir -p "$work"
cd "$work"
if ! ls ffmpeg_*.orig.tar.xz >/dev/null 2>&1; then
  if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/; then
    cat > /etc/apt/sources.list.d/clh-debsrc.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -qq
  fi
  apt-get source --download-only ffmpeg
fi
src=$(ls -d ffmpeg-*/ 2>/dev/null | head -1 || true)
if [[ -z $src ]]; then
  tar xf ffmpeg_*.orig.tar.xz
  src=$(ls -d ffmpeg-*/ | head -1)
fi
cd "$src"
command -v nasm >/dev/null || apt-get install -y -qq nasm
if [[ ! -f ffbuild/config.mak ]]; then
  ./configure --disable-everything --disable-doc --disable-network \
    --disable-autodetect --disable-ffplay --disable-ffprobe \
    --enable-static --disable-shared --extra-ldflags=-static \
    --enable-protocol=file,pipe --enable-demuxer=rawvideo \
    --enable-decoder=rawvideo --enable-encoder=rawvideo,wrapped_avframe \
    --enable-muxer=null,rawvideo \
    --enable-filter=waveform,vectorscope,hstack,split,format,scale,null,signalstats,copy \
    --enable-swscale
fi
make -j"$(nproc)" ffmpeg >/dev/null
cp ffmpeg "$work/ffmpeg"
"$work/ffmpeg" -hide_banner -version | head -1
