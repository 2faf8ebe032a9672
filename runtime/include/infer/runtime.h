/*===- runtime.h - the infer runtime C API ---------------------*- C -*-===*
 *
 * The thin runtime that loads and runs what infer-compile emits. It never
 * depends on the compiler; the contract with generated code is abi.h.
 *
 *===--------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_RUNTIME_H
#define INFER_RUNTIME_RUNTIME_H

#include "infer/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's version as "MAJOR.MINOR.PATCH". */
const char *infer_runtime_version(void);

#ifdef __cplusplus
}
#endif

#endif /* INFER_RUNTIME_RUNTIME_H */
