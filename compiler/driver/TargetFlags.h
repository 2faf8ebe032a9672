//===- TargetFlags.h - infer-compile flags of a target ---------*- C++ -*-===//
//
// A target's options are declared once, as its `<name>-codegen` pipeline
// options (see targets/common/Target.h). infer-compile takes them as flags
// (`--gpu-arch=sm_80`, `--target-cpu x86-64-v3`): before the command line
// is parsed, every flag that names some registered target's option is
// taken out of it, to be parsed into that target's options once the
// target is known.
//
//===----------------------------------------------------------------------===//

#ifndef INFER_COMPILER_DRIVER_TARGETFLAGS_H
#define INFER_COMPILER_DRIVER_TARGETFLAGS_H

#include "targets/common/Target.h"

#include <string>
#include <vector>

namespace infer {

struct TargetFlag {
  targets::Target *target; // whose option it is
  std::string flag;        // as written, for messages: "--gpu-arch"
  std::string option;      // for PassOptions::parseFromString: "gpu-arch=sm_80"
};

struct SplitCommandLine {
  std::vector<char *> rest; // argv without the target flags
  std::vector<TargetFlag> flags;
};

/// Takes the flags of registered targets' options out of argv.
SplitCommandLine splitTargetFlags(int argc, char **argv);

/// Parses the flags of `target` into its options; fails with a message
/// naming the first flag of another target or a value the option rejects.
bool applyTargetFlags(targets::Target &target,
                      const std::vector<TargetFlag> &flags, std::string &error);

/// The --help text of every registered target's (visible) options.
std::string describeTargetOptions();

} // namespace infer

#endif // INFER_COMPILER_DRIVER_TARGETFLAGS_H
