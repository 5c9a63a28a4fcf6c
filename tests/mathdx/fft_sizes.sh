#!/bin/sh
# fft_sizes.sh SRC MATHDX_DIR - gen/fft_sizes.c is what scripts/fft-sizes.py
# makes from the installed MathDx's cuFFTDx database (a new MathDx with
# other block FFTs must come with a regenerated table: the plan's thread
# counts come from it).  Skips (77) without MathDx or python3.
[ -f "$2/include/cufftdx.hpp" ] || { echo "skip: MathDx is not installed ($2)"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
python3 "$1/scripts/fft-sizes.py" "$2" > fft_sizes.now.c || exit 1
if ! diff -u "$1/gen/fft_sizes.c" fft_sizes.now.c; then
  echo "gen/fft_sizes.c differs from this MathDx's database: run scripts/fft-sizes.py $2 > gen/fft_sizes.c"
  exit 1
fi
echo "gen/fft_sizes.c matches $2"
