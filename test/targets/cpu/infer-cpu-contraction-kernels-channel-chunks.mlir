// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512 parallel=true runtime-threads=true})' | FileCheck %s
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512 parallel=true runtime-threads=true},func.func(infer-cpu-fuse-channel-loops))' | FileCheck %s --check-prefix=FUSED

// An expanding 1x1 convolution (32 rows of C, K = 8) clipped into a
// padded buffer's interior, and a depthwise convolution over that
// buffer's 32 channels: the first kernel takes fixed chunks of 8 rows of
// C (at least 16 chunks where whole tiles allow: one tile here) and is
// marked to run the second inside its loop, the second's parallel loop
// over the channels marked too (infer-cpu-fuse-channel-loops).
// CHECK-LABEL: func.func @expand_then_depthwise
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c32{{.*}}) step (%c8{{.*}}) {
// CHECK: } {infer.fuse_next = 8 : index}
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%c32{{.*}}) step (%c1{{.*}}) {
// CHECK: } {infer.fused_channels}
// Then infer-cpu-fuse-channel-loops runs the depthwise kernel, its border
// rows' fills included, inside the expansion's loop, chunk by chunk.
// FUSED-LABEL: func.func @expand_then_depthwise
// FUSED: scf.parallel (%[[M0:.+]]) = (%{{.+}}) to (%c32{{.*}}) step (%c8{{.*}}) {
// FUSED: vector.fma
// FUSED: scf.for %[[CH:.+]] = %[[M0]] to %{{.+}} step %{{.+}} {
// FUSED: memref.subview %{{.+}}[0, %[[CH]], 0, 0] [1, 1, 1, 10]
// FUSED-NEXT: linalg.fill
// FUSED: scf.reduce
// FUSED-NOT: scf.parallel
// FUSED: return
memref.global "private" constant @c_shape : memref<4xi64> = dense<[1, 32, 8, 8]>
memref.global "private" constant @in_shape : memref<5xi64> = dense<[1, 32, 1, 10, 10]>
func.func @expand_then_depthwise(%w: memref<1x32x8xf32>, %x: memref<1x1x8x64xf32>, %bias: memref<32x1x1xf32>, %dw: memref<32x1x1x3x3xf32>, %ws: memref<12800xi8>, %y: memref<1x32x1x8x8xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %c_shape = memref.get_global @c_shape : memref<4xi64>
  %in_shape = memref.get_global @in_shape : memref<5xi64>
  %t = memref.alloc() : memref<1x1x32x64xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x32x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%w, %x : memref<1x32x8xf32>, memref<1x1x8x64xf32>) outs(%t : memref<1x1x32x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %c = memref.reshape %t(%c_shape) : (memref<1x1x32x64xf32>, memref<4xi64>) -> memref<1x32x8x8xf32>
  %padded = memref.view %ws[%c0][] : memref<12800xi8> to memref<1x32x10x10xf32>
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 32, 8, 8] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x8x8xf32, strided<[3200, 100, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x32x8x8xf32>, memref<32x1x1xf32>) outs(%interior : memref<1x32x8x8xf32, strided<[3200, 100, 10, 1], offset: 11>>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  %top = memref.subview %padded[0, 0, 0, 0] [1, 32, 1, 10] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x1x10xf32, strided<[3200, 100, 10, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x32x1x10xf32, strided<[3200, 100, 10, 1]>>)
  %bottom = memref.subview %padded[0, 0, 9, 0] [1, 32, 1, 10] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x1x10xf32, strided<[3200, 100, 10, 1], offset: 90>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x32x1x10xf32, strided<[3200, 100, 10, 1], offset: 90>>)
  %left = memref.subview %padded[0, 0, 1, 0] [1, 32, 8, 1] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 10>>
  linalg.fill ins(%zero : f32) outs(%left : memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 10>>)
  %right = memref.subview %padded[0, 0, 1, 9] [1, 32, 8, 1] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 19>>
  linalg.fill ins(%zero : f32) outs(%right : memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 19>>)
  %image = memref.reshape %padded(%in_shape) : (memref<1x32x10x10xf32>, memref<5xi64>) -> memref<1x32x1x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x1x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d3, d4 + d6, d5 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d6, d7)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%image, %dw : memref<1x32x1x10x10xf32>, memref<32x1x1x3x3xf32>) outs(%y : memref<1x32x1x8x8xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<1x1x32x64xf32>
  return
}

// -----

// The same, but the depthwise kernel's output lies where the expansion's
// input does (a workspace buffer reused): a chunk's depthwise rows would
// overwrite input the later chunks still read. Apart, as before.
// CHECK-LABEL: func.func @output_over_input
// CHECK-NOT: infer.fuse
// CHECK: return
memref.global "private" constant @c_shape : memref<4xi64> = dense<[1, 32, 8, 8]>
memref.global "private" constant @in_shape : memref<5xi64> = dense<[1, 32, 1, 10, 10]>
func.func @output_over_input(%w: memref<1x32x8xf32>, %bias: memref<32x1x1xf32>, %dw: memref<32x1x1x3x3xf32>, %ws: memref<20992xi8>) {
  %c0 = arith.constant 0 : index
  %c12800 = arith.constant 12800 : index
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %c_shape = memref.get_global @c_shape : memref<4xi64>
  %in_shape = memref.get_global @in_shape : memref<5xi64>
  %x = memref.view %ws[%c12800][] : memref<20992xi8> to memref<1x1x8x64xf32>
  %y = memref.view %ws[%c12800][] : memref<20992xi8> to memref<1x32x1x8x8xf32>
  %t = memref.alloc() : memref<1x1x32x64xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x32x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%w, %x : memref<1x32x8xf32>, memref<1x1x8x64xf32>) outs(%t : memref<1x1x32x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %c = memref.reshape %t(%c_shape) : (memref<1x1x32x64xf32>, memref<4xi64>) -> memref<1x32x8x8xf32>
  %padded = memref.view %ws[%c0][] : memref<20992xi8> to memref<1x32x10x10xf32>
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 32, 8, 8] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x8x8xf32, strided<[3200, 100, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x32x8x8xf32>, memref<32x1x1xf32>) outs(%interior : memref<1x32x8x8xf32, strided<[3200, 100, 10, 1], offset: 11>>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  %top = memref.subview %padded[0, 0, 0, 0] [1, 32, 1, 10] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x1x10xf32, strided<[3200, 100, 10, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x32x1x10xf32, strided<[3200, 100, 10, 1]>>)
  %bottom = memref.subview %padded[0, 0, 9, 0] [1, 32, 1, 10] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x1x10xf32, strided<[3200, 100, 10, 1], offset: 90>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x32x1x10xf32, strided<[3200, 100, 10, 1], offset: 90>>)
  %image = memref.reshape %padded(%in_shape) : (memref<1x32x10x10xf32>, memref<5xi64>) -> memref<1x32x1x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x1x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d3, d4 + d6, d5 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d6, d7)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%image, %dw : memref<1x32x1x10x10xf32>, memref<32x1x1x3x3xf32>) outs(%y : memref<1x32x1x8x8xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<1x1x32x64xf32>
  return
}

// -----

// The expansion over K = 512, two k-blocks of 256 (24 rows of C, so
// not transposed tiles): its kernel stores partial sums in C between
// them, which the fused loop would leave out. Apart, as before.
// CHECK-LABEL: func.func @two_k_blocks
// CHECK-NOT: infer.fuse
// CHECK: return
memref.global "private" constant @c_shape : memref<4xi64> = dense<[1, 24, 8, 8]>
memref.global "private" constant @in_shape : memref<5xi64> = dense<[1, 24, 1, 10, 10]>
func.func @two_k_blocks(%w: memref<1x24x512xf32>, %x: memref<1x1x512x64xf32>, %bias: memref<24x1x1xf32>, %dw: memref<24x1x1x3x3xf32>, %ws: memref<9600xi8>, %y: memref<1x24x1x8x8xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %c_shape = memref.get_global @c_shape : memref<4xi64>
  %in_shape = memref.get_global @in_shape : memref<5xi64>
  %t = memref.alloc() : memref<1x1x24x64xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x24x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%w, %x : memref<1x24x512xf32>, memref<1x1x512x64xf32>) outs(%t : memref<1x1x24x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %c = memref.reshape %t(%c_shape) : (memref<1x1x24x64xf32>, memref<4xi64>) -> memref<1x24x8x8xf32>
  %padded = memref.view %ws[%c0][] : memref<9600xi8> to memref<1x24x10x10xf32>
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 24, 8, 8] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x24x8x8xf32>, memref<24x1x1xf32>) outs(%interior : memref<1x24x8x8xf32, strided<[2400, 100, 10, 1], offset: 11>>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  %top = memref.subview %padded[0, 0, 0, 0] [1, 24, 1, 10] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x1x10xf32, strided<[2400, 100, 10, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x24x1x10xf32, strided<[2400, 100, 10, 1]>>)
  %bottom = memref.subview %padded[0, 0, 9, 0] [1, 24, 1, 10] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x1x10xf32, strided<[2400, 100, 10, 1], offset: 90>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x24x1x10xf32, strided<[2400, 100, 10, 1], offset: 90>>)
  %left = memref.subview %padded[0, 0, 1, 0] [1, 24, 8, 1] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x1xf32, strided<[2400, 100, 10, 1], offset: 10>>
  linalg.fill ins(%zero : f32) outs(%left : memref<1x24x8x1xf32, strided<[2400, 100, 10, 1], offset: 10>>)
  %right = memref.subview %padded[0, 0, 1, 9] [1, 24, 8, 1] [1, 1, 1, 1] : memref<1x24x10x10xf32> to memref<1x24x8x1xf32, strided<[2400, 100, 10, 1], offset: 19>>
  linalg.fill ins(%zero : f32) outs(%right : memref<1x24x8x1xf32, strided<[2400, 100, 10, 1], offset: 19>>)
  %image = memref.reshape %padded(%in_shape) : (memref<1x24x10x10xf32>, memref<5xi64>) -> memref<1x24x1x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x24x1x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d3, d4 + d6, d5 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d6, d7)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%image, %dw : memref<1x24x1x10x10xf32>, memref<24x1x1x3x3xf32>) outs(%y : memref<1x24x1x8x8xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<1x1x24x64xf32>
  return
}

// -----

// A 5x5 depthwise kernel (25 taps, taken in a loop): fused, such kernels
// ran slower than apart (PP-OCR cls). Apart.
// CHECK-LABEL: func.func @five_by_five
// CHECK-NOT: infer.fuse
// CHECK: return
memref.global "private" constant @c_shape : memref<4xi64> = dense<[1, 32, 8, 8]>
memref.global "private" constant @in_shape : memref<5xi64> = dense<[1, 32, 1, 10, 10]>
func.func @five_by_five(%w: memref<1x32x8xf32>, %x: memref<1x1x8x64xf32>, %bias: memref<32x1x1xf32>, %dw: memref<32x1x1x5x5xf32>, %ws: memref<12800xi8>, %y: memref<1x32x1x6x6xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %c_shape = memref.get_global @c_shape : memref<4xi64>
  %in_shape = memref.get_global @in_shape : memref<5xi64>
  %t = memref.alloc() : memref<1x1x32x64xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x32x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%w, %x : memref<1x32x8xf32>, memref<1x1x8x64xf32>) outs(%t : memref<1x1x32x64xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  %c = memref.reshape %t(%c_shape) : (memref<1x1x32x64xf32>, memref<4xi64>) -> memref<1x32x8x8xf32>
  %padded = memref.view %ws[%c0][] : memref<12800xi8> to memref<1x32x10x10xf32>
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 32, 8, 8] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x8x8xf32, strided<[3200, 100, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x32x8x8xf32>, memref<32x1x1xf32>) outs(%interior : memref<1x32x8x8xf32, strided<[3200, 100, 10, 1], offset: 11>>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  %top = memref.subview %padded[0, 0, 0, 0] [1, 32, 1, 10] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x1x10xf32, strided<[3200, 100, 10, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x32x1x10xf32, strided<[3200, 100, 10, 1]>>)
  %bottom = memref.subview %padded[0, 0, 9, 0] [1, 32, 1, 10] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x1x10xf32, strided<[3200, 100, 10, 1], offset: 90>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x32x1x10xf32, strided<[3200, 100, 10, 1], offset: 90>>)
  %left = memref.subview %padded[0, 0, 1, 0] [1, 32, 8, 1] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 10>>
  linalg.fill ins(%zero : f32) outs(%left : memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 10>>)
  %right = memref.subview %padded[0, 0, 1, 9] [1, 32, 8, 1] [1, 1, 1, 1] : memref<1x32x10x10xf32> to memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 19>>
  linalg.fill ins(%zero : f32) outs(%right : memref<1x32x8x1xf32, strided<[3200, 100, 10, 1], offset: 19>>)
  %image = memref.reshape %padded(%in_shape) : (memref<1x32x10x10xf32>, memref<5xi64>) -> memref<1x32x1x10x10xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x32x1x6x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d3, d4 + d6, d5 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d6, d7)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%image, %dw : memref<1x32x1x10x10xf32>, memref<32x1x1x5x5xf32>) outs(%y : memref<1x32x1x6x6xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<1x1x32x64xf32>
  return
}
