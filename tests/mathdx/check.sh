#!/bin/sh
# check.sh GPUGEN ARCHS FILE.lua - `gpugen check` of a workload whose
# kernels need MathDx; skips (77) with gpugen's own message, which names
# the command that installs it, when MathDx is missing.
out=$("$1" check --arch "$2" "$3" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q "MathDx (cuBLASDx/cuFFTDx headers) is not installed"; then
  echo "skip: MathDx is missing (see above)"
  exit 77
fi
exit $rc
