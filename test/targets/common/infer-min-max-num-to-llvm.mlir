// RUN: infer-opt %s --infer-min-max-num-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @row_max
// CHECK: scf.for
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NOT: arith.maxnumf
func.func @row_max(%row: memref<128xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %init = arith.constant 0xFF800000 : f32
  %max = scf.for %i = %c0 to %c128 step %c1 iter_args(%acc = %init) -> (f32) {
    %x = memref.load %row[%i] : memref<128xf32>
    %m = arith.maxnumf %acc, %x : f32
    scf.yield %m : f32
  }
  return %max : f32
}

// Vectors and minnumf, f64 and f16.
// CHECK-LABEL: func.func @others
// CHECK: llvm.intr.minnum(%{{.*}}, %{{.*}}) : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: llvm.intr.minnum(%{{.*}}, %{{.*}}) : (f16, f16) -> f16
func.func @others(%a: vector<16xf32>, %b: vector<16xf32>, %c: f64, %d: f16)
    -> (vector<16xf32>, f64, f16) {
  %c2 = arith.constant 2.0 : f64
  %d2 = arith.constant 2.0 : f16
  %0 = arith.minnumf %a, %b : vector<16xf32>
  %1 = arith.maxnumf %c, %c2 : f64
  %2 = arith.minnumf %d, %d2 : f16
  return %0, %1, %2 : vector<16xf32>, f64, f16
}

// Left to arith-expand: NaN-propagating maximumf, bf16, 2-D vectors.
// CHECK-LABEL: func.func @kept
// CHECK: arith.maximumf
// CHECK: arith.maxnumf %{{.*}} : bf16
// CHECK: arith.maxnumf %{{.*}} : vector<2x4xf32>
// CHECK-NOT: llvm.intr
func.func @kept(%a: f32, %a2: f32, %b: bf16, %b2: bf16, %c: vector<2x4xf32>,
                %c2: vector<2x4xf32>) -> (f32, bf16, vector<2x4xf32>) {
  %0 = arith.maximumf %a, %a2 : f32
  %1 = arith.maxnumf %b, %b2 : bf16
  %2 = arith.maxnumf %c, %c2 : vector<2x4xf32>
  return %0, %1, %2 : f32, bf16, vector<2x4xf32>
}
