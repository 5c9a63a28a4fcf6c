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

# fft_chain_bench (made by the glob): FFT -> filter -> inverse FFT -> energy
# as one gpugen frame against cuFFT + the peer's own kernels
# (fft_chain_ref.cu, compiled by nvcc) in a CUDA graph.  Built only where
# CMake finds cuFFT, the CUDA runtime and a CUDA compiler; left out of
# `all` otherwise.
if(TARGET fft_chain_bench)
  find_package(CUDAToolkit QUIET)
  include(CheckLanguage)
  check_language(CUDA)
  if(TARGET gpugen AND COMMAND gpugen_add_module AND TARGET CUDA::cufft AND TARGET CUDA::cudart
     AND CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    # sm_90 = H100/H200; the shared CUDA runtime, the one the bench and
    # cuFFT's stream calls use
    add_library(fft_chain_ref SHARED ${CMAKE_CURRENT_SOURCE_DIR}/fft_chain_ref.cu)
    set_target_properties(fft_chain_ref PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17
                                                   CUDA_RUNTIME_LIBRARY Shared)
    target_include_directories(fft_chain_ref PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    gpugen_add_module(fft_chain_bench ${CMAKE_CURRENT_SOURCE_DIR}/fft_chain_bench.lua)
    target_link_libraries(fft_chain_bench PRIVATE fft_chain_ref CUDA::cufft CUDA::cudart m)
  else()
    message(STATUS "fft_chain_bench: no cuFFT or CUDA compiler found, not built")
    set_target_properties(fft_chain_bench PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
endif()

# beamform_bench (made by the glob): FFT -> beamform (Y = W^H X) -> detect
# (max |Y|^2) as one gpugen frame against cuFFT + cuBLAS's cgemm + the
# peer's detect kernel (beamform_ref.cu, nvcc) in a CUDA graph.  Built only
# where CMake finds cuFFT, cuBLAS, the CUDA runtime and a CUDA compiler;
# left out of `all` otherwise.
if(TARGET beamform_bench)
  find_package(CUDAToolkit QUIET)
  include(CheckLanguage)
  check_language(CUDA)
  if(TARGET gpugen AND COMMAND gpugen_add_module AND TARGET CUDA::cufft AND TARGET CUDA::cublas
     AND TARGET CUDA::cudart AND CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    # sm_90 = H100/H200 (the detect kernel's PDL wait needs it); the shared
    # CUDA runtime, the one the bench, cuFFT and cuBLAS use
    add_library(beamform_ref SHARED ${CMAKE_CURRENT_SOURCE_DIR}/beamform_ref.cu)
    set_target_properties(beamform_ref PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17
                                                  CUDA_RUNTIME_LIBRARY Shared)
    target_include_directories(beamform_ref PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    gpugen_add_module(beamform_bench ${CMAKE_CURRENT_SOURCE_DIR}/beamform_bench.lua)
    target_link_libraries(beamform_bench PRIVATE beamform_ref CUDA::cufft CUDA::cublas
                                                 CUDA::cudart m)
  else()
    message(STATUS "beamform_bench: no cuFFT, cuBLAS or CUDA compiler found, not built")
    set_target_properties(beamform_bench PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
endif()
