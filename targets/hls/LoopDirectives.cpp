//===- LoopDirectives.cpp - PIPELINE and UNROLL for innermost loops -------===//

#include "targets/hls/CostModel.h"
#include "targets/hls/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace infer::hls {
#define GEN_PASS_DEF_PIPELINELOOPSPASS
#define GEN_PASS_DEF_UNROLLLOOPSPASS
#include "targets/hls/Passes.h.inc"

namespace {

bool isInnermost(scf::ForOp loop) {
  bool nested = false;
  loop.getBody()->walk([&](scf::ForOp) { nested = true; });
  return !nested;
}

bool isLayer(func::FuncOp fn) { return fn->hasAttr(kLayerAttr); }

/// The longest latency from `source` to `sink` through the ops of `loop`'s
/// body (in program order, so a single forward sweep sees every path);
/// -1 when `sink` does not depend on `source`.
int64_t chainLatency(scf::ForOp loop, Value source, Value sink,
                     double clockNs) {
  llvm::DenseMap<Value, int64_t> distance;
  distance[source] = 0;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    int64_t longest = -1;
    for (Value operand : op->getOperands()) {
      auto it = distance.find(operand);
      if (it != distance.end()) {
        longest = std::max(longest, it->second);
      }
    }
    if (longest < 0) {
      return;
    }
    int64_t latency = opCost(op, clockNs).latency;
    for (Value result : op->getResults()) {
      distance[result] = longest + latency;
    }
  });
  auto it = distance.find(sink);
  return it == distance.end() ? -1 : it->second;
}

bool invariantIn(scf::ForOp loop, ValueRange values) {
  return llvm::all_of(values, [&](Value v) {
    return !loop->isAncestor(v.getParentRegion()->getParentOp()) &&
           v.getParentRegion() != &loop.getRegion();
  });
}

/// The initiation interval `loop` can reach: 1, or the latency of a
/// recurrence (an iter_arg, or a load and store of one loop-invariant
/// address).
int64_t initiationInterval(scf::ForOp loop, double clockNs) {
  int64_t ii = 1;
  for (auto [arg, yielded] :
       llvm::zip(loop.getRegionIterArgs(), loop.getYieldedValues())) {
    ii = std::max(ii, chainLatency(loop, arg, yielded, clockNs));
  }
  SmallVector<memref::LoadOp> loads;
  loop.getBody()->walk([&](memref::LoadOp load) { loads.push_back(load); });
  loop.getBody()->walk([&](memref::StoreOp store) {
    if (!invariantIn(loop, store.getIndices())) {
      return;
    }
    for (memref::LoadOp load : loads) {
      if (load.getMemRef() == store.getMemRef() &&
          llvm::equal(load.getIndices(), store.getIndices())) {
        ii = std::max(ii, chainLatency(loop, load.getResult(),
                                       store.getValueToStore(), clockNs));
      }
    }
  });
  return ii;
}

struct PipelineLoopsPass final
    : impl::PipelineLoopsPassBase<PipelineLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (!isLayer(getOperation())) {
      return;
    }
    Builder builder(&getContext());
    getOperation().walk([&](scf::ForOp loop) {
      if (isInnermost(loop)) {
        loop->setAttr(kPipelineAttr, builder.getI64IntegerAttr(
                                         initiationInterval(loop, clockNs)));
      }
    });
  }
};

struct UnrollLoopsPass final : impl::UnrollLoopsPassBase<UnrollLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (parallelism <= 1 || !isLayer(getOperation())) {
      return;
    }
    Builder builder(&getContext());
    getOperation().walk([&](scf::ForOp loop) {
      auto ii = loop->getAttrOfType<IntegerAttr>(kPipelineAttr);
      std::optional<int64_t> trips =
          loop.getStaticTripCount()
              ? std::optional<int64_t>(
                    loop.getStaticTripCount()->getSExtValue())
              : std::nullopt;
      if (!ii || ii.getInt() != 1 || !trips || *trips <= 1) {
        return;
      }
      int64_t factor = std::min<int64_t>(parallelism, *trips);
      while (*trips % factor != 0) {
        --factor;
      }
      if (factor > 1) {
        loop->setAttr(kUnrollAttr, builder.getI64IntegerAttr(factor));
      }
    });
  }
};

} // namespace
} // namespace infer::hls
