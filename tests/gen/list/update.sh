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
for p in one many groups hyb; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=list/layouts.lua -DEXPLAIN=$p \
        -DWANT=list/layouts.explain.$p.txt -DUPDATE=1 -P list_compare.cmake
done
for k in big s128 h100 mine tf; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=list/gemm_tiles.lua -DEXPLAIN=$k \
        -DWANT=list/gemm_tiles.explain.$k.txt -DUPDATE=1 -P list_compare.cmake
done
for k in mm p fr2 fr2_s3_tile32x16x128; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=list/gemm_auto.lua -DEXPLAIN=$k \
        -DWANT=list/gemm_auto.explain.$k.txt -DUPDATE=1 -P list_compare.cmake
done
for k in beam z detect; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=list/cgemm.lua -DEXPLAIN=$k \
        -DWANT=list/cgemm.explain.$k.txt -DUPDATE=1 -P list_compare.cmake
done
for k in deep mine peak pf; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=list/gemm_split.lua -DEXPLAIN=$k \
        -DWANT=list/gemm_split.explain.$k.txt -DUPDATE=1 -P list_compare.cmake
done
for k in left_c2c stride_inplace left_items stride_items; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=list/fft_layouts.lua -DEXPLAIN=$k \
        -DWANT=list/fft_layouts.explain.$k.txt -DUPDATE=1 -P list_compare.cmake
done
for k in both wide shorter shifted fill widest assigned compared halves pragma own_name strided; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=list/staging.lua -DEXPLAIN=$k \
        -DWANT=list/staging.explain.$k.txt -DUPDATE=1 -P list_compare.cmake
done
for k in f_affine f_vec f_md; do
  cmake -DGPUGEN="$build/gen/gpugen" -DLUA=../reduce/emu.lua -DEXPLAIN=$k \
        -DWANT=list/emu.explain.$k.txt -DUPDATE=1 -P list_compare.cmake
done
