//===- Report.h - what the int8 quantizer did, layer by layer ---*- C++ -*-===//
//
// `--quantize-report=FILE`: per Conv and MatMul, whether it runs in int8 (and
// why not), the ranges calibration chose, and the error of its int8 output
// against the float model's on the calibration inputs (SQNR and max
// |error|, with the errors of every layer before it included, as the
// deployed model has them); the same for the model's outputs. Written as
// JSON to FILE and as a table to standard output.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_QUANTIZE_REPORT_H
#define INFER_COMPILER_QUANTIZE_REPORT_H

#include "compiler/quantize/Calibration.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace infer::quantize {

/// Float values against their quantized counterparts.
struct ErrorStats {
  double signal = 0.0; // sum of f^2
  double noise = 0.0;  // sum of (f - q)^2
  double maxError = 0.0;
  bool measured = false;

  void add(const float *expected, const float *actual, size_t count);
  /// 10 log10(signal / noise); +inf when the outputs are equal.
  double sqnrDb() const;
  /// sqrt(noise / signal): 0.05 is an SQNR of 26 dB.
  double relativeRms() const;
};

struct LayerReport {
  int64_t id = 0;
  std::string name; // the ONNX node
  std::string op;   // "conv", "mat_mul"
  bool quantized = false;
  std::string reason; // why it stays float
  Range input, output;
  ErrorStats error;
};

struct OutputReport {
  std::string name;
  ErrorStats error;
};

struct QuantizeReport {
  std::string method;
  double percentile = 0.0;
  size_t sets = 0;
  std::vector<LayerReport> layers;
  std::vector<OutputReport> outputs;
};

/// `error`'s sqnr_db, relative_rms_error and max_abs_error attributes
/// (none when not measured).
void writeError(llvm::json::OStream &j, const ErrorStats &error);
/// An "outputs" array: each model output's name and error.
void writeOutputs(llvm::json::OStream &j,
                  const std::vector<OutputReport> &outputs);
/// The SQNR in dB as a table shows it ("exact" for equal values).
std::string formatDb(const ErrorStats &error);

llvm::Error writeReportJson(const std::string &path,
                            const QuantizeReport &report);
void printReportTable(llvm::raw_ostream &os, const QuantizeReport &report);

} // namespace infer::quantize

#endif // INFER_COMPILER_QUANTIZE_REPORT_H
