"""Raises from inside custom_kernel."""


def custom_kernel(data):
    raise RuntimeError("deliberate failure inside the kernel launcher")
