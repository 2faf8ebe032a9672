/*===- model_test.c - runtime tensors, model loading, running ---------===*
 *
 * Usage: infer-runtime-model-test path/to/fake.so
 * Drives the hand-written models of fake_model.c through the runtime API:
 * tensors, loading and name derivation, queries, running, every validation
 * error, and concurrent runs from several threads. Models built from ABI
 * constants in this program: abi_model_test.c.
 *
 *===------------------------------------------------------------------===*/

#define _XOPEN_SOURCE 700

#include "expect.h"
#include "infer/runtime.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int passed = 0;
int failed = 0;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INFER_TEST_ASAN 1
#endif
#endif
#ifndef INFER_TEST_ASAN
#define INFER_TEST_ASAN 0
#endif

static const int64_t kMatrix[] = {2, 3};

static void test_tensors(void) {
  EXPECT(infer_dtype_size(INFER_DTYPE_F32) == 4);
  EXPECT(infer_dtype_size(INFER_DTYPE_BOOL) == 1);
  EXPECT(infer_dtype_size(INFER_DTYPE_BF16) == 2);
  EXPECT(infer_dtype_size(INFER_DTYPE_U64) == 8);
  EXPECT(infer_dtype_size(INFER_DTYPE_INVALID) == 0);
  EXPECT(infer_dtype_size((infer_dtype_t)8) == 0); /* ONNX string */
  EXPECT(strcmp(infer_dtype_name(INFER_DTYPE_F32), "float32") == 0);
  EXPECT(strcmp(infer_dtype_name(INFER_DTYPE_I64), "int64") == 0);
  EXPECT(strcmp(infer_dtype_name(INFER_DTYPE_BOOL), "bool") == 0);
  EXPECT(strcmp(infer_dtype_name(INFER_DTYPE_BF16), "bfloat16") == 0);
  EXPECT(strcmp(infer_dtype_name((infer_dtype_t)99), "invalid") == 0);

  infer_tensor_t tensor = NULL;
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 2, kMatrix, &tensor));
  EXPECT(infer_tensor_dtype(tensor) == INFER_DTYPE_F32);
  EXPECT(infer_tensor_rank(tensor) == 2);
  EXPECT(infer_tensor_shape(tensor)[0] == 2 &&
         infer_tensor_shape(tensor)[1] == 3);
  EXPECT(infer_tensor_num_elements(tensor) == 6);
  EXPECT(infer_tensor_byte_size(tensor) == 24);
  EXPECT(((uintptr_t)infer_tensor_data(tensor) % INFER_TENSOR_ALIGNMENT) == 0);
  const float *values = infer_tensor_data(tensor);
  int zero = 1;
  for (int i = 0; i < 6; ++i) {
    zero &= values ? values[i] == 0.0f : 0;
  }
  EXPECT(zero);
  infer_tensor_release(tensor);

  /* Scalars and empty tensors. */
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_I64, 0, NULL, &tensor));
  EXPECT(infer_tensor_num_elements(tensor) == 1 &&
         infer_tensor_byte_size(tensor) == 8);
  infer_tensor_release(tensor);
  const int64_t empty[] = {INT64_MAX, 0, INT64_MAX};
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 3, empty, &tensor));
  EXPECT(infer_tensor_num_elements(tensor) == 0 &&
         infer_tensor_data(tensor) != NULL);
  infer_tensor_release(tensor);

  /* A released buffer of 64 KB or more serves the next tensor of its size
   * (except under AddressSanitizer, which must see a use after release),
   * and infer_tensor_create zero-fills it again. */
  const int64_t big[] = {512, 512}; /* 1 MB */
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 2, big, &tensor));
  float *written = infer_tensor_data(tensor);
  uintptr_t first = (uintptr_t)written;
  for (int i = 0; written && i < 512 * 512; ++i) {
    written[i] = 1.0f;
  }
  infer_tensor_release(tensor);
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 2, big, &tensor));
#if !defined(__SANITIZE_ADDRESS__) && !INFER_TEST_ASAN
  EXPECT((uintptr_t)infer_tensor_data(tensor) == first);
#else
  (void)first;
#endif
  values = infer_tensor_data(tensor);
  zero = 1;
  for (int i = 0; values && i < 512 * 512; ++i) {
    zero &= values[i] == 0.0f;
  }
  EXPECT(zero);
  infer_tensor_release(tensor);

  /* Wrapping shares the caller's buffer. */
  float buffer[6] = {1, 2, 3, 4, 5, 6};
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_F32, 2, kMatrix, buffer, &tensor));
  EXPECT(infer_tensor_data(tensor) == buffer);
  infer_tensor_release(tensor);
  infer_tensor_release(NULL);

  /* Rejections; out_tensor is reset to NULL. */
  tensor = (infer_tensor_t)buffer;
  const int64_t negative[] = {2, -1};
  EXPECT_ERROR(infer_tensor_create(INFER_DTYPE_F32, 2, negative, &tensor),
               INFER_INVALID_ARGUMENT, "negative");
  EXPECT(tensor == NULL);
  EXPECT_ERROR(infer_tensor_create((infer_dtype_t)8, 2, kMatrix, &tensor),
               INFER_INVALID_ARGUMENT, "unknown tensor dtype 8");
  EXPECT_ERROR(infer_tensor_create(INFER_DTYPE_F32, -1, kMatrix, &tensor),
               INFER_INVALID_ARGUMENT, "negative tensor rank");
  EXPECT_ERROR(infer_tensor_create(INFER_DTYPE_F32, 2, NULL, &tensor),
               INFER_INVALID_ARGUMENT, "NULL shape");
  const int64_t huge[] = {INT64_MAX / 2, 4};
  EXPECT_ERROR(infer_tensor_create(INFER_DTYPE_F32, 2, huge, &tensor),
               INFER_INVALID_ARGUMENT, "overflows");
  EXPECT_ERROR(infer_tensor_wrap(INFER_DTYPE_F32, 2, kMatrix, NULL, &tensor),
               INFER_INVALID_ARGUMENT, "NULL data");
  EXPECT(infer_tensor_data(NULL) == NULL && infer_tensor_rank(NULL) == 0);
}

/* Makes a float32 [2,3] tensor holding start, start+1, ... */
static infer_tensor_t matrix(float start) {
  infer_tensor_t tensor = NULL;
  infer_status_t status =
      infer_tensor_create(INFER_DTYPE_F32, 2, kMatrix, &tensor);
  if (status) {
    fprintf(stderr, "cannot create a tensor: %s\n",
            infer_status_message(status));
    exit(2);
  }
  float *data = infer_tensor_data(tensor);
  for (int i = 0; i < 6; ++i) {
    data[i] = start + (float)i;
  }
  return tensor;
}

static void test_load_errors(const char *path, const char *dir) {
  infer_model_t model = (infer_model_t)&model;
  EXPECT_ERROR(infer_model_load("/nonexistent/dir/m.so", NULL, &model),
               INFER_NOT_FOUND, "cannot open model '/nonexistent/dir/m.so'");
  EXPECT(model == NULL);
  EXPECT_ERROR(infer_model_load(dir, NULL, &model), INFER_INVALID_ARGUMENT,
               "is a directory");
  /* Not a shared library: refused before dlopen maps it. */
  char text[PATH_MAX + 32];
  snprintf(text, sizeof(text), "%s/not_a_library.so", dir);
  FILE *file = fopen(text, "w");
  if (file) {
    fputs("not ELF\n", file);
    fclose(file);
  }
  EXPECT_ERROR(infer_model_load(text, NULL, &model), INFER_INVALID_ARGUMENT,
               "is not a shared object (no ELF header)");
  /* A truncated copy of a real model: a status, not SIGBUS in dlopen. */
  char truncated[PATH_MAX + 32];
  snprintf(truncated, sizeof(truncated), "%s/truncated.so", dir);
  FILE *whole = fopen(path, "rb");
  FILE *part = fopen(truncated, "wb");
  if (whole && part) {
    char chunk[4096];
    size_t got = fread(chunk, 1, sizeof(chunk), whole);
    fwrite(chunk, 1, got / 2, part);
  }
  if (whole) {
    fclose(whole);
  }
  if (part) {
    fclose(part);
  }
  EXPECT_ERROR(infer_model_load(truncated, NULL, &model),
               INFER_INVALID_ARGUMENT, "is truncated");
  EXPECT_ERROR(infer_model_load(path, "missing", &model), INFER_NOT_FOUND,
               "no symbol 'missing_model'");
  EXPECT_ERROR(infer_model_load(path, "missing", &model), INFER_NOT_FOUND,
               "--name");
  char future[64];
  snprintf(future, sizeof(future), "ABI version %d", INFER_ABI_VERSION + 1);
  EXPECT_ERROR(infer_model_load(path, "fake_future", &model),
               INFER_INVALID_ARGUMENT, future);
  EXPECT_ERROR(infer_model_load(path, "fake_norun", &model),
               INFER_INVALID_ARGUMENT, "no run function");
  EXPECT_ERROR(infer_model_load(path, NULL, NULL), INFER_INVALID_ARGUMENT,
               "out_model");
}

static void test_name_derivation(const char *path, const char *dir) {
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_load(path, NULL, &model));
  EXPECT(strcmp(infer_model_name(model), "fake") == 0);
  infer_model_release(model);

  /* A copy named after the other model loads that one. */
  char link[PATH_MAX + 32];
  snprintf(link, sizeof(link), "%s/fake_logic.so", dir);
  EXPECT(symlink(path, link) == 0);
  model = NULL;
  EXPECT_OK(infer_model_load(link, NULL, &model));
  EXPECT(strcmp(infer_model_name(model), "fake_logic") == 0);
  EXPECT(infer_model_num_outputs(model) == 2);
  infer_model_release(model);

  /* A bare file name is a file in the working directory, not a search. */
  char cwd[PATH_MAX];
  EXPECT(getcwd(cwd, sizeof(cwd)) != NULL);
  EXPECT(chdir(dir) == 0);
  model = NULL;
  EXPECT_OK(infer_model_load("fake_logic.so", NULL, &model));
  EXPECT(strcmp(infer_model_name(model), "fake_logic") == 0);
  infer_model_release(model);
  EXPECT(chdir(cwd) == 0);
  unlink(link);
}

static void test_queries(infer_model_t model) {
  EXPECT(strcmp(infer_model_name(model), "fake") == 0);
  EXPECT(infer_model_num_inputs(model) == 2);
  EXPECT(infer_model_num_outputs(model) == 1);
  const infer_abi_tensor_t *b = infer_model_input(model, 1);
  EXPECT(b && strcmp(b->name, "b") == 0 && b->dtype == INFER_DTYPE_F32 &&
         b->rank == 2 && b->shape[1] == 3);
  EXPECT(infer_model_input(model, 2) == NULL);
  const infer_abi_tensor_t *sum = infer_model_output(model, 0);
  EXPECT(sum && strcmp(sum->name, "sum") == 0);
  EXPECT(infer_model_output(model, 1) == NULL);
  EXPECT(infer_model_input(NULL, 0) == NULL);

  size_t index = 99;
  EXPECT_OK(infer_model_find_input(model, "b", &index));
  EXPECT(index == 1);
  EXPECT_OK(infer_model_find_output(model, "sum", &index));
  EXPECT(index == 0);
  EXPECT_ERROR(infer_model_find_input(model, "c", &index), INFER_NOT_FOUND,
               "no input 'c'; its inputs are: 'a', 'b'");
  EXPECT_ERROR(infer_model_find_output(model, "a", &index), INFER_NOT_FOUND,
               "its outputs are: 'sum'");
}

static void test_run(infer_model_t model) {
  infer_tensor_t inputs[2] = {matrix(1.0f), matrix(10.0f)};
  infer_tensor_t outputs[1] = {NULL};
  EXPECT_OK(infer_model_run(model, inputs, 2, outputs, 1));
  EXPECT(infer_tensor_dtype(outputs[0]) == INFER_DTYPE_F32);
  EXPECT(infer_tensor_rank(outputs[0]) == 2);
  const float *sum = infer_tensor_data(outputs[0]);
  int right = sum != NULL;
  for (int i = 0; right && i < 6; ++i) {
    right = sum[i] == 11.0f + 2.0f * (float)i;
  }
  EXPECT(right);
  infer_tensor_release(outputs[0]);

  /* Counts. */
  EXPECT_ERROR(infer_model_run(model, inputs, 1, outputs, 1),
               INFER_INVALID_ARGUMENT,
               "takes 2 inputs and 1 outputs, got 1 inputs and 1 outputs");
  EXPECT(outputs[0] == NULL);
  EXPECT_ERROR(infer_model_run(model, inputs, 2, outputs, 0),
               INFER_INVALID_ARGUMENT, "got 2 inputs and 0 outputs");
  EXPECT_ERROR(infer_model_run(model, NULL, 2, outputs, 1),
               INFER_INVALID_ARGUMENT, "NULL");
  infer_tensor_t with_null[2] = {inputs[0], NULL};
  EXPECT_ERROR(infer_model_run(model, with_null, 2, outputs, 1),
               INFER_INVALID_ARGUMENT, "input 'b' (index 1) is NULL");

  /* Dtype, rank, dimensions. */
  infer_tensor_t bad = NULL;
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F64, 2, kMatrix, &bad));
  infer_tensor_t wrong_dtype[2] = {inputs[0], bad};
  EXPECT_ERROR(infer_model_run(model, wrong_dtype, 2, outputs, 1),
               INFER_INVALID_ARGUMENT,
               "input 'b': expected shape [2,3] (float32), got [2,3] "
               "(float64)");
  infer_tensor_release(bad);
  const int64_t rank3[] = {2, 3, 1};
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 3, rank3, &bad));
  infer_tensor_t wrong_rank[2] = {bad, inputs[1]};
  EXPECT_ERROR(infer_model_run(model, wrong_rank, 2, outputs, 1),
               INFER_INVALID_ARGUMENT,
               "input 'a': expected shape [2,3] (float32), got [2,3,1] "
               "(float32)");
  infer_tensor_release(bad);
  const int64_t rank1[] = {6};
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 1, rank1, &bad));
  wrong_rank[0] = bad;
  EXPECT_ERROR(infer_model_run(model, wrong_rank, 2, outputs, 1),
               INFER_INVALID_ARGUMENT, "got [6] (float32)");
  infer_tensor_release(bad);
  const int64_t transposed[] = {3, 2};
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 2, transposed, &bad));
  infer_tensor_t wrong_dims[2] = {inputs[0], bad};
  EXPECT_ERROR(infer_model_run(model, wrong_dims, 2, outputs, 1),
               INFER_INVALID_ARGUMENT,
               "input 'b': expected shape [2,3] (float32), got [3,2] "
               "(float32)");
  EXPECT(outputs[0] == NULL);
  infer_tensor_release(bad);
  EXPECT_ERROR(infer_model_run(NULL, inputs, 2, outputs, 1),
               INFER_INVALID_ARGUMENT, "model is NULL");

  infer_tensor_release(inputs[0]);
  infer_tensor_release(inputs[1]);
}

/* Runs into the caller's tensors: a wrapped array and a created tensor,
 * reused across calls; every misuse is refused before the code runs. */
static void test_run_into(infer_model_t model) {
  infer_tensor_t inputs[2] = {matrix(1.0f), matrix(10.0f)};
  float sums[6] = {0};
  infer_tensor_t out = NULL;
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_F32, 2, kMatrix, sums, &out));
  for (int call = 0; call < 3; ++call) {
    float *a = infer_tensor_data(inputs[0]);
    a[0] = (float)call;
    EXPECT_OK(infer_model_run_into(model, inputs, 2, &out, 1));
    EXPECT(sums[0] == (float)call + 10.0f && sums[5] == 15.0f + 6.0f);
  }
  EXPECT_ERROR(infer_model_run_into(model, inputs, 2, &out, 0),
               INFER_INVALID_ARGUMENT, "got 2 inputs and 0 outputs");
  EXPECT_ERROR(infer_model_run_into(NULL, inputs, 2, &out, 1),
               INFER_INVALID_ARGUMENT, "model is NULL");
  infer_tensor_t none = NULL;
  EXPECT_ERROR(infer_model_run_into(model, inputs, 2, &none, 1),
               INFER_INVALID_ARGUMENT, "output 'sum' (index 0) is NULL");
  const int64_t transposed[] = {3, 2};
  infer_tensor_t bad = NULL;
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 2, transposed, &bad));
  EXPECT_ERROR(infer_model_run_into(model, inputs, 2, &bad, 1),
               INFER_INVALID_ARGUMENT,
               "output 'sum': expected shape [2,3] (float32), got [3,2] "
               "(float32)");
  infer_tensor_t wrong_input[2] = {inputs[0], bad};
  EXPECT_ERROR(infer_model_run_into(model, wrong_input, 2, &out, 1),
               INFER_INVALID_ARGUMENT, "input 'b': expected shape [2,3]");
  infer_tensor_release(bad);
  /* An output over an input's bytes, whole or in part. */
  EXPECT_ERROR(infer_model_run_into(model, inputs, 2, &inputs[1], 1),
               INFER_INVALID_ARGUMENT,
               "output 'sum' shares memory with input 'b'");
  float shifted[9] = {0};
  infer_tensor_t first = NULL, second = NULL;
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_F32, 2, kMatrix, shifted, &first));
  EXPECT_OK(
      infer_tensor_wrap(INFER_DTYPE_F32, 2, kMatrix, shifted + 3, &second));
  infer_tensor_t overlapped[2] = {first, inputs[1]};
  EXPECT_ERROR(infer_model_run_into(model, overlapped, 2, &second, 1),
               INFER_INVALID_ARGUMENT,
               "output 'sum' shares memory with input 'a'");
  infer_tensor_release(first);
  infer_tensor_release(second);
  infer_tensor_release(out);
  infer_tensor_release(inputs[0]);
  infer_tensor_release(inputs[1]);
}

static void test_logic_model(const char *path) {
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_load(path, "fake_logic", &model));
  if (!model) {
    return;
  }
  const int64_t shape[] = {4};
  int64_t values[4] = {-2, 5, 7, 0};
  uint8_t mask[4] = {1, 1, 0, 1};
  infer_tensor_t inputs[2] = {NULL, NULL};
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_I64, 1, shape, values, &inputs[0]));
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_BOOL, 1, shape, mask, &inputs[1]));
  infer_tensor_t outputs[2] = {NULL, NULL};
  EXPECT_OK(infer_model_run(model, inputs, 2, outputs, 2));
  const int64_t *masked = infer_tensor_data(outputs[0]);
  const uint8_t *positive = infer_tensor_data(outputs[1]);
  EXPECT(infer_tensor_dtype(outputs[0]) == INFER_DTYPE_I64);
  EXPECT(infer_tensor_dtype(outputs[1]) == INFER_DTYPE_BOOL);
  EXPECT(masked && masked[0] == -2 && masked[1] == 5 && masked[2] == 0 &&
         masked[3] == 0);
  EXPECT(positive && positive[0] == 0 && positive[1] == 1 && positive[2] == 1 &&
         positive[3] == 0);
  infer_tensor_release(outputs[0]);
  infer_tensor_release(outputs[1]);

  /* Two outputs over the same bytes. */
  int64_t out_values[4];
  infer_tensor_t into[2] = {NULL, NULL};
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_I64, 1, shape, out_values, &into[0]));
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_BOOL, 1, shape,
                              (uint8_t *)out_values + 30, &into[1]));
  EXPECT_ERROR(infer_model_run_into(model, inputs, 2, into, 2),
               INFER_INVALID_ARGUMENT,
               "output 'positive' shares memory with output 'masked'");
  infer_tensor_release(into[1]);
  uint8_t out_positive[4];
  EXPECT_OK(
      infer_tensor_wrap(INFER_DTYPE_BOOL, 1, shape, out_positive, &into[1]));
  EXPECT_OK(infer_model_run_into(model, inputs, 2, into, 2));
  EXPECT(out_values[1] == 5 && out_values[2] == 0 && out_positive[2] == 1 &&
         out_positive[3] == 0);
  infer_tensor_release(into[0]);
  infer_tensor_release(into[1]);

  /* A bool where an int64 belongs. */
  infer_tensor_t swapped[2] = {inputs[1], inputs[0]};
  EXPECT_ERROR(infer_model_run(model, swapped, 2, outputs, 2),
               INFER_INVALID_ARGUMENT,
               "input 'values': expected shape [4] (int64), got [4] (bool)");
  infer_tensor_release(inputs[0]);
  infer_tensor_release(inputs[1]);
  infer_model_release(model);
}

/* Concurrent runs: each thread checks its own sums. */
enum { kThreads = 4, kRunsPerThread = 2000 };
typedef struct {
  infer_model_t model;
  int id;
  int errors;
} worker_t;

static void *worker_main(void *arg) {
  worker_t *worker = arg;
  for (int run = 0; run < kRunsPerThread; ++run) {
    float base = (float)(worker->id * 100000 + run);
    infer_tensor_t inputs[2] = {matrix(base), matrix(-base)};
    infer_tensor_t output = NULL;
    infer_status_t status =
        infer_model_run(worker->model, inputs, 2, &output, 1);
    if (status) {
      ++worker->errors;
      infer_status_free(status);
    } else {
      const float *sum = infer_tensor_data(output);
      for (int i = 0; i < 6; ++i) {
        worker->errors += sum[i] != 2.0f * (float)i;
      }
    }
    infer_tensor_release(output);
    infer_tensor_release(inputs[0]);
    infer_tensor_release(inputs[1]);
  }
  return NULL;
}

static void test_threads(infer_model_t model) {
  pthread_t threads[kThreads];
  worker_t workers[kThreads];
  int started = 0;
  for (int i = 0; i < kThreads; ++i) {
    workers[i] = (worker_t){model, i, 0};
    started += pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0;
  }
  EXPECT(started == kThreads);
  int errors = 0;
  for (int i = 0; i < started; ++i) {
    pthread_join(threads[i], NULL);
    errors += workers[i].errors;
  }
  EXPECT(errors == 0);
}

/* A model with a dynamic dim (ABI 5): ranges, runs at several sizes, and
 * every refusal. */
static void test_dynamic(const char *path) {
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_load(path, "fake_rows", &model));
  if (!model) {
    return;
  }
  EXPECT(infer_model_is_dynamic(model));
  int64_t lo[2], opt[2], hi[2];
  EXPECT_OK(infer_model_input_range(model, 0, lo, opt, hi));
  EXPECT(lo[0] == 1 && opt[0] == 2 && hi[0] == 4 && lo[1] == 3 && hi[1] == 3);
  EXPECT_ERROR(infer_model_input_range(model, 1, lo, NULL, NULL),
               INFER_INVALID_ARGUMENT, "out of range");
  for (int64_t rows = 1; rows <= 4; ++rows) {
    int64_t shape[] = {rows, 3};
    infer_tensor_t x = NULL;
    EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 2, shape, &x));
    float *data = infer_tensor_data(x);
    for (int64_t i = 0; i < rows * 3; ++i) {
      data[i] = (float)(i + 1);
    }
    infer_tensor_t outputs[2] = {NULL, NULL};
    EXPECT_OK(infer_model_run(model, &x, 1, outputs, 2));
    if (outputs[0] && outputs[1]) {
      EXPECT(infer_tensor_rank(outputs[0]) == 1 &&
             infer_tensor_shape(outputs[0])[0] == rows);
      EXPECT(infer_tensor_shape(outputs[1])[0] == rows &&
             infer_tensor_shape(outputs[1])[1] == 3);
      const float *sums = infer_tensor_data(outputs[0]);
      const float *twice = infer_tensor_data(outputs[1]);
      EXPECT(sums[rows - 1] == (float)(9 * rows - 3));
      EXPECT(twice[rows * 3 - 1] == (float)(6 * rows));
    }
    infer_tensor_release(outputs[0]);
    infer_tensor_release(outputs[1]);
    infer_tensor_release(x);
  }
  struct {
    int64_t rows, cols;
    int32_t rank;
    const char *needle;
  } bad[] = {
      {5, 3, 2, "input 'x': dim 0 is 5, outside the range [1, 4]"},
      {0, 3, 2, "input 'x': dim 0 is 0, outside the range [1, 4]"},
      {2, 4, 2, "input 'x': dim 1 must be 3, got 4"},
      {6, 0, 1, "input 'x': expected rank 2, got rank 1"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    int64_t shape[] = {bad[i].rows, bad[i].cols};
    infer_tensor_t x = NULL;
    EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, bad[i].rank, shape, &x));
    infer_tensor_t outputs[2] = {(infer_tensor_t)1, (infer_tensor_t)1};
    EXPECT_ERROR(infer_model_run(model, &x, 1, outputs, 2),
                 INFER_INVALID_ARGUMENT, bad[i].needle);
    EXPECT(outputs[0] == NULL && outputs[1] == NULL);
    infer_tensor_release(x);
  }
  /* A failed run-time check: the message, no outputs (and the buffers the
   * code allocated are freed). */
  int64_t shape[] = {2, 3};
  infer_tensor_t x = NULL;
  EXPECT_OK(infer_tensor_create(INFER_DTYPE_F32, 2, shape, &x));
  ((float *)infer_tensor_data(x))[0] = -1;
  infer_tensor_t outputs[2] = {NULL, NULL};
  EXPECT_ERROR(
      infer_model_run(model, &x, 1, outputs, 2), INFER_INVALID_ARGUMENT,
      "failed a run-time check: node 'first' (Fake): x[0][0] is negative");
  EXPECT(outputs[0] == NULL && outputs[1] == NULL);
  infer_tensor_release(x);
  infer_model_release(model);

  /* A static model is not dynamic; its range is its shape. */
  EXPECT_OK(infer_model_load(path, "fake", &model));
  if (model) {
    EXPECT(!infer_model_is_dynamic(model));
    EXPECT_OK(infer_model_input_range(model, 0, lo, opt, hi));
    EXPECT(lo[0] == 2 && opt[1] == 3 && hi[0] == 2);
    infer_model_release(model);
  }
}

/* The device-tensor API on a CPU model: refused by name, nothing allocated. */
static void test_device_api_on_cpu(infer_model_t model) {
  EXPECT(infer_model_on_device(model) == 0);
  EXPECT(infer_model_on_device(NULL) == 0);
  uint64_t ptr = 42;
  EXPECT_ERROR(infer_model_device_alloc(model, 64, &ptr),
               INFER_INVALID_ARGUMENT, "model 'fake' runs on the CPU");
  EXPECT(ptr == 0);
  EXPECT_ERROR(infer_model_device_alloc(model, 64, NULL),
               INFER_INVALID_ARGUMENT, "out_ptr is NULL");
  EXPECT_ERROR(infer_model_device_free(model, 4096), INFER_INVALID_ARGUMENT,
               "--target=cuda");
  float host[4] = {0};
  EXPECT_ERROR(infer_model_copy_to_device(model, 4096, host, sizeof(host)),
               INFER_INVALID_ARGUMENT, "runs on the CPU");
  EXPECT_ERROR(infer_model_copy_from_device(model, host, 4096, sizeof(host)),
               INFER_INVALID_ARGUMENT, "runs on the CPU");
  uint64_t inputs[2] = {4096, 8192}, outputs[1] = {12288};
  EXPECT_ERROR(infer_model_run_device(model, inputs, 2, outputs, 1),
               INFER_INVALID_ARGUMENT, "runs on the CPU");
  EXPECT_ERROR(infer_model_run_device(NULL, inputs, 2, outputs, 1),
               INFER_INVALID_ARGUMENT, "model is NULL");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s path/to/fake.so\n", argv[0]);
    return 2;
  }
  char path[PATH_MAX];
  if (!realpath(argv[1], path)) {
    fprintf(stderr, "cannot find %s\n", argv[1]);
    return 2;
  }
  char dir[] = "/tmp/infer-model-test-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 2;
  }

  test_tensors();
  test_load_errors(path, dir);
  test_name_derivation(path, dir);
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_load(path, "fake", &model));
  if (model) {
    test_queries(model);
    test_run(model);
    test_run_into(model);
    test_threads(model);
    test_device_api_on_cpu(model);
    infer_model_release(model);
  }
  test_logic_model(path);
  test_from_abi();
  test_workspace();
  test_executor();
  test_profile();
  test_dynamic(path);

  char scratch[sizeof(dir) + 32];
  snprintf(scratch, sizeof(scratch), "%s/not_a_library.so", dir);
  unlink(scratch);
  snprintf(scratch, sizeof(scratch), "%s/truncated.so", dir);
  unlink(scratch);
  rmdir(dir);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
