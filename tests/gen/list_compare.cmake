# cmake -DGPUGEN=... -DLUA=file.lua -DWANT=file.txt|file.err [-DEXPLAIN=NAME] [-DUPDATE=1]
#       -P list_compare.cmake
# `gpugen list LUA` (or `gpugen explain LUA NAME`) must give exactly WANT: a .txt file is the listing
# (exit 0, nothing on stderr), a .err file the error message (exit 1,
# nothing on stdout).  Run from the folder the paths in WANT are relative
# to.  UPDATE=1 writes WANT from the output instead (review the diff).
if(EXPLAIN)
  set(cmd explain ${LUA} ${EXPLAIN})
else()
  set(cmd list ${LUA})
endif()
execute_process(COMMAND ${GPUGEN} ${cmd}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(WANT MATCHES "\\.err$")
  set(want_rc 1)
  set(got "${err}")
  set(other "${out}")
else()
  set(want_rc 0)
  set(got "${out}")
  set(other "${err}")
endif()
if(UPDATE)
  file(WRITE ${WANT} "${got}")
  return()
endif()
if(NOT EXISTS ${WANT})
  message(FATAL_ERROR "no expected listing ${WANT}: write it with -DUPDATE=1 and review it\n${out}${err}")
endif()
file(READ ${WANT} want)
if(NOT rc STREQUAL "${want_rc}")
  message(FATAL_ERROR "gpugen ${cmd}: exit ${rc}, want ${want_rc}\n${out}${err}")
endif()
if(NOT got STREQUAL want)
  message(FATAL_ERROR "gpugen ${cmd} differs from ${WANT}\n--- want\n${want}--- got\n${got}")
endif()
if(NOT other STREQUAL "")
  message(FATAL_ERROR "gpugen ${cmd}: unexpected output\n${other}")
endif()
