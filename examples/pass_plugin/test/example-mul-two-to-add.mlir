// RUN: %infer-opt --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(func.func(example-mul-two-to-add))' %s \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @scalar
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NOT: arith.mulf
// CHECK: %[[Y:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK: return %[[Y]]
func.func @scalar(%x: f32) -> f32 {
  %two = arith.constant 2.0 : f32
  %y = arith.mulf %two, %x : f32
  return %y : f32
}

// A splat vector, fast-math flags kept.
// CHECK-LABEL: func.func @splat
// CHECK-SAME: (%[[V:.*]]: vector<8xf32>)
// CHECK: arith.addf %[[V]], %[[V]] fastmath<contract> : vector<8xf32>
func.func @splat(%v: vector<8xf32>) -> vector<8xf32> {
  %two = arith.constant dense<2.0> : vector<8xf32>
  %y = arith.mulf %v, %two fastmath<contract> : vector<8xf32>
  return %y : vector<8xf32>
}

// Other constants and non-constants stay multiplies.
// CHECK-LABEL: func.func @others
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK-NOT: arith.addf
func.func @others(%x: f32, %z: f32) -> f32 {
  %three = arith.constant 3.0 : f32
  %a = arith.mulf %x, %three : f32
  %b = arith.mulf %a, %z : f32
  return %b : f32
}
