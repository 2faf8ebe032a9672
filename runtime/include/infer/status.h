/*===- status.h - infer runtime status values ------------------*- C -*-===*
 *
 * Every fallible runtime call returns an infer_status_t: NULL means success,
 * anything else owns a code and a message and must be freed with
 * infer_status_free.
 *
 *===--------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_STATUS_H
#define INFER_RUNTIME_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum infer_status_code_e {
  INFER_OK = 0,
  INFER_INVALID_ARGUMENT = 1,
  INFER_NOT_FOUND = 2,
  INFER_OUT_OF_MEMORY = 3,
  INFER_UNIMPLEMENTED = 4,
  INFER_INTERNAL = 5,
  INFER_UNAVAILABLE = 6, /* the hardware or driver a model needs is absent */
} infer_status_code_t;

typedef struct infer_status *infer_status_t;

/* A new status with a printf-style message; NULL for INFER_OK. */
infer_status_t infer_status_make(infer_status_code_t code, const char *format,
                                 ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* INFER_OK for NULL. */
infer_status_code_t infer_status_code(infer_status_t status);

/* "" for NULL; owned by the status. */
const char *infer_status_message(infer_status_t status);

/* The name of a code, e.g. "INVALID_ARGUMENT". */
const char *infer_status_code_name(infer_status_code_t code);

void infer_status_free(infer_status_t status);

#ifdef __cplusplus
}
#endif

#endif /* INFER_RUNTIME_STATUS_H */
