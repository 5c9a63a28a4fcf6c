# Numbers in a body's directives, as NVRTC and clang read them: each line
# below goes into a kernel body, and `gpugen list` must refuse it with the
# given words, or take it ("ok").  What the loader takes must then compile
# with both compilers (`gpugen check`), where they are present: the
# loader never takes what they would reject.  (@ stands for ; in the
# lines, which a CMake list would split.)
#   cmake -DGPUGEN=... -DTMP=dir -P directive_numbers.cmake
set(cases
  "#line 1|ok"
  "#line 2147483647|ok"
  "#line 12 \"f.cu\"|ok"
  "#line 7 /* c */ // c|ok"
  "%:line 7|ok"
  "# 12|ok"
  "#line 0|#line takes a line number of decimal digits from 1 to 2147483647"
  "#line 2147483648|#line takes a line number"
  "#line 4294967296|#line takes a line number"
  "#line 99999999999999999999|#line takes a line number"
  "#line 08|#line takes a line number"
  "#line 010|#line takes a line number"
  "#line 0x10|#line takes a line number"
  "#line 1'000|#line takes a line number"
  "#line 10u|#line takes a line number"
  "#line -1|#line takes a line number"
  "#line|#line takes a line number"
  "#line 10 \"a\" \"b\"|#line takes a line number"
  "#line 10 L\"x\"|#line takes a line number"
  "# 0|#line takes a line number"
  "# 10 \"f\" 3|#line takes a line number"
  "#define L 5\n#line L|'#line L' in the body: #line takes"
  "#if 18446744073709551615\n#endif|ok"
  "#if 0x10 + 0b101 + 017 + 10u + 10ul + 1LL + 1uLL + 'a'\n#endif|ok"
  "#if 18446744073709551616\n#endif|the number 18446744073709551616 in #if in the body: it is too large"
  "#if 0xFFFFFFFFFFFFFFFFF\n#endif|too large for any integer type"
  "#if 08\n#endif|the number 08 in #if in the body: a number with a leading 0 is octal"
  "#if 1.0\n#endif|a floating number is no integer"
  "#if 1e3\n#endif|a floating number is no integer"
  "#if 0x\n#endif|a 0x or 0b with no digits"
  "#if 10z\n#endif|a suffix other than u, l, ll"
  "#if 1lL\n#endif|a suffix other than u, l, ll"
  "#if 1'000\n#endif|a digit separator"
  "#if X\n#elif 09\n#endif|the number 09 in #elif"
  "#if 0\n#if 99999999999999999999\n#endif\n#endif|ok"
  "#pragma unroll 4\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|ok"
  "#pragma unroll (0x10)\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|ok"
  "#define N 4\n#pragma unroll N\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|ok"
  "#pragma clang loop unroll_count(16)\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|ok"
  "#pragma unroll 0\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|the number 0 in #pragma unroll in the body: clang takes an unroll count from 1 to 2147483647"
  "#pragma unroll 2147483648\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|clang takes an unroll count"
  "#pragma GCC unroll 08\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|in #pragma GCC unroll in the body: a number with a leading 0"
  "#pragma clang loop unroll_count(0)\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|clang takes an unroll count"
  "#pragma unroll -1\nfor (int j = 0@ j < 4@ j++) y(i) += 1@|'-' in #pragma unroll in the body: an unroll count is one integer"
)

function(workload path body)
  string(REPLACE "\\n" "\n" body "${body}")
  string(ASCII 59 semicolon)
  string(REPLACE "@" "${semicolon}" body "${body}")
  file(WRITE ${path} "kernel \"k\" {\n  pattern = \"for\", range = { \"n\" },\n"
                     "  params = { { \"y\", \"f32[n]\", access = \"inout\" } },\n"
                     "  body = [[\n${body}\ny(i) = 1;\n]],\n}\n")
endfunction()

# Whether both compilers are here: a plain body compiles.
workload(${TMP}/dn.lua "")
execute_process(COMMAND ${GPUGEN} check ${TMP}/dn.lua --arch sm_90,gfx90a RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_QUIET)
set(compile ${rc})
if(NOT compile EQUAL 0)
  message(STATUS "NVRTC or hiprtc is missing: the accepted lines are not compiled")
endif()

foreach(case IN LISTS cases)
  string(FIND "${case}" "|" bar REVERSE)
  string(SUBSTRING "${case}" 0 ${bar} body)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${case}" ${bar} -1 want)
  workload(${TMP}/dn.lua "${body}")
  execute_process(COMMAND ${GPUGEN} list ${TMP}/dn.lua RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(want STREQUAL "ok")
    if(NOT rc EQUAL 0)
      message(SEND_ERROR "'${body}': refused, want it taken\n${err}")
    elseif(compile EQUAL 0)
      execute_process(COMMAND ${GPUGEN} check ${TMP}/dn.lua --arch sm_90,gfx90a RESULT_VARIABLE rc
                      OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        message(SEND_ERROR "'${body}': taken by the loader, but a compiler rejects it\n${out}${err}")
      endif()
    endif()
  else()
    string(FIND "${err}" "${want}" at)
    if(NOT rc EQUAL 1 OR at EQUAL -1 OR NOT err MATCHES "^[^\n]*dn.lua:[0-9]+: kernel \"k\": ")
      message(SEND_ERROR "'${body}': exit ${rc}, want 1 and a message at its line holding '${want}'\n${err}")
    endif()
  endif()
endforeach()
