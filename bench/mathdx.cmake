# mathdx_bench (made by the glob in CMakeLists.txt): the gemm and fft
# workloads through gpugen, against cuBLAS and cuFFT.  Built only where CMake
# finds cuBLAS, cuFFT and the CUDA runtime (a toolkit with lib64/libcublas.so
# and libcufft.so); left out of `all`
# otherwise.  Running it needs MathDx too (it says so and exits 77).
if(TARGET mathdx_bench)
  find_package(CUDAToolkit QUIET)
  if(TARGET gpugen AND COMMAND gpugen_add_module AND TARGET CUDA::cublas AND TARGET CUDA::cufft
     AND TARGET CUDA::cudart)
    gpugen_add_module(mathdx_bench ${CMAKE_CURRENT_SOURCE_DIR}/mathdx_bench.lua)
    target_link_libraries(mathdx_bench PRIVATE CUDA::cublas CUDA::cufft CUDA::cudart)
  else()
    message(STATUS "mathdx_bench: no cuBLAS or cuFFT (CUDA toolkit) found, not built")
    set_target_properties(mathdx_bench PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
endif()

# fft_chain_bench and beamform_bench (made by the glob): a chain as one
# gpugen frame against CUDA libraries plus the peer's own kernels, in a
# CUDA graph.  The peer's kernels (REF.cu) are compiled by nvcc into a
# shared library: sm_90 = H100/H200, the shared CUDA runtime (the one the
# bench and the libraries' stream calls use).  Each is built only where
# CMake finds its libraries, the CUDA runtime and a CUDA compiler; left
# out of `all` otherwise.
#   fft_chain_bench  FFT -> filter -> inverse FFT -> energy: cuFFT and
#                    fft_chain_ref.cu (the filter, the energy)
#   beamform_bench   FFT -> beamform (Y = W^H X) -> detect (max |Y|^2):
#                    cuFFT, cuBLAS's cgemm and beamform_ref.cu (the detect)
find_package(CUDAToolkit QUIET)
include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER AND (TARGET fft_chain_bench OR TARGET beamform_bench))
  enable_language(CUDA)
endif()
function(gg_bench_with_peer name ref)
  if(NOT TARGET ${name})
    return()
  endif()
  set(found TRUE)
  foreach(lib IN LISTS ARGN ITEMS CUDA::cudart)
    if(NOT TARGET ${lib})
      set(found FALSE)
    endif()
  endforeach()
  if(found AND TARGET gpugen AND COMMAND gpugen_add_module AND CMAKE_CUDA_COMPILER)
    add_library(${ref} SHARED ${CMAKE_CURRENT_SOURCE_DIR}/${ref}.cu)
    set_target_properties(${ref} PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17
                                            CUDA_RUNTIME_LIBRARY Shared)
    target_include_directories(${ref} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    gpugen_add_module(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${name}.lua)
    target_link_libraries(${name} PRIVATE ${ref} ${ARGN} CUDA::cudart m)
  else()
    string(JOIN ", " libs ${ARGN})
    message(STATUS "${name}: no ${libs}, CUDA runtime or CUDA compiler found, not built")
    set_target_properties(${name} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
endfunction()
gg_bench_with_peer(fft_chain_bench fft_chain_ref CUDA::cufft)
gg_bench_with_peer(beamform_bench beamform_ref CUDA::cufft CUDA::cublas)
