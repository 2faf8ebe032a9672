/*===- fake_model.c - hand-written models implementing abi.h ----------===*
 *
 * Stands in for infer-compile's output so the runtime and the tools can be
 * tested without the compiler. Built as `fake.so`, it exports:
 *   fake_model         sum = a + b            (float32 [2,3] x2 -> [2,3])
 *   fake_logic_model   masked = mask ? values : 0, positive = values > 0
 *                      (int64 [4], bool [4] -> int64 [4], bool [4])
 *   fake_future_model  abi_version INFER_ABI_VERSION + 1 (must be refused)
 *   fake_norun_model   no run function (must be refused)
 *
 *===------------------------------------------------------------------===*/

#include "infer/abi.h"

#include <stdbool.h>
#include <stdint.h>

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
