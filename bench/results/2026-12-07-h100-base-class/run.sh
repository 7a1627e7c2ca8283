#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The CUDA memory path and the element tests on the GPU machine, after the
# elements moved onto GstClBaseTransform.
cd "$(dirname "$0")/.."
# A runtime unpacked by an earlier call may lack packages bundled since.
rm -rf /tmp/gstrt
source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/clh-program-cache
b=$PWD/build-dev
# A registry of this run: a warm machine's default one may hold an earlier
# failed load of the same plugin file.
export GST_REGISTRY=/tmp/i41-registry-$$.bin
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  CYCLES=50 STREAMS=4 REPEATS=1 timeout 270 scripts/device-cuda-check.sh .device/clips "$b"
  echo "device-cuda-check exit $?"
  export GST_PLUGIN_PATH=$b/gst LD_LIBRARY_PATH=$b/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH

  for t in test-cuda-caps test-cltrackers test-clexposuremarks test-clscope test-clhistogram; do
    start=$SECONDS
    GST_TRACERS=leaks timeout $([ $t = test-clhistogram ] && echo 90 || echo 40) "$b/tests/$t" > /tmp/$t.log 2>&1
    rc=$?
    echo "=== $t: exit $rc ($((SECONDS - start)) s): $(grep -E '^[0-9]+%: Checks' /tmp/$t.log)"
  done
} 2>&1 | tee "$OUT/log.txt"
