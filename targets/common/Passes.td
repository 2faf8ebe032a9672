//===- Passes.td - passes every target runs ------------------------------===//

#ifndef INFER_TARGETS_COMMON_PASSES_TD
#define INFER_TARGETS_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrepareEntryPass : Pass<"infer-prepare-entry", "::mlir::ModuleOp"> {
  let summary = "Makes the imported @main the target's entry point and records the model's signature";
  let description = [{
    The first step after graph-opt for every target. Reads @main's inputs
    and outputs (ONNX names from `graph.name`, element types, shapes) as
    the artifact will describe them, failing on a `?` dim when `target`
    (a registered target's name) needs static shapes. Each `profile`
    (`name=MIN:OPT:MAX` or `name=MIN:MAX`) sets the range a dynamic input
    accepts at run time. The result is the module attribute
    `infer.signature`: a dictionary of the model's `name`, `inputs` and
    `outputs`, each tensor a dictionary of `name`, `dtype` (ONNX
    numbering), `shape` (-1 for a dynamic dim) and, when dynamic, the
    profile's `min`, `opt` and `max`; the target's emitter reads it. @main is then renamed to the
    target's entry symbol for `name` (`<name>_main` on CPU and CUDA, the
    HLS top function `<name>`), and the graph-level attributes (argument
    and result names, `graph.model_name`, `graph.opset`) are dropped.
  }];
  let options = [
    Option<"modelName", "name", "std::string", "\"model\"",
           "The artifact's symbol prefix (a C identifier)">,
    Option<"targetName", "target", "std::string", "\"cpu\"",
           "The registered target the module is compiled for">,
    ListOption<"profiles", "profile", "std::string",
               "Range of a dynamic input's shape: name=MIN:OPT:MAX">
  ];
}

def MarkKernelsPass : Pass<"infer-mark-kernels", "::mlir::ModuleOp"> {
  let summary = "Numbers the fused graph's kernels in their locations, for --profile";
  let description = [{
    Runs on linalg on tensors, after fusion, when the model is compiled
    with `--profile`. Every top-level op of a function body that does work
    (a linalg op, a pad or concat, an op with regions such as `scf.if`)
    is a kernel; a `linalg.fill` used only as other linalg ops' output
    init (a contraction's accumulator) belongs to its users. Kernels are
    numbered in order and each gets
    `loc(fused<{infer.kernel = N : i64, flops = F : f64}>[...])`, where F
    is the kernel's arithmetic for one run: the iterations of the op times
    the arithmetic ops in its body, so a multiply-add counts two (0 for
    data movement and for dynamic loop ranges). The original location
    stays inside, so the ONNX node names and op types remain readable, and
    later rewrites carry the mark to the code they make. The target's
    instrumentation pass reads it.
  }];
}

def ExpandCopiesPass : Pass<"infer-expand-copies", "::mlir::func::FuncOp"> {
  let summary = "Rewrites memref.copy into linalg.copy (loops, no runtime call)";
  let description = [{
    The LLVM lowering turns copies between non-contiguous memrefs into calls
    to `memrefCopy` from MLIR's runner utilities, which the artifact must not
    depend on. As `linalg.copy` they become plain loops instead.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PlanWorkspacePass : Pass<"infer-plan-workspace", "::mlir::ModuleOp"> {
  let summary = "Places static intermediate buffers in one workspace planned by liveness";
  let description = [{
    Runs after bufferization, before deallocation. First, a result that
    is computed into a buffer only to be copied into its output argument
    is computed into the output directly. Then each static
    `memref.alloc` in the entry function's top-level block (one that does
    not escape through a return or call) is live from its allocation to
    the last top-level op that uses it or a view of it. Buffers are packed
    first-fit by decreasing size into one byte buffer, 64-byte aligned, so
    buffers with disjoint lifetimes share memory; each allocation becomes
    a `memref.view` into it. The buffer is appended as the function's last
    argument (`memref<SIZExi8>`) and SIZE is recorded as the module
    attribute `infer.workspace_size`, which the artifact states in its
    header and ABI constant. Dynamic or escaping allocations, those
    inside loops and those marked `infer.unplanned` (a target's pass knows
    its kernels never touch them) keep their allocation. Each view carries its
    buffer's number as `infer.buffer`, so that views of different buffers
    at the same offset stay distinct values (CSE would merge them) and
    later passes can tell a buffer's users apart from its successors'.

    With `live-through-next-op`, a buffer whose last use is a contraction
    (a linalg op with a reduction, or one marked `infer.epilogue_host`)
    stays live through the next top-level op when that is an elementwise
    linalg.generic (views, constants and allocations between them
    skipped): for a target that runs such an op as the contraction's
    epilogue, writing its output while the contraction still reads its
    operands.
  }];
  let options = [
    Option<"liveThroughNextOp", "live-through-next-op", "bool",
           /*default=*/"false",
           "Keep a contraction's operands live through an elementwise op right after it">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def ChecksToStatusPass : Pass<"infer-checks-to-status", "::mlir::ModuleOp"> {
  let summary = "Turns run-time checks (cf.assert) into the run's error status";
  let description = [{
    Runs on buffers, after the workspace is planned. The entry function
    gets one more argument, `memref<i32>`, after the workspace: the run's
    status, which the caller sets to 0. Every `cf.assert` in it becomes a
    store of its number k (1, 2, ...) into the status when its condition
    is false, so a failed check ends as an error the runtime reports
    instead of a crash or a silent answer. The messages, in order, are the
    module attribute `infer.errors` (an array of strings; present, maybe
    empty, once the pass has run), which the artifact lists in its ABI
    constant: status k means `errors[k-1]`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def ContractReductionsPass : Pass<"infer-contract-reductions", "::mlir::func::FuncOp"> {
  let summary = "Lets the backend fuse the multiply-add of reduction bodies, and nothing else";
  let description = [{
    Runs on the linalg ops left after the target's kernels, before they
    become loops. In each op with a reduction iterator, a yielded
    `arith.addf` of a single-use `arith.mulf` (the `acc + a * b` of a
    matmul, convolution or sum of squares) gets `fastmath<contract>` on
    both, so LLVM may emit one fused multiply-add for them. Named ops are
    generalized first, so the flags are in the body the loops are made
    from. The target machines fuse only what carries the flag: a Mul and
    an Add from separate ONNX nodes (or an elementwise `a * b + c` within
    one) round after each operation, as ONNX Runtime computes them. That
    matters most where a value then picks a quantization range at run
    time (DynamicQuantizeLinear): one ulp there moves the integer result.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect"];
}

def MinMaxNumToLLVMPass : Pass<"infer-min-max-num-to-llvm"> {
  let summary = "Lowers arith.maxnumf/minnumf to LLVM's maxnum/minnum ahead of arith-expand";
  let description = [{
    `arith-expand` (which the loops-to-LLVM stage runs for bf16 and the
    integer divisions) also turns `arith.maxnumf` and `arith.minnumf` into
    compare-and-select chains, which LLVM's loop vectorizer does not take
    for reductions: a row max computed that way runs one element per
    compare latency. As `llvm.intr.maxnum`/`minnum` (what ArithToLLVM
    would make of them anyway) their reductions vectorize: partial maxima
    in vector lanes, with a NaN check that falls back to the scalar loop.
    Softmax's row max is one (its lowering uses `maxnumf`: a NaN in the
    row makes the whole row NaN either way). Scalars and 1-D vectors of
    f16, f32 and f64; anything else is left to `arith-expand`.
    `maximumf`/`minimumf` (NaN-propagating, as ReduceMax and Relu need)
    are not touched.

    ```mlir
    %m = arith.maxnumf %acc, %x : f32
    // becomes
    %m = llvm.intr.maxnum(%acc, %x) : (f32, f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ReassociateRowReductionsPass : Pass<"infer-reassociate-row-reductions", "::mlir::func::FuncOp"> {
  let summary = "Lets LLVM vectorize sums and products along a row (partial sums in lanes)";
  let description = [{
    Runs on the linalg ops left after the target's kernels, before they
    become loops, on a `linalg.generic` on buffers whose reduction loops
    are all innermost (a reduction along contiguous elements, as Softmax,
    LayerNorm and ReduceSum/ReduceMean over the last axes, and a global
    average pool over H and W, compute):

    - Several such loops that every operand indexing them reads as its
      own trailing dims, in order, over contiguous memory fold into one
      (the input seen through `memref.collapse_shape`): the same elements
      in the same order, as one loop LLVM can vectorize.
    - The f32/f64 `arith.addf` or `arith.mulf` that combines the
      accumulator (the output's element, used nowhere else) with a new
      value gets `fastmath<reassoc>`. In order, such a loop is a chain of
      dependent adds, one latency per element (a Softmax row of 128 took
      11 cycles per element with its exp); reassociated, LLVM keeps
      partial sums in vector lanes and adds them at the end, as ONNX
      Runtime's kernels do. The sum then differs from the sequential one
      by rounding only. A dot product along the row (a matrix-vector
      product the kernels left) is such a sum too.
    - With one reduction loop left and operands indexed by loop indices
      and constants, the generic becomes `scf.for` loops that load each
      output element once, carry it through the reduction loop as an
      `iter_args` value and store it once. linalg's own loops load and
      store it at every step, and when input and output are views of one
      workspace LLVM cannot tell that the input's loads do not read it:
      it kept the sum in memory and added one element at a time (a
      global average pool at 1.6 GFLOP/s).

    - With `vector-bits` set (the CPU target passes its vector width), a
      loop whose every result is a min or max of its accumulator
      (`minimumf`, `maximumf`, `minnumf`, `maxnumf`, integer min/max) and a
      value computed elementwise from inputs read along the loop
      contiguously (ReduceMax, ReduceMin, DynamicQuantizeLinear's range:
      one generic with both) runs in vector lanes: four vectors of partial
      results per output, combined and reduced across lanes
      (`vector.reduction`), then the elements after the last whole step in
      order. Min and max give the same value in any order, so the result
      is the scalar loop's; LLVM does not vectorize that loop itself (it
      becomes a chain of compares and selects, one latency per element:
      DynamicQuantizeLinear's range over 128x1536 floats took 0.68 ms).

    Reductions over outer loops (already vectorized across the inner,
    parallel one) are left alone.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", "0",
           "Bits of a vector for min/max reductions in lanes (0: in order, "
           "one element a step)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def ApproximateMathPass : Pass<"infer-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Replaces f32 libm calls (exp, tanh, erf, log...) with inline polynomials";
  let description = [{
    Rewrites the f32 `math` ops named in `functions` (scalar or vector)
    into MLIR's polynomial approximations: range reduction, a polynomial
    or rational kernel, and selects for the special values, all in
    `arith` ops. A loop of them has no call left in it, so LLVM
    vectorizes it, and a vector of them (a fused epilogue) is computed in
    its lanes instead of one libm call per lane. The error bound of each
    function, measured against correctly rounded values over the whole
    float range, is stated and tested in `test/e2e/math_accuracy.py`
    (docs/design/cpu-kernels.md lists it). f64 and other types keep their
    libm calls; `infer-compile --math=libm` skips the pass.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "The math ops to approximate, by mnemonic (default: exp, "
               "tanh, erf, log, log1p)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // INFER_TARGETS_COMMON_PASSES_TD
