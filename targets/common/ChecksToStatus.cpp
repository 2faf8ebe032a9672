//===- ChecksToStatus.cpp - cf.assert -> the run's error status -----------===//

#include "targets/common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace infer::targets {
#define GEN_PASS_DEF_CHECKSTOSTATUSPASS
#include "targets/common/Passes.h.inc"
} // namespace infer::targets

using namespace mlir;

namespace {

struct ChecksToStatusPass final
    : infer::targets::impl::ChecksToStatusPassBase<ChecksToStatusPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<Attribute> messages;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!fn.isPublic() || fn.isExternal()) {
        continue;
      }
      auto statusType = MemRefType::get({}, IntegerType::get(ctx, 32));
      if (failed(fn.insertArgument(fn.getNumArguments(), statusType, {},
                                   fn.getLoc()))) {
        fn.emitError("cannot add the status argument");
        return signalPassFailure();
      }
      Value status = fn.getArgument(fn.getNumArguments() - 1);
      SmallVector<cf::AssertOp> asserts;
      fn.walk([&](cf::AssertOp op) { asserts.push_back(op); });
      for (cf::AssertOp op : asserts) {
        messages.push_back(op.getMsgAttr());
        OpBuilder b(op);
        Location loc = op.getLoc();
        Value failedCheck = arith::XOrIOp::create(
            b, loc, op.getArg(), arith::ConstantIntOp::create(b, loc, 1, 1));
        auto ifOp =
            scf::IfOp::create(b, loc, failedCheck, /*withElseRegion=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
        Value code = arith::ConstantIntOp::create(b, loc, messages.size(), 32);
        memref::StoreOp::create(b, loc, code, status, ValueRange{});
        op.erase();
      }
    }
    module->setAttr("infer.errors", ArrayAttr::get(ctx, messages));
  }
};

} // namespace
