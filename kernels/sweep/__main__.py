"""python -m kernels.sweep [--list] [--out PATH] [NAME ...]: list the sweep's configurations or
write a submission-style module of them (all by default) for eval/run.py or python -m reports.offline."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kernels import sweep


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kernels.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="configurations (default: all)")
    parser.add_argument("--list", action="store_true", help="print every configuration's name and exit")
    parser.add_argument("--out", type=Path, help="write the submission here")
    args = parser.parse_args(argv)
    if args.list:
        for cfg in sweep.CONFIGS:
            print(f"{cfg.name:36s} {cfg.threads:4d} threads  {cfg.accumulators:4d} accumulators per lane")
        return 0
    if args.out is None:
        parser.error("give --out PATH (or --list)")
    try:
        configs = sweep.by_name(args.names) if args.names else list(sweep.CONFIGS)
    except ValueError as error:
        parser.error(str(error))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(sweep.submission(configs))
    print(f"wrote {args.out} ({len(configs)} configurations; custom_kernel runs {configs[0].name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
