"""The ISA report's two outputs: an aligned table for people and a CSV row per kernel."""

from __future__ import annotations

import csv
from pathlib import Path

from reports.offline import KernelReport

# (column title, value) for the table; the CSV carries these plus the per-width breakdowns.
_COLUMNS = (
    ("vgpr", lambda k: k.vgprs), ("agpr", lambda k: k.agprs), ("sgpr", lambda k: k.sgprs),
    ("scratch", lambda k: k.scratch_bytes), ("lds", lambda k: k.lds_bytes),
    ("wg", lambda k: k.workgroup_size), ("waves", lambda k: k.waves_per_simd),
    ("wg/cu", lambda k: k.workgroups_per_cu),
    ("code", lambda k: k.code_bytes), ("mfma", lambda k: k.mfma_total),
    ("ds_rd", lambda k: k.count("ds_read") + k.count("ds_load")),
    ("ds_wr", lambda k: k.count("ds_write") + k.count("ds_store")),
    ("g_ld", lambda k: k.count("global_load") + k.count("buffer_load") + k.count("flat_load")),
    ("g_st", lambda k: k.count("global_store") + k.count("buffer_store") + k.count("flat_store")),
    ("wait", lambda k: k.count("s_waitcnt")), ("bar", lambda k: k.count("s_barrier")),
    ("valu", lambda k: k.count("valu")), ("salu", lambda k: k.count("salu")),
)
_WIDTH_GROUPS = ("mfma_", "smfmac_", "ds_", "global_", "buffer_", "flat_")


def _label(kernel: KernelReport) -> str:
    return f"{Path(kernel.file).name}:{kernel.name}"


def _breakdown(kernel: KernelReport) -> str:
    parts = [f"{kind} x{n}" for group in _WIDTH_GROUPS for kind, n in kernel.widths(group).items()]
    return ", ".join(parts)


def format_table(kernels: list[KernelReport]) -> str:
    if not kernels:
        return "(no kernels)"
    header = ["kernel"] + [title for title, _ in _COLUMNS] + ["loop"]
    rows = [[_label(k)] + [str(value(k)) for _, value in _COLUMNS] + [k.loop or "-"] for k in kernels]
    widths = [max(len(row[i]) for row in [header] + rows) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    out = [line(header), line(["-" * w for w in widths])] + [line(row) for row in rows]
    out.append("")
    out.append("hottest loop (innermost loop with most MFMAs; whole kernel if none), by kind and width:")
    out += [f"  {_label(k)}: {_breakdown(k) or '-'}" for k in kernels]
    return "\n".join(out)


def write_csv(kernels: list[KernelReport], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fields = ["file", "kernel", "symbol", "vgpr_spills", "sgpr_spills", "compiler_occupancy"]
    fields += [title for title, _ in _COLUMNS] + ["loop", "loop_mix", "hipified_by", "standins"]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(fields)
        for k in kernels:
            mix = ";".join(f"{kind}:{n}" for kind, n in sorted(k.loop_mix.items()))
            writer.writerow([k.file, k.name, k.symbol, k.vgpr_spills, k.sgpr_spills, k.compiler_occupancy]
                            + [value(k) for _, value in _COLUMNS] + [k.loop, mix, k.hipified_by, k.standins])
