// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-hls-prepare-for-emission | FileCheck %s

// Deallocations go: arrays are declared, not allocated.
// CHECK-LABEL: func.func @ok
// CHECK-NOT: memref.dealloc
func.func @ok(%x: memref<4xf32>) attributes {hls.top} {
  %t = memref.alloc() : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

func.func @half(%x: memref<4xf32>) attributes {hls.top} {
  // expected-error @+1 {{element type f16, which has no plain C++ type}}
  %t = memref.alloc() : memref<4xf16>
  return
}

// -----

func.func @copy(%x: memref<4xf32>, %y: memref<4xf32>) attributes {hls.top} {
  // expected-error @+1 {{'memref.copy', which the HLS C++ emitter cannot print}}
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// expected-error @+1 {{an argument of type 'memref<?xf32>' cannot be a C++ array: a buffer of dynamic shape}}
func.func @dynamic(%x: memref<?xf32>) attributes {hls.top} {
  return
}

// -----

// expected-error @+1 {{no top function}}
module {
  func.func @untagged(%x: memref<4xf32>) {
    return
  }
}


// -----

func.func @choose(%x: memref<4xf32>, %y: memref<4xf32>) attributes {hls.top} {
  %c = arith.constant true
  // expected-error @+1 {{a branch chooses between buffers}}
  %r = scf.if %c -> memref<4xf32> {
    scf.yield %x : memref<4xf32>
  } else {
    scf.yield %y : memref<4xf32>
  }
  return
}
