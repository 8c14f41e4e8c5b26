"""Notice a submission that rebinds what the harness measures and checks with.

The harness binds its clock and synchronize call (eval/timing.py) before a submission is
imported, so rebinding `time.perf_counter_ns` cannot change a measurement, and the verdict
is decided in another process (eval/verdict.py), so replacing a checker cannot change it.
Both are still attempts to game the result: this module snapshots the objects behind those
names before the import and fails the submission, naming what it replaced, when any of them
changed after the import or after a call.
"""
from __future__ import annotations

import importlib
import sys

# (module, attribute) pairs a submission has no business rebinding.
WATCHED = (
    ("time", "perf_counter_ns"), ("time", "perf_counter"), ("time", "monotonic_ns"),
    ("time", "time_ns"), ("torch.cuda", "synchronize"), ("torch.cuda", "Event"),
    ("reference", "check_implementation"), ("reference.task", "check_implementation"),
    ("reference.task", "ref_kernel"), ("reference.task", "generate_input"),
    ("reference.check", "verdict"), ("utils", "verbose_allclose"), ("utils", "match_reference"),
    ("eval.timing", "perf_counter_ns"), ("eval.timing", "synchronize"), ("eval.timing", "METHODS"),
    ("eval.channel", "pack_tensor"), ("eval.channel", "receive"),
)


class TamperError(Exception):
    """The submission rebound something the harness relies on."""


class Snapshot:
    def __init__(self):
        self.objects = {}
        for module_name, attribute in WATCHED:
            module = sys.modules.get(module_name) or importlib.import_module(module_name)
            self.objects[(module_name, attribute)] = (module, getattr(module, attribute))

    def verify(self, when: str) -> None:
        changed = [f"{name}.{attribute}" for (name, attribute), (module, original) in self.objects.items()
                   if sys.modules.get(name) is not module or getattr(module, attribute, None) is not original]
        if changed:
            raise TamperError(f"the submission replaced {', '.join(changed)} ({when}); the harness's "
                              f"clock, synchronize and checker are not the submission's to change, so "
                              f"its results are rejected")
