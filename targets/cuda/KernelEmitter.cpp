//===- KernelEmitter.cpp - PTX, cubins and the launch schedule ------------===//

#include "targets/cuda/CudaTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

using namespace mlir;

namespace infer::cuda {

std::string findPtxas(const CudaOptions &options) {
  if (!options.ptxas.empty()) {
    return llvm::sys::fs::can_execute(options.ptxas) ? options.ptxas : "";
  }
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (std::optional<std::string> home = llvm::sys::Process::GetEnv(var)) {
      llvm::SmallString<256> path(*home);
      llvm::sys::path::append(path, "bin", "ptxas");
      if (llvm::sys::fs::can_execute(path)) {
        return path.str().str();
      }
    }
  }
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas")) {
    return "/usr/local/cuda/bin/ptxas";
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas")) {
    return *onPath;
  }
  return "";
}

std::string findLibdevice(const CudaOptions &options) {
  if (!options.libdevice.empty()) {
    return llvm::sys::fs::exists(options.libdevice) ? options.libdevice : "";
  }
  SmallVector<std::string> homes;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (std::optional<std::string> home = llvm::sys::Process::GetEnv(var)) {
      homes.push_back(*home);
    }
  }
  homes.push_back("/usr/local/cuda");
  for (const std::string &home : homes) {
    llvm::SmallString<256> path(home);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path)) {
      return path.str().str();
    }
  }
  return "";
}

namespace {

/// Where a kernel argument comes from.
FailureOr<llvm::json::Value> argumentOf(Value value, func::FuncOp host,
                                        unsigned numInputs,
                                        unsigned numOutputs) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    unsigned index = arg.getArgNumber();
    if (index < numInputs) {
      return llvm::json::Value(llvm::json::Object{{"input", index}});
    }
    if (index < numInputs + numOutputs) {
      return llvm::json::Value(
          llvm::json::Object{{"output", index - numInputs}});
    }
    return llvm::json::Value(llvm::json::Object{{"workspace", 0}});
  }
  Operation *def = value.getDefiningOp();
  if (auto view = dyn_cast_or_null<memref::ViewOp>(def)) {
    std::optional<int64_t> offset = getConstantIntValue(view.getByteShift());
    auto base = dyn_cast<BlockArgument>(view.getSource());
    if (offset && base &&
        base.getArgNumber() == host.getNumArguments() - 1 &&
        base.getArgNumber() >= numInputs + numOutputs) {
      return llvm::json::Value(llvm::json::Object{{"workspace", *offset}});
    }
  }
  Attribute constant;
  if (def && matchPattern(value, m_Constant(&constant))) {
    if (auto integer = dyn_cast<IntegerAttr>(constant)) {
      return llvm::json::Value(
          llvm::json::Object{{"int64", integer.getValue().getSExtValue()}});
    }
    if (auto real = dyn_cast<FloatAttr>(constant)) {
      std::string type = real.getType().isF64() ? "f64" : "f32";
      double v = real.getValueAsDouble();
      if (!std::isfinite(v)) {
        // JSON has no NaN or infinity: spell them as strings.
        return llvm::json::Value(llvm::json::Object{
            {type, std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"}});
      }
      return llvm::json::Value(llvm::json::Object{{type, v}});
    }
  }
  return failure();
}

LogicalResult writeText(Location loc, StringRef path, StringRef text) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  }
  out.os() << text;
  out.keep();
  return success();
}

} // namespace

LogicalResult emitKernels(ModuleOp module, const cpu::ModelSignature &signature,
                          const CudaOptions &options, StringRef dir) {
  auto host = module.lookupSymbol<func::FuncOp>(signature.name + "_main");
  if (!host) {
    return module.emitError("no host function @") << signature.name << "_main";
  }
  unsigned numInputs = signature.inputs.size();
  unsigned numOutputs = signature.outputs.size();

  // The host side must be launches only: anything else would run on the
  // CPU against device memory.
  llvm::json::Array launches;
  for (Operation &op : host.getBody().front()) {
    if (isa<arith::ConstantOp, memref::ViewOp, memref::GetGlobalOp,
            func::ReturnOp>(op)) {
      continue;
    }
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch) {
      return op.emitError("'")
             << op.getName()
             << "' is left on the host, which the CUDA target cannot run yet";
    }
    llvm::json::Array args;
    for (Value operand : launch.getKernelOperands()) {
      FailureOr<llvm::json::Value> arg =
          argumentOf(operand, host, numInputs, numOutputs);
      if (failed(arg)) {
        return launch.emitError("a kernel argument that is neither a "
                                "model tensor, a workspace slice nor a "
                                "constant");
      }
      args.push_back(std::move(*arg));
    }
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    llvm::json::Array gridSize, blockSize;
    for (Value v : {grid.x, grid.y, grid.z}) {
      gridSize.push_back(getConstantIntValue(v).value_or(-1));
    }
    for (Value v : {block.x, block.y, block.z}) {
      blockSize.push_back(getConstantIntValue(v).value_or(-1));
    }
    launches.push_back(llvm::json::Object{
        {"kernel", launch.getKernelName().getValue()},
        {"grid", std::move(gridSize)},
        {"block", std::move(blockSize)},
        {"args", std::move(args)}});
  }

  // PTX per chip, and a cubin per chip when ptxas is there.
  std::string ptxas = findPtxas(options);
  llvm::json::Object images;
  unsigned binaries = 0;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    ++binaries;
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
        return binary.emitError("expected NVVM assembly (PTX) objects");
      }
      std::string chip = target.getChip().str();
      std::string base = signature.name + "." + chip;
      llvm::SmallString<256> ptxPath(dir);
      llvm::sys::path::append(ptxPath, base + ".ptx");
      if (failed(writeText(module.getLoc(), ptxPath,
                           object.getObject().getValue())))
        return failure();
      llvm::json::Object image{{"ptx", base + ".ptx"}};
      if (!ptxas.empty()) {
        llvm::SmallString<256> cubinPath(dir);
        llvm::sys::path::append(cubinPath, base + ".cubin");
        std::string arch = "-arch=" + chip;
        std::string error;
        llvm::SmallVector<StringRef> argv = {ptxas, arch, ptxPath, "-o",
                                             cubinPath};
        int rc = llvm::sys::ExecuteAndWait(ptxas, argv, std::nullopt, {}, 0,
                                           0, &error);
        if (rc != 0) {
          return module.emitError("ptxas rejected the PTX for ")
                 << chip << " (" << ptxPath << "): exit status " << rc
                 << (error.empty() ? "" : ", " + error);
        }
        image["cubin"] = base + ".cubin";
      }
      images[chip] = std::move(image);
    }
  }
  if (binaries > 1) {
    return module.emitError("expected one GPU binary, found ") << binaries;
  }

  llvm::json::Object schedule{
      {"model", signature.name},
      {"workspace_bytes",
       static_cast<int64_t>(module->getAttrOfType<IntegerAttr>(
                                    "infer.workspace_size")
                                ? module->getAttrOfType<IntegerAttr>(
                                          "infer.workspace_size")
                                      .getInt()
                                : 0)},
      {"images", std::move(images)},
      {"launches", std::move(launches)}};
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, signature.name + ".schedule.json");
  return writeText(module.getLoc(), path,
                   llvm::formatv("{0:2}", llvm::json::Value(std::move(schedule)))
                       .str());
}

} // namespace infer::cuda
