//===- CompileDriver.cpp - the infer-compile command ----------------------===//

#include "compiler/driver/CompileDriver.h"
#include "compiler/InitAll.h"
#include "compiler/driver/Overview.h"
#include "compiler/driver/PassPlugins.h"
#include "compiler/driver/TargetFlags.h"
#include "compiler/import/onnx/OnnxImporter.h"
#include "compiler/pipelines/Pipelines.h"
#include "compiler/quantize/Bf16.h"
#include "compiler/quantize/Quantizer.h"
#include "targets/common/OutputFile.h"
#include "targets/common/Passes.h"
#include "targets/common/Target.h"

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

enum class Phase { Import, Graph, Linalg, Fuse, LLVM, Artifact };
enum class WeightsMode { Auto, Elide, Full };

/// `--target`'s help: every registered target.
std::string describeTargets() {
  std::string text = "Where the compiled model will run:";
  for (targets::Target *target : targets::getRegisteredTargets()) {
    text += " " + target->getName().str() + " (" +
            target->getDescription().str() + ")";
  }
  return text + "; each target's options are listed at the end";
}

struct DriverOptions {
  cl::OptionCategory inputCat{"Input"};
  cl::OptionCategory phaseCat{"Phases and targets"};
  cl::OptionCategory shapeCat{"Shapes"};
  cl::OptionCategory outputCat{"Output"};
  cl::OptionCategory extendCat{"Extending the pipeline"};
  cl::OptionCategory quantizeCat{"Precision and quantization"};

  cl::opt<std::string> input{cl::Positional, cl::Required,
                             cl::desc("<model.onnx | model.onnxtxt>"),
                             cl::cat(inputCat)};
  cl::opt<bool> noChecker{
      "no-checker",
      cl::desc("Skip onnx::checker, and go on when ONNX shape inference "
               "refuses a node (for models they wrongly reject); the graph "
               "dialect's verifiers still check every op"),
      cl::init(false), cl::cat(inputCat)};

  // The registered targets, set before `target` is constructed.
  std::string targetHelp = describeTargets();
  cl::opt<std::string> target{"target", cl::desc(targetHelp),
                              cl::value_desc("name"), cl::init("cpu"),
                              cl::cat(phaseCat)};
  cl::opt<Phase> compileTo{
      "compile-to", cl::desc("Stop after this phase and print its IR"),
      cl::values(
          clEnumValN(Phase::Import, "import",
                     "the model as imported: one graph op per ONNX node"),
          clEnumValN(Phase::Graph, "graph",
                     "after graph-opt: shapes propagated and "
                     "specialized, shape subgraphs folded"),
          clEnumValN(Phase::Linalg, "linalg",
                     "the entry prepared for the target, graph ops "
                     "lowered to linalg/tensor/arith/math"),
          clEnumValN(Phase::Fuse, "fuse",
                     "elementwise producers fused into their "
                     "consumers, still on tensors"),
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
               "run outside it is refused. A dim whose MIN and MAX agree is "
               "compiled as static. Without --shape/--batch/a "
               "profile, `?` dims take any size from 1 up"),
      cl::cat(shapeCat)};

  cl::opt<std::string> quantize{
      "quantize",
      cl::desc("Quantize a float model after the graph phase: 'int8' runs "
               "every ungrouped 2-D Conv and every MatMul by a constant "
               "matrix in int8 (u8 activations per tensor, s8 weights per "
               "output channel), with ranges measured by running the model "
               "on --calibration; 'none' (the default) keeps it as it is"),
      cl::value_desc("none|int8"), cl::init("none"), cl::cat(quantizeCat)};
  cl::opt<std::string> calibration{
      "calibration",
      cl::desc("Input sets for --quantize and --precision-report: a folder "
               "of ONNX test_data_set_N "
               "folders (input_K.pb) or of folders with one NAME.npy per "
               "model input (or one such set itself)"),
      cl::value_desc("dir"), cl::cat(quantizeCat)};
  cl::opt<std::string> calibrationMethod{
      "calibration-method",
      cl::desc("How a tensor's range is chosen from the calibration values: "
               "minmax (the default; all values), percentile (the "
               "--calibration-percentile-th percentile at the top and its "
               "complement at the bottom, leaving outliers to saturate) or "
               "entropy (the magnitude whose clipping loses the least "
               "information, KL divergence as TensorRT's)"),
      cl::value_desc("minmax|percentile|entropy"), cl::init("minmax"),
      cl::cat(quantizeCat)};
  cl::opt<double> calibrationPercentile{
      "calibration-percentile",
      cl::desc("For --calibration-method=percentile: the percentile kept at "
               "each end, in (50, 100] (default 99.99)"),
      cl::init(99.99), cl::cat(quantizeCat)};
  cl::list<std::string> quantizeExclude{
      "quantize-exclude",
      cl::desc("Keep these Conv / MatMul nodes (ONNX node names) in float: "
               "--quantize-exclude=conv1,conv2"),
      cl::CommaSeparated, cl::value_desc("node,..."), cl::cat(quantizeCat)};
  cl::opt<double> quantizeMaxError{
      "quantize-max-error",
      cl::desc("Accuracy guard for --quantize: a layer whose output's "
               "relative RMS error against the float model on the "
               "calibration sets (sqrt(sum (f - q)^2 / sum f^2); 0.05 is an "
               "SQNR of 26 dB; errors of the layers before it included) "
               "exceeds E stays float, and the report says so (default 0: "
               "off)"),
      cl::value_desc("E"), cl::init(0.0), cl::cat(quantizeCat)};
  cl::opt<std::string> quantizeReport{
      "quantize-report",
      cl::desc("Write what --quantize did as JSON to FILE (per Conv/MatMul: "
               "int8 or why not, ranges, SQNR and max error of its output "
               "against the float model on the calibration sets; the same "
               "for the model's outputs) and print it as a table"),
      cl::value_desc("file"), cl::cat(quantizeCat)};

  cl::opt<std::string> precision{
      "precision",
      cl::desc("Arithmetic of the float model's matmuls and convolutions: "
               "'f32' (the default) or 'bf16': every ungrouped Conv and "
               "every MatMul/Gemm by a constant matrix takes its inputs "
               "rounded to bfloat16 (weights at compile time) and sums in "
               "f32 (vdpbf16ps with AVX512-BF16, FMAs elsewhere)"),
      cl::value_desc("f32|bf16"), cl::init("f32"), cl::cat(quantizeCat)};
  cl::list<std::string> precisionExclude{
      "precision-exclude",
      cl::desc("Keep these Conv / MatMul / Gemm nodes (ONNX node names) in "
               "f32 under --precision=bf16"),
      cl::CommaSeparated, cl::value_desc("node,..."), cl::cat(quantizeCat)};
  cl::opt<std::string> precisionReport{
      "precision-report",
      cl::desc("With --precision=bf16: run the f32 and the bf16 model on the "
               "input sets of --calibration, write the outputs' difference "
               "(SQNR, relative RMS and max error per output) and the layers "
               "in bf16 as JSON to FILE, and print it"),
      cl::value_desc("file"), cl::cat(quantizeCat)};

  cl::opt<std::string> output{
      "o",
      cl::desc("Output: a directory for artifacts (created if missing), a "
               "file for IR ('-' for standard output)"),
      cl::value_desc("file"), cl::init("-"), cl::cat(outputCat)};
  // The registered targets' own options, listed after the driver's.
  std::string targetOptionsHelp = describeTargetOptions();
  cl::extrahelp targetOptions{targetOptionsHelp};
  cl::list<std::string> passPlugins{
      "load-pass-plugin",
      cl::desc("Load an MLIR pass plugin (a shared library exporting "
               "mlirGetPassPluginInfo, built against LLVM/MLIR 22): its "
               "passes can then be inserted (repeatable; "
               "docs/writing-a-pass.md)"),
      cl::value_desc("lib.so"), cl::cat(extendCat)};
  cl::list<std::string> insertPassAfter{
      "insert-pass-after",
      cl::desc("Run a pass pipeline after a phase: PHASE:PIPELINE, PHASE one "
               "of import, graph, linalg, fuse, llvm, PIPELINE as inside "
               "builtin.module(...), e.g. --insert-pass-after="
               "linalg:'func.func(my-pass)' (repeatable; in order)"),
      cl::value_desc("phase:pipeline"), cl::cat(extendCat)};
  cl::opt<WeightsMode> weights{
      "weights", cl::desc("How weight blobs appear in printed IR"),
      cl::values(clEnumValN(WeightsMode::Auto, "auto",
                            "elided on standard output, in full in files"),
                 clEnumValN(WeightsMode::Elide, "elide",
                            "always elided (the IR cannot be read back)"),
                 clEnumValN(WeightsMode::Full, "full", "always in full")),
      cl::init(WeightsMode::Auto), cl::cat(outputCat)};
};

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
  case DiagnosticSeverity::Warning:
    severity = "warning";
    break;
  case DiagnosticSeverity::Note:
    severity = "note";
    break;
  case DiagnosticSeverity::Remark:
    severity = "remark";
    break;
  case DiagnosticSeverity::Error:
    errorPrinted = true;
    break;
  }
  std::string where;
  Location loc = diag.getLocation();
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty()) {
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

/// The --precision options (none for f32), or an error message.
std::string readPrecisionOptions(const DriverOptions &options,
                                 std::optional<quantize::Bf16Options> &out) {
  if (options.precision == "f32") {
    if (!options.precisionExclude.empty() || !options.precisionReport.empty()) {
      return "--precision-exclude and --precision-report apply with "
             "--precision=bf16";
    }
    return "";
  }
  if (options.precision != "bf16") {
    return "--precision must be 'f32' or 'bf16', got '" +
           options.precision.getValue() + "'";
  }
  if (options.compileTo < Phase::Graph) {
    return "--precision applies after the graph phase; use --compile-to=graph "
           "or later";
  }
  if (!options.precisionReport.empty()) {
    if (options.calibration.empty()) {
      return "--precision-report needs --calibration=DIR: input sets to run "
             "the f32 and the bf16 model on";
    }
    if (samePath(options.precisionReport, options.input)) {
      return "the report file '" + options.precisionReport.getValue() +
             "' is the input model; refusing to overwrite it";
    }
  }
  quantize::Bf16Options b;
  b.exclude.assign(options.precisionExclude.begin(),
                   options.precisionExclude.end());
  b.reportPath = options.precisionReport;
  b.setsDir = options.calibration;
  out = std::move(b);
  return "";
}

/// The --quantize options as the quantizer takes them (none when not
/// quantizing), or an error message.
std::string readQuantizeOptions(const DriverOptions &options,
                                std::optional<quantize::QuantizeOptions> &out) {
  if (options.quantize == "none") {
    if ((!options.calibration.empty() && options.precisionReport.empty()) ||
        !options.quantizeExclude.empty() || !options.quantizeReport.empty() ||
        options.quantizeMaxError.getNumOccurrences() ||
        options.calibrationMethod.getNumOccurrences() ||
        options.calibrationPercentile.getNumOccurrences()) {
      return "--calibration, --calibration-method, --calibration-percentile, "
             "--quantize-exclude, --quantize-max-error and --quantize-report "
             "apply with --quantize=int8";
    }
    return "";
  }
  if (options.quantize != "int8") {
    return "--quantize must be 'none' or 'int8', got '" +
           options.quantize.getValue() + "'";
  }
  if (options.calibration.empty()) {
    return "--quantize=int8 needs --calibration=DIR: input sets to measure "
           "the model's ranges on";
  }
  if (options.calibrationMethod != "minmax" &&
      options.calibrationMethod != "percentile" &&
      options.calibrationMethod != "entropy") {
    return "--calibration-method must be 'minmax', 'percentile' or "
           "'entropy', got '" +
           options.calibrationMethod.getValue() + "'";
  }
  if (!(options.calibrationPercentile > 50.0 &&
        options.calibrationPercentile <= 100.0)) {
    return "--calibration-percentile must be in (50, 100]";
  }
  if (!(options.quantizeMaxError >= 0.0)) {
    return "--quantize-max-error must be a relative error >= 0 (0: off)";
  }
  if (options.compileTo < Phase::Graph) {
    return "--quantize applies after the graph phase; use --compile-to=graph "
           "or later";
  }
  if (!options.quantizeReport.empty() &&
      samePath(options.quantizeReport, options.input)) {
    return "the report file '" + options.quantizeReport.getValue() +
           "' is the input model; refusing to overwrite it";
  }
  quantize::QuantizeOptions q;
  q.calibrationDir = options.calibration;
  q.method = options.calibrationMethod;
  q.percentile = options.calibrationPercentile;
  q.exclude.assign(options.quantizeExclude.begin(),
                   options.quantizeExclude.end());
  q.reportPath = options.quantizeReport;
  q.maxError = options.quantizeMaxError;
  out = std::move(q);
  return "";
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
  targets::registerAllTargets();
  // Flags of the targets' options (--target-cpu, --gpu-arch, ...) are
  // parsed into the chosen target's options below.
  SplitCommandLine commandLine = splitTargetFlags(argc, argv);
  DriverOptions options;
  // infer's and MLIR's passes by name: for --insert-pass-after and for
  // --mlir-print-ir-after=<pass> and its kin, parsed next.
  registerAllPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions({&options.inputCat, &options.phaseCat,
                            &options.shapeCat, &options.quantizeCat,
                            &options.outputCat, &options.extendCat});
  if (!cl::ParseCommandLineOptions(static_cast<int>(commandLine.rest.size()),
                                   commandLine.rest.data(), kCompileOverview,
                                   &llvm::errs())) {
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
  targets::Target *target = targets::lookupTarget(options.target);
  if (!target) {
    std::string known;
    for (targets::Target *t : targets::getRegisteredTargets()) {
      known += (known.empty() ? "" : ", ") + t->getName().str();
    }
    return fail("unknown target '" + options.target.getValue() +
                "'; this build has " + known +
                " (optional targets are chosen when infer is configured: "
                "INFER_BUILD_CUDA, INFER_BUILD_HLS)");
  }
  std::string error;
  if (!applyTargetFlags(*target, commandLine.flags, error)) {
    return fail(error);
  }
  if (std::string invalid = target->validateOptions(); !invalid.empty()) {
    return fail(invalid);
  }
  if (options.batch < 0) {
    return fail("--batch must be positive");
  }
  std::optional<quantize::QuantizeOptions> quantizeOptions;
  if (std::string invalid = readQuantizeOptions(options, quantizeOptions);
      !invalid.empty()) {
    return fail(invalid);
  }
  std::optional<quantize::Bf16Options> bf16Options;
  if (std::string invalid = readPrecisionOptions(options, bf16Options);
      !invalid.empty()) {
    return fail(invalid);
  }

  // Plugins register passes; the insertions are checked against them
  // before any work. An insertion after a phase that does not run would
  // silently do nothing: refused.
  std::vector<PassInsertion> insertions;
  if (!loadPassPlugins(options.passPlugins, error) ||
      !parsePassInsertions(options.insertPassAfter, insertions, error)) {
    return fail(error);
  }
  for (const PassInsertion &insertion : insertions) {
    auto phase =
        static_cast<Phase>(llvm::find(insertionPhases(), insertion.phase) -
                           insertionPhases().begin());
    if (phase > options.compileTo) {
      return fail("--insert-pass-after=" + insertion.phase +
                  ":...: the compile stops before that phase ends "
                  "(--compile-to)");
    }
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

  // Each stage runs in its own pass manager, with the command line's
  // pass-manager options (IR printing, timing, ...).
  auto runStage = [&](llvm::function_ref<void(OpPassManager &)> build,
                      bool timed) {
    PassManager pm(&context);
    if (failed(applyPassManagerCLOptions(pm))) {
      return failure();
    }
    if (timed) {
      auto timing = std::make_unique<DefaultTimingManager>();
      applyDefaultTimingManagerCLOptions(*timing);
      if (timing->isEnabled()) {
        pm.enableTiming(std::move(timing));
      }
    }
    build(pm);
    return pm.run(*module);
  };
  if (llvm::any_of(
          insertions,
          [](const PassInsertion &i) { return i.phase == "import"; }) &&
      failed(runStage(
          [&](OpPassManager &pm) {
            appendPassInsertions(pm, insertions, "import");
          },
          /*timed=*/false))) {
    return 1;
  }
  if (options.compileTo >= Phase::Graph) {
    GraphOptOptions graphOptions;
    graphOptions.shapes = llvm::to_vector(options.shapes);
    graphOptions.batch = options.batch;
    graphOptions.profiles = llvm::to_vector(options.shapeProfiles);
    graphOptions.bindings = llvm::to_vector(options.bindings);
    if (failed(runStage(
            [&](OpPassManager &pm) {
              buildGraphOptPipeline(pm, graphOptions);
              appendPassInsertions(pm, insertions, "graph");
            },
            /*timed=*/true))) {
      return 1;
    }
    if (quantizeOptions &&
        failed(quantize::quantizeInt8(*module, *quantizeOptions))) {
      return 1;
    }
    if (bf16Options && failed(quantize::convertToBf16(*module, *bf16Options))) {
      return 1;
    }
  } else if (!options.shapes.empty() || options.batch > 0 ||
             !options.bindings.empty()) {
    return fail("--shape, --batch and --bind apply in the graph phase; use "
                "--compile-to=graph or later");
  }

  targets::ModelSignature signature;
  bool toArtifacts = options.compileTo == Phase::Artifact;
  if (toArtifacts && options.output == "-") {
    return fail("-o DIR is required to write the artifacts (or pass "
                "--compile-to=graph|linalg|fuse|llvm to print IR)");
  }
  targets::CompileOutput output;
  output.sourceName = llvm::sys::path::filename(options.input).str();
  // The driver is infer-compile's main: the process exits after this.
  output.freeMemory = false;
  if (toArtifacts) {
    output.directory = options.output.getValue();
  }
  if (options.compileTo >= Phase::Linalg) {
    // The entry point as the target wants it, the signature recorded, graph
    // ops lowered (with run-time checks where the target reports them),
    // then fused.
    targets::PrepareEntryPassOptions entry;
    entry.modelName = options.name.empty() ? defaultName(options.input)
                                           : options.name.getValue();
    entry.targetName = target->getName().str();
    entry.profiles = llvm::to_vector(options.shapeProfiles);
    LowerOptions lowerOptions;
    lowerOptions.checks = target->reportsRunTimeChecks();
    if (failed(runStage(
            [&](OpPassManager &pm) {
              pm.addPass(targets::createPrepareEntryPass(entry));
              buildLowerPipeline(pm, lowerOptions);
              appendPassInsertions(pm, insertions, "linalg");
              if (options.compileTo >= Phase::Fuse) {
                buildFusePipeline(pm);
                appendPassInsertions(pm, insertions, "fuse");
              }
            },
            /*timed=*/false)) ||
        failed(targets::readSignatureAttr(*module, signature))) {
      return 1;
    }
  }
  if (options.compileTo >= Phase::LLVM) {
    PassManager pm(&context);
    if (failed(applyPassManagerCLOptions(pm)) ||
        failed(target->buildCodegenPipeline(pm, *module, signature, output))) {
      return 1;
    }
    appendPassInsertions(pm, insertions, "llvm");
    if (failed(pm.run(*module))) {
      return 1;
    }
  }

  if (toArtifacts) {
    if (std::error_code ec =
            llvm::sys::fs::create_directories(output.directory)) {
      return fail("cannot create the output directory '" + output.directory +
                  "': " + ec.message());
    }
    return failed(target->emit(*module, signature, output)) ? 1 : 0;
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
            os << '\n'; // as infer-opt (mlir-opt) ends its output
            return llvm::Error::success();
          })) {
    return fail("cannot write '" + options.output.getValue() +
                "': " + llvm::toString(std::move(error)));
  }
  return 0;
}

} // namespace infer
