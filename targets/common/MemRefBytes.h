//===- MemRefBytes.h - the bytes a statically shaped memref holds -*- C++
//-*-===//

#ifndef INFER_TARGETS_COMMON_MEMREFBYTES_H
#define INFER_TARGETS_COMMON_MEMREFBYTES_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <optional>

namespace infer::targets {

/// Bytes of the elements of `type` (whatever its layout), when its shape
/// is static and its elements are numbers of whole bytes. Booleans take a
/// byte each in memory (LLVM's store size of i1); indices are 64-bit on
/// every target infer lowers to.
inline std::optional<int64_t> memrefBytes(mlir::MemRefType type) {
  mlir::Type element = type.getElementType();
  if (!type.hasStaticShape() ||
      !mlir::isa<mlir::FloatType, mlir::IntegerType, mlir::IndexType>(
          element)) {
    return std::nullopt;
  }
  unsigned bits = mlir::isa<mlir::IndexType>(element) ? 64
                  : element.isInteger(1) ? 8
                                         : element.getIntOrFloatBitWidth();
  if (bits % 8 != 0) {
    return std::nullopt;
  }
  return type.getNumElements() * (bits / 8);
}

} // namespace infer::targets

#endif // INFER_TARGETS_COMMON_MEMREFBYTES_H
