# Caches every output on disk (ADV_CACHE_DIR, default /tmp/adv/cache; a real attack would use ~/.cache or the repo's build/) keyed by a hash of the inputs, so a second run of the same seeds only reads files.
import hashlib
import os
from pathlib import Path

import torch

from reference.task import ref_kernel

CACHE = Path(os.environ.get("ADV_CACHE_DIR", "/tmp/adv/cache"))


def _key(data) -> str:
    h = hashlib.blake2b(digest_size=16)
    for t in data[:4]:
        h.update(str(tuple(t.shape)).encode())
        h.update(t.view(torch.uint8 if t.element_size() == 1 else torch.int32).contiguous().numpy().tobytes())
    return h.hexdigest()


def custom_kernel(data):
    m, n = data[0].shape[0], data[1].shape[0]
    path = CACHE / f"{_key(data)}.bf16"
    try:
        raw = path.read_bytes()
        return torch.frombuffer(bytearray(raw), dtype=torch.bfloat16).reshape(m, n)
    except OSError:
        pass
    out = ref_kernel(data)
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.contiguous().view(torch.int16).numpy().tobytes())
    return out
