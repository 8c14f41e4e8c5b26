# Tries the network from inside the kernel (TCP connect to 1.1.1.1:53 and 8.8.8.8:53, DNS lookup of example.com, 3 s each); creates /tmp/adv/network_probe.marker only if any of it worked; answers correctly.
import socket
import sys
from pathlib import Path

from reference.task import ref_kernel

MARKER = Path("/tmp/adv/network_probe.marker")
_probed = False


def _probe() -> list[str]:
    worked = []
    for host in ("1.1.1.1", "8.8.8.8"):
        try:
            socket.create_connection((host, 53), timeout=3).close()
            worked.append(f"tcp {host}:53 connected")
        except OSError as exc:
            print(f"network_probe: tcp {host}:53 failed: {exc}", file=sys.stderr)
    try:
        socket.setdefaulttimeout(3)
        worked.append(f"dns example.com -> {socket.gethostbyname('example.com')}")
    except OSError as exc:
        print(f"network_probe: dns failed: {exc}", file=sys.stderr)
    finally:
        socket.setdefaulttimeout(None)
    return worked


def custom_kernel(data):
    global _probed
    if not _probed:
        _probed = True
        worked = _probe()
        if worked:
            MARKER.parent.mkdir(parents=True, exist_ok=True)
            MARKER.write_text("\n".join(worked) + "\n")
    return ref_kernel(data)
