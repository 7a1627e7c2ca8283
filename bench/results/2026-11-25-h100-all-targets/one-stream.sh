source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
run() { # dir label args
  GST_REGISTRY=/tmp/reg-$2.bin GST_PLUGIN_PATH=$PWD/$1 timeout 100 build/bench/clh-streams-bench $3 2>&1 | grep -E "^ +[0-9]+ [GR].* on |by thread|instr" | grep -v "%" | sed "s/^/$2: /"
}
R="--streams 1 --formats RGBA --in-flight 4 --pool on --messages off --frames 4000 --runs 3 --cpu-by-thread"
for round in 1 2; do
  run build/gst/clhistogram head "$R"; run variants/instr instr "$R"; run variants/v4 thread "$R"
done
run variants/instr instr "${R/RGBA/GRAY8}"
run variants/v4 thread "${R/in-flight 4/in-flight 8}"
