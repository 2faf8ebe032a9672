//===- Calibration.h - running a compiled model over calibration sets -*- C++
//-*-===//
//
// The int8 quantizer's measurements: a model compiled by infer for this
// machine, with the tensors to measure appended to its outputs, is run over
// the user's calibration sets, and each appended tensor's range is taken
// from what it held (min/max, or percentiles of a histogram). The report's
// errors come from running two such models side by side.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_QUANTIZE_CALIBRATION_H
#define INFER_COMPILER_QUANTIZE_CALIBRATION_H

#include "tools/common/RuntimeHandles.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace infer::quantize {

/// TensorRT's entropy calibration on the magnitude histogram `hist`: the
/// cut, in bins, whose clipped distribution (outliers folded into the last
/// bin) differs least (KL divergence) from itself quantized into `levels`
/// levels.
size_t entropyCut(const std::vector<uint64_t> &hist, size_t levels);

/// Every input set under `dir`: `dir` itself when it holds input_K.pb files
/// (an ONNX test_data_set) or one NAME.npy per model input, else each
/// subdirectory that does, in name order. Throws tools::ToolError when
/// there is none or a set does not match the model's inputs.
std::vector<std::vector<tools::Tensor>>
loadCalibrationSets(infer_model_t model, const std::string &dir);

/// Runs `model` on every set and calls `visit` with the outputs.
void runSets(
    infer_model_t model, const std::vector<std::vector<tools::Tensor>> &sets,
    const std::function<void(const std::vector<tools::Tensor> &)> &visit);

/// The f32 values of `tensor` (which must be f32).
std::pair<const float *, size_t> floats(const tools::Tensor &tensor);

/// The range of the values one tensor held over all sets.
struct Range {
  double lo = 0.0, hi = 0.0;
};

enum class RangeMethod { MinMax, Percentile, Entropy };

/// The ranges of outputs `first`.. of `model` over `sets`: their min and
/// max; (Percentile) the `percentile`-th and (100 - `percentile`)-th
/// percentiles of the values, read from a 2048-bin histogram over the
/// min-max range (a second run over the sets); or (Entropy) the min-max
/// range clipped to +-T, T the magnitude threshold entropyCut picks from a
/// 2048-bin histogram of |x|.
std::vector<Range>
measureRanges(infer_model_t model,
              const std::vector<std::vector<tools::Tensor>> &sets, size_t first,
              RangeMethod method, double percentile);

} // namespace infer::quantize

#endif // INFER_COMPILER_QUANTIZE_CALIBRATION_H
