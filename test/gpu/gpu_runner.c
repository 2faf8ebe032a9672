/*===- gpu_runner.c - run a compiled model on raw tensors, and time it ---===*
 *
 * For the GPU machine, which has a C compiler and CMake but none of the
 * compiler's dependencies (run_on_gpu.sh builds the runtime alone and this
 * file against it). Usage:
 *   gpu_runner MODEL.so NAME DIR ITERATIONS
 * reads DIR/input_<i>.bin (raw elements, in the model's order, shapes and
 * dtypes), runs once and writes DIR/result_<i>.bin, then runs ITERATIONS
 * more times (after 10 untimed) and prints one JSON line with the median
 * and 90th percentile latency in ms. It then runs once more on device
 * tensors (infer_model_run_device: inputs copied to device memory first,
 * outputs read back after), checks that those outputs equal the host run's
 * bit for bit, and times ITERATIONS device runs (no host copies) too.
 * Exit status 1 on any error or mismatch.
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "infer/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fail(infer_status_t status) {
  fprintf(stderr, "gpu_runner: error: %s\n", infer_status_message(status));
  infer_status_free(status);
  return 1;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int device_fail(infer_status_t status) {
  fprintf(stderr, "gpu_runner: device tensors: %s\n",
          infer_status_message(status));
  infer_status_free(status);
  return 1;
}

/* Runs once on device tensors and compares with the host run's `expected`
 * outputs, then times `iterations` device runs (after 10 untimed). */
static int run_on_device_tensors(infer_model_t model,
                                 const infer_tensor_t *inputs,
                                 size_t num_inputs,
                                 const infer_tensor_t *expected,
                                 size_t num_outputs, int iterations,
                                 int *out_match, double *out_median_ms) {
  size_t n = num_inputs + num_outputs;
  uint64_t *ptrs = calloc(n + 1, sizeof(uint64_t));
  infer_status_t status = NULL;
  for (size_t i = 0; i < n && !status; ++i) {
    infer_tensor_t t = i < num_inputs ? inputs[i] : expected[i - num_inputs];
    size_t bytes = infer_tensor_byte_size(t);
    status = infer_model_device_alloc(model, bytes, &ptrs[i]);
    if (!status && i < num_inputs) {
      status = infer_model_copy_to_device(model, ptrs[i], infer_tensor_data(t),
                                          bytes);
    }
  }
  if (!status) {
    status = infer_model_run_device(model, ptrs, num_inputs, ptrs + num_inputs,
                                    num_outputs);
  }
  *out_match = 1;
  for (size_t o = 0; o < num_outputs && !status; ++o) {
    size_t bytes = infer_tensor_byte_size(expected[o]);
    void *host = malloc(bytes ? bytes : 1);
    status =
        infer_model_copy_from_device(model, host, ptrs[num_inputs + o], bytes);
    if (!status && memcmp(host, infer_tensor_data(expected[o]), bytes) != 0) {
      fprintf(stderr,
              "gpu_runner: output %zu differs between host and "
              "device tensors\n",
              o);
      *out_match = 0;
    }
    free(host);
  }
  double *times = calloc((size_t)iterations + 1, sizeof(double));
  for (int i = -10; i < iterations && !status; ++i) {
    double start = now_ms();
    status = infer_model_run_device(model, ptrs, num_inputs, ptrs + num_inputs,
                                    num_outputs);
    if (i >= 0) {
      times[i] = now_ms() - start;
    }
  }
  if (!status && iterations > 0) {
    qsort(times, (size_t)iterations, sizeof(double), compare_doubles);
    *out_median_ms = times[iterations / 2];
  }
  for (size_t i = 0; i < n; ++i) {
    infer_status_free(infer_model_device_free(model, ptrs[i]));
  }
  free(times);
  free(ptrs);
  return status ? device_fail(status) : 0;
}

/* For a model compiled with --profile: the median over `iterations`
 * event-timed runs of the launches' sum, and the device's ceilings; -1
 * for a model without a profile. */
static int profiled_runs(infer_model_t model, const infer_tensor_t *inputs,
                         size_t num_inputs, size_t num_outputs, int iterations,
                         double *out_launches_ms,
                         infer_device_info_t *out_device) {
  *out_launches_ms = -1;
  size_t segments = infer_model_num_segments(model);
  infer_status_t status = infer_model_device_info(model, out_device);
  if (status || segments == 0) {
    return status ? fail(status) : 0;
  }
  infer_tensor_t *outputs = calloc(num_outputs + 1, sizeof(infer_tensor_t));
  infer_profile_segment_t *times =
      calloc(segments, sizeof(infer_profile_segment_t));
  double *sums = calloc((size_t)iterations + 1, sizeof(double));
  for (size_t o = 0; !status && o < num_outputs; ++o) {
    const infer_abi_tensor_t *declared = infer_model_output(model, o);
    status = infer_tensor_create((infer_dtype_t)declared->dtype, declared->rank,
                                 declared->shape, &outputs[o]);
  }
  for (int i = -10; !status && i < iterations; ++i) {
    status = infer_model_run_profiled(model, inputs, num_inputs, outputs,
                                      num_outputs, times, segments);
    if (!status && i >= 0) {
      sums[i] = times[segments - 1].end_ns * 1e-6;
    }
  }
  if (!status) {
    qsort(sums, (size_t)iterations, sizeof(double), compare_doubles);
    *out_launches_ms = sums[iterations / 2];
  }
  for (size_t o = 0; o < num_outputs; ++o) {
    infer_tensor_release(outputs[o]);
  }
  free(outputs);
  free(times);
  free(sums);
  return status ? fail(status) : 0;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s MODEL.so NAME DIR ITERATIONS\n", argv[0]);
    return 2;
  }
  const char *dir = argv[3];
  int iterations = atoi(argv[4]);
  infer_model_t model = NULL;
  infer_status_t status = infer_model_load(argv[1], argv[2], &model);
  if (status) {
    return fail(status);
  }
  size_t num_inputs = infer_model_num_inputs(model);
  size_t num_outputs = infer_model_num_outputs(model);
  infer_tensor_t *inputs = calloc(num_inputs + 1, sizeof(infer_tensor_t));
  infer_tensor_t *outputs = calloc(num_outputs + 1, sizeof(infer_tensor_t));
  char path[4096];
  for (size_t i = 0; i < num_inputs; ++i) {
    const infer_abi_tensor_t *in = infer_model_input(model, i);
    status = infer_tensor_create((infer_dtype_t)in->dtype, in->rank, in->shape,
                                 &inputs[i]);
    if (status) {
      return fail(status);
    }
    snprintf(path, sizeof(path), "%s/input_%zu.bin", dir, i);
    FILE *f = fopen(path, "rb");
    size_t bytes = infer_tensor_byte_size(inputs[i]);
    if (!f || fread(infer_tensor_data(inputs[i]), 1, bytes, f) != bytes) {
      fprintf(stderr, "gpu_runner: error: cannot read %zu bytes from %s\n",
              bytes, path);
      return 1;
    }
    fclose(f);
  }
  status = infer_model_run(model, inputs, num_inputs, outputs, num_outputs);
  if (status) {
    return fail(status);
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    snprintf(path, sizeof(path), "%s/result_%zu.bin", dir, i);
    FILE *f = fopen(path, "wb");
    size_t bytes = infer_tensor_byte_size(outputs[i]);
    if (!f || fwrite(infer_tensor_data(outputs[i]), 1, bytes, f) != bytes) {
      fprintf(stderr, "gpu_runner: error: cannot write %s\n", path);
      return 1;
    }
    fclose(f);
  }
  int device_match = 0;
  double device_ms = 0;
  if (run_on_device_tensors(model, inputs, num_inputs, outputs, num_outputs,
                            iterations, &device_match, &device_ms)) {
    return 1;
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    infer_tensor_release(outputs[i]);
  }
  double *times = calloc((size_t)iterations + 1, sizeof(double));
  for (int i = -10; i < iterations; ++i) {
    double start = now_ms();
    status = infer_model_run(model, inputs, num_inputs, outputs, num_outputs);
    double elapsed = now_ms() - start;
    if (status) {
      return fail(status);
    }
    for (size_t o = 0; o < num_outputs; ++o) {
      infer_tensor_release(outputs[o]);
    }
    if (i >= 0) {
      times[i] = elapsed;
    }
  }
  qsort(times, (size_t)iterations, sizeof(double), compare_doubles);
  double launches_ms = -1;
  infer_device_info_t device;
  if (profiled_runs(model, inputs, num_inputs, num_outputs, iterations,
                    &launches_ms, &device)) {
    return 1;
  }
  printf("{\"model\": \"%s\", \"iterations\": %d, \"median_ms\": %.4f, "
         "\"p90_ms\": %.4f, \"device_tensors_match\": %s, "
         "\"device_tensors_median_ms\": %.4f, \"profiled_launches_ms\": "
         "%.4f, \"device_peak_gflops\": %.1f, \"device_bandwidth_gbs\": "
         "%.1f}\n",
         argv[2], iterations, times[iterations / 2],
         times[(iterations * 9) / 10], device_match ? "true" : "false",
         device_ms, launches_ms, device.peak_gflops, device.bandwidth_gbs);
  for (size_t i = 0; i < num_inputs; ++i) {
    infer_tensor_release(inputs[i]);
  }
  infer_model_release(model);
  free(times);
  free(inputs);
  free(outputs);
  return 0;
}
