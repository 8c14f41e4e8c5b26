"""Right everywhere but one element, which is NaN."""
from reference.task import ref_kernel


def custom_kernel(data):
    out = ref_kernel(data)
    out[0, 0] = float("nan")
    return out
