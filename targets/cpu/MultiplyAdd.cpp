//===- MultiplyAdd.cpp - a register tile's step ---------------------------===//
//
// acc += broadcast(A) * row of B. For f32 one vector FMA. For i32 values
// packing four 8-bit lanes (passes/lowering/ByteDot.h), the sum of the four
// lanes' products: `vpdpbusd` computes it for 16 (zmm) or 8 (ymm) values
// at once when the target has AVX-512 VNNI or AVX-VNNI, its first
// multiplicand's lanes unsigned and the second's signed, the sum in 32 bits
// without saturation: exactly the body's arithmetic. Without VNNI, AVX2's
// vpmaddwd takes the lanes as 16-bit halves: the even lanes (0 and 2 of
// each value, extended to 16 bits) and the odd ones, two multiply-adds of
// pairs into 32 bits, exact (vpmaddubsw would saturate the pairs' sums).
// Operands both signed or both unsigned, and targets without AVX2, compute
// the lanes' products one by one (exact, slower).
//
// For i32 values packing two bfloat16 lanes into an f32 sum (PairDot.h),
// `vdpbf16ps` with AVX512-BF16 (16 or 8 sums a register); without it, the
// lanes widened to f32 by a shift or a mask and two FMAs, which round as
// the body does.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/KernelBuilder.h"

#include "passes/lowering/PairDot.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace infer::cpu {

namespace {

/// Each value of `v` with lane `j` extended to i32.
Value laneOf(OpBuilder &b, Location loc, Value v, int j, bool isUnsigned) {
  auto type = cast<VectorType>(v.getType());
  if (j > 0) {
    Value shift = arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(type, b.getI32IntegerAttr(8 * j).getValue()));
    v = arith::ShRUIOp::create(b, loc, v, shift);
  }
  Value lane = arith::TruncIOp::create(b, loc, type.clone(b.getI8Type()), v);
  return isUnsigned ? arith::ExtUIOp::create(b, loc, type, lane).getResult()
                    : arith::ExtSIOp::create(b, loc, type, lane).getResult();
}

/// The even (`odd` false) or odd 8-bit lanes of each i32 of `v` as 16-bit
/// values, two per i32: <2N x i16>.
Value halves(OpBuilder &b, Location loc, Value v, bool odd, bool isUnsigned) {
  auto type = cast<VectorType>(v.getType());
  auto words = VectorType::get({2 * type.getNumElements()}, b.getI16Type());
  Value eight = arith::ConstantOp::create(
      b, loc, words,
      DenseElementsAttr::get(words, b.getI16IntegerAttr(8).getValue()));
  Value w = vector::BitCastOp::create(b, loc, words, v);
  if (!odd) {
    w = arith::ShLIOp::create(b, loc, w, eight);
  }
  return isUnsigned ? arith::ShRUIOp::create(b, loc, w, eight).getResult()
                    : arith::ShRSIOp::create(b, loc, w, eight).getResult();
}

/// `step(slice)` on each piece of `width` values of the accumulators
/// `acc` (the same piece of any operand through `slice`), put back
/// together: one instruction per register.
Value byPieces(OpBuilder &b, Location loc, Value acc, int64_t width,
               function_ref<Value(function_ref<Value(Value)>)> step) {
  int64_t length = cast<VectorType>(acc.getType()).getNumElements();
  Value result = acc;
  for (int64_t p = 0; p < length / width; ++p) {
    auto slice = [&](Value v) -> Value {
      if (length == width) {
        return v;
      }
      return vector::ExtractStridedSliceOp::create(
          b, loc, v, ArrayRef<int64_t>{p * width}, ArrayRef<int64_t>{width},
          ArrayRef<int64_t>{1});
    };
    Value sum = step(slice);
    result = length == width
                 ? sum
                 : vector::InsertStridedSliceOp::create(
                       b, loc, sum, result, ArrayRef<int64_t>{p * width},
                       ArrayRef<int64_t>{1})
                       .getResult();
  }
  return result;
}

/// Values per register of the widest dot instruction that divides
/// `length` (512 or 256 bits, at most `bits`); 0 when none does.
int64_t dotWidth(int64_t length, unsigned bits) {
  for (int64_t candidate : {512, 256}) {
    if (candidate <= int64_t(bits) && length % (candidate / 32) == 0) {
      return candidate / 32;
    }
  }
  return 0;
}

} // namespace

Value KernelBuilder::multiplyAdd(Value a, Value row, Value acc) {
  if (c.accElement) {
    return pairDot(a, row, acc);
  }
  if (!c.byteDot) {
    return vector::FMAOp::create(b, loc, a, row, acc);
  }
  auto type = cast<VectorType>(acc.getType());
  int64_t length = type.getNumElements();
  bool aUnsigned = c.byteDot->aUnsigned, bUnsigned = c.byteDot->bUnsigned;
  // vpdpbusd's unsigned multiplicand first.
  Value first = bUnsigned ? row : a, second = bUnsigned ? a : row;
  int64_t width = dotWidth(length, byteDotBits);
  if (aUnsigned != bUnsigned && width == 0 && wordDot && length % 8 == 0) {
    // vpmaddwd on ymm, 8 values per piece.
    auto piece = VectorType::get({8}, b.getI32Type());
    StringAttr pmadd = b.getStringAttr("llvm.x86.avx2.pmadd.wd");
    return byPieces(b, loc, acc, 8, [&](function_ref<Value(Value)> slice) {
      Value sum = slice(acc);
      for (bool odd : {false, true}) {
        Value pairs =
            LLVM::CallIntrinsicOp::create(
                b, loc, piece, pmadd,
                ValueRange{halves(b, loc, slice(a), odd, aUnsigned),
                           halves(b, loc, slice(row), odd, bUnsigned)})
                .getResult(0);
        sum = arith::AddIOp::create(b, loc, sum, pairs);
      }
      return sum;
    });
  }
  if (aUnsigned == bUnsigned || width == 0) {
    Value sum = acc;
    for (int j = 0; j < 4; ++j) {
      sum = arith::AddIOp::create(
          b, loc, sum,
          arith::MulIOp::create(b, loc, laneOf(b, loc, a, j, aUnsigned),
                                laneOf(b, loc, row, j, bUnsigned)));
    }
    return sum;
  }
  auto piece = VectorType::get({width}, b.getI32Type());
  auto bytes = VectorType::get({4 * width}, b.getI8Type());
  StringAttr intrinsic =
      b.getStringAttr(width == 16 ? "llvm.x86.avx512.vpdpbusd.512"
                                  : "llvm.x86.avx512.vpdpbusd.256");
  return byPieces(b, loc, acc, width, [&](function_ref<Value(Value)> slice) {
    return LLVM::CallIntrinsicOp::create(
               b, loc, piece, intrinsic,
               ValueRange{
                   slice(acc),
                   vector::BitCastOp::create(b, loc, bytes, slice(first)),
                   vector::BitCastOp::create(b, loc, bytes, slice(second))})
        .getResult(0);
  });
}

Value KernelBuilder::pairDot(Value a, Value row, Value acc) {
  auto type = cast<VectorType>(acc.getType());
  int64_t length = type.getNumElements();
  int64_t width = dotWidth(length, bf16DotBits);
  if (width == 0) {
    // Lane 1's product, then lane 0's: the body's order, each an FMA (the
    // products are exact in f32, so fusing rounds the same).
    auto lanesOf = [&](Value v, bool high) -> Value {
      auto ints = cast<VectorType>(v.getType());
      Value bits =
          high ? arith::AndIOp::create(
                     b, loc, v,
                     arith::ConstantOp::create(
                         b, loc, ints,
                         DenseElementsAttr::get(
                             ints, b.getI32IntegerAttr(lowering::kHighLaneMask)
                                       .getValue())))
                     .getResult()
               : arith::ShLIOp::create(
                     b, loc, v,
                     arith::ConstantOp::create(
                         b, loc, ints,
                         DenseElementsAttr::get(
                             ints, b.getI32IntegerAttr(16).getValue())))
                     .getResult();
      return vector::BitCastOp::create(b, loc, type, bits);
    };
    Value sum = acc;
    for (bool high : {true, false}) {
      Value x = lanesOf(a, high);
      Value y = lanesOf(row, high);
      sum = vector::FMAOp::create(b, loc, x, y, sum);
    }
    return sum;
  }
  auto piece = VectorType::get({width}, b.getF32Type());
  auto halves = VectorType::get({2 * width}, b.getBF16Type());
  StringAttr intrinsic =
      b.getStringAttr(width == 16 ? "llvm.x86.avx512bf16.dpbf16ps.512"
                                  : "llvm.x86.avx512bf16.dpbf16ps.256");
  return byPieces(b, loc, acc, width, [&](function_ref<Value(Value)> slice) {
    return LLVM::CallIntrinsicOp::create(
               b, loc, piece, intrinsic,
               ValueRange{
                   slice(acc),
                   vector::BitCastOp::create(b, loc, halves, slice(a)),
                   vector::BitCastOp::create(b, loc, halves, slice(row))})
        .getResult(0);
  });
}

} // namespace infer::cpu
