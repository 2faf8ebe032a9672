//===- Elements.cpp - reading and writing single tensor elements ----------===//

#include "tools/common/Elements.h"

#include <cmath>
#include <cstring>

namespace infer::tools {

namespace {

template <typename T>
T load(const void *data, size_t index) {
  T value;
  std::memcpy(&value, static_cast<const char *>(data) + index * sizeof(T),
              sizeof(T));
  return value;
}

template <typename T>
void store(void *data, size_t index, T value) {
  std::memcpy(static_cast<char *>(data) + index * sizeof(T), &value, sizeof(T));
}

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

} // namespace

float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) { // inf / NaN
    return bitsToFloat(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent == 0) { // zero / subnormal: mantissa * 2^-24
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if (std::isnan(value)) {
    return sign | 0x7e00u;
  }
  float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) { // rounds to infinity
    return sign | 0x7c00u;
  }
  if (magnitude < 6.103515625e-05f) { // subnormal: round(m / 2^-24)
    float scaled = magnitude * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  uint32_t magnitudeBits = floatBits(magnitude);
  // Rebias the exponent (127 -> 15) and round the 13 dropped bits to even.
  uint32_t rounded = magnitudeBits + 0xfffu + ((magnitudeBits >> 13) & 1u);
  return sign | static_cast<uint16_t>((rounded >> 13) - (112u << 10));
}

float bfloat16ToFloat(uint16_t bits) {
  return bitsToFloat(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBfloat16(float value) {
  uint32_t bits = floatBits(value);
  if (std::isnan(value)) {
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  }
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

bool isFloatDtype(infer_dtype_t dtype) {
  return dtype == INFER_DTYPE_F16 || dtype == INFER_DTYPE_BF16 ||
         dtype == INFER_DTYPE_F32 || dtype == INFER_DTYPE_F64;
}

bool isUnsignedDtype(infer_dtype_t dtype) {
  return dtype == INFER_DTYPE_U8 || dtype == INFER_DTYPE_U16 ||
         dtype == INFER_DTYPE_U32 || dtype == INFER_DTYPE_U64 ||
         dtype == INFER_DTYPE_BOOL;
}

double floatElement(infer_dtype_t dtype, const void *data, size_t index) {
  switch (dtype) {
  case INFER_DTYPE_F16:
    return halfToFloat(load<uint16_t>(data, index));
  case INFER_DTYPE_BF16:
    return bfloat16ToFloat(load<uint16_t>(data, index));
  case INFER_DTYPE_F32:
    return load<float>(data, index);
  case INFER_DTYPE_F64:
    return load<double>(data, index);
  default:
    return static_cast<double>(signedElement(dtype, data, index));
  }
}

int64_t signedElement(infer_dtype_t dtype, const void *data, size_t index) {
  switch (dtype) {
  case INFER_DTYPE_I8:
    return load<int8_t>(data, index);
  case INFER_DTYPE_I16:
    return load<int16_t>(data, index);
  case INFER_DTYPE_I32:
    return load<int32_t>(data, index);
  case INFER_DTYPE_I64:
    return load<int64_t>(data, index);
  default:
    return static_cast<int64_t>(unsignedElement(dtype, data, index));
  }
}

uint64_t unsignedElement(infer_dtype_t dtype, const void *data, size_t index) {
  switch (dtype) {
  case INFER_DTYPE_U8:
  case INFER_DTYPE_BOOL:
    return load<uint8_t>(data, index);
  case INFER_DTYPE_U16:
  case INFER_DTYPE_F16:
  case INFER_DTYPE_BF16:
    return load<uint16_t>(data, index);
  case INFER_DTYPE_U32:
    return load<uint32_t>(data, index);
  case INFER_DTYPE_U64:
    return load<uint64_t>(data, index);
  case INFER_DTYPE_I8:
  case INFER_DTYPE_I16:
  case INFER_DTYPE_I32:
  case INFER_DTYPE_I64:
    return static_cast<uint64_t>(signedElement(dtype, data, index));
  default:
    return 0;
  }
}

void setFloatElement(infer_dtype_t dtype, void *data, size_t index,
                     double value) {
  switch (dtype) {
  case INFER_DTYPE_F16:
    store(data, index, floatToHalf(static_cast<float>(value)));
    return;
  case INFER_DTYPE_BF16:
    store(data, index, floatToBfloat16(static_cast<float>(value)));
    return;
  case INFER_DTYPE_F32:
    store(data, index, static_cast<float>(value));
    return;
  case INFER_DTYPE_F64:
    store(data, index, value);
    return;
  default:
    setIntegerElement(dtype, data, index, static_cast<uint64_t>(value));
  }
}

void setIntegerElement(infer_dtype_t dtype, void *data, size_t index,
                       uint64_t value) {
  switch (dtype) {
  case INFER_DTYPE_U8:
  case INFER_DTYPE_I8:
    store(data, index, static_cast<uint8_t>(value));
    return;
  case INFER_DTYPE_BOOL:
    store(data, index, static_cast<uint8_t>(value != 0));
    return;
  case INFER_DTYPE_U16:
  case INFER_DTYPE_I16:
  case INFER_DTYPE_F16:
  case INFER_DTYPE_BF16:
    store(data, index, static_cast<uint16_t>(value));
    return;
  case INFER_DTYPE_U32:
  case INFER_DTYPE_I32:
  case INFER_DTYPE_F32:
    store(data, index, static_cast<uint32_t>(value));
    return;
  default:
    store(data, index, value);
  }
}

} // namespace infer::tools
