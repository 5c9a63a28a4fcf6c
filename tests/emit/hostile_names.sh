#!/bin/sh
# Every name the loader accepts builds: hostile_names writes batch
# workloads of accepted adversarial names (and checks that refused ones
# get file:line messages); each batch is emitted, its .c and .h compiled
# as C11 with -Wall -Werror, its .h as C++ (also with the C library's
# headers and the GNU dialect, where linux and unix are macros), and its
# kernel sources with NVRTC and hiprtc (`gpugen check`).
#   hostile_names.sh HOSTILE_NAMES GPUGEN CC CXX|"" INCLUDE_DIR SOURCE_DIR OUT_DIR
set -eu
tool=$1 gpugen=$2 cc=$3 cxx=$4 inc=$5 src=$6 out=$7
rm -rf "$out"
mkdir -p "$out"
"$tool" "$out" "$src"/templates/*/* "$src"/include/*.h

# a translation unit that includes the C library's headers first
prelude='#include <assert.h>
#include <complex.h>
#include <errno.h>
#include <float.h>
#include <iso646.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>'

# C: every header after the C library's, in both dialects; C++ likewise.
build_host() { # DIR MODULE...
  d=$1; shift
  : > "$d/main.c"
  printf '%s\n' "$prelude" >> "$d/main.c"
  for m in "$@"; do printf '#include "%s.h"\n' "$m" >> "$d/main.c"; done
  printf 'int main(void) { return gg_module_%s.nkernels > 0 ? 0 : 1; }\n' "$1" >> "$d/main.c"
  incs= srcs=
  for m in "$@"; do incs="$incs -I$out/gen_$m"; srcs="$srcs $out/gen_$m/$m.c"; done
  for std in c11 gnu11; do
    # shellcheck disable=SC2086
    "$cc" -std=$std -Wall -Wextra -Werror -I"$inc" $incs "$d/main.c" $srcs -o "$d/main_$std"
    "$d/main_$std"
  done
  [ -n "$cxx" ] || return 0
  grep -v complex.h "$d/main.c" | sed 's/int main(void).*/int main() { return 0; }/' > "$d/main.cpp"
  for std in c++11 gnu++17 c++20; do
    # shellcheck disable=SC2086
    "$cxx" -x c++ -std=$std -Wall -Wextra -Werror -I"$inc" $incs -fsyntax-only "$d/main.cpp"
  done
}

modules=
while read -r lua mod role; do
  "$gpugen" emit "$lua" -o "$out/gen_$mod"
  if [ "$role" = module ]; then # the module name reaches host code only: built together below
    modules="$modules $mod"
    continue
  fi
  build_host "$out/gen_$mod" "$mod"
  "$gpugen" check "$lua" --arch sm_90,gfx90a > "$out/gen_$mod/check.txt" 2>&1 ||
    { cat "$out/gen_$mod/check.txt"; echo "FAIL: $lua"; exit 1; }
  echo "ok: $mod ($role)"
done < "$out/batches.txt"
mkdir -p "$out/modules"
# shellcheck disable=SC2086
build_host "$out/modules" $modules
echo "ok: modules$modules"
echo "hostile names: every accepted name builds"
