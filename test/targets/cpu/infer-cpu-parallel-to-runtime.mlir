// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-cpu-parallel-to-runtime | FileCheck %s

// A two-dim parallel loop (4 x %n iterations) becomes a task over linear
// iterations: the values it uses come from a context struct (the pointer
// and %n; constants are recomputed), the per-thread buffer is made once
// per call, and the caller stores the context and dispatches 4 * %n
// iterations to the thread-local executor.
// CHECK: llvm.mlir.global internal thread_local @__infer_executor()
// CHECK: llvm.func internal @__infer_parallel_for(%[[TASK:[^:]+]]: !llvm.ptr, %[[CTX:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i64) attributes {no_inline}
// CHECK: %[[TLS:.+]] = "llvm.intr.threadlocal.address"
// CHECK: %[[EXEC:.+]] = llvm.load %[[TLS]]
// CHECK: llvm.icmp "eq" %[[EXEC]]
// CHECK: llvm.call %[[TASK]](%[[CTX]], %{{.+}}, %[[N]])
// CHECK: %[[PFOR:.+]] = llvm.load %[[EXEC]]
// CHECK: llvm.call %[[PFOR]](%[[EXEC]], %[[TASK]], %[[CTX]], %[[N]])
// CHECK: llvm.func internal @f_task0(%{{.+}}: !llvm.ptr, %[[BEGIN:.+]]: i64, %[[END:.+]]: i64)
// CHECK: llvm.getelementptr %{{.+}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i64)>
// CHECK: %[[P:.+]] = llvm.load %{{.+}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.getelementptr %{{.+}}[0, 1]
// CHECK: llvm.load %{{.+}} : !llvm.ptr -> i64
// CHECK: %[[BUF:.+]] = llvm.alloca
// CHECK: llvm.br ^[[HEADER:.+]](%[[BEGIN]] : i64)
// CHECK: ^[[HEADER]](%[[I:.+]]: i64):
// CHECK: llvm.icmp "slt" %[[I]], %[[END]]
// CHECK: llvm.srem %[[I]]
// CHECK: llvm.sdiv %[[I]]
// CHECK: llvm.getelementptr %[[P]]
// CHECK: llvm.store %{{.+}}, %[[BUF]]
// CHECK: llvm.add %[[I]]
// CHECK: llvm.br ^[[HEADER]]
// CHECK: llvm.func @f(%[[ARG0:.+]]: !llvm.ptr, %[[ARG1:.+]]: i64)
// CHECK: %[[SLOT:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, i64)>
// CHECK: llvm.store %[[ARG0]]
// CHECK: llvm.store %[[ARG1]]
// CHECK: llvm.mul
// CHECK: %[[TOTAL:.+]] = llvm.mul %{{.+}}, %{{.+}} : i64
// CHECK-NEXT: %[[ADDR:.+]] = llvm.mlir.addressof @f_task0
// CHECK-NEXT: llvm.call @__infer_parallel_for(%[[ADDR]], %[[SLOT]], %[[TOTAL]])
// CHECK-NOT: omp.
llvm.func @f(%p: !llvm.ptr, %n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c4 = llvm.mlir.constant(4 : i64) : i64
  omp.parallel {
    %buf = llvm.alloca %c1 x f32 : (i64) -> !llvm.ptr
    omp.wsloop {
      omp.loop_nest (%i, %j) : i64 = (%c0, %c0) to (%c4, %n) step (%c1, %c1) {
        %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %q : !llvm.ptr -> f32
        llvm.store %v, %buf : f32, !llvm.ptr
        omp.yield
      }
    }
    omp.terminator
  }
  llvm.return
}

// -----

// A bound the task computes itself cannot be counted by the caller.
llvm.func @g(%p: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  // expected-error @+1 {{a loop bound computed inside the omp.parallel}}
  omp.parallel {
    %n = llvm.load %p : !llvm.ptr -> i64
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%c0) to (%n) step (%c1) {
        llvm.store %i, %p : i64, !llvm.ptr
        omp.yield
      }
    }
    omp.terminator
  }
  llvm.return
}

// -----

// The declared thread count (infer-cpu-contraction-kernels) gets its body:
// 1 when the thread has no executor, else the executor's num_threads (the
// i32 after parallel_for, ABI 9, read atomically: the pool changes it while
// runs are in flight), sign-extended.
// CHECK-LABEL: llvm.func internal @__infer_num_threads() -> i64
// CHECK: %[[TLS:.+]] = "llvm.intr.threadlocal.address"
// CHECK: %[[EXEC:.+]] = llvm.load %[[TLS]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[NONE:.+]] = llvm.icmp "eq" %[[EXEC]], %[[NULL]]
// CHECK: llvm.cond_br %[[NONE]], ^[[ONE:.+]], ^[[READ:.+]]
// CHECK: ^[[ONE]]:
// CHECK: %[[C1:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.return %[[C1]] : i64
// CHECK: ^[[READ]]:
// CHECK: %[[FIELD:.+]] = llvm.getelementptr %[[EXEC]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i32, i32)>
// CHECK: %[[N:.+]] = llvm.load %[[FIELD]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[W:.+]] = llvm.sext %[[N]] : i32 to i64
// CHECK: llvm.return %[[W]] : i64
// CHECK-LABEL: llvm.func @g
// CHECK: llvm.call @__infer_num_threads() : () -> i64
llvm.func @__infer_num_threads() -> i64
llvm.func @g() -> i64 {
  %n = llvm.call @__infer_num_threads() : () -> i64
  llvm.return %n : i64
}

// -----

// Loads through the address of a constant global (as memref.get_global
// lowers it: a GEP of constant indices from llvm.mlir.addressof), which
// the task receives in its context, are marked invariant: no store of the
// task changes them, so LLVM may hoist them out of loops that store. A
// mutable global's loads are not, nor integer loads (offset tables).
// CHECK-LABEL: llvm.func internal @g_task0
// CHECK: %[[W:.+]] = llvm.load %{{.+}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S:.+]] = llvm.load %{{.+}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[WI:.+]] = llvm.getelementptr %[[W]][%{{.+}}]
// CHECK: llvm.load %[[WI]] invariant : !llvm.ptr -> f32
// CHECK: %[[SI:.+]] = llvm.getelementptr %[[S]][%{{.+}}]
// CHECK: llvm.load %[[SI]] : !llvm.ptr -> f32
// CHECK: llvm.load %{{.+}} : !llvm.ptr -> i32
llvm.mlir.global private constant @table(dense<1> : tensor<8xi32>) : !llvm.array<8 x i32>
llvm.mlir.global private constant @weights(dense<1.0> : tensor<8xf32>) : !llvm.array<8 x f32>
llvm.mlir.global private @state(dense<1.0> : tensor<8xf32>) : !llvm.array<8 x f32>
llvm.func @g(%out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c8 = llvm.mlir.constant(8 : i64) : i64
  %wa = llvm.mlir.addressof @weights : !llvm.ptr
  %w = llvm.getelementptr %wa[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f32>
  %sa = llvm.mlir.addressof @state : !llvm.ptr
  %s = llvm.getelementptr %sa[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f32>
  %ta = llvm.mlir.addressof @table : !llvm.ptr
  %t = llvm.getelementptr %ta[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x i32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%c0) to (%c8) step (%c1) {
        %wi = llvm.getelementptr %w[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %a = llvm.load %wi : !llvm.ptr -> f32
        %si = llvm.getelementptr %s[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %b = llvm.load %si : !llvm.ptr -> f32
        %ti = llvm.getelementptr %t[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %c = llvm.load %ti : !llvm.ptr -> i32
        %cf = llvm.sitofp %c : i32 to f32
        %ab = llvm.fadd %a, %b : f32
        %sum = llvm.fadd %ab, %cf : f32
        %oi = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %sum, %oi : f32, !llvm.ptr
        omp.yield
      }
    }
    omp.terminator
  }
  llvm.return
}
