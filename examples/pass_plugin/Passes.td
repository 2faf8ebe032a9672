//===- Passes.td - the example plugin's passes -------------*- tablegen -*-===//

#ifndef EXAMPLE_PASSES_TD
#define EXAMPLE_PASSES_TD

include "mlir/Pass/PassBase.td"

def MulTwoToAddPass : Pass<"example-mul-two-to-add"> {
  let summary = "Rewrites x * 2.0 as x + x";
  let description = [{
    A floating-point multiply by the constant 2.0 (either operand) becomes
    an add of the other operand to itself, which gives the same result for
    every input (infinities, NaNs and signed zeros included). For example,

    ```mlir
    %two = arith.constant 2.0 : f32
    %y = arith.mulf %x, %two : f32
    ```

    becomes `%y = arith.addf %x, %x : f32`. Runs on any operation; in
    infer-compile, after the `fuse` phase it sees the loop bodies.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

#endif // EXAMPLE_PASSES_TD
