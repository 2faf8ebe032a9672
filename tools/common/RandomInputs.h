//===- RandomInputs.h - seeded random inputs for a model ----------*- C++
//-*-===//

#ifndef INFER_TOOLS_COMMON_RANDOMINPUTS_H
#define INFER_TOOLS_COMMON_RANDOMINPUTS_H

#include "tools/common/RuntimeHandles.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace infer::tools {

/// Input shapes for random inputs: "NAME=D0xD1..." per entry (from
/// --shape), by input name. Throws ToolError on a malformed entry or an
/// input the model does not have.
using ShapeChoices = std::map<std::string, std::vector<int64_t>>;
ShapeChoices parseShapeChoices(infer_model_t model,
                               const std::vector<std::string> &entries);

/// The range of random integer inputs, both ends included.
struct IntRange {
  int64_t lo = 0;
  int64_t hi = 9;
};

/// Parses "LO:HI" (from --int-range); throws ToolError when malformed or
/// when LO > HI.
IntRange parseIntRange(const std::string &text);

/// One tensor per model input, in input order, with the declared dtype and
/// shape (a dynamic input: its shape in `shapes`, else the profile's
/// optimal one), filled from a generator seeded with `seed`: floats uniform
/// in [-1, 1], integers uniform in `ints` (default [0, 9]; clamped to
/// what the dtype holds), bools 0 or 1 with equal odds. The same seed gives
/// the same inputs.
std::vector<Tensor> randomInputs(infer_model_t model, uint64_t seed,
                                 const ShapeChoices &shapes = {},
                                 IntRange ints = {});

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_RANDOMINPUTS_H
