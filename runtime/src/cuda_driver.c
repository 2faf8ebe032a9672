/*===- cuda_driver.c - the CUDA driver API, found at run time ----------===*/

#define _POSIX_C_SOURCE 200809L

#include "cuda_driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char *infer_cuda_error_name(const struct driver *d, CUresult result) {
  const char *name = NULL;
  if (d->GetErrorName && d->GetErrorName(result, &name) == CUDA_SUCCESS &&
      name) {
    return name;
  }
  return "CUDA_ERROR_UNKNOWN";
}

infer_status_t infer_cuda_driver_error(const struct driver *d, CUresult result,
                                       const char *call, const char *model) {
  return infer_status_make(INFER_INTERNAL, "model '%s': %s failed: %s (%d)",
                           model, call, infer_cuda_error_name(d, result),
                           (int)result);
}

infer_status_t infer_cuda_open_driver(struct driver *d, const char *model) {
  d->library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!d->library) {
    const char *why = dlerror();
    return infer_status_make(
        INFER_UNAVAILABLE,
        "model '%s' runs on an NVIDIA GPU, but no CUDA driver was found "
        "(dlopen libcuda.so.1: %s)",
        model, why ? why : "not found");
  }
  struct {
    void **slot;
    const char *symbol;
  } symbols[] = {
      {(void **)&d->Init, "cuInit"},
      {(void **)&d->DeviceGetCount, "cuDeviceGetCount"},
      {(void **)&d->DeviceGet, "cuDeviceGet"},
      {(void **)&d->DeviceGetAttribute, "cuDeviceGetAttribute"},
      {(void **)&d->DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
      {(void **)&d->DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
      {(void **)&d->CtxSetCurrent, "cuCtxSetCurrent"},
      {(void **)&d->ModuleLoadData, "cuModuleLoadData"},
      {(void **)&d->ModuleUnload, "cuModuleUnload"},
      {(void **)&d->ModuleGetFunction, "cuModuleGetFunction"},
      {(void **)&d->MemAlloc, "cuMemAlloc_v2"},
      {(void **)&d->MemFree, "cuMemFree_v2"},
      {(void **)&d->MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
      {(void **)&d->MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"},
      {(void **)&d->MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"},
      {(void **)&d->StreamCreate, "cuStreamCreate"},
      {(void **)&d->StreamDestroy, "cuStreamDestroy_v2"},
      {(void **)&d->StreamSynchronize, "cuStreamSynchronize"},
      {(void **)&d->LaunchKernel, "cuLaunchKernel"},
      {(void **)&d->StreamBeginCapture, "cuStreamBeginCapture_v2"},
      {(void **)&d->StreamEndCapture, "cuStreamEndCapture"},
      {(void **)&d->GraphInstantiate, "cuGraphInstantiateWithFlags"},
      {(void **)&d->GraphLaunch, "cuGraphLaunch"},
      {(void **)&d->GraphExecDestroy, "cuGraphExecDestroy"},
      {(void **)&d->GraphDestroy, "cuGraphDestroy"},
      {(void **)&d->GetErrorName, "cuGetErrorName"},
  };
  for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); ++i) {
    *symbols[i].slot = dlsym(d->library, symbols[i].symbol);
    if (!*symbols[i].slot) {
      dlclose(d->library);
      d->library = NULL;
      return infer_status_make(INFER_UNAVAILABLE,
                               "the CUDA driver (libcuda.so.1) has no %s: "
                               "it is older than this runtime needs",
                               symbols[i].symbol);
    }
  }
  *(void **)&d->DeviceGetName = dlsym(d->library, "cuDeviceGetName");
  /* Events time profiled runs only; cuEventElapsedTime_v2 (CUDA 12.8+)
   * keeps the original's signature. */
  *(void **)&d->EventCreate = dlsym(d->library, "cuEventCreate");
  *(void **)&d->EventRecord = dlsym(d->library, "cuEventRecord");
  *(void **)&d->EventDestroy = dlsym(d->library, "cuEventDestroy_v2");
  *(void **)&d->EventElapsedTime = dlsym(d->library, "cuEventElapsedTime_v2");
  if (!d->EventElapsedTime) {
    *(void **)&d->EventElapsedTime = dlsym(d->library, "cuEventElapsedTime");
  }
  return NULL;
}

/* f32 lanes per multiprocessor of compute capability major.minor. */
static int f32_lanes(int major, int minor) {
  switch (major) {
  case 3:
    return 192;
  case 6:
    return minor == 0 ? 64 : 128;
  case 7:
    return 64;
  case 8:
    return minor == 0 ? 64 : 128;
  default:
    return 128; /* 5.x, 9.x, 10.x, 12.x */
  }
}

infer_status_t infer_cuda_query_device(const struct driver *d, CUdevice device,
                                       infer_device_info_t *out) {
  memset(out, 0, sizeof(*out));
  if (!d->DeviceGetName || d->DeviceGetName(out->name, (int)sizeof(out->name),
                                            device) != CUDA_SUCCESS) {
    snprintf(out->name, sizeof(out->name), "NVIDIA GPU");
  }
  out->name[sizeof(out->name) - 1] = '\0';
  int clock_khz = 0, memory_khz = 0, bus_bits = 0;
  struct {
    int *value;
    int attribute;
  } wanted[] = {
      {&out->compute_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {&out->compute_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
      {&out->multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {&clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
      {&memory_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
      {&bus_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
  };
  for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); ++i) {
    if (d->DeviceGetAttribute(wanted[i].value, wanted[i].attribute, device) !=
        CUDA_SUCCESS) {
      *wanted[i].value = 0;
    }
  }
  out->peak_gflops = (double)out->multiprocessors *
                     f32_lanes(out->compute_major, out->compute_minor) * 2.0 *
                     clock_khz * 1e-6;
  out->bandwidth_gbs = 2.0 * memory_khz * 1e3 * (bus_bits / 8.0) * 1e-9;
  return NULL;
}
