# check_test.cmake - gpugen_add_module(... CHECK ARCH ...) from the
# installed package: a body error fails the build with the workload's
# file:line, and the corrected workload builds.  Run by ctest (see
# CMakeLists.txt beside it); any failure is a FATAL_ERROR naming the step.

set(prefix ${WORK_DIR}/prefix)
set(src ${WORK_DIR}/src)
set(bld ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check test: cmake --install failed:\n${out}\n${err}")
endif()

file(WRITE ${src}/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.20)
project(checked C)
find_package(gpugen CONFIG REQUIRED)
add_executable(app app.c)
gpugen_add_module(app work.lua CHECK ARCH sm_90 gfx90a)
target_link_libraries(app PRIVATE gpugen::gg_static)
]=])
file(WRITE ${src}/app.c [=[
#include "work.h"
int main(void) { return gg_module_work.nkernels == 1 ? 0 : 1; }
]=])
# line 6 of work.lua is the body's line
set(good [=[
kernel "scale" {
  pattern = "for",
  range   = { "n" },
  params  = { { "y", "f32[n]", access = "inout" } },
  body = [[
    y(i) = 2.0f * y(i);
  ]],
}
]=])
string(REPLACE "2.0f * y(i)" "2.0f * undeclared_name" bad "${good}")

function(build what expect_ok)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${bld}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(build_output "${out}${err}" PARENT_SCOPE)
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "check test: building ${what} failed:\n${out}\n${err}")
  elseif(NOT expect_ok AND rc EQUAL 0)
    message(FATAL_ERROR "check test: building ${what} succeeded; CHECK should have failed it:\n${out}\n${err}")
  endif()
endfunction()

# 1. a body error: the build fails, naming work.lua:6 for NVRTC and hiprtc
file(WRITE ${src}/work.lua "${bad}")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${src} -B ${bld} -G ${GENERATOR}
                        -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check test: configure failed:\n${out}\n${err}")
endif()
build("a workload with a body error" FALSE)
if(NOT build_output MATCHES "work\\.lua:6:[^\n]*undeclared_name")
  message(FATAL_ERROR "check test: the failed build does not name work.lua:6 and the error:\n${build_output}")
endif()
if(EXISTS ${bld}/gpugen/app/work.c)
  message(FATAL_ERROR "check test: a failed check still wrote the module")
endif()

# 2. corrected: the same build tree builds (the failed check is re-run)
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1) # coarse file times on some file systems
file(WRITE ${src}/work.lua "${good}")
build("the corrected workload" TRUE)
if(NOT build_output MATCHES "after gpugen check")
  message(FATAL_ERROR "check test: the build did not run the check:\n${build_output}")
endif()
execute_process(COMMAND ${bld}/app RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check test: the built app exited with ${rc}")
endif()
message("check test: passed (body error failed the build at work.lua:6; the fix built)")
