//===- PrepareForEmission.cpp - the IR the HLS C++ emitter reads ----------===//

#include "targets/hls/CppEmitter.h"
#include "targets/hls/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace infer::hls {
#define GEN_PASS_DEF_PREPAREFOREMISSIONPASS
#include "targets/hls/Passes.h.inc"

namespace {

std::string text(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Why a value of `type` has no C++ spelling, or "".
std::string typeProblem(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (memref && !memref.hasStaticShape()) {
    return "a buffer of dynamic shape " + text(type) +
           " (the HLS target needs static shapes)";
  }
  if (memref && !memref.getLayout().isIdentity()) {
    return "a strided view " + text(type) +
           " that could not be folded into its loads and stores";
  }
  Type element = memref ? memref.getElementType() : type;
  if (cType(element).empty()) {
    return "element type " + text(element) +
           ", which has no plain C++ type (the HLS target takes float, "
           "double, bool and 8- to 64-bit integers)";
  }
  return "";
}

/// What makes `op` unemittable, in words.
std::string problem(Operation *op) {
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    std::string why = typeProblem(type);
    if (!why.empty()) {
      return why;
    }
  }
  if (isa<arith::SelectOp>(op)) {
    return "a choice between buffers at run time, which C++ arrays cannot "
           "express";
  }
  return "'" + op->getName().getStringRef().str() +
         "', which the HLS C++ emitter cannot print";
}

struct PrepareForEmissionPass final
    : impl::PrepareForEmissionPassBase<PrepareForEmissionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Arrays are declared, not allocated: nothing to free.
    module.walk([](memref::DeallocOp op) { op.erase(); });
    if (!findTop(module)) {
      module.emitError("no top function: run infer-hls-outline-layers first");
      return signalPassFailure();
    }
    bool ok = true;
    for (auto fn : module.getOps<func::FuncOp>()) {
      for (Type type : fn.getArgumentTypes()) {
        std::string why = isa<MemRefType>(type) ? typeProblem(type)
                                                : "a scalar, not a tensor";
        if (!why.empty()) {
          fn.emitError("an argument of type ")
              << type << " cannot be a C++ array: " << why;
          ok = false;
        }
      }
      if (fn.getNumResults() != 0) {
        fn.emitError("functions must return their results through "
                     "arguments (run buffer-results-to-out-params)");
        ok = false;
      }
      fn.walk([&](Operation *op) {
        if (op == fn.getOperation()) {
          return WalkResult::advance();
        }
        bool yieldsBuffer = llvm::any_of(
            op->getResultTypes(), [](Type t) { return isa<MemRefType>(t); });
        if (isa<scf::ForOp>(op) && yieldsBuffer) {
          op->emitError("a loop carries a buffer from one iteration to "
                        "the next, which C++ arrays cannot express");
          ok = false;
          return WalkResult::skip();
        }
        if (isa<scf::IfOp>(op) && yieldsBuffer) {
          op->emitError("a branch chooses between buffers, which C++ "
                        "arrays cannot express");
          ok = false;
          return WalkResult::skip();
        }
        if (!canEmit(op)) {
          op->emitError("cannot be emitted as HLS C++: ") << problem(op);
          ok = false;
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
    }
    if (!ok) {
      signalPassFailure();
    }
  }
};

} // namespace
} // namespace infer::hls
