"""infer: compile ONNX models ahead of time and run them.

    so = infer.compile("model.onnx", shapes={"x": (1, 3, 224, 224)}, out_dir="out")
    m = infer.load(so)
    outputs = m.run({"x": x})          # {output name: numpy array}
    m.benchmark(iterations=100)        # {"p50_ms": ..., ...}
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Iterable, Mapping, Optional, Sequence, Union

from . import _config
from ._runtime import Error, Model, TensorInfo

__all__ = ["compile", "load", "find_compiler", "CompileError", "Error",
           "Model", "TensorInfo"]
__version__ = "0.1.0"

PathLike = Union[str, "os.PathLike[str]"]


class CompileError(RuntimeError):
    """infer-compile failed; the message is what it printed."""

    def __init__(self, message: str, returncode: int, command: Sequence[str]):
        super().__init__(message)
        self.returncode = returncode
        self.command = list(command)


def find_compiler(infer_compile: Optional[PathLike] = None) -> str:
    """The infer-compile to run: `infer_compile`, else $INFER_COMPILE, else
    the one of the install this package was built against, else PATH's."""
    for given in (infer_compile, os.environ.get("INFER_COMPILE")):
        if given:
            path = os.fspath(given)
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise FileNotFoundError(f"infer-compile not found at '{path}'")
            return path
    if _config.INFER_BIN_DIR:
        path = os.path.join(_config.INFER_BIN_DIR, "infer-compile")
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("infer-compile")
    if found:
        return found
    raise FileNotFoundError(
        "infer-compile not found: install infer (cmake --install build --prefix P) "
        "and put P/bin on PATH, set INFER_COMPILE, or pass infer_compile=")


def _dims(shape: Iterable[int]) -> str:
    return "x".join(str(int(d)) for d in shape)


def compile(model, target: str = "cpu", shapes: Optional[Mapping[str, Sequence[int]]] = None,
            out_dir: Optional[PathLike] = None, name: Optional[str] = None,
            batch: Optional[int] = None,
            shape_profiles: Optional[Mapping[str, Sequence[Sequence[int]]]] = None,
            options: Sequence[str] = (), infer_compile: Optional[PathLike] = None) -> str:
    """Compiles `model` (a path to .onnx/.onnxtxt, or an onnx.ModelProto)
    with infer-compile and returns the artifact: NAME.so for the cpu and
    cuda targets, the project folder for hls.

    shapes: {input: dims} fixed at compile time (--shape);
    shape_profiles: {input: (min, opt, max)} dims kept dynamic (--shape-profile);
    batch: every dynamic leading dim (--batch); options: more flags as
    written on infer-compile's command line. out_dir defaults to a new
    temporary folder. Raises CompileError with the compiler's message.
    """
    compiler = find_compiler(infer_compile)
    out = os.fspath(out_dir) if out_dir is not None else tempfile.mkdtemp(prefix="infer-")
    os.makedirs(out, exist_ok=True)
    if hasattr(model, "SerializeToString"):  # an onnx.ModelProto
        name = name or _default_name(model.graph.name or "model")
        path = os.path.join(out, f"{name}.input.onnx")
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
    else:
        path = os.fspath(model)
        if not os.path.exists(path):
            raise FileNotFoundError(f"no model at '{path}'")
    # The symbol prefix is always given, so the artifact's path is known.
    name = name or _default_name(path)
    command = [compiler, path, f"--target={target}", "-o", out, f"--name={name}"]
    for input_name, dims in (shapes or {}).items():
        command.append(f"--shape={input_name}={_dims(dims)}")
    for input_name, (lo, opt, hi) in (shape_profiles or {}).items():
        command.append(f"--shape-profile={input_name}={_dims(lo)}:{_dims(opt)}:{_dims(hi)}")
    if batch is not None:
        command.append(f"--batch={int(batch)}")
    command.extend(options)
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CompileError((proc.stderr or proc.stdout).strip(), proc.returncode, command)
    if target == "hls":
        return out
    return os.path.join(out, f"{name}.so")


def _default_name(path: str) -> str:
    """The file stem as a C identifier (as infer-compile's default)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    ident = "".join(c if c.isalnum() else "_" for c in stem)
    if not ident or ident[0].isdigit():
        ident = "model_" + ident
    return ident


def load(path: PathLike, name: Optional[str] = None, intra_op_threads: int = 0,
         fixed_threads: bool = False) -> Model:
    """Loads a compiled model (NAME.so). intra_op_threads: threads one run
    uses, the caller's included (0: one per CPU); runs use fewer while
    other work keeps the CPUs busy, unless fixed_threads."""
    return Model(os.fspath(path), name, intra_op_threads, fixed_threads)
