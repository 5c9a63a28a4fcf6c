#!/bin/sh
# A kernel without arguments has an empty argument struct: its header
# builds with -Werror and -pedantic-errors as C11, and as C++ with every
# C++ compiler found (clang++ warns that the struct's size differs between
# C and C++, gcc -pedantic that a struct has no members).
#   empty_args.sh GPUGEN CC CXX|"" INCLUDE_DIR LUA OUT_DIR
set -eu
gpugen=$1 cc=$2 cxx=$3 inc=$4 lua=$5 out=$6
rm -rf "$out"
mkdir -p "$out"
"$gpugen" emit "$lua" -o "$out"
mod=$(basename "$lua" .lua)
grep -q "struct gg_${mod}_args_[a-z_]* {\$" "$out/$mod.h" || { echo "FAIL: no argument struct"; exit 1; }
printf '#include "%s.h"\nint main(void) { return (int)sizeof(gg_module_%s) == 0; }\n' "$mod" "$mod" > "$out/main.c"
cp "$out/main.c" "$out/main.cpp"
"$cc" -std=c11 -Wall -Wextra -pedantic-errors -Werror -I"$inc" -I"$out" -c "$out/main.c" -o "$out/main.o"
echo "ok: $cc -std=c11 -pedantic-errors"
for x in "$cxx" clang++ g++; do
  [ -n "$x" ] && command -v "$x" > /dev/null || continue
  "$x" -std=c++17 -Wall -Wextra -pedantic-errors -Werror -I"$inc" -I"$out" -c "$out/main.cpp" -o "$out/main_cpp.o"
  echo "ok: $x -std=c++17 -pedantic-errors"
done
