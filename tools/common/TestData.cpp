//===- TestData.cpp - model inputs and expected outputs from files --------===//

#include "tools/common/TestData.h"

#include "tools/common/RandomInputs.h"
#include "tools/common/TensorFile.h"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

namespace fs = std::filesystem;

namespace infer::tools {

namespace {

/// K when `file` is `<prefix>_K.pb`.
std::optional<size_t> fileIndex(const std::string &file,
                                const std::string &prefix) {
  std::string head = prefix + "_";
  if (file.size() <= head.size() + 3 || file.compare(0, head.size(), head) ||
      file.compare(file.size() - 3, 3, ".pb")) {
    return std::nullopt;
  }
  std::string digits = file.substr(head.size(), file.size() - head.size() - 3);
  if (digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<size_t>(std::stoul(digits));
}

std::string joinNames(infer_model_t model, bool inputs) {
  std::string names;
  size_t count =
      inputs ? infer_model_num_inputs(model) : infer_model_num_outputs(model);
  for (size_t i = 0; i < count; ++i) {
    const infer_abi_tensor_t *t =
        inputs ? infer_model_input(model, i) : infer_model_output(model, i);
    names += fmt::format(i ? ", '{}'" : "'{}'", t->name);
  }
  return names;
}

/// ONNX's older test data stores bfloat16 tensors as uint16 tensors of the
/// same bits (numpy had no bfloat16). Such a tensor, in the declared shape,
/// is retyped as bfloat16; anything else is left for checkMatches.
void retypeLegacyBfloat16(const infer_abi_tensor_t &declared, Tensor &tensor) {
  if (declared.dtype != INFER_DTYPE_BF16 ||
      infer_tensor_dtype(tensor.get()) != INFER_DTYPE_U16 ||
      formatShape(tensor.get()) != formatShape(declared.shape, declared.rank)) {
    return;
  }
  infer_tensor_t retyped = nullptr;
  check(infer_tensor_create(INFER_DTYPE_BF16, infer_tensor_rank(tensor.get()),
                            infer_tensor_shape(tensor.get()), &retyped),
        "bfloat16 test data");
  std::memcpy(infer_tensor_data(retyped), infer_tensor_data(tensor.get()),
              infer_tensor_byte_size(tensor.get()));
  tensor.reset(retyped);
}

} // namespace

void checkMatches(const infer_abi_tensor_t &declared, const char *kind,
                  infer_tensor_t tensor, const std::string &source) {
  // A dynamic dim (-1) takes any size; the runtime checks its range.
  bool same = infer_tensor_dtype(tensor) == declared.dtype &&
              infer_tensor_rank(tensor) == declared.rank;
  for (int32_t d = 0; same && d < declared.rank; ++d) {
    same = declared.shape[d] < 0 ||
           declared.shape[d] == infer_tensor_shape(tensor)[d];
  }
  if (!same) {
    throw ToolError(fmt::format(
        "{} '{}': '{}' holds {} {}, but the model expects {} (no conversion "
        "is done)",
        kind, declared.name, source,
        infer_dtype_name(infer_tensor_dtype(tensor)), formatShape(tensor),
        describe(declared)));
  }
}

TestCase loadTestDataSet(infer_model_t model, const std::string &dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    throw ToolError(fmt::format(fs::exists(dir, error)
                                    ? "test data '{}' is not a directory"
                                    : "test data directory '{}' does not exist",
                                dir));
  }
  std::map<size_t, std::string> inputFiles, outputFiles;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir, error)) {
    std::string file = entry.path().filename().string();
    if (auto index = fileIndex(file, "input")) {
      inputFiles[*index] = entry.path().string();
    } else if (auto index = fileIndex(file, "output")) {
      outputFiles[*index] = entry.path().string();
    }
  }
  if (error) {
    throw ToolError(fmt::format("cannot list '{}': {}", dir, error.message()));
  }

  size_t numInputs = infer_model_num_inputs(model);
  size_t numOutputs = infer_model_num_outputs(model);
  if (inputFiles.size() != numInputs ||
      (!inputFiles.empty() && inputFiles.rbegin()->first >= numInputs)) {
    throw ToolError(fmt::format(
        "test data '{}' has {} input_K.pb file(s), but model '{}' takes {} "
        "input(s) ({}), one input_K.pb each for K = 0..{}",
        dir, inputFiles.size(), infer_model_name(model), numInputs,
        joinNames(model, true), numInputs ? numInputs - 1 : 0));
  }
  if (!outputFiles.empty() && outputFiles.rbegin()->first >= numOutputs) {
    throw ToolError(fmt::format(
        "test data '{}' has output_{}.pb, but model '{}' has {} output(s) "
        "({})",
        dir, outputFiles.rbegin()->first, infer_model_name(model), numOutputs,
        joinNames(model, false)));
  }

  TestCase result;
  result.label = dir;
  for (size_t i = 0; i < numInputs; ++i) {
    const infer_abi_tensor_t &declared = *infer_model_input(model, i);
    NamedTensor file = readTensorProto(inputFiles[i]);
    if (!file.name.empty() && file.name != declared.name) {
      throw ToolError(
          fmt::format("'{}' holds tensor '{}', but model input {} is '{}'",
                      inputFiles[i], file.name, i, declared.name));
    }
    retypeLegacyBfloat16(declared, file.tensor);
    checkMatches(declared, "input", file.tensor.get(), inputFiles[i]);
    result.inputs.push_back(std::move(file.tensor));
  }
  result.expected.resize(numOutputs);
  for (auto &[index, path] : outputFiles) {
    const infer_abi_tensor_t &declared = *infer_model_output(model, index);
    NamedTensor file = readTensorProto(path);
    if (!file.name.empty() && file.name != declared.name) {
      throw ToolError(
          fmt::format("'{}' holds tensor '{}', but model output {} is '{}'",
                      path, file.name, index, declared.name));
    }
    retypeLegacyBfloat16(declared, file.tensor);
    result.expected[index] = std::move(file.tensor);
  }
  return result;
}

TestCase loadInputFiles(infer_model_t model,
                        const std::vector<std::string> &specs) {
  size_t numInputs = infer_model_num_inputs(model);
  std::vector<Tensor> inputs(numInputs);
  for (const std::string &spec : specs) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0 ||
        equals + 1 == spec.size()) {
      throw ToolError(fmt::format(
          "--input expects NAME=FILE (e.g. --input x=x.npy), got '{}'", spec));
    }
    std::string name = spec.substr(0, equals);
    std::string path = spec.substr(equals + 1);
    size_t index = 0;
    check(infer_model_find_input(model, name.c_str(), &index), "--input");
    if (inputs[index]) {
      throw ToolError(fmt::format("input '{}' is given twice", name));
    }
    NamedTensor file = readTensorFile(path);
    checkMatches(*infer_model_input(model, index), "input", file.tensor.get(),
                 path);
    inputs[index] = std::move(file.tensor);
  }
  for (size_t i = 0; i < numInputs; ++i) {
    if (!inputs[i]) {
      const char *name = infer_model_input(model, i)->name;
      throw ToolError(
          fmt::format("no value for input '{}' ({}); add --input {}=FILE", name,
                      describe(*infer_model_input(model, i)), name));
    }
  }
  TestCase result;
  result.label = "--input";
  result.inputs = std::move(inputs);
  result.expected.resize(infer_model_num_outputs(model));
  return result;
}

TestCase makeRandomCase(infer_model_t model, uint64_t seed,
                        const std::vector<std::string> &shapes, IntRange ints) {
  TestCase result;
  result.label = fmt::format("random inputs (seed {})", seed);
  result.inputs =
      randomInputs(model, seed, parseShapeChoices(model, shapes), ints);
  result.expected.resize(infer_model_num_outputs(model));
  return result;
}

} // namespace infer::tools
