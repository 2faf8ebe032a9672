# Install rules: `cmake --install build --prefix P` gives
#   P/bin/            infer-compile, infer-opt, infer-run, infer-bench, infer-report
#   P/include/infer/  the runtime's C headers and the C++ header infer.hpp
#   P/lib/            libinfer_runtime.a, libinfer_runtime.so
#   P/lib/cmake/Infer InferConfig.cmake (+ version), InferTargets.cmake,
#                     InferAddModel.cmake (infer_add_model)
#   P/lib/pkgconfig/  infer-runtime.pc
# Every path inside is relative to P: the prefix can be moved.
include(CMakePackageConfigHelpers)

set(INFER_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Infer)

if(INFER_BUILD_RUNTIME)
  install(TARGETS infer_runtime infer_runtime_shared
          EXPORT InferTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY runtime/include/infer
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT InferTargets NAMESPACE Infer::
          DESTINATION ${INFER_CMAKE_INSTALL_DIR})
  file(RELATIVE_PATH INFER_PC_TO_PREFIX
       /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
  string(REGEX REPLACE "/$" "" INFER_PC_TO_PREFIX "${INFER_PC_TO_PREFIX}")
  configure_file(cmake/infer-runtime.pc.in
                 ${CMAKE_BINARY_DIR}/infer-runtime.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/infer-runtime.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# The tools are imported by InferConfig.cmake from P/bin, not exported:
# an executable's link needs (libMLIR, libonnx) are no concern of a
# consumer.
set(INFER_INSTALLED_TOOLS "")
foreach(tool infer-compile infer-opt infer-run infer-bench)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    list(APPEND INFER_INSTALLED_TOOLS ${tool})
  endif()
endforeach()
if(TARGET infer-bench)
  install(PROGRAMS tools/infer-report/infer-report
          DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# A model compiled with --parallel=openmp needs LLVM's libomp, the one
# infer-compile links against (a system path, not the build tree).
if(NOT DEFINED INFER_OPENMP_LIBRARY)
  set(INFER_OPENMP_LIBRARY "")
endif()

configure_package_config_file(cmake/InferConfig.cmake.in
  ${CMAKE_BINARY_DIR}/InferConfig.cmake
  INSTALL_DESTINATION ${INFER_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
# 0.x: a minor version may change the interface.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/InferConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/InferConfig.cmake
              ${CMAKE_BINARY_DIR}/InferConfigVersion.cmake
              cmake/InferAddModel.cmake
        DESTINATION ${INFER_CMAKE_INSTALL_DIR})
