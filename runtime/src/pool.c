/*===- pool.c - the thread pool a model's runs split their loops on -------===*
 *
 * One job at a time. Its iterations are split into `units` (at most
 * kUnitsPerThread per thread; unit u covers [u*n/units, (u+1)*n/units)),
 * and each thread of the job owns a range of them, as a static split
 * would give it: [t*units/T, (t+1)*units/T) for the caller (t = 0) and
 * the workers (t = index + 1). A range is one 64-bit word,
 *
 *   generation (24 bits) | next unit (20 bits) | end (20 bits)
 *
 * its owner takes units from the front, one compare-and-swap each; a
 * thread whose range is empty takes them from the back of the others'.
 * So a loop split alike layer after layer keeps each thread on the same
 * data (its own caches), and a thread that runs slower (a vCPU the host
 * shares, a worker the OS deschedules) hands its last units to the
 * others instead of making them wait. A claim that succeeds sees units
 * still unclaimed, so the job's caller is still waiting and the job's
 * fields (task, context, n, units) are the ones published before the
 * words. The generation makes a stale word from an earlier job unequal
 * to the current one.
 *
 * Workers spin on the generation for a while after a job (models run
 * their parallel loops back to back), then sleep on a condition variable.
 *
 * Busy machines: a worker the OS deschedules while it holds a unit makes
 * the caller wait for it, loop after loop. So each worker watches its own
 * run delay (time runnable but not running, from the scheduler's
 * statistics) after its jobs, at most once a millisecond, and keeps a
 * decaying average of the share of time it spent waiting for a CPU. Over
 * 1/kDelayShare, the pool drops one thread (the highest worker sleeps)
 * and tells the code through num_threads; with one thread left, loops run
 * on the caller alone. The first run that starts a penalty later takes
 * all threads back. The penalty starts at kMinShrinkNs, so a burst of
 * other work costs little, and doubles (up to kMaxShrinkNs) each time the
 * pool drops a thread again soon after taking them back, so a machine
 * that stays busy is probed rarely.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "pool.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

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
  /* Units per thread at most: fine enough to even out threads that run
   * at different speeds, coarse enough that claims cost nothing. */
  kUnitsPerThread = 16,
};
/* How long an idle worker spins before it sleeps, and how long a caller
 * spins on unfinished units before it yields its core, in nanoseconds. */
static const int64_t kWorkerSpinNs = 200 * 1000;
static const int64_t kCallerSpinNs = 20 * 1000;
/* A worker reads its run delay over windows of kWindowNs to
 * kMaxWindowNs (a longer one spanned a long sleep and only restarts the
 * count) and averages the share of each spent runnable but not running
 * with a decay time of kDecayNs, a window weighing as kMaxWeightNs at
 * most (one stall of a few ms, a kernel thread on the worker's CPU, must
 * not drop a thread alone); over 1/kDelayShare drops a thread for a
 * penalty of kMinShrinkNs, doubled up to kMaxShrinkNs when it happens
 * within kRecheckNs of taking the threads back. */
static const int64_t kWindowNs = 1000 * 1000;
static const int64_t kMaxWindowNs = 20 * 1000 * 1000;
static const int64_t kDelayShare = 4;
static const int64_t kDecayNs = 20 * 1000 * 1000;
static const int64_t kMaxWeightNs = 2 * 1000 * 1000;
static const int64_t kMinShrinkNs = 50 * 1000 * 1000;
static const int64_t kMaxShrinkNs = 1600 * 1000 * 1000;
static const int64_t kRecheckNs = 150 * 1000 * 1000;

struct worker {
  struct infer_pool *pool;
  int index; /* joins jobs while index + 1 < active */
};

/* A thread's range of the current job's units, on a cache line of its own:
 * its owner claims from it without contention until others steal. */
struct range {
  _Alignas(64) _Atomic uint64_t word; /* generation | next | end */
};

struct infer_pool {
  infer_abi_executor_t executor; /* first: the handle the code calls */
  int num_workers;
  pthread_t *workers;
  struct worker *worker_args;
  int adaptive; /* drop threads on a busy machine */
  pthread_mutex_t mutex;
  pthread_cond_t wake;         /* a job was published */
  pthread_cond_t rejoin;       /* `active` grew */
  atomic_int active;           /* threads jobs use now, the caller's included */
  _Atomic int64_t shrunk_at;   /* when `active` last dropped */
  _Atomic int64_t restored_at; /* when it last went back to all */
  _Atomic int64_t penalty_ns;  /* how long after shrunk_at */
  atomic_int busy;             /* 1 while a caller runs a job */
  atomic_int stop;             /* set once, to end the workers */
  atomic_int sleeping;         /* workers waiting on `wake` */
  atomic_uint generation;      /* of the last job published */
  struct range *ranges;        /* one per thread, the caller's first */
  _Atomic int ranges_used;     /* threads the current job was split for */
  _Atomic int64_t units;       /* of the current job */
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

static uint64_t pack_range(uint64_t generation, uint64_t next, uint64_t end) {
  return (generation << (2 * kUnitBits)) | (next << kUnitBits) | end;
}

/* Claims one unit of `range` for the job of `generation`, from its front
 * (the owner) or its back (a thief); -1 when it has none left. */
static int64_t claim(struct range *range, uint64_t generation, int back) {
  uint64_t word = atomic_load_explicit(&range->word, memory_order_acquire);
  for (;;) {
    uint64_t next = (word >> kUnitBits) & kMaxUnits, end = word & kMaxUnits;
    if (word >> (2 * kUnitBits) != generation || next >= end) {
      return -1;
    }
    uint64_t claimed = back ? end - 1 : next;
    uint64_t after = back ? pack_range(generation, next, end - 1)
                          : pack_range(generation, next + 1, end);
    if (atomic_compare_exchange_weak_explicit(&range->word, &word, after,
                                              memory_order_acq_rel,
                                              memory_order_acquire)) {
      return (int64_t)claimed;
    }
  }
}

/* Runs unit `unit` of the current job; its fields are read after the
 * claim, which saw the words published after them. */
static void run_unit(struct infer_pool *pool, int64_t unit) {
  infer_abi_task_fn task =
      atomic_load_explicit(&pool->task, memory_order_relaxed);
  void *context = atomic_load_explicit(&pool->context, memory_order_relaxed);
  int64_t n = atomic_load_explicit(&pool->n, memory_order_relaxed);
  uint64_t units =
      (uint64_t)atomic_load_explicit(&pool->units, memory_order_relaxed);
  int64_t begin =
      (int64_t)((unsigned __int128)(uint64_t)unit * (uint64_t)n / units);
  int64_t end =
      (int64_t)((unsigned __int128)((uint64_t)unit + 1) * (uint64_t)n / units);
  task(context, begin, end);
}

/* Runs the units of range `self` (the thread's own, when the job has
 * one), then those left at the back of the others', until none is left
 * in the job `generation`. */
static void run_units(struct infer_pool *pool, int self, unsigned generation) {
  int used = atomic_load_explicit(&pool->ranges_used, memory_order_relaxed);
  int64_t ran = 0;
  if (self < used) {
    for (int64_t unit; (unit = claim(&pool->ranges[self], generation, 0)) >= 0;
         ++ran) {
      run_unit(pool, unit);
    }
  }
  for (int i = 1; i < used; ++i) {
    struct range *victim = &pool->ranges[(self + i) % used];
    for (int64_t unit; (unit = claim(victim, generation, 1)) >= 0; ++ran) {
      run_unit(pool, unit);
    }
  }
  if (ran) {
    atomic_fetch_add_explicit(&pool->done, ran, memory_order_release);
  }
}

/*===-- Watching for a busy machine --------------------------------------===*/

struct delay_watch {
  int fd; /* /proc/thread-self/schedstat, -1 when not watching */
  int64_t since_ns;
  int64_t delay_ns;
  double share; /* of recent time spent waiting for a CPU (decaying) */
};

/* The calling thread's run delay so far in nanoseconds (the second field
 * of schedstat), or -1. */
static int64_t run_delay_ns(int fd) {
  char text[128];
  ssize_t got = pread(fd, text, sizeof(text) - 1, 0);
  if (got <= 0) {
    return -1;
  }
  text[got] = '\0';
  unsigned long long running, waiting;
  if (sscanf(text, "%llu %llu", &running, &waiting) != 2) {
    return -1;
  }
  return (int64_t)waiting;
}

/* Drops one thread (a no-op with one left): the highest joining worker
 * sees it before its next job and sleeps. Under the mutex, as the
 * restore in infer_pool_begin_run: `active` and num_threads change
 * together. */
static void shrink(struct infer_pool *pool, int64_t now) {
  pthread_mutex_lock(&pool->mutex);
  int active = atomic_load(&pool->active);
  if (active > 1) {
    int64_t penalty = atomic_load(&pool->penalty_ns);
    if (active == pool->num_workers + 1) {
      penalty = now - atomic_load(&pool->restored_at) < kRecheckNs &&
                        penalty < kMaxShrinkNs
                    ? 2 * penalty
                    : kMinShrinkNs;
    }
    atomic_store(&pool->penalty_ns, penalty);
    atomic_store(&pool->shrunk_at, now);
    atomic_store(&pool->active, active - 1);
    __atomic_store_n(&pool->executor.num_threads, active - 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&pool->mutex);
}

/* Called by a worker after each job: closes the window once it is long
 * enough and shrinks the pool when the worker waited for a CPU. */
static void watch_delay(struct infer_pool *pool, struct delay_watch *watch) {
  if (watch->fd < 0) {
    return;
  }
  int64_t now = now_ns();
  int64_t window = now - watch->since_ns;
  if (window < kWindowNs) {
    return;
  }
  int64_t delay = run_delay_ns(watch->fd);
  if (delay < 0) {
    close(watch->fd);
    watch->fd = -1;
    return;
  }
  if (window <= kMaxWindowNs) {
    /* A window counts as at most 2 ms: one long stall (a kernel thread,
     * a few ms on the caller's CPU) must not drop a thread alone; other
     * work that stays raises the average within a few windows. */
    double weight = (double)(window < kMaxWeightNs ? window : kMaxWeightNs) /
                    (double)kDecayNs;
    watch->share +=
        ((double)(delay - watch->delay_ns) / (double)window - watch->share) *
        weight;
    if (watch->share * kDelayShare > 1) {
      watch->share = 0;
      shrink(pool, now);
    }
  }
  watch->since_ns = now;
  watch->delay_ns = delay;
}

/*===-- Workers -----------------------------------------------------------===*/

static int joins(struct infer_pool *pool, int index) {
  return index + 1 < atomic_load(&pool->active);
}

/* Waits, spinning then sleeping, for a job this worker joins or for the
 * pool to stop; false for stop. */
static int wait_for_job(struct infer_pool *pool, int index, unsigned seen) {
  for (;;) {
    if (!joins(pool, index)) {
      pthread_mutex_lock(&pool->mutex);
      while (!joins(pool, index) && !atomic_load(&pool->stop)) {
        pthread_cond_wait(&pool->rejoin, &pool->mutex);
      }
      pthread_mutex_unlock(&pool->mutex);
    }
    int64_t start = now_ns();
    for (unsigned spins = 1;; ++spins) {
      if (atomic_load_explicit(&pool->stop, memory_order_relaxed)) {
        return 0;
      }
      if (atomic_load(&pool->generation) != seen) {
        return 1;
      }
      cpu_relax();
      if (spins % 64 == 0 && now_ns() - start > kWorkerSpinNs) {
        break;
      }
    }
    /* Sleep. The caller publishes the generation before it reads
     * `sleeping`, and this thread counts itself sleeping before it reads
     * the generation (both sequentially consistent): one of the two sees
     * the other. */
    pthread_mutex_lock(&pool->mutex);
    atomic_fetch_add(&pool->sleeping, 1);
    while (atomic_load(&pool->generation) == seen &&
           !atomic_load(&pool->stop)) {
      pthread_cond_wait(&pool->wake, &pool->mutex);
    }
    atomic_fetch_sub(&pool->sleeping, 1);
    pthread_mutex_unlock(&pool->mutex);
    if (atomic_load(&pool->stop)) {
      return 0;
    }
    if (joins(pool, index)) {
      return 1;
    }
    seen = atomic_load(&pool->generation);
  }
}

static void *worker_main(void *arg) {
  struct worker *self = arg;
  struct infer_pool *pool = self->pool;
  struct delay_watch watch = {-1, 0, 0, 0};
  if (pool->adaptive) {
    watch.fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  }
  /* The generation before the first job, not the current one: a worker
   * that starts late (the OS may run it only after many jobs) must still
   * join the job in progress. */
  unsigned seen = 0;
  while (wait_for_job(pool, self->index, seen)) {
    seen = atomic_load(&pool->generation);
    if (!joins(pool, self->index)) {
      continue; /* dropped while it spun: sleep until rejoined */
    }
    run_units(pool, self->index + 1, seen);
    watch_delay(pool, &watch);
  }
  if (watch.fd >= 0) {
    close(watch.fd);
  }
  return NULL;
}

/*===-- Callers -----------------------------------------------------------===*/

static void pool_parallel_for(infer_abi_executor_t *self,
                              infer_abi_task_fn task, void *context,
                              int64_t n) {
  struct infer_pool *pool = (struct infer_pool *)self;
  if (n <= 0) {
    return;
  }
  if (n < 2 || atomic_load_explicit(&pool->active, memory_order_relaxed) < 2 ||
      atomic_exchange_explicit(&pool->busy, 1, memory_order_acquire)) {
    task(context, 0, n);
    return;
  }
  int used = atomic_load_explicit(&pool->active, memory_order_relaxed);
  uint64_t most = (uint64_t)used * kUnitsPerThread;
  uint64_t units = (uint64_t)n < most ? (uint64_t)n : most;
  atomic_store_explicit(&pool->task, task, memory_order_relaxed);
  atomic_store_explicit(&pool->context, context, memory_order_relaxed);
  atomic_store_explicit(&pool->n, n, memory_order_relaxed);
  atomic_store_explicit(&pool->units, (int64_t)units, memory_order_relaxed);
  atomic_store_explicit(&pool->ranges_used, used, memory_order_relaxed);
  atomic_store_explicit(&pool->done, 0, memory_order_relaxed);
  unsigned generation =
      (atomic_load_explicit(&pool->generation, memory_order_relaxed) + 1) &
      0xffffff;
  for (int t = 0; t < used; ++t) {
    atomic_store_explicit(&pool->ranges[t].word,
                          pack_range(generation, units * (uint64_t)t / used,
                                     units * (uint64_t)(t + 1) / used),
                          memory_order_release);
  }
  atomic_store(&pool->generation, generation);
  if (atomic_load(&pool->sleeping) > 0) {
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
  }
  run_units(pool, 0, generation);
  /* Every unit is claimed; wait for the units workers are running. */
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

void infer_pool_begin_run(infer_pool_t *pool) {
  if (!pool || atomic_load_explicit(&pool->active, memory_order_relaxed) ==
                   pool->num_workers + 1) {
    return;
  }
  int64_t now = now_ns();
  if (now - atomic_load(&pool->shrunk_at) < atomic_load(&pool->penalty_ns)) {
    return;
  }
  /* Try all threads again; a machine still busy shrinks the pool within
   * a few windows. */
  pthread_mutex_lock(&pool->mutex);
  if (now - atomic_load(&pool->shrunk_at) >= atomic_load(&pool->penalty_ns)) {
    atomic_store(&pool->restored_at, now);
    atomic_store(&pool->active, pool->num_workers + 1);
    __atomic_store_n(&pool->executor.num_threads, pool->num_workers + 1,
                     __ATOMIC_RELAXED);
    pthread_cond_broadcast(&pool->rejoin);
  }
  pthread_mutex_unlock(&pool->mutex);
}

infer_pool_t *infer_pool_create(int threads, int adaptive) {
  if (threads <= 1) {
    return NULL;
  }
  struct infer_pool *pool = calloc(1, sizeof(*pool));
  pthread_t *workers =
      pool ? calloc((size_t)threads - 1, sizeof(pthread_t)) : NULL;
  struct worker *args =
      workers ? calloc((size_t)threads - 1, sizeof(struct worker)) : NULL;
  struct range *ranges =
      args ? aligned_alloc(_Alignof(struct range),
                           (size_t)threads * sizeof(struct range))
           : NULL;
  if (!ranges) {
    free(args);
    free(workers);
    free(pool);
    return NULL;
  }
  for (int t = 0; t < threads; ++t) {
    atomic_init(&ranges[t].word, 0);
  }
  pool->ranges = ranges;
  pool->executor.parallel_for = pool_parallel_for;
  pool->workers = workers;
  pool->worker_args = args;
  pool->adaptive = adaptive;
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->rejoin, NULL);
  /* Workers read `active` as soon as they start: all of them join (it
   * drops below `threads` below only if some were not created). */
  atomic_store(&pool->active, threads);
  for (int i = 0; i < threads - 1; ++i) {
    args[pool->num_workers] = (struct worker){pool, pool->num_workers};
    if (pthread_create(&workers[pool->num_workers], NULL, worker_main,
                       &args[pool->num_workers]) == 0) {
      ++pool->num_workers;
    }
  }
  atomic_store(&pool->active, pool->num_workers + 1);
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
  pthread_cond_broadcast(&pool->rejoin);
  pthread_mutex_unlock(&pool->mutex);
  for (int i = 0; i < pool->num_workers; ++i) {
    pthread_join(pool->workers[i], NULL);
  }
  pthread_cond_destroy(&pool->rejoin);
  pthread_cond_destroy(&pool->wake);
  pthread_mutex_destroy(&pool->mutex);
  free(pool->ranges);
  free(pool->worker_args);
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
