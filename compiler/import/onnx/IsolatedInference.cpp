//===- IsolatedInference.cpp - libonnx's shape inference in a child -------===//

#include "compiler/import/onnx/IsolatedInference.h"

#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace infer::onnx_import {
namespace {

/// What the child writes: one status byte, then the inferred model ('O')
/// or the exception's message ('E').
constexpr char kOk = 'O', kThrew = 'E';

/// The child's exit status when it ran out of its memory allowance, and
/// that allowance: address space beyond what the compiler already maps.
constexpr int kOutOfMemory = 4;
constexpr unsigned long long kChildMemoryGiB = 8;

/// Caps the child's address space at what it maps now plus the allowance,
/// so that inference which allocates in proportion to a hostile dim fails
/// with bad_alloc instead of taking the machine's memory.
void capChildMemory() {
  unsigned long long pages = 0;
  if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%llu", &pages) != 1) {
      pages = 0;
    }
    std::fclose(statm);
  }
  if (pages == 0) {
    return;
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0) {
    return;
  }
  rlim_t cap = pages * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) +
               (kChildMemoryGiB << 30);
  if (limit.rlim_cur == RLIM_INFINITY || cap < limit.rlim_cur) {
    limit.rlim_cur = cap;
    setrlimit(RLIMIT_AS, &limit);
  }
}

bool writeAll(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

/// Initializer payloads are not sent back: the parent has them, and only
/// the value types are merged.
void stripData(onnx::GraphProto &graph) {
  for (auto &init : *graph.mutable_initializer()) {
    init.clear_raw_data();
    init.clear_float_data();
    init.clear_int32_data();
    init.clear_int64_data();
    init.clear_double_data();
    init.clear_uint64_data();
    init.clear_string_data();
  }
  for (auto &node : *graph.mutable_node()) {
    for (auto &attr : *node.mutable_attribute()) {
      if (attr.has_g()) {
        stripData(*attr.mutable_g());
      }
      for (auto &g : *attr.mutable_graphs()) {
        stripData(g);
      }
    }
  }
}

[[noreturn]] void runChild(onnx::ModelProto &model, int fd, int errorMode,
                           pid_t parent) {
  // The child must not outlive the compile (killed by a build's timeout,
  // say) and go on computing on its own.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) {
    _exit(1);
  }
  capChildMemory();
  // A crash here is reported by the parent; no handler of the compiler's
  // (LLVM's stack dump, a sanitizer's report) should speak for it.
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) {
    std::signal(sig, SIG_DFL);
  }
  int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDERR_FILENO);
    dup2(null, STDOUT_FILENO);
  }
  std::string reply;
  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false, errorMode,
                                        /*enable_data_propagation=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
    stripData(*model.mutable_graph());
    reply.push_back(kOk);
    reply += model.SerializeAsString();
  } catch (const std::bad_alloc &) {
    _exit(kOutOfMemory);
  } catch (const std::exception &e) {
    std::string what = e.what();
    // libonnx reports an exception inside an op's inference as that op's
    // error: an allocation that failed is not the model's fault.
    if (what.find("bad_alloc") != std::string::npos) {
      _exit(kOutOfMemory);
    }
    reply.push_back(kThrew);
    reply += what.substr(0, what.find('\n'));
  }
  _exit(writeAll(fd, reply.data(), reply.size()) ? 0 : 3);
}

/// Reads everything the child writes, up to the deadline.
bool readAll(int fd, std::string &out,
             std::chrono::steady_clock::time_point deadline) {
  char buffer[1 << 16];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      return false;
    }
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) {
      return false;
    }
    if (ready <= 0) {
      continue;
    }
    ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return true; // end of file: the child is done (or died)
    }
    out.append(buffer, static_cast<size_t>(n));
  }
}

/// Copies the types inference added (value_info, and the graph's inputs'
/// and outputs' types) from `from` into `into`, subgraphs included. The two
/// have the same nodes in the same order: inference adds, never moves.
void mergeTypes(const onnx::GraphProto &from, onnx::GraphProto &into) {
  *into.mutable_value_info() = from.value_info();
  // A subgraph's inputs (a Loop or Scan body's) are typed by inference too.
  for (int i = 0; i < into.input_size() && i < from.input_size(); ++i) {
    *into.mutable_input(i)->mutable_type() = from.input(i).type();
  }
  for (int i = 0; i < into.output_size() && i < from.output_size(); ++i) {
    *into.mutable_output(i)->mutable_type() = from.output(i).type();
  }
  for (int i = 0; i < into.node_size() && i < from.node_size(); ++i) {
    auto &node = *into.mutable_node(i);
    const auto &other = from.node(i);
    for (int a = 0; a < node.attribute_size() && a < other.attribute_size();
         ++a) {
      auto &attr = *node.mutable_attribute(a);
      const auto &otherAttr = other.attribute(a);
      if (attr.has_g() && otherAttr.has_g()) {
        mergeTypes(otherAttr.g(), *attr.mutable_g());
      }
      for (int g = 0; g < attr.graphs_size() && g < otherAttr.graphs_size();
           ++g) {
        mergeTypes(otherAttr.graphs(g), *attr.mutable_graphs(g));
      }
    }
  }
}

/// Runs the inference in a child with `errorMode`; true with the child's
/// reply (status byte first) unless it could not start, crashed, ran past
/// the deadline or said nothing, which `problem` then says.
bool runIsolated(onnx::ModelProto &model, int errorMode, int timeoutSeconds,
                 std::string &reply, std::string &problem) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    problem = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  pid_t parent = getpid();
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    problem = std::string("cannot fork: ") + std::strerror(errno);
    return false;
  }
  if (child == 0) {
    close(fds[0]);
    runChild(model, fds[1], errorMode, parent);
  }
  close(fds[1]);
  reply.clear();
  bool finished = readAll(fds[0], reply,
                          std::chrono::steady_clock::now() +
                              std::chrono::seconds(timeoutSeconds));
  close(fds[0]);
  if (!finished) {
    kill(child, SIGKILL);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) {
    problem = "it ran for more than " + std::to_string(timeoutSeconds) +
              " s and was stopped";
    return false;
  }
  if (WIFSIGNALED(status)) {
    problem = std::string("it crashed (") + strsignal(WTERMSIG(status)) +
              ") on this model";
    return false;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kOutOfMemory) {
    problem = "it needed more than " + std::to_string(kChildMemoryGiB) +
              " GiB of memory and was stopped";
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty()) {
    problem = "it failed without a result";
    return false;
  }
  return true;
}

} // namespace

bool inferShapesIsolated(onnx::ModelProto &model, std::string &problem,
                         std::string &strictError, int timeoutSeconds) {
  strictError.clear();
  // Strict first: an op's own inference function refusing its inputs is
  // reported. Only if that threw, a second, lenient run for the types (the
  // child's copy of the model is the fork's, so neither run copies it).
  std::string reply;
  if (!runIsolated(model, /*errorMode=*/1, timeoutSeconds, reply, problem)) {
    return false;
  }
  if (reply[0] == kThrew) {
    strictError = reply.substr(1);
    if (!runIsolated(model, /*errorMode=*/0, timeoutSeconds, reply, problem)) {
      return false;
    }
    if (reply[0] == kThrew) {
      problem = reply.substr(1);
      return false;
    }
  }
  onnx::ModelProto inferred;
  if (reply[0] != kOk ||
      !inferred.ParseFromArray(reply.data() + 1,
                               static_cast<int>(reply.size() - 1))) {
    problem = "its result could not be read";
    return false;
  }
  mergeTypes(inferred.graph(), *model.mutable_graph());
  return true;
}

} // namespace infer::onnx_import
