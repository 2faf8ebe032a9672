/*===- tensor.h - dense host tensors for the infer runtime -----*- C -*-===*
 *
 * An infer_tensor_t is a dense, row-major host buffer with a dtype and a
 * static shape: what a compiled model reads as an input and writes as an
 * output. A tensor either owns its buffer (infer_tensor_create: zero-filled,
 * 64-byte aligned) or wraps one the caller owns (infer_tensor_wrap).
 *
 * Tensors are immutable in shape and dtype after creation; their data may be
 * written through infer_tensor_data. A tensor may be read from several
 * threads at once.
 *
 *===--------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_TENSOR_H
#define INFER_RUNTIME_TENSOR_H

#include "infer/abi.h"
#include "infer/status.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Alignment, in bytes, of the buffers infer_tensor_create allocates. */
#define INFER_TENSOR_ALIGNMENT 64

typedef struct infer_tensor *infer_tensor_t;

/* Bytes per element of `dtype`; 0 for INFER_DTYPE_INVALID and for values
 * that are not an infer_dtype_t. */
size_t infer_dtype_size(infer_dtype_t dtype);

/* The NumPy-style name of `dtype` ("float32", "int64", "bool", ...);
 * "invalid" for values that are not an infer_dtype_t. Never NULL. */
const char *infer_dtype_name(infer_dtype_t dtype);

/* A new zero-filled tensor that owns a 64-byte aligned buffer. `shape` holds
 * `rank` dimensions (may be NULL when rank is 0: a scalar). Fails with
 * INVALID_ARGUMENT for an unknown dtype, a negative rank or dimension, or a
 * byte size that does not fit in size_t; OUT_OF_MEMORY when allocation
 * fails. */
infer_status_t infer_tensor_create(infer_dtype_t dtype, int32_t rank,
                                   const int64_t *shape,
                                   infer_tensor_t *out_tensor);

/* A new tensor over `data`, which the caller owns and must keep alive (and
 * large enough for the shape) until the tensor is released. No copy is made.
 * `data` may be NULL only when the tensor has no elements. Same checks as
 * infer_tensor_create. */
infer_status_t infer_tensor_wrap(infer_dtype_t dtype, int32_t rank,
                                 const int64_t *shape, void *data,
                                 infer_tensor_t *out_tensor);

/* Frees the tensor (and its buffer when it owns one). Accepts NULL. */
void infer_tensor_release(infer_tensor_t tensor);

/* Getters; each returns 0 (or NULL) for a NULL tensor. */
infer_dtype_t infer_tensor_dtype(infer_tensor_t tensor);
int32_t infer_tensor_rank(infer_tensor_t tensor);
/* `rank` dimensions, owned by the tensor. */
const int64_t *infer_tensor_shape(infer_tensor_t tensor);
void *infer_tensor_data(infer_tensor_t tensor);
/* The product of the dimensions (1 for a scalar). */
size_t infer_tensor_num_elements(infer_tensor_t tensor);
/* num_elements * infer_dtype_size(dtype). */
size_t infer_tensor_byte_size(infer_tensor_t tensor);

#ifdef __cplusplus
}
#endif

#endif /* INFER_RUNTIME_TENSOR_H */
