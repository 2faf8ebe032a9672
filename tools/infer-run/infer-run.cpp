//===- infer-run.cpp - run a compiled model and check its outputs ---------===//
//
// Loads a model library built from infer-compile's output, runs it on inputs
// from ONNX test data, .npy/.pb files or a seeded generator, and compares the
// outputs with expected values. The work is in tools/common; this file reads
// the arguments and prints the report.
//
//===----------------------------------------------------------------------===//

#include "tools/common/Args.h"
#include "tools/common/Compare.h"
#include "tools/common/Elements.h"
#include "tools/common/TensorFile.h"
#include "tools/common/TestData.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>

namespace fs = std::filesystem;
using namespace infer::tools;

namespace {

constexpr const char *kHelp =
    R"(infer-run: run a compiled model and check its outputs

USAGE
  infer-run MODEL.so [options]

MODEL.so is a shared library built from the object infer-compile emits, e.g.
  infer-compile model.onnx --name m -o out     (writes out/m.o, out/m.h, out/m.so)
It exports `m_model`; infer-run looks up `<stem>_model` (m.so -> m) unless
--name says otherwise.

INPUTS (pick one source; with none, inputs are random)
  --test-data DIR     an ONNX test_data_set_N directory: input_K.pb for the
                      K-th model input, output_K.pb for the expected K-th
                      output (serialized onnx.TensorProto). Repeat to run
                      several directories one after another.
  --input NAME=FILE   the value of input NAME from a .npy (NumPy) or .pb
                      (onnx.TensorProto) file. Repeat once per input.
  --seed N            seed of the random inputs (default 1): floats uniform
                      in [-1,1], integers in [0,9] (see --int-range),
                      bools 0/1.
  --int-range LO:HI   random integer inputs uniform in [LO, HI], e.g. 0:1
                      for token-type ids that index a 2-row table.
  --shape NAME=D0xD1  the shape of random input NAME when the model has
                      dynamic dims (default: the profile's optimal shape,
                      see infer-compile --shape-profile). Repeatable.
Files must hold exactly the model's dtype and shape; nothing is converted.

CHECKING (outputs with an expected value)
  An element passes when |got - expected| <= atol + rtol * |expected|
  (numpy.allclose); NaN matches NaN, infinities must be equal, integers and
  bools must be equal. Defaults per dtype: float32 rtol 1e-3 atol 1e-5;
  float16/bfloat16 rtol 1e-2 atol 1e-3; float64 rtol 1e-7 atol 1e-9.
  --rtol R, --atol A  override the tolerance of every float output.

OTHER OPTIONS
  --name NAME         the model's name (its symbol is NAME_model).
  --intra-threads N   threads inside one run, the caller's included
                      (default 0: one per CPU; 1: the calling thread only).
                      Models compiled with --parallel=openmp take
                      OMP_NUM_THREADS instead.
  --save-outputs DIR  write each output to DIR/<output name>.npy (with
                      several --test-data, DIR/<data dir name>/...). Existing
                      files are kept unless --force.
  --force             overwrite files under --save-outputs.
  --no-cuda-graph     CUDA models: launch the kernels one by one instead of
                      replaying a captured CUDA graph (the default), to
                      compare the two (sets INFER_CUDA_GRAPHS=0).
  --help              show this text.

EXIT STATUS
  0 when every compared output passes, 1 when one fails or on any error.

EXAMPLES
  infer-run m.so --test-data model_dir/test_data_set_0
  infer-run m.so --input x=x.npy --save-outputs out/
  infer-run m.so --seed 7
)";

struct Options {
  std::string modelPath;
  std::string name;
  int64_t intraThreads = 0;
  std::vector<std::string> testData;
  std::vector<std::string> inputs;
  std::optional<double> rtol, atol;
  std::string saveDir;
  bool force = false;
  uint64_t seed = 1;
  std::vector<std::string> shapes;
  IntRange ints;
};

/// Returns std::nullopt after printing --help.
std::optional<Options> parseArgs(int argc, char **argv) {
  Options options;
  ArgReader args(argc, argv);
  std::string value;
  while (!args.done()) {
    if (args.flag("--help") || args.flag("-h")) {
      fmt::print("{}", kHelp);
      return std::nullopt;
    }
    if (args.option("--name", options.name)) {
      continue;
    }
    if (args.option("--intra-threads", value)) {
      options.intraThreads = parseInteger(value, "--intra-threads", 0, 1024);
      continue;
    }
    if (args.option("--test-data", value)) {
      options.testData.push_back(value);
    } else if (args.option("--input", value)) {
      options.inputs.push_back(value);
    } else if (args.option("--rtol", value)) {
      options.rtol = parseNonNegative(value, "--rtol");
    } else if (args.option("--atol", value)) {
      options.atol = parseNonNegative(value, "--atol");
    } else if (args.option("--save-outputs", options.saveDir)) {
      continue;
    } else if (args.flag("--no-cuda-graph")) {
      // Read by the runtime's CUDA backend when the model is loaded.
      setenv("INFER_CUDA_GRAPHS", "0", 1);
    } else if (args.flag("--force")) {
      options.force = true;
    } else if (args.option("--shape", value)) {
      options.shapes.push_back(value);
    } else if (args.option("--int-range", value)) {
      options.ints = parseIntRange(value);
    } else if (args.option("--seed", value)) {
      options.seed =
          static_cast<uint64_t>(parseInteger(value, "--seed", 0, INT64_MAX));
    } else if (options.modelPath.empty()) {
      options.modelPath = args.positional();
    } else {
      throw ToolError(fmt::format("unexpected argument '{}' (see --help)",
                                  args.positional()));
    }
  }
  if (options.modelPath.empty()) {
    throw ToolError("no model given; usage: infer-run MODEL.so [options] "
                    "(see --help)");
  }
  if (!options.testData.empty() && !options.inputs.empty()) {
    throw ToolError("give inputs either with --test-data or with --input, "
                    "not both");
  }
  return options;
}

/// A file name made of the output name: characters other than letters,
/// digits, '-', '_' and '.' become '_'.
std::string sanitize(const std::string &name, size_t index) {
  std::string file;
  for (char c : name) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    file += keep ? c : '_';
  }
  if (file.empty() || file.find_first_not_of('.') == std::string::npos) {
    file = fmt::format("output_{}", index);
  }
  return file;
}

void saveOutputs(infer_model_t model, const std::vector<Tensor> &outputs,
                 const fs::path &dir, bool force) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    throw ToolError(fmt::format("cannot create directory '{}': {}",
                                dir.string(), error.message()));
  }
  std::set<std::string> used;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string stem = sanitize(infer_model_output(model, i)->name, i);
    // Two names may sanitize alike ("a/b" and "a_b"): keep both.
    if (!used.insert(stem).second) {
      stem = fmt::format("{}_{}", stem, i);
      used.insert(stem);
    }
    fs::path path = dir / (stem + ".npy");
    if (!force && fs::exists(path, error)) {
      throw ToolError(fmt::format("'{}' exists; pass --force to overwrite it",
                                  path.string()));
    }
    writeNpy(path.string(), outputs[i].get());
    fmt::print("  wrote {}\n", path.string());
  }
}

/// Up to the first 6 values, for outputs nobody checks.
std::string preview(infer_tensor_t tensor) {
  infer_dtype_t dtype = infer_tensor_dtype(tensor);
  size_t count = infer_tensor_num_elements(tensor);
  std::string text = "[";
  for (size_t i = 0; i < count && i < 6; ++i) {
    const void *data = infer_tensor_data(tensor);
    if (isFloatDtype(dtype)) {
      text +=
          fmt::format(i ? ", {:.6g}" : "{:.6g}", floatElement(dtype, data, i));
    } else if (isUnsignedDtype(dtype)) {
      text += fmt::format(i ? ", {}" : "{}", unsignedElement(dtype, data, i));
    } else {
      text += fmt::format(i ? ", {}" : "{}", signedElement(dtype, data, i));
    }
  }
  return text + (count > 6 ? ", ...]" : "]");
}

/// Runs one case and prints a line per output; counts into passed/failed.
void runCase(infer_model_t model, const Options &options, TestCase &test,
             const std::string &saveDir, int &passed, int &failed) {
  fmt::print("{}:\n", test.label);
  std::vector<Tensor> outputs = runModel(model, test.inputs);
  size_t width = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    width =
        std::max(width, std::string(infer_model_output(model, i)->name).size());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const infer_abi_tensor_t &declared = *infer_model_output(model, i);
    infer_tensor_t got = outputs[i].get();
    // The shape this run produced (dynamic dims resolved).
    std::string head = fmt::format(
        "  {:<{}}  {:<16}", declared.name, width,
        fmt::format("{} {}", infer_dtype_name(infer_tensor_dtype(got)),
                    formatShape(got)));
    if (!test.expected[i]) {
      fmt::print("{}  (no expected output) {}\n", head, preview(got));
      continue;
    }
    auto dtype = static_cast<infer_dtype_t>(declared.dtype);
    Tolerance tolerance = defaultTolerance(dtype);
    if (isFloatDtype(dtype)) {
      tolerance.rtol = options.rtol.value_or(tolerance.rtol);
      tolerance.atol = options.atol.value_or(tolerance.atol);
    }
    Comparison result = compareTensors(got, test.expected[i].get(), tolerance);
    if (!result.incompatible.empty()) {
      fmt::print("{}  FAIL ({})\n", head, result.incompatible);
      ++failed;
      continue;
    }
    fmt::print("{}  max_abs_err {:.3e}  max_rel_err {:.3e}  {}", head,
               result.maxAbsError, result.maxRelError,
               result.pass ? "PASS" : "FAIL");
    if (result.pass) {
      ++passed;
      fmt::print("\n");
      continue;
    }
    ++failed;
    std::string within = isFloatDtype(dtype)
                             ? fmt::format("outside rtol {:g} atol {:g}",
                                           tolerance.rtol, tolerance.atol)
                             : "differ (exact)";
    fmt::print(" ({} of {} elements {}; first at {}: got {}, expected {})\n",
               result.mismatches, result.numElements, within,
               formatIndex(got, result.firstMismatch), result.firstGot,
               result.firstExpected);
  }
  if (!saveDir.empty()) {
    saveOutputs(model, outputs, saveDir, options.force);
  }
}

int run(int argc, char **argv) {
  std::optional<Options> parsed = parseArgs(argc, argv);
  if (!parsed) {
    return 0;
  }
  const Options &options = *parsed;
  Model model =
      loadModel(options.modelPath, options.name, options.intraThreads);
  int passed = 0, failed = 0;
  auto saveDirFor = [&](const std::string &label) -> std::string {
    if (options.saveDir.empty() || options.testData.size() <= 1) {
      return options.saveDir;
    }
    fs::path name = fs::path(label).lexically_normal().filename();
    if (name.empty()) { // "dir/" normalizes to a trailing empty name
      name = fs::path(label).lexically_normal().parent_path().filename();
    }
    return (fs::path(options.saveDir) / name).string();
  };
  if (!options.testData.empty()) {
    for (const std::string &dir : options.testData) {
      TestCase test = loadTestDataSet(model.get(), dir);
      // Runs first, so a run-time check still reports its own error.
      runCase(model.get(), options, test, saveDirFor(dir), passed, failed);
      bool anyExpected = false;
      for (const Tensor &expected : test.expected) {
        anyExpected = anyExpected || expected;
      }
      if (!anyExpected && options.saveDir.empty()) {
        throw ToolError(fmt::format(
            "test data '{}' has no output_K.pb file: nothing to compare the "
            "outputs with (add the expected outputs, or run it with "
            "--save-outputs DIR to keep what the model computes)",
            dir));
      }
    }
  } else {
    TestCase test = options.inputs.empty()
                        ? makeRandomCase(model.get(), options.seed,
                                         options.shapes, options.ints)
                        : loadInputFiles(model.get(), options.inputs);
    runCase(model.get(), options, test, options.saveDir, passed, failed);
  }
  if (passed + failed > 0) {
    fmt::print("{} of {} compared outputs passed\n", passed, passed + failed);
  }
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const ToolError &error) {
    fmt::print(stderr, "infer-run: error: {}\n", error.what());
  } catch (const std::exception &error) {
    fmt::print(stderr, "infer-run: internal error: {}\n", error.what());
  }
  return 1;
}
