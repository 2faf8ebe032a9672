//===- RecurrentOps.cpp - RNN, GRU and LSTM: verifiers and inference ------===//
//
// The three recurrent layers share their operand layout (X, W, R, B,
// sequence_lens, initial states) and the static dims that tie them
// together; the lowering indexes with all of it.
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

using namespace mlir;
using namespace infer::graph;

namespace {

/// What RNN, GRU and LSTM share: operand ranks, the layout, and the
/// static dims that tie X, W and R together (`gates` per hidden unit).
template <typename Op>
LogicalResult verifyRecurrent(Op op, int64_t gates) {
  if (op.getLayout() != 0 && op.getLayout() != 1) {
    return op.emitOpError("'layout' must be 0 or 1, got ") << op.getLayout();
  }
  auto rankIs = [&](Value value, StringRef name, int64_t rank,
                    StringRef dims) -> LogicalResult {
    auto type = isNone(value) ? RankedTensorType() : getRanked(value);
    if (type && type.getRank() != rank) {
      return op.emitOpError() << name << " must have rank " << rank << " ("
                              << dims << "), got rank " << type.getRank();
    }
    return success();
  };
  bool batchFirst = op.getLayout() == 1;
  StringRef xDims = batchFirst ? "[batch_size, seq_length, input_size]"
                               : "[seq_length, batch_size, input_size]";
  StringRef stateDims = batchFirst
                            ? "[batch_size, num_directions, hidden_size]"
                            : "[num_directions, batch_size, hidden_size]";
  if (failed(rankIs(op.getX(), "X", 3, xDims)) ||
      failed(rankIs(op.getW(), "W", 3,
                    "[num_directions, gates x hidden_size, input_size]")) ||
      failed(rankIs(op.getR(), "R", 3,
                    "[num_directions, gates x hidden_size, hidden_size]")) ||
      failed(rankIs(op.getB(), "B", 2,
                    "[num_directions, 2 x gates x hidden_size]")) ||
      failed(
          rankIs(op.getSequenceLens(), "sequence_lens", 1, "[batch_size]")) ||
      failed(rankIs(op.getInitialH(), "initial_h", 3, stateDims))) {
    return failure();
  }
  if (auto hidden = op.getHiddenSize(); hidden && *hidden < 1) {
    return op.emitOpError("'hidden_size' must be at least 1, got ") << *hidden;
  }
  auto x = getRanked(op.getX());
  auto w = getRanked(op.getW());
  auto r = getRanked(op.getR());
  auto known = [](RankedTensorType t, unsigned d) {
    return t && !t.isDynamicDim(d);
  };
  int64_t directions = op.getDirection() == "bidirectional" ? 2 : 1;
  for (auto [type, name] : {std::pair{w, "W"}, std::pair{r, "R"}}) {
    if (known(type, 0) && type.getDimSize(0) != directions) {
      return op.emitOpError() << name << " holds " << type.getDimSize(0)
                              << " direction(s); direction '"
                              << op.getDirection() << "' needs " << directions;
    }
  }
  if (known(w, 1) && w.getDimSize(1) % gates != 0) {
    return op.emitOpError("W's second dim ")
           << w.getDimSize(1) << " is not a multiple of the " << gates
           << " gates";
  }
  int64_t hidden = op.getHiddenSize() ? *op.getHiddenSize()
                   : known(w, 1)      ? w.getDimSize(1) / gates
                                      : kDynamic;
  if (hidden != kDynamic && known(w, 1) && w.getDimSize(1) != gates * hidden) {
    return op.emitOpError("W's second dim is ")
           << w.getDimSize(1) << ", expected " << gates << " x hidden_size "
           << hidden;
  }
  if (hidden != kDynamic && known(r, 2) && r.getDimSize(2) != hidden) {
    return op.emitOpError("R's last dim is ")
           << r.getDimSize(2) << ", expected hidden_size " << hidden;
  }
  if (known(x, 2) && known(w, 2) && x.getDimSize(2) != w.getDimSize(2)) {
    return op.emitOpError("X has input size ")
           << x.getDimSize(2) << " but W expects " << w.getDimSize(2);
  }
  return success();
}

/// Y is [seq, directions, batch, hidden] (layout 1: [batch, seq,
/// directions, hidden]); Y_h and Y_c are [directions, batch, hidden]
/// ([batch, directions, hidden]). Exporters often declare these dynamic;
/// the operands decide them.
template <typename Op>
LogicalResult inferRecurrent(Op op, SmallVectorImpl<Type> &inferred) {
  auto x = getRanked(op.getX());
  auto r = getRanked(op.getR());
  int64_t directions = op.getDirection() == "bidirectional" ? 2 : 1;
  int64_t hidden = op.getHiddenSize()      ? *op.getHiddenSize()
                   : r && r.getRank() == 3 ? r.getDimSize(2)
                                           : kDynamic;
  bool batchFirst = op.getLayout() == 1;
  int64_t seq = kDynamic, batch = kDynamic;
  if (x && x.getRank() == 3) {
    seq = x.getDimSize(batchFirst ? 1 : 0);
    batch = x.getDimSize(batchFirst ? 0 : 1);
  }
  for (Value result : op->getResults()) {
    Type type = result.getType();
    if (isa<NoneType>(type)) {
      inferred.push_back(type);
      continue;
    }
    SmallVector<int64_t> shape;
    if (result == op->getResult(0)) {
      shape = batchFirst ? SmallVector<int64_t>{batch, seq, directions, hidden}
                         : SmallVector<int64_t>{seq, directions, batch, hidden};
    } else {
      shape = batchFirst ? SmallVector<int64_t>{batch, directions, hidden}
                         : SmallVector<int64_t>{directions, batch, hidden};
    }
    inferred.push_back(withShape(type, shape));
  }
  return success();
}

} // namespace

LogicalResult RNNOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  return inferRecurrent(*this, inferred);
}
LogicalResult GRUOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  return inferRecurrent(*this, inferred);
}
LogicalResult LSTMOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  return inferRecurrent(*this, inferred);
}

LogicalResult RNNOp::verify() { return verifyRecurrent(*this, 1); }
LogicalResult GRUOp::verify() { return verifyRecurrent(*this, 3); }
LogicalResult LSTMOp::verify() {
  if (failed(verifyRecurrent(*this, 4))) {
    return failure();
  }
  auto c =
      isNone(getInitialC()) ? RankedTensorType() : getRanked(getInitialC());
  if (c && c.getRank() != 3) {
    return emitOpError("initial_c must have rank 3, got rank ") << c.getRank();
  }
  auto p = isNone(getP()) ? RankedTensorType() : getRanked(getP());
  if (p && p.getRank() != 2) {
    return emitOpError("P must have rank 2 ([num_directions, 3 x "
                       "hidden_size]), got rank ")
           << p.getRank();
  }
  return success();
}
