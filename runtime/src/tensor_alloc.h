/*===- tensor_alloc.h - tensors whose buffer the caller fills --*- C -*-===*
 *
 * Internal to the runtime: the outputs of a static model are written in
 * full by the compiled code, so their buffers are not zero-filled first
 * (for a large output that is a pass over memory that the call would
 * otherwise pay on every run).
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_TENSOR_ALLOC_H
#define INFER_RUNTIME_SRC_TENSOR_ALLOC_H

#include "infer/tensor.h"

/* infer_tensor_create without the zero fill: the contents are unspecified
 * until the caller writes every byte. */
infer_status_t infer_tensor_create_uninitialized(infer_dtype_t dtype,
                                                 int32_t rank,
                                                 const int64_t *shape,
                                                 infer_tensor_t *out_tensor);

#endif /* INFER_RUNTIME_SRC_TENSOR_ALLOC_H */
