/*===- profile_test.c - profiled runs of a hand-written ABI 8 model ---===*
 *
 * The model's run writes cycle counts into its workspace as compiled code
 * with --profile does: stamps 1000 ticks apart, then 2000, then 3000, so
 * the three segments' durations must come back in the ratio 1 : 2 : 3 and
 * each segment must start where the one before ends. A profile naming a
 * kernel it lacks, or stamps outside the workspace, is refused at load; a
 * model without one, or the wrong segment count, at run time. A CUDA
 * model's profile must have one segment per launch (checked at load,
 * before any driver is opened).
 *
 *===------------------------------------------------------------------===*/

#include "expect.h"
#include "infer/abi.h"
#include "infer/runtime.h"

#include <math.h>

enum { kOffset = 64, kSegments = 3 };

static int32_t stamping_run(void *const *buffers) {
  const float *x = buffers[0];
  float *y = buffers[1];
  uint64_t *stamps = (uint64_t *)((char *)buffers[2] + kOffset);
  static const uint64_t kTicks[kSegments + 1] = {5000, 6000, 8000, 11000};
  for (int j = 0; j <= kSegments; ++j) {
    stamps[j] = kTicks[j];
  }
  y[0] = 2 * x[0];
  return 0;
}

static const int64_t kOne[1] = {1};
static const infer_abi_tensor_t kIn[] = {{"x", INFER_DTYPE_F32, 1, kOne}};
static const infer_abi_tensor_t kOut[] = {{"y", INFER_DTYPE_F32, 1, kOne}};
static const char *const kNodes[] = {"conv", "relu"};
static const infer_abi_kernel_t kKernels[] = {
    {"conv", "Conv+Relu", 2, 0, kNodes, 1e6, 4096},
    {"pool", "MaxPool", 0, 0, NULL, 0, 1024},
};
static const uint32_t kOrder[kSegments] = {0, 1, 0};
static const uint32_t kBadOrder[kSegments] = {0, 2, 0};
static const infer_abi_profile_t kProfile = {2, kSegments, kKernels, kOrder,
                                             kOffset};
static const infer_abi_profile_t kBadKernel = {2, kSegments, kKernels,
                                               kBadOrder, kOffset};
static const infer_abi_profile_t kOutside = {2, kSegments, kKernels, kOrder,
                                             kOffset + 8};

static infer_abi_model_t model_with(const infer_abi_profile_t *profile) {
  infer_abi_model_t abi = {
      .abi_version = INFER_ABI_VERSION,
      .num_inputs = 1,
      .num_outputs = 1,
      .name = "stamps",
      .inputs = kIn,
      .outputs = kOut,
      .workspace_size = kOffset + 8 * (kSegments + 1),
      .run = stamping_run,
      .profile = profile,
  };
  return abi;
}

void test_profile(void) {
  infer_abi_model_t abi = model_with(&kProfile);
  infer_model_t model = NULL;
  EXPECT_OK(infer_model_from_abi(&abi, &model));
  if (!model) {
    return;
  }
  EXPECT(infer_model_num_kernels(model) == 2);
  EXPECT(infer_model_num_segments(model) == kSegments);
  const infer_abi_kernel_t *conv = infer_model_kernel(model, 0);
  EXPECT(conv && strcmp(conv->op_types, "Conv+Relu") == 0 &&
         conv->num_nodes == 2 && strcmp(conv->nodes[1], "relu") == 0);
  EXPECT(infer_model_kernel(model, 2) == NULL);

  float x = 3, y = 0;
  infer_tensor_t in = NULL, out = NULL;
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_F32, 1, kOne, &x, &in));
  EXPECT_OK(infer_tensor_wrap(INFER_DTYPE_F32, 1, kOne, &y, &out));
  infer_profile_segment_t segments[kSegments];
  EXPECT_OK(
      infer_model_run_profiled(model, &in, 1, &out, 1, segments, kSegments));
  EXPECT(y == 6);
  EXPECT(segments[0].kernel == 0 && segments[1].kernel == 1 &&
         segments[2].kernel == 0);
  double first = segments[0].end_ns - segments[0].begin_ns;
  EXPECT(segments[0].begin_ns == 0 && first > 0);
  EXPECT(fabs((segments[1].end_ns - segments[1].begin_ns) / first - 2) < 1e-9);
  EXPECT(fabs((segments[2].end_ns - segments[2].begin_ns) / first - 3) < 1e-9);
  EXPECT(segments[1].begin_ns == segments[0].end_ns &&
         segments[2].begin_ns == segments[1].end_ns);
  EXPECT_ERROR(infer_model_run_profiled(model, &in, 1, &out, 1, segments, 2),
               INFER_INVALID_ARGUMENT, "has 3 profile segments");
  infer_model_release(model);

  infer_abi_model_t plain = model_with(NULL);
  EXPECT_OK(infer_model_from_abi(&plain, &model));
  if (model) {
    EXPECT(infer_model_num_kernels(model) == 0);
    EXPECT_ERROR(infer_model_run_profiled(model, &in, 1, &out, 1, NULL, 0),
                 INFER_INVALID_ARGUMENT, "compiled without --profile");
    infer_model_release(model);
  }
  infer_abi_model_t bad = model_with(&kBadKernel);
  EXPECT_ERROR(infer_model_from_abi(&bad, &model), INFER_INVALID_ARGUMENT,
               "segment 1 names kernel 2 of 2");
  bad = model_with(&kOutside);
  EXPECT_ERROR(infer_model_from_abi(&bad, &model), INFER_INVALID_ARGUMENT,
               "malformed profile");
  /* Two launches but three segments; with `run` NULL, as a CUDA model. */
  static const infer_abi_cuda_launch_t kLaunches[2] = {
      {"a", {1, 1, 1}, {1, 1, 1}, 0, 0, NULL},
      {"b", {1, 1, 1}, {1, 1, 1}, 0, 0, NULL}};
  static const infer_abi_cuda_t kCuda = {0, 2, NULL, kLaunches, 0, 0, NULL};
  static const infer_abi_profile_t kPerLaunch = {2, kSegments, kKernels, kOrder,
                                                 0};
  bad = model_with(&kPerLaunch);
  bad.run = NULL;
  bad.cuda = &kCuda;
  EXPECT_ERROR(infer_model_from_abi(&bad, &model), INFER_INVALID_ARGUMENT,
               "3 segments for 2 launches");
  infer_tensor_release(in);
  infer_tensor_release(out);
}
