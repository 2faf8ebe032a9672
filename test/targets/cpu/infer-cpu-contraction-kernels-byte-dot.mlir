// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=512 byte-dot-bits=512},canonicalize)' | FileCheck %s --check-prefix=ZMM
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256 byte-dot-bits=256},canonicalize)' | FileCheck %s --check-prefix=YMM
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256 word-dot=true},canonicalize)' | FileCheck %s --check-prefix=WORDS
// RUN: infer-opt %s --split-input-file --pass-pipeline='builtin.module(infer-cpu-contraction-kernels{vector-bits=256},canonicalize)' | FileCheck %s --check-prefix=NONE

// infer-cpu-contraction-kernels on contractions over i32 values packing
// four 8-bit lanes (passes/lowering/ByteDot.h): A's lanes signed (the
// weights), B's unsigned (the activations). Each step is one vpdpbusd per
// register, B's row (the unsigned multiplicand) first and the broadcast of
// A second, both as bytes; without a byte-dot instruction but with AVX2,
// two vpmaddwd on the lanes' 16-bit halves (even lanes: shifted left then
// right by 8; odd: right by 8; B's zero-, A's sign-extended); without
// either, each lane's product apart.

#a = affine_map<(m, k, n) -> (m, k)>
#b = affine_map<(m, k, n) -> (k, n)>
#c = affine_map<(m, k, n) -> (m, n)>

// ZMM-LABEL: func.func @byte_dot
// ZMM: %[[ROW:.+]] = vector.load %{{.+}} : memref<4x32xi32>, vector<32xi32>
// ZMM: %[[A:.+]] = memref.load %{{.+}} : memref<8x4xi32>
// ZMM: %[[B0:.+]] = vector.extract_strided_slice %[[ROW]] {offsets = [0], sizes = [16], strides = [1]}
// ZMM: %[[U0:.+]] = vector.bitcast %[[B0]] : vector<16xi32> to vector<64xi8>
// ZMM: %[[SPLAT:.+]] = vector.broadcast %[[A]] : i32 to vector<16xi32>
// ZMM: %[[S0:.+]] = vector.bitcast %[[SPLAT]] : vector<16xi32> to vector<64xi8>
// ZMM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %[[U0]], %[[S0]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// ZMM-NOT: arith.muli
// YMM-LABEL: func.func @byte_dot
// YMM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%{{.+}}, %{{.+}}, %{{.+}}) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// YMM-NOT: arith.muli
// WORDS-LABEL: func.func @byte_dot
// WORDS-NOT: vpdpbusd
// WORDS: %[[A16:.+]] = vector.bitcast %{{.+}} : vector<8xi32> to vector<16xi16>
// WORDS: %[[AE:.+]] = arith.shli %[[A16]], %[[EIGHT:.+]] : vector<16xi16>
// WORDS: %[[AEX:.+]] = arith.shrsi %[[AE]], %[[EIGHT]] : vector<16xi16>
// WORDS: %[[B16:.+]] = vector.bitcast %{{.+}} : vector<8xi32> to vector<16xi16>
// WORDS: %[[BE:.+]] = arith.shli %[[B16]], %[[EIGHT]] : vector<16xi16>
// WORDS: %[[BEX:.+]] = arith.shrui %[[BE]], %[[EIGHT]] : vector<16xi16>
// WORDS: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[AEX]], %[[BEX]]) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// WORDS: %[[AO:.+]] = arith.shrsi %{{.+}}, %[[EIGHT]] : vector<16xi16>
// WORDS: %[[BO:.+]] = arith.shrui %{{.+}}, %[[EIGHT]] : vector<16xi16>
// WORDS: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[AO]], %[[BO]])
// WORDS-NOT: arith.muli
// NONE-LABEL: func.func @byte_dot
// NONE-NOT: llvm.call_intrinsic
// NONE: arith.trunci %{{.+}} : vector<16xi32> to vector<16xi8>
// NONE: arith.extsi
// NONE: arith.extui
// NONE: arith.muli %{{.+}}, %{{.+}} : vector<16xi32>
// NONE-NOT: llvm.call_intrinsic
func.func @byte_dot(%a: memref<8x4xi32>, %b: memref<4x32xi32>, %c: memref<8x32xi32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x4xi32>, memref<4x32xi32>) outs(%c : memref<8x32xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %x0 = arith.trunci %x : i32 to i8
    %xs0 = arith.extsi %x0 : i8 to i32
    %y0 = arith.trunci %y : i32 to i8
    %yu0 = arith.extui %y0 : i8 to i32
    %p0 = arith.muli %xs0, %yu0 : i32
    %s0 = arith.addi %acc, %p0 : i32
    %c8 = arith.constant 8 : i32
    %x1s = arith.shrui %x, %c8 : i32
    %x1 = arith.trunci %x1s : i32 to i8
    %xs1 = arith.extsi %x1 : i8 to i32
    %y1s = arith.shrui %y, %c8 : i32
    %y1 = arith.trunci %y1s : i32 to i8
    %yu1 = arith.extui %y1 : i8 to i32
    %p1 = arith.muli %xs1, %yu1 : i32
    %s1 = arith.addi %s0, %p1 : i32
    %c16 = arith.constant 16 : i32
    %x2s = arith.shrui %x, %c16 : i32
    %x2 = arith.trunci %x2s : i32 to i8
    %xs2 = arith.extsi %x2 : i8 to i32
    %y2s = arith.shrui %y, %c16 : i32
    %y2 = arith.trunci %y2s : i32 to i8
    %yu2 = arith.extui %y2 : i8 to i32
    %p2 = arith.muli %xs2, %yu2 : i32
    %s2 = arith.addi %s1, %p2 : i32
    %c24 = arith.constant 24 : i32
    %x3s = arith.shrui %x, %c24 : i32
    %x3 = arith.trunci %x3s : i32 to i8
    %xs3 = arith.extsi %x3 : i8 to i32
    %y3s = arith.shrui %y, %c24 : i32
    %y3 = arith.trunci %y3s : i32 to i8
    %yu3 = arith.extui %y3 : i8 to i32
    %p3 = arith.muli %xs3, %yu3 : i32
    %s3 = arith.addi %s2, %p3 : i32
    linalg.yield %s3 : i32
  }
  return
}

// -----

// A body that is not exactly a byte dot (lane 3 shifted by 16) is not a
// kernel contraction: the generic stays.
// YMM-LABEL: func.func @not_byte_dot
// WORDS-LABEL: func.func @not_byte_dot
// NONE-LABEL: func.func @not_byte_dot
// ZMM-LABEL: func.func @not_byte_dot
// ZMM: linalg.generic
// ZMM-NOT: llvm.call_intrinsic
func.func @not_byte_dot(%a: memref<8x4xi32>, %b: memref<4x32xi32>, %c: memref<8x32xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x4xi32>, memref<4x32xi32>) outs(%c : memref<8x32xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %x0 = arith.trunci %x : i32 to i8
    %xs0 = arith.extsi %x0 : i8 to i32
    %y0 = arith.trunci %y : i32 to i8
    %yu0 = arith.extui %y0 : i8 to i32
    %p0 = arith.muli %xs0, %yu0 : i32
    %s0 = arith.addi %acc, %p0 : i32
    %c8 = arith.constant 8 : i32
    %x1s = arith.shrui %x, %c8 : i32
    %x1 = arith.trunci %x1s : i32 to i8
    %xs1 = arith.extsi %x1 : i8 to i32
    %y1s = arith.shrui %y, %c8 : i32
    %y1 = arith.trunci %y1s : i32 to i8
    %yu1 = arith.extui %y1 : i8 to i32
    %p1 = arith.muli %xs1, %yu1 : i32
    %s1 = arith.addi %s0, %p1 : i32
    %c16 = arith.constant 16 : i32
    %x2s = arith.shrui %x, %c16 : i32
    %x2 = arith.trunci %x2s : i32 to i8
    %xs2 = arith.extsi %x2 : i8 to i32
    %y2s = arith.shrui %y, %c16 : i32
    %y2 = arith.trunci %y2s : i32 to i8
    %yu2 = arith.extui %y2 : i8 to i32
    %p2 = arith.muli %xs2, %yu2 : i32
    %s2 = arith.addi %s1, %p2 : i32
    %x3s = arith.shrui %x, %c16 : i32
    %x3 = arith.trunci %x3s : i32 to i8
    %xs3 = arith.extsi %x3 : i8 to i32
    %y3s = arith.shrui %y, %c16 : i32
    %y3 = arith.trunci %y3s : i32 to i8
    %yu3 = arith.extui %y3 : i8 to i32
    %p3 = arith.muli %xs3, %yu3 : i32
    %s3 = arith.addi %s2, %p3 : i32
    linalg.yield %s3 : i32
  }
  return
}
