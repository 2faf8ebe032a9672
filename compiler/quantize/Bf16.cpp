//===- Bf16.cpp - --precision=bf16 and its report -------------------------===//

#include "compiler/quantize/Bf16.h"
#include "compiler/quantize/Calibration.h"
#include "compiler/quantize/HostCompile.h"
#include "compiler/quantize/Report.h"
#include "dialects/graph/IR/GraphOps.h"
#include "passes/graph/Passes.h"
#include "passes/graph/Precision.h"
#include "targets/common/OutputFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/core.h>

using namespace mlir;

namespace infer::quantize {

namespace {

struct LayerPrecision {
  std::string name, op;
  bool bf16 = false;
  std::string reason; // why it stays f32
};

struct Bf16Report {
  size_t sets = 0;
  std::vector<LayerPrecision> layers;
  std::vector<OutputReport> outputs;
};

std::vector<LayerPrecision> layersOf(ModuleOp module,
                                     const Bf16Options &options) {
  llvm::StringSet<> excluded;
  for (const std::string &name : options.exclude) {
    excluded.insert(name);
  }
  std::vector<LayerPrecision> layers;
  module.walk([&](Operation *op) {
    if (!isa<graph::ConvOp, graph::MatMulOp, graph::GemmOp>(op)) {
      return;
    }
    LayerPrecision layer{nodeName(op->getLoc()),
                         op->getName().stripDialect().str(),
                         graph::markedBf16(op), ""};
    if (!layer.bf16) {
      layer.reason = excluded.contains(layer.name)
                         ? "excluded (--precision-exclude)"
                         : "grouped, not f32, or weights computed at run time";
    }
    layers.push_back(std::move(layer));
  });
  return layers;
}

llvm::Error writeJson(const std::string &path, const Bf16Report &report) {
  return writeOutputFile(path, [&](llvm::raw_ostream &os) {
    llvm::json::OStream j(os, 2);
    j.object([&] {
      j.attribute("precision", "bf16");
      j.attribute("input_sets", int64_t(report.sets));
      j.attributeArray("layers", [&] {
        for (const LayerPrecision &layer : report.layers) {
          j.object([&] {
            j.attribute("name", layer.name);
            j.attribute("op", layer.op);
            j.attribute("bf16", layer.bf16);
            if (!layer.bf16) {
              j.attribute("reason", layer.reason);
            }
          });
        }
      });
      writeOutputs(j, report.outputs);
    });
    os << '\n';
    return llvm::Error::success();
  });
}

void printTable(llvm::raw_ostream &os, const Bf16Report &report) {
  size_t inBf16 = 0;
  for (const LayerPrecision &layer : report.layers) {
    inBf16 += layer.bf16;
  }
  os << fmt::format("bf16: {} of {} layers (Conv, MatMul, Gemm) in bf16; "
                    "outputs against the f32 model on {} input set(s)\n",
                    inBf16, report.layers.size(), report.sets);
  for (const LayerPrecision &layer : report.layers) {
    if (!layer.bf16) {
      os << fmt::format("  kept f32: {} ({}): {}\n", layer.name, layer.op,
                        layer.reason);
    }
  }
  for (const OutputReport &output : report.outputs) {
    os << fmt::format("model output '{}': SQNR {} dB, relative RMS error "
                      "{:.3g}, max |err| {:.4g}\n",
                      output.name, formatDb(output.error),
                      output.error.relativeRms(), output.error.maxError);
  }
}

/// Runs the f32 `reference` and the bf16 `module` (both graph-level) on the
/// input sets and fills `report.outputs` with their difference.
LogicalResult measure(ModuleOp reference, ModuleOp module,
                      const Bf16Options &options, Bf16Report &report) {
  TempDir dir;
  if (std::string message = dir.create("infer-bf16"); !message.empty()) {
    return emitError(module.getLoc()) << "--precision-report: " << message;
  }
  OwningOpRef<ModuleOp> bf16 = module.clone();
  FailureOr<std::string> f32Library =
      compileForHost(reference, "infer_precision_f32", dir.path);
  if (failed(f32Library)) {
    return failure();
  }
  FailureOr<std::string> bf16Library =
      compileForHost(*bf16, "infer_precision_bf16", dir.path);
  if (failed(bf16Library)) {
    return failure();
  }
  try {
    tools::Model f32Model =
        tools::loadModel(*f32Library, "infer_precision_f32");
    tools::Model bf16Model =
        tools::loadModel(*bf16Library, "infer_precision_bf16");
    std::vector<std::vector<tools::Tensor>> sets =
        loadCalibrationSets(f32Model.get(), options.setsDir);
    report.sets = sets.size();
    size_t numOutputs = infer_model_num_outputs(f32Model.get());
    for (size_t i = 0; i < numOutputs; ++i) {
      report.outputs.push_back(
          {infer_model_output(f32Model.get(), i)->name, {}});
    }
    for (const std::vector<tools::Tensor> &set : sets) {
      std::vector<tools::Tensor> expected =
          tools::runModel(f32Model.get(), set);
      std::vector<tools::Tensor> actual = tools::runModel(bf16Model.get(), set);
      for (size_t i = 0; i < numOutputs; ++i) {
        if (infer_tensor_dtype(expected[i].get()) == INFER_DTYPE_F32) {
          auto [values, count] = floats(expected[i]);
          report.outputs[i].error.add(values, floats(actual[i]).first, count);
        }
      }
    }
  } catch (const tools::ToolError &e) {
    return emitError(module.getLoc()) << "--precision-report: " << e.what();
  }
  return success();
}

} // namespace

LogicalResult convertToBf16(ModuleOp module, const Bf16Options &options) {
  OwningOpRef<ModuleOp> reference;
  if (!options.reportPath.empty()) {
    reference = module.clone();
  }
  PassManager pm(module.getContext());
  graph::MarkBf16PassOptions mark;
  mark.exclude.assign(options.exclude.begin(), options.exclude.end());
  pm.nest<func::FuncOp>().addPass(graph::createMarkBf16Pass(mark));
  if (failed(pm.run(module))) {
    return failure();
  }
  if (options.reportPath.empty()) {
    return success();
  }
  Bf16Report report;
  report.layers = layersOf(module, options);
  if (failed(measure(*reference, module, options, report))) {
    return failure();
  }
  if (llvm::Error e = writeJson(options.reportPath, report)) {
    return emitError(module.getLoc())
           << "cannot write the precision report '" << options.reportPath
           << "': " << llvm::toString(std::move(e));
  }
  printTable(llvm::outs(), report);
  return success();
}

} // namespace infer::quantize
