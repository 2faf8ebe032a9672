/*===- abi_model_test.c - models built from ABI constants -----------===*
 *
 * Models defined in this program as infer_abi_model_t constants (no shared
 * library): infer_model_from_abi, run-time checks reported as statuses,
 * ABI versions without a status word, and the workspace each model keeps
 * for concurrent runs.
 *
 *===------------------------------------------------------------------===*/

#define _XOPEN_SOURCE 700

#include "expect.h"
#include "infer/abi.h"
#include "infer/runtime.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* A model linked into this program. */
static const int64_t kScalar[1] = {1};
/* Its one run-time check: -INT32_MIN does not fit. */
static int32_t negate_run(void *const *buffers) {
  int32_t x = *(const int32_t *)buffers[0];
  if (x == INT32_MIN) {
    return 1;
  }
  *(int32_t *)buffers[1] = -x;
  return 0;
}
static const char *const kNegateErrors[] = {"node 'neg' (Neg): x is INT32_MIN"};
static const infer_abi_tensor_t kNegateIn[] = {
    {"x", INFER_DTYPE_I32, 1, kScalar}};
static const infer_abi_tensor_t kNegateOut[] = {
    {"y", INFER_DTYPE_I32, 1, kScalar}};
static const infer_abi_model_t negate_model = {
    INFER_ABI_VERSION, 1, 1,          1,    "negate",     kNegateIn,
    kNegateOut,        0, negate_run, NULL, kNegateErrors};

/* An ABI version 3 model: its run function returns nothing. */
static void legacy_run(void *const *buffers) {
  *(int32_t *)buffers[1] = 2 * *(const int32_t *)buffers[0];
}
static const infer_abi_model_t legacy_model = {
    3,          1,        1,
    0,          "legacy", kNegateIn,
    kNegateOut, 0,        (infer_abi_run_fn)(void (*)(void))legacy_run};

void test_from_abi(void) {
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_from_abi(&negate_model, &model));
  EXPECT(strcmp(infer_model_name(model), "negate") == 0);
  int32_t x = 42;
  infer_tensor_t input = NULL;
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_I32, 1, kScalar, &x, &input));
  infer_tensor_t output = NULL;
  EXPECT_OK(infer_model_run(model, &input, 1, &output, 1));
  EXPECT(output && *(const int32_t *)infer_tensor_data(output) == -42);
  infer_tensor_release(output);
  /* A failed run-time check is an error naming it, with no outputs. */
  x = INT32_MIN;
  output = (infer_tensor_t)&x; /* must be reset to NULL */
  EXPECT_ERROR(infer_model_run(model, &input, 1, &output, 1),
               INFER_INVALID_ARGUMENT,
               "model 'negate': the inputs failed a run-time check: node 'neg' "
               "(Neg): x is "
               "INT32_MIN");
  EXPECT(output == NULL);
  infer_tensor_release(input);
  infer_model_release(model);
  infer_model_release(NULL);

  /* Version 3 artifacts (no status) still run. */
  EXPECT_OK(infer_model_from_abi(&legacy_model, &model));
  x = 21;
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_I32, 1, kScalar, &x, &input));
  EXPECT_OK(infer_model_run(model, &input, 1, &output, 1));
  EXPECT(output && *(const int32_t *)infer_tensor_data(output) == 42);
  infer_tensor_release(output);
  infer_tensor_release(input);
  infer_model_release(model);

  infer_abi_model_t broken = negate_model;
  broken.inputs = NULL;
  EXPECT_ERROR(infer_model_from_abi(&broken, &model), INFER_INVALID_ARGUMENT,
               "no input table");
  broken = negate_model;
  broken.outputs = (const infer_abi_tensor_t[]){{"y", 8, 1, kScalar}};
  EXPECT_ERROR(infer_model_from_abi(&broken, &model), INFER_INVALID_ARGUMENT,
               "output 'y' has unknown dtype 8");
  EXPECT_ERROR(infer_model_from_abi(NULL, &model), INFER_INVALID_ARGUMENT,
               "NULL");
}

/* A model with a planned workspace: its run stages the input in the
 * workspace (which must be 64-byte aligned and at least workspace_size
 * bytes), works on it, and reads it back, so two concurrent runs sharing
 * one workspace would corrupt each other's results. */
enum { kScratchWords = 4096, kScratchThreads = 4 };
static int32_t scratch_run(void *const *buffers) {
  const int32_t *x = buffers[0];
  int32_t *y = buffers[1];
  volatile int32_t *scratch = buffers[2];
  if (!scratch || ((uintptr_t)scratch % 64) != 0) {
    *y = -1;
    return 0;
  }
  for (int i = 0; i < kScratchWords; ++i) {
    scratch[i] = *x + i;
  }
  int64_t sum = 0;
  for (int i = 0; i < kScratchWords; ++i) {
    sum += scratch[i] - i;
  }
  *y = (int32_t)(sum / kScratchWords);
  return 0;
}
static const infer_abi_model_t scratch_model = {
    INFER_ABI_VERSION, 1,         1,          0,
    "scratch",         kNegateIn, kNegateOut, kScratchWords * sizeof(int32_t),
    scratch_run};

typedef struct {
  infer_model_t model;
  int id;
  int errors;
} scratch_worker_t;

static void *scratch_worker_main(void *arg) {
  scratch_worker_t *worker = arg;
  for (int run = 0; run < 500; ++run) {
    int32_t x = worker->id * 1000 + run;
    infer_tensor_t input = NULL, output = NULL;
    infer_status_t status =
        infer_tensor_wrap(INFER_DTYPE_I32, 1, kScalar, &x, &input);
    if (!status) {
      status = infer_model_run(worker->model, &input, 1, &output, 1);
    }
    if (status) {
      ++worker->errors;
      infer_status_free(status);
    } else {
      worker->errors += *(const int32_t *)infer_tensor_data(output) != x;
    }
    infer_tensor_release(output);
    infer_tensor_release(input);
  }
  return NULL;
}

void test_workspace(void) {
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_from_abi(&scratch_model, &model));
  scratch_worker_t workers[kScratchThreads];
  pthread_t threads[kScratchThreads];
  int started = 0;
  for (int i = 0; i < kScratchThreads; ++i) {
    workers[i] = (scratch_worker_t){model, i, 0};
    started += pthread_create(&threads[i], NULL, scratch_worker_main,
                              &workers[i]) == 0;
  }
  EXPECT(started == kScratchThreads);
  int errors = 0;
  for (int i = 0; i < started; ++i) {
    pthread_join(threads[i], NULL);
    errors += workers[i].errors;
  }
  EXPECT(errors == 0);
  infer_model_release(model);
}
