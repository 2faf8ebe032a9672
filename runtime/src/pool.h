/*===- pool.h - the thread pool a model's runs split their loops on -*- C
 * -*-===*
 *
 * An infer_abi_executor_t (infer/abi.h) over worker threads the pool owns.
 * A parallel_for splits the iterations into units and gives each thread a
 * contiguous range of them, the same split loop after loop; a thread
 * done with its own takes units from the back of the others' ranges, and
 * the calling thread, once none is left, waits only for the units workers
 * are running. A worker that the
 * OS deschedules while it holds a unit still delays the loop, so on a
 * busy machine the pool drops threads that wait for a CPU and tells the
 * code (num_threads), which then splits its loops in fewer, larger
 * ranges. One loop runs at a time: a
 * parallel_for that finds the pool busy (a second caller, or a loop
 * nested in a task) runs its iterations on its own thread.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INFER_RUNTIME_SRC_POOL_H
#define INFER_RUNTIME_SRC_POOL_H

#include "infer/abi.h"

typedef struct infer_pool infer_pool_t;

/* A pool for `threads` threads in all, the caller's included: threads - 1
 * workers (fewer if the system refuses some). With `adaptive`, it drops
 * threads that wait for a CPU (pool.c). NULL when threads <= 1 or out of
 * memory: then there is nothing to hand work to. */
infer_pool_t *infer_pool_create(int threads, int adaptive);

/* Called as a run starts: a pool that dropped threads long enough ago
 * takes them all back. Accepts NULL. */
void infer_pool_begin_run(infer_pool_t *pool);

/* Stops and joins the workers. Accepts NULL. No parallel_for may run. */
void infer_pool_destroy(infer_pool_t *pool);

/* The executor the generated code calls; NULL for a NULL pool. */
infer_abi_executor_t *infer_pool_executor(infer_pool_t *pool);

/* Threads a run uses: the workers started plus the caller (1 for NULL). */
int infer_pool_threads(const infer_pool_t *pool);

/* CPUs this process may run on (sched_getaffinity), at least 1. */
int infer_available_cpus(void);

#endif /* INFER_RUNTIME_SRC_POOL_H */
