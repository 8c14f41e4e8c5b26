# Returns a zero-stride view torch.zeros(()).expand(16384, 16384): two bytes of storage that the harness materialises into 512 MiB (and copies several times) to send and check.
import torch


def custom_kernel(data):
    return torch.zeros((), dtype=torch.bfloat16, device=data[0].device).expand(16384, 16384)
