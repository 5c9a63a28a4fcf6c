# The command line: each call and the exit status it must give
# (0 done, 1 workload error, 2 usage error), and a word its output must hold.
function(expect code want)
  execute_process(COMMAND ${GPUGEN} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${code}")
    message(SEND_ERROR "gpugen ${ARGN}: exit ${rc}, want ${code}\n${out}${err}")
  elseif(NOT "${out}${err}" MATCHES "${want}")
    message(SEND_ERROR "gpugen ${ARGN}: output lacks '${want}':\n${out}${err}")
  endif()
endfunction()

expect(2 "usage:")
expect(0 "usage:" --help)
expect(0 "^gpugen [0-9]" --version)
expect(2 "unknown command 'frobnicate'" frobnicate x.lua)
expect(0 "usage: gpugen emit" emit --help)
expect(0 "usage: gpugen explain" explain --help)
expect(2 "missing -o DIR" emit ${EXAMPLES}/saxpy.lua)
expect(2 "missing FILE.lua" list)
expect(2 "missing NAME" explain ${EXAMPLES}/saxpy.lua)
expect(2 "option --arch given twice" check ${EXAMPLES}/saxpy.lua --arch sm_90 --arch gfx90a)
expect(2 "option --out given twice" emit ${EXAMPLES}/saxpy.lua -o ${TMP}/a --out ${TMP}/b)
expect(2 "unknown option --fast" list ${EXAMPLES}/saxpy.lua --fast)
expect(2 "option --arch does not apply" list ${EXAMPLES}/saxpy.lua --arch sm_80)
expect(2 "option -o needs a value" emit ${EXAMPLES}/saxpy.lua -o)
expect(2 "unexpected argument extra" list ${EXAMPLES}/saxpy.lua extra)
expect(1 "no-such-file.lua: cannot open" list no-such-file.lua)
# only a regular file: a FIFO would block the read before any time limit
expect(1 "not a regular file \\(a folder\\)" list ${TMP})
find_program(MKFIFO mkfifo)
if(MKFIFO)
  file(REMOVE ${TMP}/fifo.lua)
  execute_process(COMMAND ${MKFIFO} ${TMP}/fifo.lua)
  expect(1 "not a regular file \\(a FIFO\\)" list ${TMP}/fifo.lua)
  file(REMOVE ${TMP}/fifo.lua)
endif()
expect(0 "saxpy" list ${EXAMPLES}/saxpy.lua)
expect(0 "sum_shared_tree" list ${EXAMPLES}/strategies.lua)
expect(0 "sum1k" explain ${EXAMPLES}/sum1k.lua sum1k)
# a generated source past 32 MiB is refused at the kernel that passes it
# (a sanitizer build loads the file slower than the default 2 s allow)
expect(1 "huge_source.lua:13: kernel \"k[0-9]+\": the module's CUDA source passes 32 MiB"
       emit ${CMAKE_CURRENT_LIST_DIR}/huge_source.lua -o ${TMP}/huge_source --time-limit 60)
expect(1 "huge_persistent.lua:11: persistent \"p[0-9]+\": the module's CUDA source passes 32 MiB"
       emit ${CMAKE_CURRENT_LIST_DIR}/huge_persistent.lua -o ${TMP}/huge_persistent --time-limit 60)

# A persistent kernel of 16 commands: the generated source grows with the
# commands, not with 2 to their number (it was 2.3 MB, now about 65 KB).
if(MANY)
  set(dir ${TMP}/many_commands)
  file(REMOVE_RECURSE ${dir})
  expect(0 "" emit ${MANY} -o ${dir})
  file(SIZE ${dir}/many_commands.cu size)
  if(size GREATER 200000)
    message(SEND_ERROR "many_commands.cu is ${size} bytes for 16 commands (want < 200000)")
  endif()
endif()

# --arch: a repeated arch compiles once (10000 copies of sm_90: one line,
# one compile); unknown archs are one usage error, however many, naming
# the first three; more than 32 different archs are refused; what argv
# held is echoed escaped and clipped.
string(REPEAT "sm_90," 9999 many)
execute_process(COMMAND ${GPUGEN} check ${EXAMPLES}/saxpy.lua --arch ${many}sm_90
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "(^|\n)(ok|FAIL) +cuda sm_90 " lines "${out}")
list(LENGTH lines nlines)
if(rc EQUAL 2 OR NOT nlines EQUAL 1)
  message(SEND_ERROR "--arch with sm_90 10000 times: exit ${rc}, ${nlines} result lines (want 1)\n${out}${err}")
endif()
set(unknown "")
foreach(i RANGE 1 10000)
  string(APPEND unknown "bogus${i},")
endforeach()
execute_process(COMMAND ${GPUGEN} check ${EXAMPLES}/saxpy.lua --arch ${unknown}sm_90
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "gpugen:" said "${err}")
list(LENGTH said nsaid)
if(NOT rc EQUAL 2 OR NOT nsaid EQUAL 1 OR NOT out STREQUAL ""
   OR NOT err MATCHES "^gpugen: --arch: unknown archs 'bogus1', 'bogus2', 'bogus3' and 9997 more: give sm_NN")
  message(SEND_ERROR "10000 unknown archs: exit ${rc}, want 2 and one message\n${out}${err}")
endif()
expect(2 "--arch: unknown arch 'sm_9': give sm_NN or compute_NN" check ${EXAMPLES}/saxpy.lua --arch sm_90,sm_9)
expect(2 "--arch: unknown arch 'gfx942'" check ${EXAMPLES}/saxpy.lua --arch gfx942)
expect(2 "--arch: unknown arch ''" check ${EXAMPLES}/saxpy.lua --arch sm_90,)
set(distinct "")
foreach(i RANGE 10 42)
  string(APPEND distinct "sm_${i},")
endforeach()
expect(2 "--arch: more than 32 different archs: give at most 32" check ${EXAMPLES}/saxpy.lua --arch ${distinct}sm_90)
string(ASCII 27 esc)
string(REPEAT "x" 300 long)
expect(2 "unknown arch 'a\\\\x1b\\[31m'" check ${EXAMPLES}/saxpy.lua --arch "a${esc}[31m")
expect(2 "unknown option --x+\\.\\.\\.\nusage" list ${EXAMPLES}/saxpy.lua --${long})
expect(0 "at most 32 different ones" check --help)

# --time-limit takes a plain decimal number of seconds; other forms strtod
# would take (hex, a sign, blanks, an exponent, inf) are usage errors.
foreach(bad 0x10 " 2" +2 -1 1e1 inf nan 5. .5 2s 0 3601 99999999999999999999)
  expect(2 "--time-limit .*: give seconds of CPU time as a decimal number" list ${EXAMPLES}/saxpy.lua --time-limit "${bad}")
endforeach()
expect(0 "saxpy" list ${EXAMPLES}/saxpy.lua --time-limit 0.5)
expect(0 "saxpy" list ${EXAMPLES}/saxpy.lua --time-limit=16)
expect(0 "a decimal number more than 0 and at most 3600" --help)
