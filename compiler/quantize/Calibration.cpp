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

size_t entropyCut(const std::vector<uint64_t> &hist, size_t levels) {
  size_t bins = hist.size();
  if (bins <= levels) {
    return bins;
  }
  std::vector<double> suffix(bins + 1, 0.0);
  for (size_t b = bins; b-- > 0;) {
    suffix[b] = suffix[b + 1] + double(hist[b]);
  }
  if (suffix[0] == 0.0) {
    return bins;
  }
  double best = std::numeric_limits<double>::infinity();
  size_t bestCut = bins;
  std::vector<double> q;
  for (size_t cut = levels; cut <= bins; ++cut) {
    // Q: the first `cut` bins merged into `levels` groups, each group's
    // count spread evenly over its non-empty bins.
    q.assign(cut, 0.0);
    for (size_t g = 0; g < levels; ++g) {
      size_t begin = g * cut / levels, end = (g + 1) * cut / levels;
      double sum = 0.0;
      size_t filled = 0;
      for (size_t b = begin; b < end; ++b) {
        sum += double(hist[b]);
        filled += hist[b] != 0;
      }
      for (size_t b = begin; b < end && filled; ++b) {
        q[b] = hist[b] ? sum / double(filled) : 0.0;
      }
    }
    // P: the same bins with everything past the cut in the last one. Both
    // normalized; KL(P || Q) over P's support (Q is 0 only where the
    // clipped histogram is, except the last bin's outliers).
    double pTotal = suffix[0], qTotal = suffix[0] - suffix[cut];
    double divergence = 0.0;
    for (size_t b = 0; b < cut; ++b) {
      double p = double(hist[b]) + (b + 1 == cut ? suffix[cut] : 0.0);
      if (p == 0.0) {
        continue;
      }
      double qb = q[b] > 0.0 ? q[b] / qTotal : 1e-12;
      divergence += (p / pTotal) * std::log((p / pTotal) / qb);
    }
    if (divergence < best) {
      best = divergence;
      bestCut = cut;
    }
  }
  return bestCut;
}

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
  // Second run: a histogram per tensor, of the values over the min-max
  // range (percentile) or of their magnitudes up to the largest (entropy).
  constexpr size_t kBins = 2048;
  bool magnitudes = method == RangeMethod::Entropy;
  std::vector<double> origin(count), width(count);
  for (size_t k = 0; k < count; ++k) {
    double top = std::max(std::fabs(ranges[k].lo), std::fabs(ranges[k].hi));
    origin[k] = magnitudes ? 0.0 : ranges[k].lo;
    width[k] = (magnitudes ? top : ranges[k].hi - ranges[k].lo) / kBins;
  }
  std::vector<std::vector<uint64_t>> histograms(
      count, std::vector<uint64_t>(kBins, 0));
  runSets(model, sets, [&](const std::vector<Tensor> &outputs) {
    for (size_t k = 0; k < count; ++k) {
      auto [data, size] = floats(outputs[first + k]);
      for (size_t i = 0; i < size; ++i) {
        // Exact zeros (half of a ReLU's output) quantize exactly whatever
        // the range; in the magnitude histogram their spike would pull
        // the entropy cut down.
        if (std::isnan(data[i]) || (magnitudes && data[i] == 0.0f)) {
          continue;
        }
        double v = magnitudes ? std::fabs(data[i]) : data[i];
        double bin = width[k] > 0 ? (v - origin[k]) / width[k] : 0.0;
        histograms[k]
                  [std::min<size_t>(size_t(std::max(bin, 0.0)), kBins - 1)]++;
      }
    }
  });
  for (size_t k = 0; k < count; ++k) {
    const std::vector<uint64_t> &hist = histograms[k];
    if (magnitudes) {
      // u8 spends its 256 levels on one side when nothing is negative,
      // about half on each side otherwise.
      size_t levels = ranges[k].lo >= 0.0 ? 255 : 128;
      double threshold = width[k] * double(entropyCut(hist, levels));
      ranges[k] = {std::max(ranges[k].lo, -threshold),
                   std::min(ranges[k].hi, threshold)};
      continue;
    }
    uint64_t total = 0;
    for (uint64_t n : hist) {
      total += n;
    }
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
    ranges[k] = {origin[k] + width[k] * low, origin[k] + width[k] * (high + 1)};
  }
  return ranges;
}

} // namespace infer::quantize
