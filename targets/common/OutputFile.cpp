//===- OutputFile.cpp - writing artifacts without writing through links ---===//

#include "targets/common/OutputFile.h"

#include "llvm/Support/FileSystem.h"

namespace infer {

namespace {

/// Whether `path` (following symlinks) is something other than a regular
/// file or a directory: a device, a FIFO, a socket.
bool isStream(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status, /*Follow=*/true)) {
    return false; // absent (or unreadable): a new file
  }
  auto type = status.type();
  return type == llvm::sys::fs::file_type::character_file ||
         type == llvm::sys::fs::file_type::block_file ||
         type == llvm::sys::fs::file_type::fifo_file ||
         type == llvm::sys::fs::file_type::socket_file;
}

} // namespace

llvm::Error
writeOutputFile(llvm::StringRef path,
                llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write) {
  if (path != "-" && isStream(path)) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec) {
      return llvm::errorCodeToError(ec);
    }
    if (llvm::Error error = write(os)) {
      return error;
    }
    os.flush();
    return os.has_error() ? llvm::errorCodeToError(os.error())
                          : llvm::Error::success();
  }
  // A temporary file beside `path`, renamed over it when complete.
  return llvm::writeToOutput(path,
                             [&](llvm::raw_ostream &os) { return write(os); });
}

llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef data) {
  return writeOutputFile(path, [&](llvm::raw_ostream &os) {
    os << data;
    return llvm::Error::success();
  });
}

void clearOutputPath(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status, /*Follow=*/false)) {
    return;
  }
  auto type = status.type();
  if (type == llvm::sys::fs::file_type::symlink_file ||
      type == llvm::sys::fs::file_type::regular_file) {
    llvm::sys::fs::remove(path);
  }
}

} // namespace infer
