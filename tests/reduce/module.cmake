# gg_reduce_add_module(<target> <file.lua>): emit <file.lua>'s module at
# build time and add its .c to <target> - with `gpugen emit` when the build
# has the gpugen command, else with reduce_emit (the same library calls).
include_guard(GLOBAL)
if(NOT TARGET gpugen AND NOT TARGET reduce_emit)
  add_executable(reduce_emit ${CMAKE_CURRENT_LIST_DIR}/reduce_emit.c)
  target_link_libraries(reduce_emit PRIVATE ggi)
endif()

function(gg_reduce_add_module target lua)
  get_filename_component(name ${lua} NAME_WE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/gpugen/${target})
  if(TARGET gpugen)
    set(tool gpugen emit)
    set(dep gpugen)
  else()
    set(tool reduce_emit)
    set(dep reduce_emit)
  endif()
  file(GLOB_RECURSE templates CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/templates/*)
  add_custom_command(
    OUTPUT ${dir}/${name}.c ${dir}/${name}.h
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${tool} ${lua} -o ${dir}
    DEPENDS ${lua} ${dep} ${templates}
    COMMENT "gpugen: ${name} for ${target}")
  target_sources(${target} PRIVATE ${dir}/${name}.c)
  target_include_directories(${target} PRIVATE ${dir})
endfunction()
