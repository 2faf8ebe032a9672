/*===- arena.h - cached buffers for dynamically sized tensors -----*- C -*-===*
 *
 * Internal to the runtime. The generic variant of a dynamic model asks for
 * its buffers at run time (infer_abi_allocator_t); a model's arena keeps
 * the blocks its runs give back and hands them out again for requests of
 * the same size, so steady-state runs at one shape touch memory that is
 * already mapped instead of faulting in fresh pages from malloc.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_ARENA_H
#define INFER_RUNTIME_SRC_ARENA_H

#include "infer/abi.h"

/* A thread-safe cache of up to a fixed number of freed blocks. */
typedef struct infer_arena infer_arena_t;

/* NULL when out of memory. */
infer_arena_t *infer_arena_create(void);

/* Frees every cached block; accepts NULL. Blocks still out must not be
 * given back afterwards. */
void infer_arena_destroy(infer_arena_t *arena);

/* The allocator the generated code calls. */
infer_abi_allocator_t *infer_arena_allocator(infer_arena_t *arena);

/* Releases a buffer the generated code allocated (out_allocations[i]):
 * back to the allocator its header names, or to free(). Accepts NULL. */
void infer_abi_buffer_release(void *buffer);

#endif /* INFER_RUNTIME_SRC_ARENA_H */
