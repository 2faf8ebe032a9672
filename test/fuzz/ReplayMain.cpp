//===- ReplayMain.cpp - a harness without libFuzzer: seeds and mutants ----===//
//
// The main() the harnesses link in the normal build (any compiler, no
// sanitizer, no coverage). It runs each input file given, then, with
// --mutants N, N mutants of each made by the harness's own mutator from a
// seed that depends only on --seed, the input's position and the mutant's
// number: the same files give the same inputs on every machine. This is
// CI's smoke (test/fuzz/smoke.sh); the coverage-guided campaign is
// test/fuzz/run.sh with libFuzzer.
//
// A finding is what it is under libFuzzer: a crash, an abort (the harness's
// contract checks call finding()), an allocation past --rss-limit-mb
// (address space, so it fails at once instead of swapping), or an input
// that runs past --timeout seconds. Each input is written to
// FINDINGS/<harness>-current before it runs and removed after, so the one
// that did it stays there; the fatal-signal handler names it and the
// signal. With --keep-going a finding is confirmed by running its input
// alone in a new process: CI once saw one that did not repeat (see
// docs/security.md), and a smoke must not fail at random.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
// Only the model harnesses have a structure-aware mutator.
extern "C" __attribute__((weak)) size_t LLVMFuzzerCustomMutator(
    uint8_t *data, size_t size, size_t maxSize, unsigned int seed);

namespace {

/// Drives the byte-level mutations; reseeded for each mutant.
std::mt19937 byteRng;

/// What runs now, for the fatal-signal handler (it may only write(2)).
char current[512];

void onFatalSignal(int sig) {
  const char *name = sig == SIGALRM   ? "SIGALRM (past --timeout)"
                     : sig == SIGSEGV ? "SIGSEGV"
                     : sig == SIGABRT ? "SIGABRT"
                     : sig == SIGBUS  ? "SIGBUS"
                     : sig == SIGFPE  ? "SIGFPE"
                                      : "SIGILL";
  const char prefix[] = "\ninfer-fuzz-replay: ";
  const char middle[] = " while running ";
  (void)!write(STDERR_FILENO, prefix, sizeof(prefix) - 1);
  (void)!write(STDERR_FILENO, name, strlen(name));
  (void)!write(STDERR_FILENO, middle, sizeof(middle) - 1);
  (void)!write(STDERR_FILENO, current, strnlen(current, sizeof(current)));
  (void)!write(STDERR_FILENO, "\n", 1);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

size_t below(size_t n) {
  return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(byteRng);
}

[[noreturn]] void usage(const char *argv0, const std::string &problem) {
  if (!problem.empty()) {
    std::fprintf(stderr, "%s: %s\n", argv0, problem.c_str());
  }
  std::fprintf(
      stderr,
      "usage: %s [options] FILE|DIR...\n"
      "Runs the harness on each file (folders: every file under them, in\n"
      "name order), then on --mutants mutants of each.\n"
      "  --mutants N        mutants per input (default 0)\n"
      "  --seed S           seed of every mutation (default 1)\n"
      "  --timeout S        seconds one input may run (default 30)\n"
      "  --rss-limit-mb M   address-space limit (default 4096; 0: none)\n"
      "  --findings DIR     where the running input is kept (default: none)\n"
      "  --max-inputs N     stop before input N (default: no limit)\n"
      "  --first K          start at input K (default 0); with --max-inputs\n"
      "                     K+1, run input K alone\n"
      "  --write-inputs DIR write each input run as DIR/<harness>-<file>-\n"
      "                     <mutant> (mutant 0: the file itself), to read\n"
      "                     or replay one elsewhere\n"
      "  --keep-going       run in a child process; after a finding, keep its\n"
      "                     input as FINDINGS/<harness>-<file>-<mutant>, run\n"
      "                     it alone in a new process, and go on with the\n"
      "                     next; exit 1 if one failed again alone (one that\n"
      "                     passes alone is kept as ...-unconfirmed and\n"
      "                     reported, but does not fail the run)\n",
      argv0);
  std::exit(2);
}

std::vector<uint8_t> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

} // namespace

/// libFuzzer's byte-level mutator, which the model mutator falls back on:
/// a few flips, overwrites, insertions, erasures or a truncation.
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize) {
  static const uint8_t interesting[] = {0, 1, 0x7f, 0x80, 0xff, 0x10, 0x40};
  for (size_t edits = 1 + below(4); edits > 0; --edits) {
    switch (below(size == 0 ? 1 : 5)) {
    case 0: // insert a byte
      if (size < maxSize) {
        size_t at = below(size + 1);
        std::memmove(data + at + 1, data + at, size - at);
        data[at] = static_cast<uint8_t>(below(256));
        ++size;
      }
      break;
    case 1:
      data[below(size)] ^= static_cast<uint8_t>(1u << below(8));
      break;
    case 2:
      data[below(size)] = interesting[below(sizeof(interesting))];
      break;
    case 3: { // erase a run
      size_t at = below(size), n = 1 + below(std::min<size_t>(size - at, 16));
      std::memmove(data + at, data + at + n, size - at - n);
      size -= n;
      break;
    }
    default:
      size = below(size + 1);
      break;
    }
  }
  return size;
}

int main(int argc, char **argv) {
  unsigned long mutants = 0, seed = 1, timeout = 30, rssLimitMb = 4096;
  unsigned long maxInputs = ~0ul, first = 0;
  std::string writeInputs;
  bool keepGoing = false;
  std::string findings;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto number = [&](unsigned long &out) {
      if (i + 1 >= argc) {
        usage(argv[0], arg + " needs a value");
      }
      char *end = nullptr;
      out = std::strtoul(argv[++i], &end, 10);
      if (*end != '\0') {
        usage(argv[0], arg + ": not a number: " + argv[i]);
      }
    };
    if (arg == "--mutants") {
      number(mutants);
    } else if (arg == "--seed") {
      number(seed);
    } else if (arg == "--timeout") {
      number(timeout);
    } else if (arg == "--rss-limit-mb") {
      number(rssLimitMb);
    } else if (arg == "--max-inputs") {
      number(maxInputs);
    } else if (arg == "--first") {
      number(first);
    } else if (arg == "--write-inputs" && i + 1 < argc) {
      writeInputs = argv[++i];
    } else if (arg == "--keep-going") {
      keepGoing = true;
    } else if (arg == "--findings" && i + 1 < argc) {
      findings = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      usage(argv[0], "");
    } else if (!arg.empty() && arg[0] == '-') {
      usage(argv[0], "unknown option " + arg);
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::string> files;
      for (const auto &entry :
           std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file()) {
          files.push_back(entry.path().string());
        }
      }
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (std::filesystem::is_regular_file(arg)) {
      inputs.push_back(arg);
    } else {
      usage(argv[0], "no such file or folder: " + arg);
    }
  }
  if (inputs.empty()) {
    usage(argv[0], "no inputs");
  }
  if (rssLimitMb != 0) {
    rlim_t bytes = static_cast<rlim_t>(rssLimitMb) << 20;
    struct rlimit limit = {bytes, bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGALRM}) {
    std::signal(sig, onFatalSignal);
  }
  std::string harness = std::filesystem::path(argv[0]).filename().string();
  std::string keep;
  if (!findings.empty()) {
    std::filesystem::create_directories(findings);
    keep = findings + "/" + harness + "-current";
  }
  if (!writeInputs.empty()) {
    std::filesystem::create_directories(writeInputs);
  }

  // Input k is mutant k % (mutants + 1) - 1 of file k / (mutants + 1)
  // (-1: the file itself). With --keep-going a child process runs them and
  // shares its position, so that the parent can restart it past a finding.
  unsigned long perFile = mutants + 1;
  unsigned long total =
      std::min<unsigned long>(inputs.size() * perFile, maxInputs);
  auto *position = static_cast<unsigned long *>(
      mmap(nullptr, sizeof(unsigned long), PROT_READ | PROT_WRITE,
           MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  auto runFrom = [&](unsigned long start, unsigned long end) {
    std::vector<uint8_t> original;
    for (unsigned long k = start; k < end; ++k) {
      *position = k;
      size_t i = k / perFile;
      unsigned long m = k % perFile;
      if (m == 0 || k == start) {
        original = readFile(inputs[i]);
      }
      std::vector<uint8_t> bytes = original;
      std::string what = inputs[i];
      if (m > 0) {
        std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(i),
                          static_cast<uint32_t>(m - 1)};
        uint32_t mutantSeed;
        seq.generate(&mutantSeed, &mutantSeed + 1);
        byteRng.seed(mutantSeed);
        size_t maxSize = std::max<size_t>(2 * bytes.size(), 4096);
        bytes.resize(maxSize);
        size_t size =
            LLVMFuzzerCustomMutator
                ? LLVMFuzzerCustomMutator(bytes.data(), original.size(),
                                          maxSize, mutantSeed)
                : LLVMFuzzerMutate(bytes.data(), original.size(), maxSize);
        bytes.resize(size);
        what += " mutant " + std::to_string(m - 1) + " (seed " +
                std::to_string(seed) + ")";
      }
      std::snprintf(current, sizeof(current), "%s", what.c_str());
      auto write = [&](const std::string &path) {
        std::ofstream(path, std::ios::binary | std::ios::trunc)
            .write(reinterpret_cast<const char *>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
      };
      if (!keep.empty()) {
        write(keep);
      }
      if (!writeInputs.empty()) {
        write(writeInputs + "/" + harness + "-" + std::to_string(i) + "-" +
              std::to_string(m));
      }
      alarm(static_cast<unsigned>(timeout));
      LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      alarm(0);
    }
    *position = end;
  };
  // Runs [start, end) in a child; true when it ended normally.
  auto runInChild = [&](unsigned long start, unsigned long end) {
    std::fflush(nullptr);
    pid_t child = fork();
    if (child == 0) {
      runFrom(start, end);
      std::fflush(nullptr);
      _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  };
  unsigned long found = 0, unconfirmed = 0;
  if (!keepGoing) {
    runFrom(first, total);
  } else {
    unsigned long start = first;
    while (start < total && !runInChild(start, total)) {
      // A finding counts when its input, run alone in a new process, fails
      // again; one that does not (it needed the state the inputs before it
      // left, or the machine's timing) is kept and reported as unconfirmed.
      unsigned long k = *position;
      std::string kept;
      if (!keep.empty()) {
        kept = findings + "/" + harness + "-" + std::to_string(k / perFile) +
               "-" + std::to_string(k % perFile);
        std::filesystem::rename(keep, kept);
      }
      bool confirmed = !runInChild(k, k + 1);
      if (confirmed) {
        ++found;
      } else {
        ++unconfirmed;
        if (!kept.empty()) {
          std::filesystem::rename(kept, kept + "-unconfirmed");
          kept += "-unconfirmed";
        }
      }
      std::fprintf(stderr, "infer-fuzz-replay: %s kept as %s\n",
                   confirmed ? "finding (it fails again when run alone)"
                             : "UNCONFIRMED finding (it passes when run "
                               "alone)",
                   kept.empty() ? "(no --findings)" : kept.c_str());
      start = k + 1;
    }
  }
  if (!keep.empty()) {
    std::filesystem::remove(keep);
  }
  std::printf("%s: %lu inputs from %zu files, %lu findings", harness.c_str(),
              total > first ? total - first : 0, inputs.size(), found);
  if (unconfirmed != 0) {
    std::printf(", %lu UNCONFIRMED (kept; they pass alone)", unconfirmed);
  }
  std::printf("\n");
  return found == 0 ? 0 : 1;
}
