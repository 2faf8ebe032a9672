/*===- emulator.c - a CUDA driver that runs the kernels on the CPU ------===*
 *
 * For tests on machines without a GPU. Built as libcuda.so.1 in the build
 * tree (never installed): with its directory on LD_LIBRARY_PATH, the
 * runtime's CUDA backend (runtime/src/cuda.c) finds it in place of the
 * NVIDIA driver, so the whole backend runs: module loading, device
 * buffers, the launch schedule, CUDA graph capture and replay, device
 * tensors. The kernels come from INFER_EMU_KERNELS, the <name>.emu.so that
 * `infer-compile --target=cuda --gpu-emulation` builds from the same IR as
 * the PTX (targets/cuda/EmulationLibrary.cpp); the PTX image itself is not
 * read.
 *
 * Each GPU thread of a block runs as a fiber (ucontext) on one OS thread.
 * A fiber runs until it finishes, reaches a barrier (it waits for every
 * unfinished thread of the block) or a warp shuffle (it waits for every
 * unfinished thread of its warp; then each gets its partner lane's value).
 * Threads that wait at a point the others never reach are reported, and
 * the launch fails. Device memory is host memory. It is a test instrument,
 * not a performance model: nothing about speed carries over to a GPU.
 *
 *===------------------------------------------------------------------===*/

#define _GNU_SOURCE

#include "targets/cuda/EmulatorInterface.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

typedef int CUresult;
enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};

typedef void (*entry_fn)(void **params);

/*===-- Fibers -----------------------------------------------------------===*/

enum { RUNNABLE, AT_BARRIER, AT_SHUFFLE, DONE };
enum { WARP = 32, MAX_SHARED = 8, STACK_BYTES = 64 * 1024 };

struct fiber {
  ucontext_t context;
  int state;
  unsigned thread[3];
  uint32_t value, result; /* a shuffle's operand and answer (bits) */
  int32_t offset, width;
};

static struct {
  struct fiber *fibers;
  char *stacks;
  size_t capacity; /* fibers (and stacks) allocated */
  size_t count;    /* threads of the current block */
  struct fiber *current;
  ucontext_t scheduler;
  unsigned block[3], block_dim[3], grid_dim[3];
  void *shared[MAX_SHARED];
  int64_t shared_bytes[MAX_SHARED];
  entry_fn entry;
  void **params;
} emu;

int64_t infer_emu_id(int32_t which) {
  switch (which) {
  case 0:
  case 1:
  case 2:
    return emu.current->thread[which];
  case 3:
  case 4:
  case 5:
    return emu.block[which - 3];
  case 6:
  case 7:
  case 8:
    return emu.block_dim[which - 6];
  case 9:
  case 10:
  case 11:
    return emu.grid_dim[which - 9];
  default:
    fprintf(stderr, "cuda-emulator: unknown id %d\n", which);
    abort();
  }
}

void infer_emu_barrier(void) {
  struct fiber *self = emu.current;
  self->state = AT_BARRIER;
  swapcontext(&self->context, &emu.scheduler);
}

static uint32_t shuffle(uint32_t bits, int32_t offset, int32_t width) {
  struct fiber *self = emu.current;
  self->value = bits;
  self->offset = offset;
  self->width = width;
  self->state = AT_SHUFFLE;
  swapcontext(&self->context, &emu.scheduler);
  return self->result;
}

float infer_emu_shuffle_xor_f32(float value, int32_t offset, int32_t width) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  bits = shuffle(bits, offset, width);
  memcpy(&value, &bits, sizeof(bits));
  return value;
}

int32_t infer_emu_shuffle_xor_i32(int32_t value, int32_t offset,
                                  int32_t width) {
  return (int32_t)shuffle((uint32_t)value, offset, width);
}

void *infer_emu_shared(int32_t index, int64_t bytes) {
  if (index < 0 || index >= MAX_SHARED) {
    fprintf(stderr, "cuda-emulator: workgroup buffer %d of at most %d\n", index,
            MAX_SHARED);
    abort();
  }
  if (emu.shared_bytes[index] < bytes) {
    free(emu.shared[index]);
    emu.shared[index] = calloc(1, (size_t)bytes);
    emu.shared_bytes[index] = bytes;
  }
  return emu.shared[index];
}

static void run_thread(void) {
  emu.entry(emu.params);
  emu.current->state = DONE;
}

/* Swaps each waiting warp's shuffle values. Returns whether any fiber was
 * released; sets *diverged when a warp waits at a shuffle and a barrier. */
static int release_shuffles(int *diverged) {
  int released = 0;
  for (size_t base = 0; base < emu.count; base += WARP) {
    size_t end = base + WARP < emu.count ? base + WARP : emu.count;
    int shuffling = 0, other = 0;
    for (size_t i = base; i < end; ++i) {
      shuffling += emu.fibers[i].state == AT_SHUFFLE;
      other += emu.fibers[i].state == AT_BARRIER;
    }
    if (shuffling == 0) {
      continue;
    }
    if (other > 0) {
      *diverged = 1;
      continue;
    }
    for (size_t i = base; i < end; ++i) {
      struct fiber *f = &emu.fibers[i];
      if (f->state != AT_SHUFFLE) {
        continue;
      }
      size_t lane = i - base;
      size_t partner = lane ^ (size_t)f->offset;
      struct fiber *p = &emu.fibers[base + partner];
      f->result = partner < (size_t)f->width && base + partner < end &&
                          p->state == AT_SHUFFLE
                      ? p->value
                      : f->value;
    }
    for (size_t i = base; i < end; ++i) {
      if (emu.fibers[i].state == AT_SHUFFLE) {
        emu.fibers[i].state = RUNNABLE;
      }
    }
    released = 1;
  }
  return released;
}

static int run_block(void) {
  for (size_t i = 0; i < emu.count; ++i) {
    struct fiber *f = &emu.fibers[i];
    f->state = RUNNABLE;
    f->thread[0] = (unsigned)(i % emu.block_dim[0]);
    f->thread[1] = (unsigned)(i / emu.block_dim[0] % emu.block_dim[1]);
    f->thread[2] = (unsigned)(i / emu.block_dim[0] / emu.block_dim[1]);
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = emu.stacks + i * STACK_BYTES;
    f->context.uc_stack.ss_size = STACK_BYTES;
    f->context.uc_link = &emu.scheduler;
    makecontext(&f->context, run_thread, 0);
  }
  for (;;) {
    for (size_t i = 0; i < emu.count; ++i) {
      if (emu.fibers[i].state == RUNNABLE) {
        emu.current = &emu.fibers[i];
        swapcontext(&emu.scheduler, &emu.fibers[i].context);
      }
    }
    size_t done = 0, waiting = 0;
    for (size_t i = 0; i < emu.count; ++i) {
      done += emu.fibers[i].state == DONE;
      waiting += emu.fibers[i].state == AT_BARRIER;
    }
    if (done == emu.count) {
      return 0;
    }
    int diverged = 0;
    if (release_shuffles(&diverged)) {
      continue;
    }
    if (!diverged && waiting > 0 && waiting + done == emu.count) {
      for (size_t i = 0; i < emu.count; ++i) {
        if (emu.fibers[i].state == AT_BARRIER) {
          emu.fibers[i].state = RUNNABLE;
        }
      }
      continue;
    }
    fprintf(stderr,
            "cuda-emulator: block (%u, %u, %u): threads wait at a barrier or "
            "shuffle that other threads of the block or warp never reach "
            "(%zu of %zu threads finished)\n",
            emu.block[0], emu.block[1], emu.block[2], done, emu.count);
    return -1;
  }
}

static CUresult run_launch(entry_fn entry, const unsigned grid[3],
                           const unsigned block[3], void **params) {
  size_t threads = (size_t)block[0] * block[1] * block[2];
  if (threads == 0 || threads > 1024) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (threads > emu.capacity) {
    free(emu.fibers);
    free(emu.stacks);
    emu.fibers = calloc(threads, sizeof(struct fiber));
    emu.stacks = malloc(threads * STACK_BYTES);
    if (!emu.fibers || !emu.stacks) {
      emu.capacity = 0;
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
    emu.capacity = threads;
  }
  emu.count = threads;
  emu.entry = entry;
  emu.params = params;
  memcpy(emu.block_dim, block, sizeof(emu.block_dim));
  memcpy(emu.grid_dim, grid, sizeof(emu.grid_dim));
  for (unsigned z = 0; z < grid[2]; ++z) {
    for (unsigned y = 0; y < grid[1]; ++y) {
      for (unsigned x = 0; x < grid[0]; ++x) {
        emu.block[0] = x;
        emu.block[1] = y;
        emu.block[2] = z;
        if (run_block() != 0) {
          return CUDA_ERROR_LAUNCH_FAILED;
        }
      }
    }
  }
  return CUDA_SUCCESS;
}

/*===-- Launches recorded by stream capture ------------------------------===*/

struct launch {
  entry_fn entry;
  unsigned grid[3], block[3];
  void **params; /* the caller's array, which the runtime keeps alive */
};

struct graph {
  struct launch *launches;
  size_t count, capacity;
};

static struct graph *capturing;

static CUresult record(const struct launch *launch) {
  if (capturing->count == capturing->capacity) {
    size_t capacity = capturing->capacity ? 2 * capturing->capacity : 16;
    struct launch *grown =
        realloc(capturing->launches, capacity * sizeof(struct launch));
    if (!grown) {
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
    capturing->launches = grown;
    capturing->capacity = capacity;
  }
  capturing->launches[capturing->count++] = *launch;
  return CUDA_SUCCESS;
}

/*===-- The driver API the runtime uses ----------------------------------===*/

CUresult cuInit(unsigned flags) {
  (void)flags;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* An sm_90 device (compute capability 9.0) that reports an H100 SXM's
 * multiprocessors, clock, memory clock and bus width, so the runtime's
 * roofline ceilings (infer_model_device_info) have values to compute
 * from. They describe that GPU, not the emulator's speed. */
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  switch (attribute) {
  case 13: /* CLOCK_RATE, kHz */
    *value = 1980000;
    break;
  case 16: /* MULTIPROCESSOR_COUNT */
    *value = 132;
    break;
  case 36: /* MEMORY_CLOCK_RATE, kHz */
    *value = 2619000;
    break;
  case 37: /* GLOBAL_MEMORY_BUS_WIDTH, bits */
    *value = 5120;
    break;
  case 75: /* COMPUTE_CAPABILITY_MAJOR */
    *value = 9;
    break;
  default:
    *value = 0;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, int device) {
  (void)device;
  if (!name || length < 1) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  snprintf(name, (size_t)length, "infer CUDA emulator");
  return CUDA_SUCCESS;
}

static int context_token;

CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  (void)device;
  *context = &context_token;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  (void)device;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(void *context) {
  (void)context;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(void **module, const void *image) {
  (void)image;
  const char *path = getenv("INFER_EMU_KERNELS");
  if (!path || !*path) {
    fprintf(stderr, "cuda-emulator: set INFER_EMU_KERNELS to the model's "
                    "<name>.emu.so (infer-compile --gpu-emulation)\n");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  /* The kernels call infer_emu_*: make this library's symbols global. */
  if (!dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL)) {
    fprintf(stderr, "cuda-emulator: %s\n", dlerror());
    return CUDA_ERROR_INVALID_IMAGE;
  }
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fprintf(stderr, "cuda-emulator: %s\n", dlerror());
    return CUDA_ERROR_INVALID_IMAGE;
  }
  *module = library;
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(void *module) {
  dlclose(module);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  char symbol[512];
  snprintf(symbol, sizeof(symbol), "%s" INFER_EMU_ENTRY_SUFFIX, name);
  *function = dlsym(module, symbol);
  return *function ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuMemAlloc_v2(uint64_t *pointer, size_t bytes) {
  void *memory = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *pointer = (uint64_t)(uintptr_t)memory;
  return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(uint64_t pointer) {
  free((void *)(uintptr_t)pointer);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(uint64_t dst, const void *src, size_t bytes,
                              void *stream) {
  (void)stream;
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, uint64_t src, size_t bytes,
                              void *stream) {
  (void)stream;
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoDAsync_v2(uint64_t dst, uint64_t src, size_t bytes,
                              void *stream) {
  (void)stream;
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = malloc(1);
  return *stream ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuStreamDestroy_v2(void *stream) {
  free(stream);
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(void *stream) {
  (void)stream;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  (void)shared;
  (void)stream;
  (void)extra;
  struct launch launch = {
      (entry_fn)function, {gx, gy, gz}, {bx, by, bz}, params};
  if (capturing) {
    return record(&launch);
  }
  return run_launch(launch.entry, launch.grid, launch.block, launch.params);
}

/* Events: launches run when they are made, so an event's time is the
 * moment it is recorded (a recorded graph never holds one: the runtime
 * records events only outside capture). */
struct event {
  int recorded;
  struct timespec at;
};

CUresult cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = calloc(1, sizeof(struct event));
  return *event ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuEventRecord(void *event, void *stream) {
  (void)stream;
  struct event *e = event;
  if (!e || capturing) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  clock_gettime(CLOCK_MONOTONIC, &e->at);
  e->recorded = 1;
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  const struct event *a = start, *b = end;
  if (!ms || !a || !b || !a->recorded || !b->recorded) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *ms = (float)((double)(b->at.tv_sec - a->at.tv_sec) * 1e3 +
                (double)(b->at.tv_nsec - a->at.tv_nsec) * 1e-6);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return CUDA_SUCCESS;
}

CUresult cuStreamBeginCapture_v2(void *stream, int mode) {
  (void)stream;
  (void)mode;
  capturing = calloc(1, sizeof(struct graph));
  return capturing ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuStreamEndCapture(void *stream, void **graph) {
  (void)stream;
  *graph = capturing;
  capturing = NULL;
  return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(void **exec, void *graph,
                                     unsigned long long flags) {
  (void)flags;
  const struct graph *from = graph;
  struct graph *copy = calloc(1, sizeof(struct graph));
  if (!copy) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  copy->launches = malloc((from->count + 1) * sizeof(struct launch));
  if (!copy->launches) {
    free(copy);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  memcpy(copy->launches, from->launches, from->count * sizeof(struct launch));
  copy->count = copy->capacity = from->count;
  *exec = copy;
  return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(void *exec, void *stream) {
  (void)stream;
  const struct graph *graph = exec;
  for (size_t i = 0; i < graph->count; ++i) {
    const struct launch *l = &graph->launches[i];
    CUresult result = run_launch(l->entry, l->grid, l->block, l->params);
    if (result != CUDA_SUCCESS) {
      return result;
    }
  }
  return CUDA_SUCCESS;
}

static void free_graph(struct graph *graph) {
  if (graph) {
    free(graph->launches);
    free(graph);
  }
}

CUresult cuGraphExecDestroy(void *exec) {
  free_graph(exec);
  return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(void *graph) {
  free_graph(graph);
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult result, const char **name) {
  switch (result) {
  case CUDA_SUCCESS:
    *name = "CUDA_SUCCESS";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    *name = "CUDA_ERROR_INVALID_VALUE";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case CUDA_ERROR_INVALID_IMAGE:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    break;
  case CUDA_ERROR_NOT_FOUND:
    *name = "CUDA_ERROR_NOT_FOUND";
    break;
  case CUDA_ERROR_LAUNCH_FAILED:
    *name = "CUDA_ERROR_LAUNCH_FAILED";
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
