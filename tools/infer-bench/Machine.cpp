//===- Machine.cpp - the machine's peak FMA rate and memory bandwidth -----===//

#include "tools/infer-bench/Machine.h"

#include "tools/common/Args.h"
#include "tools/infer-bench/Clock.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace infer::tools {
namespace {

// Twelve independent accumulators hide the FMA latency (4 cycles) on two
// FMA ports; `iterations` rounds of them, returning the FLOPs done.
constexpr int kChains = 12;

#if defined(__x86_64__)
__attribute__((target("avx512f"))) double fma512(int64_t iterations,
                                                 float *sink) {
  __m512 acc[kChains];
  for (int j = 0; j < kChains; ++j) {
    acc[j] = _mm512_set1_ps(static_cast<float>(j));
  }
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(1e-3f);
  for (int64_t i = 0; i < iterations; ++i) {
    for (int j = 0; j < kChains; ++j) {
      acc[j] = _mm512_fmadd_ps(acc[j], a, b);
    }
  }
  for (int j = 1; j < kChains; ++j) {
    acc[0] = _mm512_add_ps(acc[0], acc[j]);
  }
  *sink = _mm512_reduce_add_ps(acc[0]);
  return static_cast<double>(iterations) * kChains * 16 * 2;
}

__attribute__((target("avx2,fma"))) double fma256(int64_t iterations,
                                                  float *sink) {
  __m256 acc[kChains];
  for (int j = 0; j < kChains; ++j) {
    acc[j] = _mm256_set1_ps(static_cast<float>(j));
  }
  const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(1e-3f);
  for (int64_t i = 0; i < iterations; ++i) {
    for (int j = 0; j < kChains; ++j) {
      acc[j] = _mm256_fmadd_ps(acc[j], a, b);
    }
  }
  float lanes[8];
  for (int j = 1; j < kChains; ++j) {
    acc[0] = _mm256_add_ps(acc[0], acc[j]);
  }
  _mm256_storeu_ps(lanes, acc[0]);
  *sink = lanes[0];
  return static_cast<double>(iterations) * kChains * 8 * 2;
}
#endif

double fmaScalar(int64_t iterations, float *sink) {
  float acc[kChains];
  for (int j = 0; j < kChains; ++j) {
    acc[j] = static_cast<float>(j);
  }
  for (int64_t i = 0; i < iterations; ++i) {
    for (float &value : acc) {
      value = value * 0.999f + 1e-3f;
    }
  }
  *sink = acc[0];
  return static_cast<double>(iterations) * kChains * 2;
}

using FmaLoop = double (*)(int64_t, float *);

FmaLoop widestFma(std::string &isa) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    isa = "avx512";
    return fma512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    isa = "avx2";
    return fma256;
  }
#endif
  isa = "scalar";
  return fmaScalar;
}

/// GFLOP/s of one core: the best of five 20 ms rounds.
double peakPerCore(FmaLoop loop) {
  float sink = 0;
  double best = 0;
  int64_t iterations = 1 << 20;
  for (int round = 0; round < 6; ++round) {
    double start = nowSeconds();
    double flops = loop(iterations, &sink);
    double seconds = nowSeconds() - start;
    if (round > 0) { // the first warms the core up
      best = std::max(best, flops / seconds * 1e-9);
    }
  }
  return sink == 12345.f ? best + 1e-9 : best; // keeps `sink` live
}

/// GB/s of a[i] = b[i] + s * c[i] over three 64 MB arrays split among
/// `threads` threads (12 bytes per element, as STREAM counts): the best of
/// five rounds.
double triadBandwidth(int threads) {
  constexpr size_t kElements = size_t(16) << 20;
  std::unique_ptr<float[]> a(new float[kElements]), b(new float[kElements]),
      c(new float[kElements]);
  auto triad = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      a[i] = b[i] + 3.0f * c[i];
    }
  };
  auto parallel = [&](auto body) {
    std::vector<std::thread> pool;
    size_t chunk = (kElements + threads - 1) / threads;
    for (int t = 0; t < threads; ++t) {
      size_t begin = std::min(kElements, chunk * t);
      size_t end = std::min(kElements, begin + chunk);
      pool.emplace_back(body, begin, end);
    }
    for (std::thread &thread : pool) {
      thread.join();
    }
  };
  // First touch by the threads that use the memory.
  parallel([&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      a[i] = 0;
      b[i] = 1;
      c[i] = 2;
    }
  });
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    double start = nowSeconds();
    parallel(triad);
    double seconds = nowSeconds() - start;
    best = std::max(best, 12.0 * kElements / seconds * 1e-9);
  }
  return best;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      std::string name = line.substr(colon + 1);
      name.erase(0, name.find_first_not_of(' '));
      return name;
    }
  }
  return "unknown CPU";
}

} // namespace

std::string defaultMachineFile() {
  if (const char *cache = std::getenv("XDG_CACHE_HOME"); cache && *cache) {
    return std::string(cache) + "/infer/machine.txt";
  }
  const char *home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/infer/machine.txt";
}

MachineLimits measureMachine(int threads) {
  MachineLimits limits;
  limits.cpu = cpuModel();
  limits.threads = threads;
  FmaLoop loop = widestFma(limits.isa);
  limits.peakGflops = peakPerCore(loop) * threads;
  limits.bandwidthGbs = triadBandwidth(threads);
  return limits;
}

// The file holds one line per measurement:
//   threads<TAB>isa<TAB>peak_gflops<TAB>bandwidth_gbs<TAB>cpu model
MachineLimits machineLimits(const std::string &file, int threads,
                            bool remeasure) {
  std::string cpu = cpuModel();
  std::vector<std::string> kept;
  {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      MachineLimits cached;
      std::string rest;
      if (!(fields >> cached.threads >> cached.isa >> cached.peakGflops >>
            cached.bandwidthGbs) ||
          !std::getline(fields >> std::ws, rest)) {
        continue; // not ours: dropped when the file is rewritten
      }
      cached.cpu = rest;
      if (cached.cpu == cpu && cached.threads == threads) {
        if (!remeasure) {
          return cached;
        }
        continue;
      }
      kept.push_back(line);
    }
  }
  MachineLimits limits = measureMachine(threads);
  kept.push_back(fmt::format("{}\t{}\t{:.3f}\t{:.3f}\t{}", limits.threads,
                             limits.isa, limits.peakGflops, limits.bandwidthGbs,
                             limits.cpu));
  // The cache is a convenience: failing to write it is not an error.
  size_t last = file.find_last_of('/');
  std::string dir = last == std::string::npos ? "" : file.substr(0, last);
  for (size_t slash = dir.find('/', 1); !dir.empty();
       slash = dir.find('/', slash + 1)) {
    mkdir(dir.substr(0, slash).c_str(), 0755);
    if (slash == std::string::npos) {
      break;
    }
  }
  std::ofstream out(file + ".tmp");
  for (const std::string &line : kept) {
    out << line << '\n';
  }
  out.close();
  if (out) {
    std::rename((file + ".tmp").c_str(), file.c_str());
  }
  return limits;
}

} // namespace infer::tools
