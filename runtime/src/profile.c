/*===- profile.c - kernel profiles of models compiled with --profile --===*
 *
 * The code reads the CPU's cycle counter (rdtsc on x86-64) between
 * kernels into its workspace; a profiled run copies the stamps out before
 * the workspace is reused and turns them into nanoseconds with a tick rate
 * measured once per process against CLOCK_MONOTONIC.
 *
 *===------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "profile.h"

#include "infer/runtime.h"

#include "model.h"

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define INFER_HAVE_TSC 1
#endif

const infer_abi_profile_t *infer_abi_profile(const infer_abi_model_t *abi) {
  return abi->abi_version >= 8 ? abi->profile : NULL;
}

infer_status_t infer_check_abi_profile(const infer_abi_model_t *abi) {
  const infer_abi_profile_t *profile = infer_abi_profile(abi);
  if (!profile) {
    return NULL;
  }
  const char *name = abi->name ? abi->name : "?";
  if ((profile->num_kernels > 0 && !profile->kernels) ||
      (profile->num_segments > 0 && !profile->segments)) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' has a malformed profile: no kernel "
                             "or segment table",
                             name);
  }
  uint64_t stamps = (uint64_t)profile->num_segments + 1;
  if (abi->abi_version >= 3 && abi->cuda) {
    /* One segment per launch, timed by events: no stamps. */
    if (profile->num_segments != abi->cuda->num_launches) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "model '%s' has a malformed profile: %u "
                               "segments for %u launches",
                               name, (unsigned)profile->num_segments,
                               (unsigned)abi->cuda->num_launches);
    }
  } else if (profile->stamps_offset % 8 != 0 ||
             profile->stamps_offset > abi->workspace_size ||
             stamps > (abi->workspace_size - profile->stamps_offset) / 8) {
    return infer_status_make(INFER_INVALID_ARGUMENT,
                             "model '%s' has a malformed profile: %u segments "
                             "at byte %llu of a %llu-byte workspace",
                             name, (unsigned)profile->num_segments,
                             (unsigned long long)profile->stamps_offset,
                             (unsigned long long)abi->workspace_size);
  }
  for (uint32_t j = 0; j < profile->num_segments; ++j) {
    if (profile->segments[j] >= profile->num_kernels) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "model '%s' has a malformed profile: segment "
                               "%u names kernel %u of %u",
                               name, (unsigned)j,
                               (unsigned)profile->segments[j],
                               (unsigned)profile->num_kernels);
    }
  }
  for (uint32_t k = 0; k < profile->num_kernels; ++k) {
    const infer_abi_kernel_t *kernel = &profile->kernels[k];
    if (!kernel->name || !kernel->op_types ||
        (kernel->num_nodes > 0 && !kernel->nodes)) {
      return infer_status_make(INFER_INVALID_ARGUMENT,
                               "model '%s' has a malformed profile: kernel %u "
                               "lacks its names",
                               name, (unsigned)k);
    }
  }
  return NULL;
}

size_t infer_model_num_kernels(infer_model_t model) {
  const infer_abi_profile_t *profile =
      model ? infer_abi_profile(model->abi) : NULL;
  return profile ? profile->num_kernels : 0;
}

const infer_abi_kernel_t *infer_model_kernel(infer_model_t model,
                                             size_t index) {
  return index < infer_model_num_kernels(model)
             ? &infer_abi_profile(model->abi)->kernels[index]
             : NULL;
}

size_t infer_model_num_segments(infer_model_t model) {
  const infer_abi_profile_t *profile =
      model ? infer_abi_profile(model->abi) : NULL;
  return profile ? profile->num_segments : 0;
}

#ifdef INFER_HAVE_TSC
static double ticks_per_ns;
static pthread_once_t calibrated = PTHREAD_ONCE_INIT;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The clock and the counter read together: the clock between two counter
 * reads, the closest of a few tries (a thread preempted between the two
 * reads of a single try would skew the rate: on a busy machine, a 100 us
 * gap over the 20 ms below is 0.5%, and a profiled kernel's end then fell
 * past its run's). */
static void read_both(double *clock_ns, double *ticks) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < 8; ++i) {
    uint64_t before = __rdtsc();
    double t = now_ns();
    uint64_t after = __rdtsc();
    if (after >= before && after - before < best) {
      best = after - before;
      *clock_ns = t;
      *ticks = (double)before + (double)(after - before) / 2;
    }
  }
  if (best == UINT64_MAX) {
    *clock_ns = now_ns();
    *ticks = (double)__rdtsc();
  }
}

/* Ticks of the counter per nanosecond, over 20 ms of sleep. */
static void calibrate(void) {
  double t0, c0, t1, c1;
  read_both(&t0, &c0);
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  read_both(&t1, &c1);
  ticks_per_ns = t1 > t0 && c1 > c0 ? (c1 - c0) / (t1 - t0) : 0;
}
#endif

infer_status_t infer_profile_ticks_per_ns(double *out_rate) {
#ifdef INFER_HAVE_TSC
  pthread_once(&calibrated, calibrate);
  *out_rate = ticks_per_ns;
  if (ticks_per_ns > 0) {
    return NULL;
  }
#endif
  *out_rate = 0;
  return infer_status_make(INFER_UNAVAILABLE,
                           "profiles need the x86-64 time-stamp counter");
}
