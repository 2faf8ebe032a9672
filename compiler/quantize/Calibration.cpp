//===- Calibration.cpp - running a compiled model over calibration sets ---===//

#include "compiler/quantize/Calibration.h"
#include "tools/common/TestData.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

namespace fs = std::filesystem;

namespace infer::quantize {

using tools::Tensor;
using tools::ToolError;

namespace {

/// One set from `dir`, or an empty vector when `dir` holds no set.
std::vector<Tensor> loadSet(infer_model_t model, const fs::path &dir) {
  std::error_code error;
  bool hasPb = false;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir, error)) {
    std::string file = entry.path().filename().string();
    hasPb |= file.rfind("input_", 0) == 0 && entry.path().extension() == ".pb";
  }
  if (hasPb) {
    return std::move(tools::loadTestDataSet(model, dir.string()).inputs);
  }
  std::vector<std::string> specs;
  size_t numInputs = infer_model_num_inputs(model);
  for (size_t i = 0; i < numInputs; ++i) {
    std::string name = infer_model_input(model, i)->name;
    fs::path file = dir / (name + ".npy");
    if (!fs::is_regular_file(file, error)) {
      if (i == 0) {
        return {};
      }
      throw ToolError(fmt::format("calibration set '{}' has {}.npy but not "
                                  "'{}' (one NAME.npy per model input)",
                                  dir.string(),
                                  infer_model_input(model, 0)->name,
                                  file.filename().string()));
    }
    specs.push_back(name + "=" + file.string());
  }
  return std::move(tools::loadInputFiles(model, specs).inputs);
}

} // namespace

std::vector<std::vector<Tensor>> loadCalibrationSets(infer_model_t model,
                                                     const std::string &dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    throw ToolError(fmt::format("--calibration: '{}' is not a directory", dir));
  }
  std::vector<std::vector<Tensor>> sets;
  if (std::vector<Tensor> set = loadSet(model, dir); !set.empty()) {
    sets.push_back(std::move(set));
    return sets;
  }
  std::vector<fs::path> subdirs;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir, error)) {
    if (entry.is_directory(error)) {
      subdirs.push_back(entry.path());
    }
  }
  std::sort(subdirs.begin(), subdirs.end());
  for (const fs::path &subdir : subdirs) {
    if (std::vector<Tensor> set = loadSet(model, subdir); !set.empty()) {
      sets.push_back(std::move(set));
    }
  }
  if (sets.empty()) {
    throw ToolError(fmt::format(
        "--calibration: '{}' holds no input set; give folders of input_K.pb "
        "(ONNX test_data_set_N) or of one NAME.npy per model input",
        dir));
  }
  return sets;
}

void runSets(infer_model_t model, const std::vector<std::vector<Tensor>> &sets,
             const std::function<void(const std::vector<Tensor> &)> &visit) {
  for (const std::vector<Tensor> &set : sets) {
    visit(tools::runModel(model, set));
  }
}

std::pair<const float *, size_t> floats(const Tensor &tensor) {
  if (infer_tensor_dtype(tensor.get()) != INFER_DTYPE_F32) {
    throw ToolError("internal error: a measured tensor is not float32");
  }
  return {static_cast<const float *>(infer_tensor_data(tensor.get())),
          infer_tensor_num_elements(tensor.get())};
}

std::vector<Range> measureRanges(infer_model_t model,
                                 const std::vector<std::vector<Tensor>> &sets,
                                 size_t first, RangeMethod method,
                                 double percentile) {
  size_t count = infer_model_num_outputs(model) - first;
  std::vector<Range> ranges(count, {std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity()});
  runSets(model, sets, [&](const std::vector<Tensor> &outputs) {
    for (size_t k = 0; k < count; ++k) {
      auto [data, size] = floats(outputs[first + k]);
      for (size_t i = 0; i < size; ++i) {
        // NaNs fail both comparisons and are left out.
        ranges[k].lo = std::min<double>(ranges[k].lo, data[i]);
        ranges[k].hi = std::max<double>(ranges[k].hi, data[i]);
      }
    }
  });
  for (Range &range : ranges) {
    if (!(range.lo <= range.hi)) {
      range = {0.0, 0.0}; // only NaNs (or nothing) seen
    }
  }
  if (method == RangeMethod::MinMax) {
    return ranges;
  }
  constexpr size_t kBins = 2048;
  std::vector<std::vector<uint64_t>> histograms(
      count, std::vector<uint64_t>(kBins, 0));
  runSets(model, sets, [&](const std::vector<Tensor> &outputs) {
    for (size_t k = 0; k < count; ++k) {
      auto [data, size] = floats(outputs[first + k]);
      double lo = ranges[k].lo, width = (ranges[k].hi - lo) / kBins;
      for (size_t i = 0; i < size; ++i) {
        if (std::isnan(data[i])) {
          continue;
        }
        double bin = width > 0 ? (data[i] - lo) / width : 0.0;
        histograms[k]
                  [std::min<size_t>(size_t(std::max(bin, 0.0)), kBins - 1)]++;
      }
    }
  });
  for (size_t k = 0; k < count; ++k) {
    const std::vector<uint64_t> &hist = histograms[k];
    uint64_t total = 0;
    for (uint64_t n : hist) {
      total += n;
    }
    double lo = ranges[k].lo, width = (ranges[k].hi - lo) / kBins;
    double tail = total * (100.0 - percentile) / 100.0;
    // The lowest bin whose cumulative count passes the lower tail, and
    // the highest whose count from the top does.
    uint64_t below = 0, above = 0;
    size_t low = 0, high = kBins - 1;
    while (low < kBins - 1 && below + hist[low] <= tail) {
      below += hist[low++];
    }
    while (high > low && above + hist[high] <= tail) {
      above += hist[high--];
    }
    ranges[k] = {lo + width * low, lo + width * (high + 1)};
  }
  return ranges;
}

} // namespace infer::quantize
