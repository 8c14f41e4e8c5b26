"""Run a packed variant under the CPU wave64 emulator against the reference check.

    python -m kernels.emulate --cases tests                   # the variant submission.py packs
    python -m kernels.emulate --variant v2_swizzle_splitk --cases benchmarks   # slow: minutes

Every result is "emulated": it says the kernel computes the right numbers on gfx942
semantics, nothing about MI300X speed.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

import torch
import torch.utils.cpp_extension

from kernels import config, pack
from reference import contract
from reference.task import check_implementation, clone_input, generate_input


PACKED_DIR = Path(__file__).resolve().parent.parent / "build" / "packed"


def packed_file(variant: str) -> Path:
    """The file holding `variant` packed: the committed one (pack.TARGETS) while it is current,
    else build/packed/submission_<variant>.py, rewritten only when its text changed. One fixed
    path either way: the emulator's build cache keys on the source text, whose #line directives
    name this file, so every import of the variant (tests, the harness) shares one build."""
    text = pack.submission(variant)
    for target, packed in pack.TARGETS.items():
        committed = pack.REPO / target
        if packed == variant and committed.exists() and committed.read_text() == text:
            return committed
    path = PACKED_DIR / f"submission_{variant}.py"
    if not path.exists() or path.read_text() != text:
        PACKED_DIR.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text)
        partial.replace(path)  # atomic: a process importing it beside this one never reads half a file
    return path


def load_packed(variant: str):
    """Import the packed submission of `variant` with load_inline routed to the emulator."""
    import engines.source

    path = packed_file(variant)
    torch.utils.cpp_extension.load_inline = engines.source.load_inline
    spec = importlib.util.spec_from_file_location(f"packed_{variant}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_case(module, case: contract.Case) -> tuple[bool, str]:
    data = generate_input(**case.args, device="cpu")
    pristine = clone_input(data)
    output = module.custom_kernel(data)
    return check_implementation(pristine, output)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=config.VARIANTS, default=pack.TARGETS["submission.py"])
    parser.add_argument("--cases", choices=("tests", "benchmarks"), default="tests")
    parser.add_argument("--only", type=int, nargs="*", help="case indices to run")
    args = parser.parse_args(argv)
    failures = 0
    module = load_packed(args.variant)
    for index, case in enumerate(contract.cases(args.cases)):
        if args.only and index not in args.only:
            continue
        start = time.perf_counter()
        ok, message = run_case(module, case)
        failures += not ok
        print(f"{args.cases}.{index} {case.spec}: {'pass' if ok else 'FAIL'} "
              f"({time.perf_counter() - start:.1f} s emulated) {message.splitlines()[0]}",
              flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
