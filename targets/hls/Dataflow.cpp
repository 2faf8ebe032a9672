//===- Dataflow.cpp - DATAFLOW between layers when it is legal ------------===//

#include "targets/hls/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace infer::hls {
#define GEN_PASS_DEF_DATAFLOWPASS
#include "targets/hls/Passes.h.inc"

namespace {

struct Uses {
  SmallVector<unsigned> readers; // call positions
  SmallVector<unsigned> writers;
};

/// Why the layers of `top` cannot run as a dataflow pipeline, or "".
std::string dataflowBlocker(ModuleOp module, func::FuncOp top) {
  auto calls = llvm::to_vector(top.getBody().front().getOps<func::CallOp>());
  if (calls.size() < 2) {
    return "a single layer";
  }
  llvm::MapVector<Value, Uses> buffers;
  unsigned position = 0;
  for (func::CallOp call : calls) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
      // A layer that accumulates into its output reads what it wrote
      // itself: for the channels between layers it is the producer.
      auto access = callee.getArgAttrOfType<StringAttr>(i, kAccessAttr);
      bool reads = access && access.getValue() == "read";
      Uses &uses = buffers[operand];
      (reads ? uses.readers : uses.writers).push_back(position);
    }
    ++position;
  }
  for (auto &[buffer, uses] : buffers) {
    if (uses.writers.size() > 1) {
      return "a buffer is written by " + std::to_string(uses.writers.size()) +
             " layers";
    }
    if (uses.readers.size() > 1) {
      return "a buffer is read by " + std::to_string(uses.readers.size()) +
             " layers";
    }
    if (!uses.writers.empty() && !uses.readers.empty() &&
        uses.readers.front() < uses.writers.front()) {
      return "a buffer is read before it is written";
    }
  }
  return "";
}

struct DataflowPass final : impl::DataflowPassBase<DataflowPass> {
  void runOnOperation() override {
    func::FuncOp top = findTop(getOperation());
    if (!top) {
      return;
    }
    std::string blocker = dataflowBlocker(getOperation(), top);
    Builder b(&getContext());
    if (blocker.empty()) {
      top->setAttr(kDataflowAttr, b.getUnitAttr());
    } else {
      top->setAttr(kDataflowBlockedAttr, b.getStringAttr(blocker));
    }
  }
};

} // namespace
} // namespace infer::hls
