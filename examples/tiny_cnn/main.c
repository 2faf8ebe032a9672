/* A product that links a compiled model: tiny_cnn.o + the generated
 * tiny_cnn.h, called through the typed entry point (no runtime needed). */
#include "tiny_cnn.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void) {
  /* A sample input: a diagonal stroke on an 8x8 image. */
  float input[1][1][8][8] = {{{{0}}}};
  for (int i = 0; i < 8; ++i) {
    input[0][0][i][i] = 1.0f;
  }
  float probabilities[1][10];
  /* Intermediate tensors live in one workspace whose size the compiler
   * planned; a program running the model on several threads at once gives
   * each its own. */
  void *workspace = aligned_alloc(64, TINY_CNN_WORKSPACE_SIZE + 64);
  if (!workspace) {
    return 1;
  }
  /* 0, or k > 0 when the input failed a run-time check (this model has
   * none: no data-dependent indexing). */
  if (tiny_cnn_main(&input[0][0][0][0], &probabilities[0][0], workspace) != 0) {
    fprintf(stderr, "the input failed a run-time check\n");
    free(workspace);
    return 1;
  }

  const int runs = 1000;
  double start = now_ms();
  for (int r = 0; r < runs; ++r) {
    tiny_cnn_main(&input[0][0][0][0], &probabilities[0][0], workspace);
  }
  free(workspace);
  double per_run = (now_ms() - start) / runs;

  int best = 0;
  double sum = 0;
  for (int c = 0; c < 10; ++c) {
    printf("class %d: %.6f\n", c, probabilities[0][c]);
    sum += probabilities[0][c];
    if (probabilities[0][c] > probabilities[0][best]) {
      best = c;
    }
  }
  printf("predicted class %d (probabilities sum to %.6f)\n", best, sum);
  printf("latency: %.4f ms per run (mean of %d, 1 thread)\n", per_run, runs);
  return sum > 0.999 && sum < 1.001 ? 0 : 1;
}
