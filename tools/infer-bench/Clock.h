//===- Clock.h - the monotonic clock infer-bench times with ------*- C++
//-*-===//

#ifndef INFER_TOOLS_INFER_BENCH_CLOCK_H
#define INFER_TOOLS_INFER_BENCH_CLOCK_H

#include <ctime>

namespace infer::tools {

/// Seconds on CLOCK_MONOTONIC.
inline double nowSeconds() {
  timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return static_cast<double>(time.tv_sec) +
         static_cast<double>(time.tv_nsec) * 1e-9;
}

} // namespace infer::tools

#endif // INFER_TOOLS_INFER_BENCH_CLOCK_H
