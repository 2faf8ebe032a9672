/*===- abi.h - the contract between infer-compile and the runtime --*- C -*-===*
 *
 * Every model compiled for the CPU target exports one constant of type
 * infer_abi_model_t named `<name>_model` (name from `--name`), and a typed
 * entry point `<name>_main` declared in the generated header. The runtime
 * reads nothing else from generated code. Layouts here only ever grow at
 * the end; `abi_version` tells which fields exist.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_ABI_H
#define INFER_RUNTIME_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INFER_ABI_VERSION 2

/* Element types, numbered as ONNX's TensorProto.DataType. */
typedef enum infer_dtype_e {
  INFER_DTYPE_INVALID = 0,
  INFER_DTYPE_F32 = 1,
  INFER_DTYPE_U8 = 2,
  INFER_DTYPE_I8 = 3,
  INFER_DTYPE_U16 = 4,
  INFER_DTYPE_I16 = 5,
  INFER_DTYPE_I32 = 6,
  INFER_DTYPE_I64 = 7,
  INFER_DTYPE_BOOL = 9, /* one byte per element, 0 or 1 */
  INFER_DTYPE_F16 = 10,
  INFER_DTYPE_F64 = 11,
  INFER_DTYPE_U32 = 12,
  INFER_DTYPE_U64 = 13,
  INFER_DTYPE_BF16 = 16,
} infer_dtype_t;

/* One input or output: dense, row-major, in the listed shape. */
typedef struct infer_abi_tensor {
  const char *name;     /* the ONNX graph input/output name */
  int32_t dtype;        /* an infer_dtype_t */
  int32_t rank;
  const int64_t *shape; /* `rank` static dimensions */
} infer_abi_tensor_t;

/* Runs the model once. `buffers` holds one pointer per input, then one per
 * output, each to a dense buffer of the declared dtype and shape, then
 * (abi_version >= 2) one to `workspace_size` bytes of scratch memory,
 * 64-byte aligned (may be NULL when the size is 0). Outputs are written in
 * full. Reentrant: concurrent calls with different buffers (and different
 * workspaces) are safe. */
typedef void (*infer_abi_run_fn)(void *const *buffers);

typedef struct infer_abi_model {
  uint32_t abi_version; /* INFER_ABI_VERSION at compile time */
  uint32_t num_inputs;
  uint32_t num_outputs;
  uint32_t reserved;
  const char *name;
  const infer_abi_tensor_t *inputs;
  const infer_abi_tensor_t *outputs;
  uint64_t workspace_size; /* bytes of scratch memory a run needs; version
                              1 models take no workspace pointer */
  infer_abi_run_fn run;
} infer_abi_model_t;

#ifdef __cplusplus
}
#endif

#endif /* INFER_RUNTIME_ABI_H */
