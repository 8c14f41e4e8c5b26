"""The HIP translation units a file would produce on the runner.

A `.hip` file is compiled as it is, or through the text its caller's `instantiate` gives (a
file of templates: the offline report asks our kernel catalogue, kernels/instances.py). A
submission `.py` is imported with load_inline intercepted (toolchain.capture): each call's
cuda_sources, as the running file computed them, are joined as load_inline joins them, after
the headers it prepends (none with no_implicit_headers=True), then hipified as torch does on a
ROCm runner (toolchain.hipify). The call's flags and include paths travel with the unit
(toolchain.hipcc decides which reach the device compile).

Compile errors should name the submission's own lines: every stretch of the text that is a
string literal of the .py verbatim gets a `#line` pointing at that literal; computed stretches
(decompressed, templated, read from a file) point at `<file>.py[cuda_sources]`, numbered within
the computed text, which `--keep-asm` keeps beside the assembly. hipify rewrites within lines
and keeps them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from toolchain import hipify
from toolchain.capture import SourceError, capture
from toolchain.load_call import LoadInlineCall

__all__ = ["LoadInlineCall", "Piece", "SourceError", "TranslationUnit", "carries_hip", "runner_text",
           "translation_units"]

# What load_inline puts before cuda_sources; hipify turns the last two into <hip/hip_runtime.h>.
LOAD_INLINE_PRELUDE = ("#include <torch/types.h>", "#include <cuda.h>", "#include <cuda_runtime.h>")
# Stands for the user's path in #line directives while hipify runs, so no part of a path is
# ever taken for a CUDA name.
_ORIGIN_TOKEN = "@ISA_ORIGIN@"
# Shorter literals ("\n", "}") would match computed text by accident.
_MIN_LITERAL = 24


@dataclass(frozen=True)
class Piece:
    text: str
    first_line: int | None  # line of the .py where `text` starts; None: computed text
    computed_line: int = 1  # for computed text, its line within the joined cuda_sources


@dataclass(frozen=True)
class TranslationUnit:
    origin: Path          # the user's file
    text: str | None      # wrapper text to compile, None for a .hip compiled in place
    hipified_by: str = ""  # the hipify pass the text went through ("" if none), toolchain.hipify.version()
    call: LoadInlineCall | None = None  # the load_inline call it came from, None for a .hip
    label: str = ""       # names the unit in file names when a submission makes several calls


def translation_units(path: Path, instantiate: Callable[[Path], str | None] | None = None) -> list[TranslationUnit]:
    """The units of a submission `.py`, or of a `.hip` file: compiled as it is, or as the text
    `instantiate(path)` gives when it gives one (a file of templates, #included by that text
    with the instances to compile)."""
    if path.suffix != ".py":
        return [TranslationUnit(path, instantiate(path) if instantiate else None)]
    calls = [call for call in capture(path) if call.cuda_sources]
    if not calls:
        raise SourceError(f"{path}: its load_inline calls pass no cuda_sources, so nothing is compiled for the GPU")
    literals = _string_literals(path)
    return [TranslationUnit(path, hipify_as_runner(path, call, literals), hipify.version(), call,
                            label=call.name if len(calls) > 1 else "")
            for call in calls]


def carries_hip(path: Path) -> bool:
    """Cheap test for the default file list: does the .py call load_inline at all."""
    return "load_inline" in path.read_text()


def runner_text(call: LoadInlineCall, origin: Path | None) -> str:
    """The .hip text of the runner for a call made by the file `origin` (None: not known);
    with it, #line directives name the file's own lines, in compile errors and in the line
    tables a fault is reported with."""
    if origin is not None:
        return hipify_as_runner(origin, call, _string_literals(origin))
    prelude = [] if call.no_implicit_headers else list(LOAD_INLINE_PRELUDE)
    return hipify.hipify_cuda_source("\n".join(prelude + call.cuda_sources))


def hipify_as_runner(origin: Path, call: LoadInlineCall, literals: list[Piece]) -> str:
    """The .hip text hipcc compiles on the runner for this call, with #line mapping."""
    quoted = f'"{origin.resolve()}'
    loaded = wrap(origin, call, literals)
    protected = "\n".join(line.replace(quoted, f'"{_ORIGIN_TOKEN}') if line.startswith("#line ") else line
                          for line in loaded.split("\n"))
    return hipify.hipify_cuda_source(protected).replace(f'"{_ORIGIN_TOKEN}', quoted)


def wrap(origin: Path, call: LoadInlineCall, literals: list[Piece]) -> str:
    """load_inline's cuda.cu for `call`, with #line directives back into `origin`."""
    joined = "\n".join(call.cuda_sources)
    text = "" if call.no_implicit_headers else "\n".join(LOAD_INLINE_PRELUDE) + "\n"
    computed_file = f"{origin.resolve()}[cuda_sources]"
    for piece in locate(joined, literals):
        # A #line needs a line of its own; a piece glued mid-line keeps the previous mapping.
        if text == "" or text.endswith("\n"):
            if piece.first_line is not None:
                text += f'#line {piece.first_line} "{origin.resolve()}"\n'
            else:
                text += f'#line {piece.computed_line} "{computed_file}"\n'
        text += piece.text
    return text if text.endswith("\n") else text + "\n"


def locate(joined: str, literals: list[Piece]) -> list[Piece]:
    """Split `joined` into stretches that are string literals of the file (longest first, no
    overlaps) and computed stretches between them."""
    taken: list[tuple[int, int, int]] = []  # (start, end, line)
    for literal in sorted(literals, key=lambda piece: -len(piece.text)):
        start = joined.find(literal.text)
        while start >= 0:
            end = start + len(literal.text)
            if all(end <= s or start >= e for s, e, _ in taken):
                taken.append((start, end, literal.first_line))
            start = joined.find(literal.text, end)
    pieces, position = [], 0
    for start, end, line in sorted(taken):
        if start > position:
            pieces.append(Piece(joined[position:start], None, joined.count("\n", 0, position) + 1))
        pieces.append(Piece(joined[start:end], line))
        position = end
    if position < len(joined):
        pieces.append(Piece(joined[position:], None, joined.count("\n", 0, position) + 1))
    return pieces


def _string_literals(path: Path) -> list[Piece]:
    """The file's string constants long enough to recognise, with the line each starts on."""
    try:
        tree = ast.parse(path.read_text(), filename=str(path))
    except SyntaxError as error:
        raise SourceError(f"{path}:{error.lineno}: not valid Python: {error.msg}") from None
    return [Piece(node.value, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) >= _MIN_LITERAL
            and node.end_lineno is not None]
