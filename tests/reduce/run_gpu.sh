#!/bin/bash
# run_gpu.sh - the reduce area on the lent GPU machine, in one call:
#   run(command="bash tests/reduce/run_gpu.sh", carry=[".debs"], timeout_s=480)
# Builds in a fresh folder outside the tree: a build folder left on a warm
# machine by an earlier call is judged by timestamps, and an older copy of
# gen/ can look newer than this one (that is how the first H100 run used a
# stale scan plan).  Logs and the benchmark's table/CSV go to $OUT.
mkdir -p /tmp/lua && for f in .debs/*.deb; do dpkg -x $f /tmp/lua; done
F="-DLUA_INCLUDE_DIR=/tmp/lua/usr/include/lua5.4 -DLUA_LIBRARY=/tmp/lua/usr/lib/x86_64-linux-gnu/liblua5.4.a -DXXHASH_INCLUDE_DIR=/tmp/lua/usr/include -DXXHASH_LIBRARY=/tmp/lua/usr/lib/x86_64-linux-gnu/libxxhash.a"
OUT=${OUT:-$PWD/out-reduce}; mkdir -p "$OUT"; B=/tmp/build-reduce-gpu; rm -rf $B
nvidia-smi --query-gpu=name,driver_version --format=csv | tee $OUT/gpu.txt
(cmake -S . -B $B $F -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc &&
 cmake --build $B -j16 --target test_reduce_plan test_reduce_emu test_reduce_gpu reduce_bench) > $OUT/build.log 2>&1 ||
  { tail -40 $OUT/build.log; exit 1; }
export GG_CACHE_DIR=$B/ggcache
(time timeout 220 $B/tests/reduce/test_reduce_gpu) > $OUT/test.log 2>&1; echo "reduce_gpu rc=$?"
grep -v '^ok ' $OUT/test.log | tail -30
(cd $B/bench && time timeout 200 ./reduce_bench --csv $OUT/reduce_bench.csv) > $OUT/bench.md 2>&1; echo "bench rc=$?"
tail -40 $OUT/bench.md
