//===- OutlineLayers.cpp - one function per ONNX layer
//---------------------===//

#include "targets/hls/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace infer::hls {
#define GEN_PASS_DEF_OUTLINELAYERSPASS
#include "targets/hls/Passes.h.inc"

func::FuncOp findTop(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn->hasAttr(kTopAttr)) {
      return fn;
    }
  }
  return {};
}

namespace {

/// "node (OpType)" for every ONNX node `loc` names (`loc("node"("Op"))`,
/// fused when fusion merged nodes).
void collectNodes(Location loc, SmallVectorImpl<std::string> &nodes) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations()) {
      collectNodes(inner, nodes);
    }
    return;
  }
  auto name = dyn_cast<NameLoc>(loc);
  if (!name) {
    return;
  }
  std::string node = name.getName().str();
  if (auto opType = dyn_cast<NameLoc>(name.getChildLoc())) {
    node += " (" + opType.getName().str() + ")";
  }
  if (!llvm::is_contained(nodes, node)) {
    nodes.push_back(node);
  }
}

/// A C identifier from an ONNX node name: "/layer1/conv/Conv" ->
/// "layer1_conv_Conv".
std::string identifier(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' || c == '(') {
      break; // the node name only, not "(OpType)"
    }
    bool ok = std::isalnum(static_cast<unsigned char>(c));
    if (ok) {
      out.push_back(c);
    } else if (!out.empty() && out.back() != '_') {
      out.push_back('_');
    }
  }
  while (!out.empty() && out.back() == '_') {
    out.pop_back();
  }
  return out.substr(0, 40);
}

/// Ops that stay in the top function: buffers, weights and constants.
bool staysInTop(Operation *op) {
  return isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp,
             arith::ConstantOp, func::ReturnOp>(op);
}

struct Group {
  SmallVector<Operation *> ops;
  SmallVector<std::string> nodes;
};

/// True when a value `group` defines is used after it, outside it.
bool escapes(const Group &group, Block &body) {
  llvm::SmallPtrSet<Operation *, 16> members(group.ops.begin(),
                                             group.ops.end());
  for (Operation *op : group.ops) {
    for (Value result : op->getResults()) {
      for (Operation *user : result.getUsers()) {
        if (!members.contains(body.findAncestorOpInBlock(*user))) {
          return true;
        }
      }
    }
  }
  return false;
}

/// What a layer does with buffer argument `arg`: read, write or readwrite.
StringRef accessOf(BlockArgument arg) {
  bool reads = false, writes = false;
  for (Operation *user : arg.getUsers()) {
    if (isa<memref::LoadOp>(user)) {
      reads = true;
    } else if (isa<memref::StoreOp>(user) &&
               cast<memref::StoreOp>(user).getMemRef() == arg) {
      writes = true;
    } else {
      reads = writes = true;
    }
  }
  return reads && writes ? "readwrite" : writes ? "write" : "read";
}

struct OutlineLayersPass final
    : impl::OutlineLayersPassBase<OutlineLayersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp top;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if ((this->top.empty() && fn.isPublic() && !fn.isExternal()) ||
          fn.getSymName() == this->top) {
        if (top) {
          module.emitError("more than one public function: name the top "
                           "function with top=<name>");
          return signalPassFailure();
        }
        top = fn;
      }
    }
    if (!top) {
      module.emitError("no top function to outline layers from");
      return signalPassFailure();
    }
    top->setAttr(kTopAttr, UnitAttr::get(&getContext()));
    Block &body = top.getBody().front();

    // Consecutive ops from the same ONNX nodes form one layer; a layer
    // whose scalars are used further on grows until they are not.
    SmallVector<Group> groups;
    for (Operation &op : body) {
      if (staysInTop(&op)) {
        continue;
      }
      SmallVector<std::string> nodes;
      collectNodes(op.getLoc(), nodes);
      bool startsNew =
          groups.empty() || (!nodes.empty() && nodes != groups.back().nodes &&
                             !escapes(groups.back(), body));
      if (startsNew) {
        groups.push_back(Group{{}, nodes});
      }
      Group &group = groups.back();
      group.ops.push_back(&op);
      for (std::string &node : nodes) {
        if (!llvm::is_contained(group.nodes, node)) {
          group.nodes.push_back(node);
        }
      }
    }

    unsigned index = 0;
    for (Group &group : groups) {
      outline(module, top, group, index++);
    }
  }

  void outline(ModuleOp module, func::FuncOp top, Group &group,
               unsigned index) {
    MLIRContext *ctx = &getContext();
    llvm::SmallPtrSet<Operation *, 16> members(group.ops.begin(),
                                               group.ops.end());
    // Values from outside: constants and weights are cloned in, buffers
    // become arguments.
    Block &topBody = top.getBody().front();
    auto fromOutside = [&](Value value) {
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        return arg.getOwner() == &topBody;
      }
      Operation *def = value.getDefiningOp();
      return def->getBlock() == &topBody && !members.contains(def);
    };
    llvm::SetVector<Value> captured;
    for (Operation *op : group.ops) {
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands()) {
          if (fromOutside(operand)) {
            captured.insert(operand);
          }
        }
      });
    }
    SmallVector<Value> arguments;
    SmallVector<Operation *> cloned;
    for (Value value : captured) {
      Operation *def = value.getDefiningOp();
      if (def && isa<arith::ConstantOp, memref::GetGlobalOp>(def)) {
        cloned.push_back(def);
      } else {
        arguments.push_back(value);
      }
    }

    std::string name = "layer" + std::to_string(index);
    if (!group.nodes.empty()) {
      std::string id = identifier(group.nodes.front());
      if (!id.empty()) {
        name += "_" + id;
      }
    }
    OpBuilder builder(ctx);
    builder.setInsertionPoint(top);
    auto type = builder.getFunctionType(ValueRange(arguments).getTypes(), {});
    auto fn =
        func::FuncOp::create(builder, group.ops.front()->getLoc(), name, type);
    fn.setPrivate();
    SmallVector<Attribute> nodes;
    for (const std::string &node : group.nodes) {
      nodes.push_back(builder.getStringAttr(node));
    }
    fn->setAttr(kLayerAttr, builder.getArrayAttr(nodes));
    SymbolTable(module).insert(fn); // uniquifies a clashing name

    Block *entry = fn.addEntryBlock();
    IRMapping mapping;
    for (auto [value, arg] : llvm::zip(arguments, entry->getArguments())) {
      mapping.map(value, arg);
    }
    builder.setInsertionPointToStart(entry);
    for (Operation *def : cloned) {
      builder.clone(*def, mapping);
    }
    for (Operation *op : group.ops) {
      builder.clone(*op, mapping);
    }
    func::ReturnOp::create(builder, fn.getLoc());
    for (BlockArgument arg : entry->getArguments()) {
      fn.setArgAttr(arg.getArgNumber(), kAccessAttr,
                    builder.getStringAttr(accessOf(arg)));
    }

    builder.setInsertionPointAfter(group.ops.back());
    func::CallOp::create(builder, group.ops.front()->getLoc(), fn, arguments);
    for (Operation *op : llvm::reverse(group.ops)) {
      op->erase();
    }
  }
};

} // namespace
} // namespace infer::hls
