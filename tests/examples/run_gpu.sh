#!/bin/bash
# run_gpu.sh - build and run tests/examples on the lent GPU machine (Lua and
# xxHash from .debs), then the whole binary under compute-sanitizer memcheck.
# Logs go to $OUT (build.log, ctest.log, memcheck.log).
mkdir -p /tmp/lua && for f in .debs/*.deb; do dpkg -x $f /tmp/lua; done; F="-DLUA_INCLUDE_DIR=/tmp/lua/usr/include/lua5.4 -DLUA_LIBRARY=/tmp/lua/usr/lib/x86_64-linux-gnu/liblua5.4.a -DXXHASH_INCLUDE_DIR=/tmp/lua/usr/include -DXXHASH_LIBRARY=/tmp/lua/usr/lib/x86_64-linux-gnu/libxxhash.a";
set -o pipefail; nvidia-smi -L; OUT=${OUT:-$PWD/out-examples}; mkdir -p "$OUT";
(cmake -S . -B build-gpu-examples $F -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build build-gpu-examples -j16 --target test_examples) > $OUT/build.log 2>&1 || { tail -60 $OUT/build.log; exit 1; }
cd build-gpu-examples; export GG_CACHE_DIR=$PWD/ggcache;
(time timeout 150 ctest -R '^examples_' --output-on-failure) 2>&1 | tee $OUT/ctest.log | grep -v '^ *$' | tail -70;
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer);
(time timeout 270 $CS --tool memcheck --error-exitcode 3 tests/examples/test_examples) > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -v '^FAIL' $OUT/memcheck.log | tail -25; grep -c '^FAIL' $OUT/memcheck.log
