//===- KernelBuilder.h - emits one contraction's register-tiled kernel -*- C++
//-*-===//
//
// The loop nest infer-cpu-contraction-kernels emits for one contraction
// (see ContractionKernels.cpp for its shape): batch loops, k-blocks,
// panels of B's columns, MR x NR register tiles. ContractionKernels.cpp
// defines the loops and tiles, PanelRows.cpp how a panel reads its rows of
// B (in place, packed, gathered or as runs of consecutive elements),
// LhsBlocks.cpp the copies of A's k-blocks where its rows alias in L1.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TARGETS_CPU_KERNELBUILDER_H
#define INFER_TARGETS_CPU_KERNELBUILDER_H

#include "targets/cpu/ContractionMatch.h"
#include "targets/cpu/Epilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace infer::cpu {

class KernelBuilder {
public:
  KernelBuilder(mlir::OpBuilder &b, Contraction c, unsigned vectorBits,
                int64_t kBlock, bool parallel, mlir::Value &shared,
                mlir::Value init, std::optional<Epilogue> epilogue)
      : b(b), loc(c.op.getLoc()), c(c), parallel(parallel), init(init),
        epilogue(std::move(epilogue)), elem(c.element),
        accElem(c.accElement ? c.accElement : c.element),
        lanes(std::max<int64_t>(vectorBits / 32, 4)),
        rows(tileRowsFor(vectorBits)), kBlock(kBlock), ivs(c.numIds()),
        shared(shared) {
    panelWidth =
        panelVectors(c.m, rows, lanes, c.gather, c.n, c.rhsBytes()) * lanes;
  }

  /// Reads A from `packed` ([ceil(M / MR)][K][MR], infer-cpu-pack-weights)
  /// instead of from A's rows.
  void setPackedLhs(mlir::Value packed) { packedLhs = packed; }

  /// A's packed tiles, one set per index of batch loop `dim` (a batch of
  /// constant matrices: [batch * tiles][K][MR]): the tile of batch i is
  /// i * `tiles` further.
  void setPackedLhsBatch(unsigned dim, int64_t tiles) {
    lhsBatchDim = dim;
    lhsBatchTiles = tiles;
  }

  /// Reads B from `panels` ([ceil(N / NR)][K][NR], infer-cpu-pack-weights)
  /// instead of from B's rows (no panel is packed at run time).
  void setPackedRhs(mlir::Value panels) { packedRhs = panels; }

  /// NR: the usual tiles' panel width.
  int64_t panelColumns() const { return panelWidth; }

  /// Computes with transposed tiles (TransposedTiles.cpp): A, packed for
  /// them as [ceil(M / R)][K][R] with R = transposedRowsFor, in vectors
  /// along M, B's elements broadcast. C must be filled right before
  /// (`init`).
  void setTransposed(bool on) { transposed = on; }

  /// Splits parallel loops into one group per thread of the executor, as
  /// `count` (@__infer_num_threads) returns at run time, instead of at
  /// most kMaxGroups.
  void setThreadCount(mlir::func::FuncOp count) { threadCount = count; }

  /// The widest byte-dot instruction the target has (vpdpbusd: 512 with
  /// AVX-512 VNNI, 256 with AVX-VNNI; 0: none), and whether it has AVX2's
  /// vpmaddwd for the case of none (else the lanes' products apart).
  void setByteDotBits(unsigned bits, bool words) {
    byteDotBits = bits;
    wordDot = words;
  }

  /// The widest vdpbf16ps the target has (512 or 256; 0: none, two FMAs
  /// on the widened lanes).
  void setBf16DotBits(unsigned bits) { bf16DotBits = bits; }

  void build();

  /// The serial functions' buffer for copies of A (lhsBlockRows), made by
  /// the first contraction that needs it.
  void shareLhsBuffer(mlir::Value &buffer) { sharedLhs = &buffer; }

  /// A fill of a slab of B's buffer that spans the whole parallel batch
  /// dim (a padded input's border rows, across all channels), made per
  /// batch iteration for its own slice inside the kernel's parallel loop:
  /// the thread that reads a channel's border writes it, instead of one
  /// thread (or another split) writing every channel's before the kernel.
  struct BatchFill {
    mlir::Value buffer;
    llvm::SmallVector<int64_t> offsets, sizes;
    /// The buffer dim the parallel batch loop indexes.
    unsigned dim = 0;
    mlir::Value value;
  };
  void setBatchFills(llvm::SmallVector<BatchFill> fills) {
    batchFills = std::move(fills);
  }

  /// The loop dim the kernel runs in parallel as a batch loop (a depthwise
  /// convolution's channels), if any.
  std::optional<unsigned> parallelBatchDim() {
    std::optional<size_t> level = parallelBatchLevel();
    return level ? std::optional<unsigned>(c.batch[*level]) : std::nullopt;
  }

  /// The next kernel reads C's rows split across the threads as this one
  /// would with row ranges (a depthwise convolution's channels): matmul()
  /// then takes row ranges over panel groups.
  void setRowsReadPerThread() { rowsReadPerThread = true; }

  /// The next kernel runs inside this one's parallel loop, over the
  /// channels each chunk of `rows` rows of C wrote (ChannelFusion.h): the
  /// threads take row chunks of that many rows, whatever their count.
  void setChannelChunk(int64_t rows) {
    channelChunk = rows;
    rowsReadPerThread = true;
  }

  /// The kernel's parallel loop once built (null when it has none).
  mlir::scf::ParallelOp parallelLoop() const { return builtParallel; }

  /// A batch loop of this many iterations or more runs in parallel.
  static constexpr int64_t kMinParallelBatch = 4;

  /// The longest reduction unrolled (its offsets into B constants).
  static constexpr int64_t kUnrolledK = 16;
  /// Window contractions of one row of A (depthwise convolutions) with up
  /// to this many taps run one output row per panel (rowsAsBatch): 7x7
  /// and 5x5 windows too, whose taps then take a loop (a 96-channel 7x7
  /// layer at 56x56: 1.12 -> 0.75 ms; its plane in runs per vector before).
  static constexpr int64_t kMaxRowTaps = 64;

private:
  mlir::Value index(int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  }

  /// The loop id indexing with dim `d`: the flattened K or N loop for a
  /// (single) K or N dim.
  int loopId(unsigned d);

  /// `operand`, with each of its trailing `groups` of dims collapsed into
  /// one, indexed by the group's loop id; `dims` receives the loop indexing
  /// each dim of the view (-1: the constant 0).
  mlir::Value operandView(
      mlir::OpOperand *operand,
      mlir::ArrayRef<std::pair<mlir::ArrayRef<unsigned>, unsigned>> groups,
      mlir::SmallVector<int> &dims);

  /// Loop `lb..ub step` around `body(iv, iterArgs)` which returns the
  /// values to yield.
  mlir::scf::ForOp
  loop(mlir::Value lb, mlir::Value ub, int64_t step, mlir::ValueRange init,
       mlir::function_ref<mlir::SmallVector<mlir::Value>(mlir::Value,
                                                         mlir::ValueRange)>
           body);

  /// A step of a tile's k loop: the accumulators at step `kv` to the next
  /// ones. `covered` is how many steps (this one and the next) its
  /// software prefetches are for: 1 in a loop of single steps; in an
  /// unrolled loop the group's first step takes them all and the others 0,
  /// so the prefetches' address arithmetic is paid once per group.
  using StepBody = llvm::function_ref<llvm::SmallVector<mlir::Value>(
      mlir::Value kv, mlir::ValueRange acc, int64_t covered)>;

  /// The k loop of a tile: `body` maps the accumulators `acc` (vectors of
  /// one length) at a step to the next ones; returns the final sums. With
  /// `unroll`, each iteration takes that many steps (the remainder after).
  llvm::SmallVector<mlir::Value> reductionLoop(mlir::Value lb, mlir::Value ub,
                                               mlir::ValueRange acc,
                                               StepBody body,
                                               int64_t unroll = 1);

  /// Indices for the current loop values.
  mlir::SmallVector<mlir::Value> indices(mlir::ArrayRef<int> dims);

  /// The trip count of loop dim `d`: static, or the size of an operand
  /// dim it indexes.
  mlir::Value batchBound(unsigned d);
  /// Whether batch level `level` runs in groups of iterations
  /// (rowGroupDim), kRowGroup at a time (pairs: mobilenet_v2 as fast as
  /// with 4, which compiled in 9.2 s instead of 7.3-8.8).
  bool groupsRows(size_t level);
  static constexpr int64_t kRowGroup = 2;

  /// The batch loop to run in parallel instead of the panels: the first
  /// one of at least kMinParallelBatch iterations with only unit loops
  /// outside it (a depthwise convolution's channels: one parallel region,
  /// not one per channel).
  std::optional<size_t> parallelBatchLevel();

  void batchLoops(size_t level);

  void matmul();

  /// matmul() with transposed tiles: per unit (a tile of R rows of C, two
  /// vectors of A; a chunk of columns; a group of its panels), the
  /// reduction over each panel in turn (k-block by k-block when K > KC),
  /// then the tile transposed in registers and stored row by row.
  void transposedMatmul();
  /// A unit of transposed work: a tile (of R rows of C), the chunk of
  /// columns starting at column `first` (B's offset `firstOffset`), the
  /// reduction rows k0..kEnd, the stack buffer the transposed tile's rows
  /// go through, and with k-blocks, `partial` ([panel][2 * NC][lanes])
  /// holding each panel's sums between blocks at index `slot` of the
  /// group's `panels`; `flatLhs` is the packed A as one dim (prefetches).
  struct TransposedUnit {
    mlir::Value tile, first, firstOffset, k0, kEnd, buffer, partial, flatLhs;
    mlir::Value slot;
    int64_t panels = 1;
    /// The tile's index in the packed A (tile, or further for a batch).
    mlir::Value lhsTile;
  };
  /// Prefetches A for transposed tiles at step `kv` of a unit's panel.
  void prefetchLhs(const TransposedUnit &unit, mlir::Value kv);
  /// The unit's columns first + n0 .. + columns.size(), B's offset of
  /// column first + n0 + j being the unit's, plus `offset`, plus
  /// `columns[j]`.
  void transposedTile(const TransposedUnit &unit, mlir::Value n0,
                      mlir::Value offset, mlir::ArrayRef<int64_t> columns,
                      mlir::Value source);
  /// Whether every full panel of a chunk of `width` columns has the same
  /// offsets into B relative to its first column (panels that start at
  /// whole or half output rows): a loop over them then has constant
  /// offsets from one base.
  bool uniformPanels(int64_t width, int64_t columns);

  /// matmul() for an N known only at run time (B read as rows).
  void dynamicMatmul();

  /// How many groups to split `most` units (panels or row tiles) into:
  /// the executor's threads (setThreadCount) or kMaxGroups, at most
  /// `most`, at least 1.
  mlir::Value splitCount(mlir::Value most);

  /// One parallel loop over chunks of C's rows (of whole MR tiles), each
  /// thread computing the full panels before `full` and the tail after it.
  void rowChunks(mlir::Value full, int64_t tail);

  /// One parallel loop over groups of `group` columns of the full panels
  /// before `full`; the last group also computes the `tail` columns after.
  void panelGroups(mlir::Value full, mlir::Value group, int64_t tail = 0);

  /// The full panels from n0 to nEnd and, if `tail`, the `tail` columns
  /// after nEnd, one k-block at a time: the k-block of A (M x KC) stays in
  /// L2 while every panel uses it.
  /// With `tailColumns` set (a run-time N), the last columns after nEnd
  /// too, fewer than a panel, under a run-time mask; `onlyTail` skips the
  /// full panels.
  void columns(mlir::Value n0, mlir::Value nEnd, int64_t tail, bool inParallel,
               bool onlyTail = false);

  /// Rows k0..kEnd of columns n0..n0+width of C, as vectors of `length`
  /// lanes (masked when `width` < `length`).
  /// How a panel reads its rows of B: in place (`loadRow`), gathered at
  /// `offsets`, or as runs (`parts`, see planRuns).
  /// One vector of lanes of a row: runs of consecutive elements, each an
  /// offset (for k = 0) and the lanes it fills.
  struct Part {
    /// Per run: the offset of its first element, the lanes it fills, and
    /// the first of those lanes.
    mlir::SmallVector<mlir::Value> offsets, masks, firstLanes;
    /// (Stride-2 runs.) Per run: the elements of a 2 * lanes load starting
    /// 2 * first lane before its offset that the run's even lanes take.
    mlir::SmallVector<mlir::Value> wideMasks;
  };
  struct Rows {
    mlir::Value n0, offsets;
    mlir::SmallVector<Part> parts;
    int64_t width, length;
  };

  void panel(mlir::Value n0, int64_t width, int64_t length, mlir::Value k0,
             mlir::Value kEnd, mlir::Value packed);
  /// B's rows over columns n0.. of the current batch iteration (gathers'
  /// offsets hold its batch offset).
  Rows rowsAt(mlir::Value n0, int64_t width, int64_t length);

  /// Row kv of B over the panel's columns.
  mlir::Value rowOf(const Rows &source, mlir::Value kv);

  /// For B whose innermost N dim is unit-stride and at least a vector long
  /// (a stride-1 convolution): each vector of lanes covers at most two
  /// runs of consecutive elements, the end of one output row and the start
  /// of the next. The first is a masked load, the second an expanding load
  /// into the lanes after it (no gather). Per part: the two runs' offsets
  /// for k = 0 and their lane masks.
  mlir::SmallVector<Part> planRuns(mlir::Value n0, int64_t width,
                                   int64_t length);

  mlir::Value loadRuns(const Rows &source, mlir::Value kv);

  /// Row kv of B over the panel's vectors, each from `load` given the
  /// address of its first lane's element and its valid lanes.
  mlir::Value assembleVectors(
      const Rows &source, mlir::Value kv,
      llvm::function_ref<mlir::Value(mlir::Value address, int64_t valid)> load);

  /// Row kv of B over a panel none of whose vectors crosses an output row
  /// (`wholeVectors`): one load per vector, masked to the valid lanes of a
  /// partial one.
  mlir::Value loadWhole(const Rows &source, mlir::Value kv);

  /// Row kv of B over the panel's vectors of runs: per run r of a part,
  /// `load` fills the run's lanes of `value`, given the address of B's
  /// element at lane 0's place (offset_r less stride x first_r).
  mlir::Value assembleRuns(
      const Rows &source, mlir::Value kv, int64_t stride,
      mlir::function_ref<mlir::Value(mlir::Value address, const Part &part,
                                     size_t r, mlir::Value value)>
          load);

  /// For B read through a stride-2 window: when output rows are whole
  /// vectors (every vector of a panel lies in one output row), each
  /// vector is one load of 2 * lanes - 1 consecutive elements, its even
  /// lanes taken; otherwise the same per run of lanes in one output row
  /// (`stridedRuns`, parts planned as for loadRuns), each run's lanes
  /// selected. No gather either way.
  mlir::Value loadStrided(const Rows &source, mlir::Value kv);

  /// The batch loops' part of B's offsets.
  mlir::Value batchOffset();

  /// B's offset for reduction index `kv`: linearOffset over the K dims,
  /// or, when there are several (a window's channel, row and column), a
  /// load from a table of the K offsets made at compile time, which
  /// replaces the divisions that delinearize kv at every row of a pack.
  /// With `ahead` (at most kBPrefetchSteps), row min(kv + ahead, K - 1):
  /// the table repeats its last offset kBPrefetchSteps times, so a
  /// prefetch's row ahead takes no clamp.
  mlir::Value kOffset(mlir::Value kv, int64_t ahead = 0);

  /// B as one dimension (its elements at the linear offsets the
  /// coefficients give) when its panels load as runs (a stride-1 implicit
  /// GEMM with output rows of at least lanes / 3); null otherwise.
  mlir::Value runsView();

  /// B as one dimension when its panels load as loadStrided does (setting
  /// `stridedRuns` when output rows are not whole vectors); null otherwise.
  mlir::Value stridedView();

  /// sum(coefficient[d] * index_d) over `dims`, delinearizing `flat`
  /// (innermost dim last): the offset of B's element for a K or N index.
  template <typename T>
  T linearOffset(T flat, mlir::ArrayRef<unsigned> dims,
                 mlir::function_ref<T(int64_t)> constant) {
    T offset = constant(0);
    for (size_t i = dims.size(); i-- > 0;) {
      unsigned d = dims[i];
      T position = flat;
      if (i > 0) {
        position =
            mlir::arith::RemUIOp::create(b, loc, flat, constant(c.ranges[d]));
        flat =
            mlir::arith::DivUIOp::create(b, loc, flat, constant(c.ranges[d]));
      }
      if (int64_t coefficient = c.coefficients[d]) {
        offset = mlir::arith::AddIOp::create(
            b, loc, offset,
            mlir::arith::MulIOp::create(b, loc, position,
                                        constant(coefficient)));
      }
    }
    return offset;
  }

  /// linearOffset at compile time: B's offset for a known `flat` index
  /// over `dims`.
  int64_t constantOffset(int64_t flat, mlir::ArrayRef<unsigned> dims) {
    int64_t offset = 0;
    for (size_t i = dims.size(); i-- > 0;) {
      unsigned d = dims[i];
      int64_t position = i > 0 ? flat % c.ranges[d] : flat;
      flat = i > 0 ? flat / c.ranges[d] : flat;
      offset += c.coefficients[d] * position;
    }
    return offset;
  }

  /// B's offsets (i32 lanes) for columns n0.. of the panel, with the
  /// batch loops' part added.
  mlir::Value columnOffsets(mlir::Value n0, int64_t length);

  /// Row kv of the panel, gathered from B at `columns` plus kv's offset.
  mlir::Value gatherRow(mlir::Value kv, mlir::Value columns,
                        mlir::VectorType type, int64_t width);

  /// Whether columns() copies B's panel rows into a pack buffer.
  bool packsB() const;
  /// The rows of A per block that columns() copies, a k-block at a time,
  /// into [tile][KC][MR] before the block's panels (0: A read in place).
  int64_t lhsBlockRows() const;
  /// Copies rows begin..end (whole tiles but the last) of A's k-block
  /// k0..kEnd into `buffer` ([tile][KC][MR], flat).
  void packLhs(mlir::Value buffer, mlir::Value begin, mlir::Value end,
               mlir::Value k0, mlir::Value kEnd);
  /// The flat buffer packLhs fills: this thread's, or (serial) the one
  /// every contraction of the function shares.
  mlir::Value lhsBuffer(bool inParallel);
  /// The index of [tile][step][row] in that buffer.
  mlir::Value lhsPackedAt(mlir::Value tile, mlir::Value step, int64_t row);

  /// A k-block x NR buffer for packing B: a fresh one in each parallel
  /// iteration (each thread its own; the OpenMP conversion scopes it), or
  /// the one function-wide buffer that every serial panel reuses (an
  /// alloca in a loop would grow the stack on every iteration).
  mlir::Value packBuffer(bool inParallel);

  /// A stack buffer of `type`: here (in a parallel iteration, which is its
  /// own function once outlined), or else at the function's entry (an
  /// alloca in a loop would grow the stack at every iteration).
  mlir::Value stackBuffer(mlir::MemRefType type, bool here);

  mlir::Value columnMask(int64_t width, int64_t length);

  mlir::Value loadRow(mlir::Value memref, mlir::ArrayRef<int> dims,
                      mlir::VectorType type, mlir::Value mask);

  /// An MR x NR tile of C at (m0, the panel's n0) over reduction rows
  /// k0..kEnd, reading B from `packed` (row kv - k0) when the panel was
  /// packed, else straight from `source`.
  void tile(mlir::Value m0, int64_t tileRows, const Rows &source,
            mlir::Value k0, mlir::Value kEnd, mlir::Value packed);
  /// The tile's sums over k0..kEnd (its accumulators after the k-block),
  /// and their store: C's rows, or the epilogue's after the last block.
  llvm::SmallVector<mlir::Value> tileSums(mlir::Value m0, int64_t tileRows,
                                          const Rows &source, mlir::Value k0,
                                          mlir::Value kEnd, mlir::Value packed);
  void storeSums(mlir::Value m0, int64_t tileRows, mlir::Value n0,
                 mlir::Value mask, llvm::ArrayRef<mlir::Value> sums,
                 mlir::Value kEnd);

  /// The linear index of C's current row: its leading (batch and M)
  /// indices in C's row-major order.
  mlir::Value rowIndex();
  /// C's current row as the epilogue's indices before its split (each of
  /// C's leading indices), when C's leading dims are those; else empty.
  llvm::SmallVector<mlir::Value> rowParts();

  /// B's panels packed at compile time and too large for L2: each tile of
  /// a panel prefetches its share of the next panel's k-block (after the
  /// group's last panel, the next k-block of its first), a line every few
  /// steps, so that block streams in over the whole panel rather than at
  /// the pace of its first tile's loads.
  struct NextPanelPrefetch {
    mlir::Value flat;      // packedRhs flattened; null: no prefetching
    mlir::Value base;      // the next panel's row k0
    mlir::Value tileSteps; // t * KC * linesPerStep for tile t
    int64_t tiles = 0, lineElements = 0, linesPerStep = 0;
  };
  NextPanelPrefetch nextPanelPrefetch(mlir::Value m0, mlir::Value rhsPanel,
                                      mlir::Value k0);
  void prefetchNextPanel(const NextPanelPrefetch &next, mlir::Value kv,
                         mlir::Value k0, int64_t steps);

  /// A read in place and over 1 MB (from L3 or memory: tall-skinny
  /// products): each full tile prefetches the next tile's rows of the
  /// k-block over its steps, which the hardware prefetchers do not follow
  /// (short streams, one per row).
  bool prefetchesNextTile(int64_t tileRows) const;
  void prefetchNextTile(mlir::Value m0, mlir::Value kv, mlir::Value k0,
                        int64_t steps);

  /// Prefetches `count` elements of the 1-D `flat`, `apart` elements
  /// apart from `first`, each clamped to `last`.
  void prefetchSpaced(mlir::Value flat, mlir::Value first, int64_t count,
                      int64_t apart, mlir::Value last);

  /// A packed at compile time: the tile's stream kPrefetchSteps steps past
  /// `kv`, one prefetch a cache line over `steps` steps.
  void prefetchPackedLhs(mlir::Value packedTile, mlir::Value kv, int64_t steps);

  /// Prefetches B's rows kBPrefetchSteps past `kv` at the panel's first
  /// and last columns, when B is read as rows (or through a stride-1
  /// window: the flat view) over kPrefetchRowBytes apart.
  void prefetchRows(const Rows &source, mlir::Value kv);

  /// How many elements past each row's store the epilogue prefetches C
  /// for writing (0: none).
  int64_t storePrefetchElements();

  /// acc + a * row: one FMA for f32; for packed 8-bit lanes, vpdpbusd per
  /// register (or the lanes' products one by one without it); for bf16
  /// pairs, vdpbf16ps (or two FMAs on the widened lanes).
  mlir::Value multiplyAdd(mlir::Value a, mlir::Value row, mlir::Value acc);
  mlir::Value pairDot(mlir::Value a, mlir::Value row, mlir::Value acc);

  /// Steps of k a full tile's reduction loop takes per iteration, when
  /// K is kMinUnrolledK or more (shorter ones: less code).
  static constexpr int64_t kUnrollSteps = 4;
  static constexpr int64_t kMinUnrolledK = 64;
  /// A's rows are packed (lhsBlockRows) when a multiple of this apart, in
  /// blocks whose copy takes at most kLhsPackFloats, with B of at least
  /// kMinLhsPackPanels panels.
  static constexpr int64_t kLhsPackFloats = 16 * 1024;
  static constexpr int64_t kMinLhsPackPanels = 4;
  static constexpr int64_t kMaxGroups = 8;
  static constexpr int64_t kMinTilesPerChunk = 4;
  /// Transposed tiles: units of work (a tile's group of panels) to aim
  /// for, so that threads share out a contraction of few tiles.
  static constexpr int64_t kMinParallelUnits = 8;
  /// Steps of k a packed A is prefetched ahead (MR floats a step).
  static constexpr int64_t kPrefetchSteps = 32;
  /// A tile's epilogue prefetches (for writing) the lines of its rows
  /// kStorePrefetchPanels panels ahead when C has kPrefetchStoresBytes or
  /// more: mobilenet_v2 at 2 threads, 1 and 2 panels ahead 3.67 and 3.52
  /// ms, 3, 4 and 6 panels 3.54, 3.57 and 3.63, none 3.70.
  static constexpr int64_t kStorePrefetchPanels = 2;
  static constexpr int64_t kPrefetchStoresBytes = 512 * 1024;
  static constexpr int64_t kPrefetchRowBytes = 4096;
  static constexpr int64_t kPrefetchPanelsBytes = 1024 * 1024;
  static constexpr int64_t kCacheLineBytes = 64;
  /// Steps of k transposed tiles prefetch B's rows ahead.
  static constexpr int64_t kBPrefetchSteps = 16;
  /// Steps of k the usual tiles prefetch B's rows ahead (1x1 convolutions'
  /// inputs read in place; past K, the next panel's rows).
  static constexpr int64_t kRowPrefetchSteps = 32;
  /// B's rows are prefetched for K of at least this many steps.
  static constexpr int64_t kMinBPrefetchK = 16;
  /// Transposed tiles' k-block: a block of A's tile (KC x 2 vectors) is
  /// reused by the group's panels. 512 rows (64 KB on AVX-512) outgrow L1
  /// but stay in L2 and halve the partial sums' round trips; resnet18 ran
  /// 1.5% faster than with the usual 256 (and than 1024 or no blocks).
  static constexpr int64_t kTransposedBlock = 512;
  bool inParallelBatch = false;
  /// Within a group of rowGroupCount iterations of the innermost batch
  /// loop (a depthwise convolution's output rows): the loop's dim, whose
  /// index is the group's first; tiles compute every row of the group
  /// before storing any.
  std::optional<unsigned> rowGroupDim;
  int64_t rowGroupCount = 1;
  bool transposed = false;
  /// The pack buffer of a panel group's task, when it runs columns() twice.
  mlir::Value groupPack;
  llvm::SmallVector<BatchFill> batchFills;
  /// Runs of consecutive elements a vector of B's row can span.
  int64_t runsPerVector = 2;
  /// A stride-2 B whose vectors span output rows: loaded as runs.
  bool stridedRuns = false;
  /// A unit-stride B (`flat`) whose vectors each lie in one output row.
  bool wholeVectors = false;
  /// The rows of C this thread computes, when threads split M (or the
  /// block of rows packed in blockLhs).
  mlir::Value mBegin, mEnd;
  /// The k-block of A's rows mBegin.. that columns() packed, or null.
  mlir::Value blockLhs;
  mlir::func::FuncOp threadCount;
  /// A run-time N's last columns (fewer than a panel), and the mask of the
  /// panel that computes them.
  mlir::Value tailColumns, tailMask;

  mlir::OpBuilder &b;
  mlir::Location loc;
  Contraction c;
  bool parallel;
  /// The value C holds before the contraction when a fill was folded in.
  mlir::Value init;
  /// The consumer applied to the last k-block's accumulators.
  std::optional<Epilogue> epilogue;
  /// A's and B's element type (f32, or i32 for packed lanes), and C's (f32,
  /// or i32 for packed 8-bit lanes).
  mlir::Type elem, accElem;
  unsigned byteDotBits = 0, bf16DotBits = 0;
  bool wordDot = false;
  int64_t lanes, rows, kBlock, panelWidth;
  mlir::SmallVector<mlir::Value> ivs;
  mlir::Value lhs, rhs, out, flat, strided, packedLhs, packedRhs;
  std::optional<unsigned> lhsBatchDim;
  int64_t lhsBatchTiles = 0;
  /// `tile`'s index in the packed A: further by the batch's tiles when A
  /// is a batch (setPackedLhsBatch).
  mlir::Value packedLhsTile(mlir::Value tile);
  /// The full panels columns() is looping over ([begin, end) columns).
  std::pair<mlir::Value, mlir::Value> groupColumns;
  bool rowsReadPerThread = false;
  int64_t channelChunk = 0;
  mlir::scf::ParallelOp builtParallel;
  mlir::Value kOffsets; /// the table kOffset reads, once made
  mlir::SmallVector<int> lhsDims, rhsDims, outDims;
  mlir::Value &shared;
  mlir::Value *sharedLhs = nullptr;
};

/// The fills right before `c`'s op of slabs of B's buffer that span the
/// whole of its dim indexed by the parallel batch loop `dim`, when every
/// batch iteration reads only its own slice of B (a depthwise
/// convolution's padded input: a channel's window stays in its channel):
/// the kernel can make them per iteration (KernelBuilder::setBatchFills).
/// `adopted` receives the fill ops, for the caller to erase once the
/// kernel is built.
llvm::SmallVector<KernelBuilder::BatchFill>
adoptBatchFills(const Contraction &c, unsigned dim,
                llvm::SmallVector<mlir::Operation *> &adopted);

} // namespace infer::cpu

#endif // INFER_TARGETS_CPU_KERNELBUILDER_H
