#!/bin/sh
# c_text.sh ROOT - the C host program shown in README.md is
# docs/examples/gain_host.c, whole and verbatim, and every line of the
# excerpt in docs/gpugen.1 (between the `.\" begin gain_host.c` and
# `.\" end gain_host.c` comments, roff escapes undone) is a line of it: so
# the documented C is the C the gpu test compiles and runs.
set -eu
root=$1
file=$root/docs/examples/gain_host.c
tmp=${TMPDIR:-/tmp}/gg_c_text.$$
trap 'rm -f "$tmp"' EXIT
awk '/^```c$/ { getline; if (index($0, "/* docs/examples/gain_host.c") == 1) { on = 1 } }
     on && /^```$/ { exit }
     on { print }' "$root/README.md" > "$tmp"
if ! cmp -s "$tmp" "$file"; then
  echo "README.md: its docs/examples/gain_host.c block differs from the file:" >&2
  diff "$file" "$tmp" >&2 || true
  exit 1
fi
awk '/^\.\\" begin gain_host\.c/ { on = 1; next } /^\.\\" end gain_host\.c/ { on = 0 } on' \
    "$root/docs/gpugen.1" | sed 's/\\-/-/g; s/\\e/\\/g' > "$tmp"
n=0
while IFS= read -r line; do
  case $line in .*|"") continue ;; esac
  n=$((n + 1))
  if ! grep -qxF -- "$line" "$file"; then
    echo "docs/gpugen.1: excerpt line not in docs/examples/gain_host.c: $line" >&2
    exit 1
  fi
done < "$tmp"
[ "$n" -gt 5 ] || { echo "docs/gpugen.1: no gain_host.c excerpt found" >&2; exit 1; }
echo "README.md and docs/gpugen.1 show docs/examples/gain_host.c ($n excerpt lines)"
