# Finds LLVM/MLIR 22 and libonnx and sets up the out-of-tree MLIR recipe
# (upstream mlir/examples/standalone). Included only when the compiler is built.

if(NOT MLIR_DIR AND EXISTS /usr/lib/llvm-22/lib/cmake/mlir)
  set(MLIR_DIR /usr/lib/llvm-22/lib/cmake/mlir)
endif()
# The version file compares major.minor, so ask for 22.1 exactly.
find_package(MLIR 22.1 REQUIRED CONFIG)
message(STATUS "Using MLIRConfig.cmake in: ${MLIR_DIR}")
message(STATUS "Using LLVMConfig.cmake in: ${LLVM_DIR}")

set(LLVM_RUNTIME_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/bin)
set(LLVM_LIBRARY_OUTPUT_INTDIR ${CMAKE_BINARY_DIR}/lib)
set(MLIR_BINARY_DIR ${CMAKE_BINARY_DIR})

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
# Link the one shared libMLIR: links take seconds and tools stay small.
set(MLIR_LINK_MLIR_DYLIB ON CACHE BOOL "Link against the shared libMLIR" FORCE)

include(TableGen)
include(AddLLVM)
include(AddMLIR)
include(HandleLLVMOptions)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
include_directories(${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
separate_arguments(LLVM_DEFINITIONS_LIST NATIVE_COMMAND ${LLVM_DEFINITIONS})
add_definitions(${LLVM_DEFINITIONS_LIST})

# Tablegen include path: every .td includes from the repository root.
set(MLIR_TABLEGEN_FLAGS "${MLIR_TABLEGEN_FLAGS}" -I "${PROJECT_SOURCE_DIR}")

find_package(Protobuf REQUIRED)
find_package(ONNX REQUIRED)
find_package(fmt REQUIRED)

# infer_add_library(name SOURCES... [DEPENDS tablegen targets] [LINK libs] [EXCEPTIONS])
# A static library of the compiler, linked against the shared libMLIR.
function(infer_add_library name)
  cmake_parse_arguments(ARG "EXCEPTIONS" "" "DEPENDS;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK} MLIR LLVM)
  if(ARG_EXCEPTIONS)
    # HandleLLVMOptions adds -fno-exceptions; the ONNX loader and checker throw.
    target_compile_options(${name} PRIVATE -fexceptions)
  endif()
endfunction()
