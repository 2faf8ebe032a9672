//===- KernelMarks.cpp - kernels numbered for --profile -------------------===//

#include "targets/common/KernelMarks.h"
#include "passes/lowering/ByteDot.h"
#include "passes/lowering/PairDot.h"
#include "targets/common/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace infer::targets {
#define GEN_PASS_DEF_MARKKERNELSPASS
#include "targets/common/Passes.h.inc"

/// The metadata of `loc` when it is a kernel mark.
static DictionaryAttr markMetadata(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto metadata =
      fused ? dyn_cast_or_null<DictionaryAttr>(fused.getMetadata()) : nullptr;
  return metadata && metadata.getAs<IntegerAttr>(kKernelMark) ? metadata
                                                              : nullptr;
}

SmallVector<KernelMark, 1> findKernelMarks(Location loc) {
  SmallVector<KernelMark, 1> marks;
  loc->walk([&](Location inner) {
    if (DictionaryAttr metadata = markMetadata(inner)) {
      auto flops = metadata.getAs<FloatAttr>("flops");
      auto role = metadata.getAs<StringAttr>("role");
      marks.push_back({metadata.getAs<IntegerAttr>(kKernelMark).getInt(),
                       flops ? flops.getValueAsDouble() : 0,
                       role ? role.getValue() : StringRef()});
    }
    return WalkResult::advance();
  });
  return marks;
}

std::optional<KernelMark> findKernelMark(Location loc) {
  SmallVector<KernelMark, 1> marks = findKernelMarks(loc);
  return marks.empty() ? std::nullopt : std::optional(marks.front());
}

/// Adds the ONNX nodes `loc` names and their op types.
static void collectNodes(Location loc, llvm::SetVector<StringRef> &nodes,
                         llvm::SetVector<StringRef> &opTypes) {
  loc->walk([&](Location inner) {
    auto name = dyn_cast<NameLoc>(inner);
    auto opType = name ? dyn_cast<NameLoc>(name.getChildLoc()) : nullptr;
    if (!opType) {
      return WalkResult::advance();
    }
    nodes.insert(name.getName().getValue());
    opTypes.insert(opType.getName().getValue());
    return WalkResult::skip();
  });
}

void collectMarkedNodes(Location loc, function_ref<bool(int64_t)> wanted,
                        llvm::SetVector<StringRef> &nodes,
                        llvm::SetVector<StringRef> &opTypes) {
  loc->walk([&](Location inner) {
    DictionaryAttr metadata = markMetadata(inner);
    if (!metadata) {
      return WalkResult::advance();
    }
    if (wanted(metadata.getAs<IntegerAttr>(kKernelMark).getInt())) {
      collectNodes(inner, nodes, opTypes);
    }
    return WalkResult::skip();
  });
}

namespace {

/// A fill whose every user takes it as the initial value of its output
/// (a contraction's accumulator) is part of that user's kernel.
bool isAccumulatorFill(Operation *op) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill || fill->use_empty()) {
    return false;
  }
  return llvm::all_of(fill->getUses(), [](OpOperand &use) {
    auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
    return user && user.isDpsInit(&use);
  });
}

bool isKernel(Operation *op) {
  if (isa<linalg::LinalgOp>(op)) {
    return !isAccumulatorFill(op);
  }
  return isa<tensor::PadOp, tensor::ConcatOp, tensor::GenerateOp>(op) ||
         (op->getNumRegions() > 0 && !op->hasTrait<OpTrait::IsTerminator>());
}

/// Arithmetic operations of one execution of `op`: for a linalg op, the
/// iterations times the arithmetic ops of its body (a multiply-add counts
/// two, a byte dot eight); for a loop with constant bounds (a recurrence), its
/// trips times the linalg ops' in its body; for other ops with regions the
/// costliest region's; 0 for data movement or when a range is dynamic.
double countFlops(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    double costliest = 0;
    for (Region &region : op->getRegions()) {
      double sum = 0;
      for (Block &block : region) {
        for (Operation &inner : block) {
          sum += countFlops(&inner);
        }
      }
      costliest = std::max(costliest, sum);
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop) {
      return costliest;
    }
    std::optional<APInt> trips = loop.getStaticTripCount();
    return trips ? costliest * static_cast<double>(trips->getZExtValue()) : 0;
  }
  double iterations = 1;
  for (int64_t range : linalgOp.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range)) {
      return 0;
    }
    iterations *= static_cast<double>(range);
  }
  // Four products of packed 8-bit lanes and their sum (ByteDot.h): a
  // multiply-add per lane, not the shifts that unpack them.
  if (lowering::matchByteDot(linalgOp)) {
    return iterations * 2 * lowering::kByteLanes;
  }
  if (lowering::matchPairDot(linalgOp)) {
    return iterations * 2 * lowering::kPairLanes;
  }
  int64_t perIteration = 0;
  linalgOp.getBlock()->walk([&](Operation *inner) {
    StringRef dialect = inner->getDialect()->getNamespace();
    if ((dialect != "arith" && dialect != "math") ||
        inner->hasTrait<OpTrait::ConstantLike>() ||
        isa<CastOpInterface>(inner) || inner->getNumResults() != 1) {
      return;
    }
    Type type = inner->getResult(0).getType();
    if (!type.isIndex() && !type.isInteger(1)) {
      ++perIteration;
    }
  });
  return iterations * static_cast<double>(perIteration);
}

struct MarkKernelsPass final : impl::MarkKernelsPassBase<MarkKernelsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    int64_t next = 0;
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal()) {
        continue;
      }
      for (Operation &op : fn.getBody().front()) {
        if (!isKernel(&op)) {
          continue;
        }
        double flops = countFlops(&op);
        SmallVector<NamedAttribute, 3> fields = {
            {StringAttr::get(context, kKernelMark),
             IntegerAttr::get(IntegerType::get(context, 64), next++)},
            {StringAttr::get(context, "flops"),
             FloatAttr::get(Float64Type::get(context), flops)}};
        if (isa<tensor::PadOp>(op)) {
          fields.push_back({StringAttr::get(context, "role"),
                            StringAttr::get(context, "pad")});
        } else if (flops == 0 && isa<linalg::LinalgOp>(op) &&
                   !isa<linalg::FillOp>(op)) {
          fields.push_back({StringAttr::get(context, "role"),
                            StringAttr::get(context, "copy")});
        }
        // The nodes fused into the op's body (an Add before a Relu) are
        // named only by the body's ops: the mark lists them too.
        llvm::SetVector<Location> locs;
        locs.insert(op.getLoc());
        op.walk([&](Operation *inner) { locs.insert(inner->getLoc()); });
        op.setLoc(FusedLoc::get(context, locs.getArrayRef(),
                                DictionaryAttr::get(context, fields)));
      }
    }
  }
};

} // namespace
} // namespace infer::targets
