//===- TargetFlags.cpp - infer-compile flags that belong to a target ------===//

#include "compiler/driver/TargetFlags.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace infer {

namespace {

/// The option named `name` of some registered target.
std::pair<targets::Target *, llvm::cl::Option *>
findOption(llvm::StringRef name) {
  for (targets::Target *target : targets::getRegisteredTargets()) {
    const auto &options = target->getOptionMap();
    if (auto it = options.find(name); it != options.end()) {
      return {target, it->second};
    }
  }
  return {nullptr, nullptr};
}

} // namespace

SplitCommandLine splitTargetFlags(int argc, char **argv) {
  SplitCommandLine split;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (i == 0 || !arg.starts_with("-") || arg == "-") {
      split.rest.push_back(argv[i]);
      continue;
    }
    if (arg == "--") { // everything after is positional
      split.rest.insert(split.rest.end(), argv + i, argv + argc);
      break;
    }
    llvm::StringRef body = arg.drop_front(arg.starts_with("--") ? 2 : 1);
    auto [name, value] = body.split('=');
    auto [target, option] = findOption(name);
    if (!target) {
      split.rest.push_back(argv[i]);
      continue;
    }
    std::string flag =
        arg.take_front(arg.size() - body.size()).str() + name.str();
    std::string text = name.str();
    if (body.contains('=')) {
      text += "=" + value.str();
    } else if (option->getValueExpectedFlag() == llvm::cl::ValueRequired &&
               i + 1 < argc) {
      text += "=" + std::string(argv[++i]);
    }
    split.flags.push_back({target, flag, text});
  }
  return split;
}

bool applyTargetFlags(targets::Target &target,
                      const std::vector<TargetFlag> &flags,
                      std::string &error) {
  for (const TargetFlag &flag : flags) {
    // A name several targets declare (--profile) is the chosen target's.
    llvm::StringRef name = llvm::StringRef(flag.option).split('=').first;
    if (flag.target != &target && !target.getOptionMap().count(name)) {
      std::string owners;
      for (targets::Target *t : targets::getRegisteredTargets()) {
        if (t->getOptionMap().count(name)) {
          owners += (owners.empty() ? "" : " or ") + t->getName().str();
        }
      }
      error = flag.flag + " applies to --target=" + owners +
              " (this compile targets " + target.getName().str() + ")";
      return false;
    }
    std::string message;
    llvm::raw_string_ostream os(message);
    if (mlir::failed(target.getOptions().parseFromString(flag.option, os))) {
      // Value parsers print their complaint themselves (to stderr); the
      // options parser writes its own to `os`.
      llvm::StringRef why = llvm::StringRef(message).trim();
      error = "invalid " + flag.flag + " ('" + flag.option + "')" +
              (why.empty() ? "" : ": " + why.str());
      return false;
    }
  }
  return true;
}

std::string describeTargetOptions() {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (targets::Target *target : targets::getRegisteredTargets()) {
    std::vector<llvm::cl::Option *> options;
    for (const auto &entry : target->getOptionMap()) {
      if (entry.second->getOptionHiddenFlag() == llvm::cl::NotHidden) {
        options.push_back(entry.second);
      }
    }
    std::sort(options.begin(), options.end(),
              [](llvm::cl::Option *a, llvm::cl::Option *b) {
                return a->ArgStr < b->ArgStr;
              });
    os << "\n"
       << target->getDisplayName() << " target (--target=" << target->getName()
       << "; also infer-opt --" << target->getName()
       << "-codegen=\"NAME=VALUE ...\"):\n";
    for (llvm::cl::Option *option : options) {
      std::string flag = "--" + option->ArgStr.str();
      if (option->getValueExpectedFlag() == llvm::cl::ValueRequired) {
        flag += "=<" +
                (option->ValueStr.empty() ? std::string("value")
                                          : option->ValueStr.str()) +
                ">";
      }
      os << "  " << flag;
      os.indent(flag.size() < 28 ? 28 - flag.size() : 1);
      os << "- " << option->HelpStr << "\n";
    }
  }
  return text;
}

} // namespace infer
