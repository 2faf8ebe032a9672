//===- ExternalData.cpp - reading initializers stored beside a model ------===//

#include "compiler/import/onnx/ExternalData.h"
#include "compiler/import/onnx/TypeImport.h"

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace infer::onnx_import {

namespace {

/// A non-negative decimal integer that fits int64_t, or -1.
int64_t parseSize(const std::string &text) {
  int64_t value = -1;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty() || value < 0) {
    return -1;
  }
  return value;
}

/// The canonical absolute path of `path` (symlinks resolved), or "" with
/// errno set.
std::string realPath(const std::string &path) {
  std::unique_ptr<char, decltype(&std::free)> resolved(
      ::realpath(path.c_str(), nullptr), &std::free);
  return resolved ? std::string(resolved.get()) : std::string();
}

/// Whether `location` has a `..` component.
bool hasParentComponent(const std::string &location) {
  size_t begin = 0;
  while (begin <= location.size()) {
    size_t end = location.find('/', begin);
    if (end == std::string::npos) {
      end = location.size();
    }
    if (location.compare(begin, end - begin, "..") == 0 && end - begin == 2) {
      return true;
    }
    begin = end + 1;
  }
  return false;
}

/// Closes a file descriptor when it goes out of scope.
struct FileCloser {
  int fd;
  ~FileCloser() {
    if (fd >= 0) {
      ::close(fd);
    }
  }
};

} // namespace

bool readExternalData(const onnx::TensorProto &tensor,
                      const std::string &directory, int64_t expectedBytes,
                      std::string &bytes, std::string &error) {
  std::string name = printableName(tensor.name());
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &entry : tensor.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
      continue;
    }
    if (entry.key() != "offset" && entry.key() != "length") {
      continue; // "checksum" and keys of later IR versions carry no bytes.
    }
    int64_t value = parseSize(entry.value());
    if (value < 0) {
      error = "external data of '" + name + "' has a bad " + entry.key() +
              " '" + printableName(entry.value()) +
              "' (expected a non-negative integer)";
      return false;
    }
    (entry.key() == "offset" ? offset : length) = value;
  }
  if (location.empty()) {
    error = "external data of '" + name + "' names no location";
    return false;
  }
  std::string shown = printableName(location);
  if (location.find('\0') != std::string::npos) {
    error = "external data location '" + shown + "' of '" + name +
            "' holds a NUL byte";
    return false;
  }
  if (location[0] == '/') {
    error = "external data location '" + shown + "' of '" + name +
            "' is an absolute path; it must name a file inside the model's "
            "folder";
    return false;
  }
  if (hasParentComponent(location)) {
    error = "external data location '" + shown + "' of '" + name +
            "' has a '..' component; it must name a file inside the "
            "model's folder";
    return false;
  }
  std::string folder = realPath(directory);
  std::string path = realPath(directory + "/" + location);
  if (folder.empty() || path.empty()) {
    error = "external data file '" + shown + "' of initializer '" + name +
            "' cannot be opened: " + std::strerror(errno);
    return false;
  }
  if (path.compare(0, folder.size(), folder) != 0 ||
      (path.size() > folder.size() && path[folder.size()] != '/' &&
       folder != "/")) {
    error = "external data location '" + shown + "' of '" + name +
            "' resolves to '" + printableName(path) +
            "', outside the model's folder '" + printableName(folder) + "'";
    return false;
  }
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
  // below as not a regular file.
  FileCloser file{
      ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)};
  if (file.fd < 0) {
    error = "external data file '" + shown + "' of initializer '" + name +
            "' cannot be opened: " + std::strerror(errno);
    return false;
  }
  struct stat info;
  if (::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    error = "external data location '" + shown + "' of '" + name +
            "' is not a regular file";
    return false;
  }
  int64_t size = info.st_size;
  if (offset > size || (length >= 0 && length > size - offset)) {
    error =
        "external data of '" + name + "' (offset " + std::to_string(offset) +
        (length >= 0 ? ", length " + std::to_string(length) : "") +
        ") lies outside '" + shown + "' (" + std::to_string(size) + " bytes)";
    return false;
  }
  if (length < 0) {
    length = size - offset;
  }
  if (expectedBytes >= 0 && length != expectedBytes) {
    error = "external data of '" + name + "' has " + std::to_string(length) +
            " bytes, expected " + std::to_string(expectedBytes);
    return false;
  }
  bytes.resize(static_cast<size_t>(length));
  int64_t done = 0;
  while (done < length) {
    ssize_t got = ::pread(file.fd, bytes.data() + done,
                          static_cast<size_t>(length - done), offset + done);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      error = "cannot read the external data of '" + name + "' from '" + shown +
              "'";
      return false;
    }
    done += got;
  }
  return true;
}

} // namespace infer::onnx_import
