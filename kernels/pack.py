"""Writes single-file submissions: `python -m kernels.pack` (or `--check` to fail when a
generated file is stale). Output is deterministic: the same sources give the same bytes."""
from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

import toolchain
from kernels import config as configs
from kernels.table import table_configs
from reference import contract

REPO = configs.KERNEL_DIR.parent
TARGETS = {  # generated file -> variant it packs
    "examples/naive_hip_submission.py": "v0_naive",
    "submission.py": "v3_twoblock_xcd",
}
# variants include "common/x.h" (kernels/sweep/ "../common/x.h"); common headers include each other as "x.h"
_LOCAL_INCLUDE = re.compile(r'^#include "(?:\.\./)?(?:common/)?(\w+\.h)"\n', re.M)
_DECLARATION = re.compile(r"^(torch::Tensor fp8_mm\([^)]*\))", re.M)


def _common_headers(text: str, seen: list[str]) -> list[str]:
    """Local headers in first-include order, each once (headers may include headers)."""
    for header in ("common/" + name for name in _LOCAL_INCLUDE.findall(text)):
        if header not in seen:
            _common_headers((configs.KERNEL_DIR / header).read_text(), seen)
            seen.append(header)
    return seen


def _section(title: str, text: str) -> str:
    text = _LOCAL_INCLUDE.sub("", text).replace("#pragma once\n", "")
    return f"// ---- {title} ----\n{text.strip()}\n"


def _dispatch(instances) -> str:
    """The dispatch table: case i launches instances[i] (anything with variant, template_args
    and name: kernels.config.Config, kernels.sweep.SweepConfig)."""
    cases = "".join(
        f"    case {index}: return launch_fp8_mm_{cfg.variant}<{cfg.template_args}>(args);"
        f"  // {cfg.name}\n" for index, cfg in enumerate(instances))
    return ("bool fp8_mm_dispatch(int64_t config_id, const Fp8MmArgs& args) {\n"
            f"  switch (config_id) {{\n{cases}    default: return false;\n  }}\n}}\n")


def hip_source(variant: str, tiles: list[str] | None = None) -> str:
    """Common headers, the variant, its dispatch table and the binding, as one HIP file."""
    return assemble(configs.KERNEL_DIR / f"fp8_mm_{variant}.hip", configs.instances(variant, tiles))


def assemble(kernel_file: Path, instances) -> str:
    """Common headers, one kernel file, the dispatch table of `instances` and the binding, as
    one HIP file."""
    binding = configs.KERNEL_DIR / "binding.hip"
    parts = ["#include <hip/hip_runtime.h>\n"]
    for header in _common_headers(kernel_file.read_text() + binding.read_text(), []):
        parts.append(_section(f"kernels/{header}", (configs.KERNEL_DIR / header).read_text()))
    parts.append(_section(f"kernels/{kernel_file.relative_to(configs.KERNEL_DIR)}", kernel_file.read_text()))
    parts.append(_section("dispatch table (kernels/pack.py)", _dispatch(instances)))
    parts.append(_section("kernels/binding.hip", binding.read_text()))
    return "\n".join(parts)


def binding_declaration() -> str:
    """The C++ declaration of binding.hip's fp8_mm, for load_inline's cpp_sources."""
    return _DECLARATION.search((configs.KERNEL_DIR / "binding.hip").read_text()).group(1) + ";"


def _table_literal(variant: str, instances: list[configs.Config]) -> str:
    index = {cfg.name: i for i, cfg in enumerate(instances)}
    rows = "".join(f"    {shape!r}: ({index[cfg.instance.name]}, {cfg.split_k}),  # {cfg.name}\n"
                   for shape, cfg in sorted(table_configs(variant).items()) if cfg.instance.name in index)
    return "{\n" + rows + "}" if rows else "{}"


def generated_file(generator: str, origin: str, name: str, source: str, tail: str) -> str:
    """A generated submission file: the popcorn header, the runner's build environment, the HIP
    source and its load_inline call (module `name`), then `tail`; stamped with its content hash."""
    if '"""' in source:
        raise ValueError("HIP source must not contain triple quotes")
    body = _HEAD.format(header="\n".join(contract.load()["popcorn_header"]), generator=generator, origin=origin,
                        env=dict(sorted(toolchain.LEADERBOARD_ENV.items())), source=source, name=name,
                        declaration=binding_declaration(), flags=list(toolchain.LEADERBOARD_HIP_FLAGS)) + tail
    digest = hashlib.sha256(body.encode()).hexdigest()[:16]
    return body.replace("@HASH@", digest)


def submission(variant: str, tiles: list[str] | None = None) -> str:
    """The whole generated submission file for one variant (its packed tiles, or `tiles`)."""
    source = hip_source(variant, tiles)
    instances = configs.instances(variant, tiles)
    tail = _TAIL.format(names=tuple(c.name.removesuffix("_sk1") for c in instances),
                        tiles=tuple((c.block_m, c.block_n, max(1, 8 // (c.waves_m * c.waves_n))) for c in instances),
                        splits=configs.SPLIT_K_CHOICES[variant], table=_table_literal(variant, instances),
                        select=(configs.KERNEL_DIR / "select.py").read_text().strip())
    return generated_file("python -m kernels.pack", f"kernels/ (variant {variant})", f"fp8_mm_{variant}", source, tail)


# The head of every generated submission file (this one's and kernels.sweep's).
_HEAD = '''{header}
# Generated by `{generator}` from {origin}; do not edit.
# content-hash: @HASH@
import os
import sys

os.environ.update({env!r})

import torch
import torch.utils.cpp_extension

HIP_SOURCE = r"""
{source}"""

_module = torch.utils.cpp_extension.load_inline(
    name="{name}_@HASH@",
    cpp_sources="{declaration}",
    cuda_sources=HIP_SOURCE,
    functions=["fp8_mm"],
    extra_cuda_cflags={flags!r},
    verbose=False,
)
'''
_TAIL = '''
# ---- general path: kernels/select.py ----
{select}

# ---- per-shape table: kernels/table.py ----
_TILE_NAMES = {names!r}
_TILES = {tiles!r}  # (block_m, block_n, blocks_per_cu) of each compiled instance
_SPLIT_CHOICES = {splits!r}
_TABLE = {table}  # (m, n, k) -> (instance index, split_k)
_workspaces = {{}}


def _choose(m, n, k):
    choice = _TABLE.get((m, n, k))
    if choice is None:
        choice = general_config(m, n, k, _TILES, _SPLIT_CHOICES)
        _TABLE[(m, n, k)] = choice
        print(f"fp8_mm: no table row for m={{m}} n={{n}} k={{k}}, general path "
              f"{{_TILE_NAMES[choice[0]]}}_sk{{choice[1]}}", file=sys.stderr)
    return choice


def _workspace(device, index, split_k, m, n):
    """Split-K partial sums and per-tile arrival counters (the kernel leaves them zero)."""
    key = (device, index, split_k, m, n)
    if key not in _workspaces:
        block_m, block_n, _ = _TILES[index]
        tiles = -(-m // block_m) * -(-n // block_n)
        size = split_k * tiles * block_m * block_n if split_k > 1 else 0
        _workspaces[key] = (torch.empty(size, dtype=torch.float32, device=device),
                            torch.zeros(tiles if split_k > 1 else 0, dtype=torch.int32, device=device))
    return _workspaces[key]


def custom_kernel(data):
    a, b, a_scale, b_scale, c = data
    m, k = a.shape
    n = b.shape[0]
    index, split_k = _choose(m, n, k)
    workspace, counters = _workspace(c.device, index, split_k, m, n)
    return _module.fp8_mm(a, b, a_scale, b_scale, c, workspace, counters, index, split_k)
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if a generated file is stale")
    args = parser.parse_args(argv)
    stale = []
    for target, variant in TARGETS.items():
        path, text = REPO / target, submission(variant)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(target)
        else:
            path.write_text(text)
            print(f"wrote {target} ({variant})")
    for target in stale:
        print(f"stale: {target} (run python -m kernels.pack)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
