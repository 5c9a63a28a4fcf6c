# install.cmake - what `cmake --install` puts in the prefix, and the CMake
# package that lets an application find_package(gpugen CONFIG) it:
#
#   bin/gpugen                              the generator
#   lib/libgg.so*, lib/libgg.a              the runtime (shared and static)
#   include/gpugen/gg*.h                    the public headers
#   share/gpugen/templates/                 the templates embedded in gpugen, as files
#                                           (a starting point for `--templates DIR`)
#   share/gpugen/plot_latency.py            latency CSV -> histogram + CDF PNG
#   share/man/man1/gpugen.1                 the man page
#   lib/cmake/gpugen/                       gpugenConfig.cmake, targets, GpugenModule.cmake
#   lib/pkgconfig/gpugen.pc                 for builds that are not CMake
#
# Included at the end of the top-level CMakeLists.txt, after the targets
# exist.  Everything here is relocatable: `cmake --install B --prefix P`
# works for any P, not only for CMAKE_INSTALL_PREFIX.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GG_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpugen)
# Headers go in a folder of their own: "gg.h" is too short a name for
# /usr/include.  The exported include path points into it, so code writes
# #include "gg.h" (as the generated modules do) either way.
set(GG_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/gpugen)

# The runtime targets name the source include/ as a plain path (fine for
# the build tree); the installed package must point into the prefix.
foreach(t gg_static gg_shared)
  set_property(TARGET ${t} PROPERTY INTERFACE_INCLUDE_DIRECTORIES
               "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>"
               "$<INSTALL_INTERFACE:${GG_INSTALL_INCLUDEDIR}>")
endforeach()
set_target_properties(gg_shared PROPERTIES EXPORT_NAME gg
                      VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
set_target_properties(gg_static PROPERTIES EXPORT_NAME gg_static)

# The same names inside this build as in the installed package, so
# gpugen_add_module() and in-tree users need not care which they get.
add_library(gpugen::gg ALIAS gg_shared)
add_library(gpugen::gg_static ALIAS gg_static)
set(_gg_targets gg_static gg_shared)
if(TARGET gpugen)
  add_executable(gpugen::gpugen ALIAS gpugen)
  list(APPEND _gg_targets gpugen)
endif()

install(TARGETS ${_gg_targets} EXPORT gpugenTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${GG_INSTALL_INCLUDEDIR})

file(GLOB _gg_headers ${PROJECT_SOURCE_DIR}/include/*.h)
install(FILES ${_gg_headers} DESTINATION ${GG_INSTALL_INCLUDEDIR})

set(GG_INSTALL_TEMPLATESDIR ${CMAKE_INSTALL_DATADIR}/gpugen/templates)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/templates/ DESTINATION ${GG_INSTALL_TEMPLATESDIR})
if(EXISTS ${PROJECT_SOURCE_DIR}/bench/plot_latency.py)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/bench/plot_latency.py
          DESTINATION ${CMAKE_INSTALL_DATADIR}/gpugen)
endif()
if(EXISTS ${PROJECT_SOURCE_DIR}/docs/gpugen.1)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/gpugen.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# ---- the CMake package ----
install(EXPORT gpugenTargets NAMESPACE gpugen:: DESTINATION ${GG_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/gpugenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpugenConfig.cmake
  INSTALL_DESTINATION ${GG_INSTALL_CMAKEDIR}
  PATH_VARS GG_INSTALL_TEMPLATESDIR GG_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/gpugenConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpugenConfig.cmake
              ${PROJECT_BINARY_DIR}/gpugenConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/GpugenModule.cmake
        DESTINATION ${GG_INSTALL_CMAKEDIR})

# ---- pkg-config ----
# prefix is computed from the .pc file's own place (${pcfiledir}), so the
# file stays right after `cmake --install --prefix elsewhere`.
file(RELATIVE_PATH GG_PC_TO_PREFIX
     /_prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /_prefix)
string(REGEX REPLACE "/$" "" GG_PC_TO_PREFIX "${GG_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/gpugen.pc.in ${PROJECT_BINARY_DIR}/gpugen.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gpugen.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- gpugen_add_module() for in-tree users (tests, examples) ----
include(${CMAKE_CURRENT_LIST_DIR}/GpugenModule.cmake)
