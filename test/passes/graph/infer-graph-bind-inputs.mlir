// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-bind-inputs{bind=rate=8000},infer-graph-fold-constants,canonicalize))' | FileCheck %s
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-bind-inputs{bind=speed=1}))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-bind-inputs{bind=rate=8k}))' 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-graph-bind-inputs{bind=rate=1,2}))' 2>&1 | FileCheck %s --check-prefix=COUNT

// The bound input leaves the signature; the If on it keeps the else branch.
// CHECK-LABEL: func.func @pick
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32> {graph.name = "x"}) -> tensor<4xf32>
// CHECK-NOT: graph.if
// CHECK: %[[Y:.+]] = graph.neg %[[X]]
// CHECK: return %[[Y]]
// UNKNOWN: no input named 'speed'; the inputs are: x, rate
// NOTINT: input 'rate': '8k' is not an integer
// COUNT: input 'rate' of type 'tensor<i64>' needs 1 values, got 2
func.func @pick(%x: tensor<4xf32> {graph.name = "x"}, %rate: tensor<i64> {graph.name = "rate"}) -> tensor<?xf32> {
  %k = graph.constant dense<16000> : tensor<i64>
  %c = graph.equal %rate, %k : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %y = graph.if %c : (tensor<i1>) -> tensor<?xf32> then {
    %a = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    graph.yield %a : tensor<4xf32>
  } else {
    %b = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
    graph.yield %b : tensor<4xf32>
  }
  return %y : tensor<?xf32>
}
