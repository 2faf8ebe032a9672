//===- Estimator.cpp - latency and resource estimate of a project ---------===//

#include "targets/hls/Estimator.h"
#include "targets/hls/CostModel.h"
#include "targets/hls/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/Format.h"

using namespace mlir;

namespace infer::hls {

Resources &Resources::operator+=(const Resources &other) {
  dsp += other.dsp;
  bram18k += other.bram18k;
  lut += other.lut;
  ff += other.ff;
  return *this;
}

namespace {

constexpr int64_t kBram18kBits = 18 * 1024;
/// Arrays this small become registers or LUT RAM, not block RAM.
constexpr int64_t kLutRamBits = 1024;
/// A loop's counter, compare and control state.
constexpr Resources kLoopControl{0, 0, 40, 30};

/// Memory for one array with `partition` (hls.array_partition) applied.
Resources arrayCost(MemRefType type, ArrayAttr partition) {
  int64_t width = type.getElementType().isIndex()
                      ? 32
                      : type.getElementType().getIntOrFloatBitWidth();
  int64_t bits = std::max<int64_t>(1, type.getNumElements()) * width;
  int64_t banks = 1;
  if (partition) {
    for (auto dim : partition.getAsRange<DictionaryAttr>()) {
      int64_t d = cast<IntegerAttr>(dim.get("dim")).getInt();
      int64_t factor = cast<IntegerAttr>(dim.get("factor")).getInt();
      banks *= factor > 0 ? factor : type.getDimSize(d);
    }
  }
  int64_t bankBits = (bits + banks - 1) / banks;
  if (bankBits <= kLutRamBits) {
    return {0, 0, banks * ((bankBits + 63) / 64), banks * 0};
  }
  return {0, banks * ((bankBits + kBram18kBits - 1) / kBram18kBits), 0, 0};
}

class LayerModel {
public:
  explicit LayerModel(double clockNs) : clockNs(clockNs) {}

  /// Cycles to run `block` once: its loops one after another, plus the
  /// longest chain of its straight-line ops.
  int64_t blockLatency(Block &block, int64_t copies) {
    int64_t loops = 0;
    llvm::DenseMap<Value, int64_t> ready;
    int64_t chain = 0;
    for (Operation &op : block) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        loops += loopLatency(loop, copies);
        continue;
      }
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        int64_t thenCycles = blockLatency(ifOp.getThenRegion().front(), copies);
        int64_t elseCycles =
            ifOp.getElseRegion().empty()
                ? 0
                : blockLatency(ifOp.getElseRegion().front(), copies);
        loops += std::max(thenCycles, elseCycles) + 1;
        continue;
      }
      if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
        auto type = cast<MemRefType>(op.getResult(0).getType());
        resources +=
            arrayCost(type, op.getAttrOfType<ArrayAttr>(kPartitionAttr));
        continue;
      }
      OpCost cost = opCost(&op, clockNs);
      resources +=
          Resources{cost.dsp * copies, 0, cost.lut * copies, cost.ff * copies};
      int64_t start = 0;
      for (Value operand : op.getOperands()) {
        start = std::max(start, ready.lookup(operand));
      }
      for (Value result : op.getResults()) {
        ready[result] = start + cost.latency;
      }
      chain = std::max(chain, start + cost.latency);
    }
    return loops + chain;
  }

  int64_t loopLatency(scf::ForOp loop, int64_t copies) {
    std::optional<APInt> count = loop.getStaticTripCount();
    int64_t trips = count ? count->getSExtValue() : 1;
    auto unroll = loop->getAttrOfType<IntegerAttr>(kUnrollAttr);
    int64_t factor = unroll ? unroll.getInt() : 1;
    resources += kLoopControl;
    if (auto ii = loop->getAttrOfType<IntegerAttr>(kPipelineAttr)) {
      int64_t depth = blockLatency(*loop.getBody(), copies * factor);
      int64_t iterations = std::max<int64_t>(1, trips / factor);
      return (iterations - 1) * ii.getInt() + depth + 2;
    }
    int64_t body = blockLatency(*loop.getBody(), copies);
    return trips * (body + 1) + 1;
  }

  double clockNs;
  Resources resources;
};

std::string withCommas(int64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') {
      out.push_back(',');
    }
    out.push_back(digits[i]);
  }
  return out;
}

} // namespace

Estimate estimate(ModuleOp module, double clockNs) {
  Estimate result;
  result.clockNs = clockNs;
  func::FuncOp top = findTop(module);
  if (!top) {
    return result;
  }
  result.dataflow = top->hasAttr(kDataflowAttr);
  if (auto why = top->getAttrOfType<StringAttr>(kDataflowBlockedAttr)) {
    result.dataflowBlocked = why.str();
  }
  for (Operation &op : top.getBody().front()) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto fn = module.lookupSymbol<func::FuncOp>(call.getCallee());
      LayerModel model(clockNs);
      LayerEstimate layer;
      layer.name = fn.getSymName().str();
      if (auto nodes = fn->getAttrOfType<ArrayAttr>(kLayerAttr)) {
        for (StringRef node : nodes.getAsValueRange<StringAttr>()) {
          layer.nodes.push_back(node.str());
        }
      }
      layer.latency = model.blockLatency(fn.getBody().front(), 1) + 2;
      layer.resources = model.resources;
      result.layers.push_back(std::move(layer));
    } else if (isa<memref::AllocOp>(op)) {
      result.buffers += arrayCost(cast<MemRefType>(op.getResult(0).getType()),
                                  op.getAttrOfType<ArrayAttr>(kPartitionAttr));
    }
  }
  for (auto global : module.getOps<memref::GlobalOp>()) {
    result.buffers += arrayCost(
        global.getType(), global->getAttrOfType<ArrayAttr>(kPartitionAttr));
  }
  result.total = result.buffers;
  for (const LayerEstimate &layer : result.layers) {
    result.total += layer.resources;
    result.latency += layer.latency;
    result.interval = std::max(result.interval, layer.latency);
  }
  if (!result.dataflow) {
    result.interval = result.latency;
  }
  return result;
}

llvm::json::Value toJson(const Estimate &e, StringRef model, StringRef part) {
  auto resources = [](const Resources &r) {
    return llvm::json::Object{
        {"dsp", r.dsp}, {"bram_18k", r.bram18k}, {"lut", r.lut}, {"ff", r.ff}};
  };
  llvm::json::Array layers;
  for (const LayerEstimate &layer : e.layers) {
    llvm::json::Array nodes;
    for (const std::string &node : layer.nodes) {
      nodes.push_back(node);
    }
    layers.push_back(
        llvm::json::Object{{"name", layer.name},
                           {"onnx_nodes", std::move(nodes)},
                           {"latency_cycles", layer.latency},
                           {"resources", resources(layer.resources)}});
  }
  return llvm::json::Object{
      {"model", model},
      {"part", part},
      {"clock_ns", e.clockNs},
      {"estimator", "infer first-order model (docs/design/hls.md); not "
                    "a synthesis report"},
      {"dataflow", e.dataflow},
      {"dataflow_blocked", e.dataflowBlocked},
      {"latency_cycles", e.latency},
      {"interval_cycles", e.interval},
      {"latency_ms", e.latency * e.clockNs * 1e-6},
      {"resources", resources(e.total)},
      {"buffers", resources(e.buffers)},
      {"layers", std::move(layers)}};
}

void printTable(const Estimate &e, raw_ostream &os) {
  os << llvm::format("%-36s %14s %7s %8s %10s %10s\n", "Layer (ONNX node)",
                     "Latency (cyc)", "DSP", "BRAM18K", "LUT", "FF");
  auto row = [&](StringRef label, int64_t latency, const Resources &r) {
    std::string text = label.str();
    if (text.size() > 36) {
      text = text.substr(0, 33) + "...";
    }
    os << llvm::format("%-36s %14s %7s %8s %10s %10s\n", text.c_str(),
                       latency < 0 ? "" : withCommas(latency).c_str(),
                       withCommas(r.dsp).c_str(), withCommas(r.bram18k).c_str(),
                       withCommas(r.lut).c_str(), withCommas(r.ff).c_str());
  };
  for (const LayerEstimate &layer : e.layers) {
    row(layer.nodes.empty() ? layer.name : layer.nodes.front(), layer.latency,
        layer.resources);
  }
  row("arrays and weights", -1, e.buffers);
  row("total", e.latency, e.total);
  os << llvm::format("clock %.2f ns (%.0f MHz): latency %.3f ms", e.clockNs,
                     1000.0 / e.clockNs, e.latency * e.clockNs * 1e-6);
  if (e.dataflow) {
    os << llvm::format(", DATAFLOW interval %s cycles",
                       withCommas(e.interval).c_str());
  } else if (!e.dataflowBlocked.empty()) {
    os << "; no DATAFLOW: " << e.dataflowBlocked;
  }
  os << "\n";
}

} // namespace infer::hls
