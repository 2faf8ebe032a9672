//===- WeightsEmitter.cpp - memref.globals -> the weights header ----------===//
//
// Every weight of the model (a memref.global after bufferization) becomes
// one `static const` C array in <name>_weights.h, its elements printed as
// exact C++ literals.
//
//===----------------------------------------------------------------------===//

#include "targets/hls/CppEmitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <set>

using namespace mlir;

namespace infer::hls {

std::map<std::string, std::string> weightNames(ModuleOp module,
                                               StringRef prefix) {
  std::map<std::string, std::string> names;
  std::set<std::string> used;
  for (auto global : module.getOps<memref::GlobalOp>()) {
    std::string id = prefix.str() + "_";
    for (char c : global.getSymName()) {
      bool ok = std::isalnum(static_cast<unsigned char>(c));
      if (ok) {
        id.push_back(c);
      } else if (id.back() != '_') {
        id.push_back('_'); // no "__": reserved in C++
      }
    }
    std::string unique = id;
    for (int n = 1; !used.insert(unique).second; ++n) {
      unique = id + "_" + std::to_string(n);
    }
    names[global.getSymName().str()] = unique;
  }
  return names;
}

namespace {

/// The literals of `attr`'s elements, in row-major order.
FailureOr<std::vector<std::string>> elementLiterals(ElementsAttr attr) {
  Type element = attr.getElementType();
  std::vector<std::string> out;
  out.reserve(attr.getNumElements());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (isa<FloatType>(element)) {
      for (const APFloat &v : dense.getValues<APFloat>()) {
        out.push_back(floatLiteral(v, element));
      }
    } else {
      for (const APInt &v : dense.getValues<APInt>()) {
        out.push_back(intLiteral(v, element));
      }
    }
    return out;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob) {
    return failure();
  }
  ArrayRef<char> data = blob->getData();
  unsigned bytes =
      element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
  if (data.size() < static_cast<size_t>(attr.getNumElements()) * bytes) {
    return failure();
  }
  for (int64_t i = 0; i < attr.getNumElements(); ++i) {
    const char *p = data.data() + i * bytes;
    if (element.isF32()) {
      float f;
      std::memcpy(&f, p, 4);
      out.push_back(floatLiteral(APFloat(f), element));
    } else if (element.isF64()) {
      double d;
      std::memcpy(&d, p, 8);
      out.push_back(floatLiteral(APFloat(d), element));
    } else {
      uint64_t raw = 0;
      std::memcpy(&raw, p, bytes); // little-endian hosts
      unsigned width = element.isInteger(1) ? 1 : bytes * 8;
      out.push_back(
          intLiteral(APInt(width, width == 1 ? raw & 1 : raw), element));
    }
  }
  return out;
}

} // namespace

LogicalResult emitWeights(ModuleOp module,
                          const std::map<std::string, std::string> &names,
                          raw_ostream &os) {
  for (auto global : module.getOps<memref::GlobalOp>()) {
    MemRefType type = global.getType();
    if (!emittableType(type)) {
      return global.emitError("weights of type ")
             << type << " have no C++ array type";
    }
    std::string declarator =
        arrayDeclarator(type, names.at(global.getSymName().str()));
    auto init = dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
    if (!init) {
      os << "static " << declarator << ";\n\n";
      continue;
    }
    FailureOr<std::vector<std::string>> values = elementLiterals(init);
    if (failed(values)) {
      return global.emitError("cannot read the values of weights @")
             << global.getSymName();
    }
    os << "static " << (global.getConstant() ? "const " : "") << declarator
       << " = {";
    for (size_t i = 0; i < values->size(); ++i) {
      os << (i % 8 == 0 ? "\n    " : " ") << (*values)[i]
         << (i + 1 < values->size() ? "," : "");
    }
    os << "\n};\n\n";
  }
  return success();
}

} // namespace infer::hls
