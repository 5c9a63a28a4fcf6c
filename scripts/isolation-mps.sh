#!/usr/bin/env bash
# isolation-mps.sh BUILD_DIR [frames] [markdown file]: run bench/isolation_bench
# under NVIDIA MPS (kernels of different processes share the GPU at once
# instead of taking turns), with the competing process capped at
# GG_ISO_HOG_MPS_PERCENT (default 85) percent of the SMs.  The daemon gets
# private pipe and log folders and is shut down afterwards.
set -u
B=${1:?usage: isolation-mps.sh BUILD_DIR [frames] [markdown file]}
ctl=$(command -v nvidia-cuda-mps-control) || { echo "nvidia-cuda-mps-control not found: MPS is part of the NVIDIA driver's utilities"; exit 77; }
export CUDA_MPS_PIPE_DIRECTORY=$(mktemp -d) CUDA_MPS_LOG_DIRECTORY=$(mktemp -d)
export GG_ISO_HOG_MPS_PERCENT=${GG_ISO_HOG_MPS_PERCENT:-85}
"$ctl" -d || { echo "could not start the MPS daemon"; exit 1; }
"$B/bench/isolation_bench" "${2:-2000}" ${3:+"$3"}
rc=$?
echo quit | "$ctl"
sleep 1
rm -rf "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
exit $rc
