//===- Args.h - a small command-line reader for the runtime tools -*- C++
//-*-===//
//
// The runtime tools build without LLVM, so they read their arguments with
// this instead of llvm::cl. Options are `--flag`, `--flag value` or
// `--flag=value`; everything else is positional.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_TOOLS_COMMON_ARGS_H
#define INFER_TOOLS_COMMON_ARGS_H

#include <cstdint>
#include <string>
#include <vector>

namespace infer::tools {

class ArgReader {
public:
  ArgReader(int argc, char **argv) : args(argv + 1, argv + argc) {}

  bool done() const { return position >= args.size(); }
  const std::string &current() const { return args[position]; }

  /// Consumes `--name` (no value) when it is the current argument.
  bool flag(const std::string &name);

  /// Consumes `--name value` or `--name=value` when it is the current
  /// argument, storing the value; throws a ToolError when the value is
  /// missing.
  bool option(const std::string &name, std::string &value);

  /// Consumes the current argument as a positional one; throws a ToolError
  /// naming it when it looks like an unknown option.
  std::string positional();

private:
  std::vector<std::string> args;
  size_t position = 0;
};

/// Parses a whole decimal integer in [min, max] for `flag`; throws a
/// ToolError otherwise.
int64_t parseInteger(const std::string &text, const std::string &flag,
                     int64_t min, int64_t max);

/// Parses a non-negative finite number for `flag`; throws otherwise.
double parseNonNegative(const std::string &text, const std::string &flag);

} // namespace infer::tools

#endif // INFER_TOOLS_COMMON_ARGS_H
