#!/usr/bin/env bash
# deps.sh - install what gpugen needs from Debian's packages, prove that
# the GPU compilers work, and say plainly what is still missing.  Sourced by
# scripts/quickstart and scripts/test; safe to run again (installs only what
# is absent).  Run alone: scripts/deps.sh
#
#   liblua5.4-dev     the workload language (embedded Lua 5.4)
#   libamdhip64-dev   hiprtc + HIP headers, so HIP kernels compile without an AMD GPU
#   libxxhash-dev     cache keys
#   cmake, pkg-config, a C compiler (build-essential)
#   clang, libclang-rt-14-dev   only for `scripts/test --fuzz` (GG_DEPS_FUZZ=1)
# and, not from Debian: NVIDIA MathDx (the nvidia-mathdx wheel, headers only)
# unpacked into .deps/mathdx by scripts/fetch-mathdx.py, and NVIDIA NVSHMEM
# (the nvidia-nvshmem-cu13 wheel: headers, device library, host library)
# unpacked into .deps/nvshmem by scripts/fetch-nvshmem.py.
# Both wheels are pinned (version, SHA-256, files kept) in scripts/wheels.py.
# The CUDA toolkit (NVRTC, headers) is expected at $CUDA_HOME, else
# /usr/local/cuda; it is not a Debian package.  It need not be registered
# with the dynamic loader: libgg finds NVRTC's companions itself.
set -u

gg_need=()
gg_have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
gg_pkgs=(liblua5.4-dev libamdhip64-dev libxxhash-dev cmake pkg-config gcc g++ make)
[ "${GG_DEPS_FUZZ:-0}" = 1 ] && gg_pkgs+=(clang libclang-rt-14-dev)
for p in "${gg_pkgs[@]}"; do
  gg_have_pkg "$p" || gg_need+=("$p")
done

if [ ${#gg_need[@]} -gt 0 ]; then
  echo "deps: installing ${gg_need[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else SUDO=none; fi
  if [ "$SUDO" = none ]; then
    echo "deps: missing ${gg_need[*]} and not root: run 'apt-get install ${gg_need[*]}' as root" >&2
    return 1 2>/dev/null || exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! { $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq "${gg_need[@]}" >/dev/null; }; then
    echo "deps: apt-get could not install ${gg_need[*]} (is another apt running? is a Debian mirror reachable?)" >&2
    return 1 2>/dev/null || exit 1
  fi
fi

# matplotlib draws the latency pictures (bench/plot_latency.py); optional.
if command -v python3 >/dev/null && ! python3 -c "import matplotlib" 2>/dev/null; then
  echo "deps: matplotlib not installed (optional: apt-get install python3-matplotlib);" \
       "bench/plot_latency.py and its test are skipped"
fi

gg_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# A vendor's folder from its wheel, unpacked by scripts/fetch-NAME.py into
# .deps/NAME (no pip, no Python package installed), unless the variable
# that names another folder is set.  Missing, its tests skip.
#   gg_fetch WHAT NAME VARIABLE PROBE
gg_fetch() {
  local what=$1 name=$2 var=$3 probe=$4 dir out
  dir="${!var:-}"
  if [ -n "$dir" ]; then
    [ -f "$dir/$probe" ] || echo "deps: $var=$dir holds no $probe" >&2
  elif ! command -v python3 >/dev/null; then
    echo "deps: no python3, so $what was not fetched (apt-get install python3); its tests are skipped" >&2
  elif ! out="$(python3 "$gg_root/scripts/fetch-$name.py" "$gg_root/.deps/$name" 2>&1)"; then
    echo "deps: $what not installed: $out; its tests are skipped (retry: scripts/fetch-$name.py .deps/$name)" >&2
  else
    echo "deps: $out"
  fi
}

# NVIDIA MathDx: cuFFTDx, cuBLASDx device headers (the nvidia-mathdx wheel).
gg_fetch MathDx mathdx GG_MATHDX_DIR include/cufftdx.hpp
# NVIDIA NVSHMEM: frames across GPUs, docs/multi-gpu.md (the
# nvidia-nvshmem-cu13 wheel; only the files libgg uses are unpacked, ~58 MB
# of 182 MB).
gg_fetch NVSHMEM nvshmem GG_NVSHMEM_DIR include/nvshmem.h

# Prove the compilers work as libgg will use them: one trivial compile each,
# through the runtime's own gg_compile (the probe is built with every
# runtime file, so no list here can fall behind the runtime's).  A probe
# that does not build is a broken checkout, not a missing package: stop.
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
gg_probe_dir="$(mktemp -d)"
if cc -std=gnu11 -I"$gg_root/include" -I"$gg_root/runtime" "-DGG_CUDA_HOME_DEFAULT=\"$CUDA_HOME\"" \
      "$gg_root/scripts/compiler-probe.c" "$gg_root"/runtime/*.c -lxxhash -ldl -lpthread -lm \
      -o "$gg_probe_dir/probe" 2>"$gg_probe_dir/cc.log"; then
  if gg_out="$("$gg_probe_dir/probe" cuda sm_90 2>&1)"; then
    echo "deps: $gg_out"
  else
    echo "deps: NVRTC does not work, so CUDA kernels cannot be compiled (tests that need NVRTC fail):" >&2
    echo "$gg_out" | sed 's/^/deps:   /' >&2
    echo "deps: install the CUDA toolkit (12 or 13) at /usr/local/cuda, or point CUDA_HOME at one" \
         "(it needs lib64/libnvrtc.so.*, lib64/libnvrtc-builtins.so.*, include/ and include/cccl/)" >&2
  fi
  if gg_out="$("$gg_probe_dir/probe" hip gfx90a 2>&1)"; then
    echo "deps: $gg_out"
  else
    echo "deps: hiprtc does not work, so HIP kernels cannot be compiled:" >&2
    echo "$gg_out" | sed 's/^/deps:   /' >&2
    echo "deps: install libamdhip64-dev (Debian) or ROCm, or point GG_HIP_LIBRARY at libamdhip64.so" >&2
  fi
else
  echo "deps: could not build the compiler probe:" >&2; cat "$gg_probe_dir/cc.log" >&2
  rm -rf "$gg_probe_dir"
  return 1 2>/dev/null || exit 1
fi
[ -d "$CUDA_HOME/include/cccl" ] ||
  echo "deps: no $CUDA_HOME/include/cccl: cooperative-groups kernels will not compile with NVRTC" >&2
rm -rf "$gg_probe_dir"
unset gg_need gg_pkgs gg_probe_dir gg_root gg_out

# The closing words of quickstart and test: where things are.
#   gg_say_where BUILD_DIR [GENERATED_DIR]
gg_say_where() {
  local b; b="$(cd "$1" && pwd)"
  echo "where things are:"
  echo "  gpugen         $b/gen/gpugen"
  echo "  libgg          $b/runtime/libgg.a, $b/runtime/libgg.so (headers: $(pwd)/include)"
  [ -n "${2:-}" ] && echo "  emitted files  $(cd "$2" && pwd)/"
  [ -d "$b/prefix" ] && echo "  installed      $b/prefix (CMake: -DCMAKE_PREFIX_PATH=$b/prefix; pkg-config: PKG_CONFIG_PATH=$b/prefix/lib/pkgconfig)"
  echo "  put gpugen on PATH:  export PATH=\"$b/gen:\$PATH\"   (or: cmake --install $1 --prefix ~/.local)"
}
true
