//===- Target.cpp - the registry of code generation targets ---------------===//

#include "targets/common/Target.h"

namespace infer::targets {

Target::~Target() = default;

static std::vector<std::unique_ptr<Target>> &registry() {
  static std::vector<std::unique_ptr<Target>> targets;
  return targets;
}

void registerTarget(std::unique_ptr<Target> target) {
  if (!lookupTarget(target->getName())) {
    registry().push_back(std::move(target));
  }
}

Target *lookupTarget(llvm::StringRef name) {
  for (const std::unique_ptr<Target> &target : registry()) {
    if (target->getName() == name) {
      return target.get();
    }
  }
  return nullptr;
}

std::vector<Target *> getRegisteredTargets() {
  std::vector<Target *> targets;
  for (const std::unique_ptr<Target> &target : registry()) {
    targets.push_back(target.get());
  }
  return targets;
}

} // namespace infer::targets
