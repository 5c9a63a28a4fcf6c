# GpugenModule.cmake - run `gpugen emit` at build time.
#
#   gpugen_add_module(<target> <file.lua>...
#                     [NAME <module>]           only with one file that sets module { name = ... }
#                     [OUTPUT_DIR <dir>]        default: <binary dir>/gpugen/<target>
#                     [TEMPLATES <dir>]         templates overriding the embedded ones
#                     [CHECK [ARCH <arch>...]]  also compile the kernels at build time
#                     [EMIT_ARGS <arg>...])     more arguments for `gpugen emit`
#
# For each workload file, `gpugen emit <file.lua> -o <dir>` writes
# <dir>/<module>.c, .h, .cu and .hip, where <module> is the file's name
# up to its first dot (as gpugen names it), or NAME.  The .c (the module descriptor
# `gg_module_<module>`, kernel sources as strings) is added to <target>, and
# <dir> to its include path, so the application writes
#
#   #include "<module>.h"
#   gg_module_load(ctx, &gg_module_<module>, &mod);
#
# CHECK runs `gpugen check <file.lua> --arch <arch>,...` before the emit
# (ARCH: sm_XX for NVRTC, gfxXXXX for hiprtc; default gpugen check's own
# list), so an error in a body fails the build with the workload's
# file:line instead of failing gg_module_load at the application's
# start-up.  It needs NVRTC / hiprtc on the build machine (no GPU).
#
# The command re-runs only when the workload file, the gpugen executable or
# a file under TEMPLATES changes.  <target> must also link the runtime,
# gpugen::gg or gpugen::gg_static.
#
# Works from the installed package (gpugenConfig.cmake includes this file)
# and inside gpugen's own build (cmake/install.cmake includes it).

function(_gpugen_pick_target out)
  foreach(t ${ARGN})
    if(TARGET ${t})
      set(${out} ${t} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

function(gpugen_add_module target)
  cmake_parse_arguments(PARSE_ARGV 1 GGM "CHECK" "NAME;OUTPUT_DIR;TEMPLATES" "EMIT_ARGS;ARCH")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "gpugen_add_module: '${target}' is not a target; call add_executable/add_library first")
  endif()
  if(NOT GGM_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpugen_add_module(${target} ...): no workload file given")
  endif()

  # The installed package's imported target, or (inside gpugen's own build,
  # before cmake/install.cmake made the aliases) the real targets.
  _gpugen_pick_target(gen gpugen::gpugen gpugen)
  _gpugen_pick_target(rt gpugen::gg_static gg_static)
  if(NOT gen)
    message(FATAL_ERROR "gpugen_add_module: no gpugen executable target; use find_package(gpugen CONFIG REQUIRED)")
  endif()

  if(GGM_ARCH AND NOT GGM_CHECK)
    message(FATAL_ERROR "gpugen_add_module(${target}): ARCH goes with CHECK (write CHECK ARCH ${GGM_ARCH})")
  endif()
  list(FIND GGM_KEYWORDS_MISSING_VALUES ARCH arch_empty)
  if(arch_empty GREATER -1)
    message(FATAL_ERROR "gpugen_add_module(${target}): ARCH needs at least one arch (sm_90, gfx90a, ...)")
  endif()

  list(LENGTH GGM_UNPARSED_ARGUMENTS nfiles)
  if(GGM_NAME AND nfiles GREATER 1)
    message(FATAL_ERROR "gpugen_add_module(${target}): NAME goes with one workload file, got ${nfiles}")
  endif()

  if(GGM_OUTPUT_DIR)
    get_filename_component(outdir "${GGM_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(outdir "${CMAKE_CURRENT_BINARY_DIR}/gpugen/${target}")
  endif()

  set(template_args "")
  set(template_deps "")
  if(GGM_TEMPLATES)
    get_filename_component(tdir "${GGM_TEMPLATES}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    set(template_args --templates "${tdir}")
    file(GLOB_RECURSE template_deps CONFIGURE_DEPENDS "${tdir}/*")
  endif()

  set(check_cmd "")
  set(check_note "")
  if(GGM_CHECK)
    set(check_note " (after gpugen check)")
    set(arch_args "")
    if(GGM_ARCH)
      string(REPLACE ";" "," archs "${GGM_ARCH}")
      set(arch_args --arch "${archs}")
    endif()
    set(check_cmd COMMAND $<TARGET_FILE:${gen}> check "<lua>" ${arch_args} ${template_args})
  endif()

  foreach(lua IN LISTS GGM_UNPARSED_ARGUMENTS)
    get_filename_component(lua "${lua}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${lua}")
      message(FATAL_ERROR "gpugen_add_module(${target}): no such workload file: ${lua}")
    endif()
    get_filename_component(name "${lua}" NAME_WE)
    get_filename_component(lua_name "${lua}" NAME)
    if(GGM_NAME)
      set(name "${GGM_NAME}")
    endif()
    # Only the .c and .h are listed as outputs: the .cu / .hip are written
    # too, but a build tool would re-run the command forever if one of them
    # were listed and not written (e.g. a CUDA-only module).
    # check first: a failed check writes nothing, so the next build checks again
    string(REPLACE "<lua>" "${lua}" check "${check_cmd}")
    add_custom_command(
      OUTPUT "${outdir}/${name}.c" "${outdir}/${name}.h"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${outdir}"
      ${check}
      COMMAND $<TARGET_FILE:${gen}> emit "${lua}" -o "${outdir}" ${template_args} ${GGM_EMIT_ARGS}
      DEPENDS "${lua}" $<TARGET_FILE:${gen}> ${template_deps}
      COMMENT "gpugen emit ${lua_name}${check_note}"
      VERBATIM)
    target_sources(${target} PRIVATE "${outdir}/${name}.c" "${outdir}/${name}.h")
  endforeach()

  target_include_directories(${target} PRIVATE "${outdir}")
  if(rt)
    # The generated .c includes gg_module.h; give the target its folder even
    # before it links the runtime.
    target_include_directories(${target} PRIVATE $<TARGET_PROPERTY:${rt},INTERFACE_INCLUDE_DIRECTORIES>)
  endif()
endfunction()
