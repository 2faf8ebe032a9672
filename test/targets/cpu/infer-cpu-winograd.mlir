// RUN: infer-opt %s --split-input-file --infer-cpu-winograd=min-channels=1 | FileCheck %s
// RUN: infer-opt %s --split-input-file --infer-cpu-winograd | FileCheck %s --check-prefix=DEFAULT
// RUN: infer-opt %s --split-input-file --infer-cpu-winograd="min-channels=1 max-term-bytes=256" | FileCheck %s --check-prefix=BANDS

#copy_in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3 + d5, d4 + d6)>
#copy_out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5, d6)>
#a = affine_map<(n, g, f, k, p) -> (g, f, k)>
#b = affine_map<(n, g, f, k, p) -> (n, g, k, p)>
#c = affine_map<(n, g, f, k, p) -> (n, g, f, p)>

// A 3x3 stride-1 convolution as the lowering gives it (im2col copy of the
// padded input, reshape, matmul over constant filters), one channel, one
// filter, a 4x4 output (2x2 tiles): the input transform over (term, n, c,
// tile row, tile column) reads the 16 taps x[2 ty + i, 2 tx + j]; the
// filters' 16 terms G g G^T of g = 1..9 are one [16, 1, 1] constant; one
// batch of 16 matmuls; the output transform writes [n, f, ty, 2, tx, 2],
// the output plane row-major. The copy is gone. The first and last taps
// of a tile: (ty, tx) -> (2 ty, 2 tx) and (2 ty + 3, 2 tx + 3).
// CHECK-DAG: #[[T00:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2, d4 * 2)>
// CHECK-DAG: #[[T33:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3 * 2 + 3, d4 * 2 + 3)>
// CHECK-LABEL: func.func @one_channel
// CHECK: %[[X:.+]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3], [4]] : tensor<1x1x1x6x6xf32> into tensor<1x1x6x6xf32>
// CHECK: %[[U:.+]] = arith.constant dense<[{{\[}}[1.000000e+00]], {{\[}}[3.000000e+00]], {{\[}}[1.000000e+00]], {{\[}}[3.000000e+00]], {{\[}}[6.000000e+00]], {{\[}}[1.125000e+01]], {{\[}}[3.750000e+00]], {{\[}}[9.000000e+00]], {{\[}}[2.000000e+00]], {{\[}}[3.750000e+00]], {{\[}}[1.250000e+00]], {{\[}}[3.000000e+00]], {{\[}}[7.000000e+00]], {{\[}}[1.200000e+01]], {{\[}}[4.000000e+00]], {{\[}}[9.000000e+00]]]> : tensor<16x1x1xf32>
// CHECK: %[[V:.+]] = linalg.generic {indexing_maps = [#[[T00]], #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #[[T33]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: outs(%{{.+}} : tensor<16x1x1x2x2xf32>) attrs = {infer.winograd = "input"}
// CHECK: %[[VT:.+]] = tensor.collapse_shape %[[V]] {{\[}}[0], [1], [2], [3, 4]] : tensor<16x1x1x2x2xf32> into tensor<16x1x1x4xf32>
// CHECK: %[[M:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%[[U]], %[[VT]] : tensor<16x1x1xf32>, tensor<16x1x1x4xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[Y:.+]] = linalg.generic {{.+}} ins(%[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]], %[[M]] : {{.+}}) outs(%{{.+}} : tensor<1x1x2x2x2x2xf32>) attrs = {infer.epilogue_host, infer.winograd = "output"}
// CHECK: linalg.index 3
// CHECK: linalg.index 5
// CHECK: %[[P:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1], [2, 3, 4, 5]] : tensor<1x1x2x2x2x2xf32> into tensor<1x1x16xf32>
// CHECK: %[[R:.+]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2], [3]] output_shape [1, 1, 1, 16]
// CHECK: return %[[R]]
// CHECK-NOT: tensor<1x1x1x3x3x4x4xf32>
// DEFAULT-LABEL: func.func @one_channel
// With terms over max-term-bytes (512 bytes here), bands of tile rows
// (two of one row each): each transforms its rows of the padded input
// (4 of 6, 2 apart), multiplies, and inserts its output rows into the
// plane [n, f, ty, 2, tx, 2] (infer-cpu-elide-interior-copies has the
// output transform write them there).
// BANDS-LABEL: func.func @one_channel
// BANDS: %[[X:.+]] = tensor.collapse_shape %arg0
// BANDS: %[[PLANE:.+]] = tensor.empty() : tensor<1x1x2x2x2x2xf32>
// BANDS: %[[X0:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 1, 4, 6] [1, 1, 1, 1]
// BANDS: linalg.generic {{.+}} ins(%[[X0]], {{.+}}) outs(%{{.+}} : tensor<16x1x1x1x2xf32>) attrs = {infer.winograd = "input"}
// BANDS: %[[O0:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<1x1x1x2x2x2xf32>) attrs = {infer.winograd = "output"}
// BANDS: %[[P0:.+]] = tensor.insert_slice %[[O0]] into %[[PLANE]][0, 0, 0, 0, 0, 0] [1, 1, 1, 2, 2, 2] [1, 1, 1, 1, 1, 1]
// BANDS: %[[X1:.+]] = tensor.extract_slice %[[X]][0, 0, 2, 0] [1, 1, 4, 6] [1, 1, 1, 1]
// BANDS: linalg.generic {{.+}} ins(%[[X1]], {{.+}}) outs(%{{.+}} : tensor<16x1x1x1x2xf32>) attrs = {infer.winograd = "input"}
// BANDS: %[[O1:.+]] = linalg.generic {{.+}} attrs = {infer.winograd = "output"}
// BANDS: %[[P1:.+]] = tensor.insert_slice %[[O1]] into %[[P0]][0, 0, 1, 0, 0, 0] [1, 1, 1, 2, 2, 2] [1, 1, 1, 1, 1, 1]
// BANDS: tensor.collapse_shape %[[P1]] {{\[}}[0], [1], [2, 3, 4, 5]]
// BANDS-NOT: infer.epilogue_host
// BANDS: return
// DEFAULT-NOT: infer.winograd
func.func @one_channel(%x: tensor<1x1x1x6x6xf32>) -> tensor<1x1x1x16xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x3x3x4x4xf32>
  %col = linalg.generic {indexing_maps = [#copy_in, #copy_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1x1x6x6xf32>) outs(%e : tensor<1x1x1x3x3x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x1x3x3x4x4xf32>
  %b = tensor.collapse_shape %col [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x1x3x3x4x4xf32> into tensor<1x1x9x16xf32>
  %wf = tensor.collapse_shape %w [[0, 1], [2, 3]] : tensor<1x1x3x3xf32> into tensor<1x9xf32>
  %a = tensor.expand_shape %wf [[0, 1], [2]] output_shape [1, 1, 9] : tensor<1x9xf32> into tensor<1x1x9xf32>
  %o = tensor.empty() : tensor<1x1x1x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %y = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : tensor<1x1x9xf32>, tensor<1x1x9x16xf32>) outs(%init : tensor<1x1x1x16xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x16xf32>
  return %y : tensor<1x1x1x16xf32>
}

// -----

#copy_in = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3 + d5, d4 + d6)>
#copy_out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5, d6)>
#a = affine_map<(n, g, f, k, p) -> (g, f, k)>
#b = affine_map<(n, g, f, k, p) -> (n, g, k, p)>
#c = affine_map<(n, g, f, k, p) -> (n, g, f, p)>

// An odd output plane (3x3): the padded input gets a zero row and column
// more (2x2 tiles), and the 4x4 plane the transforms give is cropped to
// 3x3. Left alone: filters that are an argument.
// CHECK-LABEL: func.func @odd_plane
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0, 0] high[0, 0, 0, 1, 1]
// CHECK: tensor<1x1x1x6x6xf32>
// CHECK: infer.winograd = "input"
// CHECK: infer.winograd = "output"
// CHECK: %[[Y:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x1x2x2x2x2xf32> into tensor<1x1x4x4xf32>
// CHECK: tensor.extract_slice %[[Y]][0, 0, 0, 0] [1, 1, 3, 3] [1, 1, 1, 1] : tensor<1x1x4x4xf32> to tensor<1x1x3x3xf32>
// CHECK-NOT: infer.winograd
// CHECK: tensor<1x1x1x3x3x4x4xf32>
// CHECK-NOT: infer.winograd
func.func @odd_plane(%x: tensor<1x1x1x5x5xf32>, %x2: tensor<1x1x1x6x6xf32>, %a2: tensor<1x1x9xf32>) -> (tensor<1x1x1x9xf32>, tensor<1x1x1x16xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x1x9xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x3x3x3x3xf32>
  %col = linalg.generic {indexing_maps = [#copy_in, #copy_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x1x1x5x5xf32>) outs(%e : tensor<1x1x1x3x3x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x1x3x3x3x3xf32>
  %b = tensor.collapse_shape %col [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x1x3x3x3x3xf32> into tensor<1x1x9x9xf32>
  %o = tensor.empty() : tensor<1x1x1x9xf32>
  %init = linalg.fill ins(%zero : f32) outs(%o : tensor<1x1x1x9xf32>) -> tensor<1x1x1x9xf32>
  %y = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%w, %b : tensor<1x1x9xf32>, tensor<1x1x9x9xf32>) outs(%init : tensor<1x1x1x9xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x9xf32>
  %e2 = tensor.empty() : tensor<1x1x1x3x3x4x4xf32>
  %col2 = linalg.generic {indexing_maps = [#copy_in, #copy_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x2 : tensor<1x1x1x6x6xf32>) outs(%e2 : tensor<1x1x1x3x3x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x1x3x3x4x4xf32>
  %b2 = tensor.collapse_shape %col2 [[0], [1], [2, 3, 4], [5, 6]] : tensor<1x1x1x3x3x4x4xf32> into tensor<1x1x9x16xf32>
  %o2 = tensor.empty() : tensor<1x1x1x16xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%o2 : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %y2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%a2, %b2 : tensor<1x1x9xf32>, tensor<1x1x9x16xf32>) outs(%init2 : tensor<1x1x1x16xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1x16xf32>
  return %y, %y2 : tensor<1x1x1x9xf32>, tensor<1x1x1x16xf32>
}
