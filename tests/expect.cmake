# cmake -DRC=STATUS -DMATCH=REGEX -P expect.cmake -- COMMAND [ARG...]
# Runs COMMAND and fails unless it exits with STATUS and its output
# (stdout, then stderr) matches REGEX.  A test with only ctest's
# PASS_REGULAR_EXPRESSION passes on matching text whatever the exit
# status, a crash after the text included; gg_expect_test
# (tests/CMakeLists.txt) runs its command through this script instead.
set(cmd)
set(seen_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(seen_dashes)
    string(REPLACE ";" "\\;" arg "${CMAKE_ARGV${i}}") # one argument, not a list
    list(APPEND cmd "${arg}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(seen_dashes TRUE)
  endif()
endforeach()
if(NOT cmd OR NOT DEFINED RC OR NOT DEFINED MATCH)
  message(FATAL_ERROR "usage: cmake -DRC=STATUS -DMATCH=REGEX -P expect.cmake -- COMMAND [ARG...]")
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
list(JOIN cmd " " shown)
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "${shown}: exit ${rc}, want ${RC}\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "${shown}: output does not match '${MATCH}':\n${out}${err}")
endif()
