//===- PanelRows.cpp - how a kernel's panel reads its rows of B -----------===//
//
// In place (B's innermost dim is N), packed into a per-thread buffer,
// gathered at offsets linear in the loop dims, or, for stride-1 windows,
// as runs of consecutive elements (one masked load per run), and for
// stride-2 windows as the even lanes of wide loads (one per run).
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <limits>

using namespace mlir;

namespace infer::cpu {

Value KernelBuilder::rowOf(const Rows &source, Value kv) {
  auto type = VectorType::get({source.length}, elem);
  ivs[c.nId()] = source.n0;
  ivs[c.kId()] = kv;
  if (flat) {
    return wholeVectors ? loadWhole(source, kv) : loadRuns(source, kv);
  }
  if (strided) {
    return loadStrided(source, kv);
  }
  if (c.gather) {
    return gatherRow(kv, source.offsets, type, source.width);
  }
  return loadRow(rhs, rhsDims, type, columnMask(source.width, source.length));
}

SmallVector<KernelBuilder::Part>
KernelBuilder::planRuns(Value n0, int64_t width, int64_t length) {
  int64_t rowLength = c.ranges[c.nDims.back()];
  auto maskType = VectorType::get({lanes}, b.getI1Type());
  Value batch = batchOffset();
  auto columnOffset = [&](Value column) {
    return arith::AddIOp::create(
        b, loc, batch,
        linearOffset<Value>(column, c.nDims,
                            [&](int64_t v) -> Value { return index(v); }));
  };
  SmallVector<Part> parts;
  for (int64_t v = 0; v * lanes < length; ++v) {
    int64_t valid = std::min(lanes, width - v * lanes);
    Value start = arith::AddIOp::create(b, loc, n0, index(v * lanes));
    // Run r fills lanes [bound_r, bound_r+1): the rest of the output row
    // the lane at bound_r is in, or up to the last valid lane.
    Part part;
    Value bound = index(0);
    Value before =
        vector::ConstantMaskOp::create(b, loc, maskType, ArrayRef<int64_t>{0});
    for (int64_t r = 0; r < runsPerVector; ++r) {
      Value column = arith::AddIOp::create(b, loc, start, bound);
      Value next = runEnd(b, loc, bound, column, rowLength, valid);
      Value upTo = vector::CreateMaskOp::create(b, loc, maskType, next);
      part.offsets.push_back(
          columnOffset(arith::MinSIOp::create(b, loc, column, index(c.n - 1))));
      part.masks.push_back(arith::XOrIOp::create(b, loc, upTo, before));
      part.firstLanes.push_back(bound);
      if (stridedRuns) {
        // Elements 2 * bound .. 2 * next - 2 of the wide load (none for
        // an empty run).
        auto wideType = VectorType::get({2 * lanes}, b.getI1Type());
        Value from = arith::MulIOp::create(b, loc, bound, index(2));
        Value to = arith::MaxSIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc,
                                  arith::MulIOp::create(b, loc, next, index(2)),
                                  index(1)),
            from);
        part.wideMasks.push_back(arith::XOrIOp::create(
            b, loc, vector::CreateMaskOp::create(b, loc, wideType, to),
            vector::CreateMaskOp::create(b, loc, wideType, from)));
      }
      before = upTo;
      bound = next;
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

Value KernelBuilder::assembleRuns(
    const Rows &source, Value kv, int64_t stride,
    function_ref<Value(Value address, const Part &part, size_t r, Value value)>
        load) {
  auto type = VectorType::get({lanes}, elem);
  auto rowType = VectorType::get({source.length}, elem);
  Value row = kOffset(kv);
  Value result = arith::ConstantOp::create(
      b, loc, rowType, cast<DenseElementsAttr>(b.getZeroAttr(rowType)));
  for (auto [v, part] : llvm::enumerate(source.parts)) {
    Value value = arith::ConstantOp::create(
        b, loc, type, cast<DenseElementsAttr>(b.getZeroAttr(type)));
    for (auto [r, offset] : llvm::enumerate(part.offsets)) {
      Value first = part.firstLanes[r];
      if (stride != 1) {
        first = arith::MulIOp::create(b, loc, first, index(stride));
      }
      Value address = arith::SubIOp::create(
          b, loc, arith::AddIOp::create(b, loc, row, offset), first);
      value = load(address, part, r, value);
    }
    result = vector::InsertStridedSliceOp::create(
        b, loc, value, result, ArrayRef<int64_t>{int64_t(v) * lanes},
        ArrayRef<int64_t>{1});
  }
  return result;
}

Value KernelBuilder::loadRuns(const Rows &source, Value kv) {
  auto type = VectorType::get({lanes}, elem);
  // Each run is one masked load into its lanes: lane i of run r reads
  // element offset_r + (i - first_r), so the load starts first_r elements
  // before the run. That address is never before the buffer: run r starts
  // r output rows in, at least r input rows (each as long as an output
  // row) from the start, and first_r <= r * row length. (An expanding load
  // would do it too, but AVX2 has none: LLVM makes it a branch per lane.)
  return assembleRuns(
      source, kv, 1,
      [&](Value address, const Part &part, size_t r, Value value) -> Value {
        // Of a named Value: over a temporary, or in braces (a list that
        // dies with the statement), the range would dangle.
        ValueRange at(address);
        return vector::MaskedLoadOp::create(b, loc, type, flat, at,
                                            part.masks[r], value);
      });
}

Value KernelBuilder::assembleVectors(
    const Rows &source, Value kv,
    function_ref<Value(Value address, int64_t valid)> load) {
  auto rowType = VectorType::get({source.length}, elem);
  auto index = [&](int64_t v) -> Value { return this->index(v); };
  Value result = arith::ConstantOp::create(
      b, loc, rowType, cast<DenseElementsAttr>(b.getZeroAttr(rowType)));
  Value row = arith::AddIOp::create(b, loc, batchOffset(), kOffset(kv));
  for (int64_t v = 0; v * lanes < source.width; ++v) {
    Value column =
        arith::AddIOp::create(b, loc, source.n0, this->index(v * lanes));
    Value address = arith::AddIOp::create(
        b, loc, row, linearOffset<Value>(column, c.nDims, index));
    Value lanesOf = load(address, std::min(lanes, source.width - v * lanes));
    result = vector::InsertStridedSliceOp::create(b, loc, lanesOf, result,
                                                  ArrayRef<int64_t>{v * lanes},
                                                  ArrayRef<int64_t>{1});
  }
  return result;
}

Value KernelBuilder::loadWhole(const Rows &source, Value kv) {
  auto type = VectorType::get({lanes}, elem);
  Value zero = arith::ConstantOp::create(
      b, loc, type, cast<DenseElementsAttr>(b.getZeroAttr(type)));
  return assembleVectors(source, kv, [&](Value address, int64_t valid) {
    ValueRange at(address);
    if (valid == lanes) {
      return vector::LoadOp::create(b, loc, type, flat, at).getResult();
    }
    // Only the valid lanes' elements: the next ones may be past B.
    Value mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({lanes}, b.getI1Type()),
        ArrayRef<int64_t>{valid});
    return vector::MaskedLoadOp::create(b, loc, type, flat, at, mask, zero)
        .getResult();
  });
}

Value KernelBuilder::loadStrided(const Rows &source, Value kv) {
  auto wide = VectorType::get({2 * lanes}, elem);
  Value zero = arith::ConstantOp::create(
      b, loc, wide, cast<DenseElementsAttr>(b.getZeroAttr(wide)));
  SmallVector<int64_t> even;
  for (int64_t l = 0; l < lanes; ++l) {
    even.push_back(2 * l);
  }
  if (stridedRuns) {
    // Lane i of run r reads element offset_r + 2 * (i - first_r): the even
    // lanes of a wide load starting 2 * first_r elements before the run
    // (never before the buffer: offset_r >= 2 * its column >= 2 * first_r
    // for a stride-2 window, whose input rows are at least 2 * OW - 1
    // long), masked to the run's elements.
    return assembleRuns(
        source, kv, 2,
        [&](Value address, const Part &part, size_t r, Value value) -> Value {
          ValueRange at(address);
          Value pairs = vector::MaskedLoadOp::create(b, loc, wide, strided, at,
                                                     part.wideMasks[r], zero);
          Value evens = vector::ShuffleOp::create(b, loc, pairs, pairs, even);
          return arith::SelectOp::create(b, loc, part.masks[r], evens, value);
        });
  }
  return assembleVectors(source, kv, [&](Value address, int64_t valid) {
    // The last element a vector needs is 2 * (valid lanes - 1) after its
    // first (a partial last vector reads no further: B may end there).
    Value mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({2 * lanes}, b.getI1Type()),
        ArrayRef<int64_t>{2 * valid - 1});
    Value pairs = vector::MaskedLoadOp::create(b, loc, wide, strided,
                                               ValueRange(address), mask, zero);
    return vector::ShuffleOp::create(b, loc, pairs, pairs, even).getResult();
  });
}

Value KernelBuilder::stridedView() {
  if (!c.gather) {
    return {};
  }
  int64_t innermost = c.nDims.back();
  if (c.coefficients[innermost] != 2) {
    return {};
  }
  if (c.nDims.size() > 1 && c.ranges[innermost] % lanes) {
    // Up to 4 runs per vector (output rows of at least lanes / 3).
    runsPerVector = llvm::divideCeil(lanes - 1, c.ranges[innermost]) + 1;
    if (runsPerVector > 4) {
      return {};
    }
    stridedRuns = true;
  }
  return flatView(b, loc, rhs);
}

Value KernelBuilder::kOffset(Value kv, int64_t ahead) {
  // Tables up to 64 Ki entries (256 KiB); resnet18's largest K is 4608.
  constexpr int64_t kMaxTable = int64_t(1) << 16;
  assert(ahead >= 0 && ahead <= kBPrefetchSteps && "row too far ahead");
  auto constant = [&](int64_t v) -> Value { return index(v); };
  auto computed = [&] {
    Value row = kv;
    if (ahead) {
      row = arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, kv, index(ahead)),
          index(c.k - 1));
    }
    return linearOffset<Value>(row, c.kDims, constant);
  };
  // A constant kv (an unrolled short reduction: a depthwise 3x3 window)
  // folds to a constant offset.
  if (c.kDims.size() < 2 || ShapedType::isDynamic(c.k) || c.k > kMaxTable ||
      getConstantIntValue(kv)) {
    return computed();
  }
  if (!kOffsets) {
    SmallVector<int32_t> offsets;
    for (int64_t k = 0; k < c.k; ++k) {
      int64_t offset = constantOffset(k, c.kDims);
      if (offset < 0 || offset > std::numeric_limits<int32_t>::max()) {
        return computed();
      }
      offsets.push_back(int32_t(offset));
    }
    // Rows past the last, for prefetches ahead: the last again.
    offsets.append(kBPrefetchSteps, offsets.back());
    int64_t entries = c.k + kBPrefetchSteps;
    auto tensorType = RankedTensorType::get({entries}, b.getI32Type());
    auto value = DenseElementsAttr::get(tensorType, ArrayRef(offsets));
    auto type = MemRefType::get({entries}, b.getI32Type());
    // One global per distinct table (attributes are uniqued: equal tables
    // are the same attribute).
    auto module = c.op->getParentOfType<ModuleOp>();
    memref::GlobalOp global;
    for (auto candidate : module.getOps<memref::GlobalOp>()) {
      if (candidate.getConstant() && candidate.getType() == type &&
          candidate.getInitialValue() == Attribute(value)) {
        global = candidate;
        break;
      }
    }
    if (!global) {
      SymbolTable symbols(module);
      OpBuilder detached(b.getContext());
      global = memref::GlobalOp::create(
          detached, loc, "__infer_k_offsets", b.getStringAttr("private"), type,
          value, /*constant=*/true, /*alignment=*/nullptr);
      symbols.insert(global, module.getBody()->begin());
    }
    OpBuilder::InsertionGuard guard(b);
    auto func = c.op->getParentOfType<FunctionOpInterface>();
    b.setInsertionPointToStart(&func.getFunctionBody().front());
    kOffsets = memref::GetGlobalOp::create(b, loc, type, global.getSymName());
  }
  Value row = ahead ? arith::AddIOp::create(b, loc, kv, index(ahead)) : kv;
  Value offset = memref::LoadOp::create(b, loc, kOffsets, ValueRange{row});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), offset);
}

Value KernelBuilder::batchOffset() {
  Value batch = index(0);
  for (unsigned d : c.batch) {
    batch = arith::AddIOp::create(
        b, loc, batch,
        arith::MulIOp::create(b, loc, ivs[d], index(c.coefficients[d])));
  }
  return batch;
}

Value KernelBuilder::runsView() {
  if (!c.gather) {
    return {};
  }
  int64_t innermost = c.nDims.back();
  if (c.coefficients[innermost] != 1) {
    return {};
  }
  // One output row (rowsAsBatch), or rows of whole vectors: no vector of
  // a panel crosses a row.
  wholeVectors = c.nDims.size() == 1 || c.ranges[innermost] % lanes == 0;
  // Else up to 4 runs per vector (output rows of at least lanes / 3).
  runsPerVector = llvm::divideCeil(lanes - 1, c.ranges[innermost]) + 1;
  if (!wholeVectors && runsPerVector > 4) {
    return {};
  }
  return flatView(b, loc, rhs);
}

Value KernelBuilder::columnOffsets(Value n0, int64_t length) {
  auto type = VectorType::get({length}, b.getI32Type());
  auto splat = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getI32IntegerAttr(v)));
  };
  Value start = arith::IndexCastOp::create(b, loc, b.getI32Type(), n0);
  SmallVector<int32_t> lanes(length);
  std::iota(lanes.begin(), lanes.end(), 0);
  Value columns = arith::AddIOp::create(
      b, loc, vector::BroadcastOp::create(b, loc, type, start),
      arith::ConstantOp::create(b, loc, type,
                                DenseElementsAttr::get(type, ArrayRef(lanes))));
  Value offsets = linearOffset<Value>(columns, c.nDims, splat);
  Value batch =
      arith::IndexCastOp::create(b, loc, b.getI32Type(), batchOffset());
  return arith::AddIOp::create(
      b, loc, offsets, vector::BroadcastOp::create(b, loc, type, batch));
}

Value KernelBuilder::gatherRow(Value kv, Value columns, VectorType type,
                               int64_t width) {
  Value row = arith::IndexCastOp::create(b, loc, b.getI32Type(), kOffset(kv));
  Value offsets = arith::AddIOp::create(
      b, loc, columns,
      vector::BroadcastOp::create(b, loc, columns.getType(), row));
  int64_t length = type.getNumElements();
  Value mask = vector::ConstantMaskOp::create(
      b, loc, VectorType::get({length}, b.getI1Type()),
      ArrayRef<int64_t>{std::min(width, length)});
  Value zero = arith::ConstantOp::create(
      b, loc, type, cast<DenseElementsAttr>(b.getZeroAttr(type)));
  auto rank = cast<MemRefType>(rhs.getType()).getRank();
  SmallVector<Value> origin(rank, index(0));
  return vector::GatherOp::create(b, loc, type, rhs, origin, offsets, mask,
                                  zero);
}

Value KernelBuilder::packBuffer(bool inParallel) {
  if (groupPack) {
    return groupPack;
  }
  auto type = MemRefType::get({kBlock, panelWidth}, elem);
  if (inParallel) {
    return stackBuffer(type, true);
  }
  if (!shared) {
    shared = stackBuffer(type, false);
  }
  return shared;
}

Value KernelBuilder::stackBuffer(MemRefType type, bool here) {
  OpBuilder::InsertionGuard guard(b);
  if (!here) {
    auto func = c.op->getParentOfType<FunctionOpInterface>();
    b.setInsertionPointToStart(&func.getFunctionBody().front());
  }
  return memref::AllocaOp::create(b, loc, type);
}

Value KernelBuilder::columnMask(int64_t width, int64_t length) {
  if (tailMask) {
    return tailMask;
  }
  if (width >= length) {
    return {};
  }
  return vector::ConstantMaskOp::create(
      b, loc, VectorType::get({length}, b.getI1Type()),
      ArrayRef<int64_t>{width});
}

Value KernelBuilder::loadRow(Value memref, ArrayRef<int> dims, VectorType type,
                             Value mask) {
  SmallVector<Value> at = indices(dims);
  if (!mask) {
    return vector::LoadOp::create(b, loc, type, memref, at);
  }
  Value zero = arith::ConstantOp::create(
      b, loc, type, cast<DenseElementsAttr>(b.getZeroAttr(type)));
  return vector::MaskedLoadOp::create(b, loc, type, memref, at, mask, zero);
}

} // namespace infer::cpu
