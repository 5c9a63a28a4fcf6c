# Reductions and scans vs CUB.  reduce_bench itself is
# made by the glob in CMakeLists.txt; this adds its generated module and,
# where CMake finds a CUDA compiler (the GPU machine), CUB built with nvcc.
include(${PROJECT_SOURCE_DIR}/tests/reduce/module.cmake)
if(TARGET reduce_bench)
  gg_reduce_add_module(reduce_bench ${CMAKE_CURRENT_SOURCE_DIR}/reduce_bench.lua)
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    # A shared library carries its own static cudart: the C bench links it
    # like any C library.  sm_90 = H100/H200 (see the device notes).
    add_library(cub_ref SHARED ${CMAKE_CURRENT_SOURCE_DIR}/cub_ref.cu)
    set_target_properties(cub_ref PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
    target_include_directories(cub_ref PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(reduce_bench PRIVATE cub_ref)
    target_compile_definitions(reduce_bench PRIVATE GG_HAVE_CUB=1)
  else()
    message(STATUS "reduce_bench: no CUDA compiler, built without the CUB reference")
  endif()
endif()
