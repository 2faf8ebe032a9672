//===- Signature.cpp - the model's inputs and outputs as the ABI sees them
//-===//

#include "targets/common/Signature.h"

#include "dialects/graph/Interfaces/ShapeHelpers.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>

using namespace mlir;

namespace infer::targets {

/// ONNX data type numbers (infer_dtype_t) of element types.
static int32_t dtypeOf(Type element) {
  if (element.isF32()) {
    return 1;
  }
  if (element.isF64()) {
    return 11;
  }
  if (element.isF16()) {
    return 10;
  }
  if (element.isBF16()) {
    return 16;
  }
  if (auto integer = dyn_cast<IntegerType>(element)) {
    bool u = integer.isUnsigned();
    switch (integer.getWidth()) {
    case 1:
      return 9;
    case 8:
      return u ? 2 : 3;
    case 16:
      return u ? 4 : 5;
    case 32:
      return u ? 12 : 6;
    case 64:
      return u ? 13 : 7;
    default:
      return 0;
    }
  }
  return 0;
}

bool TensorSignature::isDynamic() const {
  return llvm::is_contained(shape, int64_t(-1));
}

static LogicalResult readTensor(func::FuncOp fn, Type type, StringAttr name,
                                StringRef what, unsigned index,
                                StringRef target, bool allowDynamic,
                                TensorSignature &out) {
  out.name = name ? name.str() : what.str() + std::to_string(index);
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked) {
    return fn.emitError() << what << " '" << out.name << "' has type " << type
                          << ", not a ranked tensor";
  }
  if (!ranked.hasStaticShape() && !allowDynamic) {
    if (what == "output") {
      return fn.emitError()
             << "output '" << out.name << "' has a dynamic shape " << type
             << ": it depends on values known only at run time, and the "
             << target << " target needs shapes fixed at compile time";
    }
    return fn.emitError() << "input '" << out.name << "' has a dynamic shape "
                          << type << "; the " << target
                          << " target needs static shapes: pass --shape "
                          << out.name << "=... or --batch N";
  }
  out.dtype = dtypeOf(ranked.getElementType());
  if (!out.dtype) {
    return fn.emitError() << what << " '" << out.name << "' has element type "
                          << ranked.getElementType() << ", which the " << target
                          << " target does not support";
  }
  for (int64_t d : ranked.getShape()) {
    out.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
  }
  out.min = out.opt = out.max = out.shape;
  for (size_t d = 0; d < out.shape.size(); ++d) {
    if (out.shape[d] < 0) {
      out.min[d] = out.opt[d] = 1;
      out.max[d] = std::numeric_limits<int64_t>::max();
    }
  }
  return success();
}

LogicalResult readSignature(ModuleOp module, StringRef funcName,
                            ModelSignature &signature, StringRef target,
                            bool allowDynamic) {
  auto fn = module.lookupSymbol<func::FuncOp>(funcName);
  if (!fn) {
    return module.emitError("no function @") << funcName;
  }
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    TensorSignature t;
    if (failed(readTensor(fn, fn.getArgumentTypes()[i],
                          fn.getArgAttrOfType<StringAttr>(i, "graph.name"),
                          "input", i, target, allowDynamic, t))) {
      return failure();
    }
    signature.inputs.push_back(std::move(t));
  }
  for (unsigned i = 0; i < fn.getNumResults(); ++i) {
    TensorSignature t;
    if (failed(readTensor(fn, fn.getResultTypes()[i],
                          fn.getResultAttrOfType<StringAttr>(i, "graph.name"),
                          "output", i, target, allowDynamic, t))) {
      return failure();
    }
    signature.outputs.push_back(std::move(t));
  }
  for (const auto *list : {&signature.inputs, &signature.outputs}) {
    for (const TensorSignature &t : *list) {
      signature.dynamic |= t.isDynamic();
    }
  }
  return success();
}

DictionaryAttr signatureToAttr(MLIRContext *context,
                               const ModelSignature &signature) {
  Builder b(context);
  auto tensors = [&](const std::vector<TensorSignature> &list) {
    SmallVector<Attribute> entries;
    for (const TensorSignature &t : list) {
      SmallVector<NamedAttribute> fields = {
          b.getNamedAttr("name", b.getStringAttr(t.name)),
          b.getNamedAttr("dtype", b.getI32IntegerAttr(t.dtype)),
          b.getNamedAttr("shape", b.getDenseI64ArrayAttr(t.shape))};
      if (t.isDynamic()) {
        fields.push_back(b.getNamedAttr("min", b.getDenseI64ArrayAttr(t.min)));
        fields.push_back(b.getNamedAttr("opt", b.getDenseI64ArrayAttr(t.opt)));
        fields.push_back(b.getNamedAttr("max", b.getDenseI64ArrayAttr(t.max)));
      }
      entries.push_back(b.getDictionaryAttr(fields));
    }
    return b.getArrayAttr(entries);
  };
  return b.getDictionaryAttr(
      {b.getNamedAttr("name", b.getStringAttr(signature.name)),
       b.getNamedAttr("inputs", tensors(signature.inputs)),
       b.getNamedAttr("outputs", tensors(signature.outputs))});
}

LogicalResult readSignatureAttr(ModuleOp module, ModelSignature &signature) {
  auto fail = [&]() {
    return module.emitError("the module has no valid `")
           << kSignatureAttr << "` attribute (run infer-prepare-entry first)";
  };
  auto dict = module->getAttrOfType<DictionaryAttr>(kSignatureAttr);
  auto name = dict ? dict.getAs<StringAttr>("name") : StringAttr();
  if (!name) {
    return fail();
  }
  signature.name = name.str();
  auto readList = [&](StringRef key, std::vector<TensorSignature> &out) {
    auto list = dict.getAs<ArrayAttr>(key);
    if (!list) {
      return false;
    }
    for (Attribute entry : list) {
      auto fields = dyn_cast<DictionaryAttr>(entry);
      auto tname = fields ? fields.getAs<StringAttr>("name") : StringAttr();
      auto dtype = fields ? fields.getAs<IntegerAttr>("dtype") : IntegerAttr();
      auto shape = fields ? fields.getAs<DenseI64ArrayAttr>("shape")
                          : DenseI64ArrayAttr();
      if (!tname || !dtype || !shape) {
        return false;
      }
      TensorSignature t;
      t.name = tname.str();
      t.dtype = dtype.getInt();
      t.shape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
      t.min = t.opt = t.max = t.shape;
      for (auto [key, field] :
           {std::pair{"min", &t.min}, std::pair{"opt", &t.opt},
            std::pair{"max", &t.max}}) {
        if (auto dims = fields.getAs<DenseI64ArrayAttr>(key)) {
          if (dims.size() != static_cast<int64_t>(t.shape.size())) {
            return false;
          }
          field->assign(dims.asArrayRef().begin(), dims.asArrayRef().end());
        }
      }
      signature.dynamic |= t.isDynamic();
      out.push_back(std::move(t));
    }
    return true;
  };
  if (!readList("inputs", signature.inputs) ||
      !readList("outputs", signature.outputs)) {
    return fail();
  }
  return success();
}

bool readCheckMessages(ModuleOp module, ModelSignature &signature) {
  auto errors = module->getAttrOfType<ArrayAttr>("infer.errors");
  if (!errors) {
    return false;
  }
  for (Attribute message : errors) {
    signature.errors.push_back(cast<StringAttr>(message).str());
  }
  return true;
}

void readKernelProfile(ModuleOp module, ModelSignature &signature) {
  auto profile = module->getAttrOfType<DictionaryAttr>("infer.profile");
  if (!profile) {
    return;
  }
  signature.profiled = true;
  signature.stampsOffset =
      profile.getAs<IntegerAttr>("offset").getValue().getZExtValue();
  for (int64_t segment :
       cast<DenseI64ArrayAttr>(profile.get("segments")).asArrayRef()) {
    signature.segments.push_back(static_cast<uint32_t>(segment));
  }
  for (auto entry :
       profile.getAs<ArrayAttr>("kernels").getAsRange<DictionaryAttr>()) {
    KernelSignature kernel;
    kernel.name = entry.getAs<StringAttr>("name").str();
    kernel.opTypes = entry.getAs<StringAttr>("op_types").str();
    for (auto node : entry.getAs<ArrayAttr>("nodes").getAsRange<StringAttr>()) {
      kernel.nodes.push_back(node.str());
    }
    kernel.flops = entry.getAs<FloatAttr>("flops").getValueAsDouble();
    kernel.bytes = entry.getAs<IntegerAttr>("bytes").getValue().getZExtValue();
    signature.kernels.push_back(std::move(kernel));
  }
}

LogicalResult applyShapeProfiles(ModuleOp module,
                                 ArrayRef<std::string> profiles,
                                 ModelSignature &signature) {
  for (StringRef profile : profiles) {
    auto [name, ranges] = profile.split('=');
    auto fail = [&](const Twine &why) {
      return module.emitError("--shape-profile '") << profile << "': " << why;
    };
    auto it = llvm::find_if(signature.inputs, [&](const TensorSignature &t) {
      return t.name == name;
    });
    if (it == signature.inputs.end()) {
      std::string names;
      for (const TensorSignature &t : signature.inputs) {
        names += (names.empty() ? "'" : ", '") + t.name + "'";
      }
      return fail("the model has no input '" + name + "'; its inputs are " +
                  names);
    }
    SmallVector<StringRef> parts;
    ranges.split(parts, ':');
    if (parts.size() != 2 && parts.size() != 3) {
      return fail("expected name=MIN:OPT:MAX or name=MIN:MAX, each a shape "
                  "such as 1x3x224x224");
    }
    std::vector<std::vector<int64_t>> shapes;
    for (StringRef part : parts) {
      FailureOr<SmallVector<int64_t>> dims = graph::parseDims(part);
      if (failed(dims) || dims->size() != it->shape.size()) {
        return fail("'" + part + "' is not a shape of rank " +
                    Twine(it->shape.size()) + " (dims joined by 'x')");
      }
      shapes.emplace_back(dims->begin(), dims->end());
    }
    const std::vector<int64_t> &lo = shapes.front(), &hi = shapes.back();
    const std::vector<int64_t> &opt = shapes.size() == 3 ? shapes[1] : lo;
    for (size_t d = 0; d < it->shape.size(); ++d) {
      if (it->shape[d] >= 0 &&
          (lo[d] != it->shape[d] || hi[d] != it->shape[d] ||
           opt[d] != it->shape[d])) {
        return fail("dim " + Twine(d) + " of input '" + name +
                    "' is fixed at " + Twine(it->shape[d]) + " by the model");
      }
      if (lo[d] > opt[d] || opt[d] > hi[d]) {
        return fail("dim " + Twine(d) + " needs MIN <= OPT <= MAX");
      }
    }
    // (An input every dim of which the profile fixed is static now: it
    // needs no range.)
    if (it->isDynamic()) {
      it->min = lo;
      it->opt = opt;
      it->max = hi;
    }
  }
  return success();
}

} // namespace infer::targets
