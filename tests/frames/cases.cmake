# tests/frames: bad frames give their exact file:line message (exit 1), and
# `gpugen explain` / `list` place the barriers as expected/*.txt say.
# -DGPUGEN=... -DMODE=bad|explain, run in tests/frames.
if(MODE STREQUAL "bad")
  file(STRINGS bad/expected.txt lines REGEX "^bad/")
  list(LENGTH lines n)
  if(n LESS 20)
    message(FATAL_ERROR "only ${n} cases in bad/expected.txt")
  endif()
  foreach(want IN LISTS lines)
    string(REGEX REPLACE ":.*" "" file "${want}")
    execute_process(COMMAND ${GPUGEN} list ${file} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    string(STRIP "${err}" err)
    if(NOT rc EQUAL 1 OR NOT err STREQUAL want)
      message(SEND_ERROR "${file}: exit ${rc}\n  want: ${want}\n  got:  ${err}")
    endif()
  endforeach()
else()
  # `gpugen explain LUA NAME` (or `gpugen list LUA` for "list") against
  # expected/PREFIXNAME.txt, for each NAME
  function(expect lua prefix)
    foreach(name IN LISTS ARGN)
      if(name STREQUAL "list")
        execute_process(COMMAND ${GPUGEN} list ${lua} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
      else()
        execute_process(COMMAND ${GPUGEN} explain ${lua} ${name} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
      endif()
      file(READ expected/${prefix}${name}.txt want)
      if(NOT rc EQUAL 0 OR NOT out STREQUAL want)
        message(SEND_ERROR "${lua} ${name}: exit ${rc}; output differs from expected/${prefix}${name}.txt:\n${out}")
      endif()
    endforeach()
  endfunction()
  expect(chains.lua "" independent hazards chain8 needs needs2 needs3 needs4 teams teams2 teams3 loop list)
  # halo.lua: stencil stages that wait only for their neighbour blocks (or
  # exchange halos in tagged words), and every way out of that proof
  expect(halo.lua halo_ h1 h2 hfar4 hmix hfar hvec hnext hrw haddr hsneak hteam hgroups hidle hnest
         hhidew hshadow hput list)
  # fuse.lua: a for stage run inside the reduction after it, and every
  # way out of that proof
  expect(fuse.lua fuse_ fused next vec2 writes range rows cols mirror pub list)
endif()
