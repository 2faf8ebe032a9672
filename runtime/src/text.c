/*===- text.c - bounded message building for status texts -----------===*/

#include "text.h"

#include "infer/tensor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void infer_text_append(infer_text_t *text, const char *format, ...) {
  if (text->length + 1 >= text->capacity) {
    return;
  }
  va_list args;
  va_start(args, format);
  size_t room = text->capacity - text->length;
  int written = vsnprintf(text->data + text->length, room, format, args);
  va_end(args);
  if (written < 0) {
    return;
  }
  if ((size_t)written >= room) {
    text->length = text->capacity - 1;
    if (text->capacity >= 4) {
      memcpy(text->data + text->capacity - 4, "...", 4);
    }
    return;
  }
  text->length += (size_t)written;
}

void infer_text_append_type(infer_text_t *text, int32_t dtype, int32_t rank,
                            const int64_t *shape) {
  infer_text_append(text, "[");
  for (int32_t i = 0; i < rank; ++i) {
    infer_text_append(text, i ? ",%lld" : "%lld", (long long)shape[i]);
  }
  infer_text_append(text, "] (%s)", infer_dtype_name((infer_dtype_t)dtype));
}

void infer_text_append_names(infer_text_t *text,
                             const infer_abi_tensor_t *tensors, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    infer_text_append(text, i ? ", '%s'" : "'%s'",
                      tensors[i].name ? tensors[i].name : "");
  }
  if (count == 0) {
    infer_text_append(text, "(none)");
  }
}
