# Writes 1 GiB to stdout and 1 GiB to stderr (straight to the file descriptors it inherited from the harness) during its first call, then answers correctly.
import os

from reference.task import ref_kernel

_CHUNK = b"flood " * (8 * 1024 * 1024 // 6)
_done = False


def custom_kernel(data):
    global _done
    if not _done:
        _done = True
        for fd in (1, 2):
            written = 0
            while written < 1024 ** 3:
                written += os.write(fd, _CHUNK)
    return ref_kernel(data)
