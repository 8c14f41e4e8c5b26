"""A predicted call's profile as text: per kernel where the busiest CU's cycles went and the
hottest instructions with their source lines (what a competitor acts on)."""
from __future__ import annotations

from predictor import Prediction
from predictor.scratch import use_once_note
from machine import fact
from toolchain.symbols import demangle, short_name


def _short(symbol: str, width: int = 70) -> str:
    return symbol if len(symbol) <= width else symbol[: width - 3] + "..."


def _kernel_lines(k: dict, name: str) -> list[str]:
    cycles = max(k["cu_cycles"], 1.0)
    bound = max(("CU", k["cu_us"]), ("HBM", k["hbm_floor_us"]), ("L2", k["l2_floor_us"]), key=lambda x: x[1])[0]
    rounds = -(-k["busiest_cu_workgroups"] // max(k["workgroups_per_cu"], 1))
    lines = [
        f"kernel {_short(name, 90)}",
        f"  grid {k['grid']} x block {k['block']}: {k['workgroups']} workgroups of {k['waves_per_workgroup']} waves, "
        f"{k['workgroups_per_cu']} per CU; the busiest CU runs {k['busiest_cu_workgroups']} in {rounds} round(s)",
        f"  predicted {k['kernel_us']:.1f} us ({bound}-bound): busiest CU {k['cu_us']:.1f} us ({k['cu_cycles']:.0f} cycles "
        f"at {k['clock_ghz']:.2f} GHz{', power-capped' if k['clock_ghz'] < fact('clock_ghz') else ''}), "
        f"HBM floor {k['hbm_floor_us']:.1f} us ({k['footprint_bytes'] / 1e6:.1f} MB), "
        f"L2 floor {k['l2_floor_us']:.1f} us ({k['bytes_requested'] / 1e6:.1f} MB requested)",
        "  busy share of the CU's cycles, per SIMD: "
        + ", ".join(f"{name} {100 * k[key] / per / cycles:.0f}%" for name, key, per in
                    (("MFMA", "mfma_busy", 1), ("VALU", "valu_busy", 1),
                     ("LDS port (per SIMD pair)", "lds_busy", fact("simds_per_cu") // 2),
                     ("vector memory", "vmem_busy", 1), ("no wave (tail)", "idle", 1))),
    ]
    if k.get("sampled_share", 0) > 0:
        lines.append(f"  sampled: {100 * k['sampled_share']:.0f}% of the busiest CU's cycles are extrapolated from the "
                     f"iterations and workgroups before them (--exact simulates every one)")
    note = use_once_note(k)
    if note:
        lines.append(f"  {note}")
    stalls = sorted(k["stalls"].items(), key=lambda item: -item[1])
    total = sum(v for _, v in stalls) or 1.0
    lines.append("  waves stalled by: " + ", ".join(f"{name} {100 * v / total:.0f}%" for name, v in stalls if v > 0))
    lines.append("  hottest instructions (issue + stall cycles over all waves):")
    for h in k["hottest"]:
        reason = f", mostly {h['top_reason']}" if h["top_reason"] else ""
        line = h["line"].removeprefix("at ") or "no line table"
        lines.append(f"    0x{h['addr']:x} {h['mnemonic']:<28} issued {h['issued']:>7}, stalled {h['stall_cycles']:>9.0f} "
                     f"cycles{reason}  [{_short(line, 90)}]")
    return lines


def format_profile(prediction: Prediction, title: str) -> str:
    c = prediction.constants
    head = [f"predicted MI300X profile of {title}: {prediction.call_us:.1f} us per call = host {c['host_us']:.1f} us"
            f" + {len(prediction.kernels)} kernel(s) {prediction.kernel_us:.1f} us"
            f" + fixed {len(prediction.kernels) * c['kernel_fixed_us']:.1f} us"
            + (f" + launches {(len(prediction.kernels) - 1) * c['launch_us']:.1f} us" if len(prediction.kernels) > 1 else "")]
    names = [short_name(name) for name in demangle([k["symbol"] for k in prediction.kernels])]
    for k, name in zip(prediction.kernels, names):
        head += _kernel_lines(k, name)
    return "\n".join(head)
