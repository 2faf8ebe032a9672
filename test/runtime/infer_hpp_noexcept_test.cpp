//===- infer_hpp_noexcept_test.cpp - infer.hpp without exceptions --------===//
//
// Built with -fno-exceptions and INFER_NO_EXCEPTIONS: only the try_*
// calls exist. Runs fake.so's adder (argv[1]) and checks the errors.

#include "infer/infer.hpp"

#include <cstdio>
#include <vector>

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);  \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  EXPECT(argc == 2);
  infer::Model model;
  EXPECT(infer::Model::try_load(argv[1], model, "fake").ok());
  float a[6] = {1, 2, 3, 4, 5, 6};
  std::vector<infer::Tensor> inputs(2);
  EXPECT(infer::Tensor::try_wrap(a, {2, 3}, inputs[0]).ok());
  EXPECT(infer::Tensor::try_wrap(a, {2, 3}, inputs[1]).ok());
  std::vector<infer::Tensor> outputs;
  EXPECT(model.try_run(inputs, outputs).ok());
  infer::Span<const float> sum = outputs[0].data<float>();
  EXPECT(sum.size() == 6 && sum[5] == 12.0f);
  EXPECT(outputs[0].data<int32_t>().empty()); // the wrong type: no data
  infer::Status status = infer::Model::try_load("/nonexistent.so", model);
  EXPECT(!status.ok() && status.code() == INFER_NOT_FOUND);
  EXPECT(status.message().find("/nonexistent.so") != std::string::npos);
  return 0;
}
