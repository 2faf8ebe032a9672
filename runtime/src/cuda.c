/*===- cuda.c - running CUDA models through the driver API --------------===*
 *
 * The runtime links nothing from CUDA: it finds the driver with
 * dlopen("libcuda.so.1") when a CUDA model is loaded, so it builds and runs
 * CPU models where no CUDA is installed, and a CUDA model on a machine
 * without a driver or a device fails to load with a status that says so.
 *
 * A loaded model owns a context (the device's primary context), its module
 * (the cubin for the device's architecture when the model has one, else PTX
 * through the driver's JIT), one stream, its weights (uploaded once, at
 * load), and device buffers for its inputs, outputs and workspace. A run copies
 * the inputs in, runs the launches of the schedule (captured once into a CUDA
 * graph and replayed, unless INFER_CUDA_GRAPHS=0), copies the outputs out and
 * waits. Runs of one model take a mutex: they share the device buffers.
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "cuda.h"
#include "cuda_driver.h"

#include "dynamic.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct infer_cuda_model {
  struct driver driver;
  const infer_abi_model_t *abi;
  CUdevice device;
  CUcontext context;
  CUmodule module;
  CUstream stream;
  CUfunction *functions; /* one per launch */
  CUdeviceptr *buffers;  /* inputs, outputs, then the workspace */
  CUdeviceptr *weights;  /* one per infer_abi_cuda.weights entry */
  size_t *sizes;         /* bytes of each buffer */
  uint64_t *params;      /* every launch's parameter values, in order */
  void **param_pointers; /* one pointer per parameter, into `params` */
  CUdeviceptr status;    /* the run-time checks' status word, or 0 */
  CUgraphExec graph;     /* the captured launches, or NULL */
  CUevent *events;       /* profiled runs: one before each launch and one
                            after the last, made at the first such run */
  int use_graph;
  pthread_mutex_t lock;
};

#define CHECK(call, expr)                                                      \
  do {                                                                         \
    CUresult result_ = (expr);                                                 \
    if (result_ != CUDA_SUCCESS) {                                             \
      return infer_cuda_driver_error(&m->driver, result_, call, m->abi->name); \
    }                                                                          \
  } while (0)

static size_t tensor_bytes(const infer_abi_tensor_t *t) {
  size_t count = 1;
  for (int32_t d = 0; d < t->rank; ++d) {
    count *= (size_t)t->shape[d];
  }
  size_t element = infer_dtype_size((infer_dtype_t)t->dtype);
  return count * element;
}

/* The image to load: the cubin for this device's architecture, else the
 * first PTX (the driver compiles it for the device). */
static const void *pick_image(struct infer_cuda_model *m, char *arch,
                              size_t arch_size) {
  int major = 0, minor = 0;
  m->driver.DeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, m->device);
  m->driver.DeviceGetAttribute(
      &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, m->device);
  snprintf(arch, arch_size, "sm_%d%d", major, minor);
  const infer_abi_cuda_t *cuda = m->abi->cuda;
  for (uint32_t i = 0; i < cuda->num_images; ++i) {
    const infer_abi_cuda_image_t *image = &cuda->images[i];
    if (image->cubin && image->arch && strcmp(image->arch, arch) == 0) {
      return image->cubin;
    }
  }
  return cuda->num_images > 0 ? cuda->images[0].ptx : NULL;
}

static infer_status_t set_up(struct infer_cuda_model *m) {
  const infer_abi_model_t *abi = m->abi;
  const infer_abi_cuda_t *cuda = abi->cuda;
  CHECK("cuInit", m->driver.Init(0));
  int count = 0;
  CHECK("cuDeviceGetCount", m->driver.DeviceGetCount(&count));
  if (count < 1) {
    return infer_status_make(INFER_UNAVAILABLE,
                             "model '%s' runs on an NVIDIA GPU, but the CUDA "
                             "driver sees no device",
                             abi->name);
  }
  CHECK("cuDeviceGet", m->driver.DeviceGet(&m->device, 0));
  CHECK("cuDevicePrimaryCtxRetain",
        m->driver.DevicePrimaryCtxRetain(&m->context, m->device));
  CHECK("cuCtxSetCurrent", m->driver.CtxSetCurrent(m->context));
  char arch[16];
  const void *image = pick_image(m, arch, sizeof(arch));
  if (!image) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' has no GPU image", abi->name);
  }
  CUresult loaded = m->driver.ModuleLoadData(&m->module, image);
  if (loaded != CUDA_SUCCESS) {
    return infer_status_make(
        INFER_UNAVAILABLE,
        "model '%s': the device (%s) cannot load its kernels: %s; compile "
        "with --gpu-arch %s",
        abi->name, arch, infer_cuda_error_name(&m->driver, loaded), arch);
  }
  CHECK("cuStreamCreate",
        m->driver.StreamCreate(&m->stream, CU_STREAM_NON_BLOCKING));

  size_t num_buffers = abi->num_inputs + abi->num_outputs + 1;
  size_t num_params = 0;
  for (uint32_t i = 0; i < cuda->num_launches; ++i) {
    num_params += cuda->launches[i].num_args;
  }
  m->functions = calloc(cuda->num_launches + 1, sizeof(CUfunction));
  m->buffers = calloc(num_buffers, sizeof(CUdeviceptr));
  m->sizes = calloc(num_buffers, sizeof(size_t));
  m->params = calloc(num_params + 1, sizeof(uint64_t));
  m->param_pointers = calloc(num_params + 1, sizeof(void *));
  if (!m->functions || !m->buffers || !m->sizes || !m->params ||
      !m->param_pointers) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  for (uint32_t i = 0; i < abi->num_inputs; ++i) {
    m->sizes[i] = tensor_bytes(&abi->inputs[i]);
  }
  for (uint32_t i = 0; i < abi->num_outputs; ++i) {
    m->sizes[abi->num_inputs + i] = tensor_bytes(&abi->outputs[i]);
  }
  m->sizes[num_buffers - 1] = (size_t)abi->workspace_size;
  for (size_t i = 0; i < num_buffers; ++i) {
    if (m->sizes[i] > 0) {
      CHECK("cuMemAlloc", m->driver.MemAlloc(&m->buffers[i], m->sizes[i]));
    }
  }
  /* The weights, once. */
  m->weights = calloc(cuda->num_weights + 1, sizeof(CUdeviceptr));
  if (!m->weights) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  for (uint32_t i = 0; i < cuda->num_weights; ++i) {
    const infer_abi_cuda_weight_t *weight = &cuda->weights[i];
    if (weight->size == 0) {
      continue;
    }
    CHECK("cuMemAlloc",
          m->driver.MemAlloc(&m->weights[i], (size_t)weight->size));
    CHECK("cuMemcpyHtoDAsync",
          m->driver.MemcpyHtoDAsync(m->weights[i], weight->data,
                                    (size_t)weight->size, m->stream));
  }
  CHECK("cuStreamSynchronize", m->driver.StreamSynchronize(m->stream));

  /* Parameter values: device addresses are fixed for the model's life, so
   * they are computed once (and a captured graph stays valid). Each value
   * sits in an 8-byte slot; the driver copies as many bytes as the kernel's
   * parameter has, from the slot's start: on little-endian hosts those are
   * the low bytes, i.e. the value narrowed to the parameter's width. */
  size_t p = 0;
  for (uint32_t i = 0; i < cuda->num_launches; ++i) {
    const infer_abi_cuda_launch_t *launch = &cuda->launches[i];
    CHECK("cuModuleGetFunction",
          m->driver.ModuleGetFunction(&m->functions[i], m->module,
                                      launch->kernel));
    for (uint32_t a = 0; a < launch->num_args; ++a, ++p) {
      const infer_abi_cuda_arg_t *arg = &launch->args[a];
      uint64_t value = (uint64_t)arg->value;
      switch (arg->kind) {
      case INFER_CUDA_ARG_INPUT:
        value = m->buffers[arg->index];
        break;
      case INFER_CUDA_ARG_OUTPUT:
        value = m->buffers[abi->num_inputs + arg->index];
        break;
      case INFER_CUDA_ARG_WORKSPACE:
        value = m->buffers[num_buffers - 1] + (uint64_t)arg->value;
        break;
      case INFER_CUDA_ARG_WEIGHT:
        if ((uint32_t)arg->index >= cuda->num_weights) {
          return infer_status_make(INFER_INVALID_ARGUMENT,
                                   "model '%s': launch %u names weight %d of "
                                   "%u",
                                   abi->name, (unsigned)i, (int)arg->index,
                                   (unsigned)cuda->num_weights);
        }
        value = m->weights[arg->index];
        break;
      case INFER_CUDA_ARG_STATUS:
        if (!m->status) {
          CHECK("cuMemAlloc", m->driver.MemAlloc(&m->status, sizeof(int32_t)));
        }
        value = m->status;
        break;
      case INFER_CUDA_ARG_F32: {
        /* A 4-byte parameter: its bits in the slot's first bytes. */
        uint32_t bits = (uint32_t)arg->value;
        value = 0;
        memcpy(&value, &bits, sizeof(bits));
        break;
      }
      default:
        break;
      }
      m->params[p] = value;
      m->param_pointers[p] = &m->params[p];
    }
  }
  const char *graphs = getenv("INFER_CUDA_GRAPHS");
  m->use_graph = !(graphs && strcmp(graphs, "0") == 0);
  return NULL;
}

infer_status_t infer_cuda_model_create(const infer_abi_model_t *abi,
                                       struct infer_cuda_model **out) {
  *out = NULL;
  struct infer_cuda_model *m = calloc(1, sizeof(*m));
  if (!m) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  m->abi = abi;
  pthread_mutex_init(&m->lock, NULL);
  infer_status_t status = infer_cuda_open_driver(&m->driver, abi->name);
  if (!status) {
    status = set_up(m);
  }
  if (status) {
    infer_cuda_model_destroy(m);
    return status;
  }
  *out = m;
  return NULL;
}

/* Enqueues every launch of the schedule on the model's stream; with
 * `timed`, records m->events[i] before launch i and the last one after. */
static infer_status_t enqueue_launches(struct infer_cuda_model *m, int timed) {
  const infer_abi_cuda_t *cuda = m->abi->cuda;
  size_t p = 0;
  for (uint32_t i = 0; i < cuda->num_launches; ++i) {
    const infer_abi_cuda_launch_t *launch = &cuda->launches[i];
    if (timed) {
      CHECK("cuEventRecord", m->driver.EventRecord(m->events[i], m->stream));
    }
    CHECK("cuLaunchKernel",
          m->driver.LaunchKernel(
              m->functions[i], launch->grid[0], launch->grid[1],
              launch->grid[2], launch->block[0], launch->block[1],
              launch->block[2], 0, m->stream, &m->param_pointers[p], NULL));
    p += launch->num_args;
  }
  if (timed) {
    CHECK("cuEventRecord",
          m->driver.EventRecord(m->events[cuda->num_launches], m->stream));
  }
  return NULL;
}

/* Launches the schedule: replays the captured graph (capturing it on the
 * first run) or enqueues the launches one by one (always when `timed`). */
static infer_status_t execute(struct infer_cuda_model *m, int timed) {
  const infer_abi_model_t *abi = m->abi;
  if (timed) {
    return enqueue_launches(m, 1);
  }
  if (m->use_graph && !m->graph) {
    CUgraph graph = NULL;
    CHECK("cuStreamBeginCapture",
          m->driver.StreamBeginCapture(m->stream,
                                       CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    infer_status_t status = enqueue_launches(m, 0);
    CUresult ended = m->driver.StreamEndCapture(m->stream, &graph);
    if (status) {
      return status;
    }
    if (ended != CUDA_SUCCESS) {
      return infer_cuda_driver_error(&m->driver, ended, "cuStreamEndCapture",
                                     abi->name);
    }
    CUresult made = m->driver.GraphInstantiate(&m->graph, graph, 0);
    m->driver.GraphDestroy(graph);
    if (made != CUDA_SUCCESS) {
      m->graph = NULL;
      return infer_cuda_driver_error(&m->driver, made, "cuGraphInstantiate",
                                     abi->name);
    }
  }
  if (m->use_graph) {
    CHECK("cuGraphLaunch", m->driver.GraphLaunch(m->graph, m->stream));
    return NULL;
  }
  return enqueue_launches(m, 0);
}

/* Where a run's inputs come from and its outputs go: host buffers, or
 * device addresses. */
struct io {
  void *const *host; /* inputs, then outputs; NULL for device I/O */
  const uint64_t *device_inputs;
  const uint64_t *device_outputs;
  double *times_ns; /* profiled runs: each launch's start, then the end */
};

static infer_status_t run_locked(struct infer_cuda_model *m,
                                 const struct io *io) {
  static const int32_t kNoFailure = 0;
  const infer_abi_model_t *abi = m->abi;
  CHECK("cuCtxSetCurrent", m->driver.CtxSetCurrent(m->context));
  if (m->status) {
    CHECK("cuMemcpyHtoDAsync",
          m->driver.MemcpyHtoDAsync(m->status, &kNoFailure, sizeof(int32_t),
                                    m->stream));
  }
  for (uint32_t i = 0; i < abi->num_inputs; ++i) {
    if (m->sizes[i] == 0) {
      continue;
    }
    if (io->host) {
      CHECK("cuMemcpyHtoDAsync",
            m->driver.MemcpyHtoDAsync(m->buffers[i], io->host[i], m->sizes[i],
                                      m->stream));
    } else {
      CHECK("cuMemcpyDtoDAsync",
            m->driver.MemcpyDtoDAsync(m->buffers[i], io->device_inputs[i],
                                      m->sizes[i], m->stream));
    }
  }
  infer_status_t status = execute(m, io->times_ns != NULL);
  if (status) {
    return status;
  }
  for (uint32_t i = 0; i < abi->num_outputs; ++i) {
    size_t b = abi->num_inputs + i;
    if (m->sizes[b] == 0) {
      continue;
    }
    if (io->host) {
      CHECK("cuMemcpyDtoHAsync",
            m->driver.MemcpyDtoHAsync(io->host[b], m->buffers[b], m->sizes[b],
                                      m->stream));
    } else {
      CHECK("cuMemcpyDtoDAsync",
            m->driver.MemcpyDtoDAsync(io->device_outputs[i], m->buffers[b],
                                      m->sizes[b], m->stream));
    }
  }
  int32_t failed_check = 0;
  if (m->status) {
    CHECK("cuMemcpyDtoHAsync",
          m->driver.MemcpyDtoHAsync(&failed_check, m->status, sizeof(int32_t),
                                    m->stream));
  }
  CHECK("cuStreamSynchronize", m->driver.StreamSynchronize(m->stream));
  if (failed_check != 0) {
    return infer_check_failure(abi, abi->name, failed_check);
  }
  for (uint32_t i = 0; io->times_ns && i <= abi->cuda->num_launches; ++i) {
    float ms = 0;
    CHECK("cuEventElapsedTime",
          m->driver.EventElapsedTime(&ms, m->events[0], m->events[i]));
    io->times_ns[i] = (double)ms * 1e6;
  }
  return NULL;
}

/* Destroys the events made so far and frees `events`. */
static void destroy_events(struct infer_cuda_model *m, CUevent *events) {
  for (uint32_t i = 0; events && i <= m->abi->cuda->num_launches; ++i) {
    if (events[i]) {
      m->driver.EventDestroy(events[i]);
    }
  }
  free(events);
}

/* The events of profiled runs, made once. */
static infer_status_t make_events(struct infer_cuda_model *m) {
  const infer_abi_model_t *abi = m->abi;
  if (m->events) {
    return NULL;
  }
  if (!m->driver.EventCreate || !m->driver.EventRecord ||
      !m->driver.EventElapsedTime || !m->driver.EventDestroy) {
    return infer_status_make(INFER_UNAVAILABLE,
                             "model '%s': the CUDA driver has no events "
                             "(cuEventCreate, cuEventRecord, "
                             "cuEventElapsedTime), which profiled runs need",
                             abi->name);
  }
  uint32_t count = abi->cuda->num_launches + 1;
  CUevent *events = calloc(count, sizeof(CUevent));
  if (!events) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  CUresult result = m->driver.CtxSetCurrent(m->context);
  for (uint32_t i = 0; i < count && result == CUDA_SUCCESS; ++i) {
    result = m->driver.EventCreate(&events[i], 0);
  }
  if (result != CUDA_SUCCESS) {
    destroy_events(m, events);
    return infer_cuda_driver_error(&m->driver, result, "cuEventCreate",
                                   abi->name);
  }
  m->events = events;
  return NULL;
}

static infer_status_t run_serialized(struct infer_cuda_model *m,
                                     const struct io *io) {
  pthread_mutex_lock(&m->lock);
  infer_status_t status = run_locked(m, io);
  pthread_mutex_unlock(&m->lock);
  return status;
}

infer_status_t infer_cuda_model_run(struct infer_cuda_model *m,
                                    void *const *host_buffers) {
  struct io io = {host_buffers, NULL, NULL, NULL};
  return run_serialized(m, &io);
}

infer_status_t infer_cuda_model_run_profiled(struct infer_cuda_model *m,
                                             void *const *host_buffers,
                                             double *times_ns) {
  struct io io = {host_buffers, NULL, NULL, times_ns};
  pthread_mutex_lock(&m->lock);
  infer_status_t status = make_events(m);
  if (!status) {
    status = run_locked(m, &io);
  }
  pthread_mutex_unlock(&m->lock);
  return status;
}

infer_status_t infer_cuda_model_run_device(struct infer_cuda_model *m,
                                           const uint64_t *inputs,
                                           const uint64_t *outputs) {
  struct io io = {NULL, inputs, outputs, NULL};
  return run_serialized(m, &io);
}

infer_status_t infer_cuda_device_info(struct infer_cuda_model *m,
                                      infer_device_info_t *out) {
  return infer_cuda_query_device(&m->driver, m->device, out);
}

size_t infer_cuda_model_buffer_size(const struct infer_cuda_model *m,
                                    size_t index) {
  return m->sizes[index];
}

infer_status_t infer_cuda_alloc(struct infer_cuda_model *m, size_t bytes,
                                uint64_t *out) {
  CUdeviceptr ptr = 0;
  CHECK("cuCtxSetCurrent", m->driver.CtxSetCurrent(m->context));
  CHECK("cuMemAlloc", m->driver.MemAlloc(&ptr, bytes));
  *out = (uint64_t)ptr;
  return NULL;
}

infer_status_t infer_cuda_free(struct infer_cuda_model *m, uint64_t ptr) {
  CHECK("cuCtxSetCurrent", m->driver.CtxSetCurrent(m->context));
  CHECK("cuMemFree", m->driver.MemFree((CUdeviceptr)ptr));
  return NULL;
}

/* Synchronous copies on the model's stream (serialized with its runs). */
static infer_status_t copy_locked(struct infer_cuda_model *m, uint64_t device,
                                  void *host, size_t bytes, int to_device) {
  CHECK("cuCtxSetCurrent", m->driver.CtxSetCurrent(m->context));
  if (to_device) {
    CHECK(
        "cuMemcpyHtoDAsync",
        m->driver.MemcpyHtoDAsync((CUdeviceptr)device, host, bytes, m->stream));
  } else {
    CHECK(
        "cuMemcpyDtoHAsync",
        m->driver.MemcpyDtoHAsync(host, (CUdeviceptr)device, bytes, m->stream));
  }
  CHECK("cuStreamSynchronize", m->driver.StreamSynchronize(m->stream));
  return NULL;
}

infer_status_t infer_cuda_copy(struct infer_cuda_model *m, uint64_t device,
                               void *host, size_t bytes, int to_device) {
  pthread_mutex_lock(&m->lock);
  infer_status_t status = copy_locked(m, device, host, bytes, to_device);
  pthread_mutex_unlock(&m->lock);
  return status;
}

void infer_cuda_model_destroy(struct infer_cuda_model *m) {
  if (!m) {
    return;
  }
  struct driver *d = &m->driver;
  if (d->library) {
    if (m->context) {
      d->CtxSetCurrent(m->context);
    }
    if (m->graph) {
      d->GraphExecDestroy(m->graph);
    }
    destroy_events(m, m->events);
    if (m->buffers) {
      size_t n = m->abi->num_inputs + m->abi->num_outputs + 1;
      for (size_t i = 0; i < n; ++i) {
        if (m->buffers[i]) {
          d->MemFree(m->buffers[i]);
        }
      }
    }
    if (m->status) {
      d->MemFree(m->status);
    }
    if (m->weights) {
      for (uint32_t i = 0; i < m->abi->cuda->num_weights; ++i) {
        if (m->weights[i]) {
          d->MemFree(m->weights[i]);
        }
      }
    }
    if (m->stream) {
      d->StreamDestroy(m->stream);
    }
    if (m->module) {
      d->ModuleUnload(m->module);
    }
    if (m->context) {
      d->DevicePrimaryCtxRelease(m->device);
    }
    dlclose(d->library);
  }
  free(m->functions);
  free(m->buffers);
  free(m->weights);
  free(m->sizes);
  free(m->params);
  free(m->param_pointers);
  pthread_mutex_destroy(&m->lock);
  free(m);
}
