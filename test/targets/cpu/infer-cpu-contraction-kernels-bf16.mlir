// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512 bf16-dot-bits=512},canonicalize)' | FileCheck %s --check-prefix=ZMM
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256 bf16-dot-bits=256},canonicalize)' | FileCheck %s --check-prefix=YMM
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256},canonicalize)' | FileCheck %s --check-prefix=NONE

// infer-cpu-contraction-kernels on contractions over i32 values packing
// two bfloat16 lanes into f32 sums (passes/lowering/PairDot.h). The
// accumulators are f32 vectors (C loaded and stored as f32), A and B's
// rows i32. Each step is one vdpbf16ps per register, both operands as
// bf16 vectors; without AVX512-BF16, each operand's lanes widened to f32
// (lane 1: masked with 0xffff0000, lane 0: shifted left by 16) and two
// FMAs, lane 1's first.

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// ZMM-LABEL: func.func @pair_dot
// ZMM: %[[ACC:.+]] = vector.load %{{.+}} : memref<8x32xf32>, vector<32xf32>
// ZMM: %[[ROW:.+]] = vector.load %{{.+}} : memref<4x32xi32>, vector<32xi32>
// ZMM: %[[A:.+]] = memref.load %{{.+}} : memref<8x4xi32>
// ZMM: %[[C0:.+]] = vector.extract_strided_slice %[[ACC]] {offsets = [0], sizes = [16], strides = [1]} : vector<32xf32> to vector<16xf32>
// ZMM: %[[SPLAT:.+]] = vector.broadcast %[[A]] : i32 to vector<16xi32>
// ZMM: %[[AB:.+]] = vector.bitcast %[[SPLAT]] : vector<16xi32> to vector<32xbf16>
// ZMM: %[[B0:.+]] = vector.extract_strided_slice %[[ROW]] {offsets = [0], sizes = [16], strides = [1]}
// ZMM: %[[BB:.+]] = vector.bitcast %[[B0]] : vector<16xi32> to vector<32xbf16>
// ZMM: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%[[C0]], %[[AB]], %[[BB]]) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// ZMM-NOT: vector.fma
// ZMM: vector.store %{{.+}}, %{{.+}} : memref<8x32xf32>, vector<32xf32>
// YMM-LABEL: func.func @pair_dot
// YMM: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.256"(%{{.+}}, %{{.+}}, %{{.+}}) : (vector<8xf32>, vector<16xbf16>, vector<16xbf16>) -> vector<8xf32>
// YMM-NOT: vector.fma
// NONE-LABEL: func.func @pair_dot
// NONE-NOT: llvm.call_intrinsic
// NONE: %[[AH:.+]] = arith.andi %[[AS:.+]], %[[MASK:.+]] : vector<16xi32>
// NONE: %[[AHF:.+]] = vector.bitcast %[[AH]] : vector<16xi32> to vector<16xf32>
// NONE: %[[BH:.+]] = arith.andi %[[ROW:.+]], %[[MASK]] : vector<16xi32>
// NONE: %[[BHF:.+]] = vector.bitcast %[[BH]] : vector<16xi32> to vector<16xf32>
// NONE: %[[HI:.+]] = vector.fma %[[AHF]], %[[BHF]], %{{.+}} : vector<16xf32>
// NONE: %[[AL:.+]] = arith.shli %[[AS]], %[[SIXTEEN:.+]] : vector<16xi32>
// NONE: %[[ALF:.+]] = vector.bitcast %[[AL]] : vector<16xi32> to vector<16xf32>
// NONE: %[[BL:.+]] = arith.shli %[[ROW]], %[[SIXTEEN]] : vector<16xi32>
// NONE: %[[BLF:.+]] = vector.bitcast %[[BL]] : vector<16xi32> to vector<16xf32>
// NONE: vector.fma %[[ALF]], %[[BLF]], %[[HI]] : vector<16xf32>
func.func @pair_dot(%a: memref<8x4xi32>, %b: memref<4x32xi32>, %c: memref<8x32xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x4xi32>, memref<4x32xi32>) outs(%c : memref<8x32xf32>) {
  ^bb0(%x: i32, %y: i32, %acc: f32):
    %mask = arith.constant -65536 : i32
    %sixteen = arith.constant 16 : i32
    %x1 = arith.andi %x, %mask : i32
    %xf1 = arith.bitcast %x1 : i32 to f32
    %y1 = arith.andi %y, %mask : i32
    %yf1 = arith.bitcast %y1 : i32 to f32
    %p1 = arith.mulf %xf1, %yf1 : f32
    %s1 = arith.addf %acc, %p1 : f32
    %x0 = arith.shli %x, %sixteen : i32
    %xf0 = arith.bitcast %x0 : i32 to f32
    %y0 = arith.shli %y, %sixteen : i32
    %yf0 = arith.bitcast %y0 : i32 to f32
    %p0 = arith.mulf %xf0, %yf0 : f32
    %s0 = arith.addf %s1, %p0 : f32
    linalg.yield %s0 : f32
  }
  return
}

// -----

// Lane 0's product first (not vdpbf16ps's order) is another sum: no
// kernel takes it, the generic stays.
// ZMM-LABEL: func.func @lanes_swapped
// ZMM-NOT: llvm.call_intrinsic
// ZMM: linalg.generic
// NONE-LABEL: func.func @lanes_swapped
// NONE: linalg.generic
func.func @lanes_swapped(%a: memref<8x4xi32>, %b: memref<4x32xi32>, %c: memref<8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x4xi32>, memref<4x32xi32>) outs(%c : memref<8x32xf32>) {
  ^bb0(%x: i32, %y: i32, %acc: f32):
    %mask = arith.constant -65536 : i32
    %sixteen = arith.constant 16 : i32
    %x0 = arith.shli %x, %sixteen : i32
    %xf0 = arith.bitcast %x0 : i32 to f32
    %y0 = arith.shli %y, %sixteen : i32
    %yf0 = arith.bitcast %y0 : i32 to f32
    %p0 = arith.mulf %xf0, %yf0 : f32
    %s0 = arith.addf %acc, %p0 : f32
    %x1 = arith.andi %x, %mask : i32
    %xf1 = arith.bitcast %x1 : i32 to f32
    %y1 = arith.andi %y, %mask : i32
    %yf1 = arith.bitcast %y1 : i32 to f32
    %p1 = arith.mulf %xf1, %yf1 : f32
    %s1 = arith.addf %s0, %p1 : f32
    linalg.yield %s1 : f32
  }
  return
}
