// RUN: infer-opt %s --split-input-file --infer-cpu-elide-interior-copies | FileCheck %s

// A Relu computed into its own buffer, then copied into the interior of a
// padded buffer whose border is filled in between (what tensor.pad
// becomes after bufferization and infer-cpu-pad-borders): the padded
// buffer and its interior move before the Relu, which writes the
// interior; the copy and the Relu's buffer go. The border fills stay.
// CHECK-LABEL: func.func @relu_into_padded
// CHECK: %[[PADDED:.+]] = memref.alloc() : memref<1x2x6x6xf32>
// CHECK: %[[INTERIOR:.+]] = memref.subview %[[PADDED]][0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1]
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[INTERIOR]] : memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>)
// CHECK: linalg.fill
// CHECK: linalg.fill
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: memref.copy %[[PADDED]], %{{.+}} : memref<1x2x6x6xf32> to memref<1x2x6x6xf32>
// CHECK-NEXT: return
func.func @relu_into_padded(%x: memref<1x2x4x4xf32>, %out: memref<1x2x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<1x2x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x2x4x4xf32>) outs(%v : memref<1x2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<1x2x6x6xf32>
  %top = memref.subview %p[0, 0, 0, 0] [1, 2, 1, 6] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x1x6xf32, strided<[72, 36, 6, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x2x1x6xf32, strided<[72, 36, 6, 1]>>)
  %left = memref.subview %p[0, 0, 1, 0] [1, 2, 4, 1] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x1xf32, strided<[72, 36, 6, 1], offset: 6>>
  linalg.fill ins(%zero : f32) outs(%left : memref<1x2x4x1xf32, strided<[72, 36, 6, 1], offset: 6>>)
  %i = memref.subview %p[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %v, %i : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %p, %out : memref<1x2x6x6xf32> to memref<1x2x6x6xf32>
  return
}

// -----

// A fill of the whole padded buffer between the producer and the copy
// would overwrite the interior once the producer writes it there: left
// alone.
// CHECK-LABEL: func.func @whole_fill_between
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
func.func @whole_fill_between(%x: memref<4xf32>, %out: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<6xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<6xf32>)
  %i = memref.subview %p[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %i : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %p, %out : memref<6xf32> to memref<6xf32>
  return
}

// -----

// The producer's buffer is read by something else too: the copy stays.
// CHECK-LABEL: func.func @source_read_twice
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
func.func @source_read_twice(%x: memref<4xf32>, %out: memref<6xf32>, %also: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<6xf32>
  %i = memref.subview %p[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %i : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %also : memref<4xf32> to memref<4xf32>
  memref.copy %p, %out : memref<6xf32> to memref<6xf32>
  return
}

// -----

// The producer accumulates onto its buffer (it reads it): the copy stays.
// CHECK-LABEL: func.func @producer_reads_output
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
func.func @producer_reads_output(%x: memref<4xf32>, %out: memref<6xf32>) {
  %v = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<6xf32>
  %i = memref.subview %p[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %i : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %p, %out : memref<6xf32> to memref<6xf32>
  return
}

// -----

// The Relu's result is also read by an elementwise op after the copy (a
// residual Add beside the convolution the padded buffer feeds): the Relu
// writes the interior, and the Add reads the interior in place of the
// Relu's buffer.
// CHECK-LABEL: func.func @residual_reader
// CHECK: %[[PADDED:.+]] = memref.alloc() : memref<6xf32>
// CHECK: %[[INTERIOR:.+]] = memref.subview %[[PADDED]][1] [4] [1]
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[INTERIOR]] : memref<4xf32, strided<[1], offset: 1>>)
// CHECK-NOT: memref.copy %{{.+}}, %[[INTERIOR]]
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[INTERIOR]] : memref<4xf32>, memref<4xf32, strided<[1], offset: 1>>)
// CHECK-SAME: outs(%{{.+}} : memref<4xf32>)
func.func @residual_reader(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<6xf32>, %sum: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<6xf32>
  %i = memref.subview %p[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %i : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %p, %out : memref<6xf32> to memref<6xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%y, %v : memref<4xf32>, memref<4xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Another reader between the producer and the copy: it reads the interior
// too (the producer has written it by then), and the copy goes.
// CHECK-LABEL: func.func @reader_before_copy
// CHECK: %[[P:.+]] = memref.alloc() : memref<6xf32>
// CHECK: %[[I:.+]] = memref.subview %[[P]][1] [4] [1]
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[I]] :
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[I]] :
// CHECK-NOT: memref.copy %{{.+}}, %{{.+}} : memref<4xf32>
// CHECK: return
func.func @reader_before_copy(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<6xf32>, %sum: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%y, %v : memref<4xf32>, memref<4xf32>) outs(%sum : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<6xf32>
  %i = memref.subview %p[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %i : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %p, %out : memref<6xf32> to memref<6xf32>
  return
}

// -----

// A fill of the whole buffer, then a max over windows accumulating onto
// it (a max pool): both write the interior, the copy goes.
// CHECK-LABEL: func.func @seeded_accumulation
// CHECK: %[[P:.+]] = memref.alloc() : memref<6xf32>
// CHECK: %[[I:.+]] = memref.subview %[[P]][1] [4] [1]
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[I]] :
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[I]] :
// CHECK-NOT: memref.copy %{{.+}}, %{{.+}} : memref<4xf32>
// CHECK: return
func.func @seeded_accumulation(%x: memref<8xf32>, %out: memref<6xf32>) {
  %low = arith.constant 0xFF800000 : f32
  %v = memref.alloc() : memref<4xf32>
  %window = memref.alloc() : memref<2xf32>
  linalg.fill ins(%low : f32) outs(%v : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (2 * i + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %window : memref<8xf32>, memref<2xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %r = arith.maximumf %o, %a : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<6xf32>
  %i = memref.subview %p[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %i : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %p, %out : memref<6xf32> to memref<6xf32>
  return
}

// -----

// An accumulation onto the buffer with no fill right before it: the copy
// stays.
// CHECK-LABEL: func.func @seed_not_right_before
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
func.func @seed_not_right_before(%x: memref<8xf32>, %out: memref<6xf32>, %other: memref<4xf32>) {
  %low = arith.constant 0xFF800000 : f32
  %v = memref.alloc() : memref<4xf32>
  %window = memref.alloc() : memref<2xf32>
  linalg.fill ins(%low : f32) outs(%v : memref<4xf32>)
  linalg.fill ins(%low : f32) outs(%other : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (2 * i + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %window : memref<8xf32>, memref<2xf32>) outs(%v : memref<4xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %r = arith.maximumf %o, %a : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<6xf32>
  %i = memref.subview %p[1] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %v, %i : memref<4xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.copy %p, %out : memref<6xf32> to memref<6xf32>
  return
}

// -----

// The result is also read through a reshape that adds a unit dim (a 1x1
// stride-2 convolution's input beside the 3x3 one the padded buffer
// feeds): the reshape becomes an expand_shape of the interior.
// CHECK-LABEL: func.func @reshaped_reader
// CHECK: %[[P:.+]] = memref.alloc() : memref<4x6xf32>
// CHECK: %[[I:.+]] = memref.subview %[[P]][1, 1] [2, 4] [1, 1]
// CHECK: %[[E:.+]] = memref.expand_shape %[[I]] {{\[\[}}0, 1], [2]] output_shape [1, 2, 4] : memref<2x4xf32, strided<[6, 1], offset: 7>> into memref<1x2x4xf32, strided<[12, 6, 1], offset: 7>>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[I]] :
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[E]] :
// CHECK-NOT: memref.reshape
// CHECK-NOT: memref.copy %{{.+}}, %{{.+}} : memref<2x4xf32>
// CHECK: return
func.func @reshaped_reader(%x: memref<2x4xf32>, %out: memref<4x6xf32>, %sum: memref<1x2xf32>, %shape: memref<3xi64>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<2x4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x4xf32>) outs(%v : memref<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<4x6xf32>
  %i = memref.subview %p[1, 1] [2, 4] [1, 1] : memref<4x6xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %v, %i : memref<2x4xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
  %r = memref.reshape %v(%shape) : (memref<2x4xf32>, memref<3xi64>) -> memref<1x2x4xf32>
  linalg.generic {indexing_maps = [affine_map<(g, i, j) -> (g, i, j)>, affine_map<(g, i, j) -> (g, i)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%r : memref<1x2x4xf32>) outs(%sum : memref<1x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  memref.copy %p, %out : memref<4x6xf32> to memref<4x6xf32>
  return
}

// -----

// A reshape the interior's strides do not allow (rows of 4 in rows of 6
// flattened into one dim): the copy stays.
// CHECK-LABEL: func.func @view_not_made
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<2x4xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
func.func @view_not_made(%x: memref<2x4xf32>, %out: memref<4x6xf32>, %sum: memref<1xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<2x4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x4xf32>) outs(%v : memref<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %p = memref.alloc() : memref<4x6xf32>
  %i = memref.subview %p[1, 1] [2, 4] [1, 1] : memref<4x6xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %v, %i : memref<2x4xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
  %flat = memref.collapse_shape %v [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (0)>], iterator_types = ["reduction"]}
      ins(%flat : memref<8xf32>) outs(%sum : memref<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  memref.copy %p, %out : memref<4x6xf32> to memref<4x6xf32>
  return
}

// -----

// A fill and a contraction accumulating onto it: the contraction kernels
// need C's rows contiguous, so the copy stays.
// CHECK-LABEL: func.func @seeded_contraction
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<2x4xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
func.func @seeded_contraction(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %out: memref<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %v = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%v : memref<2x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>, affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%v : memref<2x4xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %q = arith.mulf %l, %r : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  }
  %p = memref.alloc() : memref<4x6xf32>
  %i = memref.subview %p[1, 1] [2, 4] [1, 1] : memref<4x6xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %v, %i : memref<2x4xf32> to memref<2x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %p, %out : memref<4x6xf32> to memref<4x6xf32>
  return
}

// -----

// Bands (a Winograd convolution's over a large plane): each computes its
// rows into a buffer of its own and copies them into the plane. The
// second band's copy goes too: the first band's rows, written before its
// producer, are disjoint from its own.
// CHECK-LABEL: func.func @bands
// CHECK: %[[PLANE:.+]] = memref.alloc() : memref<4x4xf32>
// CHECK: %[[TOP:.+]] = memref.subview %[[PLANE]][0, 0] [2, 4] [1, 1]
// CHECK: linalg.generic {{.+}} outs(%[[TOP]] : memref<2x4xf32, strided<[4, 1]>>)
// CHECK: %[[BOTTOM:.+]] = memref.subview %[[PLANE]][2, 0] [2, 4] [1, 1]
// CHECK: linalg.generic {{.+}} outs(%[[BOTTOM]] : memref<2x4xf32, strided<[4, 1], offset: 8>>)
// CHECK-NOT: memref.copy %{{.+}}, %{{.+}} : memref<2x4xf32>
func.func @bands(%x: memref<2x4xf32>, %y: memref<2x4xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<4x4xf32>
  %v = memref.alloc() : memref<2x4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x4xf32>) outs(%v : memref<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %top = memref.subview %p[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %v, %top : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %w = memref.alloc() : memref<2x4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<2x4xf32>) outs(%w : memref<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %bottom = memref.subview %p[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %w, %bottom : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %p, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// An earlier write that overlaps the rows (here rows 1-2 before rows
// 2-3): the copy stays, so the later rows land last.
// CHECK-LABEL: func.func @overlapping_rows
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
func.func @overlapping_rows(%x: memref<2x4xf32>, %y: memref<2x4xf32>, %out: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<4x4xf32>
  %middle = memref.subview %p[1, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 4>>
  memref.copy %x, %middle : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 4>>
  %w = memref.alloc() : memref<2x4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<2x4xf32>) outs(%w : memref<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  %bottom = memref.subview %p[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %w, %bottom : memref<2x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %p, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}
