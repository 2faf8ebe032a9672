//===- TensorVerifiers.cpp - operand checks of selection, gather/scatter, -===//
//                           signal and text ops
//
// What each op's lowering indexes with and the ODS constraints cannot say:
// ranks, axes, index-tuple lengths, single-value operands. Most were added
// for inputs the fuzzing harnesses found (docs/security.md).
//
//===----------------------------------------------------------------------===//

#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace infer::graph;

LogicalResult CompressOp::verify() {
  if (auto condition = getRanked(getCondition());
      condition && condition.getRank() != 1) {
    return emitOpError("'condition' must have rank 1, got rank ")
           << condition.getRank();
  }
  auto output = getRanked(getOutput());
  if (auto axis = getAxis()) {
    auto input = getRanked(getInput());
    if (input && output && output.getRank() != input.getRank()) {
      return emitOpError("with an axis the result keeps the input's rank ")
             << input.getRank() << ", got rank " << output.getRank();
    }
    return verifyAxis(*this, *axis, getInput());
  }
  if (output && output.getRank() != 1) {
    return emitOpError("without an axis the result is 1-d, got rank ")
           << output.getRank();
  }
  return success();
}

LogicalResult GatherElementsOp::verify() {
  auto data = getRanked(getData());
  auto indices = getRanked(getIndices());
  if (data && indices && data.getRank() != indices.getRank()) {
    return emitOpError("'indices' has rank ")
           << indices.getRank() << "; it must have the rank of 'data', "
           << data.getRank();
  }
  return verifyAxis(*this, getAxis(), getData());
}

LogicalResult SliceOp::verify() {
  int64_t length = kDynamic;
  for (Value v : std::initializer_list<Value>{getStarts(), getEnds(), getAxes(),
                                              getSteps()}) {
    auto t = isNone(v) ? RankedTensorType() : getRanked(v);
    if (!t) {
      continue;
    }
    if (t.getRank() != 1) {
      return emitOpError("'starts', 'ends', 'axes' and 'steps' must have "
                         "rank 1, got rank ")
             << t.getRank();
    }
    if (t.isDynamicDim(0)) {
      continue;
    }
    if (length != kDynamic && t.getDimSize(0) != length) {
      return emitOpError("'starts', 'ends', 'axes' and 'steps' differ in "
                         "length: ")
             << length << " vs " << t.getDimSize(0);
    }
    length = t.getDimSize(0);
  }
  return success();
}

LogicalResult OneHotOp::verify() {
  if (auto indices = getRanked(getIndices());
      indices &&
      (getAxis() < -indices.getRank() - 1 || getAxis() > indices.getRank())) {
    return emitOpError("axis ")
           << getAxis() << " is out of range for a result of rank "
           << indices.getRank() + 1;
  }
  if (auto indices = getRanked(getIndices()), output = getRanked(getOutput());
      indices && output && output.getRank() != indices.getRank() + 1) {
    return emitOpError("result must have rank ")
           << indices.getRank() + 1 << " (one more than 'indices'), got "
           << output.getRank();
  }
  if (failed(verifySingleValue(*this, "depth", getDepth()))) {
    return failure();
  }
  if (auto values = getRanked(getValues());
      values && (values.getRank() != 1 ||
                 (values.hasStaticShape() && values.getNumElements() != 2))) {
    return emitOpError("'values' must hold two values [off, on]");
  }
  return success();
}

LogicalResult ScatterElementsOp::verify() {
  auto data = getRanked(getData());
  auto indices = getRanked(getIndices());
  auto updates = getRanked(getUpdates());
  if (data && indices && data.getRank() != indices.getRank()) {
    return emitOpError("'indices' has rank ")
           << indices.getRank() << "; it must have the rank of 'data', "
           << data.getRank();
  }
  if (indices && updates &&
      failed(verifyCompatibleShape(indices.getShape(), updates.getShape()))) {
    return emitOpError("'updates' must have the shape of 'indices'");
  }
  return verifyAxis(*this, getAxis(), getData());
}

LogicalResult ScatterNDOp::verify() {
  auto data = getRanked(getData());
  auto indices = getRanked(getIndices());
  auto updates = getRanked(getUpdates());
  if (indices && indices.getRank() < 1) {
    return emitOpError("'indices' must have rank >= 1");
  }
  if (!data || !indices || indices.isDynamicDim(indices.getRank() - 1)) {
    return success();
  }
  int64_t k = indices.getDimSize(indices.getRank() - 1);
  if (k < 1 || k > data.getRank()) {
    return emitOpError("index tuples of ")
           << k << " entries do not fit 'data' of rank " << data.getRank();
  }
  // updates: indices.shape[:-1] + data.shape[k:]
  SmallVector<int64_t> expected(indices.getShape().drop_back());
  llvm::append_range(expected, data.getShape().drop_front(k));
  if (updates && failed(verifyCompatibleShape(updates.getShape(), expected))) {
    return emitOpError("'updates' must have shape indices.shape[:-1] + "
                       "data.shape[k:] (rank ")
           << expected.size() << "), got rank " << updates.getRank();
  }
  return success();
}

LogicalResult TriluOp::verify() {
  if (auto input = getRanked(getInput()); input && input.getRank() < 2) {
    return emitOpError("the input must have rank >= 2, got rank ")
           << input.getRank();
  }
  return verifySingleValue(*this, "k", getK());
}

LogicalResult EyeLikeOp::verify() {
  if (auto input = getRanked(getInput()); input && input.getRank() != 2) {
    return emitOpError("the input must have rank 2, got rank ")
           << input.getRank();
  }
  return success();
}

LogicalResult STFTOp::verify() {
  if (auto signal = getRanked(getSignal()); signal && signal.getRank() != 3) {
    return emitOpError("'signal' must have rank 3 ([batch, length, 1 or 2]), "
                       "got rank ")
           << signal.getRank();
  }
  if (auto window = getRanked(getWindow()); window && window.getRank() != 1) {
    return emitOpError("'window' must be 1-d, got rank ") << window.getRank();
  }
  return success(
      succeeded(verifySingleValue(*this, "frame_step", getFrameStep())) &&
      succeeded(verifySingleValue(*this, "frame_length", getFrameLength())));
}

LogicalResult TfIdfVectorizerOp::verify() {
  if (getMinGramLength() < 1 || getMaxGramLength() < getMinGramLength()) {
    return emitOpError("n-gram lengths must satisfy 1 <= min <= max, got ")
           << getMinGramLength() << " and " << getMaxGramLength();
  }
  if (getMaxSkipCount() < 0) {
    return emitOpError("'max_skip_count' must be >= 0, got ")
           << getMaxSkipCount();
  }
  auto x = getRanked(getX());
  if (x && x.getRank() != 1 && x.getRank() != 2) {
    return emitOpError("input must have rank 1 or 2, got ") << x.getRank();
  }
  if (auto y = getRanked(getY()); x && y && y.getRank() != x.getRank()) {
    return emitOpError("result has rank ")
           << y.getRank() << "; it must have the input's rank " << x.getRank();
  }
  return success();
}

LogicalResult GatherNDOp::verify() {
  auto data = getRanked(getData());
  auto indices = getRanked(getIndices());
  int64_t b = getBatchDims();
  if (indices && indices.getRank() < 1) {
    return emitOpError("'indices' must have rank >= 1");
  }
  if (!data || !indices) {
    return success();
  }
  if (b < 0 || b >= std::min(data.getRank(), indices.getRank())) {
    return emitOpError("'batch_dims' ")
           << b << " must be less than the ranks of 'data' (" << data.getRank()
           << ") and 'indices' (" << indices.getRank() << ")";
  }
  int64_t last = indices.getShape().back();
  if (last != ShapedType::kDynamic && (last < 1 || last > data.getRank() - b)) {
    return emitOpError("index tuples of ")
           << last << " entries for 'data' of rank " << data.getRank()
           << " with 'batch_dims' " << b;
  }
  auto output = getRanked(getOutput());
  int64_t rank = data.getRank() + indices.getRank() - last - 1 - b;
  if (last != ShapedType::kDynamic && output && output.getRank() != rank) {
    return emitOpError("result has rank ")
           << output.getRank() << "; 'data' of rank " << data.getRank()
           << " and 'indices' of rank " << indices.getRank()
           << " with tuples of " << last << " and 'batch_dims' " << b
           << " give rank " << rank;
  }
  return success();
}

LogicalResult ReverseSequenceOp::verify() {
  auto input = getRanked(getInput());
  auto lens = getRanked(getSequenceLens());
  int64_t batch = getBatchAxis(), time = getTimeAxis();
  if ((batch != 0 && batch != 1) || (time != 0 && time != 1) || batch == time) {
    return emitOpError("'batch_axis' and 'time_axis' must be 0 and 1, got ")
           << batch << " and " << time;
  }
  if (input && input.getRank() < 2) {
    return emitOpError("input must have rank >= 2, got ") << input.getRank();
  }
  if (lens && lens.getRank() != 1) {
    return emitOpError("'sequence_lens' must have rank 1, got rank ")
           << lens.getRank();
  }
  return success();
}

LogicalResult UniqueOp::verify() {
  auto x = getRanked(getX());
  if (auto axis = getAxis(); axis && failed(verifyAxis(*this, *axis, getX()))) {
    return failure();
  }
  auto y = getRanked(getY());
  if (x && y && y.getRank() != (getAxis() ? x.getRank() : 1)) {
    return emitOpError("'Y' has rank ") << y.getRank() << "; it must have rank "
                                        << (getAxis() ? x.getRank() : 1);
  }
  for (Value v : std::initializer_list<Value>{getIndices(), getInverseIndices(),
                                              getCounts()}) {
    if (auto t = isNone(v) ? RankedTensorType() : getRanked(v);
        t && t.getRank() != 1) {
      return emitOpError("'indices', 'inverse_indices' and 'counts' must have "
                         "rank 1, got rank ")
             << t.getRank();
    }
  }
  return success();
}

LogicalResult NonZeroOp::verify() {
  auto x = getRanked(getX());
  auto y = getRanked(getY());
  if (y && y.getRank() != 2) {
    return emitOpError("result must have rank 2 (one row per input dim), "
                       "got rank ")
           << y.getRank();
  }
  if (x && y && !y.isDynamicDim(0) &&
      y.getDimSize(0) != std::max<int64_t>(x.getRank(), 1)) {
    return emitOpError("result has ")
           << y.getDimSize(0) << " rows; the input has rank " << x.getRank();
  }
  return success();
}

LogicalResult NonMaxSuppressionOp::verify() {
  auto boxes = getRanked(getBoxes());
  auto scores = getRanked(getScores());
  if (boxes && (boxes.getRank() != 3 ||
                (!boxes.isDynamicDim(2) && boxes.getDimSize(2) != 4))) {
    return emitOpError("'boxes' must be [batch, boxes, 4], got ") << boxes;
  }
  if (scores && scores.getRank() != 3) {
    return emitOpError("'scores' must be [batch, classes, boxes], got ")
           << scores;
  }
  if (boxes && scores) {
    for (auto [b, s] : {std::make_pair(0, 0), std::make_pair(1, 2)}) {
      if (!boxes.isDynamicDim(b) && !scores.isDynamicDim(s) &&
          boxes.getDimSize(b) != scores.getDimSize(s)) {
        return emitOpError("'boxes' ")
               << boxes << " and 'scores' " << scores
               << " disagree on the batch or the number of boxes";
      }
    }
  }
  if (auto y = getRanked(getSelectedIndices());
      y && (y.getRank() != 2 || (!y.isDynamicDim(1) && y.getDimSize(1) != 3))) {
    return emitOpError("result must be [selected, 3], got ") << y;
  }
  return success(
      succeeded(verifySingleValue(*this, "max_output_boxes_per_class",
                                  getMaxOutputBoxesPerClass())) &&
      succeeded(verifySingleValue(*this, "iou_threshold", getIouThreshold())) &&
      succeeded(
          verifySingleValue(*this, "score_threshold", getScoreThreshold())));
}
