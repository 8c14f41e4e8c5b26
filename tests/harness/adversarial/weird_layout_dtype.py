# Right values as a float64, column-major, storage-offset view of a larger buffer: the published check converts any dtype and ignores strides, so it passes; under --strict the harness holds outputs to the reference's dtype (bf16) and a dense layout.
import torch

from reference.task import ref_kernel


def custom_kernel(data):
    exact = ref_kernel(data).to(torch.float64)
    m, n = exact.shape
    buffer = torch.full((m * n + 7,), float("nan"), dtype=torch.float64, device=exact.device)
    view = buffer.as_strided((m, n), (1, m), storage_offset=7)
    view.copy_(exact)
    return view
