/*===- runtime.c - the infer runtime ----------------------------------===*/

#include "infer/runtime.h"

#ifndef INFER_RUNTIME_VERSION
#define INFER_RUNTIME_VERSION "0.1.0"
#endif

const char *infer_runtime_version(void) { return INFER_RUNTIME_VERSION; }
