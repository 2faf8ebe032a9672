//===- Machine.h - the machine's peak FMA rate and memory bandwidth -*- C++
//-*-===//
//
// The two ceilings of a roofline: how many f32 FLOP/s one core's widest
// fused multiply-adds reach, and how many bytes per second a STREAM-style
// triad moves with a given number of threads. Measured once and cached in
// a small text file, keyed by the CPU model and the thread count.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_INFER_BENCH_MACHINE_H
#define INFER_TOOLS_INFER_BENCH_MACHINE_H

#include <string>

namespace infer::tools {

struct MachineLimits {
  std::string cpu;         // the CPU model, from /proc/cpuinfo
  std::string isa;         // the FMA width measured: avx512, avx2 or scalar
  int threads = 1;         // cores the figures below are for
  double peakGflops = 0;   // f32 FMA peak over `threads` cores
  double bandwidthGbs = 0; // triad bandwidth with `threads` threads
  bool gpu = false;        // a CUDA model's device: `cpu` holds the GPU's name,
                    // `isa` its architecture, the ceilings its attributes'
};

/// The default cache file: $XDG_CACHE_HOME/infer/machine.txt, else
/// ~/.cache/infer/machine.txt.
std::string defaultMachineFile();

/// Measures the limits for `threads` threads (about a second).
MachineLimits measureMachine(int threads);

/// The cached limits for this CPU and `threads` from `file`, measuring
/// and adding them when absent or when `remeasure` is set.
MachineLimits machineLimits(const std::string &file, int threads,
                            bool remeasure);

} // namespace infer::tools

#endif // INFER_TOOLS_INFER_BENCH_MACHINE_H
