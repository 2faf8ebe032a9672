//===- Report.cpp - what the int8 quantizer did, layer by layer -----------===//

#include "compiler/quantize/Report.h"
#include "targets/common/OutputFile.h"

#include "llvm/Support/JSON.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace infer::quantize {

void ErrorStats::add(const float *expected, const float *actual, size_t count) {
  measured = true;
  for (size_t i = 0; i < count; ++i) {
    double f = expected[i], d = f - double(actual[i]);
    signal += f * f;
    noise += d * d;
    maxError = std::max(maxError, std::fabs(d));
  }
}

double ErrorStats::sqnrDb() const {
  if (noise == 0.0) {
    return std::numeric_limits<double>::infinity();
  }
  return 10.0 * std::log10(signal / noise);
}

double ErrorStats::relativeRms() const {
  if (signal == 0.0) {
    return noise == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  }
  return std::sqrt(noise / signal);
}

/// JSON has no infinity: equal outputs have "sqnr_db": null.
static llvm::json::Value sqnrValue(const ErrorStats &error) {
  double db = error.sqnrDb();
  return std::isfinite(db) ? llvm::json::Value(db) : llvm::json::Value(nullptr);
}

void writeError(llvm::json::OStream &j, const ErrorStats &error) {
  if (!error.measured) {
    return;
  }
  j.attribute("sqnr_db", sqnrValue(error));
  double relative = error.relativeRms();
  j.attribute("relative_rms_error", std::isfinite(relative)
                                        ? llvm::json::Value(relative)
                                        : llvm::json::Value(nullptr));
  j.attribute("max_abs_error", error.maxError);
}

std::string formatDb(const ErrorStats &error) {
  if (!error.measured) {
    return "-";
  }
  double db = error.sqnrDb();
  return std::isfinite(db) ? fmt::format("{:.1f}", db) : "exact";
}

llvm::Error writeReportJson(const std::string &path,
                            const QuantizeReport &report) {
  return writeOutputFile(path, [&](llvm::raw_ostream &os) {
    llvm::json::OStream j(os, 2);
    j.object([&] {
      j.attribute("method", report.method);
      if (report.method == "percentile") {
        j.attribute("percentile", report.percentile);
      }
      j.attribute("calibration_sets", int64_t(report.sets));
      j.attributeArray("layers", [&] {
        for (const LayerReport &layer : report.layers) {
          j.object([&] {
            j.attribute("id", layer.id);
            j.attribute("name", layer.name);
            j.attribute("op", layer.op == "conv" ? "Conv" : "MatMul");
            j.attribute("int8", layer.quantized);
            if (!layer.quantized) {
              j.attribute("reason", layer.reason);
              return;
            }
            j.attribute("input_range",
                        llvm::json::Array{layer.input.lo, layer.input.hi});
            j.attribute("output_range",
                        llvm::json::Array{layer.output.lo, layer.output.hi});
            writeError(j, layer.error);
          });
        }
      });
      writeOutputs(j, report.outputs);
    });
    os << '\n';
    return llvm::Error::success();
  });
}

void writeOutputs(llvm::json::OStream &j,
                  const std::vector<OutputReport> &outputs) {
  j.attributeArray("outputs", [&] {
    for (const OutputReport &output : outputs) {
      j.object([&] {
        j.attribute("name", output.name);
        writeError(j, output.error);
      });
    }
  });
}

void printReportTable(llvm::raw_ostream &os, const QuantizeReport &report) {
  size_t quantized = 0, width = 5;
  for (const LayerReport &layer : report.layers) {
    quantized += layer.quantized;
    width = std::max(width, layer.name.size());
  }
  os << fmt::format(
      "int8 quantization: {} of {} layers (Conv, MatMul) in int8; "
      "ranges by {} over {} calibration set(s); errors against "
      "the float model on those sets\n",
      quantized, report.layers.size(), report.method, report.sets);
  os << fmt::format("{:<{}}  int8  {:>8}  {:>10}  {}\n", "layer", width,
                    "SQNR dB", "max |err|", "output range / why float");
  for (const LayerReport &layer : report.layers) {
    if (!layer.quantized) {
      os << fmt::format("{:<{}}  no    {:>8}  {:>10}  {}\n", layer.name, width,
                        "-", "-", layer.reason);
      continue;
    }
    os << fmt::format("{:<{}}  yes   {:>8}  {:>10.4g}  [{:.4g}, {:.4g}]\n",
                      layer.name, width, formatDb(layer.error),
                      layer.error.maxError, layer.output.lo, layer.output.hi);
  }
  for (const OutputReport &output : report.outputs) {
    os << fmt::format("model output '{}': SQNR {} dB, max |err| {:.4g}\n",
                      output.name, formatDb(output.error),
                      output.error.maxError);
  }
}

} // namespace infer::quantize
