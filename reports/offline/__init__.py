"""Offline gfx942 build and ISA report for HIP kernels (no AMD GPU needed).

    from reports.offline import report
    for kernel in report(Path("kernels/fp8_mm_v2.hip")):
        print(kernel.name, kernel.vgprs, kernel.waves_per_simd, kernel.mfma_total)

`report` compiles a `.hip` file (with the leaderboard's flags) or a submission `.py` for gfx942
and returns one KernelReport per `__global__` kernel. A submission is imported with load_inline
intercepted (toolchain.capture); each call's cuda_sources are hipified as torch's load_inline does
on the ROCm runner (toolchain.hipify) and compiled with the flags that call makes. A compile
failure raises CompileError whose message names the user's file and lines. Headers of libraries
this machine cannot have compile from our stand-ins (toolchain/include/standins); each report
names the stand-ins its kernels were compiled with. Our own kernel files declare templates only:
the kernel catalogue says which instances to compile (kernels/instances.py).
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import machine
from reports.offline import asm
from kernels import instances
from toolchain import REPO_ROOT, diagnostics
from toolchain.headers import STANDIN_DIR
from toolchain.hipcc import compile_device, device_compile_command
from toolchain.source import SourceError, TranslationUnit, carries_hip, translation_units

FAILURE_LOGS = REPO_ROOT / "eval" / "reports" / "failures"
from toolchain.symbols import demangle, short_name

__all__ = ["CompileError", "KernelReport", "SourceError", "carries_hip", "compile_to_asm", "default_files", "report",
           "short_name"]


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
    unified_vgprs: int   # the descriptor's per-wave allocation: arch VGPRs and AGPRs, in granules
    workgroups_per_cu: int   # machine.occupancy: resident workgroups per CU (0: cannot launch)
    waves_per_simd: int
    occupancy_limiter: str   # what stops one more workgroup per CU
    compiler_occupancy: int  # LLVM's own estimate at workgroup_size, for cross-checking
    code_bytes: int
    loop: str            # label of the hottest loop, "" if the kernel has no loop
    loop_mix: Counter = field(default_factory=Counter)
    hipified_by: str = ""  # the hipify pass the source went through, "" for a .hip compiled as is
    standins: str = ""     # stand-in libraries compiled instead of the real ones, e.g. "rocwmma, hipcub"
    all_of_torch: str = ""  # that the compile read all of torch's headers and why, "" when torch_device's served

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
    """The assembly of every translation unit the file makes, concatenated."""
    return "\n".join(_compile(unit, keep_dir)[0] for unit in translation_units(path, instances.translation_unit))


def _compile(unit: TranslationUnit, keep_dir: Path | None) -> tuple[str, list[str], str]:
    """(assembly, stand-in libraries it included, that it read all of torch's headers and why: ""
    when toolchain/include/torch_device's served). keep_dir also keeps the text compiled for a
    submission (`<stem>.hip`, hipified). clang runs in the output folder, so flags that write
    files of their own write them there."""
    path = unit.origin
    stem = path.stem + (f".{unit.label}" if unit.label else "")
    with tempfile.TemporaryDirectory(prefix="isa-") as scratch:
        out_dir = (keep_dir or Path(scratch)).resolve()
        out_dir.mkdir(parents=True, exist_ok=True)
        source = path.resolve()
        if unit.text is not None:
            source = out_dir / (stem + ".hip")
            source.write_text(unit.text)
        asm_path = out_dir / (stem + ".s")
        all_of_torch = []

        def attempt(torch_flags):
            command = device_compile_command(source, asm_path, unit.call, torch_flags)
            result = subprocess.run(command, capture_output=True, text=True, cwd=out_dir)
            if result.returncode != 0 and torch_flags:  # compiled again against all of torch's headers
                raise CompileError(diagnostics.first_error(result.stderr) or "")
            if result.returncode != 0:
                raise _compile_error(unit, stem, result.stderr)
        compile_device(source.read_text(), attempt, CompileError, all_of_torch.append)
        return asm_path.read_text(), _standins(asm_path.with_suffix(".d")), "".join(all_of_torch)


def _compile_error(unit: TranslationUnit, stem: str, stderr: str) -> CompileError:
    hipified = f" (after {unit.hipified_by} as on the ROCm runner)" if unit.hipified_by else ""
    first = diagnostics.first_error(stderr)
    if first:  # the first error at the user's line, its notes; the whole output in a log of its own
        log = diagnostics.write_log(FAILURE_LOGS / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.log", stderr)
        detail = "\n".join([first, *_first_notes(stderr), f"full compiler output: {log}"])
    else:
        detail = stderr.strip()
    return CompileError(f"{unit.origin}: gfx942 compile failed{hipified}\n{detail}" + _standin_hint(stderr))


def _first_notes(stderr: str, most: int = 3) -> list[str]:
    """The notes clang attaches to its first error (each with its source line), at most `most`."""
    lines = stderr.splitlines()
    start = next((i for i, line in enumerate(lines) if ": error: " in line), len(lines))
    notes = []
    for i in range(start + 1, len(lines)):
        if ": error: " in lines[i] or len(notes) == most:
            break
        if ": note: " in lines[i]:
            notes.append(" ".join(lines[i].split()) + (f"  | {lines[i + 1].split('|', 1)[-1].strip()}"
                                                      if i + 1 < len(lines) and "|" in lines[i + 1] else ""))
    return notes


def _standin_hint(stderr: str) -> str:
    if str(STANDIN_DIR) not in stderr:
        return ""
    return ("note: the error is in or points at our stand-in headers (toolchain/include/standins): the submission "
            "uses a library this machine cannot have, or a part of rocWMMA the stand-in does not cover\n")


def _standins(depfile: Path) -> list[str]:
    """Which stand-in libraries the compile read, from clang's dependency file."""
    if not depfile.exists():
        return []
    prefix = str(STANDIN_DIR) + "/"
    found = {word.removeprefix(prefix).split("/")[0] for word in depfile.read_text().split() if word.startswith(prefix)}
    return sorted(found - {"README.md"})


def report(path: Path | str, keep_dir: Path | None = None) -> list[KernelReport]:
    kernels = []
    for unit in translation_units(Path(path), instances.translation_unit):
        text, standins, all_of_torch = _compile(unit, keep_dir)
        parsed = asm.parse(text)
        names = demangle([kernel.symbol for kernel in parsed])
        kernels += [_kernel_report(unit, kernel, short_name(name), standins, all_of_torch)
                    for kernel, name in zip(parsed, names)]
    return kernels


def _kernel_report(unit: TranslationUnit, kernel: asm.AsmKernel, name: str, standins: list[str],
                   all_of_torch: str) -> KernelReport:
    meta, info = kernel.metadata, kernel.info
    required = meta.get(".reqd_workgroup_size")
    workgroup_size = required[0] * required[1] * required[2] if required else meta[".max_flat_workgroup_size"]
    vgprs, agprs, sgprs = info["NumVgprs"], info.get("NumAgprs", 0), meta[".sgpr_count"]
    lds = meta[".group_segment_fixed_size"]
    # NOTE: on gfx90a and gfx942 the metadata's .vgpr_count already includes the AGPRs (they sit
    # above ACCUM_OFFSET in one register file); the descriptor allocates it in granules.
    granule = machine.fact("vgpr_granule")
    unified = -(-max(meta[".vgpr_count"], 1) // granule) * granule
    occ = machine.occupancy(unified, sgprs, lds, workgroup_size)
    loop = asm.hottest_loop(kernel)
    return KernelReport(
        file=str(unit.origin), name=name, symbol=kernel.symbol,
        vgprs=vgprs, agprs=agprs, sgprs=sgprs,
        scratch_bytes=meta[".private_segment_fixed_size"],
        vgpr_spills=meta[".vgpr_spill_count"], sgpr_spills=meta[".sgpr_spill_count"],
        lds_bytes=lds, workgroup_size=workgroup_size,
        unified_vgprs=unified, workgroups_per_cu=occ.workgroups_per_cu, waves_per_simd=occ.waves_per_simd,
        occupancy_limiter=occ.limiter,
        compiler_occupancy=info.get("Occupancy", 0),
        code_bytes=info["codeLenInByte"],
        loop=loop.label if loop else "",
        loop_mix=asm.instruction_mix(loop.instructions if loop else kernel.instructions),
        hipified_by=unit.hipified_by,
        standins=", ".join(standins),
        all_of_torch=all_of_torch,
    )
