//===- Quantizer.cpp - post-training int8 quantization in the compiler ----===//

#include "compiler/quantize/Quantizer.h"
#include "compiler/quantize/Calibration.h"
#include "compiler/quantize/HostCompile.h"
#include "compiler/quantize/Report.h"
#include "dialects/graph/IR/GraphOps.h"
#include "passes/graph/Passes.h"
#include "passes/graph/Quantize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/core.h>

#include <optional>

using namespace mlir;

namespace infer::quantize {

namespace {

/// The Convs and MatMuls of `fn`, in program order.
SmallVector<Operation *> layerOps(func::FuncOp fn) {
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (graph::isQuantizableKind(op)) {
      ops.push_back(op);
    }
  });
  return ops;
}

/// Appends `values` to `fn`'s results; returns the index of the first.
size_t appendResults(func::FuncOp fn, ArrayRef<Value> values) {
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  size_t first = ret.getNumOperands();
  SmallVector<Value> operands(ret.getOperands());
  operands.append(values.begin(), values.end());
  ret->setOperands(operands);
  fn.setType(FunctionType::get(fn.getContext(), fn.getArgumentTypes(),
                               ValueRange(operands).getTypes()));
  for (size_t i = first; i < operands.size(); ++i) {
    fn.setResultAttr(
        i, "graph.name",
        StringAttr::get(fn.getContext(),
                        "infer_measured_" + std::to_string(i - first)));
  }
  return first;
}

LogicalResult runOnFunctions(ModuleOp module,
                             llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  build(pm.nest<func::FuncOp>());
  return pm.run(module);
}

/// What graph-opt does after its own FoldQdq: the QDQ form becomes
/// QLinearConv, and what is left folds.
void addFoldPasses(OpPassManager &fn) {
  fn.addPass(graph::createFoldQdqPass());
  fn.addPass(createCanonicalizerPass());
  fn.addPass(graph::createFoldConstantsPass());
  fn.addPass(createCSEPass());
}

/// One Conv or MatMul of the model, as the report lists it.
struct Layer {
  LayerReport report;
  size_t input = 0, output = 0; // indices among the measured tensors
};

class Quantizer {
public:
  Quantizer(ModuleOp module, const QuantizeOptions &options)
      : module(module), options(options) {}

  LogicalResult run();

private:
  LogicalResult collectLayers(func::FuncOp fn);
  LogicalResult calibrate(TempDir &dir);
  LogicalResult measureErrors(TempDir &dir);
  LogicalResult quantize(TempDir &dir);
  InFlightDiagnostic error() { return emitError(module.getLoc()); }

  ModuleOp module;
  const QuantizeOptions &options;
  std::vector<Layer> layers;
  QuantizeReport report;
  // The float model with the measured tensors appended, and its sets.
  tools::Model floatModel;
  std::vector<std::vector<tools::Tensor>> sets;
  size_t firstMeasured = 0;
  int measurements = 0;
};

LogicalResult Quantizer::collectLayers(func::FuncOp fn) {
  llvm::StringSet<> excluded, seen;
  for (const std::string &name : options.exclude) {
    excluded.insert(name);
  }
  for (Operation *op : layerOps(fn)) {
    Layer layer;
    layer.report.id = int64_t(layers.size());
    layer.report.name = nodeName(op->getLoc());
    layer.report.op = op->getName().stripDialect().str();
    seen.insert(layer.report.name);
    if (excluded.contains(layer.report.name)) {
      layer.report.reason = "excluded (--quantize-exclude)";
    } else {
      layer.report.reason = graph::whyNotQuantizable(op);
    }
    layer.report.quantized = layer.report.reason.empty();
    layers.push_back(std::move(layer));
  }
  for (const std::string &name : options.exclude) {
    if (!seen.contains(name)) {
      return error() << "--quantize-exclude: the model has no Conv or "
                        "MatMul node named '"
                     << name << "'";
    }
  }
  return success();
}

LogicalResult Quantizer::calibrate(TempDir &dir) {
  OwningOpRef<ModuleOp> clone = module.clone();
  auto fn = clone->lookupSymbol<func::FuncOp>("main");
  SmallVector<Operation *> ops = layerOps(fn);
  SmallVector<Value> measured;
  llvm::DenseMap<Value, size_t> index;
  auto measure = [&](Value v) {
    auto [it, added] = index.try_emplace(v, measured.size());
    if (added) {
      measured.push_back(v);
    }
    return it->second;
  };
  for (auto [layer, op] : llvm::zip_equal(layers, ops)) {
    if (layer.report.quantized) {
      layer.input = measure(op->getOperand(0));
      layer.output = measure(graph::quantizedTail(op));
    }
  }
  firstMeasured = appendResults(fn, measured);
  FailureOr<std::string> library =
      compileForHost(*clone, "infer_calibration", dir.path);
  if (failed(library)) {
    return failure();
  }
  RangeMethod method = options.method == "percentile" ? RangeMethod::Percentile
                       : options.method == "entropy"  ? RangeMethod::Entropy
                                                      : RangeMethod::MinMax;
  std::vector<Range> ranges;
  try {
    floatModel = tools::loadModel(*library, "infer_calibration");
    sets = loadCalibrationSets(floatModel.get(), options.calibrationDir);
    ranges = measureRanges(floatModel.get(), sets, firstMeasured, method,
                           options.percentile);
  } catch (const tools::ToolError &e) {
    return error() << "calibration: " << e.what();
  }
  report.sets = sets.size();
  Builder b(module.getContext());
  for (auto [layer, op] : llvm::zip_equal(
           layers, layerOps(module.lookupSymbol<func::FuncOp>("main")))) {
    if (!layer.report.quantized) {
      continue;
    }
    layer.report.input = ranges[layer.input];
    layer.report.output = ranges[layer.output];
    op->setAttr(graph::kQuantizeMark,
                b.getDictionaryAttr(
                    {b.getNamedAttr("id", b.getI64IntegerAttr(layer.report.id)),
                     b.getNamedAttr("input", b.getDenseF64ArrayAttr(
                                                 {layer.report.input.lo,
                                                  layer.report.input.hi})),
                     b.getNamedAttr("output", b.getDenseF64ArrayAttr(
                                                  {layer.report.output.lo,
                                                   layer.report.output.hi}))}));
  }
  return success();
}

LogicalResult Quantizer::measureErrors(TempDir &dir) {
  OwningOpRef<ModuleOp> clone = module.clone();
  auto fn = clone->lookupSymbol<func::FuncOp>("main");
  llvm::DenseMap<int64_t, Value> outputs;
  fn.walk([&](Operation *op) {
    if (auto id = op->getAttrOfType<IntegerAttr>(graph::kQuantizedOutputMark)) {
      outputs[id.getInt()] = op->getResult(0);
    }
  });
  SmallVector<Value> measured;
  SmallVector<Layer *> measuredLayers;
  for (Layer &layer : layers) {
    if (Value v = outputs.lookup(layer.report.id)) {
      measured.push_back(v);
      measuredLayers.push_back(&layer);
    }
  }
  size_t numOutputs = fn.getNumResults();
  size_t first = appendResults(fn, measured);
  report.outputs.clear();
  if (failed(runOnFunctions(*clone, addFoldPasses))) {
    return failure();
  }
  // A library of its own per measurement: one loaded before is not
  // replaced under the same path.
  std::string name = "infer_quantized_" + std::to_string(measurements++);
  FailureOr<std::string> library = compileForHost(*clone, name, dir.path);
  if (failed(library)) {
    return failure();
  }
  for (size_t i = 0; i < numOutputs; ++i) {
    report.outputs.push_back(
        {infer_model_output(floatModel.get(), i)->name, {}});
  }
  try {
    tools::Model quantized = tools::loadModel(*library, name);
    for (const std::vector<tools::Tensor> &set : sets) {
      std::vector<tools::Tensor> expected =
          tools::runModel(floatModel.get(), set);
      std::vector<tools::Tensor> actual = tools::runModel(quantized.get(), set);
      auto compare = [&](ErrorStats &stats, const tools::Tensor &f,
                         const tools::Tensor &q) {
        auto [fd, count] = floats(f);
        stats.add(fd, floats(q).first, count);
      };
      for (size_t i = 0; i < numOutputs; ++i) {
        if (infer_tensor_dtype(expected[i].get()) == INFER_DTYPE_F32) {
          compare(report.outputs[i].error, expected[i], actual[i]);
        }
      }
      for (auto [k, layer] : llvm::enumerate(measuredLayers)) {
        compare(layer->report.error, expected[firstMeasured + layer->output],
                actual[first + k]);
      }
    }
  } catch (const tools::ToolError &e) {
    return error() << "quantization report: " << e.what();
  }
  return success();
}

LogicalResult Quantizer::quantize(TempDir &dir) {
  bool guard = options.maxError > 0;
  OwningOpRef<ModuleOp> marked;
  if (guard) {
    marked = module.clone();
  }
  auto rewrite = [&] {
    return runOnFunctions(module, [](OpPassManager &pm) {
      pm.addPass(graph::createQuantizeConvsPass());
    });
  };
  if (failed(rewrite())) {
    return failure();
  }
  if (options.reportPath.empty() && !guard) {
    return success();
  }
  if (failed(measureErrors(dir))) {
    return failure();
  }
  if (!guard) {
    return success();
  }
  // The accuracy guard: layers whose output is too far from the float
  // model's stay float, and the rest is quantized again from the marks.
  llvm::SmallDenseSet<int64_t> offenders;
  for (Layer &layer : layers) {
    double error = layer.report.error.relativeRms();
    if (layer.report.quantized && error > options.maxError) {
      offenders.insert(layer.report.id);
      layer.report.quantized = false;
      layer.report.reason = fmt::format(
          "relative RMS error {:.3g} above --quantize-max-error", error);
    }
  }
  if (offenders.empty()) {
    return success();
  }
  for (Layer &layer : layers) {
    layer.report.error = {};
  }
  marked->walk([&](Operation *op) {
    auto mark = op->getAttrOfType<DictionaryAttr>(graph::kQuantizeMark);
    auto id = mark ? mark.getAs<IntegerAttr>("id") : IntegerAttr();
    if (id && offenders.contains(id.getInt())) {
      op->removeAttr(graph::kQuantizeMark);
    }
  });
  for (Operation &op : llvm::make_early_inc_range(*module.getBody())) {
    op.erase();
  }
  module.getBody()->getOperations().splice(module.getBody()->end(),
                                           marked->getBody()->getOperations());
  return failure(failed(rewrite()) || failed(measureErrors(dir)));
}

LogicalResult Quantizer::run() {
  auto fn = module.lookupSymbol<func::FuncOp>("main");
  if (!fn) {
    return error() << "--quantize: the module has no 'main' function";
  }
  for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes())) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (shaped && !shaped.hasStaticShape()) {
      auto name = fn.getArgAttrOfType<StringAttr>(i, "graph.name");
      return error() << "--quantize needs static input shapes (calibration "
                        "runs the model): input '"
                     << (name ? name.getValue() : StringRef("?"))
                     << "' has dynamic dims; fix them with --shape or "
                        "--batch";
    }
  }
  if (failed(runOnFunctions(module,
                            [](OpPassManager &pm) {
                              pm.addPass(graph::createFoldBatchNormPass());
                            })) ||
      failed(collectLayers(fn))) {
    return failure();
  }
  report.method = options.method;
  report.percentile = options.percentile;
  TempDir dir;
  if (std::string message = dir.create("infer-quantize"); !message.empty()) {
    return error() << "--quantize: " << message;
  }
  bool any =
      llvm::any_of(layers, [](const Layer &l) { return l.report.quantized; });
  if (!any) {
    emitWarning(module.getLoc())
        << "--quantize=int8: no Conv or MatMul can run in int8; the model "
           "stays float";
  } else if (failed(calibrate(dir)) || failed(quantize(dir))) {
    return failure();
  }
  if (!options.reportPath.empty()) {
    for (const Layer &layer : layers) {
      report.layers.push_back(layer.report);
    }
    if (llvm::Error e = writeReportJson(options.reportPath, report)) {
      return error() << "cannot write the quantization report '"
                     << options.reportPath
                     << "': " << llvm::toString(std::move(e));
    }
    printReportTable(llvm::outs(), report);
  }
  // Models are released before the directory holding their libraries.
  floatModel.reset();
  return runOnFunctions(module, addFoldPasses);
}

} // namespace

LogicalResult quantizeInt8(ModuleOp module, const QuantizeOptions &options) {
  return Quantizer(module, options).run();
}

} // namespace infer::quantize
