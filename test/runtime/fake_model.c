/*===- fake_model.c - hand-written models implementing abi.h ----------===*
 *
 * Stands in for infer-compile's output so the runtime and the tools can be
 * tested without the compiler. Built as `fake.so`, it exports:
 *   fake_model         sum = a + b            (float32 [2,3] x2 -> [2,3])
 *   fake_logic_model   masked = mask ? values : 0, positive = values > 0
 *                      (int64 [4], bool [4] -> int64 [4], bool [4])
 *   fake_future_model  abi_version INFER_ABI_VERSION + 1 (must be refused)
 *   fake_norun_model   no run function (must be refused)
 *   fake_rows_model    dynamic rows (ABI 5): x float32 [-1,3], rows 1..4,
 *                      -> sums [-1] (per row), twice [-1,3] (2 * x); a run
 *                      whose x[0][0] is negative fails run-time check 1
 *
 *===------------------------------------------------------------------===*/

#include "infer/abi.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static const int64_t kMatrixShape[] = {2, 3};
static const int64_t kVectorShape[] = {4};

static int32_t fake_add_run(void *const *buffers) {
  const float *a = buffers[0];
  const float *b = buffers[1];
  float *sum = buffers[2];
  for (int i = 0; i < 6; ++i) {
    sum[i] = a[i] + b[i];
  }
  return 0;
}

static const infer_abi_tensor_t kAddInputs[] = {
    {"a", INFER_DTYPE_F32, 2, kMatrixShape},
    {"b", INFER_DTYPE_F32, 2, kMatrixShape},
};
static const infer_abi_tensor_t kAddOutputs[] = {
    {"sum", INFER_DTYPE_F32, 2, kMatrixShape},
};

const infer_abi_model_t fake_model = {
    .abi_version = INFER_ABI_VERSION,
    .num_inputs = 2,
    .num_outputs = 1,
    .name = "fake",
    .inputs = kAddInputs,
    .outputs = kAddOutputs,
    .workspace_size = 0,
    .run = fake_add_run,
};

static int32_t fake_logic_run(void *const *buffers) {
  const int64_t *values = buffers[0];
  const uint8_t *mask = buffers[1];
  int64_t *masked = buffers[2];
  uint8_t *positive = buffers[3];
  for (int i = 0; i < 4; ++i) {
    masked[i] = mask[i] ? values[i] : 0;
    positive[i] = values[i] > 0;
  }
  return 0;
}

static const infer_abi_tensor_t kLogicInputs[] = {
    {"values", INFER_DTYPE_I64, 1, kVectorShape},
    {"mask", INFER_DTYPE_BOOL, 1, kVectorShape},
};
static const infer_abi_tensor_t kLogicOutputs[] = {
    {"masked", INFER_DTYPE_I64, 1, kVectorShape},
    {"positive", INFER_DTYPE_BOOL, 1, kVectorShape},
};

const infer_abi_model_t fake_logic_model = {
    .abi_version = INFER_ABI_VERSION,
    .num_inputs = 2,
    .num_outputs = 2,
    .name = "fake_logic",
    .inputs = kLogicInputs,
    .outputs = kLogicOutputs,
    .run = fake_logic_run,
};

const infer_abi_model_t fake_future_model = {
    .abi_version = INFER_ABI_VERSION + 1,
    .num_inputs = 2,
    .num_outputs = 1,
    .name = "fake_future",
    .inputs = kAddInputs,
    .outputs = kAddOutputs,
    .run = fake_add_run,
};

const infer_abi_model_t fake_norun_model = {
    .abi_version = INFER_ABI_VERSION,
    .num_inputs = 2,
    .num_outputs = 1,
    .name = "fake_norun",
    .inputs = kAddInputs,
    .outputs = kAddOutputs,
    .run = 0,
};

/* The generic variant of a model with a dynamic dim: sizes come in
 * input_shapes, outputs are malloc'ed and described in out_shapes. */
/* A buffer the way generated code allocates it: from `allocator` (or
 * aligned_alloc), after the header that names where it came from. */
static void *fake_buffer(infer_abi_allocator_t *allocator, uint64_t bytes) {
  uint64_t total = (bytes + 2 * INFER_ABI_BUFFER_HEADER_BYTES - 1) / 64 * 64;
  char *block =
      allocator ? allocator->alloc(allocator, total) : aligned_alloc(64, total);
  infer_abi_buffer_header_t *header = (infer_abi_buffer_header_t *)block;
  header->allocator = allocator;
  header->block = block;
  header->bytes = total;
  return block + INFER_ABI_BUFFER_HEADER_BYTES;
}

static int32_t fake_rows_run(void *const *inputs, const int64_t *input_shapes,
                             void *workspace, void **out_data,
                             void **out_allocations, int64_t *out_shapes,
                             infer_abi_allocator_t *allocator) {
  (void)workspace;
  const float *x = inputs[0];
  int64_t rows = input_shapes[0];
  float *sums = fake_buffer(allocator, sizeof(float) * (size_t)rows);
  float *twice = fake_buffer(allocator, sizeof(float) * (size_t)(rows * 3));
  for (int64_t r = 0; r < rows; ++r) {
    sums[r] = 0;
    for (int c = 0; c < 3; ++c) {
      sums[r] += x[r * 3 + c];
      twice[r * 3 + c] = 2 * x[r * 3 + c];
    }
  }
  out_data[0] = out_allocations[0] = sums;
  out_data[1] = out_allocations[1] = twice;
  out_shapes[0] = rows;
  out_shapes[1] = rows;
  out_shapes[2] = 3;
  return rows > 0 && x[0] < 0 ? 1 : 0;
}

static const int64_t kRowsShape[] = {-1, 3};
static const int64_t kSumsShape[] = {-1};
static const int64_t kRowsMin[] = {1, 3};
static const int64_t kRowsOpt[] = {2, 3};
static const int64_t kRowsMax[] = {4, 3};
static const char *const kRowsErrors[] = {
    "node 'first' (Fake): x[0][0] is negative"};
static const infer_abi_tensor_t kRowsInputs[] = {
    {"x", INFER_DTYPE_F32, 2, kRowsShape},
};
static const infer_abi_tensor_t kRowsOutputs[] = {
    {"sums", INFER_DTYPE_F32, 1, kSumsShape},
    {"twice", INFER_DTYPE_F32, 2, kRowsShape},
};

const infer_abi_model_t fake_rows_model = {
    .abi_version = INFER_ABI_VERSION,
    .num_inputs = 1,
    .num_outputs = 2,
    .num_errors = 1,
    .name = "fake_rows",
    .inputs = kRowsInputs,
    .outputs = kRowsOutputs,
    .errors = kRowsErrors,
    .run_dynamic = fake_rows_run,
    .shape_min = kRowsMin,
    .shape_opt = kRowsOpt,
    .shape_max = kRowsMax,
};
