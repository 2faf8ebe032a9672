// RUN: infer-opt %s --split-input-file --verify-diagnostics --infer-lower-graph-to-linalg | FileCheck %s

// infer-lower-graph-to-linalg on tensor ops (TensorOps.td): data movement, gathers and scatters,
// generators, resize, signal processing, data-dependent outputs; static and dynamic shapes
// (passes/lowering/tensor/).

// Scatters update a copy of the data in an scf.for over the updates.
// CHECK-LABEL: func.func @scatter
// CHECK: scf.for
// CHECK: tensor.insert
func.func @scatter(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = graph.scatter_elements %d, %i, %u : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Resize reads run-time scales (once, before the loops) and blends
// neighbours in linear mode.
// CHECK-LABEL: func.func @resize
// CHECK: tensor.extract %{{.+}}[%{{.+}}] : tensor<4xf32>
// CHECK: linalg.generic
// CHECK: math.floor
func.func @resize(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<1x1x4x4xf32> {
  %none = graph.none
  %0 = graph.resize %x, %none, %s, %none {mode = "linear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
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

// Nearest Resize by whole factors (2 along H, 3 along W) whose mapping
// sends output index x to x div factor (asymmetric + floor here; the
// defaults half_pixel + round_prefer_floor too): a broadcast copy into the
// output seen as [.., H, 2, W, 3], no coordinate arithmetic, no gather.
// CHECK-LABEL: func.func @resize_nearest_whole_factors
// CHECK-NOT: tensor.extract
// CHECK-NOT: math.floor
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x2x2x2x2x3xf32>
// CHECK: %[[C:.+]] = linalg.generic {indexing_maps = [#[[IN:.+]], #[[OUT:.+]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%{{.+}} : tensor<1x2x2x2xf32>) outs(%[[E]] : tensor<1x2x2x2x2x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: tensor.collapse_shape %[[C]] {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x2x2x2x2x3xf32> into tensor<1x2x4x6xf32>
// CHECK-LABEL: func.func @resize_nearest_defaults
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x2x2x2x2x2xf32> into tensor<1x2x4x4xf32>
func.func @resize_nearest_whole_factors(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x4x6xf32> {
  %none = graph.none
  %s = graph.constant dense<[1.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %0 = graph.resize %x, %none, %s, %none {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}
func.func @resize_nearest_defaults(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x4x4xf32> {
  %none = graph.none
  %s = graph.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %0 = graph.resize %x, %none, %s, %none {mode = "nearest"} : (tensor<1x2x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Not a broadcast copy: asymmetric + round_prefer_ceil reads index 1 for
// output 1 at factor 2 (0.5 rounds up), and a factor of 1.5 is not whole:
// both take the general form.
// CHECK-LABEL: func.func @resize_nearest_general
// CHECK: math.floor
// CHECK: tensor.extract %{{.+}} : tensor<1x1x2x2xf32>
// CHECK-NOT: tensor.collapse_shape
// CHECK: math.floor
// CHECK: tensor.extract %{{.+}} : tensor<1x1x2x2xf32>
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @resize_nearest_general(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) {
  %none = graph.none
  %s = graph.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %0 = graph.resize %x, %none, %s, %none {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "round_prefer_ceil"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x4x4xf32>
  %t = graph.constant dense<[1.0, 1.0, 1.5, 1.5]> : tensor<4xf32>
  %1 = graph.resize %x, %none, %t, %none {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<1x1x3x3xf32>
  return %0, %1 : tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>
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

// -----

// Flatten over dynamic dims: each of the two sizes is the product of its
// dims, computed at run time where one is dynamic (both here, as in an
// attention's Softmax-11 over [batch, heads, length, length]).
// CHECK-LABEL: func.func @flatten
// CHECK: %[[N:.+]] = tensor.dim %arg0, %c0
// CHECK: tensor.from_elements
// CHECK: tensor.reshape %{{.+}}(%{{.+}}) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x12xf32>
func.func @flatten(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  %0 = graph.flatten %x : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  return %0 : tensor<?x12xf32>
}

// -----

// CHECK-LABEL: func.func @flatten_two_dynamic
// CHECK: %[[N:.+]] = tensor.dim %arg0, %c0
// CHECK: arith.muli %[[N]], %c8
// CHECK: %[[L:.+]] = tensor.dim %arg0, %c2
// CHECK: %[[R:.+]] = arith.muli %{{.+}}, %[[L]]
// CHECK: %[[W:.+]] = tensor.dim %arg0, %c3
// CHECK: %[[R64:.+]] = arith.index_cast %[[R]] : index to i64
// CHECK: %[[W64:.+]] = arith.index_cast %[[W]] : index to i64
// CHECK: tensor.from_elements %[[R64]], %[[W64]]
// CHECK: tensor.reshape %{{.+}}(%{{.+}}) : (tensor<?x8x?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
func.func @flatten_two_dynamic(%x: tensor<?x8x?x?xf32>) -> tensor<?x?xf32> {
  %0 = graph.flatten %x {axis = 3 : i64} : (tensor<?x8x?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Transpose: result dim i is input dim perm[i].
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x?xf32>
// CHECK-DAG: %[[D0:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[D2:.+]] = tensor.dim %[[X]], %c2
// CHECK: tensor.empty(%[[D2]], %[[D0]]) : tensor<?x3x?xf32>
// CHECK: linalg.transpose
func.func @transpose(%x: tensor<?x3x?xf32>) -> tensor<?x3x?xf32> {
  %0 = graph.transpose %x {perm = array<i64: 2, 1, 0>} : (tensor<?x3x?xf32>) -> tensor<?x3x?xf32>
  return %0 : tensor<?x3x?xf32>
}

// -----

// Concat: the axis size is the sum of the inputs' at run time; a second
// input's dynamic dim off the axis is checked against the first's.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: tensor<?x2xf32>{{.*}}, %[[B:.+]]: tensor<?x3xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[A]], %c0
// CHECK: tensor.empty(%[[N]]) : tensor<?x5xf32>
// CHECK: tensor.insert_slice %[[A]] into %{{.+}}[0, 0] [%{{.+}}, 2] [1, 1]
// CHECK: %[[M:.+]] = tensor.dim %[[B]], %c0
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[M]], %[[N]]
// CHECK: cf.assert %[[SAME]], "node 'cat' (Concat): dimension 0 of input 1 differs
// CHECK: tensor.insert_slice %[[B]] into %{{.+}}[0, 2] [%[[M]], 3] [1, 1]
func.func @concat(%a: tensor<?x2xf32>, %b: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32> loc(#cat)
  return %0 : tensor<?x5xf32>
}
#cat = loc("cat"("Concat"))

// -----

// Gather with dynamic indices (an embedding lookup): the result takes the
// indices' dims.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[T:.+]]: tensor<10x4xf32>{{.*}}, %[[I:.+]]: tensor<?x?xi64>
// CHECK: cf.assert %{{.+}}, "'graph.gather': an index is out of range
// CHECK: %[[B:.+]] = tensor.dim %[[I]], %c0
// CHECK: %[[S:.+]] = tensor.dim %[[I]], %c1
// CHECK: tensor.empty(%[[B]], %[[S]]) : tensor<?x?x4xf32>
func.func @embedding(%t: tensor<10x4xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x4xf32> {
  %0 = graph.gather %t, %i : (tensor<10x4xf32>, tensor<?x?xi64>) -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

// Slice of static data with bounds known only at run time: the result's
// length is max(0, ceil((end - start) / step)) after ONNX's clamping.
// CHECK-LABEL: func.func @slice_runtime_bounds
// CHECK: arith.ceildivsi
// CHECK: arith.maxsi
// CHECK: %[[N:.+]] = arith.select
// CHECK: tensor.empty(%[[N]]) : tensor<?xf32>
func.func @slice_runtime_bounds(%x: tensor<5xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<?xf32> {
  %none = graph.none
  %0 = graph.slice %x, %s, %e, %none, %none : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Slice of dynamic data along a dynamic dim with run-time bounds (GPT-2's
// causal mask, cut to the sequence length): the clamping bound and the
// result's length come from the data's run-time size.
// CHECK-LABEL: func.func @slice_dynamic_runtime_bounds
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x?xf32>
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %c1
// CHECK: arith.addi %[[D]], %c-1
// CHECK: arith.ceildivsi
// CHECK: tensor.empty(%{{.+}}) : tensor<2x?xf32>
// CHECK: linalg.generic
// CHECK: tensor.extract %[[X]]
func.func @slice_dynamic_runtime_bounds(%x: tensor<2x?xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<2x?xf32> {
  %none = graph.none
  %axes = graph.constant dense<1> : tensor<1xi64>
  %0 = graph.slice %x, %s, %e, %axes, %none : (tensor<2x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// Expand to a shape read at run time: each dim is the target's entry where
// the input's is 1, else the input's, checked to broadcast.
// CHECK-LABEL: func.func @expand_runtime
// CHECK: %[[T0:.+]] = tensor.extract %{{.+}}[%c0]
// CHECK: %[[N:.+]] = tensor.dim
// CHECK: cf.assert {{.+}}, "node 'expand' (Expand): the target shape does not broadcast with the input"
// CHECK: tensor.empty({{.+}}) : tensor<?x2x?x4xf32>
// CHECK: linalg.generic
// CHECK: tensor.extract
func.func @expand_runtime(%x: tensor<?x1x1x4xf32>, %s: tensor<4xi64>) -> tensor<?x2x?x4xf32> {
  %0 = graph.expand %x, %s : (tensor<?x1x1x4xf32>, tensor<4xi64>) -> tensor<?x2x?x4xf32> loc(#expand)
  return %0 : tensor<?x2x?x4xf32>
}
#expand = loc("expand"("Expand"))

// -----

// Reshape to a run-time shape with two unknown entries: 0 copies the input
// dim, -1 takes the rest; the element count is checked.
// CHECK-LABEL: func.func @reshape_runtime
// CHECK: arith.divui
// CHECK: cf.assert {{.+}}, "node 'reshape' (Reshape): the target shape does not hold the input's element count"
// CHECK: tensor.from_elements
// CHECK: tensor.reshape {{.+}} -> tensor<?x?x2x4xf32>
func.func @reshape_runtime(%x: tensor<?x?x8xf32>, %s: tensor<4xi64>) -> tensor<?x?x2x4xf32> {
  %0 = graph.reshape %x, %s : (tensor<?x?x8xf32>, tensor<4xi64>) -> tensor<?x?x2x4xf32> loc(#reshape)
  return %0 : tensor<?x?x2x4xf32>
}
#reshape = loc("reshape"("Reshape"))

// -----

// Unsqueeze with two dynamic dims: each comes from the input's dim.
// CHECK-LABEL: func.func @unsqueeze_two_dynamic
// CHECK: %[[B:.+]] = tensor.dim %{{.+}}, %c0
// CHECK: %[[S:.+]] = tensor.dim %{{.+}}, %c1
// CHECK: tensor.from_elements
// CHECK: tensor.reshape {{.+}} -> tensor<?x1x1x?xf32>
func.func @unsqueeze_two_dynamic(%x: tensor<?x?xf32>) -> tensor<?x1x1x?xf32> {
  %axes = graph.constant dense<[1, 2]> : tensor<2xi64>
  %0 = graph.unsqueeze %x, %axes : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x1x1x?xf32>
  return %0 : tensor<?x1x1x?xf32>
}

// -----

// A Resize whose sizes are Concat(Shape(x)[0:2], [4, 4]) with a dynamic
// batch: the batch entry is x's own, so the batch passes through unscaled.
// CHECK-LABEL: func.func @resize_sizes_own_batch
// CHECK: tensor.dim %{{.+}}, %c0 : tensor<?x1x2x2xf32>
// CHECK-NOT: graph.resize
func.func @resize_sizes_own_batch(%x: tensor<?x1x2x2xf32>) -> tensor<?x1x4x4xf32> {
  %s = graph.shape %x : (tensor<?x1x2x2xf32>) -> tensor<4xi64>
  %zero = graph.constant dense<0> : tensor<1xi64>
  %two = graph.constant dense<2> : tensor<1xi64>
  %none = graph.none
  %nc = graph.slice %s, %zero, %two, %zero, %none : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<2xi64>
  %hw = graph.constant dense<4> : tensor<2xi64>
  %sizes = graph.concat %nc, %hw {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %y = graph.resize %x, %none, %none, %sizes {mode = "linear"} : (tensor<?x1x2x2xf32>, none, none, tensor<4xi64>) -> tensor<?x1x4x4xf32>
  return %y : tensor<?x1x4x4xf32>
}

// -----

// Sizes whose batch entry is another tensor's dynamic dim: the Resize may
// resize the batch; the output's batch is that entry, read at run time,
// and the batch axis is interpolated like the others.
// CHECK-LABEL: func.func @resize_sizes_other_batch
// CHECK: %[[N:.+]] = tensor.extract %{{.+}}[%c0{{.*}}] : tensor<4xi64>
// CHECK: %[[I:.+]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[S:.+]] = arith.maxsi %[[I]], %c0
// CHECK: tensor.empty(%[[S]]) : tensor<?x1x4x4xf32>
// CHECK: linalg.generic
func.func @resize_sizes_other_batch(%x: tensor<?x1x2x2xf32>, %z: tensor<?x3xf32>) -> tensor<?x1x4x4xf32> {
  %s = graph.shape %z : (tensor<?x3xf32>) -> tensor<2xi64>
  %zero = graph.constant dense<0> : tensor<1xi64>
  %one = graph.constant dense<1> : tensor<1xi64>
  %none = graph.none
  %n = graph.slice %s, %zero, %one, %zero, %none : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<1xi64>
  %rest = graph.constant dense<[1, 4, 4]> : tensor<3xi64>
  %sizes = graph.concat %n, %rest {axis = 0 : i64} : (tensor<1xi64>, tensor<3xi64>) -> tensor<4xi64>
  %y = graph.resize %x, %none, %none, %sizes {mode = "linear"} : (tensor<?x1x2x2xf32>, none, none, tensor<4xi64>) -> tensor<?x1x4x4xf32>
  return %y : tensor<?x1x4x4xf32>
}

// -----

// Gather along a dynamic axis (BERT's pooler takes token 0 of a sequence of
// any length): the bound of the range check and of the index wrap is the
// axis' run-time size, and an empty axis reads nothing.
// CHECK-LABEL: func.func @gather_dynamic_axis
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x8xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %c1
// CHECK: cf.assert %{{.+}}, "'graph.gather': an index is out of range
// CHECK: linalg.generic
// CHECK: arith.cmpi eq, %[[N]], %c0
// CHECK: scf.if
// CHECK: tensor.extract %[[X]]
func.func @gather_dynamic_axis(%x: tensor<?x?x8xf32>, %i: tensor<i64>) -> tensor<?x8xf32> {
  %0 = graph.gather %x, %i {axis = 1 : i64} : (tensor<?x?x8xf32>, tensor<i64>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// GatherElements over run-time sizes (DeBERTa's relative positions in the
// generic variant): the result takes the indices' shape, each of their
// dims must fit in data's (asserted), coordinates are clamped and an empty
// data tensor reads nothing.
// CHECK-LABEL: func.func @gather_elements_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x6xf32>{{.*}}, %[[I:.+]]: tensor<?x?x3xi64>
// CHECK: %[[D1:.+]] = tensor.dim %[[X]], %c1
// CHECK: %[[I1:.+]] = tensor.dim %[[I]], %c1
// CHECK: arith.cmpi ule, %[[I1]], %[[D1]]
// CHECK: cf.assert %{{.+}}, "'graph.gather_elements': dimension 1 of the indices exceeds the data's
// CHECK: cf.assert %{{.+}}, "'graph.gather_elements': an index is out of range
// CHECK: tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x3xf32>
// CHECK: linalg.generic
// CHECK: arith.minsi
// CHECK: scf.if
// CHECK: tensor.extract %[[X]]
func.func @gather_elements_dynamic(%x: tensor<?x?x6xf32>, %i: tensor<?x?x3xi64>) -> tensor<?x?x3xf32> {
  %0 = graph.gather_elements %x, %i {axis = 2 : i64} : (tensor<?x?x6xf32>, tensor<?x?x3xi64>) -> tensor<?x?x3xf32>
  return %0 : tensor<?x?x3xf32>
}

// -----

// Split with dynamic dims other than the split axis (GPT-2's fused QKV
// projection over a dynamic batch and sequence): each part takes those
// sizes from the input.
// CHECK-LABEL: func.func @split_dynamic_rows
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x192xf32>
// CHECK-DAG: %[[B:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[S:.+]] = tensor.dim %[[X]], %c1
// CHECK: tensor.extract_slice %[[X]][0, 0, 0] [%[[B]], %[[S]], 64] [1, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 64] [%[[B]], %[[S]], 64] [1, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 128] [%[[B]], %[[S]], 64] [1, 1, 1]
func.func @split_dynamic_rows(%x: tensor<?x?x192xf32>) -> (tensor<?x?x64xf32>, tensor<?x?x64xf32>, tensor<?x?x64xf32>) {
  %none = graph.none
  %0:3 = graph.split %x, %none {axis = 2 : i64, num_outputs = 3 : i64} : (tensor<?x?x192xf32>, none) -> (tensor<?x?x64xf32>, tensor<?x?x64xf32>, tensor<?x?x64xf32>)
  return %0#0, %0#1, %0#2 : tensor<?x?x64xf32>, tensor<?x?x64xf32>, tensor<?x?x64xf32>
}

// -----

// Pad of a dynamic time axis with constant pads (a causal TCN's left
// padding over a sequence of any length): the result's length is the
// input's plus the pads, and unpadded dims are read in place.
// CHECK-LABEL: func.func @pad_dynamic_time
// CHECK-SAME: (%[[X:[^:]+]]: tensor<?x8x?xf32>
// CHECK-DAG: %[[B:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[T:.+]] = tensor.dim %[[X]], %c2
// CHECK: %[[N:.+]] = arith.addi %[[T]], %c4
// CHECK: tensor.empty(%[[B]], %[[N]]) : tensor<?x8x?xf32>
// CHECK: linalg.generic
// CHECK: arith.subi %{{.+}}, %c4
// CHECK: tensor.extract %[[X]]
// CHECK: arith.select
func.func @pad_dynamic_time(%x: tensor<?x8x?xf32>) -> tensor<?x8x?xf32> {
  %pads = graph.constant dense<[0, 0, 4, 0, 0, 0]> : tensor<6xi64>
  %none = graph.none
  %0 = graph.pad %x, %pads, %none, %none : (tensor<?x8x?xf32>, tensor<6xi64>, none, none) -> tensor<?x8x?xf32>
  return %0 : tensor<?x8x?xf32>
}

// -----

// Edge padding of a dynamic dim reads its last element, so an empty dim is
// refused at run time instead of read out of bounds.
// CHECK-LABEL: func.func @pad_edge_dynamic
// CHECK: %[[D:.+]] = tensor.dim %{{.+}}, %c1
// CHECK: %[[NE:.+]] = arith.cmpi sgt, %[[D]], %c0
// CHECK: cf.assert %[[NE]], "node 'pad' (Pad): dimension 1 is empty: mode 'edge' has no element to pad with"
func.func @pad_edge_dynamic(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %pads = graph.constant dense<[0, 1, 0, 1]> : tensor<4xi64>
  %none = graph.none
  %0 = graph.pad %x, %pads, %none, %none {mode = "edge"} : (tensor<2x?xf32>, tensor<4xi64>, none, none) -> tensor<2x?xf32> loc(#pad)
  return %0 : tensor<2x?xf32>
}
#pad = loc("pad"("Pad"))

// -----

// DepthToSpace over a dynamic batch and spatial dims (ESPCN's pixel
// shuffle on images of any size): the spatial sizes scale by the block.
// CHECK-LABEL: func.func @depth_to_space_dynamic
// CHECK-SAME: (%[[X:[^:]+]]: tensor<?x9x?x?xf32>
// CHECK-DAG: %[[B:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[H:.+]] = tensor.dim %[[X]], %c2
// CHECK-DAG: %[[W:.+]] = tensor.dim %[[X]], %c3
// CHECK-DAG: %[[H3:.+]] = arith.muli %[[H]], %c3
// CHECK-DAG: %[[W3:.+]] = arith.muli %[[W]], %c3
// CHECK: tensor.empty(%[[B]], %[[H3]], %[[W3]]) : tensor<?x1x?x?xf32>
func.func @depth_to_space_dynamic(%x: tensor<?x9x?x?xf32>) -> tensor<?x1x?x?xf32> {
  %0 = graph.depth_to_space %x {blocksize = 3 : i64, mode = "CRD"} : (tensor<?x9x?x?xf32>) -> tensor<?x1x?x?xf32>
  return %0 : tensor<?x1x?x?xf32>
}

// -----

// Concat along a dynamic axis (the per-level outputs of a detection head
// over a dynamic image): the result's length and each input's offset are
// sums of run-time sizes, in arith.
// CHECK-LABEL: func.func @concat_dynamic_axis
// CHECK-DAG: %[[B:.+]] = tensor.dim %arg1, %c1{{.*}} : tensor<?x?x10xf32>
// CHECK-DAG: %[[T:.+]] = arith.addi %{{.+}}, %[[B]] : index
// CHECK: tensor.empty(%{{.+}}, %[[T]]) : tensor<?x?x10xf32>
// CHECK: tensor.insert_slice %arg0 into %{{.+}}[0, 0, 0]
// CHECK: tensor.insert_slice %arg1 into %{{.+}}[0, 256, 0]
// CHECK-NOT: affine.apply
func.func @concat_dynamic_axis(%a: tensor<?x256x10xf32>, %b: tensor<?x?x10xf32>) -> tensor<?x?x10xf32> {
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<?x256x10xf32>, tensor<?x?x10xf32>) -> tensor<?x?x10xf32>
  return %0 : tensor<?x?x10xf32>
}

// -----

// CumSum over run-time sizes (RoBERTa's position ids from the attention
// mask): the scan runs to the largest dim, read at run time.
// CHECK-LABEL: func.func @cumsum_dynamic
// CHECK: %[[B:.+]] = tensor.dim %arg0, %c0
// CHECK: %[[S:.+]] = tensor.dim %arg0, %c1
// CHECK: %[[M:.+]] = arith.maxui %{{.+}}, %[[B]]
// CHECK: %[[N:.+]] = arith.maxui %[[M]], %[[S]]
// CHECK: tensor.empty(%[[B]], %[[S]]) : tensor<?x?xi64>
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[N]]
func.func @cumsum_dynamic(%x: tensor<?x?xi64>, %a: tensor<i64>) -> tensor<?x?xi64> {
  %0 = graph.cum_sum %x, %a : (tensor<?x?xi64>, tensor<i64>) -> tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}

// -----

// Split along an axis whose length only the run knows (a reshape's -1 over
// dynamic dims, as in LeViT's attention) into parts of static lengths:
// the length is checked to be their sum, then sliced.
// CHECK-LABEL: func.func @split_dynamic_axis
// CHECK: %[[L:.+]] = tensor.dim %arg0, %c1
// CHECK: %[[SAME:.+]] = arith.cmpi eq, %[[L]], %c64
// CHECK: cf.assert %[[SAME]], "'graph.split': the input's length along the axis is not the sum of the parts' (64)
// CHECK: tensor.extract_slice %arg0[0, 0] [%{{.+}}, 16]
// CHECK: tensor.extract_slice %arg0[0, 16] [%{{.+}}, 48]
func.func @split_dynamic_axis(%x: tensor<?x?xf32>, %s: tensor<2xi64>) -> (tensor<?x16xf32>, tensor<?x48xf32>) {
  %0:2 = graph.split %x, %s {axis = 1 : i64} : (tensor<?x?xf32>, tensor<2xi64>) -> (tensor<?x16xf32>, tensor<?x48xf32>)
  return %0#0, %0#1 : tensor<?x16xf32>, tensor<?x48xf32>
}

// -----

// Gather indices cast from u8 into a 256-entry axis, or from i8 into one of
// 128 or more (counting from the end), are in range by their type: no
// run-time check. From u8 into 200 entries they are checked.
// CHECK-LABEL: func.func @gather_narrow_indices
// CHECK-NOT: cf.assert
// CHECK: tensor.extract
// CHECK-NOT: cf.assert
// CHECK: tensor.extract
// CHECK: cf.assert %{{.+}}, "'graph.gather': an index is out of range
func.func @gather_narrow_indices(%u: tensor<6xui8>, %s: tensor<6xi8>) -> (tensor<6xi8>, tensor<6xi8>, tensor<6xi8>) {
  %t = graph.constant dense<7> : tensor<256xi8>
  %iu = graph.cast %u {to = i32} : (tensor<6xui8>) -> tensor<6xi32>
  %a = graph.gather %t, %iu : (tensor<256xi8>, tensor<6xi32>) -> tensor<6xi8>
  %is = graph.cast %s {to = i32} : (tensor<6xi8>) -> tensor<6xi32>
  %b = graph.gather %t, %is : (tensor<256xi8>, tensor<6xi32>) -> tensor<6xi8>
  %small = graph.constant dense<7> : tensor<200xi8>
  %c = graph.gather %small, %iu : (tensor<200xi8>, tensor<6xi32>) -> tensor<6xi8>
  return %a, %b, %c : tensor<6xi8>, tensor<6xi8>, tensor<6xi8>
}
