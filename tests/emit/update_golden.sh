#!/bin/sh
# Regenerate the golden kernel sources of tests/emit/golden/ after an
# intended change to the emitter or the templates; review the diff before
# committing it.  Usage (from the source root):
#   tests/emit/update_golden.sh [BUILD_DIR]       (default: build)
set -e
build=${1:-build}
tool=$build/tests/emit/emit_tool
[ -x "$tool" ] || { echo "no $tool: build first (cmake --build $build)"; exit 1; }
tmp=$(mktemp -d)
for ex in saxpy sum1k matmul32 stencil2d_left persistent_three chain; do
  "$tool" emit "examples/$ex.lua" "$tmp/$ex"
  cp "$tmp/$ex/$ex.cu" "tests/emit/golden/$ex.cu"
  echo "tests/emit/golden/$ex.cu"
done
rm -rf "$tmp"
git diff --stat -- tests/emit/golden
