//===- Args.cpp - a small command-line reader for the runtime tools -------===//

#include "tools/common/Args.h"

#include "tools/common/RuntimeHandles.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace infer::tools {

bool ArgReader::flag(const std::string &name) {
  if (done() || current() != name) {
    return false;
  }
  ++position;
  return true;
}

bool ArgReader::option(const std::string &name, std::string &value) {
  if (done()) {
    return false;
  }
  const std::string &arg = current();
  if (arg == name) {
    if (position + 1 >= args.size()) {
      throw ToolError(fmt::format("option {} needs a value", name));
    }
    value = args[position + 1];
    position += 2;
    return true;
  }
  if (arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 &&
      arg[name.size()] == '=') {
    value = arg.substr(name.size() + 1);
    ++position;
    return true;
  }
  return false;
}

std::string ArgReader::positional() {
  const std::string &arg = current();
  if (arg.size() > 1 && arg[0] == '-') {
    throw ToolError(fmt::format("unknown option '{}' (see --help)", arg));
  }
  ++position;
  return arg;
}

int64_t parseInteger(const std::string &text, const std::string &flag,
                     int64_t min, int64_t max) {
  errno = 0;
  char *end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min ||
      value > max) {
    throw ToolError(fmt::format("{} expects an integer from {} to {}, got '{}'",
                                flag, min, max, text));
  }
  return value;
}

double parseNonNegative(const std::string &text, const std::string &flag) {
  errno = 0;
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE ||
      !std::isfinite(value) || value < 0) {
    throw ToolError(fmt::format(
        "{} expects a non-negative number (e.g. 1e-4), got '{}'", flag, text));
  }
  return value;
}

} // namespace infer::tools
