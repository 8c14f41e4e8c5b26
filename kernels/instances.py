"""Our kernel files as the offline report compiles them.

A kernels/fp8_mm_<variant>.hip only declares templates; the report compiles it through a unit
that #includes it (so errors keep the file's own name and lines) and instantiates each config
the packer compiles (kernels.config.instances) through its launcher, as the dispatch table
does. kernels/sweep/fp8_mm_sweep.hip gets every configuration of the sweep (kernels.sweep.CONFIGS).
"""
from __future__ import annotations

from pathlib import Path


def translation_unit(path: Path) -> str | None:
    """The unit to compile for a kernel file of ours; None for any other file."""
    from kernels import config, sweep  # imported when a .hip file is compiled: the sweep brings in the packer

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
