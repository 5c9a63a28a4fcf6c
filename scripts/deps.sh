#!/usr/bin/env bash
# deps.sh - install what gpugen needs to build, from Debian's packages, and
# say plainly what is still missing.  Sourced by scripts/quickstart and
# scripts/test; safe to run again (installs only what is absent).
#
#   liblua5.4-dev     the workload language (embedded Lua 5.4)
#   libamdhip64-dev   hiprtc + HIP headers, so HIP kernels compile in CI
#   libxxhash-dev     cache keys
#   cmake, clang, libclang-rt-14-dev   build, fuzzing, sanitizers
# The CUDA toolkit (NVRTC, headers) is expected at $CUDA_HOME or
# /usr/local/cuda; it is not a Debian package here.
set -u

gg_need=()
gg_have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in liblua5.4-dev libamdhip64-dev libxxhash-dev cmake clang libclang-rt-14-dev pkg-config; do
  gg_have_pkg "$p" || gg_need+=("$p")
done

if [ ${#gg_need[@]} -gt 0 ]; then
  echo "deps: installing ${gg_need[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else SUDO=none; fi
  if [ "$SUDO" = none ]; then
    echo "deps: missing ${gg_need[*]} and not root: install them with apt-get" >&2
    return 1 2>/dev/null || exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq "${gg_need[@]}" >/dev/null || {
    echo "deps: apt-get could not install ${gg_need[*]}" >&2
    return 1 2>/dev/null || exit 1
  }
fi

# matplotlib draws the latency pictures (bench/plot_latency.py); best effort.
if command -v python3 >/dev/null && ! python3 -c "import matplotlib" 2>/dev/null; then
  python3 -m pip install -q matplotlib >/dev/null 2>&1 ||
    echo "deps: matplotlib not installed: bench/plot_latency.py and its test will be skipped" >&2
fi

export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
if ! ls "$CUDA_HOME"/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "deps: no NVRTC under CUDA_HOME=$CUDA_HOME (lib64/libnvrtc.so): CUDA kernels cannot be compiled;" \
       "install the CUDA toolkit or set CUDA_HOME" >&2
fi
if ! ls "$CUDA_HOME"/include/cccl >/dev/null 2>&1; then
  echo "deps: no $CUDA_HOME/include/cccl: cooperative-groups kernels will not compile with NVRTC" >&2
fi
true
