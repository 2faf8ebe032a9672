// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg | FileCheck %s

// Broadcasting binary op: one linalg.generic whose maps broadcast.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// The caller's inputs are never written in place.
// CHECK-LABEL: func.func @add
// CHECK-SAME: {bufferization.writable = false}
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
// CHECK-NOT: graph.
func.func @add(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Unsigned types become signless, with unsigned arithmetic.
// CHECK-LABEL: func.func @udiv
// CHECK-SAME: (%{{[^:]+}}: tensor<4xi8> {{{[^}]+}}}, %{{[^:]+}}: tensor<4xi8> {{{[^}]+}}}) -> tensor<4xi8>
// CHECK: arith.divui
func.func @udiv(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = graph.div %a, %b : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

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

// Softmax: max and sum reductions around an exp.
// CHECK-LABEL: func.func @softmax
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.softmax %x : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
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

// Scatters update a copy of the data in an scf.for over the updates.
// CHECK-LABEL: func.func @scatter
// CHECK: scf.for
// CHECK: tensor.insert
func.func @scatter(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = graph.scatter_elements %d, %i, %u : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// QuantizeLinear: round half to even, add the zero point, saturate.
// CHECK-LABEL: func.func @quantize
// CHECK: math.roundeven
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi
func.func @quantize(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xi8> {
  %0 = graph.quantize_linear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// Resize reads run-time scales and blends neighbours in linear mode.
// CHECK-LABEL: func.func @resize
// CHECK: linalg.generic
// CHECK: tensor.extract %{{.+}}[%{{.+}}] : tensor<4xf32>
// CHECK: math.floor
func.func @resize(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  %none = graph.none
  %0 = graph.resize %x, %none, %s, %none {mode = "linear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// GRU: the input projection of all steps is one matmul before the time
// loop; the loop carries the hidden state and the output sequence.
// CHECK-LABEL: func.func @gru
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<5x2x3xf32>, tensor<12x3xf32>)
// CHECK: scf.for %{{.+}} = %c0 to %c5 step %c1 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<2x4xf32>, tensor<5x2x4xf32>)
// CHECK: math.exp
// CHECK: math.tanh
// CHECK: tensor.insert_slice
// CHECK: scf.yield
func.func @gru(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>) {
  %none = graph.none
  %y, %yh = graph.gru %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %y, %yh : tensor<5x1x2x4xf32>, tensor<1x2x4xf32>
}

// -----

// If: scf.if on the condition's element; the branches move over with
// their ops lowered and graph.yield becomes scf.yield.
// CHECK-LABEL: func.func @if
// CHECK: %[[C:.+]] = tensor.extract %{{.+}}[] : tensor<i1>
// CHECK: scf.if %[[C]] -> (tensor<3xf32>)
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: } else {
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: scf.yield
func.func @if(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = graph.if %c : (tensor<i1>) -> tensor<3xf32> then {
    %a = graph.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %a : tensor<3xf32>
  } else {
    %m = graph.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %m : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// Cubic Resize: four taps per resized axis (16 for two), the tap base one
// further left on whole coordinates, edge pixels repeated.
// CHECK-LABEL: func.func @resize_cubic
// CHECK: linalg.generic
// CHECK: math.floor
// CHECK: arith.cmpf oeq
// CHECK: arith.select
// CHECK-COUNT-16: tensor.extract %{{.+}} : tensor<1x1x4x4xf32>
func.func @resize_cubic(%x: tensor<1x1x4x4xf32>, %s: tensor<4xf32>) -> tensor<1x1x8x8xf32> {
  %none = graph.none
  %0 = graph.resize %x, %none, %s, %none {mode = "cubic"} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>, none) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
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

// DFT of a real signal along axis 1: each bin sums over the signal.
// CHECK-LABEL: func.func @dft
// CHECK: linalg.generic
// CHECK: scf.for %{{.+}} = %c0 to %c8{{.*}} step %c1 iter_args({{.+}}) -> (f64, f64)
// CHECK: arith.remui
// CHECK: math.cos
// CHECK: math.sin
func.func @dft(%x: tensor<1x8x1xf32>) -> tensor<1x8x2xf32> {
  %none = graph.none
  %axis = graph.constant dense<1> : tensor<i64>
  %0 = graph.dft %x, %none, %axis : (tensor<1x8x1xf32>, none, tensor<i64>) -> tensor<1x8x2xf32>
  return %0 : tensor<1x8x2xf32>
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

// Scan: an scf.for over the scan axis carrying the state and the stacked
// output; the body moves in between a slice extraction and an insertion.
// CHECK-LABEL: func.func @scan
// CHECK: scf.for %[[I:.+]] = %c0 to %c3 step %c1 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<2xf32>, tensor<3x2xf32>)
// CHECK: tensor.extract_slice %{{.+}}[%[[I]], 0] [1, 2] [1, 1] : tensor<3x2xf32> to tensor<2xf32>
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[%[[I]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<3x2xf32>
// CHECK: scf.yield
func.func @scan(%s: tensor<2xf32>, %x: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  %r:2 = graph.scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    %1 = graph.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %1, %1 : tensor<2xf32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<3x2xf32>
}

// -----

// Loop without scan outputs: an scf.while on (step < trip count) and the
// condition, carrying the step, the condition and the values.
// CHECK-LABEL: func.func @loop_while
// CHECK: scf.while (%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) : (i64, i1, tensor<2xf32>) -> (i64, i1, tensor<2xf32>)
// CHECK: arith.cmpi slt
// CHECK: scf.condition
// CHECK: } do {
// CHECK: tensor.from_elements
// CHECK: arith.mulf
// CHECK: scf.yield
func.func @loop_while(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>) -> tensor<2xf32> {
  %r = graph.loop %m, %c, %v : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>):
    %y = graph.mul %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    graph.yield %cond, %y : tensor<i1>, tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// A Loop whose scan output length is not a compile-time trip count: an
// scf.while that also stops at the declared length (4), then a run-time
// check that it would have stopped there anyway.
// CHECK-LABEL: func.func @loop_runtime_count
// CHECK: scf.while
// CHECK: arith.cmpi slt, %{{.+}}, %c4_i64
// CHECK: scf.condition
// CHECK: tensor.insert_slice
// CHECK: cf.assert %{{.+}}, "'graph.loop': the loop runs a number of iterations other than the length the model declares for its scan outputs (4)"
func.func @loop_runtime_count(%m: tensor<i64>, %v: tensor<2xf32>) -> tensor<4x2xf32> {
  %none = graph.none
  %r:2 = graph.loop %m, %none, %v : (tensor<i64>, none, tensor<2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>) {
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %x: tensor<2xf32>):
    graph.yield %cond, %x, %x : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  return %r#1 : tensor<4x2xf32>
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

// Gather with run-time indices: a check that every index is in [-n, n-1]
// (an AND-reduction over the indices), and a clamped read either way.
// CHECK-LABEL: func.func @gather_checked
// CHECK-DAG: arith.cmpi sge
// CHECK-DAG: arith.cmpi slt
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
// CHECK: arith.andi
// CHECK: cf.assert %{{.+}}, "node 'gather1' (Gather): an index is out of range (ONNX allows -n to n-1 for an axis of size n)"
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @gather_checked(%x: tensor<5x3xf32>, %i: tensor<4xi64>) -> tensor<4x3xf32> {
  %0 = graph.gather %x, %i {axis = 0 : i64} : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4x3xf32> loc(#gather1)
  return %0 : tensor<4x3xf32>
}
#gather1 = loc("gather1"("Gather"))

// -----

// NonZero: a sequential walk recording coordinates up to the declared
// length, and a check that the data gives exactly that many.
// CHECK-LABEL: func.func @nonzero
// CHECK: scf.for {{.+}} -> (tensor<2x3xi64>, index)
// CHECK: arith.cmpf une
// CHECK: scf.if
// CHECK: tensor.insert
// CHECK: cf.assert %{{.+}}, "'graph.non_zero': the number of non-zero elements differs from the length the model declares for the output (3)"
func.func @nonzero(%x: tensor<2x2xf32>) -> tensor<2x3xi64> {
  %0 = graph.non_zero %x : (tensor<2x2xf32>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// NonMaxSuppression: per (batch, class), repeated best-candidate searches,
// an IoU test against the kept boxes, and the declared row count checked.
// CHECK-LABEL: func.func @nms
// CHECK: scf.for
// CHECK: arith.cmpf ogt
// CHECK: arith.divf
// CHECK: scf.if
// CHECK: cf.assert %{{.+}}, "'graph.non_max_suppression': the number of selected boxes differs from the length the model declares for the output (2)"
func.func @nms(%b: tensor<1x4x4xf32>, %s: tensor<1x1x4xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) -> tensor<2x3xi64> {
  %none = graph.none
  %0 = graph.non_max_suppression %b, %s, %m, %t, %none : (tensor<1x4x4xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1xf32>, none) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// TfIdfVectorizer: one output element per position; the element of each
// pool n-gram scans the row for it (here the bigram (3, 4) for element 0,
// (4, 5) for element 1), comparing each token.
// CHECK-LABEL: func.func @tfidf
// CHECK: linalg.generic
// CHECK: %[[MINE:.+]] = arith.cmpi eq, %{{.+}}, %c0
// CHECK: scf.if %[[MINE]] -> (index)
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %c5
// CHECK: arith.cmpi eq, %{{.+}}, %c3_i64
// CHECK: arith.cmpi eq, %{{.+}}, %c4_i64
// CHECK: arith.cmpi eq, %{{.+}}, %c1
// CHECK: scf.if
// CHECK: arith.cmpi eq, %{{.+}}, %c5_i64
// CHECK: arith.sitofp
func.func @tfidf(%x: tensor<6xi64>) -> tensor<2xf32> {
  %0 = graph.tf_idf_vectorizer %x {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0, 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 3, 4, 4, 5>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Unique with a data-dependent length: the number K of new elements
// (those that are their own first occurrence) sizes the results.
// CHECK-LABEL: func.func @unique
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: arith.maxui %[[K:.+]], %c1
// CHECK: linalg.generic
// CHECK: tensor.empty(%[[K]]) : tensor<?xf32>
// CHECK: tensor.empty(%[[K]]) : tensor<?xi64>
func.func @unique(%x: tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
  %none = graph.none
  %y, %i, %inv, %c = graph.unique %x : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, none, none)
  return %y, %i : tensor<?xf32>, tensor<?xi64>
}

// -----

// STFT with run-time frame step and length: the declared frames and bins
// are checked against them, and each bin sums the frame by its definition.
// CHECK-LABEL: func.func @stft
// CHECK: cf.assert %{{.+}}, "'graph.stft': frame_step and frame_length give another number of frames or bins
// CHECK: linalg.generic
// CHECK: scf.for
// CHECK: math.cos
// CHECK: math.sin
func.func @stft(%x: tensor<1x64x1xf32>, %step: tensor<i64>, %length: tensor<i64>) -> tensor<1x7x9x2xf32> {
  %none = graph.none
  %0 = graph.stft %x, %step, %none, %length : (tensor<1x64x1xf32>, tensor<i64>, none, tensor<i64>) -> tensor<1x7x9x2xf32>
  return %0 : tensor<1x7x9x2xf32>
}
