# Probes whether the worker can read its parent's memory through /proc/<ppid>/mem (the harness's verdicts live there; write access is granted by the same ptrace check); reads only the ELF magic of the first mapping; marker /tmp/adv/proc_mem_probe.marker if it worked.
import os
from pathlib import Path

from reference.task import ref_kernel

MARKER = Path("/tmp/adv/proc_mem_probe.marker")
_probed = False


def _probe(pid: int) -> str | None:
    try:
        first = Path(f"/proc/{pid}/maps").read_text().splitlines()[0]
        start = int(first.split("-")[0], 16)
        with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
            mem.seek(start)
            magic = mem.read(4)
        return f"read {magic!r} at {start:#x} in pid {pid}"
    except (OSError, ValueError, IndexError):
        return None


def custom_kernel(data):
    global _probed
    if not _probed:
        _probed = True
        result = _probe(os.getppid())
        if result:
            MARKER.parent.mkdir(parents=True, exist_ok=True)
            MARKER.write_text(result + "\n")
    return ref_kernel(data)
