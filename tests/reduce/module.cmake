# gg_reduce_add_module(<target> <file.lua> [<templates dir>]): emit
# <file.lua>'s module at build time and add its .c to <target> - with
# `gpugen emit` when the build has the gpugen command, else with
# reduce_emit (the same library calls).  Returns the output folder in
# GG_REDUCE_MODULE_DIR.
include_guard(GLOBAL)
if(NOT TARGET gpugen AND NOT TARGET reduce_emit)
  add_executable(reduce_emit ${CMAKE_CURRENT_LIST_DIR}/reduce_emit.c)
  target_link_libraries(reduce_emit PRIVATE ggi)
endif()

function(gg_reduce_add_module target lua)
  get_filename_component(name ${lua} NAME_WE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/gpugen/${target})
  set(extra "")
  if(ARGC GREATER 2)
    set(extra --templates ${ARGV2})
  endif()
  if(TARGET gpugen)
    set(tool gpugen emit)
    set(dep gpugen)
  else()
    set(tool reduce_emit)
    set(dep reduce_emit)
  endif()
  file(GLOB_RECURSE templates CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/templates/*)
  add_custom_command(
    OUTPUT ${dir}/${name}.c ${dir}/${name}.h ${dir}/${name}.cu
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${tool} ${lua} -o ${dir} ${extra}
    DEPENDS ${lua} ${dep} ${templates} ${ARGV3}
    COMMENT "gpugen: ${name} for ${target}")
  target_include_directories(${target} PRIVATE ${dir})
  set(GG_REDUCE_MODULE_DIR ${dir} PARENT_SCOPE)
  if(ARGC GREATER 2)
    set_source_files_properties(${dir}/${name}.cu PROPERTIES GENERATED TRUE)
    add_custom_target(${target}_module DEPENDS ${dir}/${name}.cu)
    add_dependencies(${target} ${target}_module)
  else()
    target_sources(${target} PRIVATE ${dir}/${name}.c)
  endif()
endfunction()
