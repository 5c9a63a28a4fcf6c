# install_test.cmake - run by ctest (see CMakeLists.txt beside it).
# Any failure is a FATAL_ERROR naming the step and showing its output.

function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${name} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(app_build ${WORK_DIR}/app)
file(REMOVE_RECURSE ${WORK_DIR})

# 1. install
set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} ${config_args})

# 2. what the prefix must hold
foreach(f bin/gpugen lib/libgg.a lib/libgg.so include/gpugen/gg.h include/gpugen/gg_module.h
          lib/cmake/gpugen/gpugenConfig.cmake lib/cmake/gpugen/gpugenConfigVersion.cmake
          lib/cmake/gpugen/gpugenTargets.cmake lib/cmake/gpugen/GpugenModule.cmake
          lib/pkgconfig/gpugen.pc share/man/man1/gpugen.1 share/gpugen/templates)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install test: ${prefix}/${f} was not installed")
  endif()
endforeach()
step("installed gpugen --help" ${prefix}/bin/gpugen --help)
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
  step("pkg-config gpugen" ${PKG_CONFIG} --cflags --libs gpugen)
  # The .pc file must point into this prefix even though it was installed
  # with --prefix (it computes its prefix from its own place).
  if(NOT step_output MATCHES "include/gpugen")
    message(FATAL_ERROR "install test: pkg-config gave '${step_output}', not the installed include/gpugen")
  endif()
endif()

# 3. build examples/app against the prefix, as a separate project (from a
#    copy, so step 4 can touch its workload file)
file(COPY ${APP_SOURCE}/ DESTINATION ${WORK_DIR}/app_src)
set(flags "")
if(SANITIZE)
  # libgg in the prefix is instrumented; the app must load the sanitizer runtime first.
  set(flags -DCMAKE_C_FLAGS=-fsanitize=address,undefined -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined)
endif()
step("configure examples/app" ${CMAKE_COMMAND} -S ${WORK_DIR}/app_src -B ${app_build} -G ${GENERATOR}
     -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Debug ${flags})
step("build examples/app" ${CMAKE_COMMAND} --build ${app_build})
if(NOT step_output MATCHES "gpugen emit app.lua")
  message(FATAL_ERROR "install test: the first build did not run gpugen emit:\n${step_output}")
endif()

# 4. build-time generation re-runs only when the workload changes
step("rebuild examples/app" ${CMAKE_COMMAND} --build ${app_build})
if(step_output MATCHES "gpugen emit")
  message(FATAL_ERROR "install test: a no-op rebuild ran gpugen emit again:\n${step_output}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1) # coarse file times on some file systems
file(TOUCH ${WORK_DIR}/app_src/app.lua)
step("rebuild after touching app.lua" ${CMAKE_COMMAND} --build ${app_build})
if(NOT step_output MATCHES "gpugen emit app.lua")
  message(FATAL_ERROR "install test: changing app.lua did not re-run gpugen emit:\n${step_output}")
endif()

# 5. run it: 0 = every frame matched on a GPU; 77 = no GPU, said plainly
execute_process(COMMAND ${app_build}/app --frames 200
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 77)
  if(NOT out MATCHES "^no GPU: [^\n]+")
    message(FATAL_ERROR "install test: exit 77 without a 'no GPU: <reason>' line")
  endif()
  message("install test: passed (app built and ran; no GPU here, so no frames)")
elseif(rc EQUAL 0)
  if(NOT out MATCHES "every result matches the CPU reference")
    message(FATAL_ERROR "install test: exit 0 but no 'every result matches' line")
  endif()
  message("install test: passed (200 frames on the GPU, all checked)")
else()
  message(FATAL_ERROR "install test: app exited with ${rc}")
endif()
