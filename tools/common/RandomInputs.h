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

/// One tensor per model input, in input order, with the declared dtype and
/// shape (a dynamic input: its shape in `shapes`, else the profile's
/// optimal one), filled from a generator seeded with `seed`: floats uniform
/// in [-1, 1], integers uniform in [0, 10), bools 0 or 1 with equal odds.
/// The same seed gives the same inputs.
std::vector<Tensor> randomInputs(infer_model_t model, uint64_t seed,
                                 const ShapeChoices &shapes = {});

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_RANDOMINPUTS_H
