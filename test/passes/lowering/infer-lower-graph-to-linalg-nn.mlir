// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg | FileCheck %s

// infer-lower-graph-to-linalg on neural-network ops (NNOps.td): contractions, convolutions, pooling,
// normalizations, softmax, recurrent layers, sampling, training-only ops; static and dynamic shapes
// (passes/lowering/nn/).

// Convolution: pad, im2col (a pure copy over n, g, c, window, output),
// one matmul per (n, g) with the output positions innermost, bias.
// CHECK-LABEL: func.func @conv
// CHECK: tensor.pad
// CHECK: %[[COL:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%{{.+}} : tensor<1x1x3x10x10xf32>)
// CHECK-SAME: outs(%{{.+}} : tensor<1x1x3x3x3x8x8xf32>)
// CHECK: %[[COLS:.+]] = tensor.reshape %[[COL]]{{.+}} -> tensor<1x1x27x64xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%{{.+}}, %[[COLS]] : tensor<1x4x27xf32>, tensor<1x1x27x64xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.reshape {{.+}} -> tensor<1x4x8x8xf32>
// CHECK: linalg.generic
// CHECK: arith.addf
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// Depthwise convolution (one input channel per group) stays one direct
// generic: the im2col matrix would have a 9-row reduction.
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @depthwise(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>, none) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// ConvTranspose whose 2x2 windows tile the output (stride 2): the filters
// transposed to [co, kh, kw, ci] (A's rows the filters and taps, one M
// dim), one contraction over the input channels, t[n, co, kh, kw, h, w]
// (positions innermost), then one copy interleaving the taps into
// y[n, co, (h, kh), (w, kw)] with the bias added. No per-element stride
// test.
// CHECK-DAG: #[[X:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d6, d4, d5)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d1, d2, d6)>
// CHECK-DAG: #[[T:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d3, d1, d2, d4, d5)>
// CHECK-DAG: #[[TAPS:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5, d2, d4)>
// CHECK-LABEL: func.func @conv_transpose_tiles
// CHECK: %[[WT:.+]] = linalg.transpose ins(%arg1 : tensor<4x3x2x2xf32>) outs(%{{.+}} : tensor<3x2x2x4xf32>) permutation = [1, 2, 3, 0]
// CHECK: %[[TV:.+]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[T]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %[[WT]] : {{.+}}) outs(%{{.+}} : tensor<1x3x2x2x5x6xf32>)
// CHECK: arith.mulf
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[TAPS]], #{{.+}}, #{{.+}}]{{.+}} ins(%[[TV]], %arg2 : tensor<1x3x2x2x5x6xf32>, tensor<3xf32>) outs(%{{.+}} : tensor<1x3x5x2x6x2xf32>)
// CHECK: tensor.reshape %[[Y]]{{.+}} -> tensor<1x3x10x12xf32>
func.func @conv_transpose_tiles(%x: tensor<1x4x5x6xf32>, %w: tensor<4x3x2x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x10x12xf32> {
  %0 = graph.conv_transpose %x, %w, %b {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>, tensor<4x3x2x2xf32>, tensor<3xf32>) -> tensor<1x3x10x12xf32>
  return %0 : tensor<1x3x10x12xf32>
}

// -----

// Overlapping windows (kernel 3, stride 2) over a dynamic spatial size keep
// the general form (static ones: infer-lower-graph-to-linalg-conv-transpose.mlir).
// CHECK-LABEL: func.func @conv_transpose_overlap
// CHECK: arith.remsi
func.func @conv_transpose_overlap(%x: tensor<1x2x?x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x?x9xf32> {
  %none = graph.none
  %0 = graph.conv_transpose %x, %w, %none {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x?x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x3x?x9xf32>
  return %0 : tensor<1x3x?x9xf32>
}

// -----

// Softmax: max and sum reductions around an exp. The max ignores NaNs
// (maxnumf: a NaN still makes its row NaN, through x - max and the sum).
// exp(x - max) is computed once per element and kept; its row sums, then
// the result multiplies it by the row's reciprocal.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<2x5xf32>) outs(%{{.+}} : tensor<2x1xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[EXP:.+]] = linalg.generic {{.+}} ins(%arg0, %[[MAX]] : tensor<2x5xf32>, tensor<2x1xf32>) outs(%{{.+}} : tensor<2x5xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} ins(%[[EXP]] : tensor<2x5xf32>) outs(%{{.+}} : tensor<2x1xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.+}} ins(%[[EXP]], %[[SUM]] : tensor<2x5xf32>, tensor<2x1xf32>) outs(%{{.+}} : tensor<2x5xf32>)
// CHECK: %[[R:.+]] = arith.divf %{{.+}}, %{{.+}} : f32
// CHECK-NOT: math.exp
// CHECK: arith.mulf %{{.+}}, %[[R]]
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.softmax %x : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// In bfloat16, exp(x - max) is not kept (it would be rounded to bf16 once
// more before the scaling): the sum and the result each compute it from x.
// CHECK-LABEL: func.func @softmax_bf16
// CHECK: %[[MAX:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<2x5xbf16>) outs(%{{.+}} : tensor<2x1xbf16>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} ins(%arg0, %[[MAX]] : tensor<2x5xbf16>, tensor<2x1xbf16>) outs(%{{.+}} : tensor<2x1xbf16>)
// CHECK: math.exp
// CHECK: linalg.generic {{.+}} ins(%arg0, %[[MAX]], %[[SUM]] : tensor<2x5xbf16>, tensor<2x1xbf16>, tensor<2x1xbf16>) outs(%{{.+}} : tensor<2x5xbf16>)
// CHECK: math.exp
func.func @softmax_bf16(%x: tensor<2x5xbf16>) -> tensor<2x5xbf16> {
  %0 = graph.softmax %x : (tensor<2x5xbf16>) -> tensor<2x5xbf16>
  return %0 : tensor<2x5xbf16>
}

// -----

// Hardmax: one reduction finds the first maximum's index along the axis
// (the same whatever its size: 2^20 here), then a one-hot of it.
// CHECK-LABEL: func.func @hardmax
// CHECK: %[[IDX:.+]]:2 = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%{{.+}}, %{{.+}} : tensor<2x1xf32>, tensor<2x1xi64>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}} : tensor<2x1048576xf32>)
// CHECK: tensor.extract %[[IDX]]#1
// CHECK: arith.cmpi eq
// CHECK-NOT: arith.cmpf
// CHECK: return
func.func @hardmax(%x: tensor<2x1048576xf32>) -> tensor<2x1048576xf32> {
  %0 = graph.hardmax %x : (tensor<2x1048576xf32>) -> tensor<2x1048576xf32>
  return %0 : tensor<2x1048576xf32>
}

// -----

// Dynamic dims a pattern cannot size at run time are reported, not
// miscompiled (Hardmax has no generic lowering yet).
func.func @dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{failed to legalize operation 'graph.hardmax'}}
  %0 = graph.hardmax %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// GRU: the input projection of all steps is one matmul before the time
// loop; the loop carries the hidden state and the output sequence. The
// new state is copied into the state's tensor (one buffer updated in
// place once bufferized).
// CHECK-LABEL: func.func @gru
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<5x2x3xf32>, tensor<12x3xf32>)
// CHECK: scf.for %{{.+}} = %c0 to %c5 step %c1 iter_args(%[[H:.+]] = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<2x4xf32>, tensor<5x2x4xf32>)
// CHECK: math.exp
// CHECK: math.tanh
// CHECK: tensor.insert_slice
// CHECK: %[[STATE:.+]] = linalg.copy ins(%{{.+}} : tensor<2x4xf32>) outs(%[[H]] : tensor<2x4xf32>)
// CHECK: scf.yield %[[STATE]], %{{.+}} : tensor<2x4xf32>, tensor<5x2x4xf32>
func.func @gru(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>) {
  %none = graph.none
  %y, %yh = graph.gru %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %y, %yh : tensor<5x1x2x4xf32>, tensor<1x2x4xf32>
}

// -----

// Det: elimination with partial pivoting on an f64 copy of the batch.
// CHECK-LABEL: func.func @det
// CHECK: arith.extf
// CHECK: scf.for %{{.+}} = %c0 to %c3 step %c1 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<3x2x2xf64>, tensor<3xf64>)
// CHECK: math.absf
// CHECK: arith.negf
// CHECK: arith.divf
// CHECK: arith.truncf
func.func @det(%x: tensor<3x2x2xf32>) -> tensor<3xf32> {
  %0 = graph.det %x : (tensor<3x2x2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// MaxPool's Indices: a window search per output keeping the first maximum.
// CHECK-LABEL: func.func @maxpool_indices
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (f32, i64)
// CHECK: arith.cmpf ogt
func.func @maxpool_indices(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) {
  %y, %i = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  return %y, %i : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>
}

// -----

// uint8 MaxPool (what a QDQ MaxPool folds to) compares unsigned: the
// padding is 0 and the max is maxui (200 > 100, not -56 < 100); its
// Indices compare the values zero-extended to i64 from below any of them.
// CHECK-LABEL: func.func @maxpool_uint8
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i8
// CHECK: tensor.pad
// CHECK: tensor.yield %[[ZERO]]
// CHECK: arith.maxui
// CHECK-NOT: arith.maxsi
// CHECK: arith.constant -9223372036854775808 : i64
// CHECK: arith.extui %{{.+}} : i8 to i64
// CHECK: arith.cmpi sgt
func.func @maxpool_uint8(%x: tensor<1x1x4x4xui8>) -> (tensor<1x1x3x3xui8>, tensor<1x1x3x3xi64>) {
  %y, %i = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xui8>) -> (tensor<1x1x3x3xui8>, tensor<1x1x3x3xi64>)
  return %y, %i : tensor<1x1x3x3xui8>, tensor<1x1x3x3xi64>
}

// -----

// BatchNormalization in training mode: batch statistics, running averages.
// CHECK-LABEL: func.func @batchnorm_training
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
// CHECK: arith.mulf %{{.+}}, %cst
func.func @batchnorm_training(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %rm, %rv = graph.batch_normalization %x, %s, %b, %m, %v {training_mode = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %y, %rm, %rv : tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Einsum with an ellipsis and a repeated letter (a batched diagonal).
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1) -> (d0, d1, d1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_diagonal
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]]
func.func @einsum_diagonal(%x: tensor<3x5x5xf32>) -> tensor<3x5xf32> {
  %0 = graph.einsum %x {equation = "...ii->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Training-mode Dropout: a uniform draw per element from (seed, position)
// against the run-time ratio; kept elements are scaled by 1 / (1 - ratio).
// CHECK-LABEL: func.func @dropout_training
// CHECK: linalg.generic
// CHECK: arith.xori
// CHECK: arith.shrui
// CHECK: arith.cmpf oge
// CHECK: arith.select
func.func @dropout_training(%x: tensor<4xf32>, %r: tensor<f32>, %t: tensor<i1>) -> tensor<4xf32> {
  %y, %m = graph.dropout %x, %r, %t {seed = 3 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> (tensor<4xf32>, none)
  return %y : tensor<4xf32>
}

// -----

// RoiAlign: per output bin, a run-time grid of bilinear samples (two
// nested loops whose bounds come from the ROI when sampling_ratio is 0).
// CHECK-LABEL: func.func @roi_align
// CHECK: linalg.generic
// CHECK: math.ceil
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %{{.+}} step %c1{{.*}} iter_args(%{{.+}} = %{{.+}}) -> (f64)
// CHECK: scf.for
// CHECK: math.floor
func.func @roi_align(%x: tensor<1x1x8x8xf32>, %rois: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<2x1x3x3xf32> {
  %0 = graph.roi_align %x, %rois, %b {output_height = 3 : i64, output_width = 3 : i64} : (tensor<1x1x8x8xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x3x3xf32>
  return %0 : tensor<2x1x3x3xf32>
}

// -----

// Gemm: m from A, n static.
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[A:.+]]: tensor<?x8xf32>
// CHECK: %[[M:.+]] = tensor.dim %[[A]], %c0
// CHECK: tensor.empty(%[[M]]) : tensor<?x3xf32>
// CHECK: linalg.fill
// CHECK: linalg.generic
func.func @gemm(%a: tensor<?x8xf32>, %w: tensor<3x8xf32>) -> tensor<?x3xf32> {
  %none = graph.none
  %0 = graph.gemm %a, %w, %none {transB = 1 : i64} : (tensor<?x8xf32>, tensor<3x8xf32>, none) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Conv with a dynamic batch: the column buffer and the output take dim 0
// of the input.
// CHECK-LABEL: func.func @conv
// CHECK: tensor.dim %{{.+}}, %c0 : tensor<?x2x5x5xf32>
// CHECK: tensor.empty(%{{.+}}) : tensor<?x1x2x3x3x3x3xf32>
// CHECK: tensor.reshape
func.func @conv(%x: tensor<?x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x4x3x3xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none {kernel_shape = array<i64: 3, 3>} : (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, none) -> tensor<?x4x3x3xf32>
  return %0 : tensor<?x4x3x3xf32>
}

// -----

// ConvTranspose with a dynamic batch: the output takes dim 0 of the input.
// CHECK-LABEL: func.func @conv_transpose_dynamic_batch
// CHECK: tensor.dim %{{.+}}, %c0 : tensor<?x4x5xf32>
// CHECK: tensor.empty(%{{.+}}) : tensor<?x1x40xf32>
// CHECK-NOT: graph.conv_transpose
func.func @conv_transpose_dynamic_batch(%x: tensor<?x4x5xf32>, %w: tensor<4x1x16xf32>) -> tensor<?x1x40xf32> {
  %none = graph.none
  %0 = graph.conv_transpose %x, %w, %none {kernel_shape = array<i64: 16>, pads = array<i64: 8, 8>, strides = array<i64: 8>} : (tensor<?x4x5xf32>, tensor<4x1x16xf32>, none) -> tensor<?x1x40xf32>
  return %0 : tensor<?x1x40xf32>
}

// -----

// Dropout in training mode with a constant ratio of 0 keeps everything: the
// identity, with an all-true mask sized like the data, any shape.
// CHECK-LABEL: func.func @dropout_ratio_zero
// CHECK-SAME: (%[[X:[^:]+]]: tensor<?x3xf32>
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %c0
// CHECK: tensor.empty(%[[D]]) : tensor<?x3xi1>
// CHECK: linalg.fill
// CHECK: return %[[X]]
func.func @dropout_ratio_zero(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xi1>) {
  %ratio = graph.constant dense<0.0> : tensor<f32>
  %train = graph.constant dense<true> : tensor<i1>
  %y, %m = graph.dropout %x, %ratio, %train : (tensor<?x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<?x3xf32>, tensor<?x3xi1>)
  return %y, %m : tensor<?x3xf32>, tensor<?x3xi1>
}

// -----

// Conv over dynamic spatial sizes: the output size is computed at run time,
// (in + 2 - 3) floordiv 2 + 1, the padding after the input covers the last
// window, and the column buffer and matmul are sized by it.
// CHECK-LABEL: func.func @conv_dynamic_spatial
// CHECK-DAG: %[[H:.+]] = tensor.dim %{{.+}}, %c2 : tensor<?x2x?x?xf32>
// CHECK-DAG: %[[W:.+]] = tensor.dim %{{.+}}, %c3{{.*}} : tensor<?x2x?x?xf32>
// CHECK: arith.floordivsi
// CHECK: arith.maxsi
// CHECK: tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, %{{.+}}, %{{.+}}]
// CHECK: tensor.empty(%{{.+}}, %{{.+}}, %{{.+}}) : tensor<?x1x2x3x3x?x?xf32>
// CHECK: linalg.generic
// CHECK: tensor.reshape %{{.+}}(%{{.+}}) : (tensor<?x1x2x3x3x?x?xf32>, tensor<4xi64>) -> tensor<?x1x18x?xf32>
// CHECK-NOT: graph.conv
func.func @conv_dynamic_spatial(%x: tensor<?x2x?x?xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<?x4x?x?xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x2x?x?xf32>, tensor<4x2x3x3xf32>, none) -> tensor<?x4x?x?xf32>
  return %0 : tensor<?x4x?x?xf32>
}

// -----

// SAME_UPPER over a dynamic length: out = ceil(in / stride), the padding
// total split at run time, the larger half after.
// CHECK-LABEL: func.func @conv_same_dynamic
// CHECK: arith.ceildivsi
// CHECK: arith.floordivsi
// CHECK: tensor.pad %{{.+}} low[0, 0, %{{.+}}] high[0, 0, %{{.+}}]
// CHECK-NOT: graph.conv
func.func @conv_same_dynamic(%x: tensor<1x3x?xf32>, %w: tensor<3x1x5xf32>) -> tensor<1x3x?xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none {auto_pad = "SAME_UPPER", group = 3 : i64, kernel_shape = array<i64: 5>, strides = array<i64: 2>} : (tensor<1x3x?xf32>, tensor<3x1x5xf32>, none) -> tensor<1x3x?xf32>
  return %0 : tensor<1x3x?xf32>
}

// -----

// MaxPool with ceil_mode over a dynamic size: ceil division, then one less
// when the last window would start past the input and its leading pad.
// CHECK-LABEL: func.func @max_pool_ceil_dynamic
// CHECK: arith.ceildivsi
// CHECK: arith.cmpi sge
// CHECK: arith.select
// CHECK: tensor.pad
// CHECK: linalg.generic
// CHECK-NOT: graph.max_pool
func.func @max_pool_ceil_dynamic(%x: tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32> {
  %0, %1 = graph.max_pool %x {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x?x?xf32>) -> (tensor<1x2x?x?xf32>, none)
  return %0 : tensor<1x2x?x?xf32>
}

// -----

// GlobalAveragePool over dynamic sizes divides by the run-time count.
// CHECK-LABEL: func.func @global_average_pool_dynamic
// CHECK: arith.muli
// CHECK: arith.uitofp
// CHECK: arith.divf
func.func @global_average_pool_dynamic(%x: tensor<1x2x?x?xf32>) -> tensor<1x2x1x1xf32> {
  %0 = graph.global_average_pool %x : (tensor<1x2x?x?xf32>) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}

// -----

// A 2x2 stride-2 ConvTranspose over dynamic sizes keeps the one matmul
// over filters and taps: the taps' buffer is sized by the input, the
// output doubles it.
// CHECK-LABEL: func.func @conv_transpose_tiles_dynamic
// CHECK: tensor.empty(%{{.+}}, %{{.+}}) : tensor<1x3x2x2x?x?xf32>
// CHECK-NOT: scf.for
// CHECK: tensor.reshape %{{.+}}(%{{.+}}) : (tensor<1x3x?x2x?x2xf32>, tensor<4xi64>) -> tensor<1x3x?x?xf32>
func.func @conv_transpose_tiles_dynamic(%x: tensor<1x4x?x?xf32>, %w: tensor<4x3x2x2xf32>) -> tensor<1x3x?x?xf32> {
  %none = graph.none
  %0 = graph.conv_transpose %x, %w, %none {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x?x?xf32>, tensor<4x3x2x2xf32>, none) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}

// -----

// Convolutions need static weights (they fix the channel counts).
func.func @conv_dynamic_weights(%x: tensor<1x2x5x5xf32>, %w: tensor<4x?x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %none = graph.none
  // expected-error @+1 {{failed to legalize operation 'graph.conv'}}
  %0 = graph.conv %x, %w, %none {kernel_shape = array<i64: 3, 3>} : (tensor<1x2x5x5xf32>, tensor<4x?x3x3xf32>, none) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// A recurrent layer with run-time sequence length and batch: the time loop
// runs to the sequence's dim, the state is sized by the batch's.
// CHECK-LABEL: func.func @gru_dynamic
// CHECK-DAG: %[[T:.+]] = tensor.dim %{{.+}}, %c0 : tensor<?x?x4xf32>
// CHECK-DAG: %[[B:.+]] = tensor.dim %{{.+}}, %c1 : tensor<?x?x4xf32>
// CHECK: tensor.empty(%[[B]]) : tensor<?x8xf32>
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %[[T]] step
func.func @gru_dynamic(%x: tensor<?x?x4xf32>, %w: tensor<1x24x4xf32>, %r: tensor<1x24x8xf32>) -> tensor<?x1x?x8xf32> {
  %none = graph.none
  %y, %h = graph.gru %x, %w, %r, %none, %none, %none {hidden_size = 8 : i64} : (tensor<?x?x4xf32>, tensor<1x24x4xf32>, tensor<1x24x8xf32>, none, none, none) -> (tensor<?x1x?x8xf32>, tensor<1x?x8xf32>)
  return %y : tensor<?x1x?x8xf32>
}

// -----

// A Conv whose input channel count the types left dynamic (a reshape's -1
// over dynamic dims, as in CoaT): the weights say 6, checked at run time,
// then the input is cast to that count.
// CHECK-LABEL: func.func @conv_dynamic_channels
// CHECK: %[[C:.+]] = tensor.dim %arg0, %c1
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[C]], %c6
// CHECK: cf.assert %[[SAME]], "node 'conv' (Conv): the input has another channel count than the weights' (6)
// CHECK: tensor.cast %arg0 : tensor<?x?x8x8xf32> to tensor<?x6x8x8xf32>
func.func @conv_dynamic_channels(%x: tensor<?x?x8x8xf32>, %w: tensor<4x6x1x1xf32>) -> tensor<?x4x8x8xf32> {
  %none = graph.none
  %0 = graph.conv %x, %w, %none {kernel_shape = array<i64: 1, 1>} : (tensor<?x?x8x8xf32>, tensor<4x6x1x1xf32>, none) -> tensor<?x4x8x8xf32> loc(#conv)
  return %0 : tensor<?x4x8x8xf32>
}
#conv = loc("conv"("Conv"))

// -----

// Einsum over run-time sizes (MaxViT's window attention in the generic
// variant): each letter's size is read from an operand that has it, the
// other operands' dims of that letter are checked against it.
// CHECK-LABEL: func.func @einsum_dynamic
// CHECK: %[[B0:.+]] = tensor.dim %arg0, %c0
// CHECK: %[[B1:.+]] = tensor.dim %arg1, %c0
// CHECK: arith.cmpi eq, %[[B1]], %[[B0]]
// CHECK: cf.assert %{{.+}}, "node 'e' (Einsum): the operands disagree on the size of 'b'
// CHECK: tensor.empty(%{{.+}}, %{{.+}}, %{{.+}}) : tensor<?x4x?x?xf32>
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @einsum_dynamic(%a: tensor<?x4x?x8xf32>, %b: tensor<?x4x?x8xf32>) -> tensor<?x4x?x?xf32> {
  %0 = graph.einsum %a, %b {equation = "bhid,bhjd->bhij"} : (tensor<?x4x?x8xf32>, tensor<?x4x?x8xf32>) -> tensor<?x4x?x?xf32> loc(#e)
  return %0 : tensor<?x4x?x?xf32>
}
#e = loc("e"("Einsum"))
