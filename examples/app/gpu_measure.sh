#!/usr/bin/env bash
# examples/app/gpu_measure.sh - on a machine with an NVIDIA GPU: build the
# runtime, tests/gpu/test_graph and the app against an install (fresh, in
# /tmp), run test_graph (plain and under compute-sanitizer memcheck), the
# frame tests (test_frames_gpu, test_results_gpu: results in the
# acknowledgement), then every app mode x memory placement in one go.  Logs and the table
# (app-table.csv: mode,memory,kernel,n,mean,p50,p99,max,period in us) go
# to $OUT.  Runs only the targets it needs, so other areas' unfinished
# files do not stop it.  FRAMES (default 20000) frames per row.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-$PWD/out-app}"; mkdir -p "$OUT"
FRAMES="${FRAMES:-20000}"
F=""
if [ -d .debs ] && ! [ -e /usr/include/lua5.4/lua.h ]; then
  mkdir -p /tmp/lua && for f in .debs/*.deb; do dpkg -x "$f" /tmp/lua; done
  F="-DLUA_INCLUDE_DIR=/tmp/lua/usr/include/lua5.4 -DLUA_LIBRARY=/tmp/lua/usr/lib/x86_64-linux-gnu/liblua5.4.a"
  F="$F -DXXHASH_INCLUDE_DIR=/tmp/lua/usr/include -DXXHASH_LIBRARY=/tmp/lua/usr/lib/x86_64-linux-gnu/libxxhash.a"
fi
B=/tmp/gg-app-build; I=/tmp/gg-app-inst; A=/tmp/gg-app-app
rm -rf "$B" "$I" "$A"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%Y-%m-%dT%H:%MZ; } | tee "$OUT/gpu.txt"
if ! { cmake -S . -B "$B" $F -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$B" -j"$(nproc)" --target gpugen gg_static gg_shared test_graph test_gpu_runtime \
         test_frames_gpu test_results_gpu &&
       cmake --install "$B" --prefix "$I" &&
       cmake -S examples/app -B "$A" -DCMAKE_PREFIX_PATH="$I" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$A"; } > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; exit 1
fi
export GG_CACHE_DIR="$B/ggcache"
rc=0
for t in gpu/test_graph gpu/test_gpu_runtime frames/test_frames_gpu frames/test_results_gpu; do
  n=$(basename $t)
  "$B/tests/$t" > "$OUT/$n.log" 2>&1; r=$?; echo "$n: rc=$r $(tail -1 "$OUT/$n.log")"; [ $r = 0 ] || rc=1
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 200 "$CS" --tool memcheck "$B/tests/gpu/test_graph" > "$OUT/memcheck-test_graph.log" 2>&1
echo "memcheck test_graph: rc=$? $(grep 'ERROR SUMMARY' "$OUT/memcheck-test_graph.log" | tail -1)"

row() { # correctness at awkward sizes first (short), then the timed row at n = 1000
  for n in 777 4099; do
    "$A/app" --n $n --frames 300 --warmup 5 "$@" > /tmp/app-check.log 2>&1 || { rc=1; echo "FAILED n=$n $*"; cat /tmp/app-check.log; }
  done
  "$A/app" --n 1000 --frames "$FRAMES" --warmup 500 "$@" > /tmp/app-row.log 2>&1 || { rc=1; echo "FAILED $*"; }
  cat /tmp/app-row.log >> "$OUT/app-rows.log"
  grep '^summary,' /tmp/app-row.log | sed 's/^summary,//' >> "$OUT/app-table.csv"
}
echo "mode,memory,kernel,n,mean_us,p50_us,p99_us,max_us,period_us" > "$OUT/app-table.csv"
for mem in mapped device; do
  row --mode launch --memory $mem
  row --mode graph --memory $mem
  for k in one_block one_block_1024 many_blocks; do row --mode persistent --memory $mem --layout $k; done
done
for mem in mapped device; do row --mode persistent --memory $mem --overlap --layout one_block_1024; done
{ command -v column >/dev/null && column -s, -t "$OUT/app-table.csv"; } || cat "$OUT/app-table.csv"
exit $rc
