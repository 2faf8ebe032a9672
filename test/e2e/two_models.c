/* Two compiled models linked into one program: their symbols carry their
 * --name prefixes, so they coexist. `add` is ONNX's test_add (x + y on
 * [3,4,5] float32), `cnn` the tiny CNN example. */
#include "add.h"
#include "cnn.h"

#include <math.h>
#include <stdio.h>

int main(void) {
  static float x[60], y[60], sum[60];
  for (int i = 0; i < 60; ++i) {
    x[i] = 0.25f * i;
    y[i] = 100.0f - i;
  }
  /* One workspace serves both models (they run one after the other). */
  static _Alignas(
      64) unsigned char workspace[ADD_WORKSPACE_SIZE > CNN_WORKSPACE_SIZE
                                      ? ADD_WORKSPACE_SIZE + 1
                                      : CNN_WORKSPACE_SIZE + 1];
  add_main(x, y, sum, workspace);
  int failures = 0;
  for (int i = 0; i < 60; ++i) {
    if (sum[i] != x[i] + y[i]) {
      fprintf(stderr, "add: element %d is %f, expected %f\n", i, sum[i],
              x[i] + y[i]);
      ++failures;
    }
  }
  float image[64] = {0}, probabilities[10];
  image[9] = 1.0f;
  cnn_main(image, probabilities, workspace);
  double total = 0;
  for (int c = 0; c < 10; ++c) {
    if (!(probabilities[c] >= 0 && probabilities[c] <= 1)) {
      ++failures;
    }
    total += probabilities[c];
  }
  if (fabs(total - 1.0) > 1e-5) {
    fprintf(stderr, "cnn: probabilities sum to %f\n", total);
    ++failures;
  }
  printf("%d passed, %d failed\n", failures ? 0 : 2, failures ? 1 : 0);
  return failures ? 1 : 0;
}
