/*===- model.c - loading and querying compiled models ------------------===*
 *
 * A model handle is immutable once made: it holds the dlopen handle (if any),
 * the ABI description, a name, the thread pool and the cached workspace that
 * runs (run.c) take and give back.
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "infer/runtime.h"

#include "arena.h"
#include "cuda.h"
#include "dynamic.h"
#include "elf_check.h"
#include "model.h"
#include "profile.h"
#include "tensor_alloc.h"
#include "text.h"

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
#define OPTION(field)                                                          \
  (options && options->struct_size >= offsetof(infer_model_options_t, field) + \
                                          sizeof(options->field)               \
       ? options->field                                                        \
       : 0)
  int32_t threads = OPTION(intra_op_threads);
  int32_t fixed_threads = OPTION(fixed_threads);
#undef OPTION
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
  if (!status) {
    status = infer_check_abi_profile(abi);
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
      model->pool = infer_pool_create(threads, !fixed_threads);
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
  infer_text_t text = {names, sizeof(names), 0};
  names[0] = '\0';
  infer_text_append_names(&text, tensors, count);
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
