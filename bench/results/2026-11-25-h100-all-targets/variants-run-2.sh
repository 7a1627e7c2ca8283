source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
S="--streams 1 --formats RGBA --in-flight 4 --pool on --messages off --frames 4000 --runs 3 --cpu-by-thread"
G="--streams 1 --formats GRAY8 --in-flight 4 --pool on --messages off --frames 4000 --runs 3 --cpu-by-thread"
run() { # dir label args
  GST_REGISTRY=/tmp/reg-$2.bin GST_PLUGIN_PATH=$PWD/$1 timeout 100 build/bench/clh-streams-bench $3 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread|instr" | grep -v "%" | sed "s/^/$2: /"
}
for round in 1 2; do
  echo "=== round $round"
  run build/gst/clhistogram head "$S"
  run variants/instr instr "$S"
  run variants/v4 thread "$S"
done
run variants/instr instr "$G"
run variants/v4 thread "$G"
run variants/v4 thread "--streams 1 --formats RGBA --in-flight 8 --pool on --messages off --frames 4000 --runs 3 --cpu-by-thread"
run variants/v4 thread "--streams 1 --formats RGBA --in-flight 4 --pool on --messages off --frames 2000 --runs 3 --paced"
