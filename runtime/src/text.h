/*===- text.h - bounded message building (internal) -------------*- C -*-===*
 *
 * Status messages are built in fixed arrays on the stack: a message that
 * does not fit is cut and ends in "...".
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_TEXT_H
#define INFER_RUNTIME_SRC_TEXT_H

#include "infer/abi.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *data;
  size_t capacity;
  size_t length;
} infer_text_t;

void infer_text_append(infer_text_t *text, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* "[1,3,224,224] (float32)" */
void infer_text_append_type(infer_text_t *text, int32_t dtype, int32_t rank,
                            const int64_t *shape);

/* "'a', 'b'" for the names of `count` tensors ("(none)" for none). */
void infer_text_append_names(infer_text_t *text,
                             const infer_abi_tensor_t *tensors, size_t count);

#endif /* INFER_RUNTIME_SRC_TEXT_H */
