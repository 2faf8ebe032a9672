//===- Epilogue.cpp - elementwise consumers fused into a kernel's store ---===//

#include "targets/cpu/Epilogue.h"
#include "targets/cpu/BufferViews.h"
#include "targets/cpu/ContractionMatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;

namespace infer::cpu {
namespace {

/// Every user of `value` and of the views derived from it.
void collectUsers(Value value, SmallVectorImpl<Operation *> &users) {
  for (Operation *user : value.getUsers()) {
    if (isa<memref::ReshapeOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
            memref::SubViewOp>(user) &&
        user->getOperand(0) == value) {
      collectUsers(user->getResult(0), users);
    } else {
      users.push_back(user);
    }
  }
}

bool contiguous(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.hasStaticShape() && type.getLayout().isIdentity();
}

} // namespace

std::optional<Epilogue> matchEpilogue(linalg::LinalgOp op, int64_t rowLength) {
  Value c = op.getDpsInitOperand(0)->get();
  Value root = viewRoot(c);
  // (Allocations between the two, before the workspace is planned: the
  // consumer's output, or a padded buffer whose interior it writes.)
  Operation *next = op->getNextNode();
  while (next && (isViewOrConstant(next) || isa<memref::AllocOp>(next))) {
    next = next->getNextNode();
  }
  // C must be scratch (a workspace view or an allocation): a model output
  // or other caller's buffer must receive the contraction itself.
  if (!root.getDefiningOp<memref::ViewOp>() &&
      !root.getDefiningOp<memref::AllocOp>() &&
      !root.getDefiningOp<memref::AllocaOp>()) {
    return std::nullopt;
  }
  auto consumer = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!consumer || !consumer.hasPureBufferSemantics() ||
      consumer.getNumDpsInits() != 1 ||
      consumer.getNumParallelLoops() != consumer.getNumLoops() ||
      !contiguous(root)) {
    return std::nullopt;
  }
  // The body: arith and math ops on scalars.
  for (Operation &inner : consumer.getBlock()->without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) ||
        inner.getNumRegions() != 0 ||
        llvm::any_of(inner.getResultTypes(),
                     [](Type t) { return !t.isIntOrIndexOrFloat(); })) {
      return std::nullopt;
    }
  }
  Epilogue epilogue;
  epilogue.op = consumer;
  epilogue.domain = consumer.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(epilogue.domain)) {
    return std::nullopt;
  }
  // C is read by exactly one input, through an identity map over all of
  // its elements, and by nothing else.
  Storage cStorage = storageOf(c);
  int cInput = -1;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    if (storageOf(input->get()).overlaps(cStorage)) {
      if (cInput >= 0 || viewRoot(input->get()) != root ||
          !consumer.getMatchingIndexingMap(input).isIdentity() ||
          !contiguous(input->get())) {
        return std::nullopt;
      }
      cInput = input->getOperandNumber();
    }
  }
  if (cInput < 0 || cast<MemRefType>(root.getType()).getNumElements() !=
                        ShapedType::getNumElements(epilogue.domain)) {
    return std::nullopt;
  }
  epilogue.cInput = cInput;
  SmallVector<Operation *> users;
  collectUsers(root, users);
  for (Operation *user : users) {
    if (user != op.getOperation() && user != consumer.getOperation() &&
        !isa<linalg::FillOp, memref::DeallocOp>(user)) {
      return std::nullopt;
    }
  }
  // The output: in C's order, overlapping neither A nor B, of static
  // shape and strides (stored at the offsets its coefficients give: rows
  // of C in place, or split into runs over a padded buffer's interior).
  OpOperand *output = consumer.getDpsInitOperand(0);
  Storage outStorage = storageOf(output->get());
  auto outType = dyn_cast<MemRefType>(output->get().getType());
  if (!consumer.getMatchingIndexingMap(output).isIdentity() || !outType ||
      !outType.hasStaticShape()) {
    return std::nullopt;
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (storageOf(input->get()).overlaps(outStorage)) {
      return std::nullopt;
    }
  }
  if (outStorage.overlaps(cStorage) && !(outStorage == cStorage)) {
    return std::nullopt;
  }
  // The dims covering one row of C.
  int64_t size = 1;
  epilogue.split = epilogue.domain.size();
  while (epilogue.split > 0 && size < rowLength) {
    size *= epilogue.domain[--epilogue.split];
  }
  if (size != rowLength) {
    return std::nullopt;
  }
  for (OpOperand &operand : consumer->getOpOperands()) {
    Epilogue::Operand entry;
    if (operand.getOperandNumber() != unsigned(cInput)) {
      // Operands indexed by dims or broadcast (constant 0) only.
      std::optional<SmallVector<int64_t>> coefficients =
          consumer.getMatchingIndexingMap(&operand).isProjectedPermutation(
              /*allowZeroInResults=*/true)
              ? linearCoefficients(consumer, &operand)
              : std::nullopt;
      if (!coefficients) {
        return std::nullopt;
      }
      // Along a row: either constant or consecutive elements.
      bool constant = true, consecutive = true;
      int64_t expected = 1;
      for (size_t d = epilogue.domain.size(); d-- > epilogue.split;) {
        constant &= (*coefficients)[d] == 0;
        consecutive &= (*coefficients)[d] == expected;
        expected *= epilogue.domain[d];
      }
      // An operand may also be rows of unit-stride runs (each of the
      // consumer's innermost rows consecutive, the rows apart): the output
      // stored into a padded buffer's interior, or an input read from one
      // (a residual that is also a convolution's padded input).
      bool runs = !constant && !consecutive && coefficients->back() == 1;
      if (!constant && !consecutive && !runs) {
        return std::nullopt;
      }
      // Vectors of i1 are bit-packed in memory, a buffer of i1 has a byte
      // per element: only whole-byte elements load along a row.
      Type element = getElementTypeOrSelf(operand.get().getType());
      if (!constant && element.getIntOrFloatBitWidth() % 8 != 0) {
        return std::nullopt;
      }
      entry.coefficients = std::move(*coefficients);
      entry.alongRow = !constant;
      entry.runs = runs;
    }
    epilogue.operands.push_back(std::move(entry));
  }
  return epilogue;
}

SmallVector<Operation *> adoptBorderFills(Epilogue &epilogue,
                                          Operation *kernel) {
  linalg::GenericOp consumer = epilogue.op;
  OpOperand *output = consumer.getDpsInitOperand(0);
  if (!epilogue.operands[output->getOperandNumber()].runs) {
    return {};
  }
  auto interior = output->get().getDefiningOp<memref::SubViewOp>();
  std::optional<Box> box = interior ? staticBox(interior) : std::nullopt;
  Value padded = interior ? interior.getSource() : Value();
  auto type = padded ? dyn_cast<MemRefType>(padded.getType()) : MemRefType();
  if (!box || !type || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() ||
      epilogue.domain.back() != box->sizes.back()) {
    return {};
  }
  size_t d = type.getRank() - 1;
  int64_t counts[2] = {box->offsets[d],
                       type.getDimSize(d) - box->offsets[d] - box->sizes[d]};
  int64_t starts[2] = {0, box->offsets[d] + box->sizes[d]};
  // The border fills after the consumer, until anything else uses the
  // padded buffer; every fill seen must stay clear of the adopted columns
  // (a write between would otherwise be overtaken).
  SmallVector<std::pair<linalg::FillOp, Box>> fills;
  for (Operation *op = consumer->getNextNode(); op; op = op->getNextNode()) {
    if (auto slab = dyn_cast<memref::SubViewOp>(op);
        slab && slab.getSource() == padded) {
      continue;
    }
    auto fill = dyn_cast<linalg::FillOp>(op);
    auto slab = fill ? fill.getDpsInitOperand(0)
                           ->get()
                           .getDefiningOp<memref::SubViewOp>()
                     : memref::SubViewOp();
    if (slab && slab.getSource() == padded) {
      std::optional<Box> other = staticBox(slab);
      if (!other) {
        break;
      }
      fills.push_back({fill, *other});
      continue;
    }
    bool uses = false;
    op->walk([&](Operation *inner) {
      uses |= llvm::is_contained(inner->getOperands(), padded);
    });
    if (uses) {
      break;
    }
  }
  SmallVector<Operation *> adopted;
  Epilogue::Border *sides[2] = {&epilogue.left, &epilogue.right};
  for (int side = 0; side < 2; ++side) {
    if (counts[side] <= 0 || counts[side] > 4) {
      continue;
    }
    for (auto &[fill, other] : fills) {
      bool column = other.offsets.drop_back() == box->offsets.drop_back() &&
                    other.sizes.drop_back() == box->sizes.drop_back() &&
                    other.offsets[d] == starts[side] &&
                    other.sizes[d] == counts[side];
      Operation *def = fill.value().getDefiningOp();
      bool early = !def || def->getBlock() != kernel->getBlock() ||
                   def->isBeforeInBlock(kernel);
      bool clear = llvm::all_of(fills, [&](auto &entry) {
        return entry.first == fill || entry.second.disjoint(other);
      });
      if (column && early && clear && fill.value().getType().isF32()) {
        *sides[side] = {fill.value(), counts[side]};
        adopted.push_back(fill);
        break;
      }
    }
  }
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (!adopted.empty() &&
      succeeded(interior.getType().getStridesAndOffset(strides, offset)) &&
      !ShapedType::isDynamic(offset)) {
    epilogue.padded = padded;
    epilogue.interiorOffset = offset;
    return adopted;
  }
  epilogue.left = epilogue.right = {};
  return {};
}

namespace {

/// The adopted border columns beside a run of `count` lanes at `column`
/// of C's row (`offset`: its first element in the interior): the left
/// one when the run starts an output row, the right one when it ends one
/// (lanes past C's last column do not count).
void storeBorders(OpBuilder &b, Location loc, const Epilogue &epilogue,
                  Value column, Value offset, Value count, int64_t length) {
  if (!epilogue.padded) {
    return;
  }
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t width = epilogue.domain.back();
  int64_t columns = 1;
  for (size_t d = epilogue.split; d < epilogue.domain.size(); ++d) {
    columns *= epilogue.domain[d];
  }
  // Lanes of the run that are columns of C.
  Value valid = arith::MinSIOp::create(
      b, loc, count, arith::SubIOp::create(b, loc, index(columns), column));
  Value some =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, valid, index(0));
  Value position = arith::RemUIOp::create(b, loc, column, index(width));
  Value at =
      arith::AddIOp::create(b, loc, offset, index(epilogue.interiorOffset));
  Value flat = flatView(b, loc, epilogue.padded);
  auto store = [&](const Epilogue::Border &side, Value when, Value where) {
    auto branch =
        scf::IfOp::create(b, loc, arith::AndIOp::create(b, loc, some, when));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    auto type = VectorType::get({length}, side.value.getType());
    Value mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({length}, b.getI1Type()),
        ArrayRef<int64_t>{side.count});
    Value values = vector::BroadcastOp::create(b, loc, type, side.value);
    vector::MaskedStoreOp::create(b, loc, flat, where, mask, values);
  };
  if (epilogue.left.value) {
    store(epilogue.left,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, position,
                                index(0)),
          arith::SubIOp::create(b, loc, at, index(epilogue.left.count)));
  }
  if (epilogue.right.value) {
    store(epilogue.right,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                arith::AddIOp::create(b, loc, position, valid),
                                index(width)),
          arith::AddIOp::create(b, loc, at, valid));
  }
}

} // namespace

Value vectorizeBody(OpBuilder &b, Location loc, Block &body, IRMapping &mapping,
                    int64_t length) {
  // Values from outside the body are broadcast.
  auto vectorOf = [&](Value scalar) -> Value {
    if (Value mapped = mapping.lookupOrNull(scalar)) {
      return mapped;
    }
    auto type = VectorType::get({length}, scalar.getType());
    Value splat = vector::BroadcastOp::create(b, loc, type, scalar);
    mapping.map(scalar, splat);
    return splat;
  };
  for (Operation &inner : body.without_terminator()) {
    OperationState state(loc, inner.getName());
    for (Value operand : inner.getOperands()) {
      state.operands.push_back(vectorOf(operand));
    }
    for (Type type : inner.getResultTypes()) {
      state.types.push_back(VectorType::get({length}, type));
    }
    state.attributes = inner.getAttrs();
    mapping.map(inner.getResults(), b.create(state)->getResults());
  }
  return vectorOf(cast<linalg::YieldOp>(body.getTerminator()).getOperand(0));
}

void eraseFills(ArrayRef<Operation *> fills) {
  for (Operation *fill : fills) {
    Operation *slab = fill->getOperand(1).getDefiningOp();
    fill->erase();
    if (slab && slab->use_empty()) {
      slab->erase();
    }
  }
}

void emitEpilogue(OpBuilder &b, Location loc, const Epilogue &epilogue,
                  Value acc, Value row, Value n0, int64_t columnStep,
                  Value mask, int64_t valid, int64_t prefetchElements,
                  int64_t registerLanes, ArrayRef<Value> rowParts) {
  linalg::GenericOp op = epilogue.op;
  auto accType = cast<VectorType>(acc.getType());
  int64_t length = accType.getNumElements();
  if (valid <= 0 || valid > length) {
    valid = length;
  }
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // The consumer's indices of the row's batch and M part.
  SmallVector<Value> at(epilogue.split);
  Value rest = row;
  if (rowParts.size() == epilogue.split) {
    at.assign(rowParts.begin(), rowParts.end());
  }
  for (size_t d = epilogue.split;
       rowParts.size() != epilogue.split && d-- > 0;) {
    at[d] = d == 0 ? rest
                   : arith::RemUIOp::create(b, loc, rest,
                                            index(epilogue.domain[d]));
    if (d > 0) {
      rest = arith::DivUIOp::create(b, loc, rest, index(epilogue.domain[d]));
    }
  }
  auto offsetOf = [&](const Epilogue::Operand &operand) {
    Value offset = index(0);
    for (size_t d = 0; d < epilogue.split; ++d) {
      if (int64_t coefficient = operand.coefficients[d]) {
        offset = arith::AddIOp::create(
            b, loc, offset,
            arith::MulIOp::create(b, loc, at[d], index(coefficient)));
      }
    }
    return operand.alongRow ? arith::AddIOp::create(b, loc, offset, n0)
                            : offset;
  };
  // A row of C split over an operand's rows (the runs of a padded
  // buffer's interior): per run of lanes in one of its rows, `access`
  // gets the run's lanes (null: all of them), its offset less its first
  // lane (the vector's address), its first column and offset, and its
  // lane count. Rows of a multiple of the column step hold whole vectors:
  // one run. Rows of a multiple of a part of the vector (`piece`: 112
  // columns, vectors of 32 lanes, parts of 16) end only between parts:
  // one run per part, its lanes known (a store of one register each,
  // where the runs found at run time took two masked stores per register
  // and the masks' arithmetic).
  auto maskType = VectorType::get({length}, b.getI1Type());
  int64_t width = epilogue.domain.back();
  int64_t piece = std::gcd(width, length);
  bool pieces = width % columnStep != 0 && registerLanes > 0 &&
                piece % registerLanes == 0 && columnStep % length == 0 &&
                valid == length;
  auto forEachRun =
      [&](const Epilogue::Operand &operand,
          function_ref<void(Value, Value, Value, Value, Value)> access) {
        int64_t runs = width % columnStep == 0 ? 1
                       : pieces
                           ? length / piece
                           : std::min<int64_t>(
                                 valid, llvm::divideCeil(valid - 1, width) + 1);
        Value rowPart =
            offsetOf(Epilogue::Operand{operand.coefficients, false});
        Value first = index(0);
        Value before = vector::ConstantMaskOp::create(b, loc, maskType,
                                                      ArrayRef<int64_t>{0});
        for (int64_t r = 0; r < runs; ++r) {
          Value column = arith::AddIOp::create(b, loc, n0, first);
          Value next = index(valid);
          Value lanes = mask;
          if (pieces) {
            next = index((r + 1) * piece);
            SmallVector<bool> bits(length, false);
            std::fill(bits.begin() + r * piece, bits.begin() + (r + 1) * piece,
                      true);
            lanes = arith::ConstantOp::create(
                b, loc, DenseElementsAttr::get(maskType, ArrayRef<bool>(bits)));
            if (mask) {
              lanes = arith::AndIOp::create(b, loc, lanes, mask);
            }
          } else if (runs > 1) {
            next = runEnd(b, loc, first, column, width, valid);
            Value upTo = vector::CreateMaskOp::create(b, loc, maskType, next);
            lanes = arith::XOrIOp::create(b, loc, upTo, before);
            if (mask) {
              lanes = arith::AndIOp::create(b, loc, lanes, mask);
            }
            before = upTo;
          }
          // The column's offset: its index in each of C's N dims.
          Value offset = rowPart, rest = column;
          for (size_t d = epilogue.domain.size(); d-- > epilogue.split;) {
            Value position = rest;
            if (d > epilogue.split) {
              position = arith::RemUIOp::create(b, loc, rest,
                                                index(epilogue.domain[d]));
              rest = arith::DivUIOp::create(b, loc, rest,
                                            index(epilogue.domain[d]));
            }
            if (int64_t coefficient = operand.coefficients[d]) {
              offset = arith::AddIOp::create(
                  b, loc, offset,
                  arith::MulIOp::create(b, loc, position, index(coefficient)));
            }
          }
          access(lanes, arith::SubIOp::create(b, loc, offset, first), column,
                 offset, arith::SubIOp::create(b, loc, next, first));
          first = next;
        }
      };
  IRMapping mapping;
  Block *body = op.getBlock();
  for (OpOperand *input : op.getDpsInputOperands()) {
    unsigned number = input->getOperandNumber();
    BlockArgument arg = body->getArgument(number);
    if (number == epilogue.cInput) {
      mapping.map(arg, acc);
      continue;
    }
    const Epilogue::Operand &operand = epilogue.operands[number];
    Value flat = flatView(b, loc, input->get());
    auto type = VectorType::get({length}, arg.getType());
    Value value;
    if (operand.runs) {
      // One masked load per run, each filling its lanes.
      value = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      forEachRun(operand, [&](Value lanes, Value address, Value, Value, Value) {
        value =
            lanes ? Value(vector::MaskedLoadOp::create(b, loc, type, flat,
                                                       address, lanes, value))
                  : Value(vector::LoadOp::create(b, loc, type, flat, address));
      });
      mapping.map(arg, value);
      continue;
    }
    Value offset = offsetOf(operand);
    if (!operand.alongRow) {
      value = vector::BroadcastOp::create(
          b, loc, type, memref::LoadOp::create(b, loc, flat, offset));
    } else if (mask) {
      Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
      value =
          vector::MaskedLoadOp::create(b, loc, type, flat, offset, mask, zero);
    } else {
      value = vector::LoadOp::create(b, loc, type, flat, offset);
    }
    mapping.map(arg, value);
  }
  Value result = vectorizeBody(b, loc, *body, mapping, length);
  OpOperand *output = op.getDpsInitOperand(0);
  Value flat = flatView(b, loc, output->get());
  const Epilogue::Operand &stored =
      epilogue.operands[output->getOperandNumber()];
  auto prefetchAhead = [&](Value address) {
    if (prefetchElements <= 0) {
      return;
    }
    // One prefetch per cache line of the row's vector, that far ahead
    // (within the buffer: the addresses stay valid).
    auto elementType = cast<MemRefType>(flat.getType()).getElementType();
    int64_t lineElements = 64 * 8 / elementType.getIntOrFloatBitWidth();
    Value lastElement =
        index(cast<MemRefType>(flat.getType()).getNumElements() - 1);
    for (int64_t at = 0; at < length; at += lineElements) {
      Value ahead = arith::MinUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, address, index(prefetchElements + at)),
          lastElement);
      memref::PrefetchOp::create(b, loc, flat, ValueRange{ahead},
                                 /*isWrite=*/true, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  };
  if (stored.runs) {
    Value firstAddress;
    forEachRun(stored, [&](Value lanes, Value address, Value column,
                           Value offset, Value count) {
      if (lanes) {
        vector::MaskedStoreOp::create(b, loc, flat, address, lanes, result);
      } else {
        vector::StoreOp::create(b, loc, result, flat, address);
      }
      storeBorders(b, loc, epilogue, column, offset, count, length);
      firstAddress = firstAddress ? firstAddress : address;
    });
    prefetchAhead(firstAddress);
    return;
  }
  Value offset = offsetOf(stored);
  if (mask) {
    vector::MaskedStoreOp::create(b, loc, flat, offset, mask, result);
  } else {
    vector::StoreOp::create(b, loc, result, flat, offset);
  }
  prefetchAhead(offset);
}

} // namespace infer::cpu
