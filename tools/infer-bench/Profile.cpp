//===- Profile.cpp - infer-bench --profile: where a run's time goes -------===//

#include "tools/infer-bench/Profile.h"

#include "tools/common/Args.h"
#include "tools/common/RuntimeHandles.h"
#include "tools/infer-bench/Clock.h"
#include "tools/infer-bench/Machine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <numeric>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

namespace infer::tools {
namespace {

constexpr double kOverheadSeconds = 10e-6;
constexpr double kOverheadFraction = 0.25;

double median(std::vector<double> values) {
  if (values.empty()) {
    return 0;
  }
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

struct KernelRow {
  size_t index = 0;
  const infer_abi_kernel_t *info = nullptr;
  double seconds = 0; // median over runs of its time per run
  double gflops = 0, gbs = 0, intensity = 0, rooflineFraction = 0;
  const char *kind = "";
};

struct Measured {
  std::vector<double> latencies;  // seconds per call
  std::vector<double> kernelSums; // seconds of all segments per run
  std::vector<std::vector<infer_profile_segment_t>> runs;
  std::vector<double> starts; // seconds from the first timed call
};

Measured measure(infer_model_t model, const std::vector<infer_tensor_t> &inputs,
                 const ProfileOptions &options) {
  std::vector<Tensor> owned;
  std::vector<infer_tensor_t> outputs;
  for (size_t i = 0; i < infer_model_num_outputs(model); ++i) {
    const infer_abi_tensor_t *declared = infer_model_output(model, i);
    infer_tensor_t tensor = nullptr;
    check(infer_tensor_create(static_cast<infer_dtype_t>(declared->dtype),
                              declared->rank, declared->shape, &tensor));
    owned.emplace_back(tensor);
    outputs.push_back(tensor);
  }
  std::vector<infer_profile_segment_t> segments(
      infer_model_num_segments(model));
  auto call = [&] {
    check(infer_model_run_profiled(model, inputs.data(), inputs.size(),
                                   outputs.data(), outputs.size(),
                                   segments.data(), segments.size()));
  };
  for (int64_t i = 0; i < options.warmup; ++i) {
    call();
  }
  Measured measured;
  double first = nowSeconds();
  for (int64_t i = 0; i < options.iterations; ++i) {
    double before = nowSeconds();
    call();
    measured.latencies.push_back(nowSeconds() - before);
    measured.starts.push_back(before - first);
    measured.kernelSums.push_back(
        segments.empty() ? 0 : segments.back().end_ns * 1e-9);
    measured.runs.push_back(segments);
  }
  return measured;
}

std::vector<KernelRow> kernelRows(infer_model_t model, const Measured &measured,
                                  const MachineLimits &machine) {
  size_t count = infer_model_num_kernels(model);
  std::vector<std::vector<double>> perRun(count);
  for (const auto &run : measured.runs) {
    std::vector<double> sums(count, 0);
    for (const infer_profile_segment_t &segment : run) {
      sums[segment.kernel] += (segment.end_ns - segment.begin_ns) * 1e-9;
    }
    for (size_t k = 0; k < count; ++k) {
      perRun[k].push_back(sums[k]);
    }
  }
  double ridge = machine.peakGflops / machine.bandwidthGbs; // FLOP per byte
  std::vector<KernelRow> rows;
  for (size_t k = 0; k < count; ++k) {
    KernelRow row;
    row.index = k;
    row.info = infer_model_kernel(model, k);
    row.seconds = median(perRun[k]);
    double flops = row.info->flops,
           bytes = static_cast<double>(row.info->bytes);
    double seconds = std::max(row.seconds, 1e-12);
    row.gflops = flops / seconds * 1e-9;
    row.gbs = bytes / seconds * 1e-9;
    row.intensity = bytes > 0 ? flops / bytes : 0;
    double roofline = std::max(flops / (machine.peakGflops * 1e9),
                               bytes / (machine.bandwidthGbs * 1e9));
    row.rooflineFraction = roofline / seconds;
    row.kind = row.seconds < kOverheadSeconds &&
                       row.rooflineFraction < kOverheadFraction
                   ? "overhead"
               : row.intensity >= ridge ? "compute"
                                        : "memory";
    rows.push_back(row);
  }
  return rows;
}

/// The roofline of the GPU a CUDA model runs on, from the driver's
/// attributes (infer_model_device_info).
MachineLimits deviceLimits(infer_model_t model) {
  infer_device_info_t info;
  check(infer_model_device_info(model, &info));
  if (info.peak_gflops <= 0 || info.bandwidth_gbs <= 0) {
    throw ToolError(fmt::format(
        "the CUDA driver does not report the multiprocessors, clock, memory "
        "clock or bus width of '{}', which its roofline needs",
        info.name));
  }
  MachineLimits limits;
  limits.cpu = info.name;
  limits.isa = fmt::format("sm_{}{}", info.compute_major, info.compute_minor);
  limits.threads = 1;
  limits.peakGflops = info.peak_gflops;
  limits.bandwidthGbs = info.bandwidth_gbs;
  limits.gpu = true;
  return limits;
}

/// One line on the machine the kernels are judged against.
std::string describeLimits(const MachineLimits &machine, int threads) {
  if (machine.gpu) {
    return fmt::format("{} ({}): peak {:.1f} GFLOP/s, memory {:.1f} GB/s "
                       "(from the driver's attributes), ridge {:.1f} FLOP/B",
                       machine.cpu, machine.isa, machine.peakGflops,
                       machine.bandwidthGbs,
                       machine.peakGflops / machine.bandwidthGbs);
  }
  return fmt::format("{}, {} FMA; {} thread(s): peak {:.1f} GFLOP/s, triad "
                     "{:.1f} GB/s, ridge {:.1f} FLOP/B",
                     machine.cpu, machine.isa, threads, machine.peakGflops,
                     machine.bandwidthGbs,
                     machine.peakGflops / machine.bandwidthGbs);
}

std::string clip(const std::string &text, size_t width) {
  return text.size() <= width ? text : text.substr(0, width - 1) + "~";
}

/// Writes `text` as a new file that then replaces `path`, so a link
/// already there is replaced, never written through (as infer-compile's
/// outputs).
void writeFile(const std::string &path, const std::string &text) {
  std::string temporary = path + ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw ToolError(fmt::format("cannot write '{}'", path));
  }
}

std::string kernelJson(const KernelRow &row, double total) {
  std::string nodes;
  for (uint32_t n = 0; n < row.info->num_nodes; ++n) {
    nodes += (n ? ", " : "") + jsonString(row.info->nodes[n]);
  }
  return fmt::format(
      "{{\"index\": {}, \"name\": {}, \"op_types\": {}, \"nodes\": [{}], "
      "\"flops\": {:.0f}, \"bytes\": {}, \"time_ms\": {:.6f}, "
      "\"percent\": {:.3f}, \"gflops\": {:.3f}, \"gbs\": {:.3f}, "
      "\"intensity\": {:.4f}, \"roofline_fraction\": {:.4f}, "
      "\"class\": \"{}\"}}",
      row.index, jsonString(row.info->name), jsonString(row.info->op_types),
      nodes, row.info->flops, row.info->bytes, row.seconds * 1e3,
      total > 0 ? row.seconds / total * 100 : 0, row.gflops, row.gbs,
      row.intensity, row.rooflineFraction, row.kind);
}

std::string profileJson(infer_model_t model, const ProfileOptions &options,
                        const MachineLimits &machine, const Measured &measured,
                        const std::vector<KernelRow> &rows) {
  double total = median(measured.kernelSums);
  std::string latencies, kernels;
  for (double latency : measured.latencies) {
    latencies +=
        fmt::format("{}{:.6f}", latencies.empty() ? "" : ", ", latency * 1e3);
  }
  for (const KernelRow &row : rows) {
    kernels +=
        (kernels.empty() ? "\n    " : ",\n    ") + kernelJson(row, total);
  }
  return fmt::format(
      "{{\n  \"model\": {},\n  \"path\": {},\n  \"intra_threads\": {},\n"
      "  \"machine\": {{\"kind\": \"{}\", \"cpu\": {}, \"isa\": \"{}\", "
      "\"threads\": {}, \"peak_gflops\": {:.3f}, \"bandwidth_gbs\": {:.3f}, "
      "\"summary\": {}}},\n"
      "  \"warmup\": {},\n  \"iterations\": {},\n"
      "  \"latency_p50_ms\": {:.6f},\n  \"kernels_p50_ms\": {:.6f},\n"
      "  \"latency_ms\": [{}],\n  \"kernels\": [{}\n  ]\n}}\n",
      jsonString(infer_model_name(model)), jsonString(options.modelPath),
      infer_model_intra_op_threads(model), machine.gpu ? "gpu" : "cpu",
      jsonString(machine.cpu), machine.isa, machine.threads, machine.peakGflops,
      machine.bandwidthGbs,
      jsonString(describeLimits(machine, machine.threads)), options.warmup,
      options.iterations, median(measured.latencies) * 1e3, total * 1e3,
      latencies, kernels);
}

/// Chrome's Trace Event Format: one complete event per call and, nested
/// in it, one per segment (Perfetto and chrome://tracing open it).
std::string traceJson(infer_model_t model, const Measured &measured) {
  std::string events;
  auto add = [&](const std::string &event) {
    events += (events.empty() ? "\n" : ",\n") + event;
  };
  for (size_t r = 0; r < measured.runs.size(); ++r) {
    double start = measured.starts[r] * 1e6; // microseconds
    add(fmt::format("{{\"name\": \"run {}\", \"cat\": \"run\", \"ph\": \"X\", "
                    "\"pid\": 1, \"tid\": 1, \"ts\": {:.3f}, \"dur\": {:.3f}}}",
                    r, start, measured.latencies[r] * 1e6));
    for (const infer_profile_segment_t &segment : measured.runs[r]) {
      const infer_abi_kernel_t *kernel =
          infer_model_kernel(model, segment.kernel);
      add(fmt::format(
          "{{\"name\": {}, \"cat\": \"kernel\", \"ph\": \"X\", \"pid\": 1, "
          "\"tid\": 1, \"ts\": {:.3f}, \"dur\": {:.3f}, \"args\": "
          "{{\"op_types\": {}, \"kernel\": {}, \"flops\": {:.0f}, "
          "\"bytes\": {}}}}}",
          jsonString(kernel->name), start + segment.begin_ns * 1e-3,
          (segment.end_ns - segment.begin_ns) * 1e-3,
          jsonString(kernel->op_types), segment.kernel, kernel->flops,
          kernel->bytes));
    }
  }
  return fmt::format("{{\"displayTimeUnit\": \"ms\", \"otherData\": "
                     "{{\"model\": {}}}, \"traceEvents\": [{}\n]}}\n",
                     jsonString(infer_model_name(model)), events);
}

/// Runs infer-report (beside this program, or $INFER_REPORT) on `json`.
void drawReport(const ProfileOptions &options, const std::string &json) {
  std::string script;
  if (const char *env = std::getenv("INFER_REPORT"); env && *env) {
    script = env;
  } else {
    std::string self = options.self;
    size_t slash = self.find_last_of('/');
    script = (slash == std::string::npos ? std::string(".")
                                         : self.substr(0, slash)) +
             "/infer-report";
  }
  std::fflush(stdout);
  // posix_spawn, not fork: the runtime's pool threads are running.
  const char *argv[] = {script.c_str(), json.c_str(), "-o",
                        options.reportPath.c_str(), nullptr};
  pid_t child = -1;
  if (posix_spawn(&child, script.c_str(), nullptr, nullptr,
                  const_cast<char *const *>(argv), environ) != 0) {
    child = -1;
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) < 0 || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    throw ToolError(fmt::format(
        "'{}' could not draw the report (it needs python3 with matplotlib; "
        "set INFER_REPORT to its path); the profile is in '{}'",
        script, json));
  }
}

} // namespace

void runProfile(infer_model_t model, const std::vector<infer_tensor_t> &inputs,
                const ProfileOptions &options) {
  if (infer_model_num_kernels(model) == 0) {
    throw ToolError(
        fmt::format("'{}' has no kernel profile: compile it with infer-compile "
                    "--profile (CPU or CUDA target, static shapes)",
                    options.modelPath));
  }
  Measured measured = measure(model, inputs, options);
  int threads = infer_model_intra_op_threads(model);
  MachineLimits machine =
      infer_model_on_device(model)
          ? deviceLimits(model)
          : machineLimits(options.machineFile.empty() ? defaultMachineFile()
                                                      : options.machineFile,
                          threads, options.remeasure);
  std::vector<KernelRow> rows = kernelRows(model, measured, machine);

  double latency = median(measured.latencies);
  double total = median(measured.kernelSums);
  fmt::print("model       {} ({})\n", infer_model_name(model),
             options.modelPath);
  fmt::print("{}{}\n", machine.gpu ? "device      " : "machine     ",
             describeLimits(machine, threads));
  fmt::print("latency     p50 {:.4f} ms over {} calls; {} p50 {:.4f} ms "
             "({:.1f}% of it)\n\n",
             latency * 1e3, options.iterations,
             machine.gpu ? "launches (events, no CUDA graph)" : "kernels",
             total * 1e3, latency > 0 ? total / latency * 100 : 0);
  std::vector<KernelRow> sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const KernelRow &a, const KernelRow &b) {
                     return a.seconds > b.seconds;
                   });
  fmt::print("{:>4}  {:<28}{:<22}{:>10}{:>7}{:>10}{:>9}{:>8}{:>7}  {}\n", "#",
             "kernel", "ops", "ms", "%", "GFLOP/s", "GB/s", "FLOP/B", "roof%",
             "class");
  size_t shown = std::min(sorted.size(), static_cast<size_t>(options.top));
  for (size_t i = 0; i < shown; ++i) {
    const KernelRow &row = sorted[i];
    fmt::print("{:>4}  {:<28}{:<22}{:>10.4f}{:>7.1f}{:>10.1f}{:>9.1f}{:>8.1f}"
               "{:>7.0f}  {}\n",
               row.index, clip(row.info->name, 27),
               clip(row.info->op_types, 21), row.seconds * 1e3,
               total > 0 ? row.seconds / total * 100 : 0, row.gflops, row.gbs,
               row.intensity, row.rooflineFraction * 100, row.kind);
  }
  if (shown < sorted.size()) {
    fmt::print("      ... {} more kernels (--top N shows more)\n",
               sorted.size() - shown);
  }
  std::string jsonPath = options.jsonPath;
  if (jsonPath.empty() && !options.reportPath.empty()) {
    jsonPath = options.reportPath + ".json";
  }
  if (!jsonPath.empty()) {
    writeFile(jsonPath, profileJson(model, options, machine, measured, rows));
  }
  if (!options.tracePath.empty()) {
    writeFile(options.tracePath, traceJson(model, measured));
  }
  if (!options.reportPath.empty()) {
    drawReport(options, jsonPath);
  }
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += fmt::format("\\u{:04x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

} // namespace infer::tools
