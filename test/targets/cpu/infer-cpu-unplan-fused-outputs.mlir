// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(infer-cpu-unplan-fused-outputs{vector-bits=512}))' | FileCheck %s

// A contraction from a fill, over one k-block (K = 16), whose elementwise
// consumer its kernel computes as an epilogue: the kernel stores the
// consumer's result and never writes C. C's allocation is marked
// unplanned and moves to the start of the function; the consumer's output
// stays where it is, to be planned.
// CHECK-LABEL: func.func @fused
// CHECK-NEXT: %[[C:.+]] = memref.alloc() {alignment = 64 : i64, infer.unplanned} : memref<8x64xf32>
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[C]]
// CHECK: linalg.matmul
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
// CHECK: linalg.generic
func.func @fused(%a: memref<8x16xf32>, %b: memref<16x64xf32>, %bias: memref<64xf32>, %y: memref<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x64xf32>)
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x64xf32>) outs(%c : memref<8x64xf32>)
  %e = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<8x64xf32>, memref<64xf32>) outs(%e : memref<8x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %sum = arith.addf %v, %s : f32
    %r = arith.maximumf %sum, %zero : f32
    linalg.yield %r : f32
  }
  memref.copy %e, %y : memref<8x64xf32> to memref<8x64xf32>
  return
}

// -----

// K = 512 runs in two k-blocks of 256 (C, 2 KiB, stays in cache): the
// kernel stores the first block's partial sums in C. Not marked.
// CHECK-LABEL: func.func @two_blocks
// CHECK-NOT: infer.unplanned
// CHECK: return
func.func @two_blocks(%a: memref<8x512xf32>, %b: memref<512x64xf32>, %bias: memref<64xf32>, %y: memref<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x64xf32>)
  linalg.matmul ins(%a, %b : memref<8x512xf32>, memref<512x64xf32>) outs(%c : memref<8x64xf32>)
  %e = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<8x64xf32>, memref<64xf32>) outs(%e : memref<8x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %sum = arith.addf %v, %s : f32
    linalg.yield %sum : f32
  }
  memref.copy %e, %y : memref<8x64xf32> to memref<8x64xf32>
  return
}

// -----

// C filled only in part (its first row): no fill initializes the
// product, so the kernel starts from the values in C and reads them. Not
// marked.
// CHECK-LABEL: func.func @partly_filled
// CHECK-NOT: infer.unplanned
// CHECK: return
func.func @partly_filled(%a: memref<8x16xf32>, %b: memref<16x64xf32>, %bias: memref<64xf32>, %y: memref<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  %row = memref.subview %c[0, 0] [1, 64] [1, 1] : memref<8x64xf32> to memref<64xf32, strided<[1]>>
  linalg.fill ins(%zero : f32) outs(%row : memref<64xf32, strided<[1]>>)
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x64xf32>) outs(%c : memref<8x64xf32>)
  %e = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<8x64xf32>, memref<64xf32>) outs(%e : memref<8x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %sum = arith.addf %v, %s : f32
    linalg.yield %sum : f32
  }
  memref.copy %e, %y : memref<8x64xf32> to memref<8x64xf32>
  return
}

// -----

// C read by something other than its consumer (here a second copy out):
// no epilogue, so the kernel writes C. Not marked.
// CHECK-LABEL: func.func @read_twice
// CHECK-NOT: infer.unplanned
// CHECK: return
func.func @read_twice(%a: memref<8x16xf32>, %b: memref<16x64xf32>, %bias: memref<64xf32>, %y: memref<8x64xf32>, %z: memref<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x64xf32>)
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x64xf32>) outs(%c : memref<8x64xf32>)
  %e = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<8x64xf32>, memref<64xf32>) outs(%e : memref<8x64xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %sum = arith.addf %v, %s : f32
    linalg.yield %sum : f32
  }
  memref.copy %e, %y : memref<8x64xf32> to memref<8x64xf32>
  memref.copy %c, %z : memref<8x64xf32> to memref<8x64xf32>
  return
}
