# At import, appends a harmless trailing comment to the checkout's reference/task.py, reference/check.py and eval/verdict.py (a real attack would make them accept anything) and lists what it could write in /tmp/adv/writes_checkout.marker (created only if a write worked).
from pathlib import Path

from reference.task import ref_kernel

_CHECKOUT = Path(__import__("reference").__file__).resolve().parents[1]
_results = []
for _relative in ("reference/task.py", "reference/check.py", "eval/verdict.py"):
    try:
        with open(_CHECKOUT / _relative, "a") as _f:
            _f.write("\n# adversarial test writes_checkout.py was here (harmless; restore with git checkout)\n")
        _results.append(f"appended to {_CHECKOUT / _relative}")
    except OSError as _exc:
        _results.append(f"could not write {_CHECKOUT / _relative}: {_exc}")
if any(line.startswith("appended") for line in _results):  # the marker exists only if a write worked
    try:
        Path("/tmp/adv").mkdir(parents=True, exist_ok=True)
        Path("/tmp/adv/writes_checkout.marker").write_text("\n".join(_results) + "\n")
    except OSError:
        pass


def custom_kernel(data):
    return ref_kernel(data)
