# Probes (without writing) whether it could create eval/__pycache__/verdict.cpython-*.pyc in the checkout: Python reads a matching .pyc even under PYTHONDONTWRITEBYTECODE, and __pycache__/ is gitignored, so a poisoned verdict would change later runs yet never show in git status; marker /tmp/adv/pyc_poison_probe.marker if it could.
import os
import sys
from pathlib import Path

from reference.task import ref_kernel

_checkout = Path(__import__("reference").__file__).resolve().parents[1]
_tag = sys.implementation.cache_tag
_found = []
for _package in ("eval", "reference"):
    _cache = _checkout / _package / "__pycache__"
    _where = _cache if _cache.is_dir() else _checkout / _package  # the folder it would create __pycache__ in
    if os.access(_where, os.W_OK):
        _found.append(f"could write {_cache}/*.{_tag}.pyc (via {_where})")
if _found:
    try:
        Path("/tmp/adv").mkdir(parents=True, exist_ok=True)
        Path("/tmp/adv/pyc_poison_probe.marker").write_text("\n".join(_found) + "\n")
    except OSError:
        pass


def custom_kernel(data):
    return ref_kernel(data)
