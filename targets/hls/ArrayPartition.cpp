//===- ArrayPartition.cpp - ARRAY_PARTITION for unrolled loops' arrays ----===//

#include "targets/hls/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace infer::hls {
#define GEN_PASS_DEF_ARRAYPARTITIONPASS
#include "targets/hls/Passes.h.inc"

namespace {

/// Partition factor per dimension (0: none).
using Partition = SmallVector<int64_t>;

/// True when `value` is computed from `iv` inside the loop body.
bool dependsOn(Value value, Value iv) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == iv) {
      return true;
    }
    if (!seen.insert(v).second) {
      continue;
    }
    if (Operation *def = v.getDefiningOp()) {
      llvm::append_range(work, def->getOperands());
    }
  }
  return false;
}

void merge(Partition &into, const Partition &from) {
  into.resize(std::max(into.size(), from.size()), 0);
  for (auto [i, factor] : llvm::enumerate(from)) {
    into[i] = std::max(into[i], factor);
  }
}

ArrayAttr toAttr(Builder &b, const Partition &partition, MemRefType type) {
  SmallVector<Attribute> dims;
  for (auto [dim, factor] : llvm::enumerate(partition)) {
    if (factor <= 1 || type.getDimSize(dim) <= 1) {
      continue;
    }
    bool complete = factor >= type.getDimSize(dim);
    dims.push_back(b.getDictionaryAttr({
        b.getNamedAttr("dim", b.getI64IntegerAttr(dim)),
        b.getNamedAttr("factor", b.getI64IntegerAttr(complete ? 0 : factor)),
        b.getNamedAttr("type",
                       b.getStringAttr(complete ? "complete" : "cyclic")),
    }));
  }
  return b.getArrayAttr(dims);
}

struct ArrayPartitionPass final
    : impl::ArrayPartitionPassBase<ArrayPartitionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(&getContext());
    // What each layer needs of its arguments and of the weights it reads.
    llvm::DenseMap<func::FuncOp, llvm::MapVector<unsigned, Partition>> args;
    llvm::MapVector<StringAttr, Partition> globals;
    llvm::MapVector<Operation *, Partition> locals;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!fn->hasAttr(kLayerAttr)) {
        continue;
      }
      fn.walk([&](scf::ForOp loop) {
        auto unroll = loop->getAttrOfType<IntegerAttr>(kUnrollAttr);
        if (!unroll || unroll.getInt() <= 1) {
          return;
        }
        auto need = [&](Value memref, ValueRange indices) {
          Partition partition(indices.size(), 0);
          for (auto [dim, index] : llvm::enumerate(indices)) {
            if (dependsOn(index, loop.getInductionVar())) {
              partition[dim] = unroll.getInt();
            }
          }
          if (auto arg = dyn_cast<BlockArgument>(memref)) {
            merge(args[fn][arg.getArgNumber()], partition);
          } else if (auto global =
                         memref.getDefiningOp<memref::GetGlobalOp>()) {
            merge(globals[global.getNameAttr().getAttr()], partition);
          } else if (Operation *def = memref.getDefiningOp()) {
            merge(locals[def], partition);
          }
        };
        loop.walk([&](Operation *op) {
          if (auto load = dyn_cast<memref::LoadOp>(op)) {
            need(load.getMemRef(), load.getIndices());
          } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
            need(store.getMemRef(), store.getIndices());
          }
        });
      });
    }

    // Arguments: only when every caller passes a local buffer (an AXI port
    // of the top function cannot be partitioned).
    for (auto &[fn, needs] : args) {
      SmallVector<func::CallOp> calls;
      module.walk([&](func::CallOp call) {
        if (call.getCallee() == fn.getSymName()) {
          calls.push_back(call);
        }
      });
      for (auto &[index, partition] : needs) {
        bool allLocal = llvm::all_of(calls, [&](func::CallOp call) {
          return call.getOperand(index).getDefiningOp<memref::AllocOp>();
        });
        if (!allLocal || calls.empty()) {
          continue;
        }
        auto type = cast<MemRefType>(fn.getArgumentTypes()[index]);
        fn.setArgAttr(index, kPartitionAttr, toAttr(b, partition, type));
        for (func::CallOp call : calls) {
          merge(locals[call.getOperand(index).getDefiningOp()], partition);
        }
      }
    }
    for (auto &[op, partition] : locals) {
      auto type = cast<MemRefType>(op->getResult(0).getType());
      op->setAttr(kPartitionAttr, toAttr(b, partition, type));
    }
    for (auto &[name, partition] : globals) {
      auto global = module.lookupSymbol<memref::GlobalOp>(name);
      if (global) {
        global->setAttr(kPartitionAttr, toAttr(b, partition, global.getType()));
      }
    }
  }
};

} // namespace
} // namespace infer::hls
