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
