#!/bin/sh
# update.sh BUILD_DIR - rewrite the expected `gpugen list` outputs in this
# folder from BUILD_DIR's gpugen: list/<example>.txt for examples/*.lua,
# list/<case>.txt (or .err, when it exists: a refused case) for list/*.lua.
# Review the diff before committing it.
set -e
build=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
for f in ../../examples/*.lua; do
  n=$(basename "$f" .lua)
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA="$f" -DWANT="list/$n.txt" -DUPDATE=1 -P list_compare.cmake
done
for f in list/*.lua; do
  n=$(basename "$f" .lua)
  w=list/$n.txt
  [ -e list/$n.err ] && w=list/$n.err
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA="$f" -DWANT="$w" -DUPDATE=1 -P list_compare.cmake
done
# every `gpugen explain` golden, list/<case>.explain.<name>.txt: the
# explain of <name> in list/<case>.lua, or for the cases whose workload
# lives with its GPU test, ../reduce/<case>.lua or ../frames/<case>_gpu.lua
# (CMakeLists.txt's gen_explain_test calls name the same files)
for w in list/*.explain.*.txt; do
  f=${w#list/}; case_=${f%%.explain.*}; name=${f#*.explain.}; name=${name%.txt}
  lua=list/$case_.lua
  [ -e "$lua" ] || lua=../reduce/$case_.lua
  [ -e "$lua" ] || lua=../frames/${case_}_gpu.lua
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA="$lua" -DEXPLAIN="$name" \
        -DWANT="$w" -DUPDATE=1 -P list_compare.cmake
done
