"""Our configuration sweep (kernels/sweep) under the predictor: every configuration built once
for the ISA engine, then predicted one configuration and shape at a time.

    python -m predictor.family                                    # every configuration, test case 0
    python -m predictor.family bm256_bn128_bk128_w2x2_mfma32_d1 --shapes 0 9 1024,1536,7168

Prints per configuration and shape the predicted kernel time, the workgroups the timing model
placed on one CU, or the engine's refusal (a configuration that cannot be predicted is a row
with its reason, never the end of the run). Predicted, not measured.
"""
from __future__ import annotations

import argparse
import sys
from types import ModuleType

from predictor import Prediction, hardware, predict
from kernels import sweep
from reference import contract
from reference.task import generate_input

_SEED = 1


def build(configs: list[sweep.SweepConfig]) -> ModuleType:
    """The sweep's submission of `configs` built for the ISA engine (one build, cached by content)."""
    import engines.isa

    return sweep.load(configs, engines.isa.load_inline)


def predict_config(module: ModuleType, index: int, m: int, n: int, k: int,
                   settings: dict | None = None) -> Prediction:
    """The predicted call of configuration `index` of a built sweep module on an m x n x k input.
    Raises the engine's error (engines.isa.errors.IsaError) when it refuses or faults."""
    data = generate_input(m, n, k, _SEED, device="cpu")
    prediction, _ = predict(lambda: module.run(index, data), settings or hardware())
    return prediction


def _shape(text: str) -> tuple[int, int, int]:
    if "," in text:
        parts = text.split(",")
        if len(parts) != 3 or not all(part.isdigit() and int(part) > 0 for part in parts):
            raise ValueError(f"--shapes {text}: m,n,k must be three positive integers")
        m, n, k = (int(part) for part in parts)
        return m, n, k
    cases = contract.cases("tests")
    if not text.isdigit() or int(text) >= len(cases):
        raise ValueError(f"--shapes {text}: not a test case index (0-{len(cases) - 1}) or m,n,k")
    case = cases[int(text)]
    return case.m, case.n, case.k


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m predictor.family", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="sweep configurations (default: all)")
    parser.add_argument("--shapes", nargs="+", default=["0"], metavar="SHAPE",
                        help="test case indices or m,n,k (default: test case 0)")
    args = parser.parse_args(argv)
    try:
        configs = sweep.by_name(args.names) if args.names else list(sweep.CONFIGS)
        shapes = [_shape(text) for text in args.shapes]
    except ValueError as error:
        parser.error(str(error))
    module = build(configs)
    refused = 0
    print(f"{'configuration':34s} {'m,n,k':>16s} {'kernel us':>10s} {'per CU':>7s}  (predicted, not measured)")
    for index, cfg in enumerate(configs):
        for m, n, k in shapes:
            try:
                kernel = predict_config(module, index, m, n, k).kernels[0]
                print(f"{cfg.name:34s} {f'{m},{n},{k}':>16s} {kernel['kernel_us']:10.1f} {kernel['workgroups_per_cu']:7d}")
            except RuntimeError as error:  # the engine refused or faulted: the reason is the row
                refused += 1
                print(f"{cfg.name:34s} {f'{m},{n},{k}':>16s}    refused: {str(error).splitlines()[0]}")
    print(f"{refused} of {len(configs) * len(shapes)} predictions refused", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
