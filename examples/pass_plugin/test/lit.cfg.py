# lit configuration of the example plugin's tests: %plugin is the built
# plugin, %infer-opt and %infer-compile the installed tools; FileCheck and
# not come from LLVM's tools.
import os

import lit.formats

config.name = "infer-example-pass-plugin"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.substitutions.append(("%plugin", config.plugin))
for tool in ("infer-opt", "infer-compile"):
    config.substitutions.append(
        ("%" + tool, os.path.join(config.infer_bin_dir, tool)))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
