//===- KernelEmitter.cpp - PTX, cubins and the launch schedule ------------===//

#include "targets/common/ArtifactWriter.h"
#include "targets/common/OutputFile.h"
#include "targets/cuda/CudaTarget.h"

#include "infer/abi.h"

#include <fmt/core.h>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cmath>

using namespace mlir;

namespace infer::cuda {

/// `relative` under the first CUDA toolkit that has it: $CUDA_HOME,
/// $CUDA_PATH, then /usr/local/cuda; "" when none does.
static std::string inToolkit(StringRef relative) {
  SmallVector<std::string> homes;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (std::optional<std::string> home = llvm::sys::Process::GetEnv(var)) {
      homes.push_back(*home);
    }
  }
  homes.push_back("/usr/local/cuda");
  for (const std::string &home : homes) {
    llvm::SmallString<256> path(home);
    llvm::sys::path::append(path, relative);
    if (llvm::sys::fs::exists(path)) {
      return path.str().str();
    }
  }
  return "";
}

std::string findPtxas(const CudaOptions &options) {
  if (!options.ptxas.empty()) {
    return llvm::sys::fs::can_execute(options.ptxas) ? options.ptxas : "";
  }
  std::string ptxas = inToolkit("bin/ptxas");
  if (!ptxas.empty() && llvm::sys::fs::can_execute(ptxas)) {
    return ptxas;
  }
  if (llvm::ErrorOr<std::string> onPath =
          llvm::sys::findProgramByName("ptxas")) {
    return *onPath;
  }
  return "";
}

std::string findLibdevice(const CudaOptions &options) {
  if (!options.libdevice.empty()) {
    return llvm::sys::fs::exists(options.libdevice) ? options.libdevice : "";
  }
  return inToolkit("nvvm/libdevice/libdevice.10.bc");
}

namespace {

/// One kernel parameter as the ABI describes it (infer_abi_cuda_arg).
struct Arg {
  int32_t kind; // infer_abi_cuda_arg_kind_t
  int32_t index = 0;
  int64_t value = 0;
};
enum {
  kInput = INFER_CUDA_ARG_INPUT,
  kOutput = INFER_CUDA_ARG_OUTPUT,
  kWorkspace = INFER_CUDA_ARG_WORKSPACE,
  kI64 = INFER_CUDA_ARG_I64,
  kF32 = INFER_CUDA_ARG_F32,
  kF64 = INFER_CUDA_ARG_F64,
  kWeight = INFER_CUDA_ARG_WEIGHT,
  kStatus = INFER_CUDA_ARG_STATUS
};

struct Launch {
  std::string kernel;
  std::array<int64_t, 3> grid, block;
  std::vector<Arg> args;
};

struct Image {
  std::string chip, ptx, cubin;
};

/// The bytes of a constant tensor, as the device reads them (bools one
/// byte each).
FailureOr<std::string> rawBytes(memref::GlobalOp global) {
  auto init = dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
  MemRefType type = global.getType();
  Type element = type.getElementType();
  if (!init || !element.isIntOrFloat()) {
    return failure();
  }
  int64_t count = type.getNumElements();
  unsigned width = element.isInteger(1) ? 8 : element.getIntOrFloatBitWidth();
  if (width % 8 != 0) {
    return failure();
  }
  std::string bytes;
  if (auto dense = dyn_cast<DenseElementsAttr>(init)) {
    if (element.isInteger(1)) {
      for (bool b : dense.getValues<bool>()) {
        bytes.push_back(b ? 1 : 0);
      }
      return bytes;
    }
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      for (int64_t i = 0; i < count; ++i) {
        bytes.append(raw.data(), width / 8);
      }
      return bytes;
    }
    return std::string(raw.data(), raw.size());
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(init)) {
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob()) {
      ArrayRef<char> data = blob->getData();
      if (static_cast<int64_t>(data.size()) == count * (width / 8)) {
        return std::string(data.data(), data.size());
      }
    }
  }
  return failure();
}

/// The model's constant tensors, in the order kernels refer to them.
struct Weights {
  llvm::StringMap<unsigned> index;
  std::vector<std::string> data;

  FailureOr<unsigned> lookup(ModuleOp module, StringRef name) {
    auto it = index.find(name);
    if (it != index.end()) {
      return it->second;
    }
    auto global = module.lookupSymbol<memref::GlobalOp>(name);
    if (!global) {
      return failure();
    }
    FailureOr<std::string> bytes = rawBytes(global);
    if (failed(bytes)) {
      return failure();
    }
    index[name] = data.size();
    data.push_back(std::move(*bytes));
    return data.size() - 1;
  }
};

/// Where a kernel argument comes from.
FailureOr<Arg> argumentOf(Value value, func::FuncOp host, unsigned numInputs,
                          unsigned numOutputs, Weights &weights) {
  // Reshaped weights keep their base address.
  while (Operation *view = value.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::ReshapeOp,
             memref::CastOp>(view)) {
      break;
    }
    value = view->getOperand(0);
  }
  if (auto global = value.getDefiningOp<memref::GetGlobalOp>()) {
    FailureOr<unsigned> index =
        weights.lookup(host->getParentOfType<ModuleOp>(), global.getName());
    if (failed(index)) {
      return failure();
    }
    return Arg{kWeight, static_cast<int32_t>(*index), 0};
  }
  // The host function takes the inputs, the outputs, the workspace and,
  // when the model has run-time checks, the status.
  unsigned workspace = numInputs + numOutputs;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    unsigned index = arg.getArgNumber();
    if (index < numInputs) {
      return Arg{kInput, static_cast<int32_t>(index), 0};
    }
    if (index < workspace) {
      return Arg{kOutput, static_cast<int32_t>(index - numInputs), 0};
    }
    return Arg{index == workspace ? kWorkspace : kStatus, 0, 0};
  }
  Operation *def = value.getDefiningOp();
  if (auto view = dyn_cast_or_null<memref::ViewOp>(def)) {
    std::optional<int64_t> offset = getConstantIntValue(view.getByteShift());
    auto base = dyn_cast<BlockArgument>(view.getSource());
    if (offset && base && base.getArgNumber() == workspace) {
      return Arg{kWorkspace, 0, *offset};
    }
  }
  Attribute constant;
  if (def && matchPattern(value, m_Constant(&constant))) {
    if (auto integer = dyn_cast<IntegerAttr>(constant)) {
      // A boolean is 1, not -1: its parameter byte must hold 0 or 1.
      const APInt &bits = integer.getValue();
      return Arg{kI64, 0,
                 bits.getBitWidth() == 1
                     ? static_cast<int64_t>(bits.getZExtValue())
                     : bits.getSExtValue()};
    }
    if (auto real = dyn_cast<FloatAttr>(constant)) {
      if (real.getType().isF64()) {
        return Arg{kF64, 0,
                   static_cast<int64_t>(
                       real.getValue().bitcastToAPInt().getZExtValue())};
      }
      if (real.getType().isF32()) {
        return Arg{kF32, 0,
                   static_cast<int64_t>(
                       real.getValue().bitcastToAPInt().getZExtValue())};
      }
    }
  }
  return failure();
}

llvm::json::Value toJson(const Arg &arg) {
  static const char *kNames[] = {"input",    "output",   "workspace", "int64",
                                 "f32_bits", "f64_bits", "weight",    "status"};
  bool indexed =
      arg.kind == kInput || arg.kind == kOutput || arg.kind == kWeight;
  return llvm::json::Object{
      {kNames[arg.kind], indexed ? arg.index : arg.value}};
}

/// The infer_abi_cuda descriptor of `images` and `launches` in `module`.
llvm::Constant *addDescriptor(llvm::Module &module, StringRef name,
                              const std::vector<Image> &images,
                              const std::vector<Launch> &launches,
                              const std::vector<std::string> &weights) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  auto global = [&](llvm::Constant *init, StringRef suffix) {
    return new llvm::GlobalVariable(module, init->getType(), true,
                                    llvm::GlobalValue::PrivateLinkage, init,
                                    name + suffix);
  };
  auto string = [&](StringRef text) {
    return global(llvm::ConstantDataArray::getString(ctx, text), ".str");
  };
  auto array = [&](llvm::Type *element, ArrayRef<llvm::Constant *> items,
                   StringRef suffix) -> llvm::Constant * {
    if (items.empty()) {
      return llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx));
    }
    auto *type = llvm::ArrayType::get(element, items.size());
    return global(llvm::ConstantArray::get(type, items), suffix);
  };
  auto *imageType = llvm::StructType::get(ctx, {ptr, ptr, ptr, i64});
  std::vector<llvm::Constant *> imageItems;
  for (const Image &image : images) {
    llvm::Constant *cubin =
        llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(ctx));
    if (!image.cubin.empty()) {
      cubin = global(
          llvm::ConstantDataArray::get(
              ctx, llvm::ArrayRef<uint8_t>(
                       reinterpret_cast<const uint8_t *>(image.cubin.data()),
                       image.cubin.size())),
          ".cubin");
    }
    imageItems.push_back(llvm::ConstantStruct::get(
        imageType, {string(image.chip), string(image.ptx), cubin,
                    llvm::ConstantInt::get(i64, image.cubin.size())}));
  }
  auto *argType = llvm::StructType::get(ctx, {i32, i32, i64});
  auto *dim3 = llvm::ArrayType::get(i32, 3);
  auto *launchType =
      llvm::StructType::get(ctx, {ptr, dim3, dim3, i32, i32, ptr});
  std::vector<llvm::Constant *> launchItems;
  for (const Launch &launch : launches) {
    std::vector<llvm::Constant *> args;
    for (const Arg &arg : launch.args) {
      args.push_back(llvm::ConstantStruct::get(
          argType, {llvm::ConstantInt::get(i32, arg.kind),
                    llvm::ConstantInt::get(i32, arg.index),
                    llvm::ConstantInt::get(i64, arg.value)}));
    }
    auto dims = [&](const std::array<int64_t, 3> &d) {
      return llvm::ConstantArray::get(dim3,
                                      {llvm::ConstantInt::get(i32, d[0]),
                                       llvm::ConstantInt::get(i32, d[1]),
                                       llvm::ConstantInt::get(i32, d[2])});
    };
    launchItems.push_back(llvm::ConstantStruct::get(
        launchType,
        {string(launch.kernel), dims(launch.grid), dims(launch.block),
         llvm::ConstantInt::get(i32, launch.args.size()),
         llvm::ConstantInt::get(i32, 0), array(argType, args, ".args")}));
  }
  auto *weightType = llvm::StructType::get(ctx, {ptr, i64});
  std::vector<llvm::Constant *> weightItems;
  for (const std::string &bytes : weights) {
    // 64-byte aligned, as the device copy will be.
    auto *data =
        global(llvm::ConstantDataArray::get(
                   ctx, llvm::ArrayRef<uint8_t>(
                            reinterpret_cast<const uint8_t *>(bytes.data()),
                            bytes.size())),
               ".weight");
    data->setAlignment(llvm::Align(64));
    weightItems.push_back(llvm::ConstantStruct::get(
        weightType, {data, llvm::ConstantInt::get(i64, bytes.size())}));
  }
  auto *cudaType =
      llvm::StructType::get(ctx, {i32, i32, ptr, ptr, i32, i32, ptr});
  return global(llvm::ConstantStruct::get(
                    cudaType, {llvm::ConstantInt::get(i32, images.size()),
                               llvm::ConstantInt::get(i32, launches.size()),
                               array(imageType, imageItems, ".images"),
                               array(launchType, launchItems, ".launches"),
                               llvm::ConstantInt::get(i32, weights.size()),
                               llvm::ConstantInt::get(i32, 0),
                               array(weightType, weightItems, ".weights")}),
                ".cuda");
}

LogicalResult writeText(Location loc, StringRef path, StringRef text) {
  // A new file replaces `path`: a symlink or hard link there is replaced,
  // never written through.
  if (llvm::Error error = writeOutputFile(path, text)) {
    return emitError(loc) << "cannot write '" << path
                          << "': " << llvm::toString(std::move(error));
  }
  return success();
}

} // namespace

LogicalResult emitKernels(ModuleOp module,
                          const targets::ModelSignature &signature,
                          const CudaOptions &options, StringRef dir,
                          StringRef sourceName) {
  auto host = module.lookupSymbol<func::FuncOp>(signature.name + "_main");
  if (!host) {
    return module.emitError("no host function @") << signature.name << "_main";
  }
  unsigned numInputs = signature.inputs.size();
  unsigned numOutputs = signature.outputs.size();

  // The host side must be launches only: anything else would run on the
  // CPU against device memory.
  std::vector<Launch> launches;
  Weights weights;
  for (Operation &op : host.getBody().front()) {
    if (isa<arith::ConstantOp, memref::ViewOp, memref::GetGlobalOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp, memref::ReshapeOp,
            memref::CastOp, func::ReturnOp>(op)) {
      continue;
    }
    auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
    if (!launch) {
      return op.emitError("'")
             << op.getName()
             << "' is left on the host, which the CUDA target cannot run yet";
    }
    Launch entry;
    entry.kernel = launch.getKernelName().getValue().str();
    for (Value operand : launch.getKernelOperands()) {
      FailureOr<Arg> arg =
          argumentOf(operand, host, numInputs, numOutputs, weights);
      if (failed(arg)) {
        return launch.emitError("a kernel argument that is neither a "
                                "model tensor, a workspace slice, a weight "
                                "nor a constant");
      }
      entry.args.push_back(*arg);
    }
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    entry.grid = {getConstantIntValue(grid.x).value_or(-1),
                  getConstantIntValue(grid.y).value_or(-1),
                  getConstantIntValue(grid.z).value_or(-1)};
    entry.block = {getConstantIntValue(block.x).value_or(-1),
                   getConstantIntValue(block.y).value_or(-1),
                   getConstantIntValue(block.z).value_or(-1)};
    if (llvm::is_contained(entry.grid, -1) ||
        llvm::is_contained(entry.block, -1)) {
      return launch.emitError("a launch whose grid or block size is known "
                              "only at run time");
    }
    launches.push_back(std::move(entry));
  }

  // PTX per chip, and a cubin per chip when ptxas is there.
  std::string ptxas = findPtxas(options);
  std::vector<Image> images;
  unsigned binaries = 0;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    ++binaries;
    for (auto object : binary.getObjects().getAsRange<gpu::ObjectAttr>()) {
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
        return binary.emitError("expected NVVM assembly (PTX) objects");
      }
      Image image{target.getChip().str(), object.getObject().getValue().str(),
                  ""};
      std::string base = signature.name + "." + image.chip;
      llvm::SmallString<256> ptxPath(dir);
      llvm::sys::path::append(ptxPath, base + ".ptx");
      if (failed(writeText(module.getLoc(), ptxPath, image.ptx))) {
        return failure();
      }
      if (!ptxas.empty()) {
        llvm::SmallString<256> cubinPath(dir);
        llvm::sys::path::append(cubinPath, base + ".cubin");
        std::string arch = "-arch=" + image.chip;
        std::string error;
        clearOutputPath(cubinPath); // never write through a link
        llvm::SmallVector<StringRef> argv = {ptxas, arch, ptxPath, "-o",
                                             cubinPath};
        int rc = llvm::sys::ExecuteAndWait(ptxas, argv, std::nullopt, {}, 0, 0,
                                           &error);
        if (rc != 0) {
          return module.emitError("ptxas rejected the PTX for ")
                 << image.chip << " (" << ptxPath << "): exit status " << rc
                 << (error.empty() ? "" : ", " + error);
        }
        auto cubin = llvm::MemoryBuffer::getFile(cubinPath);
        if (!cubin) {
          return module.emitError("cannot read ") << cubinPath;
        }
        image.cubin = (*cubin)->getBuffer().str();
      }
      // The PTX is embedded either way; the file stays with --emit=ptx (and
      // when ptxas rejected it, for inspection).
      if (!options.emitPtx) {
        llvm::sys::fs::remove(ptxPath);
      }
      images.push_back(std::move(image));
    }
  }
  if (binaries > 1) {
    return module.emitError("expected one GPU binary, found ") << binaries;
  }
  if (launches.empty() || images.empty()) {
    return module.emitError("the model has no GPU work (its outputs are "
                            "empty or constant), which the CUDA target "
                            "does not package yet");
  }

  auto workspace = module->getAttrOfType<IntegerAttr>("infer.workspace_size");
  targets::ModelSignature sig = signature;
  sig.workspaceSize = workspace ? workspace.getInt() : 0;
  // The run-time checks' messages: a status k > 0 means errors[k-1].
  targets::readCheckMessages(module, sig);
  // --profile: one segment per launch (infer-cuda-profile-launches).
  targets::readKernelProfile(module, sig);
  if (sig.profiled && sig.segments.size() != launches.size()) {
    return module.emitError("--profile: ")
           << sig.segments.size() << " profile segments for " << launches.size()
           << " launches";
  }

  llvm::json::Object imageTable;
  for (const Image &image : images) {
    std::string base = sig.name + "." + image.chip;
    llvm::json::Object entry;
    if (options.emitPtx) {
      entry["ptx"] = base + ".ptx";
    }
    if (!image.cubin.empty()) {
      entry["cubin"] = base + ".cubin";
    }
    imageTable[image.chip] = std::move(entry);
  }
  llvm::json::Array launchTable;
  for (const Launch &launch : launches) {
    llvm::json::Array args;
    for (const Arg &arg : launch.args) {
      args.push_back(toJson(arg));
    }
    launchTable.push_back(llvm::json::Object{
        {"kernel", launch.kernel},
        {"grid",
         llvm::json::Array{launch.grid[0], launch.grid[1], launch.grid[2]}},
        {"block",
         llvm::json::Array{launch.block[0], launch.block[1], launch.block[2]}},
        {"args", std::move(args)}});
  }
  int64_t weightBytes = 0;
  for (const std::string &bytes : weights.data) {
    weightBytes += bytes.size();
  }
  llvm::json::Object schedule{
      {"model", sig.name},
      {"workspace_bytes", static_cast<int64_t>(sig.workspaceSize)},
      {"weights", static_cast<int64_t>(weights.data.size())},
      {"weight_bytes", weightBytes},
      {"images", std::move(imageTable)},
      {"launches", std::move(launchTable)}};
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, sig.name + ".schedule.json");
  if (failed(writeText(
          module.getLoc(), path,
          llvm::formatv("{0:2}", llvm::json::Value(std::move(schedule)))
              .str()))) {
    return failure();
  }

  // The artifact: the kernels and the launches as data in <name>.o/.so,
  // described by the header, behind the <name>_model ABI constant.
  targets::MachineOptions machine;
  machine.targetCpu = "generic"; // data only: any x86-64 (or host) CPU
  std::string usage = fmt::format(
      " * CUDA kernels (PTX per GPU architecture, cubins when ptxas "
      "was found)\n"
      " * and their launches: run through the runtime, which loads "
      "them with the\n"
      " * CUDA driver: pass &{0}_model to infer_model_from_abi\n"
      " * (infer/runtime.h). WORKSPACE_SIZE is device memory the "
      "runtime allocates.\n",
      sig.name);
  return targets::emitDataArtifacts(
      sig, machine, dir, sourceName, usage, module.getLoc(),
      [&](llvm::Module &llvmModule) {
        return addDescriptor(llvmModule, sig.name, images, launches,
                             weights.data);
      });
}

} // namespace infer::cuda
