/*===- executor_test.c - the thread pool a model's runs use ----------===*
 *
 * A model defined here as an ABI constant takes its executor
 * through set_executor, as compiled code does, and its run hands
 * `parallel_for` loops of many sizes to it. Each iteration counts itself in
 * a per-run array: every iteration must run exactly once, on at most
 * intra_op_threads threads, also with four callers sharing one model and
 * with a loop started inside a task (which the pool runs on the caller),
 * and the executor must report intra_op_threads as its num_threads;
 * with two threads or more, a task that the caller runs and that waits
 * for another thread to take a unit must see one do so, and one that
 * waits for the back of the caller's own range must see it stolen (with
 * fixed_threads set: these pools have more threads than the machine may
 * have CPUs). A pool whose threads
 * share one CPU must drop to the caller alone, tell the code so through
 * num_threads, and take its threads back 50 ms later, then 100 ms after
 * dropping again right away; with fixed_threads it must keep them.
 *
 *===------------------------------------------------------------------===*/

#define _GNU_SOURCE

#include "expect.h"
#include "infer/abi.h"
#include "infer/runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static _Thread_local infer_abi_executor_t *current;

static infer_abi_executor_t *set_executor(infer_abi_executor_t *executor) {
  infer_abi_executor_t *previous = current;
  current = executor;
  return previous;
}

enum { kMaxN = 5000, kMaxThreads = 16 };

struct loop {
  int64_t n;
  _Atomic int32_t hits[kMaxN];
  _Atomic(pthread_t) threads[kMaxThreads];
  atomic_int num_threads;
  atomic_int bad_range;
  int nested;
  int wait_for_helper;
  pthread_t caller;       /* the thread that started the loop */
  int64_t wait_for_steal; /* > 0: the caller's first task waits for it */
  int burn; /* each iteration spends 1 ms of its thread's CPU time */
};

static void note_thread(struct loop *loop) {
  pthread_t self = pthread_self();
  int count = atomic_load(&loop->num_threads);
  for (int i = 0; i < count && i < kMaxThreads; ++i) {
    if (pthread_equal(atomic_load(&loop->threads[i]), self)) {
      return;
    }
  }
  int slot = atomic_fetch_add(&loop->num_threads, 1);
  if (slot < kMaxThreads) {
    atomic_store(&loop->threads[slot], self);
  }
}

static void count_task(void *context, int64_t begin, int64_t end);

static int64_t thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void burn_cpu_ms(void) {
  int64_t start = thread_cpu_ns();
  while (thread_cpu_ns() - start < 1000000) {
  }
}

static void run_loop(struct loop *loop) {
  loop->caller = pthread_self();
  if (current) {
    current->parallel_for(current, count_task, loop, loop->n);
  } else {
    count_task(loop, 0, loop->n);
  }
}

static void count_task(void *context, int64_t begin, int64_t end) {
  struct loop *loop = context;
  if (begin < 0 || end > loop->n || begin >= end) {
    atomic_store(&loop->bad_range, 1);
    return;
  }
  note_thread(loop);
  if (loop->wait_for_helper && begin == 0 &&
      pthread_equal(pthread_self(), loop->caller)) {
    /* Up to 5 s for a worker to take another unit (a worker that ran
     * this one showed that already: it took all the others first). */
    for (int spins = 0; atomic_load(&loop->num_threads) < 2; ++spins) {
      if (spins == 5000) {
        atomic_store(&loop->bad_range, 1);
        break;
      }
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
    }
  }
  if (loop->wait_for_steal && begin == 0 &&
      pthread_equal(pthread_self(), loop->caller)) {
    /* Up to 5 s for another thread to run the caller's last iteration:
     * its range's back, which only a thread that steals takes. */
    for (int spins = 0; atomic_load(&loop->hits[loop->wait_for_steal]) == 0;
         ++spins) {
      if (spins == 5000) {
        atomic_store(&loop->bad_range, 1);
        break;
      }
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
    }
  }
  for (int64_t i = begin; i < end; ++i) {
    atomic_fetch_add(&loop->hits[i], 1);
    if (loop->burn) {
      burn_cpu_ms();
    }
  }
  if (loop->nested && begin == 0) {
    /* A loop inside a task: it must finish, on this thread. */
    struct loop *inner = calloc(1, sizeof(*inner));
    inner->n = 64;
    run_loop(inner);
    for (int64_t i = 0; i < inner->n; ++i) {
      if (atomic_load(&inner->hits[i]) != 1) {
        atomic_store(&loop->bad_range, 1);
      }
    }
    free(inner);
  }
}

/* One run: loops of sizes 2..kMaxN, each checked; the output is the
 * largest thread count one loop used, or -1 when an iteration ran other
 * than once. */
static int32_t pool_run(void *const *buffers) {
  static const int64_t sizes[] = {2, 3, 7, 8, 9, 31, 64, 100, 1000, kMaxN};
  static const int64_t two[] = {2};
  int32_t most = 0;
  int32_t mode = *(const int32_t *)buffers[0];
  if (mode == 3) {
    /* The executor's thread count, as compiled code reads it (ABI 9). */
    *(int32_t *)buffers[1] =
        current ? __atomic_load_n(&current->num_threads, __ATOMIC_RELAXED) : 1;
    return 0;
  }
  static const int64_t sixty_four[] = {64};
  const int64_t *loop_sizes = mode == 4 ? two : mode == 5 ? sixty_four : sizes;
  size_t num_loops = mode >= 4 ? 1 : sizeof(sizes) / sizeof(sizes[0]);
  int threads =
      current ? __atomic_load_n(&current->num_threads, __ATOMIC_RELAXED) : 1;
  for (size_t s = 0; s < num_loops; ++s) {
    struct loop *loop = calloc(1, sizeof(*loop));
    loop->n = loop_sizes[s];
    loop->nested = mode == 1;
    loop->wait_for_helper = mode == 2 && loop->n >= 1000;
    loop->burn = mode == 4;
    /* The last iteration of the caller's range: units are at most 16 per
     * thread, so with 2-4 threads it is iteration 64 / threads - 1. */
    loop->wait_for_steal = mode == 5 && threads >= 2 ? 64 / threads - 1 : 0;
    run_loop(loop);
    int ok = !atomic_load(&loop->bad_range);
    for (int64_t i = 0; i < loop->n; ++i) {
      ok = ok && atomic_load(&loop->hits[i]) == 1;
    }
    int threads = atomic_load(&loop->num_threads);
    most = !ok ? -1 : most < 0 ? most : threads > most ? threads : most;
    free(loop);
  }
  *(int32_t *)buffers[1] = most;
  return 0;
}

static const int64_t kScalar[1] = {1};
/* Input: 0 plain loops, 1 with a loop nested in a task, 2 waiting for a
 * helper in the large loops, 3 the executor's num_threads (no loop), 4
 * one loop of two iterations that take 1 ms of CPU time each, 5 one loop
 * of 64 whose first iteration waits for another thread to steal the last
 * of the caller's own range. */
static const infer_abi_tensor_t kIn[] = {{"mode", INFER_DTYPE_I32, 1, kScalar}};
static const infer_abi_tensor_t kOut[] = {
    {"threads", INFER_DTYPE_I32, 1, kScalar}};
static const infer_abi_model_t pool_model = {
    .abi_version = INFER_ABI_VERSION,
    .num_inputs = 1,
    .num_outputs = 1,
    .name = "pool",
    .inputs = kIn,
    .outputs = kOut,
    .run = pool_run,
    .set_executor = set_executor,
};

/* Runs the model once; the largest thread count of a loop, -1 when an
 * iteration ran other than once, -2 when the run failed. Touches no
 * expectation counter: callers on several threads use it. */
static int32_t run_once(infer_model_t model, int32_t mode) {
  infer_tensor_t input = NULL, output = NULL;
  int32_t result = -2;
  infer_status_t status =
      infer_tensor_wrap(INFER_DTYPE_I32, 1, kScalar, &mode, &input);
  if (!status) {
    status = infer_model_run(model, &input, 1, &output, 1);
  }
  if (status) {
    fprintf(stderr, "executor_test: %s\n", infer_status_message(status));
    infer_status_free(status);
  } else {
    result = *(const int32_t *)infer_tensor_data(output);
  }
  infer_tensor_release(output);
  infer_tensor_release(input);
  return result;
}

static void *caller_main(void *arg) {
  infer_model_t model = arg;
  intptr_t bad = 0;
  for (int i = 0; i < 20; ++i) {
    bad += run_once(model, i % 2) < 1;
  }
  return (void *)bad;
}

static infer_model_t make(int32_t threads, int32_t fixed_threads) {
  infer_model_options_t options = {sizeof(options), threads, fixed_threads};
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_from_abi_with_options(&pool_model, &options, &model));
  return model;
}

/* Runs mode 4 on `model` until its executor reports one thread or
 * `runs` runs are done; the runs made. */
static int runs_until_alone(infer_model_t model, int runs) {
  for (int i = 0; i < runs; ++i) {
    EXPECT(run_once(model, 4) >= 1);
    if (run_once(model, 3) == 1) {
      return i + 1;
    }
  }
  return runs;
}

/* Two threads pinned to one CPU: the pool's worker waits for the CPU
 * while the caller runs, as on a machine busy with other work. */
static void test_busy_cpu(void) {
  cpu_set_t all, one;
  if (sched_getaffinity(0, sizeof(all), &all) != 0) {
    EXPECT(0);
    return;
  }
  int cpu = 0;
  while (!CPU_ISSET(cpu, &all)) {
    ++cpu;
  }
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  EXPECT(sched_setaffinity(0, sizeof(one), &one) == 0);
  /* Workers inherit the creating thread's CPU. */
  infer_model_t adaptive = make(2, 0);
  infer_model_t fixed = make(2, 1);
  if (adaptive && fixed) {
    EXPECT(run_once(adaptive, 3) == 2);
    int runs = runs_until_alone(adaptive, 2000);
    EXPECT(run_once(adaptive, 3) == 1);
    fprintf(stderr, "executor_test: alone after %d runs\n", runs);
    int used = run_once(adaptive, 0);
    EXPECT(used == 1);
    /* The same runs leave a fixed pool whole. */
    EXPECT(runs_until_alone(fixed, runs) == runs);
    EXPECT(run_once(fixed, 3) == 2);
    EXPECT(run_once(fixed, 2) == 2);
    /* 50 ms on, a run takes both threads again. */
    struct timespec wait = {0, 60 * 1000 * 1000};
    struct timespec brief = {0, 20 * 1000 * 1000};
    nanosleep(&wait, NULL);
    EXPECT(run_once(adaptive, 3) == 2);
    /* Dropped again within 150 ms of that, the pool waits 100 ms: 20 ms
     * on it is still alone (when the drop came soon enough to count). */
    int64_t start = now_ms();
    runs = runs_until_alone(adaptive, 2000);
    EXPECT(run_once(adaptive, 3) == 1);
    int quick = now_ms() - start < 90;
    nanosleep(&brief, NULL);
    if (quick) {
      EXPECT(run_once(adaptive, 3) == 1);
    } else {
      fprintf(stderr, "executor_test: not checking the doubled wait: the "
                      "second drop took over 90 ms\n");
    }
    nanosleep(&wait, NULL);
    nanosleep(&wait, NULL);
    EXPECT(run_once(adaptive, 3) == 2);
  }
  infer_model_release(fixed);
  infer_model_release(adaptive);
  EXPECT(sched_setaffinity(0, sizeof(all), &all) == 0);
}

void test_executor(void) {
  for (int32_t threads = 1; threads <= 4; ++threads) {
    infer_model_t model = make(threads, 1);
    if (!model) {
      continue;
    }
    EXPECT(infer_model_intra_op_threads(model) == threads);
    for (int i = 0; i < 20; ++i) {
      int32_t used = run_once(model, 0);
      EXPECT(used >= 1 && used <= threads);
    }
    EXPECT(run_once(model, 1) >= 1);
    EXPECT(run_once(model, 3) == threads);
    if (threads >= 2) {
      /* A caller's task that waits in vain ends the run with -1; with
       * 1 a worker ran every unit (the caller came late): still helped. */
      EXPECT(run_once(model, 2) >= 1);
      EXPECT(run_once(model, 5) >= 1);
    }
    /* Four callers at once share the pool (or run alone). */
    pthread_t callers[4];
    int started = 0;
    for (int i = 0; i < 4; ++i) {
      started += pthread_create(&callers[i], NULL, caller_main, model) == 0;
    }
    for (int i = 0; i < started; ++i) {
      void *bad = NULL;
      pthread_join(callers[i], &bad);
      EXPECT(bad == NULL);
    }
    infer_model_release(model);
  }
  /* The default is one thread per CPU; negative counts are refused. */
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_from_abi(&pool_model, &model));
  EXPECT(infer_model_intra_op_threads(model) >= 1);
  infer_model_release(model);
  infer_model_options_t negative = {sizeof(negative), -1};
  model = NULL;
  EXPECT_ERROR(
      infer_model_from_abi_with_options(&pool_model, &negative, &model),
      INFER_INVALID_ARGUMENT, "intra_op_threads is -1");
  EXPECT(model == NULL);
  test_busy_cpu();
}
