/*===- cuda_driver.h - the CUDA driver API, found at run time -----*- C -*-===*
 *
 * The runtime links nothing from CUDA: it finds the driver with
 * dlopen("libcuda.so.1") when a CUDA model is loaded (cuda.c), through the
 * entry points below. Internal to the runtime.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_CUDA_DRIVER_H
#define INFER_RUNTIME_SRC_CUDA_DRIVER_H

#include "infer/runtime.h"
#include "infer/status.h"

#include <stddef.h>

/* The few driver types and constants the runtime uses (CUDA's cuda.h is
 * not needed). */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
enum {
  CUDA_SUCCESS = 0,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_STREAM_NON_BLOCKING = 1,
  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
};

struct driver {
  void *library;
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*DevicePrimaryCtxRelease)(CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*StreamBeginCapture)(CUstream, int);
  CUresult (*StreamEndCapture)(CUstream, CUgraph *);
  CUresult (*GraphInstantiate)(CUgraphExec *, CUgraph, unsigned long long);
  CUresult (*GraphLaunch)(CUgraphExec, CUstream);
  CUresult (*GraphExecDestroy)(CUgraphExec);
  CUresult (*GraphDestroy)(CUgraph);
  CUresult (*GetErrorName)(CUresult, const char **);
  /* Optional (profiled runs only): NULL where the driver lacks them. */
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*DeviceGetName)(char *, int, CUdevice); /* optional */
};

/* Opens libcuda.so.1 and finds its entry points (the optional ones may be
 * NULL); UNAVAILABLE naming `model` when there is no driver or it lacks a
 * required one. */
infer_status_t infer_cuda_open_driver(struct driver *d, const char *model);

/* The name of a driver error (CUDA_ERROR_UNKNOWN if the driver has none). */
const char *infer_cuda_error_name(const struct driver *d, CUresult result);

/* A status for a failed driver call: the call, the model, the CUDA error. */
infer_status_t infer_cuda_driver_error(const struct driver *d, CUresult result,
                                       const char *call, const char *model);

/* `device`'s name, compute capability and roofline ceilings from its
 * attributes (infer_model_device_info). */
infer_status_t infer_cuda_query_device(const struct driver *d, CUdevice device,
                                       infer_device_info_t *out);

#endif /* INFER_RUNTIME_SRC_CUDA_DRIVER_H */
