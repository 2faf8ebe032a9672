// RUN: infer-opt %s --split-input-file --infer-plan-workspace | FileCheck %s
// RUN: infer-opt %s --split-input-file --infer-plan-workspace=live-through-next-op=true | FileCheck %s --check-prefix=NEXT

// %a (256 B) dies when %c is made, so %c (256 B) reuses its bytes; %b
// (128 B) lives across both and gets its own. Total: 384 bytes. Each view
// names its buffer, so the two at offset 0 stay distinct values.
// CHECK: module attributes {infer.workspace_size = 384 : i64}
// CHECK-LABEL: func.func @reuse
// CHECK-SAME: %[[WS:[^:]+]]: memref<384xi8>)
// CHECK-NOT: memref.alloc
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: memref.view %[[WS]][%[[C0]]][] {infer.buffer = 0 : i64} : memref<384xi8> to memref<64xf32>
// CHECK: %[[C256:.+]] = arith.constant 256 : index
// CHECK: memref.view %[[WS]][%[[C256]]][] {infer.buffer = 1 : i64} : memref<384xi8> to memref<32xf32>
// CHECK: %[[C0B:.+]] = arith.constant 0 : index
// CHECK: memref.view %[[WS]][%[[C0B]]][] {infer.buffer = 2 : i64} : memref<384xi8> to memref<64xf32>
func.func @reuse(%x: memref<64xf32>, %y: memref<32xf32>) {
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<32xf32>
  %sa = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  memref.copy %sa, %b : memref<32xf32, strided<[1]>> to memref<32xf32>
  %c = memref.alloc() : memref<64xf32>
  memref.copy %x, %c : memref<64xf32> to memref<64xf32>
  %sc = memref.subview %c[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  memref.copy %b, %sc : memref<32xf32> to memref<32xf32, strided<[1]>>
  memref.copy %sc, %y : memref<32xf32, strided<[1]>> to memref<32xf32>
  return
}

// -----

// A view keeps its buffer alive: %a is read through %v after %b is made,
// so they must not overlap. A buffer that escapes (returned) and one with
// a dynamic size keep their heap allocations.
// CHECK: module attributes {infer.workspace_size = 512 : i64}
// CHECK-LABEL: func.func @views_and_escapes
// CHECK: memref.view %{{.+}}[%c0{{.*}}][] {{.*}}: memref<512xi8> to memref<64xf32>
// CHECK: memref.view %{{.+}}[%c256{{.*}}][] {{.*}}: memref<512xi8> to memref<64xf32>
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: %[[KEEP:.+]] = memref.alloc() : memref<8xf32>
// CHECK: return %[[KEEP]]
func.func @views_and_escapes(%x: memref<64xf32>, %n: index) -> memref<8xf32> {
  %a = memref.alloc() : memref<64xf32>
  %v = memref.subview %a[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %x, %b : memref<64xf32> to memref<64xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %keep = memref.alloc() : memref<8xf32>
  %sv = memref.subview %v[0] [8] [1] : memref<16xf32, strided<[1]>> to memref<8xf32, strided<[1]>>
  memref.copy %sv, %keep : memref<8xf32, strided<[1]>> to memref<8xf32>
  return %keep : memref<8xf32>
}

// -----

// A result computed into a buffer only to be copied into the output
// argument is computed into the output directly: no workspace, no copy.
// CHECK: module attributes {infer.workspace_size = 0 : i64}
// CHECK-LABEL: func.func @result_in_place
// CHECK-SAME: (%{{[^:]+}}: memref<8xf32>, %[[Y:[^:]+]]: memref<8xf32>, %{{[^:]+}}: memref<0xi8>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[Y]] : memref<8xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @result_in_place(%x: memref<8xf32>, %y: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%r : memref<8xf32>)
  memref.copy %r, %y : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Booleans take a byte each (LLVM stores i1 as a byte): a 3-element mask
// and a scalar flag, both live at once, 64-byte aligned, make 128 bytes.
// CHECK: module attributes {infer.workspace_size = 128 : i64}
// CHECK-LABEL: func.func @booleans
// CHECK-NOT: memref.alloc
// CHECK-DAG: memref.view %{{.+}}[%{{.+}}][] {{.*}}: memref<128xi8> to memref<3xi1>
// CHECK-DAG: memref.view %{{.+}}[%{{.+}}][] {{.*}}: memref<128xi8> to memref<i1>
func.func @booleans(%x: memref<3xi1>, %y: memref<i1>) {
  %mask = memref.alloc() : memref<3xi1>
  memref.copy %x, %mask : memref<3xi1> to memref<3xi1>
  %flag = memref.alloc() : memref<i1>
  %c0 = arith.constant 0 : index
  %v = memref.load %mask[%c0] : memref<3xi1>
  memref.store %v, %flag[] : memref<i1>
  %c1 = arith.constant 1 : index
  %w = memref.load %mask[%c1] : memref<3xi1>
  %f = memref.load %flag[] : memref<i1>
  %r = arith.andi %w, %f : i1
  memref.store %r, %y[] : memref<i1>
  return
}

// -----

// Index buffers take 8 bytes an element (64-bit indices on every target).
// CHECK: module attributes {infer.workspace_size = 64 : i64}
// CHECK-LABEL: func.func @indices
// CHECK-NOT: memref.alloc
// CHECK: memref.view %{{.+}}[%{{.+}}][] {{.*}}: memref<64xi8> to memref<3xindex>
func.func @indices(%y: memref<index>) {
  %slots = memref.alloc() : memref<3xindex>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  memref.store %c2, %slots[%c0] : memref<3xindex>
  %v = memref.load %slots[%c0] : memref<3xindex>
  memref.store %v, %y[] : memref<index>
  return
}

// -----

// %a's last reader is a reduction and the op right after it is
// elementwise: by default %d (made after the reduction) reuses %a's bytes;
// with live-through-next-op %a stays live through the elementwise op, which
// a kernel may run inside the reduction, so %d gets bytes of its own.
// CHECK-LABEL: func.func @through_next
// CHECK: memref.view %{{.+}}[%c0{{.*}}][] {infer.buffer = 0 : i64} : memref<576xi8> to memref<64xf32>
// CHECK: memref.view %{{.+}}[%c0{{.*}}][] {infer.buffer = 3 : i64} : memref<576xi8> to memref<64xf32>
// NEXT-LABEL: func.func @through_next
// NEXT: memref.view %{{.+}}[%c0{{.*}}][] {infer.buffer = 0 : i64} : memref<832xi8> to memref<64xf32>
// NEXT: memref.view %{{.+}}[%c512{{.*}}][] {infer.buffer = 3 : i64} : memref<832xi8> to memref<64xf32>
func.func @through_next(%x: memref<64xf32>, %y: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  %keep = memref.alloc() : memref<64xf32>
  memref.copy %x, %keep : memref<64xf32> to memref<64xf32>
  %c = memref.alloc() : memref<1xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (0)>], iterator_types = ["reduction"]}
      ins(%a : memref<64xf32>) outs(%c : memref<1xf32>) {
  ^bb0(%v: f32, %s: f32):
    %t = arith.addf %v, %s : f32
    linalg.yield %t : f32
  }
  %d = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (0)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%c, %keep : memref<1xf32>, memref<64xf32>) outs(%d : memref<64xf32>) {
  ^bb0(%s: f32, %k: f32, %o: f32):
    %t = arith.mulf %s, %k : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%d : memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %v : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// An allocation marked infer.unplanned (a target's kernels never touch it:
// infer-cpu-unplan-fused-outputs) stays out of the plan: only %b (256 B)
// takes workspace memory.
// CHECK: module attributes {infer.workspace_size = 256 : i64}
// CHECK-LABEL: func.func @unplanned
// CHECK: memref.alloc() {infer.unplanned} : memref<64xf32>
// CHECK: memref.view %{{.+}}[%c0{{.*}}][] {infer.buffer = 0 : i64} : memref<256xi8> to memref<64xf32>
func.func @unplanned(%x: memref<64xf32>, %y: memref<32xf32>) {
  %a = memref.alloc() {infer.unplanned} : memref<64xf32>
  memref.copy %x, %a : memref<64xf32> to memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  %sb = memref.subview %b[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  memref.copy %sb, %y : memref<32xf32, strided<[1]>> to memref<32xf32>
  return
}
