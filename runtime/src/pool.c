/*===- pool.c - the thread pool a model's runs split their loops on -------===*
 *
 * One job at a time. Its iterations are split into `units` (at most
 * kMaxUnits; unit u covers [u*n/units, (u+1)*n/units)) and handed out in
 * chunks of units by a compare-and-swap on one 64-bit word:
 *
 *   generation (24 bits) | units (20 bits) | next unclaimed unit (20 bits)
 *
 * A claim that succeeds sees units still unclaimed, so the job's caller
 * is still waiting and the job's fields (task, context, n) are the ones
 * published before the word. The generation makes a stale word from an
 * earlier job with the same size unequal to the current one.
 *
 * Workers spin on the generation for a while after a job (models run
 * their parallel loops back to back), then sleep on a condition variable.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

enum {
  kUnitBits = 20,
  kMaxUnits = (1 << kUnitBits) - 1,
  kChunksPerThread = 4,
};
/* How long an idle worker spins before it sleeps, and how long a caller
 * spins on unfinished chunks before it yields its core, in nanoseconds. */
static const int64_t kWorkerSpinNs = 200 * 1000;
static const int64_t kCallerSpinNs = 20 * 1000;

struct infer_pool {
  infer_abi_executor_t executor; /* first: the handle the code calls */
  int num_workers;
  pthread_t *workers;
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  atomic_int busy;        /* 1 while a caller runs a job */
  atomic_int stop;        /* set once, to end the workers */
  atomic_int sleeping;    /* workers waiting on `wake` */
  atomic_uint generation; /* of the last job published */
  _Atomic uint64_t word;  /* generation | units | next unit */
  _Atomic(infer_abi_task_fn) task;
  _Atomic(void *) context;
  _Atomic int64_t n;
  _Atomic int64_t done; /* units finished in the current job */
};

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static uint64_t units_of(uint64_t word) {
  return (word >> kUnitBits) & kMaxUnits;
}

/* Claims and runs chunks of whatever job is in progress until none is
 * left. */
static void run_chunks(struct infer_pool *pool) {
  int threads = pool->num_workers + 1;
  for (;;) {
    uint64_t word = atomic_load_explicit(&pool->word, memory_order_acquire);
    uint64_t units = units_of(word);
    uint64_t first = word & kMaxUnits;
    if (first >= units) {
      return;
    }
    uint64_t chunk = units / ((uint64_t)threads * kChunksPerThread);
    if (chunk == 0) {
      chunk = 1;
    }
    uint64_t last = first + chunk < units ? first + chunk : units;
    if (!atomic_compare_exchange_weak_explicit(
            &pool->word, &word, (word & ~(uint64_t)kMaxUnits) | last,
            memory_order_acq_rel, memory_order_acquire)) {
      continue;
    }
    infer_abi_task_fn task =
        atomic_load_explicit(&pool->task, memory_order_relaxed);
    void *context = atomic_load_explicit(&pool->context, memory_order_relaxed);
    int64_t n = atomic_load_explicit(&pool->n, memory_order_relaxed);
    int64_t begin = (int64_t)((unsigned __int128)first * (uint64_t)n / units);
    int64_t end = (int64_t)((unsigned __int128)last * (uint64_t)n / units);
    task(context, begin, end);
    atomic_fetch_add_explicit(&pool->done, (int64_t)(last - first),
                              memory_order_release);
  }
}

static void *worker_main(void *arg) {
  struct infer_pool *pool = arg;
  /* The generation before the first job, not the current one: a worker
   * that starts late (the OS may run it only after many jobs) must still
   * join the job in progress. */
  unsigned seen = 0;
  for (;;) {
    int64_t start = now_ns();
    for (unsigned spins = 1;; ++spins) {
      if (atomic_load(&pool->generation) != seen ||
          atomic_load_explicit(&pool->stop, memory_order_relaxed)) {
        break;
      }
      cpu_relax();
      if (spins % 64 == 0 && now_ns() - start > kWorkerSpinNs) {
        /* Sleep. The caller publishes the generation before it reads
         * `sleeping`, and this thread counts itself sleeping before it
         * reads the generation (both sequentially consistent): one of the
         * two sees the other. */
        pthread_mutex_lock(&pool->mutex);
        atomic_fetch_add(&pool->sleeping, 1);
        while (atomic_load(&pool->generation) == seen &&
               !atomic_load(&pool->stop)) {
          pthread_cond_wait(&pool->wake, &pool->mutex);
        }
        atomic_fetch_sub(&pool->sleeping, 1);
        pthread_mutex_unlock(&pool->mutex);
        break;
      }
    }
    if (atomic_load(&pool->stop)) {
      return NULL;
    }
    seen = atomic_load(&pool->generation);
    run_chunks(pool);
  }
}

static void pool_parallel_for(infer_abi_executor_t *self,
                              infer_abi_task_fn task, void *context,
                              int64_t n) {
  struct infer_pool *pool = (struct infer_pool *)self;
  if (n <= 0) {
    return;
  }
  if (n < 2 || pool->num_workers == 0 ||
      atomic_exchange_explicit(&pool->busy, 1, memory_order_acquire)) {
    task(context, 0, n);
    return;
  }
  uint64_t units = n < kMaxUnits ? (uint64_t)n : kMaxUnits;
  atomic_store_explicit(&pool->task, task, memory_order_relaxed);
  atomic_store_explicit(&pool->context, context, memory_order_relaxed);
  atomic_store_explicit(&pool->n, n, memory_order_relaxed);
  atomic_store_explicit(&pool->done, 0, memory_order_relaxed);
  unsigned generation =
      (atomic_load_explicit(&pool->generation, memory_order_relaxed) + 1) &
      0xffffff;
  atomic_store_explicit(&pool->word,
                        ((uint64_t)generation << (2 * kUnitBits)) |
                            (units << kUnitBits),
                        memory_order_release);
  atomic_store(&pool->generation, generation);
  if (atomic_load(&pool->sleeping) > 0) {
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
  }
  run_chunks(pool);
  /* Every unit is claimed; wait for the chunks workers are running. */
  int64_t start = 0;
  for (unsigned spins = 1;
       atomic_load_explicit(&pool->done, memory_order_acquire) !=
       (int64_t)units;
       ++spins) {
    cpu_relax();
    if (spins % 64 == 0) {
      if (start == 0) {
        start = now_ns();
      } else if (now_ns() - start > kCallerSpinNs) {
        sched_yield();
      }
    }
  }
  atomic_store_explicit(&pool->busy, 0, memory_order_release);
}

infer_pool_t *infer_pool_create(int threads) {
  if (threads <= 1) {
    return NULL;
  }
  struct infer_pool *pool = calloc(1, sizeof(*pool));
  pthread_t *workers =
      pool ? calloc((size_t)threads - 1, sizeof(pthread_t)) : NULL;
  if (!workers) {
    free(pool);
    return NULL;
  }
  pool->executor.parallel_for = pool_parallel_for;
  pool->workers = workers;
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->wake, NULL);
  for (int i = 0; i < threads - 1; ++i) {
    if (pthread_create(&workers[pool->num_workers], NULL, worker_main, pool) ==
        0) {
      ++pool->num_workers;
    }
  }
  pool->executor.num_threads = pool->num_workers + 1;
  return pool;
}

void infer_pool_destroy(infer_pool_t *pool) {
  if (!pool) {
    return;
  }
  pthread_mutex_lock(&pool->mutex);
  atomic_store(&pool->stop, 1);
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mutex);
  for (int i = 0; i < pool->num_workers; ++i) {
    pthread_join(pool->workers[i], NULL);
  }
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->mutex);
  free(pool->workers);
  free(pool);
}

infer_abi_executor_t *infer_pool_executor(infer_pool_t *pool) {
  return pool ? &pool->executor : NULL;
}

int infer_pool_threads(const infer_pool_t *pool) {
  return pool ? pool->num_workers + 1 : 1;
}

int infer_available_cpus(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0) {
      return count;
    }
  }
  return 1;
}
