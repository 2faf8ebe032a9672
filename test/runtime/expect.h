/*===- expect.h - expectations of the runtime model tests -------*- C -*-===*
 *
 * EXPECT, EXPECT_OK and EXPECT_ERROR count met and failed expectations and
 * print each failure with its file and line.
 *
 *===--------------------------------------------------------------------===*/

#ifndef INFER_TEST_RUNTIME_EXPECT_H
#define INFER_TEST_RUNTIME_EXPECT_H

#include "infer/runtime.h"

#include <stdio.h>
#include <string.h>

/* Counts of met and failed expectations (defined in model_test.c). */
extern int passed;
extern int failed;

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (cond) {                                                                \
      ++passed;                                                                \
    } else {                                                                   \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);      \
      ++failed;                                                                \
    }                                                                          \
  } while (0)

/* Expects `status` to be OK; prints and frees it otherwise. */
#define EXPECT_OK(expr)                                                        \
  do {                                                                         \
    infer_status_t s_ = (expr);                                                \
    if (s_) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,     \
              infer_status_message(s_));                                       \
      ++failed;                                                                \
      infer_status_free(s_);                                                   \
    } else {                                                                   \
      ++passed;                                                                \
    }                                                                          \
  } while (0)

/* Expects `expr` to fail with `code` and a message containing `needle`. */
static inline void expect_error(const char *file, int line,
                                infer_status_t status, infer_status_code_t code,
                                const char *needle) {
  const char *message = infer_status_message(status);
  if (!status || infer_status_code(status) != code ||
      !strstr(message, needle)) {
    fprintf(stderr, "%s:%d: expected %s containing \"%s\", got %s: \"%s\"\n",
            file, line, infer_status_code_name(code), needle,
            infer_status_code_name(infer_status_code(status)), message);
    ++failed;
  } else {
    ++passed;
  }
  infer_status_free(status);
}
#define EXPECT_ERROR(expr, code, needle)                                       \
  expect_error(__FILE__, __LINE__, (expr), (code), (needle))

/* The tests of abi_model_test.c. */
void test_from_abi(void);
void test_workspace(void);
void test_executor(void);
void test_profile(void);

#endif /* INFER_TEST_RUNTIME_EXPECT_H */
