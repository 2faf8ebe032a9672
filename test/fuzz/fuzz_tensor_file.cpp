//===- fuzz_tensor_file.cpp - libFuzzer harness: .npy and .pb readers -----===//
//
// Each input is a tensor file as `infer-run --input`/`--test-data` reads
// it: a NumPy .npy file when it starts with NumPy's magic bytes, a
// serialized onnx.TensorProto otherwise. The reader must return a tensor
// or throw a ToolError with a message; anything else (a crash, another
// exception, an allocation of the size a header claims, which libFuzzer's
// -malloc_limit_mb catches) is a finding.
//
//===----------------------------------------------------------------------===//

#include "test/fuzz/InputFile.h"
#include "tools/common/TensorFile.h"

#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static infer::fuzz::InputFile npy(".npy");
  static infer::fuzz::InputFile pb(".pb");
  static const char kMagic[] = "\x93NUMPY";
  bool isNpy = size >= 6 && std::memcmp(data, kMagic, 6) == 0;
  const std::string &path = (isNpy ? npy : pb).write(data, size);
  try {
    infer::tools::NamedTensor tensor = infer::tools::readTensorFile(path);
    (void)tensor;
  } catch (const infer::tools::ToolError &error) {
    if (std::strlen(error.what()) == 0) {
      infer::fuzz::finding("a ToolError with an empty message");
    }
  }
  return 0;
}
