// RUN: infer-opt %s --split-input-file --infer-hls-dataflow | FileCheck %s

// A chain: every buffer has one producer and one consumer (the first
// layer accumulates into its output).
// CHECK-LABEL: func.func @chain
// CHECK-SAME: attributes {hls.dataflow, hls.top}
func.func private @acc(%a: memref<4xf32> {hls.access = "read"}, %b: memref<4xf32> {hls.access = "readwrite"}) attributes {hls.layer = []} {
  return
}
func.func private @f(%a: memref<4xf32> {hls.access = "read"}, %b: memref<4xf32> {hls.access = "write"}) attributes {hls.layer = []} {
  return
}
func.func @chain(%x: memref<4xf32>, %y: memref<4xf32>) attributes {hls.top} {
  %t = memref.alloc() : memref<4xf32>
  call @acc(%x, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  call @f(%t, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

// A residual connection: %t is read by two layers.
// CHECK-LABEL: func.func @residual
// CHECK-SAME: hls.dataflow_blocked = "a buffer is read by 2 layers"
func.func private @f(%a: memref<4xf32> {hls.access = "read"}, %b: memref<4xf32> {hls.access = "write"}) attributes {hls.layer = []} {
  return
}
func.func private @g(%a: memref<4xf32> {hls.access = "read"}, %b: memref<4xf32> {hls.access = "read"}, %c: memref<4xf32> {hls.access = "write"}) attributes {hls.layer = []} {
  return
}
func.func @residual(%x: memref<4xf32>, %y: memref<4xf32>) attributes {hls.top} {
  %t = memref.alloc() : memref<4xf32>
  %u = memref.alloc() : memref<4xf32>
  call @f(%x, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  call @f(%t, %u) : (memref<4xf32>, memref<4xf32>) -> ()
  call @g(%t, %u, %y) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

// Two layers update one buffer in place.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: hls.dataflow_blocked = "a buffer is written by 2 layers"
func.func private @h(%a: memref<4xf32> {hls.access = "readwrite"}) attributes {hls.layer = []} {
  return
}
func.func @in_place(%x: memref<4xf32>) attributes {hls.top} {
  call @h(%x) : (memref<4xf32>) -> ()
  call @h(%x) : (memref<4xf32>) -> ()
  return
}
