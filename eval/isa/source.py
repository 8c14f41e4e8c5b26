"""The HIP translation unit a file would produce on the runner.

A `.hip` file is compiled as it is. A submission `.py` is not run: its `cuda_sources=` argument
to `load_inline` is evaluated statically (string constants, names bound to them at module level,
`+` concatenations, lists joined with newlines as load_inline joins them), then wrapped in the
headers load_inline prepends, then hipified as torch does on a ROCm runner (eval.isa.hipify).
`#line` directives point every piece back at its line in the `.py`, so compile errors name the
submission's own lines; hipify rewrites within lines and keeps them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from eval.isa import hipify

# What load_inline puts before cuda_sources; hipify turns the last two into <hip/hip_runtime.h>.
LOAD_INLINE_PRELUDE = ("#include <torch/types.h>", "#include <cuda.h>", "#include <cuda_runtime.h>")
# Stands for the user's path in #line directives while hipify runs, so no part of a path is
# ever taken for a CUDA name.
_ORIGIN_TOKEN = "@ISA_ORIGIN@"


class SourceError(ValueError):
    """The file carries no HIP source we can evaluate without running it."""


@dataclass(frozen=True)
class Piece:
    text: str
    first_line: int  # line in the .py where `text` starts


@dataclass(frozen=True)
class TranslationUnit:
    origin: Path          # the user's file
    text: str | None      # wrapper text to compile, None for a .hip compiled in place
    hipified_by: str = ""  # the hipify pass the text went through ("" if none), eval.isa.hipify.version()


def translation_unit(path: Path) -> TranslationUnit:
    if path.suffix == ".py":
        return TranslationUnit(path, hipify_as_runner(path, extract_cuda_sources(path)), hipify.version())
    return TranslationUnit(path, _instantiate_variant(path))


def hipify_as_runner(origin: Path, pieces: list[Piece]) -> str:
    """The .hip text hipcc compiles on the runner for these cuda_sources, with #line mapping."""
    quoted = f'"{origin.resolve()}"'
    loaded = wrap(origin, pieces)
    protected = "\n".join(line.replace(quoted, f'"{_ORIGIN_TOKEN}"') if line.startswith("#line ") else line
                          for line in loaded.split("\n"))
    return hipify.hipify_cuda_source(protected).replace(f'"{_ORIGIN_TOKEN}"', quoted)


def _instantiate_variant(path: Path) -> str | None:
    """A kernels/fp8_mm_<variant>.hip only declares templates; instantiate the configs the
    packer compiles (kernels.config.instances) through each launcher, as the dispatch table
    does. The file is #included, so errors keep its own name and lines."""
    from kernels import config  # the kernel registry; imported only for kernel files

    variant = path.stem.removeprefix("fp8_mm_")
    if not path.stem.startswith("fp8_mm_") or variant not in config.VARIANTS:
        return None
    calls = "".join(f"bool isa_instance_{index}(const Fp8MmArgs& args, hipStream_t stream) {{\n"
                    f"  return launch_fp8_mm_{variant}<{cfg.template_args}>(args, stream);  // {cfg.name}\n}}\n"
                    for index, cfg in enumerate(config.instances(variant)))
    return f'#include "{path.resolve()}"\n{calls}'


def carries_hip(path: Path) -> bool:
    try:
        extract_cuda_sources(path)
    except SourceError:
        return False
    return True


def wrap(origin: Path, pieces: list[Piece]) -> str:
    text = "\n".join(LOAD_INLINE_PRELUDE) + "\n"
    for piece in pieces:
        # A #line needs a line of its own; a piece glued mid-line keeps the previous mapping.
        if text.endswith("\n"):
            text += f'#line {piece.first_line} "{origin.resolve()}"\n'
        text += piece.text
    return text if text.endswith("\n") else text + "\n"


def extract_cuda_sources(path: Path) -> list[Piece]:
    tree = ast.parse(path.read_text(), filename=str(path))
    bindings = _module_bindings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called_name(node) == "load_inline":
            argument = next((kw.value for kw in node.keywords if kw.arg == "cuda_sources"), None)
            if argument is None and len(node.args) >= 3:
                argument = node.args[2]  # load_inline(name, cpp_sources, cuda_sources, ...)
            if argument is not None:
                return _evaluate(argument, bindings, path)
    raise SourceError(f"{path}: no load_inline(..., cuda_sources=...) call")


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _module_bindings(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level `NAME = expr`; a later binding replaces an earlier one, as at run time."""
    bindings: dict[str, ast.expr] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                bindings[target.id] = statement.value
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value:
            bindings[statement.target.id] = statement.value
    return bindings


def _evaluate(node: ast.expr, bindings: dict[str, ast.expr], path: Path, depth: int = 0) -> list[Piece]:
    if depth > 50:
        raise SourceError(f"{path}:{node.lineno}: cuda_sources refers to itself")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [Piece(node.value, node.lineno)]
    if isinstance(node, ast.Name) and node.id in bindings:
        return _evaluate(bindings[node.id], bindings, path, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _evaluate(node.left, bindings, path, depth + 1) + _evaluate(node.right, bindings, path, depth + 1)
    if isinstance(node, (ast.List, ast.Tuple)):
        pieces: list[Piece] = []
        for index, element in enumerate(node.elts):
            if index:
                pieces.append(Piece("\n", element.lineno))
            pieces += _evaluate(element, bindings, path, depth + 1)
        return pieces
    raise SourceError(f"{path}:{node.lineno}: cuda_sources is not a plain string expression "
                      f"({ast.unparse(node)[:60]!r}); cannot extract it without running the file")
