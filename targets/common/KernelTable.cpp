//===- KernelTable.cpp - the kernel table of a --profile artifact ---------===//

#include "targets/common/KernelTable.h"
#include "targets/common/KernelMarks.h"
#include "targets/common/MemRefBytes.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace infer::targets {

bool KernelTable::attribute(Location loc, int64_t current) {
  SmallVector<KernelMark, 1> marks = findKernelMarks(loc);
  if (!marks.empty() && marks.front().id != current &&
      hasCode(marks.front().id)) {
    return false;
  }
  Kernel &kernel = kernels[current];
  for (const KernelMark &mark : marks) {
    if (mark.id != current) {
      if (hasCode(mark.id) ||
          mergedInto.try_emplace(mark.id, current).first->second != current) {
        continue;
      }
    }
    if (kernel.marks.insert(mark.id).second) {
      kernel.flops += mark.flops;
    }
  }
  // Nodes from the marks only: ops without one (constants, views) keep
  // whatever location their builder gave them.
  collectMarkedNodes(
      loc,
      [&](int64_t id) {
        auto merged = mergedInto.find(id);
        return id == current ||
               (merged != mergedInto.end() && merged->second == current);
      },
      kernel.nodes, kernel.opTypes);
  return true;
}

void KernelTable::addBuffer(int64_t current, Value buffer) {
  Kernel &kernel = kernels[current];
  if (kernel.buffers.insert(buffer).second) {
    auto memref = dyn_cast<MemRefType>(buffer.getType());
    kernel.bytes += memref ? memrefBytes(memref).value_or(0) : 0;
  }
}

int64_t KernelTable::indexOf(int64_t id) const {
  return std::distance(kernels.begin(), kernels.find(id));
}

DictionaryAttr KernelTable::toAttr(Builder &b, ArrayRef<int64_t> segments,
                                   int64_t offset) const {
  SmallVector<Attribute> table;
  for (const auto &[id, kernel] : kernels) {
    SmallVector<Attribute> nodes;
    for (StringRef node : kernel.nodes) {
      nodes.push_back(b.getStringAttr(node));
    }
    std::string name = kernel.nodes.empty()
                           ? (id == kUnmarked ? std::string("(entry)")
                                              : "kernel " + std::to_string(id))
                           : kernel.nodes.front().str();
    table.push_back(b.getDictionaryAttr({
        b.getNamedAttr("name", b.getStringAttr(name)),
        b.getNamedAttr("nodes", b.getArrayAttr(nodes)),
        b.getNamedAttr(
            "op_types",
            b.getStringAttr(
                llvm::join(kernel.opTypes, "+") +
                (kernel.role.empty() ? "" : " (" + kernel.role.str() + ")"))),
        b.getNamedAttr("flops", b.getF64FloatAttr(kernel.flops)),
        b.getNamedAttr("bytes", b.getI64IntegerAttr(kernel.bytes)),
    }));
  }
  return b.getDictionaryAttr({
      b.getNamedAttr("offset", b.getI64IntegerAttr(offset)),
      b.getNamedAttr("kernels", b.getArrayAttr(table)),
      b.getNamedAttr("segments", b.getDenseI64ArrayAttr(segments)),
  });
}

} // namespace infer::targets
