//===- tools_common_test.cpp - units of the runtime tools' library --------===//
//
// Comparison semantics (tolerances, NaN, infinities, exact integers), the
// 16-bit float conversions, and .npy round trips.
//
//===----------------------------------------------------------------------===//

#include "tools/common/Compare.h"
#include "tools/common/Elements.h"
#include "tools/common/TensorFile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace infer::tools;

namespace {

Tensor floats(std::vector<float> values) {
  Tensor tensor =
      makeTensor(INFER_DTYPE_F32, {static_cast<int64_t>(values.size())});
  std::memcpy(infer_tensor_data(tensor.get()), values.data(),
              values.size() * sizeof(float));
  return tensor;
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(Tolerance, TableHasTheStatedDefaults) {
  EXPECT_EQ(defaultTolerance(INFER_DTYPE_F32).rtol, 1e-3);
  EXPECT_EQ(defaultTolerance(INFER_DTYPE_F32).atol, 1e-5);
  EXPECT_EQ(defaultTolerance(INFER_DTYPE_F16).rtol, 1e-2);
  EXPECT_EQ(defaultTolerance(INFER_DTYPE_BF16).atol, 1e-3);
  EXPECT_EQ(defaultTolerance(INFER_DTYPE_F64).rtol, 1e-7);
  EXPECT_EQ(defaultTolerance(INFER_DTYPE_I64).rtol, 0.0);
  EXPECT_EQ(defaultTolerance(INFER_DTYPE_BOOL).atol, 0.0);
}

TEST(Compare, AllcloseBoundary) {
  Tolerance tolerance{1e-3, 1e-5};
  // |1.0009 - 1| = 9e-4 <= 1e-5 + 1e-3 * 1: passes.
  Comparison close =
      compareTensors(floats({1.0009f}).get(), floats({1.0f}).get(), tolerance);
  EXPECT_TRUE(close.pass);
  EXPECT_NEAR(close.maxAbsError, 9e-4, 1e-7);
  EXPECT_NEAR(close.maxRelError, 9e-4, 1e-7);
  // 2e-3 off: fails, and the report points at element 1.
  Comparison far = compareTensors(floats({0.0f, 1.002f}).get(),
                                  floats({0.0f, 1.0f}).get(), tolerance);
  EXPECT_FALSE(far.pass);
  EXPECT_EQ(far.mismatches, 1u);
  EXPECT_EQ(far.firstMismatch, 1u);
  // Near zero only atol counts.
  EXPECT_FALSE(
      compareTensors(floats({2e-5f}).get(), floats({0.0f}).get(), tolerance)
          .pass);
}

TEST(Compare, NaNAndInfinities) {
  Tolerance loose{1.0, 1.0};
  EXPECT_TRUE(
      compareTensors(floats({kNaN}).get(), floats({kNaN}).get(), loose).pass);
  EXPECT_FALSE(
      compareTensors(floats({kNaN}).get(), floats({0.0f}).get(), loose).pass);
  EXPECT_FALSE(
      compareTensors(floats({0.0f}).get(), floats({kNaN}).get(), loose).pass);
  EXPECT_TRUE(
      compareTensors(floats({kInf}).get(), floats({kInf}).get(), loose).pass);
  EXPECT_FALSE(
      compareTensors(floats({-kInf}).get(), floats({kInf}).get(), loose).pass);
  EXPECT_FALSE(
      compareTensors(floats({1e30f}).get(), floats({kInf}).get(), loose).pass);
}

TEST(Compare, IntegersAreExact) {
  Tensor got = makeTensor(INFER_DTYPE_I64, {2});
  Tensor expected = makeTensor(INFER_DTYPE_I64, {2});
  auto *g = static_cast<int64_t *>(infer_tensor_data(got.get()));
  auto *e = static_cast<int64_t *>(infer_tensor_data(expected.get()));
  g[0] = e[0] = INT64_MAX;
  g[1] = 5;
  e[1] = 6;
  Comparison result = compareTensors(got.get(), expected.get(), {1.0, 1.0});
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.mismatches, 1u);
  EXPECT_EQ(result.firstGot, "5");
  EXPECT_EQ(result.firstExpected, "6");
  g[1] = 6;
  EXPECT_TRUE(compareTensors(got.get(), expected.get(), {}).pass);
  // INT64_MAX and INT64_MAX - 1 are one double apart only by luck; integers
  // compare in their own type.
  g[0] = INT64_MAX - 1;
  EXPECT_FALSE(compareTensors(got.get(), expected.get(), {}).pass);
}

TEST(Compare, ShapeOrDtypeMismatchIsReported) {
  Comparison result =
      compareTensors(floats({1, 2}).get(), floats({1, 2, 3}).get(), {});
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.incompatible, "expected float32 [3], got float32 [2]");
  Tensor matrix = makeTensor(INFER_DTYPE_F32, {2, 3});
  EXPECT_EQ(formatIndex(matrix.get(), 5), "[1,2]");
}

TEST(Elements, HalfConversions) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(1e6f), 0x7c00);
  EXPECT_EQ(floatToHalf(5.9604645e-08f), 0x0001);     // smallest subnormal
  EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), 0x3c00); // ties to even
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(kNaN))));
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), 5.9604645e-08f);
  EXPECT_EQ(halfToFloat(0xfc00), -kInf);
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) { // every finite positive
    ASSERT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(bits))), bits);
  }
  EXPECT_EQ(floatToBfloat16(1.0f), 0x3f80);
  EXPECT_EQ(bfloat16ToFloat(0xc040), -3.0f);
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(floatToBfloat16(kNaN))));
}

TEST(TensorFile, NpyRoundTrip) {
  std::string path = ::testing::TempDir() + "infer_tools_roundtrip.npy";
  Tensor tensor = makeTensor(INFER_DTYPE_I16, {2, 1, 3});
  auto *data = static_cast<int16_t *>(infer_tensor_data(tensor.get()));
  for (int i = 0; i < 6; ++i) {
    data[i] = static_cast<int16_t>(i * 1000 - 2500);
  }
  writeNpy(path, tensor.get());
  NamedTensor back = readNpy(path);
  EXPECT_EQ(infer_tensor_dtype(back.tensor.get()), INFER_DTYPE_I16);
  EXPECT_EQ(formatShape(back.tensor.get()), "[2,1,3]");
  EXPECT_EQ(std::memcmp(infer_tensor_data(back.tensor.get()), data, 12), 0);

  Tensor scalar = makeTensor(INFER_DTYPE_BOOL, {});
  writeNpy(path, scalar.get());
  EXPECT_EQ(infer_tensor_rank(readNpy(path).tensor.get()), 0);
  std::remove(path.c_str());

  EXPECT_THROW(readNpy(path), ToolError);
  EXPECT_THROW(readTensorFile("x.txt"), ToolError);
}

} // namespace
