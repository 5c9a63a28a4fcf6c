#!/bin/sh
# A CUDA toolkit that the dynamic loader does not know about (a runfile or
# tarball install, a container): run the compile paths with the loader's
# cache ignored and no LD_LIBRARY_PATH, so that libraries are found only
# where gpugen itself looks.  NVRTC opens libnvrtc-builtins by bare name;
# without gpugen preloading it from NVRTC's folder this fails with
# "failed to open libnvrtc-builtins.so.13.0".
#   unregistered_toolkit.sh GPUGEN EXAMPLE.lua CDP_TEST
set -u
gpugen=$1 example=$2 cdp=$3
ldso=
for f in /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1; do [ -x "$f" ] && ldso=$f && break; done
[ -n "$ldso" ] || { echo "skip: no dynamic loader found to run with --inhibit-cache"; exit 77; }
cuda=${CUDA_HOME:-/usr/local/cuda}
ls "$cuda"/lib64/libnvrtc.so* >/dev/null 2>&1 || { echo "skip: no NVRTC under $cuda"; exit 77; }
unset LD_LIBRARY_PATH
echo "== gpugen check $example --arch sm_90 (loader cache ignored)"
"$ldso" --inhibit-cache "$gpugen" check "$example" --arch sm_90 || exit 1
echo "== device-side launch link: NVRTC -rdc + nvJitLink + libcudadevrt (loader cache ignored)"
"$ldso" --inhibit-cache "$cdp" link
rc=$?
[ $rc -eq 0 ] || { echo "link check failed (exit $rc)"; exit 1; }
echo "ok: NVRTC, its builtins and nvJitLink found without the loader's help"
