//===- Signature.cpp - the model's inputs and outputs as the ABI sees them -===//

#include "targets/cpu/CpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace infer::cpu {

/// ONNX data type numbers (infer_dtype_t) of element types.
static int32_t dtypeOf(Type element) {
  if (element.isF32()) return 1;
  if (element.isF64()) return 11;
  if (element.isF16()) return 10;
  if (element.isBF16()) return 16;
  if (auto integer = dyn_cast<IntegerType>(element)) {
    bool u = integer.isUnsigned();
    switch (integer.getWidth()) {
    case 1: return 9;
    case 8: return u ? 2 : 3;
    case 16: return u ? 4 : 5;
    case 32: return u ? 12 : 6;
    case 64: return u ? 13 : 7;
    default: return 0;
    }
  }
  return 0;
}

static LogicalResult readTensor(func::FuncOp fn, Type type, StringAttr name,
                                StringRef what, unsigned index,
                                StringRef target, TensorSignature &out) {
  out.name = name ? name.str() : what.str() + std::to_string(index);
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked) {
    return fn.emitError() << what << " '" << out.name << "' has type " << type
                          << ", not a ranked tensor";
  }
  if (!ranked.hasStaticShape()) {
    if (what == "output") {
      return fn.emitError()
             << "output '" << out.name << "' has a dynamic shape " << type
             << ": it depends on values known only at run time, and the "
             << target << " target needs shapes fixed at compile time";
    }
    return fn.emitError() << "input '" << out.name << "' has a dynamic shape "
                          << type
                          << "; the " << target
                          << " target needs static shapes: pass --shape "
                          << out.name << "=... or --batch N";
  }
  out.dtype = dtypeOf(ranked.getElementType());
  if (!out.dtype) {
    return fn.emitError() << what << " '" << out.name << "' has element type "
                          << ranked.getElementType()
                          << ", which the " << target << " target does not support";
  }
  out.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
  return success();
}

LogicalResult readSignature(ModuleOp module, StringRef funcName,
                            ModelSignature &signature, StringRef target) {
  auto fn = module.lookupSymbol<func::FuncOp>(funcName);
  if (!fn) {
    return module.emitError("no function @") << funcName;
  }
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    TensorSignature t;
    if (failed(readTensor(fn, fn.getArgumentTypes()[i],
                          fn.getArgAttrOfType<StringAttr>(i, "graph.name"),
                          "input", i, target, t))) {
      return failure();
    }
    signature.inputs.push_back(std::move(t));
  }
  for (unsigned i = 0; i < fn.getNumResults(); ++i) {
    TensorSignature t;
    if (failed(readTensor(fn, fn.getResultTypes()[i],
                          fn.getResultAttrOfType<StringAttr>(i, "graph.name"),
                          "output", i, target, t))) {
      return failure();
    }
    signature.outputs.push_back(std::move(t));
  }
  return success();
}

} // namespace infer::cpu
