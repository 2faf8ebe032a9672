//===- Elements.h - reading and writing single tensor elements ----*- C++
//-*-===//
//
// Conversions between float and the 16-bit float formats, and typed access to
// one element of a dense buffer, for comparing and generating tensors.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_COMMON_ELEMENTS_H
#define INFER_TOOLS_COMMON_ELEMENTS_H

#include "infer/abi.h"

#include <cstddef>
#include <cstdint>

namespace infer::tools {

/// IEEE binary16 bits <-> float (round to nearest even, NaN kept NaN).
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);

/// bfloat16 bits <-> float (round to nearest even, NaN kept NaN).
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBfloat16(float value);

/// True for float16, bfloat16, float32 and float64.
bool isFloatDtype(infer_dtype_t dtype);

/// True for the unsigned integer dtypes (and bool).
bool isUnsignedDtype(infer_dtype_t dtype);

/// Element `index` of a float-typed buffer, widened to double.
double floatElement(infer_dtype_t dtype, const void *data, size_t index);

/// Element `index` of an integer or bool buffer, as int64 (unsigned values
/// above INT64_MAX are not representable; use unsignedElement for those).
int64_t signedElement(infer_dtype_t dtype, const void *data, size_t index);
uint64_t unsignedElement(infer_dtype_t dtype, const void *data, size_t index);

/// Stores `value` (a float, rounded for 16-bit formats) at `index`.
void setFloatElement(infer_dtype_t dtype, void *data, size_t index,
                     double value);
/// Stores `value` (truncated to the element width) at `index`.
void setIntegerElement(infer_dtype_t dtype, void *data, size_t index,
                       uint64_t value);

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_ELEMENTS_H
