# cmake -DGPUGEN=... -DLUA=file.lua -DMODULE=name -P check_both.cmake
# `gpugen check --arch sm_90,gfx90a` on LUA must exit 0 and report both
# compiles as done ("ok"), not skipped.
execute_process(COMMAND ${GPUGEN} check ${LUA} --arch sm_90,gfx90a
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpugen check exited ${rc}:\n${out}${err}")
endif()
foreach(line "ok +cuda +sm_90 +${MODULE} " "ok +hip +gfx90a +${MODULE} ")
  if(NOT out MATCHES "(^|\n)${line}")
    message(FATAL_ERROR "no line matching '${line}' in:\n${out}${err}")
  endif()
endforeach()
message(STATUS "${out}")
