//===- ProfileLaunches.cpp - each launch's kernel, for --profile ----------===//
//
// A CUDA model's run is its launches; with --profile the runtime records
// an event before each launch and one after the last. This pass names the
// kernel each launch runs (see Passes.td) into `infer.profile`.
//
//===----------------------------------------------------------------------===//

#include "targets/common/KernelMarks.h"
#include "targets/common/KernelTable.h"
#include "targets/cuda/Passes.h"

using namespace mlir;

namespace infer::cuda {
#define GEN_PASS_DEF_PROFILELAUNCHESPASS
#include "targets/cuda/Passes.h.inc"

namespace {

using targets::KernelTable;

struct ProfileLaunchesPass final
    : impl::ProfileLaunchesPassBase<ProfileLaunchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](func::FuncOp fn) {
      fn.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    });
    if (launches.empty()) {
      module.emitError("--profile: the module has no kernel launches");
      return signalPassFailure();
    }

    // Each launch's kernel: its own mark, else its body's first mark,
    // else the next marked launch's (the previous one's at the end).
    SmallVector<gpu::GPUFuncOp> bodies;
    SmallVector<int64_t> ids;
    SmallVector<StringRef> roles;
    for (gpu::LaunchFuncOp launch : launches) {
      auto body = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!body) {
        launch.emitError("--profile: the launched kernel's body is not in "
                         "the module (run before its serialization)");
        return signalPassFailure();
      }
      bodies.push_back(body);
      std::optional<targets::KernelMark> mark =
          targets::findKernelMark(launch.getLoc());
      if (!mark) {
        body.walk([&](Operation *inner) {
          mark = targets::findKernelMark(inner->getLoc());
          return mark ? WalkResult::interrupt() : WalkResult::advance();
        });
      }
      ids.push_back(mark ? mark->id : KernelTable::kUnmarked);
      roles.push_back(mark ? mark->role : StringRef());
    }
    int64_t next = KernelTable::kUnmarked;
    for (int64_t &id : llvm::reverse(ids)) {
      id = id == KernelTable::kUnmarked ? next : id;
      next = id;
    }
    int64_t previous = KernelTable::kUnmarked;
    for (int64_t &id : ids) {
      id = id == KernelTable::kUnmarked ? previous : id;
      previous = id;
    }

    KernelTable kernels;
    for (auto [id, role] : llvm::zip_equal(ids, roles)) {
      kernels.declare(id);
      if (!role.empty()) {
        kernels.setRole(id, role);
      }
    }
    SmallVector<int64_t> segments;
    for (auto [launch, body, id] : llvm::zip_equal(launches, bodies, ids)) {
      kernels.attribute(launch.getLoc(), id);
      body.walk(
          [&](Operation *inner) { kernels.attribute(inner->getLoc(), id); });
      for (Value operand : launch.getKernelOperands()) {
        if (isa<MemRefType>(operand.getType())) {
          kernels.addBuffer(id, operand);
        }
      }
      segments.push_back(kernels.indexOf(id));
    }
    Builder b(&getContext());
    module->setAttr("infer.profile", kernels.toAttr(b, segments, 0));
  }
};

} // namespace
} // namespace infer::cuda
