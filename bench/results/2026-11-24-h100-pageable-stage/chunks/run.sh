source .device/env.sh
export CLHISTOGRAM_CACHE_DIR=/tmp/cc LD_LIBRARY_PATH=$PWD/build/gst-libs/gst/clhistogram:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
for b in build build-b; do
  echo "--- $b round $round"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 100 build/bench/clh-streams-bench --streams 1 --formats RGBA,GRAY8 --in-flight 4 --pool off --messages off,on --frames 3000 --runs 3 --json $OUT/pageable-$b-$round.json 2>&1 | grep -E "^ +1 .* 4 " | sort -u
done
done
for b in build build-b; do
  echo "--- $b 16 streams"
  GST_PLUGIN_PATH=$PWD/$b/gst/clhistogram timeout 100 build/bench/clh-streams-bench --streams 16 --formats RGBA --in-flight 4 --pool off --messages on --frames 600 --runs 3 --json $OUT/pageable16-$b.json 2>&1 | grep -E "^ +16 .* 4 " | sort -u
done
