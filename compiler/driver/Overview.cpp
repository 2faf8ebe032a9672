//===- Overview.cpp - what infer-compile --help says first ----------------===//

#include "compiler/driver/Overview.h"

namespace infer {

const char *const kCompileOverview =
    R"(infer-compile: the infer ahead-of-time compiler for ONNX models

  infer-compile model.onnx --shape input=1x3x224x224 -o out --name resnet
      compile for this CPU: out/resnet.o, out/resnet.h, out/resnet.so
  infer-compile model.onnx --target=hls -o out --name m
      an HLS C++ project: out/m.cpp, m.h, m_weights.h, m_tb.cpp (C
      simulation: g++ -std=c++17 m.cpp m_tb.cpp && ./a.out DATA_DIR),
      run_hls.tcl and report.json (estimated latency and resources)
  infer-compile model.onnx --target=cuda --gpu-arch sm_90 --gpu-arch sm_80 -o out
      NVIDIA GPUs: out/NAME.o, NAME.h, NAME.so (kernels, weights and launches;
      infer-run out/NAME.so runs them through the CUDA driver), plus
      NAME.sm_90.ptx (and .cubin when ptxas is found) per architecture and
      NAME.schedule.json
  infer-compile model.onnx --shape x=1x3x224x224 --quantize=int8 \
      --calibration=sets --quantize-report=q.json -o out
      int8 convolutions and matmuls, ranges measured by running the model on
      the input sets in sets/; q.json (and the printed table) says per layer
      what it cost against the float model
  infer-compile model.onnx --shape x=1x3x224x224 --precision=bf16 -o out
      matmuls and convolutions with bfloat16 inputs and f32 sums (weights in
      half the bytes); add --precision-report=r.json --calibration=sets to
      see how far the outputs move from f32
  infer-compile model.onnx --compile-to=graph
      import the model and print its graph-level IR

Phases (--compile-to): import -> graph -> linalg -> fuse -> llvm ->
artifact. Each phase is also a pass pipeline that infer-opt runs on its own:
graph-opt; infer-prepare-entry and lower; fuse; the target's
<target>-codegen. For example infer-opt --pass-pipeline='builtin.module(
graph-opt,infer-prepare-entry{name=m target=cpu},lower,fuse,cpu-codegen)'
runs what infer-compile --compile-to=llvm --name m runs.
)";

} // namespace infer
