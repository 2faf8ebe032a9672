// RUN: infer-opt %s --split-input-file --infer-cpu-hoist-parallel-allocas | FileCheck %s

// The pack buffer of a parallel loop body (inside the alloca_scope that
// convert-scf-to-openmp wraps it in) moves to the parallel region's entry:
// one per thread, not one per iteration.
// CHECK-LABEL: func.func @hoisted
// CHECK: omp.parallel {
// CHECK-NEXT: %[[BUF:.+]] = memref.alloca() : memref<4x16xf32>
// CHECK: omp.wsloop
// CHECK: memref.alloca_scope {
// CHECK-NOT: memref.alloca()
// CHECK: vector.store %{{.+}}, %[[BUF]]
func.func @hoisted(%v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        memref.alloca_scope {
          %buf = memref.alloca() : memref<4x16xf32>
          vector.store %v, %buf[%i, %c0] : memref<4x16xf32>, vector<16xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An alloca sized at run time stays where it is.
// CHECK-LABEL: func.func @dynamic
// CHECK: memref.alloca_scope {
// CHECK-NEXT: memref.alloca(%{{.+}}) : memref<?xf32>
func.func @dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        memref.alloca_scope {
          %buf = memref.alloca(%n) : memref<?xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
