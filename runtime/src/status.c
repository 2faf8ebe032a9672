/*===- status.c - infer runtime status values -------------------------===*/

#include "infer/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct infer_status {
  infer_status_code_t code;
  char message[];
};

/* Returned when allocating a status fails: never freed. */
static struct {
  infer_status_code_t code;
  char message[32];
} out_of_memory = {INFER_OUT_OF_MEMORY, "out of memory"};

infer_status_t infer_status_make(infer_status_code_t code, const char *format,
                                 ...) {
  if (code == INFER_OK) {
    return NULL;
  }
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (length < 0) {
    length = 0;
  }
  struct infer_status *status = malloc(sizeof(*status) + (size_t)length + 1);
  if (!status) {
    return (infer_status_t)&out_of_memory;
  }
  status->code = code;
  va_start(args, format);
  vsnprintf(status->message, (size_t)length + 1, format, args);
  va_end(args);
  return status;
}

infer_status_code_t infer_status_code(infer_status_t status) {
  return status ? status->code : INFER_OK;
}

const char *infer_status_message(infer_status_t status) {
  return status ? status->message : "";
}

const char *infer_status_code_name(infer_status_code_t code) {
  switch (code) {
  case INFER_OK:
    return "OK";
  case INFER_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case INFER_NOT_FOUND:
    return "NOT_FOUND";
  case INFER_OUT_OF_MEMORY:
    return "OUT_OF_MEMORY";
  case INFER_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case INFER_INTERNAL:
    return "INTERNAL";
  case INFER_UNAVAILABLE:
    return "UNAVAILABLE";
  }
  return "UNKNOWN";
}

void infer_status_free(infer_status_t status) {
  if (status && status != (infer_status_t)&out_of_memory) {
    free(status);
  }
}
