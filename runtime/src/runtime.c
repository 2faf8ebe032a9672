/*===- runtime.c - the infer runtime ----------------------------------===*/

#include "infer/runtime.h"

const char *infer_runtime_version(void) { return "0.1.0"; }
