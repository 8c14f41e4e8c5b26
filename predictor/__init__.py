"""Predicted MI300X time of a submission's call, from the ISA engine's timing model.

The ISA engine times every kernel launch of the call on a simulated MI300X
(engines/isa/core/timing.cpp: the busiest CU in cycle detail, the rest of the grid as
bandwidth floors); this module adds what happens around the kernels on the runners:

    call_us = host_us + sum over launches (kernel_us + kernel_fixed_us) + (launches - 1) * launch_us

Every constant and its source is in calibration.yaml. Numbers from here are "predicted",
never measured.
"""
from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml

CALIBRATION = Path(__file__).with_name("calibration.yaml")
# The `fitted:` constants added around the kernels; every other fitted key is a timing-model setting.
CALL_CONSTANTS = ("host_us", "kernel_fixed_us", "launch_us")
# The timing model's setting that turns its sampled simulation off (engines/isa/core/hardware_fields.h).
EXACT = ("steady_state_tolerance", 0.0)


class PredictionError(RuntimeError):
    """The call cannot be predicted (it launched no HIP kernel, or a kernel could not be timed)."""


@functools.cache
def calibration() -> dict:
    return yaml.safe_load(CALIBRATION.read_text())


def hardware(overrides: dict | None = None) -> dict[str, float]:
    """The timing model's settings beyond the machine's facts (which the engine reads from
    machine/mi300x.yaml itself): the model's priors and its fitted settings."""
    cal = calibration()
    settings = {key: entry["value"] for key, entry in cal["hardware"].items()}
    settings.update({key: value for key, value in cal["fitted"].items() if key not in CALL_CONSTANTS})
    settings.update(overrides or {})
    return {key: float(value) for key, value in settings.items()}


def overridden(pairs: list[tuple[str, float]]) -> dict[str, float]:
    """hardware() with a command line's --set pairs; ValueError naming any unknown setting."""
    settings = hardware()
    unknown = [name for name, _ in pairs if name not in settings]
    if unknown:
        raise ValueError(f"--set: unknown setting {', '.join(unknown)} (calibration.yaml's hardware: and fitted: names)")
    return hardware(dict(pairs))


def setting_override(text: str) -> tuple[str, float]:
    """NAME=VALUE from a command line's --set, for overridden()."""
    import argparse

    name, _, value = text.partition("=")
    try:
        return name, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--set {text}: expected NAME=NUMBER") from None


@dataclass
class Prediction:
    call_us: float
    kernels: list[dict] = field(default_factory=list)  # engines.isa.timing.take() entries
    constants: dict = field(default_factory=dict)

    @property
    def kernel_us(self) -> float:
        return sum(k["kernel_us"] for k in self.kernels)


@contextlib.contextmanager
def same_input_timed_once():
    """Calls inside make their launches on the same input (the benchmark's untimed first call and
    its timed one): a launch like one timed before takes that timing instead of being timed again."""
    from engines.isa import timing

    timing.remember(True)
    try:
        yield
    finally:
        timing.remember(False)


def call_us(kernels: list[dict], constants: dict) -> float:
    """Host time of one call around its timed kernels."""
    return (constants["host_us"] + sum(k["kernel_us"] + constants["kernel_fixed_us"] for k in kernels)
            + max(0, len(kernels) - 1) * constants["launch_us"])


def predict(call: Callable[[], object], settings: dict | None = None,
            constants: dict | None = None, exact: bool = False,
            progress: Callable[[float], None] | None = None) -> tuple[Prediction, object]:
    """Runs call() with every launch timed; returns the prediction and call()'s result (whose
    kernel outputs are incomplete: only the busiest CU's workgroups ran). `exact` simulates
    every iteration of every loop and every workgroup of the busiest CU, where by default the
    timing model extrapolates a loop's or the workgroups' settled steady state (docs/predictor.md).
    `progress(fraction)` hears how far each launch's timing is, a few times a second."""
    from engines.isa import timing

    constants = constants or calibration()["fitted"]
    settings = dict(settings or hardware())
    if exact:
        settings[EXACT[0]] = EXACT[1]
    timing.enable(settings)
    timing.listen(progress)
    try:
        timing.take()
        result = call()
        kernels = timing.take()
    finally:
        timing.listen(None)
        timing.disable()
    if not kernels:
        raise PredictionError("the call launched no HIP kernel: the predicted method times HIP kernels on "
                              "the ISA engine (--engine isa); torch's own operators are not modelled")
    return Prediction(call_us(kernels, constants), kernels, dict(constants)), result
