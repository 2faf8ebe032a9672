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
