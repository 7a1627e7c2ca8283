source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
export GST_PLUGIN_PATH=$PWD/build/gst/clhistogram
nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.pcie_link_gen_current,pcie.link.width.current --format=csv,noheader
bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1 | tr 'A-F' 'a-f' | sed 's/^0000//; s/^/0000/')
echo "gpu numa node: $(cat /sys/bus/pci/devices/${bus,,}/numa_node 2>/dev/null) ($bus)"
nproc; lscpu | grep -iE "model name|socket|numa|^cpu mhz|thread"; cat /sys/fs/cgroup/cpu.max 2>/dev/null
nvidia-smi topo -m 2>/dev/null | head -5
echo "=== CUB anchor"
nvcc -O3 -arch=sm_90 -o /tmp/cub_hist .device/anchors/cub_hist.cu && /tmp/cub_hist > $OUT/cub.txt 2>&1; grep -iE "e2e|end|pinned|bandwidth" $OUT/cub.txt | head -8
echo "=== engine alone, stream section"
timeout 240 build/bench/clh-bench --quick -p 3 > $OUT/bench.txt 2>&1; echo rc $?; sed -n '/== stream/,/^$/p' $OUT/bench.txt
S="--streams 1 --formats RGBA --in-flight 1,2,4,8 --pool on --messages off --frames 3000 --runs 3 --cpu-by-thread"
for r in 1 2 3; do
  echo "=== element, 1 RGBA, round $r"
  timeout 100 build/bench/clh-streams-bench $S 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread"
done
echo "=== element, 1 RGBA, taskset 0-3"
taskset -c 0-3 timeout 100 build/bench/clh-streams-bench $S 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread"
echo "=== element, 1 RGBA, taskset 8-15"
taskset -c 8-15 timeout 100 build/bench/clh-streams-bench $S 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread"
echo "=== element, 1 GRAY8"
timeout 100 build/bench/clh-streams-bench --streams 1 --formats GRAY8 --in-flight 1,4 --pool on --messages off --frames 3000 --runs 3 --cpu-by-thread 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread"
