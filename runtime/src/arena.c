/*===- arena.c - cached buffers for dynamically sized tensors ---------===*
 *
 * Blocks are cached by exact size: runs at one shape ask for the same
 * sizes every time. The cache holds at most ARENA_SLOTS blocks; when full,
 * the oldest is freed, so runs at ever-changing shapes keep a bounded
 * cache.
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "arena.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ARENA_SLOTS = 256, ARENA_ALIGNMENT = 64 };

typedef struct {
  void *block;
  uint64_t bytes;
} cached_block_t;

struct infer_arena {
  infer_abi_allocator_t base; /* first: the generated code gets &base */
  pthread_mutex_t lock;
  size_t count; /* cached blocks, oldest first */
  cached_block_t cached[ARENA_SLOTS];
};

static void *arena_alloc(infer_abi_allocator_t *self, uint64_t bytes) {
  infer_arena_t *arena = (infer_arena_t *)self;
  void *block = NULL;
  pthread_mutex_lock(&arena->lock);
  for (size_t i = arena->count; i-- > 0;) {
    if (arena->cached[i].bytes == bytes) {
      block = arena->cached[i].block;
      memmove(&arena->cached[i], &arena->cached[i + 1],
              (arena->count - i - 1) * sizeof(cached_block_t));
      --arena->count;
      break;
    }
  }
  pthread_mutex_unlock(&arena->lock);
  if (block) {
    return block;
  }
  if (bytes > SIZE_MAX - ARENA_ALIGNMENT) {
    return NULL; /* would round to a tiny block */
  }
  uint64_t rounded =
      (bytes + ARENA_ALIGNMENT - 1) / ARENA_ALIGNMENT * ARENA_ALIGNMENT;
  return aligned_alloc(ARENA_ALIGNMENT, rounded ? rounded : ARENA_ALIGNMENT);
}

static void arena_free(infer_abi_allocator_t *self, void *block,
                       uint64_t bytes) {
  infer_arena_t *arena = (infer_arena_t *)self;
  void *evicted = NULL;
  pthread_mutex_lock(&arena->lock);
  if (arena->count == ARENA_SLOTS) {
    evicted = arena->cached[0].block;
    memmove(&arena->cached[0], &arena->cached[1],
            (ARENA_SLOTS - 1) * sizeof(cached_block_t));
    --arena->count;
  }
  arena->cached[arena->count].block = block;
  arena->cached[arena->count].bytes = bytes;
  ++arena->count;
  pthread_mutex_unlock(&arena->lock);
  free(evicted);
}

infer_arena_t *infer_arena_create(void) {
  infer_arena_t *arena = calloc(1, sizeof(*arena));
  if (!arena) {
    return NULL;
  }
  if (pthread_mutex_init(&arena->lock, NULL) != 0) {
    free(arena);
    return NULL;
  }
  arena->base.alloc = arena_alloc;
  arena->base.free = arena_free;
  return arena;
}

void infer_arena_destroy(infer_arena_t *arena) {
  if (!arena) {
    return;
  }
  for (size_t i = 0; i < arena->count; ++i) {
    free(arena->cached[i].block);
  }
  pthread_mutex_destroy(&arena->lock);
  free(arena);
}

infer_abi_allocator_t *infer_arena_allocator(infer_arena_t *arena) {
  return arena ? &arena->base : NULL;
}

void infer_abi_buffer_release(void *buffer) {
  if (!buffer) {
    return;
  }
  const infer_abi_buffer_header_t *header =
      (const infer_abi_buffer_header_t *)((char *)buffer -
                                          INFER_ABI_BUFFER_HEADER_BYTES);
  if (header->allocator) {
    header->allocator->free(header->allocator, header->block, header->bytes);
  } else {
    free(header->block);
  }
}
