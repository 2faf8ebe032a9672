# infer_add_model(): compile an ONNX model at build time and use it as a
# library target.
#
#   find_package(Infer CONFIG REQUIRED)
#   infer_add_model(resnet MODEL resnet18.onnx TARGET cpu
#                   SHAPE input=1x3x224x224)
#   add_executable(app main.c)
#   target_link_libraries(app PRIVATE resnet)   # resnet.h, resnet.o
#
# Keywords (all but MODEL optional):
#   MODEL file          the .onnx or .onnxtxt model (relative paths from
#                       the current source folder)
#   TARGET cpu|cuda|hls where it runs (default cpu)
#   NAME symbol         symbol prefix: NAME_main, NAME_model, NAME.h
#                       (default: the target's name, which must then be a
#                       C identifier)
#   SHAPE in=1x3x8x8... --shape, one per input to fix
#   SHAPE_PROFILE in=MIN:OPT:MAX...
#                       --shape-profile: keep dims dynamic within a range
#   BATCH n             --batch: every dynamic leading dim set to n
#   BIND in=value...    --bind: an input fixed at compile time
#   TARGET_CPU cpu      --target-cpu (default native: the build machine)
#   QUANTIZE int8       --quantize, with CALIBRATION dir (--calibration;
#   CALIBRATION dir     its files are dependencies). Needs an infer-compile
#                       that quantizes: refused at configure time otherwise
#   OPTIONS flags...    any other infer-compile flags, as written on its
#                       command line (--profile, --parallel=openmp, ...)
#   DEPENDS files...    other files the model reads (external weights)
#   OUTPUT_DIR dir      where the artifacts go (default
#                       ${CMAKE_CURRENT_BINARY_DIR}/<target>.infer)
#
# TARGET cpu and cuda make a static library target holding the model's
# object; it carries the generated header's folder, libm, and for cuda
# the runtime (Infer::runtime, which has the CUDA backend) as usage
# requirements. TARGET hls makes a custom target that writes the HLS
# project folder. Every target has the properties INFER_MODEL_DIR (the
# artifacts' folder) and INFER_MODEL_NAME (the symbol prefix).
#
# infer-compile runs again when the model, a DEPENDS file, the arguments
# or infer-compile itself change, and only then; its messages appear in
# the build log and an error fails the build.

# Whether Infer::infer-compile takes `flag` (its --help-hidden lists it);
# asked once per configure.
function(_infer_compile_has_flag flag out)
  get_property(help GLOBAL PROPERTY _INFER_COMPILE_HELP)
  if(NOT help)
    get_target_property(compiler Infer::infer-compile IMPORTED_LOCATION)
    execute_process(COMMAND "${compiler}" --help-hidden
                    OUTPUT_VARIABLE help ERROR_QUIET)
    set_property(GLOBAL PROPERTY _INFER_COMPILE_HELP "${help}")
  endif()
  string(FIND "${help}" "${flag}" at)
  if(at EQUAL -1)
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(infer_add_model target)
  set(flags)
  set(one MODEL TARGET NAME BATCH TARGET_CPU OUTPUT_DIR QUANTIZE CALIBRATION)
  set(multi SHAPE SHAPE_PROFILE BIND OPTIONS DEPENDS)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "${flags}" "${one}" "${multi}")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "infer_add_model(${target}): unknown arguments "
      "'${ARG_UNPARSED_ARGUMENTS}'; it takes MODEL, TARGET, NAME, SHAPE, "
      "SHAPE_PROFILE, BATCH, BIND, TARGET_CPU, QUANTIZE, CALIBRATION, "
      "OPTIONS, DEPENDS, OUTPUT_DIR")
  endif()
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "infer_add_model(${target}): MODEL is required "
      "(the .onnx or .onnxtxt file)")
  endif()
  if(NOT TARGET Infer::infer-compile)
    message(FATAL_ERROR "infer_add_model(${target}): this Infer package has "
      "no infer-compile (built with INFER_BUILD_COMPILER=OFF)")
  endif()
  if(TARGET ${target})
    message(FATAL_ERROR "infer_add_model(${target}): a target called "
      "'${target}' exists already")
  endif()
  if(NOT ARG_TARGET)
    set(ARG_TARGET cpu)
  endif()
  if(NOT ARG_TARGET MATCHES "^(cpu|cuda|hls)$")
    message(FATAL_ERROR "infer_add_model(${target}): TARGET must be cpu, "
      "cuda or hls, not '${ARG_TARGET}'")
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME ${target})
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "infer_add_model(${target}): the symbol prefix "
      "'${ARG_NAME}' is not a C identifier; give one with NAME")
  endif()

  get_filename_component(model "${ARG_MODEL}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${model}")
    message(FATAL_ERROR "infer_add_model(${target}): MODEL '${model}' "
      "does not exist")
  endif()
  set(depends)
  foreach(dep IN LISTS ARG_DEPENDS)
    get_filename_component(dep "${dep}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND depends "${dep}")
  endforeach()
  if(ARG_OUTPUT_DIR)
    get_filename_component(out "${ARG_OUTPUT_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.infer")
  endif()

  set(args "${model}" --target=${ARG_TARGET} --name=${ARG_NAME} -o "${out}")
  foreach(shape IN LISTS ARG_SHAPE)
    list(APPEND args --shape=${shape})
  endforeach()
  foreach(profile IN LISTS ARG_SHAPE_PROFILE)
    list(APPEND args --shape-profile=${profile})
  endforeach()
  foreach(bind IN LISTS ARG_BIND)
    list(APPEND args --bind=${bind})
  endforeach()
  if(DEFINED ARG_BATCH)
    list(APPEND args --batch=${ARG_BATCH})
  endif()
  if(ARG_TARGET_CPU)
    list(APPEND args --target-cpu=${ARG_TARGET_CPU})
  endif()
  if(ARG_QUANTIZE OR ARG_CALIBRATION)
    _infer_compile_has_flag(--quantize quantizes)
    if(NOT quantizes)
      message(FATAL_ERROR "infer_add_model(${target}): QUANTIZE needs an "
        "infer-compile with --quantize, and this one (${Infer_VERSION}) has "
        "none; quantize the model beforehand (for example with "
        "onnxruntime.quantization.quantize_static) and give the quantized "
        "model: infer compiles QDQ and QLinear models")
    endif()
    if(NOT ARG_QUANTIZE OR NOT ARG_CALIBRATION)
      message(FATAL_ERROR "infer_add_model(${target}): QUANTIZE and "
        "CALIBRATION go together")
    endif()
    get_filename_component(calibration "${ARG_CALIBRATION}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(GLOB_RECURSE calibration_files CONFIGURE_DEPENDS
         "${calibration}/*")
    list(APPEND depends ${calibration_files})
    list(APPEND args --quantize=${ARG_QUANTIZE}
                     --calibration=${calibration})
  endif()
  list(APPEND args ${ARG_OPTIONS})

  # The arguments as a file the command depends on: rewritten (and so
  # newer) only when they change.
  string(REPLACE ";" "\n" args_text "${args}")
  file(CONFIGURE OUTPUT "${out}.args" CONTENT "${args_text}\n" @ONLY)

  string(JOIN " " options_text ${ARG_OPTIONS})
  set(n ${ARG_NAME})
  if(ARG_TARGET STREQUAL "hls")
    set(outputs "${out}/${n}.cpp" "${out}/${n}.h" "${out}/${n}_weights.h"
                "${out}/${n}_tb.cpp" "${out}/run_hls.tcl" "${out}/report.json")
  else()
    set(outputs "${out}/${n}.o" "${out}/${n}.h" "${out}/${n}.so")
  endif()
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND Infer::infer-compile ${args}
    DEPENDS "${model}" ${depends} "${out}.args"
            "$<TARGET_FILE:Infer::infer-compile>"
    COMMENT "infer-compile ${target}: ${ARG_MODEL} (${ARG_TARGET})"
    VERBATIM)

  if(ARG_TARGET STREQUAL "hls")
    add_custom_target(${target} ALL DEPENDS ${outputs})
  else()
    set_source_files_properties("${out}/${n}.o" PROPERTIES
      EXTERNAL_OBJECT TRUE GENERATED TRUE)
    add_library(${target} STATIC "${out}/${n}.o" "${out}/${n}.h")
    set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
    target_include_directories(${target} INTERFACE "${out}")
    # The object calls libm (the math it does not inline).
    target_link_libraries(${target} INTERFACE m)
    if(ARG_TARGET STREQUAL "cuda")
      target_link_libraries(${target} INTERFACE Infer::runtime)
    elseif(options_text MATCHES "--parallel[= ]openmp")
      if(NOT INFER_OPENMP_LIBRARY)
        message(FATAL_ERROR "infer_add_model(${target}): --parallel=openmp "
          "needs LLVM's libomp, which this Infer package did not find")
      endif()
      target_link_libraries(${target} INTERFACE "${INFER_OPENMP_LIBRARY}")
    endif()
  endif()
  set_target_properties(${target} PROPERTIES
    INFER_MODEL_DIR "${out}" INFER_MODEL_NAME "${n}")
endfunction()
