/*===- model.c - loading, querying and running compiled models --------===*
 *
 * A model handle is immutable once made: it holds the dlopen handle (if any),
 * the ABI description and a name. infer_model_run keeps all its state on the
 * stack or in memory it allocates per call, so concurrent runs on one model
 * share nothing mutable. The one exception is a cached workspace: a run
 * takes it with an atomic exchange (allocating a fresh one when another run
 * holds it) and puts it back when done, so steady-state runs allocate
 * nothing and touch memory that is already mapped.
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "infer/runtime.h"

#include "arena.h"
#include "cuda.h"
#include "dynamic.h"
#include "elf_check.h"
#include "model.h"
#include "tensor_alloc.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { WORKSPACE_ALIGNMENT = 64 };

static void *workspace_take(struct infer_model *model) {
  uint64_t size = model->abi->workspace_size;
  if (model->abi->abi_version < 2 || size == 0) {
    return NULL;
  }
  void *workspace = atomic_exchange(&model->workspace, NULL);
  if (!workspace) {
    /* A size near 2^64 would round to a tiny block: refuse it (the caller
     * reports the workspace as out of memory). */
    if (size > SIZE_MAX - WORKSPACE_ALIGNMENT) {
      return NULL;
    }
    uint64_t rounded = (size + WORKSPACE_ALIGNMENT - 1) / WORKSPACE_ALIGNMENT *
                       WORKSPACE_ALIGNMENT;
    workspace = aligned_alloc(WORKSPACE_ALIGNMENT, rounded);
  }
  return workspace;
}

static void workspace_give_back(struct infer_model *model, void *workspace) {
  if (workspace) {
    free(atomic_exchange(&model->workspace, workspace));
  }
}

/*===-- Formatting helpers ----------------------------------------------===*/

/* Bounded string builder: appends, truncating with "..." when full. */
typedef struct {
  char *data;
  size_t capacity;
  size_t length;
} text_t;

static void text_append(text_t *text, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void text_append(text_t *text, const char *format, ...) {
  if (text->length + 1 >= text->capacity) {
    return;
  }
  va_list args;
  va_start(args, format);
  size_t room = text->capacity - text->length;
  int written = vsnprintf(text->data + text->length, room, format, args);
  va_end(args);
  if (written < 0) {
    return;
  }
  if ((size_t)written >= room) {
    text->length = text->capacity - 1;
    if (text->capacity >= 4) {
      memcpy(text->data + text->capacity - 4, "...", 4);
    }
    return;
  }
  text->length += (size_t)written;
}

/* "[1,3,224,224] (float32)" */
static void append_type(text_t *text, int32_t dtype, int32_t rank,
                        const int64_t *shape) {
  text_append(text, "[");
  for (int32_t i = 0; i < rank; ++i) {
    text_append(text, i ? ",%lld" : "%lld", (long long)shape[i]);
  }
  text_append(text, "] (%s)", infer_dtype_name((infer_dtype_t)dtype));
}

/* "'a', 'b'" for the names of `count` tensors. */
static void append_names(text_t *text, const infer_abi_tensor_t *tensors,
                         size_t count) {
  for (size_t i = 0; i < count; ++i) {
    text_append(text, i ? ", '%s'" : "'%s'",
                tensors[i].name ? tensors[i].name : "");
  }
  if (count == 0) {
    text_append(text, "(none)");
  }
}

/*===-- Construction ----------------------------------------------------===*/

static infer_status_t check_abi_tensors(const char *kind,
                                        const infer_abi_tensor_t *tensors,
                                        uint32_t count, bool dynamic) {
  if (count > 0 && !tensors) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model declares %u %ss but no %s table",
                             (unsigned)count, kind, kind);
  }
  for (uint32_t i = 0; i < count; ++i) {
    const infer_abi_tensor_t *t = &tensors[i];
    if (!t->name) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "model %s %u has no name", kind, (unsigned)i);
    }
    if (infer_dtype_size((infer_dtype_t)t->dtype) == 0) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "model %s '%s' has unknown dtype %d", kind,
                               t->name, (int)t->dtype);
    }
    if (t->rank < 0 || (t->rank > 0 && !t->shape)) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "model %s '%s' has a malformed shape (rank %d)",
                               kind, t->name, (int)t->rank);
    }
    for (int32_t d = 0; d < t->rank; ++d) {
      if (t->shape[d] < 0 && !(dynamic && t->shape[d] == -1)) {
        return infer_status_make(
            INFER_INVALID_ARGUMENT,
            "model %s '%s' has a dynamic or negative dimension %d (%lld); "
            "only models with run_dynamic (ABI 5) may have dynamic (-1) dims",
            kind, t->name, (int)d, (long long)t->shape[d]);
      }
    }
  }
  return NULL;
}

/* Validates `abi` and makes the handle; takes ownership of `library`
 * (closing it on failure). `fallback_name` is used when abi->name is NULL. */
static infer_status_t make_model(const infer_abi_model_t *abi, void *library,
                                 const char *fallback_name,
                                 const infer_model_options_t *options,
                                 infer_model_t *out_model) {
  infer_status_t status = NULL;
  /* Fields past the caller's struct_size keep their defaults. */
  int32_t threads =
      options && options->struct_size >=
                     offsetof(infer_model_options_t, intra_op_threads) +
                         sizeof(options->intra_op_threads)
          ? options->intra_op_threads
          : 0;
  if (options && options->struct_size < sizeof(size_t)) {
    status =
        infer_status_make(INFER_INVALID_ARGUMENT,
                          "infer_model_options_t.struct_size is %zu; set it to "
                          "sizeof(infer_model_options_t)",
                          options->struct_size);
  } else if (threads < 0) {
    status = infer_status_make(INFER_INVALID_ARGUMENT,
                               "intra_op_threads is %d; give 0 (one per CPU) "
                               "or a positive count",
                               (int)threads);
  } else if (abi->abi_version == 0 || abi->abi_version > INFER_ABI_VERSION) {
    status = infer_status_make(
        INFER_INVALID_ARGUMENT,
        "model '%s' was compiled for ABI version %u, but this runtime (%s) "
        "supports versions 1 to %d; use a runtime at least as new as the "
        "compiler",
        abi->name ? abi->name : fallback_name, (unsigned)abi->abi_version,
        infer_runtime_version(), INFER_ABI_VERSION);
  } else if (!abi->run && !(abi->abi_version >= 3 && abi->cuda) &&
             !infer_abi_is_dynamic(abi)) {
    status = infer_status_make(INFER_INVALID_ARGUMENT,
                               "model '%s' has no run function",
                               abi->name ? abi->name : fallback_name);
  }
  if (!status) {
    status = check_abi_tensors("input", abi->inputs, abi->num_inputs,
                               infer_abi_is_dynamic(abi));
  }
  if (!status) {
    status = check_abi_tensors("output", abi->outputs, abi->num_outputs,
                               infer_abi_is_dynamic(abi));
  }
  struct infer_model *model = NULL;
  if (!status) {
    model = calloc(1, sizeof(*model));
    const char *name = abi->name ? abi->name : fallback_name;
    char *copy = model ? strdup(name) : NULL;
    if (!copy) {
      free(model);
      model = NULL;
      status = infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
    } else {
      model->library = library;
      model->abi = abi;
      model->name = copy;
    }
  }
  if (!status && infer_abi_is_dynamic(abi)) {
    model->arena = infer_arena_create();
    if (!model->arena) {
      free(model->name);
      free(model);
      model = NULL;
      status = infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
    }
  }
  if (!status && abi->abi_version >= 3 && abi->cuda) {
    status = infer_cuda_model_create(abi, &model->cuda);
    if (status) {
      infer_arena_destroy(model->arena);
      free(model->name);
      free(model);
      model = NULL;
    }
  }
  if (!status) {
    /* Threads only for code that takes them from an executor. */
    if (threads == 0) {
      threads = infer_available_cpus();
    }
    model->intra_op_threads = 1;
    if (abi->abi_version >= 7 && abi->set_executor) {
      model->pool = infer_pool_create(threads);
      model->intra_op_threads = infer_pool_threads(model->pool);
    }
  }
  if (status) {
    if (library) {
      dlclose(library);
    }
    return status;
  }
  *out_model = model;
  return NULL;
}

/* The file name without directories and without its last extension. */
static char *file_stem(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t length = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  char *stem = malloc(length + 1);
  if (stem) {
    memcpy(stem, base, length);
    stem[length] = '\0';
  }
  return stem;
}

infer_status_t infer_model_load(const char *path, const char *name,
                                infer_model_t *out_model) {
  return infer_model_load_with_options(path, name, NULL, out_model);
}

infer_status_t
infer_model_load_with_options(const char *path, const char *name,
                              const infer_model_options_t *options,
                              infer_model_t *out_model) {
  if (!out_model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "out_model is NULL");
  }
  *out_model = NULL;
  if (!path || !*path) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model path is empty");
  }
  struct stat info;
  if (stat(path, &info) != 0) {
    return infer_status_make(INFER_NOT_FOUND, "cannot open model '%s': %s",
                             path, strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "cannot open model '%s': it is a directory", path);
  }
  infer_status_t invalid = infer_check_shared_object(path);
  if (invalid) {
    return invalid;
  }

  char *stem = NULL;
  if (!name || !*name) {
    stem = file_stem(path);
    if (!stem) {
      return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
    }
    name = stem;
  }
  size_t name_length = strlen(name);
  char *symbol = malloc(name_length + sizeof("_model"));
  /* dlopen searches the library path for names without a slash; a model
   * named on the command line is a file, so make it one. */
  char *file = malloc(strlen(path) + 3);
  if (!symbol || !file) {
    free(symbol);
    free(file);
    free(stem);
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  memcpy(symbol, name, name_length);
  memcpy(symbol + name_length, "_model", sizeof("_model"));
  snprintf(file, strlen(path) + 3, "%s%s", strchr(path, '/') ? "" : "./", path);

  infer_status_t status = NULL;
  void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    status = infer_status_make(INFER_NOT_FOUND, "cannot load model '%s': %s",
                               path, error ? error : "unknown dlopen error");
  } else {
    dlerror();
    const infer_abi_model_t *abi = dlsym(library, symbol);
    if (!abi) {
      dlclose(library);
      status = infer_status_make(
          INFER_NOT_FOUND,
          "model '%s' has no symbol '%s'; pass the name the model was "
          "compiled with (infer-compile --name=NAME exports NAME_model), "
          "e.g. --name NAME",
          path, symbol);
    } else {
      status = make_model(abi, library, name, options, out_model);
    }
  }
  free(file);
  free(symbol);
  free(stem);
  return status;
}

infer_status_t infer_model_from_abi(const infer_abi_model_t *abi,
                                    infer_model_t *out_model) {
  return infer_model_from_abi_with_options(abi, NULL, out_model);
}

infer_status_t
infer_model_from_abi_with_options(const infer_abi_model_t *abi,
                                  const infer_model_options_t *options,
                                  infer_model_t *out_model) {
  if (!out_model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "out_model is NULL");
  }
  *out_model = NULL;
  if (!abi) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model ABI is NULL");
  }
  return make_model(abi, NULL, "", options, out_model);
}

void infer_model_release(infer_model_t model) {
  if (!model) {
    return;
  }
  /* The device side reads the ABI, which lives in the library. */
  infer_cuda_model_destroy(model->cuda);
  infer_pool_destroy(model->pool);
  if (model->library) {
    dlclose(model->library);
  }
  free(atomic_exchange(&model->workspace, NULL));
  infer_arena_destroy(model->arena);
  free(model->name);
  free(model);
}

/*===-- Queries ---------------------------------------------------------===*/

int infer_model_intra_op_threads(infer_model_t model) {
  return model ? model->intra_op_threads : 0;
}

/* Points the calling thread's runs of the model at its pool; returns what
 * to restore afterwards. */
static infer_abi_executor_t *enter_pool(const struct infer_model *model) {
  const infer_abi_model_t *abi = model->abi;
  if (abi->abi_version < 7 || !abi->set_executor) {
    return NULL;
  }
  return abi->set_executor(infer_pool_executor(model->pool));
}

static void leave_pool(const struct infer_model *model,
                       infer_abi_executor_t *previous) {
  const infer_abi_model_t *abi = model->abi;
  if (abi->abi_version >= 7 && abi->set_executor) {
    abi->set_executor(previous);
  }
}

const char *infer_model_name(infer_model_t model) {
  return model ? model->name : "";
}

size_t infer_model_num_inputs(infer_model_t model) {
  return model ? model->abi->num_inputs : 0;
}

size_t infer_model_num_outputs(infer_model_t model) {
  return model ? model->abi->num_outputs : 0;
}

const infer_abi_tensor_t *infer_model_input(infer_model_t model, size_t index) {
  if (!model || index >= model->abi->num_inputs) {
    return NULL;
  }
  return &model->abi->inputs[index];
}

const infer_abi_tensor_t *infer_model_output(infer_model_t model,
                                             size_t index) {
  if (!model || index >= model->abi->num_outputs) {
    return NULL;
  }
  return &model->abi->outputs[index];
}

static infer_status_t find_tensor(infer_model_t model, const char *kind,
                                  const infer_abi_tensor_t *tensors,
                                  size_t count, const char *name,
                                  size_t *out_index) {
  if (!out_index || !name) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "find_%s: name and out_index must not be NULL",
                             kind);
  }
  for (size_t i = 0; i < count; ++i) {
    if (strcmp(tensors[i].name, name) == 0) {
      *out_index = i;
      return NULL;
    }
  }
  char names[1024];
  text_t text = {names, sizeof(names), 0};
  names[0] = '\0';
  append_names(&text, tensors, count);
  return infer_status_make(INFER_NOT_FOUND,
                           "model '%s' has no %s '%s'; its %ss are: %s",
                           model->name, kind, name, kind, names);
}

infer_status_t infer_model_find_input(infer_model_t model, const char *name,
                                      size_t *out_index) {
  if (!model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model is NULL");
  }
  return find_tensor(model, "input", model->abi->inputs, model->abi->num_inputs,
                     name, out_index);
}

infer_status_t infer_model_find_output(infer_model_t model, const char *name,
                                       size_t *out_index) {
  if (!model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model is NULL");
  }
  return find_tensor(model, "output", model->abi->outputs,
                     model->abi->num_outputs, name, out_index);
}

int infer_model_is_dynamic(infer_model_t model) {
  return model && infer_abi_is_dynamic(model->abi);
}

infer_status_t infer_model_input_range(infer_model_t model, size_t index,
                                       int64_t *out_min, int64_t *out_opt,
                                       int64_t *out_max) {
  if (!model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model is NULL");
  }
  return infer_dynamic_range(model->abi, index, out_min, out_opt, out_max);
}

/*===-- Running ---------------------------------------------------------===*/

/* Checks one input tensor against its declaration. */
static infer_status_t check_input(const infer_abi_tensor_t *expected,
                                  size_t index, infer_tensor_t tensor) {
  if (!tensor) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "input '%s' (index %zu) is NULL", expected->name,
                             index);
  }
  int32_t rank = infer_tensor_rank(tensor);
  const int64_t *shape = infer_tensor_shape(tensor);
  bool same = infer_tensor_dtype(tensor) == (infer_dtype_t)expected->dtype &&
              rank == expected->rank;
  for (int32_t d = 0; same && d < rank; ++d) {
    same = shape[d] == expected->shape[d];
  }
  if (same) {
    return NULL;
  }
  char message[1024];
  text_t text = {message, sizeof(message), 0};
  message[0] = '\0';
  text_append(&text, "input '%s': expected shape ", expected->name);
  append_type(&text, expected->dtype, expected->rank, expected->shape);
  text_append(&text, ", got ");
  append_type(&text, infer_tensor_dtype(tensor), rank, shape);
  return infer_status_make(INFER_INVALID_ARGUMENT, "%s", message);
}

infer_status_t infer_model_check_arity(const struct infer_model *model,
                                       size_t num_inputs, const void *inputs,
                                       size_t num_outputs, const void *outputs,
                                       const char *what) {
  const infer_abi_model_t *abi = model->abi;
  if (num_inputs != abi->num_inputs || num_outputs != abi->num_outputs) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' takes %u inputs and %u outputs, got "
                             "%zu inputs and %zu outputs",
                             model->name, (unsigned)abi->num_inputs,
                             (unsigned)abi->num_outputs, num_inputs,
                             num_outputs);
  }
  if ((num_inputs > 0 && !inputs) || (num_outputs > 0 && !outputs)) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "%s is NULL", what);
  }
  return NULL;
}

infer_status_t infer_model_run(infer_model_t model,
                               const infer_tensor_t *inputs, size_t num_inputs,
                               infer_tensor_t *out_outputs,
                               size_t num_outputs) {
  if (out_outputs) {
    for (size_t i = 0; i < num_outputs; ++i) {
      out_outputs[i] = NULL;
    }
  }
  if (!model) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "model is NULL");
  }
  const infer_abi_model_t *abi = model->abi;
  infer_status_t arity =
      infer_model_check_arity(model, num_inputs, inputs, num_outputs,
                              out_outputs, "inputs or out_outputs");
  if (arity) {
    return arity;
  }
  bool dynamic = infer_abi_is_dynamic(abi);
  for (size_t i = 0; i < num_inputs; ++i) {
    infer_status_t status = dynamic
                                ? infer_dynamic_check_input(abi, i, inputs[i])
                                : check_input(&abi->inputs[i], i, inputs[i]);
    if (status) {
      return status;
    }
  }
  if (dynamic) {
    void *workspace = workspace_take(model);
    if (!workspace && abi->workspace_size > 0) {
      return infer_status_make(INFER_OUT_OF_MEMORY,
                               "out of memory for the %llu-byte workspace of "
                               "model '%s'",
                               (unsigned long long)abi->workspace_size,
                               model->name);
    }
    infer_abi_executor_t *previous = enter_pool(model);
    infer_status_t status =
        infer_dynamic_run(abi, model->name, inputs, workspace,
                          infer_arena_allocator(model->arena), out_outputs);
    leave_pool(model, previous);
    workspace_give_back(model, workspace);
    return status;
  }

  /* From ABI version 2 on, a workspace pointer follows the outputs; CUDA
   * models keep theirs on the device. */
  bool has_workspace = abi->abi_version >= 2 && !model->cuda;
  size_t num_buffers = num_inputs + num_outputs + (has_workspace ? 1 : 0);
  void **buffers = malloc((num_buffers ? num_buffers : 1) * sizeof(void *));
  if (!buffers) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < num_inputs; ++i) {
    buffers[i] = infer_tensor_data(inputs[i]);
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    const infer_abi_tensor_t *declared = &abi->outputs[i];
    /* The model writes every element of its outputs. */
    infer_status_t status = infer_tensor_create_uninitialized(
        (infer_dtype_t)declared->dtype, declared->rank, declared->shape,
        &out_outputs[i]);
    if (status) {
      for (size_t j = 0; j < i; ++j) {
        infer_tensor_release(out_outputs[j]);
        out_outputs[j] = NULL;
      }
      free(buffers);
      return status;
    }
    buffers[num_inputs + i] = infer_tensor_data(out_outputs[i]);
  }
  void *workspace = NULL;
  if (has_workspace) {
    workspace = workspace_take(model);
    if (!workspace && abi->workspace_size > 0) {
      for (size_t i = 0; i < num_outputs; ++i) {
        infer_tensor_release(out_outputs[i]);
        out_outputs[i] = NULL;
      }
      free(buffers);
      return infer_status_make(INFER_OUT_OF_MEMORY,
                               "out of memory for the %llu-byte workspace of "
                               "model '%s'",
                               (unsigned long long)abi->workspace_size,
                               model->name);
    }
    buffers[num_inputs + num_outputs] = workspace;
  }
  if (model->cuda) {
    infer_status_t status =
        infer_cuda_model_run(model->cuda, (void *const *)buffers);
    free(buffers);
    if (status) {
      for (size_t i = 0; i < num_outputs; ++i) {
        infer_tensor_release(out_outputs[i]);
        out_outputs[i] = NULL;
      }
    }
    return status;
  }
  int32_t failed_check = 0;
  if (abi->abi_version >= 4) {
    infer_abi_executor_t *previous = enter_pool(model);
    failed_check = abi->run((void *const *)buffers);
    leave_pool(model, previous);
  } else {
    ((infer_abi_run_v1_fn)(void (*)(void))abi->run)((void *const *)buffers);
  }
  workspace_give_back(model, workspace);
  free(buffers);
  if (failed_check != 0) {
    for (size_t i = 0; i < num_outputs; ++i) {
      infer_tensor_release(out_outputs[i]);
      out_outputs[i] = NULL;
    }
    return infer_check_failure(abi, model->name, failed_check);
  }
  return NULL;
}
