#!/bin/sh
# spill_check.sh GPUGEN NVCC NVSHMEM_DIR INTERNAL_H FILE.lua MAX_BYTES
#
# Do the persistent kernels of FILE.lua's module spill?  A team kernel
# holds every command's frame in one function, under the register cap that
# the runtime's minimum of blocks an SM leaves (runtime/module.c: the
# blocks of its size that give an SM GGR_PERSIST_SM_THREADS threads, read
# here from INTERNAL_H, runtime/internal.h); one exchange's receive loop
# made xchg_bench's team kernels spill 1.2-1.9 KB of loads a thread
# there, and every frame of theirs slower (bench/RESULTS.md, 2026-11-29).
# The module is emitted, compiled by nvcc for sm_90 as libgg compiles it
# (relocatable, NVSHMEM's headers, -DGG_MIN_BLOCKS_<symbol>=N for each
# persistent kernel of several blocks' size), and ptxas -v's spill loads
# of each persistent kernel must stay at or below MAX_BYTES.  Every
# persistent kernel of FILE.lua is taken to be of several blocks.
# Skips (77) without nvcc or NVSHMEM.
gpugen=$1 nvcc=$2 nvshmem=$3 internal=$4 lua=$5 max=$6
[ -x "$nvcc" ] || { echo "skip: no nvcc at $nvcc"; exit 77; }
[ -f "$nvshmem/include/nvshmem.h" ] || { echo "skip: NVSHMEM is missing at $nvshmem (scripts/deps.sh installs it)"; exit 77; }
sm=$(sed -n 's/^#define GGR_PERSIST_SM_THREADS \([0-9][0-9]*\).*/\1/p' "$internal")
[ -n "$sm" ] || { echo "no GGR_PERSIST_SM_THREADS in $internal"; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
"$gpugen" emit "$lua" -o "$dir" > "$dir/emit.log" 2>&1 || { cat "$dir/emit.log"; exit 1; }
cu=$(ls "$dir"/*.cu) || exit 1
# "__launch_bounds__(BLOCK, GG_MIN_BLOCKS_SYMBOL)": one -D per persistent kernel
defs=$(sed -n 's/.*__launch_bounds__(\([0-9][0-9]*\), GG_MIN_BLOCKS_\([A-Za-z0-9_]*\)).*/\1 \2/p' "$cu" |
       while read -r block sym; do echo "-DGG_MIN_BLOCKS_$sym=$(( (sm + block - 1) / block ))"; done)
[ -n "$defs" ] || { echo "$lua: no persistent kernel of several blocks"; exit 1; }
# shellcheck disable=SC2086
"$nvcc" -arch=sm_90 -std=c++17 -rdc=true -c -x cu "$cu" -o "$dir/m.o" -I"$nvshmem/include" \
  $defs -Xptxas -v > "$dir/ptxas.log" 2>&1 || { cat "$dir/ptxas.log"; exit 1; }
# ptxas: "Compiling entry function 'SYM' for 'sm_90'", then "... N bytes spill loads"
awk -v max="$max" -v defs="$defs" '
  /Compiling entry function/ { fn = $0; sub(/.*function .\047?/, "", fn); sub(/\047.*/, "", fn); next }
  /bytes spill loads/ && fn ~ /^gg_persist_/ {
    n = $0; sub(/ bytes spill loads.*/, "", n); sub(/.*, /, "", n);
    printf "%s: %d bytes of spill loads a thread (at most %d)\n", fn, n, max;
    if (n + 0 > max) bad = 1; seen = 1; fn = "" }
  END { if (!seen) { print "no persistent kernel in ptxas output"; exit 1 }
        if (bad) { print "spills over the bound with " defs; exit 1 } }' "$dir/ptxas.log"
