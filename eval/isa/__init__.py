"""Offline gfx942 build and ISA report for HIP kernels (no AMD GPU needed).

    from eval.isa import report
    for kernel in report(Path("kernels/fp8_mm_v2.hip")):
        print(kernel.name, kernel.vgprs, kernel.waves_per_simd, kernel.mfma_total)

`report` compiles a `.hip` file or a submission `.py` (its load_inline cuda_sources) for gfx942
with the leaderboard's flags and returns one KernelReport per `__global__` kernel. A submission's
source is first hipified as torch's load_inline does on the ROCm runner (eval.isa.hipify). A
compile failure raises CompileError whose message names the user's file and lines.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from eval.isa import asm, occupancy
from eval.isa.source import SourceError, TranslationUnit, carries_hip, translation_unit
from eval.isa.toolchain import REPO_ROOT, demangle, device_compile_command

__all__ = ["CompileError", "KernelReport", "SourceError", "carries_hip", "compile_to_asm", "default_files", "report"]


class CompileError(RuntimeError):
    """clang rejected the file; the message is clang's, with the user's file and lines."""


@dataclass
class KernelReport:
    file: str
    name: str            # demangled, without the parameter list
    symbol: str
    vgprs: int           # arch VGPRs
    agprs: int
    sgprs: int
    scratch_bytes: int   # private segment per lane: spills and dynamically indexed arrays
    vgpr_spills: int
    sgpr_spills: int
    lds_bytes: int       # static __shared__; dynamic LDS is set at launch and not counted
    workgroup_size: int  # required size if declared, else the __launch_bounds__ maximum
    waves_per_simd: int
    compiler_occupancy: int  # LLVM's own estimate at workgroup_size, for cross-checking
    code_bytes: int
    loop: str            # label of the hottest loop, "" if the kernel has no loop
    loop_mix: Counter = field(default_factory=Counter)
    hipified_by: str = ""  # the hipify pass the source went through, "" for a .hip compiled as is

    def count(self, prefix: str) -> int:
        return sum(n for kind, n in self.loop_mix.items() if kind.startswith(prefix))

    def widths(self, prefix: str) -> dict[str, int]:
        return {kind: n for kind, n in sorted(self.loop_mix.items()) if kind.startswith(prefix)}

    @property
    def mfma_total(self) -> int:
        return self.count("mfma_") + self.count("smfmac_")

    @property
    def spills(self) -> bool:
        return self.vgpr_spills > 0 or self.sgpr_spills > 0 or self.scratch_bytes > 0


def default_files(with_examples: bool = False) -> list[Path]:
    """Every kernels/*.hip that defines a kernel (fragments such as the binding are compiled
    as part of submission.py), submission.py, and optionally examples/*.py carrying HIP."""
    files = [path for path in sorted((REPO_ROOT / "kernels").glob("*.hip")) if "__global__" in path.read_text()]
    files += [path for path in [REPO_ROOT / "submission.py"] if path.exists()]
    if with_examples:
        files += [path for path in sorted((REPO_ROOT / "examples").glob("*.py")) if carries_hip(path)]
    return files


def compile_to_asm(path: Path, keep_dir: Path | None = None) -> str:
    return _compile(translation_unit(path), keep_dir)


def _compile(unit: TranslationUnit, keep_dir: Path | None) -> str:
    """keep_dir also keeps the text compiled for a submission (`<stem>.hip`, hipified)."""
    path = unit.origin
    with tempfile.TemporaryDirectory(prefix="isa-") as scratch:
        out_dir = keep_dir or Path(scratch)
        out_dir.mkdir(parents=True, exist_ok=True)
        source = path
        if unit.text is not None:
            source = out_dir / (path.stem + ".hip")
            source.write_text(unit.text)
        asm_path = out_dir / (path.stem + ".s")
        result = subprocess.run(device_compile_command(source, asm_path), capture_output=True, text=True)
        if result.returncode != 0:
            hipified = f" (after {unit.hipified_by} as on the ROCm runner)" if unit.hipified_by else ""
            raise CompileError(f"{path}: gfx942 compile failed{hipified}\n{result.stderr}")
        return asm_path.read_text()


def report(path: Path | str, keep_dir: Path | None = None) -> list[KernelReport]:
    unit = translation_unit(Path(path))
    kernels = asm.parse(_compile(unit, keep_dir))
    names = demangle([kernel.symbol for kernel in kernels])
    return [_kernel_report(unit, kernel, _short_name(name)) for kernel, name in zip(kernels, names)]


def _kernel_report(unit: TranslationUnit, kernel: asm.AsmKernel, name: str) -> KernelReport:
    meta, info = kernel.metadata, kernel.info
    required = meta.get(".reqd_workgroup_size")
    workgroup_size = required[0] * required[1] * required[2] if required else meta[".max_flat_workgroup_size"]
    vgprs, agprs, sgprs = info["NumVgprs"], info.get("NumAgprs", 0), meta[".sgpr_count"]
    lds = meta[".group_segment_fixed_size"]
    loop = asm.hottest_loop(kernel)
    return KernelReport(
        file=str(unit.origin), name=name, symbol=kernel.symbol,
        vgprs=vgprs, agprs=agprs, sgprs=sgprs,
        scratch_bytes=meta[".private_segment_fixed_size"],
        vgpr_spills=meta[".vgpr_spill_count"], sgpr_spills=meta[".sgpr_spill_count"],
        lds_bytes=lds, workgroup_size=workgroup_size,
        waves_per_simd=occupancy.waves_per_simd(vgprs, agprs, sgprs, lds, workgroup_size),
        compiler_occupancy=info.get("Occupancy", 0),
        code_bytes=info["codeLenInByte"],
        loop=loop.label if loop else "",
        loop_mix=asm.instruction_mix(loop.instructions if loop else kernel.instructions),
        hipified_by=unit.hipified_by,
    )


def _short_name(demangled: str) -> str:
    """`void f<Cfg<1, 2> >(int*, ...)` -> `f<Cfg<1, 2> >`."""
    name = demangled.removeprefix("void ")
    depth = 0
    for index, char in enumerate(name):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "(" and depth == 0:
            return name[:index]
    return name
