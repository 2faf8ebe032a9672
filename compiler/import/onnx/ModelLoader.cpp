//===- ModelLoader.cpp - reading and validating ONNX protobufs ------------===//

#include "compiler/import/onnx/ModelLoader.h"
#include "compiler/import/onnx/IsolatedInference.h"
#include "compiler/import/onnx/NodeChecks.h"
#include "compiler/import/onnx/TypeImport.h"

#include "onnx/checker.h"
#include "onnx/defs/parser.h"
#include "onnx/defs/schema.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>
#include <fstream>
#include <sstream>

namespace infer::onnx_import {

int maxKnownOpset() {
  const auto &map =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto it = map.find("");
  return it == map.end() ? 0 : it->second.second;
}

int maxKnownIrVersion() { return onnx::IR_VERSION; }

namespace {

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool readFile(const std::string &path, std::string &bytes, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return false;
  }
  bytes = buffer.str();
  return true;
}

bool parseBinary(const std::string &bytes, onnx::ModelProto &model) {
  google::protobuf::io::ArrayInputStream raw(bytes.data(),
                                             static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream coded(&raw);
  coded.SetTotalBytesLimit(INT_MAX);
  return model.ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
}

/// A model newer than anything the importer was written against: its ops
/// may mean something the importer does not know, so it is refused.
bool newerThanImporter(const onnx::ModelProto &model, const std::string &path,
                       std::string &error) {
  if (model.ir_version() > kNewestIrVersion) {
    error = "'" + path + "' declares IR version " +
            std::to_string(model.ir_version()) +
            ", newer than any this importer knows (up to " +
            std::to_string(kNewestIrVersion) + ")";
    return true;
  }
  for (const auto &opset : model.opset_import()) {
    if (opset.version() < 1) {
      error = "'" + path + "' imports opset " +
              std::to_string(opset.version()) + " of domain '" +
              printableName(opset.domain()) + "'; opset versions start at 1";
      return true;
    }
    if ((opset.domain().empty() || opset.domain() == "ai.onnx") &&
        opset.version() > kNewestOpset) {
      error = "'" + path + "' imports opset " +
              std::to_string(opset.version()) +
              " of the default domain, newer than any this importer knows "
              "(up to " +
              std::to_string(kNewestOpset) + ")";
      return true;
    }
  }
  return false;
}

/// A model newer than the library: checking it would reject what may well
/// import correctly, so the check is skipped and the user told why.
bool newerThanLibrary(const onnx::ModelProto &model, LoadedModel &out) {
  bool newer = false;
  if (model.ir_version() > maxKnownIrVersion()) {
    out.warnings.push_back("the model's IR version " +
                           std::to_string(model.ir_version()) +
                           " is newer than this build's ONNX library (" +
                           std::to_string(maxKnownIrVersion()) + ")");
    newer = true;
  }
  for (const auto &opset : model.opset_import()) {
    if ((opset.domain().empty() || opset.domain() == "ai.onnx") &&
        opset.version() > maxKnownOpset()) {
      out.warnings.push_back(
          "the model uses opset " + std::to_string(opset.version()) +
          "; this build's ONNX library knows opsets up to " +
          std::to_string(maxKnownOpset()) +
          ": ops are imported with the newest semantics known, the ONNX "
          "checker is skipped");
      newer = true;
    }
  }
  return newer;
}

/// Whether libonnx has the schemas of every domain and version the model
/// imports (its inference then speaks for the model's own semantics).
bool libraryKnowsEveryOpset(const onnx::ModelProto &model) {
  if (model.ir_version() > maxKnownIrVersion()) {
    return false;
  }
  const auto &map =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  for (const auto &opset : model.opset_import()) {
    std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    auto it = map.find(domain);
    if (it == map.end() || opset.version() > it->second.second) {
      return false;
    }
  }
  return true;
}

} // namespace

bool loadModel(const std::string &path, bool runChecker, LoadedModel &out,
               std::string &error) {
  auto slash = path.find_last_of('/');
  out.directory = slash == std::string::npos ? "." : path.substr(0, slash);
  std::string bytes;
  if (!readFile(path, bytes, error)) {
    return false;
  }
  if (bytes.empty()) {
    error = "'" + path + "' is empty, not an ONNX model";
    return false;
  }
  bool isText = endsWith(path, ".onnxtxt") || endsWith(path, ".txt");
  try {
    if (isText) {
      auto status = onnx::OnnxParser::Parse(out.model, bytes.c_str());
      if (!status.IsOK()) {
        error =
            "'" + path + "' is not valid ONNX text: " + status.ErrorMessage();
        return false;
      }
    } else if (!parseBinary(bytes, out.model)) {
      error = "'" + path +
              "' is not a valid ONNX model (the protobuf is truncated or "
              "corrupt)";
      return false;
    }
    if (!out.model.has_graph()) {
      error = "'" + path + "' holds no graph (is it an ONNX model?)";
      return false;
    }
    if (out.model.ir_version() <= 0) {
      error = "'" + path + "' has no IR version (is it an ONNX model?)";
      return false;
    }
    if (out.model.graph().output_size() == 0) {
      error = "'" + path + "' has a graph with no outputs: nothing to compute";
      return false;
    }
    if (newerThanImporter(out.model, path, error)) {
      return false;
    }
    // Before libonnx's checker and shape inference index with them.
    if (!checkNodeAttributes(out.model.graph(), error)) {
      return false;
    }
    bool newer = newerThanLibrary(out.model, out);
    if (runChecker && !newer) {
      if (isText) {
        onnx::checker::check_model(out.model);
      } else {
        onnx::checker::check_model(path);
      }
    }
  } catch (const onnx::checker::ValidationError &e) {
    std::string what = e.what();
    auto newline = what.find('\n');
    error =
        "'" + path + "' failed the ONNX checker: " + what.substr(0, newline);
    return false;
  } catch (const std::exception &e) {
    error = "'" + path + "' cannot be read: " + e.what();
    return false;
  }
  // Types then come from the model's own annotations and the graph
  // dialect's shape inference when libonnx's fails.
  ShapeInferenceGuard guard(out.model);
  std::string problem, strictError;
  if (!inferShapesIsolated(out.model, problem, strictError)) {
    out.warnings.push_back("ONNX shape inference failed: " + problem);
  } else if (!strictError.empty()) {
    // An op's inference function refused its inputs (a rank, an attribute
    // it cannot have): where the library knows every opset the model
    // uses, the model is invalid, as ONNX Runtime also says at load time.
    // A type that contradicts the model's declaration stays a warning: the
    // graph dialect's inference decides, and exporters get these wrong.
    const std::string prefix =
        "[ShapeInferenceError] Shape inference error(s): ";
    if (strictError.compare(0, prefix.size(), prefix) == 0) {
      strictError.erase(0, prefix.size());
    }
    bool contradiction = strictError.find("existing") != std::string::npos;
    if (runChecker && !contradiction && libraryKnowsEveryOpset(out.model)) {
      out.inferenceError =
          "the model failed ONNX shape inference: " + strictError +
          " (--no-checker: go on regardless)";
    } else {
      out.warnings.push_back("ONNX shape inference: " + strictError);
    }
  }
  return true;
}

} // namespace infer::onnx_import
