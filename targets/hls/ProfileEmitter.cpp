//===- ProfileEmitter.cpp - per-layer timing in HLS C simulation ----------===//

#include "targets/hls/ProfileEmitter.h"
#include "targets/hls/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

namespace infer::hls {

std::vector<ProfiledLayer> profiledLayers(ModuleOp module,
                                          const Estimate &estimate) {
  std::vector<ProfiledLayer> layers;
  func::FuncOp top = findTop(module);
  if (!top) {
    return layers;
  }
  for (auto call : top.getBody().front().getOps<func::CallOp>()) {
    ProfiledLayer layer;
    layer.function = call.getCallee().str();
    if (auto fn = module.lookupSymbol<func::FuncOp>(call.getCallee())) {
      if (auto nodes = fn->getAttrOfType<ArrayAttr>(kLayerAttr)) {
        llvm::raw_string_ostream os(layer.nodes);
        llvm::interleaveComma(nodes.getAsValueRange<StringAttr>(), os);
      }
    }
    for (const LayerEstimate &e : estimate.layers) {
      if (e.name == layer.function) {
        layer.estimatedCycles = e.latency;
      }
    }
    layers.push_back(std::move(layer));
  }
  return layers;
}

/// `text` escaped for a JSON string (without the quotes), then as the
/// body of a C string literal: what the testbench prints into the JSON.
static std::string cString(llvm::StringRef raw) {
  std::string json;
  llvm::raw_string_ostream js(json);
  js << llvm::json::Value(llvm::json::fixUTF8(raw));
  llvm::StringRef text = llvm::StringRef(json).drop_front().drop_back();
  std::string out;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += llvm::formatv("\\{0:o3}", static_cast<unsigned>(byte)).str();
    } else {
      out += c;
    }
  }
  return out;
}

void writeProfileDeclarations(llvm::raw_ostream &os, llvm::StringRef name,
                              llvm::ArrayRef<ProfiledLayer> layers) {
  std::string upper = name.upper();
  os << "// --profile: each layer call's time in C simulation (" << name
     << "_tb writes\n// " << name << "_profile.json). Not under synthesis.\n"
     << "#ifndef __SYNTHESIS__\n"
     << "#define " << upper << "_NUM_LAYERS " << layers.size() << "\n"
     << "extern long long " << name << "_layer_ns[" << upper
     << "_NUM_LAYERS];\n"
     << "extern long long " << name << "_layer_calls[" << upper
     << "_NUM_LAYERS];\n"
     << "static const char *const " << name << "_layer_functions[] = {";
  for (const ProfiledLayer &layer : layers) {
    os << "\n    \"" << cString(layer.function) << "\",";
  }
  os << "};\nstatic const char *const " << name << "_layer_nodes[] = {";
  for (const ProfiledLayer &layer : layers) {
    os << "\n    \"" << cString(layer.nodes) << "\",";
  }
  os << "};\n// Estimated cycles of each layer (report.json).\n"
     << "static const long long " << name << "_layer_cycles[] = {";
  for (const ProfiledLayer &layer : layers) {
    os << "\n    " << layer.estimatedCycles << ",";
  }
  os << "};\n#endif\n\n";
}

void writeProfileMacros(llvm::raw_ostream &os, llvm::StringRef name,
                        size_t numLayers) {
  os << "// --profile: INFER_LAYER_BEGIN/END time each layer call in C\n"
     << "// simulation; under synthesis they are empty.\n"
     << "#ifndef __SYNTHESIS__\n#include <chrono>\n"
     << "long long " << name << "_layer_ns[" << numLayers << "];\n"
     << "long long " << name << "_layer_calls[" << numLayers << "];\n"
     << "#define INFER_LAYER_BEGIN(k) \\\n"
     << "  const auto infer_layer_begin_##k = "
        "std::chrono::steady_clock::now()\n"
     << "#define INFER_LAYER_END(k) \\\n"
     << "  (" << name << "_layer_ns[k] += "
     << "std::chrono::duration_cast<std::chrono::nanoseconds>( \\\n"
     << "       std::chrono::steady_clock::now() - infer_layer_begin_##k) \\\n"
     << "       .count(), \\\n"
     << "   ++" << name << "_layer_calls[k])\n"
     << "#else\n#define INFER_LAYER_BEGIN(k)\n#define INFER_LAYER_END(k)\n"
     << "#endif\n\n";
}

void writeProfileRuns(llvm::raw_ostream &os, llvm::StringRef name,
                      llvm::StringRef call, double clockNs) {
  std::string upper = name.upper();
  os << "  // --profile: the checked run above, then INFER_PROFILE_RUNS more\n"
     << "  // (default 20), each layer's time written to\n"
     << "  // $INFER_PROFILE_JSON (default " << name << "_profile.json).\n"
     << "  const char *runs_env = std::getenv(\"INFER_PROFILE_RUNS\");\n"
     << "  const long runs = runs_env ? std::atol(runs_env) : 20;\n"
     << "  if (runs < 1) {\n"
     << "    std::fprintf(stderr, \"error: INFER_PROFILE_RUNS must be "
        "positive\\n\");\n"
     << "    return 2;\n  }\n"
     << "  for (int k = 0; k < " << upper << "_NUM_LAYERS; ++k) {\n"
     << "    " << name << "_layer_ns[k] = 0;\n"
     << "    " << name << "_layer_calls[k] = 0;\n  }\n"
     << "  for (long r = 0; r < runs; ++r) {\n    " << call << "\n  }\n"
     << "  const char *json_env = std::getenv(\"INFER_PROFILE_JSON\");\n"
     << "  const std::string json_path = json_env ? json_env : \"" << name
     << "_profile.json\";\n"
     << "  FILE *json = std::fopen(json_path.c_str(), \"w\");\n"
     << "  if (!json) {\n"
     << "    std::fprintf(stderr, \"error: cannot write %s\\n\", "
        "json_path.c_str());\n"
     << "    return 2;\n  }\n"
     << "  double total_ms = 0;\n"
     << "  for (int k = 0; k < " << upper << "_NUM_LAYERS; ++k) {\n"
     << "    total_ms += " << name << "_layer_ns[k] / 1e6 / runs;\n  }\n"
     << "  std::printf(\"\\nC simulation, per layer (mean of %ld runs; the "
        "estimate is the FPGA's):\\n\", runs);\n"
     << "  std::printf(\"  %-28s %10s %6s %14s %12s\\n\", \"layer\", \"ms\", "
        "\"%\", \"est. cycles\", \"est. ms\");\n"
     << "  std::fprintf(json, \"{\\n  \\\"model\\\": \\\"" << name
     << "\\\",\\n  \\\"runs\\\": %ld,\\n  \\\"clock_ns\\\": "
     << llvm::formatv("{0}", clockNs)
     << ",\\n  \\\"total_ms\\\": %.6f,\\n  \\\"layers\\\": [\", runs, "
        "total_ms);\n"
     << "  for (int k = 0; k < " << upper << "_NUM_LAYERS; ++k) {\n"
     << "    const double ms = " << name << "_layer_ns[k] / 1e6 / runs;\n"
     << "    const double est_ms = " << name << "_layer_cycles[k] * "
     << llvm::formatv("{0}", clockNs) << " / 1e6;\n"
     << "    std::printf(\"  %-28s %10.4f %6.1f %14lld %12.4f\\n\", " << name
     << "_layer_functions[k], ms, total_ms > 0 ? 100 * ms / total_ms : 0.0, "
     << name << "_layer_cycles[k], est_ms);\n"
     << "    std::fprintf(json, \"%s\\n    {\\\"index\\\": %d, "
        "\\\"function\\\": \\\"%s\\\", \\\"nodes\\\": \\\"%s\\\", "
        "\\\"calls\\\": %lld, \\\"ms\\\": %.6f, \\\"estimated_cycles\\\": "
        "%lld, \\\"estimated_ms\\\": %.6f}\", k ? \",\" : \"\", k, "
     << name << "_layer_functions[k], " << name << "_layer_nodes[k], " << name
     << "_layer_calls[k], ms, " << name << "_layer_cycles[k], est_ms);\n"
     << "  }\n"
     << "  std::fprintf(json, \"\\n  ]\\n}\\n\");\n"
     << "  std::fclose(json);\n"
     << "  std::printf(\"  %-28s %10.4f\\nwrote %s\\n\", \"total\", total_ms, "
        "json_path.c_str());\n";
}

} // namespace infer::hls
