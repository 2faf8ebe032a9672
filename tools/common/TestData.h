//===- TestData.h - model inputs and expected outputs from files --*- C++
//-*-===//
//
// Gathers what one infer-run pass needs: a tensor per model input and,
// optionally, an expected tensor per output. Sources are an ONNX
// `test_data_set_N` directory (input_K.pb / output_K.pb, K by position),
// NAME=FILE pairs (.npy or .pb), or seeded random values. Every input is
// checked against the model's declaration here, so errors name the file.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_COMMON_TESTDATA_H
#define INFER_TOOLS_COMMON_TESTDATA_H

#include "tools/common/RandomInputs.h"
#include "tools/common/RuntimeHandles.h"

#include <string>
#include <vector>

namespace infer::tools {

struct TestCase {
  /// Where the data came from, for messages ("dir/test_data_set_0").
  std::string label;
  /// One per model input, in input order.
  std::vector<Tensor> inputs;
  /// One per model output; null where no expected value was given.
  std::vector<Tensor> expected;
};

/// Reads an ONNX test_data_set directory. There must be exactly one
/// input_K.pb per model input; output_K.pb files are optional but may not
/// name outputs the model lacks. A TensorProto name, when present, must
/// match the model's name for that position.
TestCase loadTestDataSet(infer_model_t model, const std::string &dir);

/// Reads `NAME=FILE` pairs; every model input must be given exactly once.
TestCase loadInputFiles(infer_model_t model,
                        const std::vector<std::string> &specs);

/// Random inputs (see randomInputs) and no expected outputs.
TestCase makeRandomCase(infer_model_t model, uint64_t seed,
                        const std::vector<std::string> &shapes = {},
                        IntRange ints = {});

/// Throws unless `tensor` has exactly the dtype and shape `declared` has;
/// `source` names where it came from.
void checkMatches(const infer_abi_tensor_t &declared, const char *kind,
                  infer_tensor_t tensor, const std::string &source);

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_TESTDATA_H
