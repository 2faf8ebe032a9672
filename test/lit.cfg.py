# -*- Python -*-
# lit configuration for infer's FileCheck tests (.mlir, .onnxtxt, .test).

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "infer"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".onnxtxt", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.infer_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "onnx-backend",
                   "runtime", "unit"]

config.substitutions.append(("%testdata", config.onnx_testdata_dir))
config.substitutions.append(("%venv_python", config.venv_python))
config.substitutions.append(("%python", config.python_executable))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.infer_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["infer-opt", "infer-compile"],
                                   [config.infer_tools_dir])
