//===- ChannelFusion.cpp - a depthwise kernel inside its producer's loop --===//
//
// An inverted-residual block expands its input with a 1x1 convolution (a
// contraction whose rows of C are output channels), clips it into a
// padded buffer, and convolves each channel with a depthwise kernel that
// runs in parallel over the channels. As two kernels, the expansion's
// output went to L3 or memory and came back (mobilenet_v2's 144 x 56 x 56:
// 1.9 MB) and, split by pixels then by channels, half of it came from
// the other core's caches. Run as one, the expansion computes a chunk of
// channels (rows of C) and the depthwise kernel convolves those channels
// right after, from L2, on the same thread: channelChunkRows says when
// that is correct and how many channels a chunk takes;
// infer-cpu-fuse-channel-loops (FuseChannelLoops.cpp) moves the second
// kernel's loop into the first's.
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/ChannelFusion.h"

#include "targets/cpu/BufferViews.h"
#include "targets/cpu/KernelBuilder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace infer::cpu {

namespace {

/// Row ranges make every thread read (and pack) all of B: only for a B of
/// at most this many bytes (mobilenet_v2's expansions at 14x14, 50 KB; at
/// 28x28 and 56x56, 100-300 KB, the packs cost more than the depthwise
/// layers gained: cpu-gemm-loops.md).
constexpr int64_t kMaxRowRangesRhsBytes = 64 * 1024;

/// Fused kernels: every chunk reads all of B, so B should stay in L2
/// beside a chunk's channels (56 x 56 x 24 channels: 300 KB; at 112 x 112
/// x 16, 800 KB, it would come from L3 once per chunk).
constexpr int64_t kMaxFusedRhsBytes = 512 * 1024;
/// The padded channels a chunk writes and the depthwise kernel then reads
/// stay within this many bytes...
constexpr int64_t kChunkBytes = 256 * 1024;
/// ...and there are at least this many chunks where the tiles allow, for
/// the threads to share out evenly and to take over from a slow one (at 8,
/// 144 channels made 9 chunks of 16, split 5:4 on two threads: mobilenet_v2
/// 3.72 ms of kernel minima at 2 threads, against 3.66 at 16).
constexpr int64_t kMinChunks = 16;

/// Whether any of `values` shares storage with `other`.
bool overlapsAny(ArrayRef<Value> values, Value other) {
  Storage storage = storageOf(other);
  return llvm::any_of(
      values, [&](Value value) { return storageOf(value).overlaps(storage); });
}

/// The inputs of `op` but operand `skip`.
SmallVector<Value> inputsBut(linalg::LinalgOp op, unsigned skip) {
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (input->getOperandNumber() != skip) {
      inputs.push_back(input->get());
    }
  }
  return inputs;
}

/// The first batch dim of `next` that is not 1, when its kernel runs that
/// loop in parallel.
std::optional<unsigned> parallelBatch(const Contraction &next) {
  std::optional<size_t> level =
      parallelBatchLevelOf(next, KernelBuilder::kMinParallelBatch);
  return level ? std::optional<unsigned>(next.batch[*level]) : std::nullopt;
}

} // namespace

bool readsRowsPerThread(const Contraction &c, const Contraction &next,
                        Value written) {
  if (c.rhsBytes() == 0 || c.rhsBytes() > kMaxRowRangesRhsBytes ||
      !parallelBatch(next)) {
    return false;
  }
  Storage storage = storageOf(written);
  linalg::LinalgOp op = next.op;
  return llvm::any_of(op.getDpsInputs(), [&](Value input) {
    return storageOf(input).overlaps(storage);
  });
}

std::optional<int64_t> channelChunkRows(const Contraction &c,
                                        const Epilogue &epilogue,
                                        const Contraction &next, int64_t kBlock,
                                        int64_t rows, int64_t l2Bytes) {
  // C never written: the kernel stores the consumer's result only.
  if (!c.element.isF32() || c.byteDot || c.accElement || c.mDims.size() != 1 ||
      llvm::any_of(c.ranges, ShapedType::isDynamic) ||
      c.k > reductionBlock(c, kBlock, rows, l2Bytes) ||
      !initializingFill(c.op) || c.rhsBytes() == 0 ||
      c.rhsBytes() > kMaxFusedRhsBytes) {
    return std::nullopt;
  }
  for (unsigned d : c.batch) {
    if (c.ranges[d] != 1) {
      return std::nullopt;
    }
  }
  // Windows of unrolled taps only: with their taps in a loop (5x5), the
  // fused depthwise kernels ran 20% slower than apart at 1 thread
  // (PP-OCR cls on Zen 4), no faster at 2.
  std::optional<unsigned> batch = parallelBatch(next);
  if (!batch || next.ranges[*batch] != c.m || !next.gather ||
      ShapedType::isDynamic(next.k) || next.k > KernelBuilder::kUnrolledK ||
      !next.element.isF32() || next.byteDot || next.accElement) {
    return std::nullopt;
  }
  // The consumer's dim over C's rows (its others before the row are 1),
  // and the dim of its output that dim indexes: the channels.
  linalg::GenericOp consumer = epilogue.op;
  std::optional<unsigned> rowDim;
  for (size_t d = 0; d < epilogue.split; ++d) {
    if (epilogue.domain[d] == 1) {
      continue;
    }
    if (rowDim || epilogue.domain[d] != c.m) {
      return std::nullopt;
    }
    rowDim = d;
  }
  if (!rowDim) {
    return std::nullopt;
  }
  OpOperand *output = consumer.getDpsInitOperand(0);
  AffineMap map = consumer.getMatchingIndexingMap(output);
  std::optional<unsigned> channel;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(*rowDim)) {
      continue;
    }
    if (channel || expr != getAffineDimExpr(*rowDim, expr.getContext())) {
      return std::nullopt;
    }
    channel = position;
  }
  if (!channel) {
    return std::nullopt;
  }
  // The output: the buffer of channels itself, or a box in it that spans
  // all of its channels (a padded buffer's interior).
  Value out = output->get(), channels = out;
  if (auto view = out.getDefiningOp<memref::SubViewOp>()) {
    std::optional<Box> box = staticBox(view);
    if (!box || box->offsets[*channel] != 0) {
      return std::nullopt;
    }
    channels = view.getSource();
  }
  if (!identityStatic(channels)) {
    return std::nullopt;
  }
  auto type = cast<MemRefType>(channels.getType());
  if (type.getDimSize(*channel) != c.m ||
      llvm::any_of(type.getShape().take_front(*channel),
                   [](int64_t size) { return size != 1; })) {
    return std::nullopt;
  }
  int64_t slab = 1;
  for (int64_t size : type.getShape().drop_front(*channel + 1)) {
    slab *= size;
  }
  // Iteration m of next's parallel loop reads elements [m * slab, (m + 1)
  // * slab) of the same buffer only: channel m.
  Value image = next.op->getOperand(next.rhs);
  if (!identityStatic(image) || viewRoot(image) != viewRoot(channels) ||
      next.coefficients[*batch] != slab) {
    return std::nullopt;
  }
  int64_t spread = 0;
  for (auto [d, range] : llvm::enumerate(next.ranges)) {
    if (d == *batch) {
      continue;
    }
    if (next.coefficients[d] < 0) {
      return std::nullopt;
    }
    spread += next.coefficients[d] * (range - 1);
  }
  if (spread >= slab) {
    return std::nullopt;
  }
  // Otherwise, neither writes what the other reads: next's outputs (its
  // C, its own consumer's) stay clear of the first kernel's operands and
  // of the channels; the first's channels of next's other inputs.
  linalg::LinalgOp first = c.op, second = next.op;
  SmallVector<Value> firstReads = inputsBut(consumer, epilogue.cInput);
  llvm::append_range(firstReads, first.getDpsInputs());
  firstReads.push_back(channels);
  SmallVector<Value> secondWrites = {second.getDpsInitOperand(0)->get()};
  SmallVector<Value> secondReads = inputsBut(second, next.rhs);
  if (std::optional<Epilogue> own = ShapedType::isDynamic(next.n)
                                        ? std::nullopt
                                        : matchEpilogue(second, next.n)) {
    secondWrites.push_back(own->op.getDpsInitOperand(0)->get());
    llvm::append_range(secondReads, inputsBut(own->op, own->cInput));
  }
  for (Value written : secondWrites) {
    if (overlapsAny(firstReads, written)) {
      return std::nullopt;
    }
  }
  if (overlapsAny(secondReads, channels)) {
    return std::nullopt;
  }
  // Chunks of whole tiles: their padded channels within kChunkBytes, at
  // least kMinChunks of them where the rows allow.
  int64_t fit = kChunkBytes / (slab * 4);
  int64_t even = llvm::divideCeil(c.m, kMinChunks);
  int64_t chunk = std::max(std::min(fit, even) / rows * rows, rows);
  if (chunk >= c.m) {
    return std::nullopt;
  }
  return chunk;
}

} // namespace infer::cpu
