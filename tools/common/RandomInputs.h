//===- RandomInputs.h - seeded random inputs for a model ----------*- C++
//-*-===//

#ifndef INFER_TOOLS_COMMON_RANDOMINPUTS_H
#define INFER_TOOLS_COMMON_RANDOMINPUTS_H

#include "tools/common/RuntimeHandles.h"

#include <cstdint>
#include <vector>

namespace infer::tools {

/// One tensor per model input, in input order, with the declared dtype and
/// shape, filled from a generator seeded with `seed`: floats uniform in
/// [-1, 1], integers uniform in [0, 10), bools 0 or 1 with equal odds. The
/// same seed gives the same inputs.
std::vector<Tensor> randomInputs(infer_model_t model, uint64_t seed);

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_RANDOMINPUTS_H
