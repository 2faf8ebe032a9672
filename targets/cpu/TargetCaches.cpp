//===- TargetCaches.cpp - the target CPU's L2 cache size ------------------===//
//
// The kernels' blocking depends on what stays in L2 (ContractionMatch.cpp:
// k-blocks against one block of all of K). LLVM's cost model has no
// reliable cache sizes for x86 (one figure for every CPU), so: this
// machine's from sysfs for --target-cpu=native, a table of the server
// cores these kernels were measured on and their neighbours for a named
// CPU, 1 MiB otherwise (the size the kernels were first tuned for).
//
//===----------------------------------------------------------------------===//

#include "targets/cpu/CpuTarget.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <string>

namespace infer::cpu {
namespace {

constexpr int64_t kKiB = 1024;

/// The first line of a sysfs file, or "".
std::string readLine(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileAsStream(path);
  if (!buffer) {
    return "";
  }
  return (*buffer)->getBuffer().split('\n').first.trim().str();
}

/// cpu0's level-2 data or unified cache in bytes, or 0.
int64_t hostL2Bytes() {
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readLine(dir + "/type");
    if (type.empty()) {
      break;
    }
    if (readLine(dir + "/level") != "2" ||
        (type != "Unified" && type != "Data")) {
      continue;
    }
    std::string text = readLine(dir + "/size");
    llvm::StringRef size = text;
    int64_t scale = 1;
    if (size.consume_back("K")) {
      scale = kKiB;
    } else if (size.consume_back("M")) {
      scale = kKiB * kKiB;
    }
    int64_t value = 0;
    if (size.getAsInteger(10, value) || value <= 0) {
      return 0;
    }
    return value * scale;
  }
  return 0;
}

/// L2 per core of the LLVM CPU `name`, or 0 when not in the table.
int64_t namedL2Bytes(llvm::StringRef name) {
  return llvm::StringSwitch<int64_t>(name)
      .Cases({"sapphirerapids", "emeraldrapids", "graniterapids",
              "graniterapids-d"},
             2048 * kKiB)
      .Case("icelake-server", 1280 * kKiB)
      .Cases(
          {"skylake-avx512", "cascadelake", "cooperlake", "znver4", "znver5"},
          1024 * kKiB)
      .Cases({"znver1", "znver2", "znver3"}, 512 * kKiB)
      .Cases({"haswell", "broadwell", "skylake"}, 256 * kKiB)
      .Default(0);
}

} // namespace

int64_t l2CacheBytes(const CpuOptions &options) {
  int64_t bytes = 0;
  if (options.targetCpu == "native" && options.targetTriple.empty()) {
    bytes = hostL2Bytes();
    if (!bytes) {
      bytes = namedL2Bytes(llvm::sys::getHostCPUName());
    }
  } else {
    bytes = namedL2Bytes(options.targetCpu);
  }
  return bytes ? bytes : 1024 * kKiB;
}

} // namespace infer::cpu
