// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-approximate-math))' | FileCheck %s
// RUN: infer-opt %s --pass-pipeline='builtin.module(func.func(infer-approximate-math{functions=exp}))' | FileCheck %s --check-prefix=ONLY-EXP

// f32 functions, scalar or in vector lanes, become arithmetic.
// CHECK-LABEL: func.func @f32_functions
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.log
// CHECK: arith.mulf
// CHECK: return
// ONLY-EXP-LABEL: func.func @f32_functions
// ONLY-EXP-NOT: math.exp
// ONLY-EXP: math.tanh
// ONLY-EXP: math.erf
// ONLY-EXP: math.log
func.func @f32_functions(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>, f32, f32) {
  %e = math.exp %x : f32
  %t = math.tanh %v : vector<8xf32>
  %r = math.erf %x : f32
  %l = math.log %x : f32
  return %e, %t, %r, %l : f32, vector<8xf32>, f32, f32
}

// f64 keeps its libm call, and so do functions without a stated bound.
// CHECK-LABEL: func.func @kept
// CHECK: math.exp %{{.+}} : f64
// CHECK: math.sin %{{.+}} : f32
func.func @kept(%x: f64, %y: f32) -> (f64, f32) {
  %e = math.exp %x : f64
  %s = math.sin %y : f32
  return %e, %s : f64, f32
}
