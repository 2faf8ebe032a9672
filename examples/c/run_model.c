/* A C program that loads any model infer-compile wrote (NAME.so) through
 * the runtime's C API, runs it once on inputs of ones, and prints each
 * output. Built against an installed infer with pkg-config:
 *
 *   export PKG_CONFIG_PATH=P/lib/pkgconfig
 *   cc run_model.c $(pkg-config --cflags --libs infer-runtime) -o run_model
 *   LD_LIBRARY_PATH=P/lib ./run_model out/tiny_mlp.so
 *
 * or with the static library, nothing to find at run time:
 *
 *   cc run_model.c -I P/include P/lib/libinfer_runtime.a -ldl -lpthread */
#include "infer/runtime.h"

#include <stdio.h>
#include <string.h>

static int fail(infer_status_t status) {
  fprintf(stderr, "error: %s\n", infer_status_message(status));
  infer_status_free(status);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.so\n", argv[0]);
    return 2;
  }
  infer_model_t model = NULL;
  infer_status_t status = infer_model_load(argv[1], NULL, &model);
  if (status) {
    return fail(status);
  }
  if (infer_model_is_dynamic(model)) {
    fprintf(stderr,
            "error: '%s' has dims sized at run time; this example "
            "runs static models\n",
            infer_model_name(model));
    infer_model_release(model);
    return 1;
  }
  size_t num_inputs = infer_model_num_inputs(model);
  size_t num_outputs = infer_model_num_outputs(model);
  infer_tensor_t inputs[16] = {NULL};
  infer_tensor_t outputs[16] = {NULL};
  int rc = 0;
  if (num_inputs > 16 || num_outputs > 16) {
    fprintf(stderr, "error: more than 16 inputs or outputs\n");
    infer_model_release(model);
    return 1;
  }
  for (size_t i = 0; i < num_inputs && rc == 0; ++i) {
    const infer_abi_tensor_t *info = infer_model_input(model, i);
    if (info->dtype != INFER_DTYPE_F32) {
      fprintf(stderr, "error: input '%s' is %s; this example fills float32\n",
              info->name, infer_dtype_name((infer_dtype_t)info->dtype));
      rc = 1;
      break;
    }
    status = infer_tensor_create(INFER_DTYPE_F32, info->rank, info->shape,
                                 &inputs[i]);
    if (status) {
      rc = fail(status);
      break;
    }
    float *data = infer_tensor_data(inputs[i]);
    for (size_t e = 0; e < infer_tensor_num_elements(inputs[i]); ++e) {
      data[e] = 1.0f;
    }
  }
  if (rc == 0) {
    status = infer_model_run(model, inputs, num_inputs, outputs, num_outputs);
    if (status) {
      rc = fail(status);
    }
  }
  for (size_t o = 0; rc == 0 && o < num_outputs; ++o) {
    const infer_abi_tensor_t *info = infer_model_output(model, o);
    printf("%s:", info->name);
    if (infer_tensor_dtype(outputs[o]) == INFER_DTYPE_F32) {
      const float *data = infer_tensor_data(outputs[o]);
      for (size_t e = 0; e < infer_tensor_num_elements(outputs[o]); ++e) {
        printf(" %.9g", data[e]);
      }
    }
    printf("\n");
  }
  for (size_t i = 0; i < 16; ++i) {
    infer_tensor_release(inputs[i]);
    infer_tensor_release(outputs[i]);
  }
  infer_model_release(model);
  return rc;
}
