//===- CompileDriver.cpp - the infer-compile command ----------------------===//

#include "compiler/driver/CompileDriver.h"
#include "compiler/InitAll.h"
#include "compiler/import/onnx/OnnxImporter.h"
#include "compiler/pipelines/Pipelines.h"
#include "passes/lowering/Passes.h"
#include "targets/cpu/CpuTarget.h"
#ifdef INFER_HAVE_HLS
#include "targets/hls/HlsTarget.h"
#endif
#ifdef INFER_HAVE_CUDA
#include "targets/cuda/CudaTarget.h"
#include "targets/common/OutputFile.h"
#endif

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/core.h>

using namespace mlir;
namespace cl = llvm::cl;

namespace infer {

namespace {

enum class Phase { Import, Graph, Linalg, LLVM, Artifact };
enum class Target { Cpu, Cuda, Hls };
enum class WeightsMode { Auto, Elide, Full };

struct DriverOptions {
  cl::OptionCategory inputCat{"Input"};
  cl::OptionCategory phaseCat{"Phases and targets"};
  cl::OptionCategory shapeCat{"Shapes"};
  cl::OptionCategory outputCat{"Output"};

  cl::opt<std::string> input{cl::Positional, cl::Required,
                             cl::desc("<model.onnx | model.onnxtxt>"),
                             cl::cat(inputCat)};
  cl::opt<bool> noChecker{
      "no-checker",
      cl::desc("Skip onnx::checker (for models the checker wrongly rejects)"),
      cl::init(false), cl::cat(inputCat)};

  cl::opt<Target> target{
      "target", cl::desc("Where the compiled model will run"),
      cl::values(clEnumValN(Target::Cpu, "cpu", "x86-64/AArch64 object + C header"),
                 clEnumValN(Target::Cuda, "cuda", "NVIDIA GPUs: PTX/cubins + host schedule"),
                 clEnumValN(Target::Hls, "hls", "FPGA: Vitis-style HLS C++ project")),
      cl::init(Target::Cpu), cl::cat(phaseCat)};
  cl::opt<Phase> compileTo{
      "compile-to",
      cl::desc("Stop after this phase and print its IR"),
      cl::values(clEnumValN(Phase::Import, "import",
                            "the model as imported: one graph op per ONNX node"),
                 clEnumValN(Phase::Graph, "graph",
                            "after graph-opt: shapes propagated and "
                            "specialized, shape subgraphs folded"),
                 clEnumValN(Phase::Linalg, "linalg",
                            "graph ops lowered to linalg/tensor/arith/math"),
                 clEnumValN(Phase::LLVM, "llvm",
                            "the target's last IR: the LLVM dialect (cpu), "
                            "loops with HLS directives as attributes (hls)"),
                 clEnumValN(Phase::Artifact, "artifact",
                            "the default: write the artifacts into the -o "
                            "directory (cpu: <name>.o/.h/.so; hls: a "
                            "project folder)")),
      cl::init(Phase::Artifact), cl::cat(phaseCat)};
  cl::opt<std::string> name{
      "name",
      cl::desc("Symbol prefix of the artifact (default: the model file's "
               "name): <name>_main, <name>_model, <name>.o"),
      cl::cat(phaseCat)};
  cl::opt<std::string> targetTriple{
      "target-triple",
      cl::desc("LLVM target triple for --target=cpu (default: this machine)"),
      cl::cat(phaseCat)};
  cl::opt<std::string> targetCpu{
      "target-cpu",
      cl::desc("CPU to tune and select instructions for: native (default), "
               "x86-64-v3, x86-64-v4, neoverse-v1, ..."),
      cl::init("native"), cl::cat(phaseCat)};
  cl::opt<std::string> parallel{
      "parallel",
      cl::desc("Threads inside one run: 'openmp' (default) splits matmuls "
               "and convolutions across the cores through LLVM's OpenMP "
               "runtime (link the object with -lomp; OMP_NUM_THREADS sets "
               "the count), 'none' gives single-threaded code with no "
               "runtime dependency"),
      cl::init("openmp"), cl::cat(phaseCat)};

  cl::OptionCategory cudaCat{"CUDA target (--target=cuda)"};
  cl::list<std::string> gpuArch{
      "gpu-arch",
      cl::desc("GPU architecture to compile for (repeatable; default "
               "sm_90, H100/H200): one PTX image and, when ptxas is found "
               "($CUDA_HOME, /usr/local/cuda or PATH), one cubin each"),
      cl::cat(cudaCat)};
  cl::opt<int64_t> gpuBlockSize{
      "gpu-block-size",
      cl::desc("Threads per block of the elementwise and reduction kernels "
               "(default 256)"),
      cl::init(256), cl::cat(cudaCat)};
  cl::opt<std::string> gpuKernels{
      "gpu-kernels",
      cl::desc("Kernel shapes: 'tuned' (default) gives large contractions "
               "(MatMul, Gemm, Conv) shared-memory tiled kernels and long "
               "reductions over few outputs one warp per output; 'simple' "
               "gives every output its own thread (to compare, or to rule "
               "the tuned kernels out)"),
      cl::init("tuned"), cl::cat(cudaCat)};
  cl::opt<std::string> emit{
      "emit",
      cl::desc("Extra files to write: 'ptx' (--target=cuda) keeps "
               "NAME.<arch>.ptx, the PTX the artifact embeds, for inspection"),
      cl::init(""), cl::cat(cudaCat)};
  cl::opt<bool> gpuEmulation{
      "gpu-emulation",
      cl::desc("Also write <name>.emu.so: the kernels built for this CPU, "
               "which test/cuda-emulator runs in place of a GPU (for tests "
               "where no GPU is available)"),
      cl::init(false), cl::cat(cudaCat)};
  cl::opt<int64_t> gpuTileMinBlocks{
      "gpu-tile-min-blocks",
      cl::desc("Tile a contraction only when its tiles give this many "
               "blocks (default 128; 1 tiles every contraction, for tests)"),
      cl::init(128), cl::Hidden, cl::cat(cudaCat)};
  cl::opt<int64_t> gpuWarpMinLength{
      "gpu-warp-min-length",
      cl::desc("Shortest reduction given a warp per output (default 32)"),
      cl::init(32), cl::Hidden, cl::cat(cudaCat)};

  cl::OptionCategory hlsCat{"HLS target (--target=hls)"};
  cl::opt<double> hlsClockNs{
      "hls-clock-ns",
      cl::desc("Clock period in ns the directives and the estimate assume "
               "(default 4: 250 MHz)"),
      cl::init(4.0), cl::cat(hlsCat)};
  cl::opt<std::string> hlsPart{
      "hls-part",
      cl::desc("FPGA part for run_hls.tcl (default xcu250-figd2104-2L-e, "
               "an Alveo U250)"),
      cl::init("xcu250-figd2104-2L-e"), cl::cat(hlsCat)};
  cl::opt<int64_t> hlsParallelism{
      "hls-parallelism",
      cl::desc("Unroll pipelined loops by up to N and partition the arrays "
               "they index, trading DSPs and LUTs for cycles (default 1)"),
      cl::init(1), cl::cat(hlsCat)};

  cl::list<std::string> shapes{
      "shape",
      cl::desc("Fix an input's shape at compile time: --shape name=1x3x224x224 "
               "(repeatable)"),
      cl::cat(shapeCat)};
  cl::opt<int64_t> batch{
      "batch",
      cl::desc("Set every dynamic leading (batch) input dimension to N"),
      cl::init(0), cl::cat(shapeCat)};
  cl::list<std::string> bindings{
      "bind",
      cl::desc("Fix an input to a compile-time value and remove it from the "
               "entry point: --bind sample_rate=16000 (a scalar), --bind "
               "mask=1,0,1 (several values); an If on it keeps one branch"),
      cl::cat(shapeCat)};
  cl::list<std::string> shapeProfiles{
      "shape-profile",
      cl::desc("Range of a dynamic input's shape for the generic variant "
               "(CPU): --shape-profile name=MIN:OPT:MAX, e.g. "
               "input=1x3x224x224:8x3x224x224:64x3x224x224 (repeatable); a "
               "run outside it is refused. Without --shape/--batch/a "
               "profile, `?` dims take any size from 1 up"),
      cl::cat(shapeCat)};

  cl::opt<std::string> output{
      "o",
      cl::desc("Output: a directory for artifacts (created if missing), a "
               "file for IR ('-' for standard output)"),
      cl::value_desc("file"), cl::init("-"), cl::cat(outputCat)};
  cl::opt<WeightsMode> weights{
      "weights",
      cl::desc("How weight blobs appear in printed IR"),
      cl::values(clEnumValN(WeightsMode::Auto, "auto",
                            "elided on standard output, in full in files"),
                 clEnumValN(WeightsMode::Elide, "elide",
                            "always elided (the IR cannot be read back)"),
                 clEnumValN(WeightsMode::Full, "full", "always in full")),
      cl::init(WeightsMode::Auto), cl::cat(outputCat)};
};

constexpr const char *kOverview = R"(infer-compile: the infer ahead-of-time compiler for ONNX models

  infer-compile model.onnx --shape input=1x3x224x224 -o out --name resnet
      compile for this CPU: out/resnet.o, out/resnet.h, out/resnet.so
  infer-compile model.onnx --target=hls -o out --name m
      an HLS C++ project: out/m.cpp, m.h, m_weights.h, m_tb.cpp (C
      simulation: g++ -std=c++17 m.cpp m_tb.cpp && ./a.out DATA_DIR),
      run_hls.tcl and report.json (estimated latency and resources)
  infer-compile model.onnx --target=cuda --gpu-arch sm_90 --gpu-arch sm_80 -o out
      NVIDIA GPUs: out/NAME.o, NAME.h, NAME.so (kernels, weights and launches;
      infer-run out/NAME.so runs them through the CUDA driver), plus
      NAME.sm_90.ptx (and .cubin when ptxas is found) per architecture and
      NAME.schedule.json
  infer-compile model.onnx --compile-to=graph
      import the model and print its graph-level IR

Phases (--compile-to): import -> graph -> linalg -> llvm -> artifact. Each
phase is also a pass pipeline that infer-opt runs on its own (e.g.
infer-opt --graph-opt model.mlir, --infer-lower-graph-to-linalg,
--cpu-codegen, --hls-codegen, --cuda-codegen).
)";

/// The default artifact name: the model file's stem as a C identifier.
std::string defaultName(llvm::StringRef path) {
  std::string stem = llvm::sys::path::stem(path).str();
  std::string name;
  for (char c : stem) {
    name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  }
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    name = "model_" + name;
  }
  return name;
}

bool isIdentifier(llvm::StringRef name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return false;
  }
  return llvm::all_of(name, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

/// Set once an error has been printed: a failure without one is reported as
/// an internal error, so a user never sees a bare non-zero exit.
bool errorPrinted = false;

/// `text` with control bytes escaped (`\0A`), except the newlines of
/// `keepNewlines` text, so a hostile name cannot forge or split a line.
std::string escapeControl(llvm::StringRef text, bool keepNewlines) {
  std::string out;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && !(keepNewlines && c == '\n')) || byte == 0x7f) {
      out += llvm::formatv("\\{0:X-2}", static_cast<unsigned>(byte)).str();
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// Prints one diagnostic, naming the ONNX node its location carries
/// (`loc("<node>"("<op type>"))`, as the importer builds them).
void printDiagnostic(const Diagnostic &diag, llvm::StringRef inputPath) {
  const char *severity = "error";
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Warning: severity = "warning"; break;
  case DiagnosticSeverity::Note: severity = "note"; break;
  case DiagnosticSeverity::Remark: severity = "remark"; break;
  case DiagnosticSeverity::Error: errorPrinted = true; break;
  }
  std::string where;
  Location loc = diag.getLocation();
  if (auto fused = dyn_cast<FusedLoc>(loc); fused && !fused.getLocations().empty()) {
    loc = fused.getLocations().front();
  }
  if (auto name = dyn_cast<NameLoc>(loc)) {
    where = "node '" + escapeControl(name.getName(), false) + "'";
    if (auto opType = dyn_cast<NameLoc>(name.getChildLoc())) {
      where += " (" + escapeControl(opType.getName(), false) + ")";
    }
  }
  std::string file = inputPath.str();
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    file = fileLoc.getFilename().str();
  }
  std::string message = escapeControl(diag.str(), /*keepNewlines=*/true);
  if (message.empty()) {
    message = "internal error: a check failed without saying why (please "
              "report this model)";
  }
  fmt::print(stderr, "{}: {}: {}{}\n", escapeControl(file, false), severity,
             where.empty() ? "" : where + ": ", message);
}

/// Whether `a` and `b` are the same file: the same path after symlinks, or
/// hard links to one inode.
bool samePath(llvm::StringRef a, llvm::StringRef b) {
  bool result = false;
  return !llvm::sys::fs::equivalent(a, b, result) && result;
}

} // namespace

static int compile(int argc, char **argv);

int runCompileDriver(int argc, char **argv) {
  int status = compile(argc, argv);
  if (status != 0 && !errorPrinted) {
    fmt::print(stderr, "infer-compile: internal error: the compile failed "
                       "without a diagnostic (please report this model)\n");
  }
  return status;
}

static int compile(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DriverOptions options;
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions({&options.inputCat, &options.phaseCat,
                            &options.shapeCat, &options.cudaCat,
                            &options.hlsCat,
                            &options.outputCat});
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs())) {
    errorPrinted = true; // the parser printed what is wrong
    return 1;
  }
  auto fail = [](const std::string &message) {
    errorPrinted = true;
    fmt::print(stderr, "infer-compile: error: {}\n", message);
    return 1;
  };
  if (options.output != "-" && samePath(options.output, options.input)) {
    return fail("the output file '" + options.output +
                "' is the input model; refusing to overwrite it");
  }
  bool isCuda = options.target == Target::Cuda;
  if (!options.emit.empty() && options.emit != "ptx") {
    return fail("--emit expects 'ptx', got '" + options.emit + "'");
  }
  if (options.emit == "ptx" && !isCuda) {
    return fail("--emit=ptx applies to --target=cuda (this compile targets " +
                std::string(options.target == Target::Hls ? "hls" : "cpu") +
                ")");
  }
#ifdef INFER_HAVE_CUDA
  cuda::CudaOptions cudaOptions;
  if (!options.gpuArch.empty()) {
    cudaOptions.chips.assign(options.gpuArch.begin(), options.gpuArch.end());
  }
  for (const std::string &chip : cudaOptions.chips) {
    if (!llvm::StringRef(chip).starts_with("sm_")) {
      return fail("--gpu-arch expects an NVIDIA architecture such as sm_90 "
                  "or sm_80, got '" + chip + "'");
    }
  }
  cudaOptions.blockSize = options.gpuBlockSize;
  if (options.gpuKernels != "tuned" && options.gpuKernels != "simple") {
    return fail("--gpu-kernels expects 'tuned' or 'simple', got '" +
                options.gpuKernels + "'");
  }
  cudaOptions.tunedKernels = options.gpuKernels == "tuned";
  cudaOptions.emitPtx = options.emit == "ptx";
  cudaOptions.tileMinBlocks = options.gpuTileMinBlocks;
  cudaOptions.warpMinLength = options.gpuWarpMinLength;
  if (cudaOptions.blockSize < 1 || cudaOptions.blockSize > 1024) {
    return fail("--gpu-block-size must be between 1 and 1024");
  }
#else
  if (isCuda && options.compileTo > Phase::Graph) {
    return fail("target 'cuda' is not part of this build (configured with "
                "INFER_BUILD_CUDA=OFF)");
  }
#endif
  if (options.hlsClockNs <= 0 || options.hlsParallelism < 1) {
    return fail("--hls-clock-ns must be positive and --hls-parallelism at "
                "least 1");
  }
  bool isHls = options.target == Target::Hls;
#ifdef INFER_HAVE_HLS
  hls::HlsOptions hlsOptions;
  hlsOptions.clockNs = options.hlsClockNs;
  hlsOptions.part = options.hlsPart;
  hlsOptions.parallelism = options.hlsParallelism;
#else
  if (isHls && options.compileTo > Phase::Graph) {
    return fail("target 'hls' is not part of this build (configured with "
                "INFER_BUILD_HLS=OFF)");
  }
#endif
  if (options.batch < 0) {
    return fail("--batch must be positive");
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors name the ONNX node; a dump of the failing op is noise to users.
  context.printOpOnDiagnostic(false);
  // Diagnostics read "model.onnx: error: node 'conv1' (Conv): message".
  context.getDiagEngine().registerHandler([&](Diagnostic &diag) {
    printDiagnostic(diag, options.input);
    for (const Diagnostic &note : diag.getNotes()) {
      printDiagnostic(note, options.input);
    }
    return success();
  });

  OnnxImportOptions importOptions;
  importOptions.runChecker = !options.noChecker;
  OwningOpRef<ModuleOp> module =
      importOnnxModel(context, options.input, importOptions);
  if (!module) {
    return 1;
  }

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm))) {
    return 1;
  }
  auto timing = std::make_unique<DefaultTimingManager>();
  applyDefaultTimingManagerCLOptions(*timing);
  if (timing->isEnabled()) {
    pm.enableTiming(std::move(timing));
  }
  if (options.compileTo >= Phase::Graph) {
    GraphOptOptions graphOptions;
    graphOptions.shapes = llvm::to_vector(options.shapes);
    graphOptions.batch = options.batch;
    graphOptions.bindings = llvm::to_vector(options.bindings);
    buildGraphOptPipeline(pm, graphOptions);
    if (failed(pm.run(*module))) {
      return 1;
    }
  } else if (!options.shapes.empty() || options.batch > 0 || !options.bindings.empty()) {
    return fail("--shape, --batch and --bind apply in the graph phase; use "
                "--compile-to=graph or later");
  }

  if (options.parallel != "openmp" && options.parallel != "none") {
    return fail("--parallel must be 'openmp' or 'none', got '" +
                options.parallel + "'");
  }
  cpu::ModelSignature signature;
  if (options.compileTo >= Phase::Linalg) {
    signature.name = options.name.empty() ? defaultName(options.input)
                                          : options.name.getValue();
    if (!isIdentifier(signature.name)) {
      return fail("--name '" + signature.name +
                  "' is not a C identifier (letters, digits, '_')");
    }
    // The CPU target compiles `?` dims to a generic variant; HLS and CUDA
    // need them fixed.
    if (failed(targets::readSignature(*module, "main", signature,
                                  isHls ? "HLS" : isCuda ? "CUDA" : "CPU",
                                  /*allowDynamic=*/!isHls && !isCuda)) ||
        failed(targets::applyShapeProfiles(*module, llvm::to_vector(options.shapeProfiles),
                                       signature))) {
      return 1;
    }
    auto fn = module->lookupSymbol<func::FuncOp>("main");
    // The HLS top function is the model's name; CPU entry points are
    // <name>_main beside the <name>_model descriptor.
    fn.setName(isHls ? signature.name : signature.name + "_main");
    fn.setAllArgAttrs(ArrayRef<DictionaryAttr>{});
    fn.setAllResultAttrs(ArrayRef<DictionaryAttr>{});
    for (StringRef attr : {"graph.model_name", "graph.opset"}) {
      (*module)->removeAttr(attr);
    }
    PassManager lower(&context);
    if (failed(applyPassManagerCLOptions(lower))) {
      return 1;
    }
    // Run-time checks become the run's status on the CPU and on CUDA (a
    // device word the runtime reads back); the HLS artifact has no way to
    // report them yet.
    lowering::LowerGraphToLinalgPassOptions lowerOptions;
    lowerOptions.checks = !isHls;
    lower.addPass(lowering::createLowerGraphToLinalgPass(lowerOptions));
    if (options.compileTo >= Phase::LLVM && isHls) {
#ifdef INFER_HAVE_HLS
      hls::buildHlsCodegenPipeline(lower, hlsOptions, signature.name);
#endif
    } else if (options.compileTo >= Phase::LLVM && isCuda) {
#ifdef INFER_HAVE_CUDA
      if (options.gpuEmulation && options.compileTo == Phase::Artifact &&
          options.output != "-") {
        std::string dir = options.output.getValue();
        if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
          return fail("cannot create the output directory '" + dir +
                      "': " + ec.message());
        }
        cudaOptions.emulationLibrary = dir + "/" + signature.name + ".emu.so";
      }
      cuda::buildCudaCodegenPipeline(lower, cudaOptions, signature.name);
#endif
    } else if (options.compileTo >= Phase::LLVM) {
      cpu::CpuOptions target;
      target.targetTriple = options.targetTriple;
      target.targetCpu = options.targetCpu;
      cpu::CodegenOptions codegen;
      codegen.vectorBits = cpu::vectorBits(target);
      codegen.openmp = options.parallel == "openmp";
      codegen.dynamicShapes = signature.dynamic;
      cpu::buildCpuCodegenPipeline(lower, codegen);
    }
    if (failed(lower.run(*module))) {
      return 1;
    }
  }

  if (options.compileTo == Phase::Artifact) {
    if (options.output == "-") {
      return fail("-o DIR is required to write the artifacts (or pass "
                  "--compile-to=graph|linalg|llvm to print IR)");
    }
    std::string dir = options.output.getValue();
    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      return fail("cannot create the output directory '" + dir +
                  "': " + ec.message());
    }
#ifdef INFER_HAVE_CUDA
    if (isCuda) {
      return failed(cuda::emitKernels(*module, signature, cudaOptions, dir,
                                      llvm::sys::path::filename(options.input)))
                 ? 1
                 : 0;
    }
#endif
#ifdef INFER_HAVE_HLS
    if (isHls) {
      return failed(hls::emitProject(*module, signature, hlsOptions, dir,
                                     llvm::sys::path::filename(options.input),
                                     &llvm::outs()))
                 ? 1
                 : 0;
    }
#endif
    cpu::CpuOptions cpuOptions;
    cpuOptions.targetTriple = options.targetTriple;
    cpuOptions.targetCpu = options.targetCpu;
    if (failed(cpu::emitArtifacts(*module, signature, cpuOptions, dir,
                                  llvm::sys::path::filename(options.input)))) {
      return 1;
    }
    return 0;
  }

  bool toStdout = options.output == "-";
  OpPrintingFlags flags;
  if (options.weights == WeightsMode::Elide ||
      (options.weights == WeightsMode::Auto && toStdout)) {
    flags.elideLargeResourceString(64);
  }
  // A new file replaces the output path: a symlink or a hard link there
  // (even one to the input model) is replaced, never written through.
  if (llvm::Error error =
          writeOutputFile(options.output, [&](llvm::raw_ostream &os) {
            module->print(os, flags);
            return llvm::Error::success();
          })) {
    return fail("cannot write '" + options.output.getValue() +
                "': " + llvm::toString(std::move(error)));
  }
  return 0;
}

} // namespace infer
