//===- KernelUtils.cpp - loop helpers shared by the kernel forms ----------===//

#include "targets/cuda/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace infer::cuda {

std::optional<int64_t> tripCount(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb);
  std::optional<int64_t> u = getConstantIntValue(ub);
  std::optional<int64_t> s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0) {
    return std::nullopt;
  }
  return *u > *l ? (*u - *l + *s - 1) / *s : 0;
}

std::optional<int64_t> pointCount(scf::ParallelOp loop) {
  int64_t points = 1;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    std::optional<int64_t> trips = tripCount(
        loop.getLowerBound()[d], loop.getUpperBound()[d], loop.getStep()[d]);
    if (!trips) {
      return std::nullopt;
    }
    points *= *trips;
  }
  return points;
}

scf::ParallelOp collapseToOneDim(RewriterBase &rewriter, scf::ParallelOp loop) {
  if (loop.getNumLoops() < 2) {
    return loop;
  }
  std::vector<unsigned> all;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d) {
    all.push_back(d);
  }
  Operation *next = loop->getNextNode();
  collapseParallelLoops(rewriter, loop, {all});
  return cast<scf::ParallelOp>(next->getPrevNode());
}

SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat,
                               ArrayRef<int64_t> sizes) {
  SmallVector<Value> indices(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    if (i == 0) {
      indices[i] = flat;
      break;
    }
    Value size = arith::ConstantIndexOp::create(b, loc, sizes[i]);
    indices[i] = arith::RemUIOp::create(b, loc, flat, size);
    flat = arith::DivUIOp::create(b, loc, flat, size);
  }
  return indices;
}

LogicalResult mapLoop(scf::ParallelOp loop,
                      ArrayRef<gpu::Processor> processors) {
  MLIRContext *ctx = loop.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (gpu::Processor processor : processors) {
    mapping.push_back(
        gpu::ParallelLoopDimMappingAttr::get(ctx, processor, id, id));
  }
  return gpu::setMappingAttr(loop, mapping);
}

} // namespace infer::cuda
