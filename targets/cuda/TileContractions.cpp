//===- TileContractions.cpp - contractions as shared-memory tiled kernels -===//
//
// A contraction out[b, y, x] += sum_k lhs(b, y, k) * rhs(b, x, k), where b,
// y, x and k each stand for a group of loop dims and each operand is read
// through its own affine map (MatMul, Gemm, batched attention products, and
// convolutions as implicit GEMMs), becomes one gpu.launch:
//   - a block computes a T x T tile of (y, x) for one b, with 16 x 16
//     threads, each owning (T/16) x (T/16) outputs in registers;
//   - per step of 16 k, the block stages a T x 16 slice of the y-side
//     operand and a 16 x T slice of the x-side operand in shared memory
//     (padded by one column against bank conflicts), loading along each
//     operand's contiguous dim so global reads coalesce;
//   - after the last step each thread adds its outputs to `out` (which holds
//     the init, e.g. the zero fill or a bias).
// x is the side holding the output's innermost dim, so consecutive threads
// store consecutive addresses.
//
//===----------------------------------------------------------------------===//

#include "targets/cuda/KernelUtils.h"
#include "targets/cuda/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace infer::cuda {
#define GEN_PASS_DEF_TILECONTRACTIONSPASS
#include "targets/cuda/Passes.h.inc"

namespace {

constexpr int64_t kThreads = 16; // per block dimension (16 x 16)
constexpr int64_t kStep = 16;    // k per shared-memory stage

/// Loop dims of a contraction, by role, each group outermost first.
struct Contraction {
  Operation *op = nullptr;
  SmallVector<AffineMap> maps; // in0, in1, out
  SmallVector<Value> operands; // in0, in1, out
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> batch, ys, xs, ks;
  unsigned yInput = 0, xInput = 1;
  int64_t size(ArrayRef<unsigned> dims) const {
    int64_t n = 1;
    for (unsigned d : dims) {
      n *= ranges[d];
    }
    return n;
  }
};

/// out = out + in0 * in1 (in either order), all f32.
bool isMulAdd(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 ||
      !llvm::all_of(body->getArgumentTypes(),
                    [](Type t) { return t.isF32(); })) {
    return false;
  }
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || body->getOperations().size() != 3) {
    return false;
  }
  Value out = body->getArgument(2);
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || (add.getLhs() != out && add.getRhs() != out)) {
    return false;
  }
  Value a = body->getArgument(0), b = body->getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

std::optional<Contraction> matchContraction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !isMulAdd(op)) {
    return std::nullopt;
  }
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.hasStaticShape()) {
      return std::nullopt;
    }
  }
  Contraction c;
  c.op = op;
  c.maps = op.getIndexingMapsArray();
  c.operands = llvm::to_vector(op->getOperands());
  c.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(c.ranges, ShapedType::isDynamic)) {
    return std::nullopt;
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap out = maps[2];
  if (!out.isProjectedPermutation() || out.getNumResults() == 0) {
    return std::nullopt;
  }
  SmallVector<unsigned> side0, side1;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    bool used0 = maps[0].isFunctionOfDim(d), used1 = maps[1].isFunctionOfDim(d);
    if (op.getIteratorTypesArray()[d] == utils::IteratorType::reduction) {
      if (out.isFunctionOfDim(d)) {
        return std::nullopt;
      }
      c.ks.push_back(d);
    } else if (!out.isFunctionOfDim(d) || (!used0 && !used1)) {
      return std::nullopt;
    } else if (used0 && used1) {
      c.batch.push_back(d);
    } else {
      (used0 ? side0 : side1).push_back(d);
    }
  }
  if (c.ks.empty() || side0.empty() || side1.empty()) {
    return std::nullopt;
  }
  // The output's innermost dim picks the x side (consecutive threads).
  unsigned innermost = out.getDimPosition(out.getNumResults() - 1);
  bool xIsSide0 = llvm::is_contained(side0, innermost);
  c.xs = xIsSide0 ? side0 : side1;
  c.ys = xIsSide0 ? side1 : side0;
  c.xInput = xIsSide0 ? 0 : 1;
  c.yInput = xIsSide0 ? 1 : 0;
  return c;
}

/// Whether the innermost index of input `input` moves with a dim of
/// `dims` (then a tile of it is loaded along those dims).
bool contiguousAlong(const Contraction &c, unsigned input,
                     ArrayRef<unsigned> dims) {
  AffineMap map = c.maps[input];
  if (map.getNumResults() == 0) {
    return false;
  }
  AffineExpr last = map.getResult(map.getNumResults() - 1);
  return llvm::any_of(dims,
                      [&](unsigned d) { return last.isFunctionOfDim(d); });
}

struct KernelBuilder {
  OpBuilder &b;
  Location loc;
  const Contraction &c;
  int64_t tile; // T

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value lessThan(Value x, int64_t bound) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                                 index(bound));
  }

  /// Sets the loop values of `dims` from `flat` (row-major over them).
  void delinearize(Value flat, ArrayRef<unsigned> dims,
                   SmallVectorImpl<Value> &point) {
    SmallVector<int64_t> sizes;
    for (unsigned d : dims) {
      sizes.push_back(c.ranges[d]);
    }
    for (auto [d, v] :
         llvm::zip(dims, cuda::delinearize(b, loc, flat, sizes))) {
      point[d] = v;
    }
  }

  /// The indices of operand `operand` at `point` (every loop dim set).
  SmallVector<Value> indicesAt(unsigned operand, ArrayRef<Value> point) {
    AffineMap map = c.maps[operand];
    SmallVector<Value> indices;
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      indices.push_back(
          affine::AffineApplyOp::create(b, loc, map.getSubMap({r}), point));
    }
    return indices;
  }

  /// Stages `rows` x `cols` of input `input` into `shared`: row r, column
  /// col is the input at (side value `base` + r or + col, k `k0` + the
  /// other), zero outside the operand. `kRows`: k runs along the rows.
  void stage(unsigned input, ArrayRef<unsigned> side, Value base, Value k0,
             Value shared, int64_t rows, int64_t cols, bool kRows, Value thread,
             ArrayRef<Value> batchPoint) {
    Value memref = c.operands[input];
    // Along the operand's contiguous dim, consecutive threads read
    // consecutive elements.
    bool alongSide = contiguousAlong(c, input, side);
    int64_t sideLength = kRows ? cols : rows;
    int64_t perThread = rows * cols / (kThreads * kThreads);
    int64_t sideSize = c.size(side), kSize = c.size(c.ks);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    for (int64_t e = 0; e < perThread; ++e) {
      Value flat = add(thread, index(e * kThreads * kThreads));
      Value s, k;
      if (alongSide) {
        s = arith::RemUIOp::create(b, loc, flat, index(sideLength));
        k = arith::DivUIOp::create(b, loc, flat, index(sideLength));
      } else {
        k = arith::RemUIOp::create(b, loc, flat, index(kStep));
        s = arith::DivUIOp::create(b, loc, flat, index(kStep));
      }
      Value sideValue = add(base, s), kValue = add(k0, k);
      Value inside = arith::AndIOp::create(
          b, loc, lessThan(sideValue, sideSize), lessThan(kValue, kSize));
      auto load = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, inside,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(load.thenBlock());
        SmallVector<Value> point(batchPoint);
        delinearize(sideValue, side, point);
        delinearize(kValue, c.ks, point);
        Value v =
            memref::LoadOp::create(b, loc, memref, indicesAt(input, point));
        scf::YieldOp::create(b, loc, v);
        b.setInsertionPointToStart(load.elseBlock());
        scf::YieldOp::create(b, loc, zero);
      }
      SmallVector<Value> at =
          kRows ? SmallVector<Value>{k, s} : SmallVector<Value>{s, k};
      memref::StoreOp::create(b, loc, load.getResult(0), shared, at);
    }
  }

  void build() {
    MLIRContext *ctx = b.getContext();
    int64_t per = tile / kThreads; // outputs per thread and dim
    int64_t ySize = c.size(c.ys), xSize = c.size(c.xs);
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto yType = MemRefType::get({tile, kStep + 1}, b.getF32Type(),
                                 MemRefLayoutAttrInterface(), workgroup);
    auto xType = MemRefType::get({kStep, tile + 1}, b.getF32Type(),
                                 MemRefLayoutAttrInterface(), workgroup);
    auto launch = gpu::LaunchOp::create(
        b, loc, index(llvm::divideCeil(xSize, tile)),
        index(llvm::divideCeil(ySize, tile)), index(c.size(c.batch)),
        index(kThreads), index(kThreads), index(1),
        /*dynamicSharedMemorySize=*/nullptr,
        /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
        TypeRange{yType, xType});
    Block &body = launch.getBody().front();
    b.setInsertionPointToStart(&body);
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&body);
    Value yShared = launch.getWorkgroupAttributions()[0];
    Value xShared = launch.getWorkgroupAttributions()[1];
    Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
    Value xBase = mul(launch.getBlockIds().x, index(tile));
    Value yBase = mul(launch.getBlockIds().y, index(tile));
    Value thread = add(mul(ty, index(kThreads)), tx);
    SmallVector<Value> batchPoint(c.ranges.size(), index(0));
    delinearize(launch.getBlockIds().z, c.batch, batchPoint);

    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    SmallVector<Value> init(per * per, zero);
    auto steps = scf::ForOp::create(
        b, loc, index(0), index(c.size(c.ks)), index(kStep), init,
        [&](OpBuilder &, Location, Value k0, ValueRange accs) {
          stage(c.yInput, c.ys, yBase, k0, yShared, tile, kStep,
                /*kRows=*/false, thread, batchPoint);
          stage(c.xInput, c.xs, xBase, k0, xShared, kStep, tile,
                /*kRows=*/true, thread, batchPoint);
          gpu::BarrierOp::create(b, loc);
          auto inner = scf::ForOp::create(
              b, loc, index(0), index(kStep), index(1), accs,
              [&](OpBuilder &, Location, Value k, ValueRange acc) {
                SmallVector<Value> lhs, rhs, next;
                for (int64_t i = 0; i < per; ++i) {
                  Value row = add(ty, index(i * kThreads));
                  lhs.push_back(memref::LoadOp::create(b, loc, yShared,
                                                       ValueRange{row, k}));
                  Value col = add(tx, index(i * kThreads));
                  rhs.push_back(memref::LoadOp::create(b, loc, xShared,
                                                       ValueRange{k, col}));
                }
                for (int64_t i = 0; i < per; ++i) {
                  for (int64_t j = 0; j < per; ++j) {
                    Value p = arith::MulFOp::create(b, loc, lhs[i], rhs[j]);
                    next.push_back(
                        arith::AddFOp::create(b, loc, acc[i * per + j], p));
                  }
                }
                scf::YieldOp::create(b, loc, next);
              });
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, inner.getResults());
        });

    // out += the thread's sums, inside the output.
    Value out = c.operands[2];
    for (int64_t i = 0; i < per; ++i) {
      for (int64_t j = 0; j < per; ++j) {
        Value y = add(yBase, add(ty, index(i * kThreads)));
        Value x = add(xBase, add(tx, index(j * kThreads)));
        Value inside = arith::AndIOp::create(b, loc, lessThan(y, ySize),
                                             lessThan(x, xSize));
        auto guard = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
        OpBuilder::InsertionGuard restore(b);
        b.setInsertionPointToStart(guard.thenBlock());
        SmallVector<Value> point(batchPoint);
        delinearize(y, c.ys, point);
        delinearize(x, c.xs, point);
        SmallVector<Value> indices = indicesAt(2, point);
        Value old = memref::LoadOp::create(b, loc, out, indices);
        Value sum =
            arith::AddFOp::create(b, loc, old, steps.getResult(i * per + j));
        memref::StoreOp::create(b, loc, sum, out, indices);
      }
    }
  }
};

struct TileContractionsPass final
    : impl::TileContractionsPassBase<TileContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (!fn.isPublic() || fn.isExternal()) {
      return;
    }
    std::vector<Contraction> found;
    fn.walk([&](linalg::LinalgOp op) {
      if (std::optional<Contraction> c = matchContraction(op)) {
        found.push_back(*c);
      }
    });
    for (const Contraction &c : found) {
      std::optional<int64_t> tile = pickTile(c);
      if (!tile) {
        continue;
      }
      OpBuilder b(c.op);
      KernelBuilder{b, c.op->getLoc(), c, *tile}.build();
      c.op->erase();
    }
  }

  /// The largest tile (64, 32 or 16 a side) that still makes `min-blocks`
  /// blocks. None when a side or the reduction is shorter than 16, or when
  /// even 16 makes fewer blocks and the kernel is small enough for one warp
  /// per output (infer-cuda-map-parallel-loops).
  std::optional<int64_t> pickTile(const Contraction &c) {
    int64_t ySize = c.size(c.ys), xSize = c.size(c.xs);
    int64_t batch = c.size(c.batch), k = c.size(c.ks);
    // min-blocks 1 tiles everything (tests); otherwise small sides or
    // reductions are not worth the staging.
    if (minBlocks > 1 && (ySize < kThreads || xSize < kThreads || k < kStep)) {
      return std::nullopt;
    }
    for (int64_t tile : {64, 32, 16}) {
      int64_t blocks =
          llvm::divideCeil(ySize, tile) * llvm::divideCeil(xSize, tile) * batch;
      if (blocks >= minBlocks) {
        return tile;
      }
    }
    if (ySize * xSize * batch <= warpMaxPoints) {
      return std::nullopt;
    }
    return 16;
  }
};

} // namespace
} // namespace infer::cuda
