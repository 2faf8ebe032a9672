/*===- abi.h - the contract between infer-compile and the runtime --*- C -*-===*
 *
 * Every model compiled for the CPU or CUDA target exports one constant of
 * type infer_abi_model_t named `<name>_model` (name from `--name`); CPU
 * models also a typed entry point `<name>_main` declared in the generated
 * header. The runtime
 * reads nothing else from generated code. Layouts here only ever grow at
 * the end; `abi_version` tells which fields exist.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_ABI_H
#define INFER_RUNTIME_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INFER_ABI_VERSION 9

/* Element types, numbered as ONNX's TensorProto.DataType. */
typedef enum infer_dtype_e {
  INFER_DTYPE_INVALID = 0,
  INFER_DTYPE_F32 = 1,
  INFER_DTYPE_U8 = 2,
  INFER_DTYPE_I8 = 3,
  INFER_DTYPE_U16 = 4,
  INFER_DTYPE_I16 = 5,
  INFER_DTYPE_I32 = 6,
  INFER_DTYPE_I64 = 7,
  INFER_DTYPE_BOOL = 9, /* one byte per element, 0 or 1 */
  INFER_DTYPE_F16 = 10,
  INFER_DTYPE_F64 = 11,
  INFER_DTYPE_U32 = 12,
  INFER_DTYPE_U64 = 13,
  INFER_DTYPE_BF16 = 16,
} infer_dtype_t;

/* One input or output: dense, row-major, in the listed shape. */
typedef struct infer_abi_tensor {
  const char *name; /* the ONNX graph input/output name */
  int32_t dtype;    /* an infer_dtype_t */
  int32_t rank;
  const int64_t *shape; /* `rank` dimensions; abi_version >= 5: -1 marks a
                           dynamic one (sized at run time, see run_dynamic) */
} infer_abi_tensor_t;

/* Runs the model once. `buffers` holds one pointer per input, then one per
 * output, each to a dense buffer of the declared dtype and shape, then
 * (abi_version >= 2) one to `workspace_size` bytes of scratch memory,
 * 64-byte aligned (may be NULL when the size is 0). Outputs are written in
 * full. Reentrant: concurrent calls with different buffers (and different
 * workspaces) are safe.
 * abi_version >= 4 returns 0, or k > 0 when run-time check k failed (an
 * input held invalid data, e.g. an out-of-range index; the outputs are then
 * meaningless): `errors[k-1]` of the model says which. Earlier versions
 * return nothing (infer_abi_run_v1_fn). */
typedef int32_t (*infer_abi_run_fn)(void *const *buffers);
typedef void (*infer_abi_run_v1_fn)(void *const *buffers);

/* Where the generic variant of a dynamic model gets the buffers whose size
 * is known only at run time (intermediates and outputs). `alloc` returns
 * `bytes` of 64-byte aligned memory (or NULL), `free` takes back a block
 * with the size it was asked for. Calls may come from several threads. */
typedef struct infer_abi_allocator infer_abi_allocator_t;
struct infer_abi_allocator {
  void *(*alloc)(infer_abi_allocator_t *self, uint64_t bytes);
  void (*free)(infer_abi_allocator_t *self, void *block, uint64_t bytes);
};

/* Every buffer the generic variant allocates is preceded, in the 64 bytes
 * before it, by this header: the allocator that made the block (NULL:
 * aligned_alloc, to be released with free()), the block and its size. */
typedef struct infer_abi_buffer_header {
  infer_abi_allocator_t *allocator;
  void *block;
  uint64_t bytes;
} infer_abi_buffer_header_t;
#define INFER_ABI_BUFFER_HEADER_BYTES 64

/* Runs a model with dynamic dims (abi_version >= 5): the generic variant.
 * `inputs` holds one pointer per input (dense, row-major), `input_shapes`
 * every input's dims one after the other, `workspace` points at
 * `workspace_size` bytes as for `run`. Buffers of run-time size come from
 * `allocator` (NULL: aligned_alloc/free), also the outputs: the code writes
 * each output's data pointer to out_data[i], its buffer to
 * out_allocations[i] (also when a check failed; release it through the
 * header INFER_ABI_BUFFER_HEADER_BYTES before it) and its dims to
 * out_shapes (concatenated as for the inputs). The caller validates the
 * input shapes first (ranks, static dims, the profile's ranges). Returns
 * 0 or the failed run-time check, as `run`. */
typedef int32_t (*infer_abi_run_dynamic_fn)(void *const *inputs,
                                            const int64_t *input_shapes,
                                            void *workspace, void **out_data,
                                            void **out_allocations,
                                            int64_t *out_shapes,
                                            infer_abi_allocator_t *allocator);

/* Threads inside one run (abi_version >= 7). CPU code compiled with
 * --parallel=runtime splits each parallel loop into iterations [0, n) and
 * hands them to the executor set for the calling thread (`set_executor`
 * below): `parallel_for` must call `task(context, begin, end)` for
 * disjoint ranges that together cover [0, n), on any threads, and return
 * once every call has returned. The code calls it with n >= 2 and never
 * from inside a task of the same run, except for loops nested in a task,
 * which an executor may run on the calling thread (task(context, 0, n)).
 * With no executor set, the code runs each loop itself.
 *
 * abi_version >= 9: `num_threads` is how many threads the executor runs
 * tasks on (the caller's included). The code splits a contraction into
 * about that many ranges, one per thread: fewer ranges read the shared
 * operand fewer times. Any value is safe (below 1 counts as 1); it only
 * sets the granularity. The executor may change it at any time (the
 * runtime's pool lowers it while the machine is busy): it is stored and
 * read as a relaxed atomic, and the code reads it anew for each loop. */
typedef void (*infer_abi_task_fn)(void *context, int64_t begin, int64_t end);
typedef struct infer_abi_executor infer_abi_executor_t;
struct infer_abi_executor {
  void (*parallel_for)(infer_abi_executor_t *self, infer_abi_task_fn task,
                       void *context, int64_t n);
  int32_t num_threads; /* abi_version >= 9 */
  int32_t reserved;
};

/* Sets the executor the calling thread's runs of the model use (NULL:
 * none, the code runs on the calling thread) and returns the previous
 * one. The setting is per thread and per model. */
typedef infer_abi_executor_t *(*infer_abi_set_executor_fn)(
    infer_abi_executor_t *executor);

/* CUDA models (abi_version >= 3, `cuda` set, `run` NULL): the kernels as
 * PTX (and cubins) per GPU architecture, and the launches of one run. */
typedef enum infer_abi_cuda_arg_kind_e {
  INFER_CUDA_ARG_INPUT = 0,     /* device copy of input `index` */
  INFER_CUDA_ARG_OUTPUT = 1,    /* device buffer of output `index` */
  INFER_CUDA_ARG_WORKSPACE = 2, /* device workspace + `value` bytes */
  INFER_CUDA_ARG_I64 = 3,       /* the integer `value`; a narrower kernel
                                   parameter takes its low bytes */
  INFER_CUDA_ARG_F32 = 4,       /* the float whose bits are `value` */
  INFER_CUDA_ARG_F64 = 5,       /* the double whose bits are `value` */
  INFER_CUDA_ARG_WEIGHT = 6,    /* device copy of weight `index` */
  INFER_CUDA_ARG_STATUS = 7,    /* abi_version >= 6: the run's status, a
                                   device int32 the runtime zeroes before
                                   each run; a failed run-time check writes
                                   k > 0 there (errors[k-1] says which) */
} infer_abi_cuda_arg_kind_t;

typedef struct infer_abi_cuda_arg {
  int32_t kind; /* an infer_abi_cuda_arg_kind_t */
  int32_t index;
  int64_t value;
} infer_abi_cuda_arg_t;

typedef struct infer_abi_cuda_launch {
  const char *kernel; /* entry name in the module image */
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t num_args;
  uint32_t reserved;
  const infer_abi_cuda_arg_t *args; /* kernel parameters, in order */
} infer_abi_cuda_launch_t;

typedef struct infer_abi_cuda_image {
  const char *arch;     /* "sm_90" */
  const char *ptx;      /* NUL-terminated PTX for the driver's JIT */
  const uint8_t *cubin; /* ptxas output for `arch`, or NULL */
  uint64_t cubin_size;
} infer_abi_cuda_image_t;

/* A constant tensor, uploaded to the device once when the model loads. */
typedef struct infer_abi_cuda_weight {
  const void *data;
  uint64_t size; /* bytes */
} infer_abi_cuda_weight_t;

typedef struct infer_abi_cuda {
  uint32_t num_images;
  uint32_t num_launches;
  const infer_abi_cuda_image_t *images;
  const infer_abi_cuda_launch_t *launches;
  uint32_t num_weights;
  uint32_t reserved;
  const infer_abi_cuda_weight_t *weights;
} infer_abi_cuda_t;

/* A model compiled with --profile (abi_version >= 8): its kernels (the
 * fused op groups, each one loop nest or parallel loop of the code) and
 * where a run leaves its cycle counts. The entry reads the CPU's cycle
 * counter before each segment of its code and once at the end, into
 * `num_segments + 1` uint64_t slots of the workspace at byte
 * `stamps_offset`; segment j runs kernel `segments[j]` from stamp j to
 * stamp j + 1. A kernel may own several segments. A CUDA model's segment
 * j is its launch j (num_segments == cuda->num_launches), timed by the
 * runtime with events; it stores no stamps and `stamps_offset` is 0. */
typedef struct infer_abi_kernel {
  const char *name;     /* its first ONNX node */
  const char *op_types; /* the op types it computes, joined by '+' */
  uint32_t num_nodes;
  uint32_t reserved;
  const char *const *nodes; /* the ONNX nodes it computes */
  double flops;             /* arithmetic operations of one run (a
                               multiply-add counts two), 0 if unknown */
  uint64_t bytes;           /* bytes of the buffers it reads and writes (inputs,
                               weights, outputs), each counted once */
} infer_abi_kernel_t;

typedef struct infer_abi_profile {
  uint32_t num_kernels;
  uint32_t num_segments;
  const infer_abi_kernel_t *kernels;
  const uint32_t *segments; /* per segment, an index into `kernels` */
  uint64_t stamps_offset;   /* bytes into the workspace, 8-byte aligned */
} infer_abi_profile_t;

typedef struct infer_abi_model {
  uint32_t abi_version; /* INFER_ABI_VERSION at compile time */
  uint32_t num_inputs;
  uint32_t num_outputs;
  uint32_t num_errors; /* abi_version >= 4: entries of `errors` (0 before) */
  const char *name;
  const infer_abi_tensor_t *inputs;
  const infer_abi_tensor_t *outputs;
  uint64_t workspace_size;      /* bytes of scratch memory a run needs; version
                                   1 models take no workspace pointer */
  infer_abi_run_fn run;         /* NULL for CUDA models */
  const infer_abi_cuda_t *cuda; /* abi_version >= 3: the GPU kernels and
                                   launches, or NULL for CPU models; the
                                   workspace then lives on the device */
  /* abi_version >= 4 (the field is absent before): what each run-time
   * check tests, "node 'NAME' (OpType): ..."; a run's status k > 0 means
   * errors[k-1]. NULL when num_errors is 0. */
  const char *const *errors;
  /* abi_version >= 5 (absent before): set, with `run` NULL, when an input
   * or output has a dynamic dim; NULL otherwise. */
  infer_abi_run_dynamic_fn run_dynamic;
  /* With run_dynamic: the profile of the inputs' dims, each array holding
   * every input's dims one after the other (as input_shapes). A run needs
   * shape_min <= dims <= shape_max; shape_opt is the shape tools use when
   * they make up inputs. NULL for static models. */
  const int64_t *shape_min;
  const int64_t *shape_opt;
  const int64_t *shape_max;
  /* abi_version >= 7 (absent before): where the code gets its threads,
   * see infer_abi_executor_t; NULL when it takes none (serial code,
   * OpenMP code, CUDA models). */
  infer_abi_set_executor_fn set_executor;
  /* abi_version >= 8 (absent before): the kernels and stamps of a model
   * compiled with --profile, NULL otherwise. */
  const infer_abi_profile_t *profile;
} infer_abi_model_t;

#ifdef __cplusplus
}
#endif

#endif /* INFER_RUNTIME_ABI_H */
