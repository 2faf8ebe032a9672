// RUN: infer-opt %s --infer-reassociate-row-reductions="vector-bits=512" | FileCheck %s
// RUN: infer-opt %s --infer-reassociate-row-reductions | FileCheck %s --check-prefix=SCALAR

#all = affine_map<(i) -> (i)>
#scalar = affine_map<(i) -> ()>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#flip = affine_map<(i, j) -> (j, i)>

// DynamicQuantizeLinear's range: a minimum and a maximum of every element
// in one generic. With vector-bits: 4 accumulators of 16 lanes per result
// (8 iter_args), a step of 64, the accumulators combined with the
// result's own op and reduced across lanes, then the elements after the
// last whole step one at a time, starting from those.
// CHECK-LABEL: func.func @range
// CHECK-SAME: (%[[X:.*]]: memref<1000xf32>, %[[MIN:.*]]: memref<f32>, %[[MAX:.*]]: memref<f32>)
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[LO:.*]] = memref.load %[[MIN]][]
// CHECK-DAG: %[[HI:.*]] = memref.load %[[MAX]][]
// CHECK: %[[WHOLE:.*]] = arith.muli %{{.*}}, %[[C64]]
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %[[WHOLE]]
// CHECK: %[[LO16:.*]] = vector.broadcast %[[LO]] : f32 to vector<16xf32>
// CHECK: %[[HI16:.*]] = vector.broadcast %[[HI]] : f32 to vector<16xf32>
// CHECK: %[[ACC:.*]]:8 = scf.for %[[I:.*]] = %{{.*}} to %[[END]] step %{{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: %[[V0:.*]] = vector.load %[[X]][%[[I]]] : memref<1000xf32>, vector<16xf32>
// CHECK: arith.minimumf %{{.*}}, %[[V0]] : vector<16xf32>
// CHECK: arith.maximumf %{{.*}}, %[[V0]] : vector<16xf32>
// CHECK: %[[I48:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: vector.load %[[X]][%[[I48]]] : memref<1000xf32>, vector<16xf32>
// CHECK: scf.yield
// CHECK: %[[M01:.*]] = arith.minimumf %[[ACC]]#0, %[[ACC]]#1 : vector<16xf32>
// CHECK: %[[M012:.*]] = arith.minimumf %[[M01]], %[[ACC]]#2 : vector<16xf32>
// CHECK: %[[M0123:.*]] = arith.minimumf %[[M012]], %[[ACC]]#3 : vector<16xf32>
// CHECK: %[[RLO:.*]] = vector.reduction <minimumf>, %[[M0123]] : vector<16xf32> into f32
// CHECK: %[[RHI:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<16xf32> into f32
// CHECK: %[[TAIL:.*]]:2 = scf.for %[[J:.*]] = %[[END]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[RLO]], %{{.*}} = %[[RHI]]) -> (f32, f32)
// CHECK: memref.load %[[X]][%[[J]]]
// CHECK: memref.store %[[TAIL]]#0, %[[MIN]][]
// CHECK: memref.store %[[TAIL]]#1, %[[MAX]][]
// SCALAR-LABEL: func.func @range
// SCALAR-NOT: vector
// SCALAR: scf.for {{.*}} -> (f32, f32)
func.func @range(%x: memref<1000xf32>, %min: memref<f32>, %max: memref<f32>) {
  linalg.generic {indexing_maps = [#all, #scalar, #scalar], iterator_types = ["reduction"]}
      ins(%x : memref<1000xf32>) outs(%min, %max : memref<f32>, memref<f32>) {
  ^bb0(%in: f32, %lo: f32, %hi: f32):
    %a = arith.minimumf %lo, %in : f32
    %b = arith.maximumf %hi, %in : f32
    linalg.yield %a, %b : f32, f32
  }
  return
}

// A row max of int32 (ReduceMax): 16 lanes of 32 bits, in the row's loop;
// the value combined is computed elementwise (a constant from the body is
// broadcast).
// CHECK-LABEL: func.func @row_max_i32
// CHECK: scf.for %[[R:.*]] =
// CHECK: scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK: vector.load %{{.*}}[%[[R]], %{{.*}}] : memref<4x201xi32>, vector<16xi32>
// CHECK: arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.maxsi %{{.*}} : vector<16xi32>
// CHECK: vector.reduction <maxsi>
func.func @row_max_i32(%x: memref<4x201xi32>, %y: memref<4xi32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x201xi32>) outs(%y : memref<4xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %one = arith.constant 1 : i32
    %v = arith.addi %in, %one : i32
    %m = arith.maxsi %acc, %v : i32
    linalg.yield %m : i32
  }
  return
}

// Rows of 40 (a Softmax's max over 40 attention scores): 4 accumulators
// would step 64 lanes and leave every element to the scalar loop; 2 of
// them step 32, then 8 elements one at a time.
// CHECK-LABEL: func.func @short_rows
// CHECK: scf.for {{.*}} step %c32{{.*}} -> (vector<16xf32>, vector<16xf32>) {
// CHECK: arith.maxnumf %{{.*}} : vector<16xf32>
// CHECK: vector.reduction <maxnumf>
func.func @short_rows(%x: memref<320x40xf32>, %y: memref<320xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<320x40xf32>) outs(%y : memref<320xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maxnumf %acc, %in : f32
    linalg.yield %m : f32
  }
  return
}

// Not in lanes: a sum (its order matters: reassoc and the scalar loop), and
// a max whose input the reduction loop reads across rows (not contiguous).
// CHECK-LABEL: func.func @not_in_lanes
// CHECK-NOT: vector
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK-NOT: vector
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: vector
// CHECK: return
func.func @not_in_lanes(%x: memref<8x128xf32>, %s: memref<8xf32>, %t: memref<128x8xf32>, %m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x128xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %acc, %in : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [#flip, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : memref<128x8xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %max = arith.maximumf %acc, %in : f32
    linalg.yield %max : f32
  }
  return
}
