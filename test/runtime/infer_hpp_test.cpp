//===- infer_hpp_test.cpp - the C++ API (infer/infer.hpp) on fake.so -----===//
//
// fake.so's models (fake_model.c): fake sums two float32 [2,3] tensors,
// fake_logic takes int64 and bool, fake_rows has a dynamic row count 1..4.

#include "infer/infer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

const char *kFakeSo = INFER_FAKE_SO;

TEST(InferHpp, LoadDescribesInputsAndOutputs) {
  infer::Model model = infer::Model::load(kFakeSo, "fake");
  EXPECT_EQ(model.name(), "fake");
  EXPECT_FALSE(model.is_dynamic());
  std::vector<infer::TensorInfo> inputs = model.inputs();
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[1].name, "b");
  EXPECT_EQ(inputs[1].dtype, INFER_DTYPE_F32);
  EXPECT_EQ(inputs[1].shape, (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(model.outputs().size(), 1u);
  EXPECT_EQ(model.outputs()[0].name, "sum");
  EXPECT_EQ(model.input_index("b"), 1u);
}

TEST(InferHpp, RunOverWrappedMemory) {
  infer::Model model = infer::Model::load(kFakeSo, "fake");
  float a[6] = {1, 2, 3, 4, 5, 6};
  float b[6] = {10, 20, 30, 40, 50, 60};
  std::vector<infer::Tensor> inputs;
  inputs.push_back(infer::Tensor::wrap(a, {2, 3}));
  inputs.push_back(infer::Tensor::wrap(b, {2, 3}));
  std::vector<infer::Tensor> outputs = model.run(inputs);
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape(), (std::vector<int64_t>{2, 3}));
  infer::Span<const float> sum = outputs[0].data<float>();
  ASSERT_EQ(sum.size(), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(sum[i], a[i] + b[i]);
  }
  // The wrapped tensor reads the caller's memory, no copy.
  EXPECT_EQ(inputs[0].data<float>().data(), a);
}

TEST(InferHpp, SessionWritesInPlaceAndIntoBoundMemory) {
  infer::Model model = infer::Model::load(kFakeSo, "fake");
  infer::Session session(model);
  infer::Span<float> a = session.input("a").data<float>();
  infer::Span<float> b = session.input(1).data<float>();
  for (int i = 0; i < 6; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f;
  }
  session.run();
  EXPECT_EQ(session.output("sum").data<float>()[5], 5.5f);

  float result[6] = {0};
  session.bind_output("sum", result);
  float b2[6] = {100, 100, 100, 100, 100, 100};
  session.bind_input("b", b2);
  session.run();
  EXPECT_EQ(result[0], 100.0f);
  EXPECT_EQ(result[5], 105.0f);
}

TEST(InferHpp, ErrorsCarryCodeAndMessage) {
  try {
    infer::Model::load("/nonexistent/model.so");
    FAIL() << "no exception";
  } catch (const infer::Error &e) {
    EXPECT_EQ(e.code(), INFER_NOT_FOUND);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.so"),
              std::string::npos);
  }
  infer::Model model = infer::Model::load(kFakeSo, "fake");
  std::vector<infer::Tensor> inputs;
  inputs.push_back(infer::Tensor::zeros(INFER_DTYPE_F32, {2, 3}));
  inputs.push_back(infer::Tensor::zeros(INFER_DTYPE_F32, {3, 2}));
  try {
    model.run(inputs);
    FAIL() << "no exception";
  } catch (const infer::Error &e) {
    EXPECT_EQ(e.code(), INFER_INVALID_ARGUMENT);
    EXPECT_NE(std::string(e.what()).find("'b'"), std::string::npos);
  }
  EXPECT_THROW(model.input_index("c"), infer::Error);
  EXPECT_THROW(inputs[0].data<int64_t>(), infer::Error);
  EXPECT_THROW(infer::Tensor::zeros(INFER_DTYPE_F32, {-1}), infer::Error);
}

TEST(InferHpp, TryVariantsReturnStatus) {
  infer::Model model;
  infer::Status status = infer::Model::try_load("/nonexistent.so", model);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), INFER_NOT_FOUND);
  EXPECT_FALSE(model);
  ASSERT_TRUE(infer::Model::try_load(kFakeSo, model, "fake").ok());
  std::vector<infer::Tensor> inputs(2);
  ASSERT_TRUE(
      infer::Tensor::try_zeros(INFER_DTYPE_F32, {2, 3}, inputs[0]).ok());
  ASSERT_TRUE(
      infer::Tensor::try_zeros(INFER_DTYPE_F32, {2, 3}, inputs[1]).ok());
  std::vector<infer::Tensor> outputs;
  EXPECT_TRUE(model.try_run(inputs, outputs).ok());
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_TRUE(outputs[0]);
  inputs.pop_back();
  status = model.try_run(inputs, outputs);
  EXPECT_EQ(status.code(), INFER_INVALID_ARGUMENT);
  EXPECT_FALSE(outputs[0]); // no output on failure
}

TEST(InferHpp, DynamicModel) {
  infer::Model model = infer::Model::load(kFakeSo, "fake_rows");
  EXPECT_TRUE(model.is_dynamic());
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{-1, 3}));
  EXPECT_THROW(infer::Session session(model), infer::Error);
  float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<infer::Tensor> inputs;
  inputs.push_back(infer::Tensor::wrap(x, {3, 3}));
  std::vector<infer::Tensor> outputs = model.run(inputs);
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(outputs[0].data<float>()[2], 24.0f);
  EXPECT_EQ(outputs[1].shape(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(outputs[1].data<float>()[8], 18.0f);
}

TEST(InferHpp, HandlesMove) {
  infer::Model a = infer::Model::load(kFakeSo, "fake");
  infer::Model b = std::move(a);
  EXPECT_FALSE(a);
  EXPECT_TRUE(b);
  infer::Tensor t = infer::Tensor::zeros(INFER_DTYPE_I64, {4});
  infer::Tensor u = std::move(t);
  EXPECT_FALSE(t);
  EXPECT_EQ(u.byte_size(), 32u);
  infer_tensor_t raw = u.release();
  EXPECT_FALSE(u);
  infer_tensor_release(raw);
}

} // namespace
