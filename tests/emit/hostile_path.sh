#!/bin/sh
# A workload whose path and body hold what could break out of generated
# text: "*/" (a folder ending in '*', then '/'), a newline followed by
# C code, quotes, backslashes and trigraphs.  The emitted .c and .h must
# compile as C11 (trigraphs on) and the .h as C++ with no warning, no
# injected code may appear, and the source embedded in the .c must be the
# .cu byte for byte.  NVRTC and hiprtc then compile the sources, whose
# #line directives carry the escaped path.
#   hostile_path.sh GPUGEN CC CXX|"" INCLUDE_DIR OUT_DIR
set -eu
gpugen=$1 cc=$2 cxx=$3 inc=$4 out=$5
rm -rf "$out"
dir="$out/d*/q\"\\??"   # "*/" and "??/" come from the folder separators
mkdir -p "$dir" "$out/gen"
nl='
'
# the file name: newlines, C code, a trigraph
file="$dir/${nl}#error injected_by_path${nl}int injected; *??=.lua"
cat > "$file" <<'EOF'
module { name = "hostile_path" }
kernel "k" {
  pattern = "for", range = { "n" },
  params = { { "x", "f32[n]", access = "inout" } },
  -- trigraph-looking text and a string with escapes in device code
  body = [[ const char *s = "??/ ??= ??( */ \\ \" ??' "; (void)s; x(i) = x(i) > 0 ? x(i) : 0.0f; /* ??/ */ ]],
}
kernel "r" {
  pattern = "reduce", range = { "n" },
  params = { { "x", "f32[n]" }, { "o", "f32[1]", access = "out" } },
  value = "x(i) > 0 ?? 1 : 0", into = "o",
}
EOF
# "??" in a value is not C, but the reduce kernel is only emitted, not checked
"$gpugen" emit "$file" -o "$out/gen"

# no line of any generated file starts the injected code
if grep -n '^#error injected\|^int injected' "$out/gen"/*; then
  echo "FAIL: the path reached generated code unescaped"; exit 1
fi

cat > "$out/main.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hostile_path.h"
/* The embedded CUDA source must equal the .cu file byte for byte. */
int main(int argc, char **argv)
{
  FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  if (!f) return 2;
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  const char *s = gg_module_hostile_path.cuda_source;
  if (strlen(s) != n || memcmp(s, buf, n) != 0) {
    fprintf(stderr, "FAIL: embedded source (%zu bytes) differs from the .cu (%zu bytes)\n", strlen(s), n);
    return 1;
  }
  printf("embedded source == .cu (%zu bytes)\n", n);
  return 0;
}
EOF
"$cc" -std=c11 -Wall -Wextra -Werror -I"$inc" -I"$out/gen" \
  "$out/main.c" "$out/gen/hostile_path.c" -o "$out/main"
"$out/main" "$out/gen/hostile_path.cu"
if [ -n "$cxx" ]; then
  printf '#include "hostile_path.h"\nint main() { return 0; }\n' > "$out/main.cpp"
  "$cxx" -x c++ -std=c++11 -Wall -Wextra -Werror -I"$inc" -I"$out/gen" -fsyntax-only "$out/main.cpp"
fi

# The compilers read the #line directives carrying the escaped path.
sed -i 's/value = "x(i) > 0 ?? 1 : 0"/value = "x(i)"/' "$file"
"$gpugen" check "$file" --arch sm_90,gfx90a
echo "hostile path: ok"
