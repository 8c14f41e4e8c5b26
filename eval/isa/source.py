"""The HIP translation units a file would produce on the runner.

A `.hip` file is compiled as it is. A submission `.py` is imported with load_inline intercepted
(eval.isa.capture): each call's cuda_sources, as the running file computed them, are joined as
load_inline joins them, after the headers it prepends (none with no_implicit_headers=True), then
hipified as torch does on a ROCm runner (eval.isa.hipify). The call's flags and include paths
travel with the unit (eval.isa.toolchain decides which reach the device compile).

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

from eval.isa import hipify
from eval.isa.capture import LoadInlineCall, SourceError, capture

__all__ = ["LoadInlineCall", "Piece", "SourceError", "TranslationUnit", "carries_hip", "translation_units"]

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
    hipified_by: str = ""  # the hipify pass the text went through ("" if none), eval.isa.hipify.version()
    call: LoadInlineCall | None = None  # the load_inline call it came from, None for a .hip
    label: str = ""       # names the unit in file names when a submission makes several calls


def translation_units(path: Path) -> list[TranslationUnit]:
    if path.suffix != ".py":
        return [TranslationUnit(path, _instantiate_variant(path))]
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


def _instantiate_variant(path: Path) -> str | None:
    """A kernels/fp8_mm_<variant>.hip only declares templates; instantiate the configs the
    packer compiles (kernels.config.instances) through each launcher, as the dispatch table
    does; kernels/sweep/fp8_mm_sweep.hip gets every configuration of the sweep
    (kernels.sweep.CONFIGS). The file is #included, so errors keep its own name and lines."""
    from kernels import config, sweep  # the kernel registries; imported only for kernel files

    variant = path.stem.removeprefix("fp8_mm_")
    if path.resolve() == sweep.SOURCE:
        instances = sweep.CONFIGS
    elif path.stem.startswith("fp8_mm_") and variant in config.VARIANTS:
        instances = config.instances(variant)
    else:
        return None
    calls = "".join(f"bool isa_instance_{index}(const Fp8MmArgs& args) {{\n"
                    f"  return launch_fp8_mm_{cfg.variant}<{cfg.template_args}>(args);  // {cfg.name}\n}}\n"
                    for index, cfg in enumerate(instances))
    return f'#include "{path.resolve()}"\n{calls}'
