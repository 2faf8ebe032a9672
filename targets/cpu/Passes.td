//===- Passes.td - CPU target passes --------------------------------------===//

#ifndef INFER_TARGETS_CPU_PASSES_TD
#define INFER_TARGETS_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ImplicitGemmPass : Pass<"infer-cpu-implicit-gemm", "::mlir::func::FuncOp"> {
  let summary = "Folds copies feeding a contraction's B operand into the contraction";
  let description = [{
    A convolution lowers to an im2col copy (`col[n, g, c, k..., o...] =
    x[n, g, c, o*s + k*d...]`), a reshape of it to `[n, g, K, N]`, and a
    matmul. Materialized, the columns are K/C times the input (9x for a
    3x3 window) and, for early layers, several times the L2 cache: the
    copy and the matmul's reads of it go through memory. On tensors, this
    pass turns such a static reshape into `tensor.collapse_shape`, expands
    the contraction's iteration space over it, and fuses the copy in, so
    the contraction reads `x` through the window map (an implicit GEMM).
    The register-tiled kernels (`infer-cpu-contraction-kernels`) then
    pack each panel of B straight from `x` into L1. Only f32 contractions
    with static shapes are rewritten (the shapes the kernels take), and
    only windows of stride 1 and no dilation: a strided window's panel
    would be gathered element by element, while the copy's strided reads
    vectorize. Other copies and reshapes are left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def WinogradPass : Pass<"infer-cpu-winograd", "::mlir::func::FuncOp"> {
  let summary = "Writes 3x3 stride-1 convolutions as Winograd F(2x2, 3x3)";
  let description = [{
    A convolution's matmul over an im2col copy through a 3x3 window of
    stride 1 and no dilation (one group, f32, static shapes, constant
    filters, at least `min-channels` input channels and filters) becomes
    Winograd's minimal filtering F(2x2, 3x3): a generic marked `infer.winograd = "input"` computes the
    16 terms B^T d B of every 4x4 input tile (2 apart) into v [16, n, c,
    tile rows, tile columns]; one contraction with the term as a batch
    dim multiplies them by the filters' terms G g G^T [16, f, c]
    (computed here); a generic marked `infer.winograd = "output"` (and
    `infer.epilogue_host`) computes each output element from its tile's
    16 products (A^T m A) into [n, f, tile rows, 2, tile columns, 2],
    the output plane row-major. An odd plane gets a zero row or column
    more on its padded input and its last output row or column cropped.
    When the terms of the whole plane exceed `max-term-bytes`, the three
    run once per band of tile rows (each band's output transform writing
    its rows of the plane), and the convolution's consumer runs after
    the last.
    The matmuls take 16 products per 4 outputs and input channel where
    the direct form takes 36. `infer-cpu-winograd-kernels` writes the two
    marked generics as vector code.
  }];
  let options = [
    Option<"minChannels", "min-channels", "int64_t", "16",
           "Fewest input channels and filters a convolution needs">,
    Option<"maxTermBytes", "max-term-bytes", "int64_t", "4194304",
           "Most bytes of terms (16 x tiles x (channels + filters) floats) "
           "written at once: a convolution with more runs in bands of tile "
           "rows, so that each band's terms are read back from cache">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def WinogradKernelsPass : Pass<"infer-cpu-winograd-kernels", "::mlir::func::FuncOp"> {
  let summary = "Writes the Winograd transforms as vector loops";
  let description = [{
    The generics `infer-cpu-winograd` marks, on buffers of static shape
    and strides. The input transform runs per (n, c) and tile row over
    vectors of tiles: tap (i, j) of a vector of tiles is the even or odd
    lanes of a wide load of input row 2 ty + i from column 2 tx or 2 tx +
    2; the 16 terms are stored to the 16 outputs, the row's last tiles
    masked. The output transform runs per (n, f) and tile row over vectors
    of tiles: the 16 products are loaded, the 2x2 outputs computed, and
    each output row's two vectors interleaved into consecutive elements.
    When the output's consumer can run as an epilogue (bias, activation,
    residual: the contraction kernels' rule), it is applied to those
    vectors and stored to its output, and the output is never written.
    With `parallel`, the (c) and (f) loops are scf.parallel.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits (128, 256 or 512)">,
    Option<"parallel", "parallel", "bool", "false",
           "Run the channels' loops as scf.parallel">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def TransposeRhsPass : Pass<"infer-cpu-transpose-rhs", "::mlir::func::FuncOp"> {
  let summary = "Gives contractions with a (.., n, k)-indexed B a transposed copy of it";
  let description = [{
    The register-tiled kernels read B a row (along n) at a time. A static
    f32 contraction whose B is indexed (.., n, k) (Gemm with transB, the
    input and hidden projections of recurrent layers, Q . K^T) gets a
    `linalg.transpose` of B into (.., k, n), placed right after B's
    definition so that a weight or a loop-invariant operand is transposed
    outside the loops (a recurrent layer's hidden weights once per run, not
    once per time step); the contraction's map for B swaps its last two
    results.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PackWeightsPass : Pass<"infer-cpu-pack-weights", "::mlir::ModuleOp"> {
  let summary = "Packs constant A and B operands of contractions into the kernels' layouts";
  let description = [{
    For each f32 contraction on buffers that `infer-cpu-contraction-kernels`
    takes, with at least one full tile of rows, whose A operand (the one
    the kernels broadcast: a convolution's filters) is an M x K row-major
    view of a constant `memref.global`, adds a private constant global
    holding A as `[ceil(M / MR)][K][MR]` (rows past M are zero; MR is the
    kernels' tile height for `vector-bits`) and marks the contraction with
    `infer.packed_lhs = {global = @packed, operand = A's index, rows = MR}`. The
    kernels then read each tile's rows of A as one contiguous stream
    instead of MR streams a row of A apart. Weights shared by several
    contractions are packed once; the original global stays until symbol
    DCE finds it unused. A contraction the kernels compute with transposed
    tiles (vectors along M) gets tiles of two vectors of rows instead of
    MR (`rows` = 32 at 512 bits, 16 at 256).

    A constant B read as rows (K x N row-major: a MatMul's or Gemm's
    weights) whose panels the usual tiles would copy at run time (more
    than 3 tiles of rows, f32, static N) is packed into those panels,
    `[ceil(N / NR)][K][NR]` with NR = 2 vectors (columns past N zero), and
    the contraction marked `infer.packed_rhs = {global = @panels, operand
    = B's index, width = NR}`: each panel is then one stream and nothing
    is copied at run time.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits (sets MR as the kernels do)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def PadBordersPass : Pass<"infer-cpu-pad-borders", "::mlir::func::FuncOp"> {
  let summary = "Fills only the border of a padded buffer whose interior is copied in";
  let description = [{
    A `tensor.pad` bufferizes to a fill of the whole padded buffer and a
    copy of the source into a subview of it, so the interior is written
    twice. When a fill (`linalg.fill`, or a `linalg.map` with no inputs
    yielding an outside value) of a static buffer is followed, with only
    view ops in between, by a `memref.copy` into a static unit-stride
    subview of it, the fill is replaced by fills of the border: for each
    dim, the slabs before and after the interior, spanning the interior
    in earlier dims and everything in later ones.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ElideInteriorCopiesPass : Pass<"infer-cpu-elide-interior-copies", "::mlir::func::FuncOp"> {
  let summary = "Computes a padded buffer's interior in place instead of copying it in";
  let description = [{
    Runs on buffers after infer-cpu-pad-borders and before the workspace
    is planned. For `memref.copy %v, %i` where `%v` is a static allocation
    written by one linalg op that writes all of it (its only output,
    through a permutation map, not read), or by a `linalg.fill` of all of
    it right before one that accumulates onto it (a max pool), and `%i` is
    a static unit-stride subview of a static allocation `%p` (the padded
    buffer) that nothing before the copy touches except through subviews
    disjoint from `%i` (the border fills; the rows of a plane that
    earlier bands of a Winograd convolution wrote): `%p` and `%i`
    move before the op (and its fill), which now write `%i`; the copy and
    `%v` go. Other users of `%v` may only be linalg ops reading it as an
    input after the writer, directly or through a static reshape
    (memref.reshape, expand_shape, collapse_shape); they read `%i`, the
    reshape remade over it when its strides allow, else nothing changes.
    A convolution's padded input is then written once, by its producer.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def UnplanFusedOutputsPass : Pass<"infer-cpu-unplan-fused-outputs", "::mlir::func::FuncOp"> {
  let summary = "Keeps the outputs the contraction kernels never write out of the workspace plan";
  let description = [{
    Runs on buffers right before infer-plan-workspace. A contraction that
    infer-cpu-contraction-kernels will make one kernel of with its
    elementwise consumer (the epilogue `matchEpilogue` accepts), over a
    single k-block and from a `linalg.fill` of C (no partial sums stored
    between blocks, no initial values read), never touches its own output
    C: the kernel stores the consumer's result. C's static allocation in
    the entry block is marked `infer.unplanned`, which the planner leaves
    out; once the kernels are made nothing uses it and canonicalization
    removes it. Should a kernel still use it, it stays an allocation of
    its own, which is correct, only not free.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits, as the kernels' (128, 256 or 512)">,
    Option<"kBlock", "k-block", "int64_t", "256",
           "Reduction rows per block, as the kernels'">,
    Option<"l2Bytes", "l2-bytes", "int64_t", "1048576",
           "L2 cache bytes per core, as the kernels'">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ProfileStampsPass : Pass<"infer-cpu-profile-stamps", "::mlir::ModuleOp"> {
  let summary = "Reads the cycle counter between kernels into the workspace (--profile)";
  let description = [{
    Runs on buffers, after the kernels are made and before linalg becomes
    loops, on a module whose kernels `infer-mark-kernels` numbered. The
    entry function's top-level ops that do work are split into segments,
    maximal runs of ops with the same kernel mark (an op without one
    joins the segment before it). Before each segment and before the
    return, `llvm.readcyclecounter` is stored into an i64 slot after the
    planned buffers (the workspace grows by 8 bytes per stamp, 64-byte
    aligned), so stamp j..j+1 spans segment j and the segments cover the
    whole run. A kernel left with no top-level op of its own, whose code
    sits inside another kernel's (an elementwise consumer fused into a
    contraction's epilogue), is merged into that kernel. The module
    attribute `infer.profile` records the stamps' `offset`, the `kernels`
    (each a dictionary of `name`, ONNX `nodes`, `op_types` joined by '+',
    `flops` and `bytes`: the size of every buffer it reads or writes,
    once) and per segment its kernel's index (`segments`); the ABI
    constant carries them to the runtime.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def ContractionKernelsPass : Pass<"infer-cpu-contraction-kernels", "::mlir::ModuleOp"> {
  let summary = "Rewrites f32 contractions on buffers into register-tiled vector kernels";
  let description = [{
    Matmul-shaped `linalg` ops on memrefs (`C[.., m, n] += A[.., m, k] *
    B[.., k, n]`, any batch dims, `n` the unit-stride innermost dimension
    of B and C; convolutions reach this form through im2col) become loop
    nests over vectors: an MR x NR tile of C lives in registers while the
    reduction runs over a block of `k-block` rows of B, one FMA per row
    of the tile and vector of the row. NR is two vectors of `vector-bits`;
    MR is 6 (256 bits) or 8 (512 bits), so the accumulators, one row of B
    and a broadcast fit the register file. Remainder rows run as a smaller
    tile; remainder columns use masked loads and stores. With `parallel`
    the loop over column panels (each writes its own columns of C) is an
    `scf.parallel`. Shapes must be static; anything else is left to the
    loop lowering.

    The parallel loop has at most 8 iterations (groups of panels, or of
    row tiles when there are few panels): each group reads all of A (or
    B), so fewer groups read it fewer times. With `runtime-threads` the
    count is the executor's thread count instead, known at run time: a
    call to `@__infer_num_threads() -> index` (declared here, defined by
    `infer-cpu-parallel-to-runtime`) sizes the groups, one per thread.

    Transposed tiles: a contraction whose A `infer-cpu-pack-weights`
    packed for them (`rows` = two vectors: a convolution whose output
    plane fills vectors worse than its output channels do, with a fill of
    C before it and K >= 128) keeps two vectors of C's rows by 14 columns
    (6 on AVX2) in registers, each column a broadcast of B's element read
    in place, over the whole reduction; the tile reaches C (and a fused
    epilogue) row by row, transposed in registers. Work is shared out as
    units of a tile's chunk of columns (whole rows of the plane) and group
    of panels.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits (128, 256 or 512)">,
    Option<"kBlock", "k-block", "int64_t", "256",
           "Reduction rows per block (a k-block x NR panel of B stays in L1)">,
    Option<"l2Bytes", "l2-bytes", "int64_t", "1048576",
           "L2 cache bytes per core of the target: whether C and the "
           "operand each sweep re-reads stay in it decides between "
           "k-blocks and one block of all of K">,
    Option<"parallel", "parallel", "bool", "false",
           "Emit the loop over column panels as scf.parallel">,
    Option<"runtimeThreads", "runtime-threads", "bool", "false",
           "With parallel: one group of panels (or rows) per thread of the "
           "executor, counted at run time (@__infer_num_threads)">,
    Option<"byteDotBits", "byte-dot-bits", "unsigned", "0",
           "Widest vpdpbusd for contractions over packed 8-bit lanes: 512 "
           "(AVX-512 VNNI), 256 (AVX-VNNI or AVX-512 VNNI with VL), 0 "
           "(none: each lane's product apart)">,
    Option<"bf16DotBits", "bf16-dot-bits", "unsigned", "0",
           "The widest vdpbf16ps of the target (512 or 256 with "
           "AVX512-BF16; 0: none, two FMAs on the widened lanes) for "
           "contractions over bfloat16 pairs">,
    Option<"wordDot", "word-dot", "bool", "false",
           "Without byte-dot instructions, AVX2's vpmaddwd on the lanes' "
           "16-bit halves (exact) instead of each lane's product apart">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def FuseChannelLoopsPass : Pass<"infer-cpu-fuse-channel-loops", "::mlir::func::FuncOp"> {
  let summary = "Runs a depthwise kernel inside the parallel loop of the kernel that writes its channels";
  let description = [{
    infer-cpu-contraction-kernels marks a kernel's `scf.parallel` over
    chunks of C's rows (`infer.fuse_next`, the chunk: its step) when the
    next kernel, marked `infer.fused_channels`, runs in parallel over the
    same rows one at a time and its iteration m reads only channel m of
    what the first wrote (ChannelFusion.h: an expansion and the depthwise
    convolution of an inverted-residual block). This pass moves the
    second loop's body into the first's, after the chunk's own work, as
    an `scf.for` over the chunk's rows: each thread then convolves the
    channels it has just computed, from its own caches. Unit loops around
    either are inlined first; only ops without memory effects may lie
    between the two (they move before the first), else both are left as
    they are, which is correct. The marks are removed.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def WindowKernelsPass : Pass<"infer-cpu-window-kernels", "::mlir::func::FuncOp"> {
  let summary = "Writes pooling windows as vector loops over output rows";
  let description = [{
    A generic on buffers with static loops whose output is indexed by its
    parallel dims in loop order (unit-stride innermost), whose body reads
    the output element and one input's (other inputs unused: a window
    shape) with arith/math ops only, whose input is indexed linearly with
    stride 1 or 2 along the innermost output dim, and whose reduction dims
    (a pooling window) take at most `max-window` iterations in all, becomes
    vector code: per output row, vectors of lanes along the row, each
    taking every tap in registers in the generic's order (results are
    bit-identical) and stored once, the row's last lanes masked; a
    stride-2 tap is one wide load with its even elements taken. A fill of
    the output just before seeds the accumulators and goes. With
    `parallel`, the first output dim of 4 or more iterations with only
    unit dims outside it (the channels) is an scf.parallel.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits (128, 256 or 512)">,
    Option<"maxWindow", "max-window", "int64_t", "64",
           "Most reduction iterations per output element">,
    Option<"parallel", "parallel", "bool", "false",
           "Run the channels' loop as an scf.parallel">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def VectorCopiesPass : Pass<"infer-cpu-vector-copies", "::mlir::func::FuncOp"> {
  let summary = "Writes copies along unit-stride rows as vector loads and stores";
  let description = [{
    A linalg.copy on buffers whose innermost dim has unit stride in both
    the source and the target (a model input copied into a padded buffer's
    interior, a result copied into the caller's output) becomes loops over
    its outer dims and, along each row, whole vectors loaded and stored,
    the row's last lanes masked. (Left to LLVM, such a copy over views
    with offsets known only at run time came out as 8-lane gathers and
    scatters.)
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", "256",
           "Vector register width in bits (128, 256 or 512)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def WindowsInnermostPass : Pass<"infer-cpu-windows-innermost", "::mlir::func::FuncOp"> {
  let summary = "Moves a pooling window's dims inside the output dims";
  let description = [{
    A generic on buffers whose reduction dims have static sizes (at most
    `max-window` iterations in all) and come before some parallel dim (a
    pooling op over (n, c, kh, kw, oh, ow)) is interchanged so every
    reduction dim follows every parallel one, each group in its order.
    Its loops then take each output element's taps innermost, which LLVM
    unrolls, keeping the element in a register and vectorizing the output
    row, instead of sweeping the output once per tap. The taps of an
    element keep their order, so results are bit-identical.
  }];
  let options = [
    Option<"maxWindow", "max-window", "int64_t", "64",
           "Most reduction iterations per output element to move inside">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ParallelLoopsPass : Pass<"infer-cpu-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Splits large linalg ops on buffers into parallel chunks";
  let description = [{
    Every linalg op on buffers at the top level of the function with at
    least `min-iterations` iterations (an iteration whose body computes an
    exp, log, tanh, erf, ... counting as 17 per such op) is tiled along
    its first parallel
    dimension of size 2 or more into about `chunks` tiles, as an
    `scf.parallel` (tasks for the runtime's executor, or an OpenMP
    worksharing loop, once converted). When that dimension gives fewer
    than half the chunks (a model input's 3 channels), the next parallel
    ones are tiled too, for about `chunks` tiles in all. The tiled
    dimensions being parallel, tiles write disjoint parts of the outputs.
    Ops nested in loops stay serial.
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", "16384",
           "Smallest iteration count worth a parallel region">,
    Option<"chunks", "chunks", "int64_t", "32",
           "Tiles to split the chosen dimension into">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def HoistParallelAllocasPass : Pass<"infer-cpu-hoist-parallel-allocas", "::mlir::func::FuncOp"> {
  let summary = "Moves static allocas of OpenMP loop bodies to the parallel region's entry";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel loop body in a
    `memref.alloca_scope`, which must remain a single block while the
    pipeline lowers the loops inside it. A static `memref.alloca` directly
    in such a scope (the contraction kernels' pack buffer) moves to the
    entry block of the enclosing `omp.parallel`: each thread runs that
    region once, so it gets one buffer, which every iteration it takes
    reuses. Without allocas, canonicalization folds the scope away.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
}

def ParallelToRuntimePass : Pass<"infer-cpu-parallel-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Outlines OpenMP parallel loops into tasks run by the caller's executor";
  let description = [{
    Each `omp.parallel` holding one `omp.wsloop` (the form
    `convert-scf-to-openmp` gives a parallel loop, with its body already in
    the LLVM dialect) becomes an internal task function
    `void F_taskN(ptr ctx, i64 begin, i64 end)`, which loads the values the
    region uses from `ctx` (constants and global addresses are recomputed),
    runs the region's prefix (per-thread buffers) and the loop body for the
    linear iterations [begin, end) of the collapsed nest. In its place the
    caller stores those values in a stack struct and calls
    `__infer_parallel_for(task, ctx, iterations)`, an internal function
    this pass defines: it calls `parallel_for` of the executor in the
    thread-local `__infer_executor` (infer_abi_executor_t, runtime ABI
    version 7), or the task once over all iterations when there is no
    executor or fewer than two iterations. No OpenMP op remains, so the
    object needs no OpenMP runtime. A declared
    `llvm.func @__infer_num_threads() -> i64` (the thread count
    `infer-cpu-contraction-kernels` sizes its groups by) gets its body:
    the executor's `num_threads` (ABI version 9), or 1 without one.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // INFER_TARGETS_CPU_PASSES_TD
