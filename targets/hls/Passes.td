//===- Passes.td - HLS target passes --------------------------------------===//

#ifndef INFER_TARGETS_HLS_PASSES_TD
#define INFER_TARGETS_HLS_PASSES_TD

include "mlir/Pass/PassBase.td"

def OutlineLayersPass : Pass<"infer-hls-outline-layers", "::mlir::ModuleOp"> {
  let summary = "Outlines the top function's loop nests into one function per layer";
  let description = [{
    On bufferized loops: consecutive top-level ops of `@<top>` that come
    from the same ONNX node (their locations name it) move into a private
    function `layer<N>_<node>` taking the buffers they use; the top
    function keeps its buffers and calls the layers in order. Layer
    functions carry `hls.layer` (the ONNX node names and op types), the
    top function `hls.top`, and each buffer argument `hls.access`
    (`read`, `write` or `readwrite`), which the directive passes use.
  }];
  let options = [
    Option<"top", "top", "std::string", "\"\"",
           "The top function (default: the only public function)">
  ];
}

def PipelineLoopsPass
    : Pass<"infer-hls-pipeline-loops", "::mlir::func::FuncOp"> {
  let summary = "Chooses PIPELINE II for the innermost loops";
  let description = [{
    Every innermost `scf.for` of a layer function gets `hls.pipeline_ii`.
    The II is 1 unless the loop carries a dependence through memory (it
    loads and stores one buffer at an address the loop does not change,
    as an accumulation does) or through an iter_arg: then it is the
    latency of the chain from the load to the store at the target clock,
    from the cost model the estimator uses.
  }];
  let options = [
    Option<"clockNs", "clock-ns", "double", "4.0", "Target clock period in ns">
  ];
}

def UnrollLoopsPass : Pass<"infer-hls-unroll-loops", "::mlir::func::FuncOp"> {
  let summary = "Chooses UNROLL factors for pipelined loops";
  let description = [{
    Each pipelined loop gets `hls.unroll`: the largest divisor of its trip
    count that is at most `parallelism`, so that many iterations issue
    per cycle. Loops with a recurrence are left alone (unrolling them
    would only lengthen the chain). Factor 1 sets nothing.
  }];
  let options = [
    Option<"parallelism", "parallelism", "int64_t", "1",
           "Copies of a loop body to run in parallel">
  ];
}

def ArrayPartitionPass : Pass<"infer-hls-array-partition", "::mlir::ModuleOp"> {
  let summary = "Partitions the arrays unrolled loops index";
  let description = [{
    A loop unrolled by F reads F elements per cycle; a one- or two-port
    RAM cannot deliver them. For every buffer an unrolled loop loads or
    stores on a dimension whose index moves with the loop, the buffer
    gets `hls.array_partition`: cyclic by F on that dimension (complete
    when F covers it). The directive lands on the layer's argument, and
    on the `memref.alloc` or `memref.global` behind it. Top-function
    ports (AXI masters) cannot be partitioned and are left alone.
  }];
}

def DataflowPass : Pass<"infer-hls-dataflow", "::mlir::ModuleOp"> {
  let summary = "Marks the top function DATAFLOW when its layers allow it";
  let description = [{
    Layers run as a dataflow pipeline only when every buffer between
    them has one producer and one consumer, the producer called first. A
    layer that reads back what it writes (an accumulation into its
    output) is that buffer's producer. When that holds the
    top function gets `hls.dataflow`; otherwise `hls.dataflow_blocked`
    says which buffer breaks it, and the layers run one after another.
  }];
}

def PrepareForEmissionPass
    : Pass<"infer-hls-prepare-for-emission", "::mlir::ModuleOp"> {
  let summary = "Checks that the module is in the form the HLS C++ emitter reads";
  let description = [{
    The emitter prints only static, identity-layout memrefs of float,
    double and integer elements, `scf.for`/`scf.if`, `memref.load`,
    `store`, `alloc`, `get_global`, and the arith and math ops it has a
    C++ spelling for. This pass drops deallocations (local arrays need
    none), then reports every op outside that set as an error naming the
    ONNX node it came from.
  }];
}

#endif // INFER_TARGETS_HLS_PASSES_TD
