"""Notice a submission that rebinds what the harness measures and checks with.

The harness binds its clock and synchronize call (eval/timing.py) before a submission is
imported, so rebinding `time.perf_counter_ns` cannot change a measurement, and the verdict
is decided in another process (eval/verdict.py), so replacing a checker cannot change it.
Both are still attempts to game the result: this module snapshots the objects behind those
names before the import, and every name of the harness's own modules (eval, predictor, reference): each
function with its code and defaults, each class's functions, each dict's entries, each frozen
record's fields. It fails the submission, naming what it replaced, when any of them changed
after the import or after a call.
"""
from __future__ import annotations

import dataclasses
import importlib
import sys
import types

# (module, attribute) pairs a submission has no business rebinding.
WATCHED = (
    ("time", "perf_counter_ns"), ("time", "perf_counter"), ("time", "monotonic_ns"),
    ("time", "time_ns"), ("torch.cuda", "synchronize"), ("torch.cuda", "Event"),
    ("reference", "check_implementation"), ("reference.task", "check_implementation"),
    ("reference.task", "ref_kernel"), ("reference.task", "generate_input"),
    ("reference.check", "verdict"), ("utils", "verbose_allclose"), ("utils", "match_reference"),
    ("eval.timing", "perf_counter_ns"), ("eval.timing", "synchronize"), ("eval.timing", "METHODS"), ("eval.timing", "_clock"),
    ("eval.channel", "pack_tensor"), ("eval.channel", "receive"),
)


class TamperError(Exception):
    """The submission rebound something the harness relies on."""


HARNESS_PACKAGES = ("eval", "predictor", "reference")


def _parts(value, depth: int = 2) -> tuple:
    """What must stay the same object for `value` to be unchanged: a function's code and
    defaults, a class's functions, a dict's entries, a frozen record's fields."""
    if depth == 0:
        return ()
    if isinstance(value, types.FunctionType):
        return (value.__code__, value.__defaults__, value.__kwdefaults__)
    if isinstance(value, type) and value.__module__.split(".")[0] in HARNESS_PACKAGES:
        return tuple(part for name, member in vars(value).items()
                     for part in (name, member, *_parts(member, depth - 1)))
    if isinstance(value, dict):
        return tuple(part for key, item in list(value.items()) if _behaves(item)
                     for part in (key, item, *_parts(item, depth - 1)))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(part for item in vars(value).values() for part in (item, *_parts(item, depth - 1)))
    return ()


def _behaves(value) -> bool:
    """Whether `value` decides what the harness does (a function, a class, a record), as
    opposed to data."""
    return callable(value) or (dataclasses.is_dataclass(value) and not isinstance(value, type))


def _harness_names() -> list[tuple[str, str]]:
    return [(name, attribute) for name, module in list(sys.modules.items())
            if module is not None and name.split(".")[0] in HARNESS_PACKAGES
            for attribute in list(vars(module))]


class Snapshot:
    def __init__(self):
        self.objects = {}
        for module_name, attribute in WATCHED:
            importlib.import_module(module_name)
        for module_name, attribute in [*WATCHED, *_harness_names()]:
            module = sys.modules[module_name]
            value = getattr(module, attribute)
            self.objects[(module_name, attribute)] = (module, value, _parts(value))
        self.watched = {key: self.objects[key] for key in WATCHED}

    def _changed(self, name: str, attribute: str, module, original, parts) -> bool:
        if sys.modules.get(name) is not module:
            return True
        value = getattr(module, attribute, None)
        now = _parts(value)
        return value is not original or len(now) != len(parts) or any(a is not b for a, b in zip(now, parts))

    def verify(self, when: str, everything: bool = True) -> None:
        """Raise TamperError naming what changed: of every harness name, or (a check between
        two calls, ~100x quicker) of WATCHED alone."""
        entries = self.objects if everything else self.watched
        changed = [f"{name}.{attribute}" for (name, attribute), entry in entries.items()
                   if self._changed(name, attribute, *entry)]
        if changed:
            raise TamperError(f"the submission replaced {', '.join(changed)} ({when}); the harness's "
                              f"clock, synchronize and checker are not the submission's to change, so "
                              f"its results are rejected")
