/*===- runtime.h - the infer runtime C API ---------------------*- C -*-===*
 *
 * The thin runtime that loads and runs what infer-compile emits. It never
 * depends on the compiler; the contract with generated code is abi.h.
 *
 * A model comes either from a shared library built from the compiler's
 * object (infer_model_load) or from an infer_abi_model_t linked into the
 * program (infer_model_from_abi). Running it takes one tensor per input, in
 * the model's input order, and returns newly allocated output tensors:
 *
 *   infer_model_t model;
 *   infer_status_t status = infer_model_load("resnet.so", NULL, &model);
 *   ...
 *   infer_tensor_t outputs[1];
 *   status = infer_model_run(model, inputs, 1, outputs, 1);
 *   ...
 *   infer_tensor_release(outputs[0]);
 *   infer_model_release(model);
 *
 * A loaded model is immutable: every query and infer_model_run may be called
 * from several threads at once on one model.
 *
 *===--------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_RUNTIME_H
#define INFER_RUNTIME_RUNTIME_H

#include "infer/abi.h"
#include "infer/status.h"
#include "infer/tensor.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct infer_model *infer_model_t;

/* The runtime's version as "MAJOR.MINOR.PATCH". */
const char *infer_runtime_version(void);

/* Loads a model from the shared library at `path` (dlopen with
 * RTLD_NOW | RTLD_LOCAL) and looks up its `<name>_model` symbol. When `name`
 * is NULL or empty it is the file stem: "dir/resnet.so" gives "resnet".
 * Fails with NOT_FOUND when the library cannot be opened or lacks the symbol,
 * and with INVALID_ARGUMENT when the model's abi_version is newer than
 * INFER_ABI_VERSION or its description is malformed. The library stays
 * loaded until infer_model_release. */
infer_status_t infer_model_load(const char *path, const char *name,
                                infer_model_t *out_model);

/* Wraps a model linked into the program (`&resnet_model`). `abi` must
 * outlive the model handle. Same checks as infer_model_load. */
infer_status_t infer_model_from_abi(const infer_abi_model_t *abi,
                                    infer_model_t *out_model);

/* How a model runs. Zero it, set struct_size to
 * sizeof(infer_model_options_t), then the fields to change; fields added
 * later keep their defaults for callers built against this header. */
typedef struct infer_model_options {
  size_t struct_size;
  /* Threads one run uses, the calling thread's included: 0 (default) one
   * per CPU the process may run on, 1 the calling thread only. The model
   * keeps that many minus one worker threads, which sleep when idle. One
   * run at a time uses them: a concurrent run on the same model runs on
   * its own thread. Applies to CPU models compiled with the default
   * --parallel=runtime; OpenMP models (--parallel=openmp) take
   * OMP_NUM_THREADS, serial ones one thread. */
  int32_t intra_op_threads;
  /* 0 (default): when other work keeps the CPUs busy (a worker spends
   * over a quarter of its recent time waiting for a CPU), runs drop one
   * thread at a time, down to the calling thread alone, and try them all
   * again 50 ms later (longer while the machine stays busy); a run at N
   * threads then takes about as long as one at fewer, not longer.
   * Nonzero: every run hands work to all intra_op_threads threads, busy
   * machine or not. */
  int32_t fixed_threads;
} infer_model_options_t;

/* infer_model_load and infer_model_from_abi with options (NULL: the
 * defaults). INVALID_ARGUMENT for a struct_size below
 * sizeof(size_t) or a negative thread count. */
infer_status_t
infer_model_load_with_options(const char *path, const char *name,
                              const infer_model_options_t *options,
                              infer_model_t *out_model);
infer_status_t
infer_model_from_abi_with_options(const infer_abi_model_t *abi,
                                  const infer_model_options_t *options,
                                  infer_model_t *out_model);

/* Threads a run of the model uses (1 for code that takes none from the
 * runtime: serial, OpenMP or CUDA models); 0 for NULL. */
int infer_model_intra_op_threads(infer_model_t model);

/* Frees the handle and unloads its library, if any. Accepts NULL. No tensor
 * or name obtained from the model may be used afterwards. */
void infer_model_release(infer_model_t model);

/* The model's name: the ABI's `name` field when set, otherwise the name its
 * symbol was looked up with. Owned by the model. */
const char *infer_model_name(infer_model_t model);

size_t infer_model_num_inputs(infer_model_t model);
size_t infer_model_num_outputs(infer_model_t model);

/* The declared input/output at `index`; NULL when out of range. */
const infer_abi_tensor_t *infer_model_input(infer_model_t model, size_t index);
const infer_abi_tensor_t *infer_model_output(infer_model_t model, size_t index);

/* The index of the input/output called `name`. NOT_FOUND, listing the
 * names that exist, when there is none. */
infer_status_t infer_model_find_input(infer_model_t model, const char *name,
                                      size_t *out_index);
infer_status_t infer_model_find_output(infer_model_t model, const char *name,
                                       size_t *out_index);

/* Whether some input or output of the model has a dynamic dim (-1). */
int infer_model_is_dynamic(infer_model_t model);

/* For input `index` of a dynamic model: the smallest, optimal and largest
 * shape it was compiled for (--shape-profile; each `rank` dims, written to
 * the non-NULL arrays). A static input's range is its shape. INVALID_ARGUMENT
 * when the index is out of range. */
infer_status_t infer_model_input_range(infer_model_t model, size_t index,
                                       int64_t *out_min, int64_t *out_opt,
                                       int64_t *out_max);

/* Runs the model once. `inputs` holds `num_inputs` tensors in input order;
 * each must match the declared dtype and shape exactly, except that a
 * dynamic dim (-1 in the declared shape) takes any size within the range
 * the model was compiled for (infer_model_input_range). On success
 * out_outputs[i] receives a new tensor of the declared dtype and shape
 * (dynamic dims as this run computed them) for every output, which the
 * caller releases; on failure every entry of out_outputs is NULL.
 * INVALID_ARGUMENT when a count, dtype, rank or dimension does not match
 * (the message names the input). Safe to call concurrently on one model
 * with different output arrays. */
infer_status_t infer_model_run(infer_model_t model,
                               const infer_tensor_t *inputs, size_t num_inputs,
                               infer_tensor_t *out_outputs, size_t num_outputs);

/* Runs a model of static shapes into the caller's tensors: outputs[i] must
 * have the declared dtype and shape (infer_tensor_create once, or
 * infer_tensor_wrap over the caller's memory) and share no byte with any
 * input or other output. The call allocates nothing once the model's
 * workspace exists (the first run makes it): the fixed cost of a call is
 * the checks and the jump into the code. INVALID_ARGUMENT for a model with
 * dims known only at run time (its outputs' shapes come from the run: use
 * infer_model_run), and as infer_model_run for the inputs; the outputs'
 * contents are unspecified after a failed run. Safe to call concurrently
 * on one model with different output tensors. */
infer_status_t infer_model_run_into(infer_model_t model,
                                    const infer_tensor_t *inputs,
                                    size_t num_inputs,
                                    const infer_tensor_t *outputs,
                                    size_t num_outputs);

/*===-- Kernel profiles (models compiled with --profile) ----------------===*
 *
 * A profiled CPU model's code reads the CPU's cycle counter between
 * kernels (fused op groups); a profiled CUDA model's run records a CUDA
 * event before each launch and after the last (launching one by one, not
 * through its CUDA graph), each launch one segment. Each kernel comes with
 * its ONNX nodes, its FLOPs and the bytes it reads and writes
 * (infer_abi_kernel_t). A run is a sequence of segments, each spent in one
 * kernel; together they cover the run. */

/* The kernels (0 for a model compiled without --profile), kernel `index`
 * (NULL past the end), and the segments of one run. */
size_t infer_model_num_kernels(infer_model_t model);
const infer_abi_kernel_t *infer_model_kernel(infer_model_t model, size_t index);
size_t infer_model_num_segments(infer_model_t model);

typedef struct infer_profile_segment {
  uint32_t kernel; /* index of the kernel that ran */
  double begin_ns; /* from the start of the run */
  double end_ns;
} infer_profile_segment_t;

/* Runs the model as infer_model_run_into (same checks) and fills
 * out_segments[j] with segment j's kernel and times; `num_segments` must
 * be infer_model_num_segments. INVALID_ARGUMENT for a model without a
 * profile, UNAVAILABLE where the runtime cannot read the counter (or the
 * CUDA driver has no events). */
infer_status_t infer_model_run_profiled(
    infer_model_t model, const infer_tensor_t *inputs, size_t num_inputs,
    const infer_tensor_t *outputs, size_t num_outputs,
    infer_profile_segment_t *out_segments, size_t num_segments);

/*===-- Device-resident tensors (CUDA models) ---------------------------===*
 *
 * For callers that keep data on the GPU. A device tensor is a device
 * address (a CUdeviceptr, as uint64_t) in the model's context: the primary
 * context of device 0, which the model retains while it lives, so memory
 * from cudaMalloc in the same process works too. Its bytes are the dense,
 * row-major elements of the declared dtype and shape. Every call is
 * synchronous and serialized with the model's runs. On a CPU model each
 * fails with INVALID_ARGUMENT. */

/* 1 for a model whose kernels run on a GPU (--target=cuda), else 0. */
int infer_model_on_device(infer_model_t model);

/* `bytes` of device memory (0 bytes gives address 0), and its release
 * (address 0 is accepted). Driver failures name the CUDA error. */
infer_status_t infer_model_device_alloc(infer_model_t model, size_t bytes,
                                        uint64_t *out_ptr);
infer_status_t infer_model_device_free(infer_model_t model, uint64_t ptr);

/* The GPU a CUDA model runs on, and the two ceilings of its roofline as
 * the driver's attributes give them: peak_gflops = multiprocessors x f32
 * lanes per multiprocessor (by compute capability) x 2 x clock;
 * bandwidth_gbs = memory clock x 2 (double data rate) x bus width. Each is
 * 0 where the driver does not report what it needs. */
typedef struct infer_device_info {
  char name[128];
  int compute_major;
  int compute_minor;
  int multiprocessors;
  double peak_gflops;   /* f32 fused multiply-adds, counted as 2 FLOPs */
  double bandwidth_gbs; /* device memory, theoretical */
} infer_device_info_t;

infer_status_t infer_model_device_info(infer_model_t model,
                                       infer_device_info_t *out_info);

/* Copies between host memory and device memory. */
infer_status_t infer_model_copy_to_device(infer_model_t model, uint64_t dst,
                                          const void *src, size_t bytes);
infer_status_t infer_model_copy_from_device(infer_model_t model, void *dst,
                                            uint64_t src, size_t bytes);

/* Runs the model once on device tensors: device_inputs[i] holds input i,
 * device_outputs[i] receives output i (each at least the declared byte
 * size). No host copy is made: the inputs are copied device-to-device into
 * the model's buffers, the schedule (its CUDA graph) runs, and the outputs
 * are copied device-to-device out, all on the model's stream. Work that
 * produces the inputs on another stream must be finished first; the
 * outputs are written when the call returns. INVALID_ARGUMENT for wrong
 * counts or a 0 address of a non-empty tensor. */
infer_status_t infer_model_run_device(infer_model_t model,
                                      const uint64_t *device_inputs,
                                      size_t num_inputs,
                                      const uint64_t *device_outputs,
                                      size_t num_outputs);

#ifdef __cplusplus
}
#endif

#endif /* INFER_RUNTIME_RUNTIME_H */
