/*===- tensor.c - dense host tensors ----------------------------------===*
 *
 * The buffers of large tensors the runtime allocates are kept, when
 * released, for the next tensor of the same size (below).
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "infer/tensor.h"

#include "tensor_alloc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct infer_tensor {
  infer_dtype_t dtype;
  int32_t rank;
  bool owns_data;
  void *data;
  size_t capacity; /* bytes of an owned buffer (rounded up) */
  size_t num_elements;
  size_t byte_size;
  int64_t shape[]; /* `rank` dimensions */
};

/* Released buffers of TENSOR_CACHE_MIN bytes or more wait here for the
 * next tensor of the same rounded size. infer_model_run returns new output
 * tensors on every call, and a fresh buffer that large comes from mmap with
 * every page faulted in again on its first write: a 786 KB softmax output
 * cost 0.35 ms a call that way, against 0.19 ms for the softmax itself.
 * At most TENSOR_CACHE_SLOTS buffers and TENSOR_CACHE_BYTES in all are
 * kept (the oldest go first); smaller buffers come from malloc's own free
 * lists. Under AddressSanitizer nothing is kept, so that a use after
 * release is still reported. */
enum { TENSOR_CACHE_SLOTS = 8 };
#define TENSOR_CACHE_MIN ((size_t)64 << 10)
#define TENSOR_CACHE_BYTES ((size_t)64 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define TENSOR_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TENSOR_CACHE 0
#endif
#endif
#ifndef TENSOR_CACHE
#define TENSOR_CACHE 1
#endif

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  void *block;
  size_t bytes;
} cache[TENSOR_CACHE_SLOTS];
static size_t cache_count, cache_bytes; /* oldest first */

/* A cached buffer of exactly `bytes`, or NULL. */
static void *cache_take(size_t bytes) {
  if (!TENSOR_CACHE || bytes < TENSOR_CACHE_MIN) {
    return NULL;
  }
  void *block = NULL;
  pthread_mutex_lock(&cache_lock);
  for (size_t i = cache_count; i-- > 0;) {
    if (cache[i].bytes == bytes) {
      block = cache[i].block;
      cache_bytes -= bytes;
      memmove(&cache[i], &cache[i + 1], (cache_count - i - 1) * sizeof(*cache));
      --cache_count;
      break;
    }
  }
  pthread_mutex_unlock(&cache_lock);
  return block;
}

/* Keeps `block` (of `bytes`) for a later tensor, or frees it; frees the
 * oldest cached buffers as far as the limits need. */
static void cache_give(void *block, size_t bytes) {
  if (!TENSOR_CACHE || bytes < TENSOR_CACHE_MIN || bytes > TENSOR_CACHE_BYTES) {
    free(block);
    return;
  }
  void *evicted[TENSOR_CACHE_SLOTS];
  size_t count = 0;
  pthread_mutex_lock(&cache_lock);
  while (cache_count == TENSOR_CACHE_SLOTS ||
         cache_bytes + bytes > TENSOR_CACHE_BYTES) {
    evicted[count++] = cache[0].block;
    cache_bytes -= cache[0].bytes;
    memmove(&cache[0], &cache[1], (cache_count - 1) * sizeof(*cache));
    --cache_count;
  }
  cache[cache_count].block = block;
  cache[cache_count].bytes = bytes;
  ++cache_count;
  cache_bytes += bytes;
  pthread_mutex_unlock(&cache_lock);
  for (size_t i = 0; i < count; ++i) {
    free(evicted[i]);
  }
}

size_t infer_dtype_size(infer_dtype_t dtype) {
  switch (dtype) {
  case INFER_DTYPE_U8:
  case INFER_DTYPE_I8:
  case INFER_DTYPE_BOOL:
    return 1;
  case INFER_DTYPE_U16:
  case INFER_DTYPE_I16:
  case INFER_DTYPE_F16:
  case INFER_DTYPE_BF16:
    return 2;
  case INFER_DTYPE_F32:
  case INFER_DTYPE_I32:
  case INFER_DTYPE_U32:
    return 4;
  case INFER_DTYPE_I64:
  case INFER_DTYPE_F64:
  case INFER_DTYPE_U64:
    return 8;
  case INFER_DTYPE_INVALID:
    return 0;
  }
  return 0;
}

const char *infer_dtype_name(infer_dtype_t dtype) {
  switch (dtype) {
  case INFER_DTYPE_F32:
    return "float32";
  case INFER_DTYPE_U8:
    return "uint8";
  case INFER_DTYPE_I8:
    return "int8";
  case INFER_DTYPE_U16:
    return "uint16";
  case INFER_DTYPE_I16:
    return "int16";
  case INFER_DTYPE_I32:
    return "int32";
  case INFER_DTYPE_I64:
    return "int64";
  case INFER_DTYPE_BOOL:
    return "bool";
  case INFER_DTYPE_F16:
    return "float16";
  case INFER_DTYPE_F64:
    return "float64";
  case INFER_DTYPE_U32:
    return "uint32";
  case INFER_DTYPE_U64:
    return "uint64";
  case INFER_DTYPE_BF16:
    return "bfloat16";
  case INFER_DTYPE_INVALID:
    return "invalid";
  }
  return "invalid";
}

/* Checks dtype and shape and allocates the tensor header (no data). */
static infer_status_t make_header(infer_dtype_t dtype, int32_t rank,
                                  const int64_t *shape,
                                  struct infer_tensor **out_tensor) {
  size_t element_size = infer_dtype_size(dtype);
  if (element_size == 0) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "unknown tensor dtype %d",
                             (int)dtype);
  }
  if (rank < 0) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "negative tensor rank %d",
                             (int)rank);
  }
  if (rank > 0 && !shape) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "tensor of rank %d has a NULL shape", (int)rank);
  }
  /* With a zero dimension anywhere the product is 0 however large the
   * others are, so look for one before checking for overflow. */
  bool empty = false;
  for (int32_t i = 0; i < rank; ++i) {
    if (shape[i] < 0) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "tensor dimension %d is negative (%lld)", (int)i,
                               (long long)shape[i]);
    }
    empty |= shape[i] == 0;
  }
  size_t num_elements = empty ? 0 : 1;
  for (int32_t i = 0; i < rank && !empty; ++i) {
    uint64_t dim = (uint64_t)shape[i];
    if (dim > SIZE_MAX / element_size / num_elements) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "tensor byte size overflows (dimension %d = "
                               "%lld)",
                               (int)i, (long long)shape[i]);
    }
    num_elements *= (size_t)dim;
  }
  struct infer_tensor *tensor =
      malloc(sizeof(*tensor) + (size_t)rank * sizeof(int64_t));
  if (!tensor) {
    return infer_status_make(INFER_OUT_OF_MEMORY, "out of memory");
  }
  tensor->dtype = dtype;
  tensor->rank = rank;
  tensor->owns_data = false;
  tensor->data = NULL;
  tensor->capacity = 0;
  tensor->num_elements = num_elements;
  tensor->byte_size = num_elements * element_size;
  if (rank > 0) {
    memcpy(tensor->shape, shape, (size_t)rank * sizeof(int64_t));
  }
  *out_tensor = tensor;
  return NULL;
}

infer_status_t infer_tensor_create_uninitialized(infer_dtype_t dtype,
                                                 int32_t rank,
                                                 const int64_t *shape,
                                                 infer_tensor_t *out_tensor) {
  if (!out_tensor) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "out_tensor is NULL");
  }
  *out_tensor = NULL;
  struct infer_tensor *tensor;
  infer_status_t status = make_header(dtype, rank, shape, &tensor);
  if (status) {
    return status;
  }
  /* aligned_alloc wants a multiple of the alignment, and never 0. */
  size_t size = tensor->byte_size;
  if (size > SIZE_MAX - INFER_TENSOR_ALIGNMENT) {
    free(tensor);
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "tensor byte size %zu is too large", size);
  }
  size = (size + INFER_TENSOR_ALIGNMENT - 1) &
         ~(size_t)(INFER_TENSOR_ALIGNMENT - 1);
  if (size == 0) {
    size = INFER_TENSOR_ALIGNMENT;
  }
  void *data = cache_take(size);
  if (!data) {
    data = aligned_alloc(INFER_TENSOR_ALIGNMENT, size);
  }
  if (!data) {
    infer_status_t status = infer_status_make(
        INFER_OUT_OF_MEMORY, "cannot allocate %zu bytes for a tensor",
        tensor->byte_size);
    free(tensor);
    return status;
  }
  tensor->data = data;
  tensor->owns_data = true;
  tensor->capacity = size;
  *out_tensor = tensor;
  return NULL;
}

infer_status_t infer_tensor_create(infer_dtype_t dtype, int32_t rank,
                                   const int64_t *shape,
                                   infer_tensor_t *out_tensor) {
  infer_status_t status =
      infer_tensor_create_uninitialized(dtype, rank, shape, out_tensor);
  if (!status) {
    memset((*out_tensor)->data, 0, (*out_tensor)->byte_size);
  }
  return status;
}

infer_status_t infer_tensor_wrap(infer_dtype_t dtype, int32_t rank,
                                 const int64_t *shape, void *data,
                                 infer_tensor_t *out_tensor) {
  if (!out_tensor) {
    return infer_status_make(INFER_INVALID_ARGUMENT, "out_tensor is NULL");
  }
  *out_tensor = NULL;
  struct infer_tensor *tensor;
  infer_status_t status = make_header(dtype, rank, shape, &tensor);
  if (status) {
    return status;
  }
  if (!data && tensor->byte_size > 0) {
    infer_status_t status = infer_status_make(
        INFER_INVALID_ARGUMENT,
        "cannot wrap NULL data in a tensor of %zu bytes", tensor->byte_size);
    free(tensor);
    return status;
  }
  tensor->data = data;
  *out_tensor = tensor;
  return NULL;
}

void infer_tensor_release(infer_tensor_t tensor) {
  if (!tensor) {
    return;
  }
  if (tensor->owns_data) {
    cache_give(tensor->data, tensor->capacity);
  }
  free(tensor);
}

infer_dtype_t infer_tensor_dtype(infer_tensor_t tensor) {
  return tensor ? tensor->dtype : INFER_DTYPE_INVALID;
}

int32_t infer_tensor_rank(infer_tensor_t tensor) {
  return tensor ? tensor->rank : 0;
}

const int64_t *infer_tensor_shape(infer_tensor_t tensor) {
  return tensor ? tensor->shape : NULL;
}

void *infer_tensor_data(infer_tensor_t tensor) {
  return tensor ? tensor->data : NULL;
}

size_t infer_tensor_num_elements(infer_tensor_t tensor) {
  return tensor ? tensor->num_elements : 0;
}

size_t infer_tensor_byte_size(infer_tensor_t tensor) {
  return tensor ? tensor->byte_size : 0;
}
