/* Runtime status API: codes, messages, NULL as success. */
#include "infer/runtime.h"
#include "infer/status.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);      \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main(void) {
  EXPECT(infer_status_make(INFER_OK, "ignored") == NULL);
  EXPECT(infer_status_code(NULL) == INFER_OK);
  EXPECT(strcmp(infer_status_message(NULL), "") == 0);

  infer_status_t status = infer_status_make(INFER_INVALID_ARGUMENT,
                                            "input '%s' has rank %d", "x", 3);
  EXPECT(infer_status_code(status) == INFER_INVALID_ARGUMENT);
  EXPECT(strcmp(infer_status_message(status), "input 'x' has rank 3") == 0);
  EXPECT(strcmp(infer_status_code_name(infer_status_code(status)),
                "INVALID_ARGUMENT") == 0);
  infer_status_free(status);
  infer_status_free(NULL);

  EXPECT(strlen(infer_runtime_version()) > 0);
  printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
  return failures ? 1 : 0;
}
