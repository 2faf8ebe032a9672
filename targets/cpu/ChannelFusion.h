//===- ChannelFusion.h - a depthwise kernel inside its producer's loop -*- C++
//-*-===//
//
// A contraction whose rows of C are the channels the next kernel (a
// depthwise convolution, in parallel over those channels) reads: how the
// two kernels split their work so that each thread reads what it wrote,
// and when the second can run inside the first's parallel loop, chunk of
// channels by chunk (infer-cpu-fuse-channel-loops).
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_CHANNELFUSION_H
#define INFER_TARGETS_CPU_CHANNELFUSION_H

#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/Epilogue.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace infer::cpu {

/// On the kernel's scf.parallel over chunks of C's rows (its step the
/// chunk) whose next kernel may run inside it, and on that next kernel's
/// scf.parallel over the same rows one at a time.
inline constexpr llvm::StringLiteral kFuseNextAttr = "infer.fuse_next";
inline constexpr llvm::StringLiteral kFusedChannelsAttr =
    "infer.fused_channels";

/// Whether `next` runs a batch loop over C's rows in parallel (the first
/// batch dim that is not 1 has KernelBuilder::kMinParallelBatch
/// iterations or more: a depthwise convolution's channels) and reads the
/// buffer `written`, when `c`'s B is small enough for every thread to
/// read all of it: the kernel of `c` then splits its rows the same way.
bool readsRowsPerThread(const Contraction &c, const Contraction &next,
                        mlir::Value written);

/// The rows of C per chunk when the kernel of `c` (tiles of `rows` rows,
/// k-blocks of `kBlock`, `l2Bytes` of L2: reductionBlock), with its consumer
/// `epilogue`, can run the kernel of `next` inside its parallel loop, the
/// channels each chunk of rows wrote right after it; nullopt when it cannot. It
/// can when `c` writes only the consumer's result (f32, one k-block, from a
/// fill) into a buffer of channels, row m of C into channel m, which `next`
/// reads with iteration m of its parallel batch loop inside channel m alone,
/// through a window of unrolled taps (3x3); and when neither kernel writes what
/// the other reads otherwise.
std::optional<int64_t> channelChunkRows(const Contraction &c,
                                        const Epilogue &epilogue,
                                        const Contraction &next, int64_t kBlock,
                                        int64_t rows, int64_t l2Bytes);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_CHANNELFUSION_H
