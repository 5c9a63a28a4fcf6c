#!/bin/sh
# check.sh GPUGEN ARCHS FILE.lua - `gpugen check` of a workload whose
# frames run on several GPUs (NVSHMEM: compiled with -rdc, linked with
# libnvshmem_device.a); skips (77) with gpugen's own message, which names
# the command that installs it, when NVSHMEM is missing.
out=$("$1" check --arch "$2" "$3" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q "NVSHMEM (headers, device and host libraries) is not installed"; then
  echo "skip: NVSHMEM is missing (see above)"
  exit 77
fi
exit $rc
